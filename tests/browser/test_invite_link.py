"""The game page's "Copy invite link": copied when the browser lets it, else shown to copy by hand."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, press_create, resign, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A page served on plain http from a network address: no navigator.clipboard, and here the
# selection's copy does not copy either.
NO_CLIPBOARD_JS = """
Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined, configurable: true});
document.execCommand = () => false;
"""


def _new_game(page, base: str) -> str:
    as_guest(page, base + "/", "Ana")
    page.click("a.game-type[href$='/snowball-fight/']")
    press_create(page)
    expect(page.locator(".waiting-room")).to_be_visible()
    return page.locator("#copy-invite").get_attribute("data-invite-url")


def test_the_invite_link_is_copied_to_the_clipboard(browser, live_server_proc):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_proc.url)
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    invite_url = _new_game(page, live_server_proc.url)
    assert "/invite/" in invite_url
    page.click("#copy-invite")
    expect(page.locator("#copy-invite")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == invite_url
    assert not errors, errors
    context.close()


def test_without_a_clipboard_the_invite_link_is_shown_to_copy_by_hand(browser, live_server_proc):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(NO_CLIPBOARD_JS)
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    invite_url = _new_game(page, live_server_proc.url)
    shown = []

    def read_and_close(dialog):
        shown.append((dialog.type, dialog.default_value))
        dialog.dismiss()

    page.on("dialog", read_and_close)
    page.click("#copy-invite")
    page.wait_for_timeout(300)
    assert shown == [("prompt", invite_url)]
    expect(page.locator("#copy-invite")).to_have_text("Copy invite link")
    assert not errors, errors
    context.close()


def test_the_invite_link_goes_from_the_page_when_the_game_ends_without_a_reload(browser, live_server_proc, shot):
    """A player and a spectator who came by the invite link, on one page each from before the start:
    "Copy invite link" stays while the game is in play (someone may still come to watch) and goes
    from both pages as the game ends (it stayed until the page was reloaded)."""
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(ana, eve, timeout_ms=10000)
    invite_url = _new_game(ana, live_server_proc.url)
    as_guest(eve, invite_url, "Eve")
    expect(eve.locator(".waiting-room")).to_be_visible()
    ana.locator("button:has-text('Add computer player')").first.click()
    expect(ana.locator("#start-game")).to_be_enabled()
    ana.click("#start-game")
    for page in (ana, eve):
        expect(page.locator("#resign" if page is ana else "#live")).to_be_visible()
        expect(page.locator("#copy-invite")).to_be_visible()
    for page in (ana, eve):
        page.evaluate("window.__samePage = true")  # gone if the page were loaded again

    resign(ana)
    for page in (ana, eve):
        expect(page.locator(".result")).to_be_visible()
        expect(page.locator("#copy-invite")).to_have_count(0)
        expect(page.locator("#connection")).to_have_text("Game over")
    for page in (ana, eve):
        assert page.evaluate("window.__samePage === true")  # the same page, not a reload
    shot(ana, "invite-link-01-gone-at-the-end")
    assert not errors, errors
    for page in (ana, eve):
        page.context.close()
