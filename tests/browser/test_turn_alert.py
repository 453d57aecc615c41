"""The "your turn" alert: a chime (counted through a stand-in AudioContext) once when the
prompt turns to a player, a flashing title while their tab is hidden, nothing for a spectator,
and neither once the player switches the alert off."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Counts the chimes the page starts, and makes the tab hidden when window.name says so.
STUB_AUDIO = """
window.__chimes = 0;
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} linearRampToValueAtTime() {} }
class FakeNode { constructor() { this.frequency = new FakeParam(); this.gain = new FakeParam(); }
  connect() {} start() { window.__chimes += 1; } stop() {} }
window.AudioContext = class { constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); } createOscillator() { return new FakeNode(); } createGain() { return new FakeNode(); } };
Object.defineProperty(Document.prototype, "hidden", {get() { return true; }});
Object.defineProperty(Document.prototype, "visibilityState", {get() { return "hidden"; }});
"""
TAKE_ONE = "#live [ws-send]:not([disabled])"



def chimes(page) -> int:
    return page.evaluate("window.__chimes")


def test_the_turn_alert_chimes_and_flags_the_title_for_the_player_only_and_can_be_switched_off(browser, table_server, shot):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    for context in contexts:
        context.add_init_script(STUB_AUDIO)
    ana, ben, eve = (context.new_page() for context in contexts)
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)

    as_guest(ana, table_server.url + "/", "Ana")
    ana.click(f"a.game-type[href$='/new/{TABLE.slug}/']")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.locator(".seat-row[data-seat='1'] button:has-text('Sit here')").click()
    as_guest(eve, game_url, "Eve")
    expect(ana.locator(".seat-row[data-seat='1']")).to_contain_text("Ben")
    expect(ana.locator("#turn-alert")).to_be_checked()
    ana.click("#start-game")

    for page in (ana, ben, eve):
        expect(page.locator(".pile-board")).to_be_visible()
    expect(ben.locator("#turn-alert")).to_be_checked()  # Ben sat down after his page loaded: his switch came with it
    expect(ben.locator("label:has(#turn-alert)")).to_be_visible()
    ana.wait_for_function("document.title.startsWith('🔔 Your turn!')")
    assert chimes(ana) == 1
    assert chimes(ben) == 0 and chimes(eve) == 0
    expect(eve.locator("label:has(#turn-alert)")).to_be_hidden()

    ana.click(TAKE_ONE)  # Ben's turn now
    ben.wait_for_function("window.__chimes === 1")
    ben.wait_for_function("document.title.startsWith('🔔 Your turn!')")
    ana.wait_for_function("!document.title.includes('Your turn')")
    assert chimes(ana) == 1  # not again for a redraw that is not a new turn of hers

    ana.locator("#turn-alert").uncheck()
    ben.click(TAKE_ONE)  # Ana's turn again, with her alert off
    expect(ana.locator(".prompt-bar strong")).to_have_text("Take one or two snowballs")
    ana.wait_for_timeout(2500)  # longer than two flashes of the title
    assert chimes(ana) == 1
    assert "🔔" not in ana.title()
    assert chimes(eve) == 0

    ana.reload()
    expect(ana.locator("#turn-alert")).not_to_be_checked()
    shot(ana, "turn-alert-01-switched-off")
    assert errors == []
    for context in contexts:
        context.close()
