"""The game page's "Copy invite link": copied when the browser lets it, else shown to copy by hand."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of

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
