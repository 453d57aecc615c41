""""Notify me on my turn" is offered only where it can do something: to a seated player whose
browser supports notifications and has not blocked them, never to a spectator. (A style sheet
rule giving buttons a display of their own showed it to everyone, over its hidden attribute.)"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, script_errors_of
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]

# The browser has blocked notifications for the site.
DENIED = 'Object.defineProperty(Notification, "permission", {get: () => "denied", configurable: true});'
# A browser without notifications (an older phone browser, a page not served securely).
UNSUPPORTED = 'Object.defineProperty(window, "Notification", {value: undefined, configurable: true, writable: true});'



def _page(browser, init_script: str | None = None):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if init_script:
        context.add_init_script(init_script)
    return context.new_page()


def test_notify_me_shows_only_to_a_seated_player_whose_browser_can_notify(browser, table_server, shot):
    ana, eve = _page(browser), _page(browser)
    ben, cy = _page(browser, DENIED), _page(browser, UNSUPPORTED)
    errors = script_errors_of(ana, ben, cy, eve, timeout_ms=10000)

    as_guest(ana, table_server.url + "/", "Ana")
    game_url = create_table(ana, TABLE.slug, num_seats="3")
    for page, name, seat in ((ben, "Ben", 1), (cy, "Cy", 2)):
        as_guest(page, game_url, name)
        page.locator(f".seat-row[data-seat='{seat}'] button:has-text('Sit here')").click()
        expect(ana.locator(f".seat-row[data-seat='{seat}']")).to_contain_text(name)
    as_guest(eve, game_url, "Eve")  # signed in as a guest, watching the waiting room
    expect(eve.locator(".waiting-room")).to_be_visible()

    expect(ana.locator("#notify-me")).to_be_visible()
    expect(ana.locator("#notify-me")).to_have_text("Notify me on my turn")
    expect(eve.locator("#notify-me")).to_be_attached()
    for page in (ben, cy, eve):
        expect(page.locator("#notify-me")).to_be_hidden()
        assert page.locator("#notify-me").evaluate("b => getComputedStyle(b).display") == "none"
    expect(ben.locator(".seat-row[data-seat='1']")).to_contain_text("Ben (you)")  # seated, yet not offered
    shot(eve, "notify-me-01-spectator-waiting-room")
    shot(ben, "notify-me-02-blocked")

    ana.click("#start-game")
    for page in (ana, ben, cy, eve):
        expect(page.locator(".pile-board")).to_be_visible()
    expect(ana.locator("#notify-me")).to_be_visible()
    for page in (ben, cy):
        expect(page.locator("#notify-me")).to_be_hidden()
    expect(eve.locator("#notify-me")).to_be_hidden()
    shot(ana, "notify-me-03-player")
    assert errors == []
    for page in (ana, ben, cy, eve):
        page.context.close()
