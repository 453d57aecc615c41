"""Two players and a spectator, in three browser contexts, from the lobby to the result (a few
rounds and a resignation in ``make test``, the whole game in ``make test-full-games``)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    DECISIVE_JS, FULL_GAME_FLOWS, as_guest, create_table, resign, script_errors_of, sit_down,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]




def test_two_players_and_a_spectator_play_to_the_result(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()

    as_guest(ana, base + "/", "Ana")
    expect(ana.locator(".who")).to_contain_text("Ana")
    game_url = create_table(ana, "snowball-fight")
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)

    ben.goto(base + "/")
    expect(ben.locator("#lobby-lists")).to_contain_text(f"#{game_id}")
    sit_down(ben, game_url, "Ben", host=ana)
    shot(ana, "01-waiting-room")
    ben.click("#start-game")

    eve.goto(game_url)
    expect(eve.locator(".spectating")).to_be_visible()
    expect(ana.locator("#spectator-count")).to_have_text("1")
    for page in (ana, ben, eve):
        expect(page.locator("#connection")).to_contain_text("Connected")
    expect(ana.locator(".player[data-seat='1']")).to_have_class(re.compile(r"\bonline\b"))

    # Ana keeps her first draft card; back on the page (a reload), her panel says what she
    # keeps and whom the draft waits for, with no buttons left to explain.
    assert ana.evaluate(DECISIVE_JS) == "play"
    ana.reload()
    locked = ana.locator(".sbf-draft-locked")
    expect(locked).to_contain_text("Waiting for Ben to choose; then the draft goes on.")
    expect(locked).to_contain_text("You keep ")
    expect(locked.locator("button")).to_have_count(0)

    clicks = 1
    screenshot_taken = False
    resigned = False  # a short flow resigns after 30 clicks, unless its seed ended the game first
    for _ in range(3000):
        if ana.locator(".result").count() and ben.locator(".result").count():
            break
        progressed = False
        for page in (ana, ben):
            if page.evaluate(DECISIVE_JS):
                clicks += 1
                progressed = True
                page.wait_for_timeout(60)
        if clicks > 12 and not screenshot_taken:
            shot(ana, "02-player-board")
            shot(eve, "03-spectator-board")
            screenshot_taken = True
        if clicks > 30 and not FULL_GAME_FLOWS:
            resign(ben)
            resigned = True
            break
        if not progressed:
            ana.wait_for_timeout(150)
    expect(ana.locator(".result")).to_be_visible()
    expect(ben.locator(".result")).to_be_visible()
    expect(eve.locator(".result")).to_be_visible(timeout=10000)
    for page in (ana, ben, eve):  # still connected, but nothing more will happen
        expect(page.locator("#connection")).to_have_text("Game over")
    assert clicks > 5
    shot(ana, "04-result")
    expected = "Ben resigned" if resigned else ("points" if FULL_GAME_FLOWS else "wins!|Shared victory|No winner")
    assert re.search(expected, ana.locator(".result").inner_text())

    ana.goto(base + "/me/games/")
    expect(ana.locator("table")).to_contain_text(f"#{game_id}")
    for page in (ana, ben, eve):
        page.context.close()


# Each card band whose level, points and card number do not all fit in it, by its text.
CUT_BANDS_JS = """
() => [...document.querySelectorAll('.sbf-band')].filter(b => b.scrollWidth > b.clientWidth + 1
  || [...b.children].some(part => part.getBoundingClientRect().right > b.getBoundingClientRect().right + 1))
  .map(b => b.textContent)
"""


def test_the_small_cards_of_a_reveal_show_level_points_and_number_whole(browser, live_server_proc):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", "Ana")
    create_table(page, "snowball-fight", opt_draft="quick")
    page.locator("button:has-text('Add computer player')").first.click()
    expect(page.locator(".waiting-room .tag:has-text('computer')")).to_have_count(1)
    page.click("#start-game")
    for _ in range(200):  # a reveal's cards (a locked draft pair is drawn small too, for a moment)
        if page.locator(".sbf-reveal .sbf-card.sbf-small").count():
            break
        if not page.evaluate(DECISIVE_JS):
            page.wait_for_timeout(150)
    expect(page.locator(".sbf-reveal .sbf-card.sbf-small").first).to_be_visible()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate(CUT_BANDS_JS) == [], width
    assert not errors, errors
    page.context.close()
