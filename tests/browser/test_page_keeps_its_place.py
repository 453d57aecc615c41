"""A game page redrawn for a new version stays where the player had scrolled it."""
from __future__ import annotations

import pytest
from playwright.sync_api import Error, expect

from tests.browser.conftest import as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_a_phone_stays_where_it_was_when_a_move_redraws_the_page(browser, live_server_proc):
    """What a Snowball! on a phone: picking a corner redraws the page, which Chrome's scroll
    anchoring then moved to the bottom, past the log and the table talk."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", "Ana")
    page.goto(live_server_proc.url + "/rules/what-a-snowball/")
    page.get_by_role("button", name="Learn to play").first.click()
    page.wait_for_url("**/games/*/")
    expect(page.locator("#connection")).to_contain_text("Connected")
    corner = page.locator("[data-corner]").first
    for _ in range(5):  # the computer players' first moves may redraw the board under the scroll
        try:
            corner.scroll_into_view_if_needed()
            break
        except Error:
            page.wait_for_timeout(300)
    before = page.evaluate("scrollY")
    version = page.evaluate("document.getElementById('live').dataset.version")
    corner.tap()
    page.wait_for_function(f"document.getElementById('live').dataset.version !== '{version}'")
    page.wait_for_timeout(500)
    assert abs(page.evaluate("scrollY") - before) < 50
    assert not errors, errors
    page.context.close()
