"""A click whose press and release straddle a redraw from the socket still counts: the page holds
the redraw until the button is released, then draws it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

COUNT_REDRAWS_JS = """
() => {
  window.redrawsSeen = 0;
  document.addEventListener('htmx:wsBeforeMessage', () => { window.redrawsSeen += 1; });
}
"""


def _row(page, seat: int):
    return page.locator(f".seat-row[data-seat='{seat}']")


def test_a_sit_pressed_before_a_redraw_and_released_after_it_takes(browser, live_server_proc):
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    as_guest(ana, base + "/", "Ana")
    ana.click("a.game-type[href$='/snowball-fight/']")
    ana.select_option("select[name=num_seats]", "4")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    as_guest(ben, ana.url, "Ben")
    errors = script_errors_of(ana, ben, timeout_ms=10000)
    expect(ben.locator(".seat-row")).to_have_count(4)
    ben.wait_for_timeout(500)  # the socket's first redraw has come
    ben.evaluate(COUNT_REDRAWS_JS)

    sit = _row(ben, 1).locator("button:has-text('Sit here')")
    sit.hover()
    ben.mouse.down()
    _row(ana, 2).locator("button:has-text('Add computer player')").click()
    expect(_row(ana, 2)).to_contain_text("Computer 3")
    ben.wait_for_function("window.redrawsSeen > 0")
    expect(_row(ben, 2)).not_to_contain_text("Computer 3")  # held while the button is pressed
    ben.mouse.up()

    expect(_row(ben, 1)).to_contain_text("Ben", timeout=3000)
    expect(_row(ben, 2)).to_contain_text("Computer 3")
    expect(_row(ana, 1)).to_contain_text("Ben")
    assert errors == []
    for page in (ana, ben):
        page.context.close()
