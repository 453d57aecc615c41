"""The site's top bar on a phone: it wraps between its links, never inside one."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Each part of the top bar that takes more than one line box (a link broken in two), by its text.
BROKEN_JS = """
() => [...document.querySelectorAll('.topbar .brand, .topbar nav > a, .topbar .who, .topbar .linklike')]
  .filter(e => new Set([...e.getClientRects()].map(r => Math.round(r.top))).size > 1)
  .map(e => e.textContent.trim())
"""


@pytest.mark.parametrize("name", ["Ana", "Wenceslas Frostyphone-Marchbanks the 3rd"])
def test_a_guest_on_a_phone_sees_every_link_of_the_top_bar_whole(browser, live_server_proc, name):
    """Whatever the guest's name, the bar fits the screen's width in at most four short rows."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", name)
    expect(page.locator(".topbar")).to_contain_text("API tokens")
    assert page.evaluate(BROKEN_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".topbar").bounding_box()["height"] <= 130
    expect(page.locator(".topbar")).to_contain_text("Log out")
    assert not errors, errors
    page.context.close()


def test_my_games_on_a_phone_shows_each_game_whole_with_its_button_on_screen(browser, live_server_proc):
    """A row of "My games" is a card on a phone: every column named and the Play button within the screen."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", "Wenceslas Frostyphone")
    for slug in ("jingle-bells", "snowball-fight"):
        page.goto(f"{live_server_proc.url}/rules/{slug}/")
        page.get_by_role("button", name="Learn to play").first.click()
        page.wait_for_url("**/games/*/")
    page.goto(live_server_proc.url + "/me/games/")
    expect(page.locator("tr[data-game]")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for button in page.get_by_role("link", name="Play").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    named = page.evaluate("""() => [...document.querySelector('tr[data-game]').cells]
        .map(td => getComputedStyle(td, '::before').content)""")
    assert '"Pace: "' in named and '"Players: "' in named
    assert not errors, errors
    page.context.close()
