"""On a phone the rows over a game's board are short: the site's bar is one line (its links scroll
sideways), and the players are one line of compact chips that scrolls sideways, so the question and
the board start high on the first screen whatever the table's size. (At 390x844 the bar took 89 px in
three lines and a table of six players 227 px in seven lines: the question started 420 px down.)
Every name, tag and link stays reachable by a swipe; a desktop keeps its rows as they were."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, PHONE_TEST_PASSWORD, SHOTS, SCREENSHOT_TIMEOUT_MS, log_in, open_game, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PASSWORD = PHONE_TEST_PASSWORD

# Snowball Fight at a table of six (Ana and five computer players), stopped where Ana is asked to play.
MAKE_GAME = """
from games import engines, selectors, services
from tests.platform.helpers import play_one, started_game
ana = services.register_user(username='ana', password='%s')
game = started_game(ana, game_type='snowball-fight', bots=5)
ruleset = engines.get('snowball-fight')
for _ in range(60):
    state = selectors.game_state(selectors.get_game(game.pk))
    if state.get('phase') == 'play' and 0 in ruleset.to_act(state):
        break
    play_one(game.pk, {0: ana})
print('GAME', game.pk)
""" % PASSWORD

ROWS_JS = """
() => {
  const box = s => { const r = document.querySelector(s).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  const strip = document.querySelector('#live .players');
  return {scroll: scrollY, screen: innerHeight, pageWidth: document.documentElement.scrollWidth,
          topbar: box('.topbar'), players: box('#live .players'), prompt: box('.prompt-bar'), board: box('.board-wrap'),
          stripScrolls: strip.scrollWidth > strip.clientWidth};
}
"""

# The tallest part of a row's chips or links that takes more than one line box (a name or a tag broken in two).
BROKEN_JS = """
() => [...document.querySelectorAll('#live .players > *, .topbar nav > a, .topbar .who, .topbar .linklike')]
  .filter(e => new Set([...e.getClientRects()].map(r => Math.round(r.top))).size > 1)
  .map(e => e.textContent.trim())
"""

ROWS_AT_MOST = 0.25  # of the screen's height: the site's bar, the game's title and badges and the players, together
ONE_LINE = 40  # px: the players' strip, and the site's bar (its links a fingertip high)


def _scroll_to_the_end(page, selector: str) -> None:
    page.evaluate("(s) => { const e = document.querySelector(s); e.scrollLeft = e.scrollWidth; }", selector)


def _within_the_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def test_on_a_phone_the_bar_and_the_players_are_one_line_each_and_the_question_starts_high(browser, live_server_proc):
    game_id = next(line.split()[1] for line in live_server_proc.manage("shell", "-c", MAKE_GAME).splitlines()
                   if line.startswith("GAME "))
    url = f"{live_server_proc.url}/games/{game_id}/"
    page = browser.new_context(**PHONE).new_page()
    errors = script_errors_of(page, timeout_ms=20000)
    log_in(page, live_server_proc.url, "ana", PASSWORD)
    open_game(page, url)
    expect(page.locator("#live")).to_have_attribute("data-your-turn", "1")
    rows = page.evaluate(ROWS_JS)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "game-rows-phone.png"), animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)

    assert rows["scroll"] == 0 and rows["pageWidth"] <= 390, rows
    assert rows["players"]["bottom"] <= ROWS_AT_MOST * rows["screen"], f"the players end {rows['players']['bottom']:.0f} px down: {rows}"
    assert rows["topbar"]["height"] <= ONE_LINE + 8, rows
    assert rows["players"]["height"] <= ONE_LINE, rows
    assert rows["prompt"]["top"] < 0.3 * rows["screen"], rows
    assert rows["board"]["top"] < rows["screen"] / 2, rows
    assert page.evaluate(BROKEN_JS) == []

    # Every player is in the strip, which scrolls sideways (the page does not); the last of it is reached by a swipe.
    players = page.locator("#live .players .player")
    expect(players).to_have_count(6)
    for seat in range(1, 6):
        expect(players.nth(seat)).to_contain_text(f"Computer {seat + 1}")
    expect(page.locator("#live .players .player.me")).to_contain_text("ana (you)")
    expect(page.locator("#live .players .player.me")).to_contain_text("to act")
    assert rows["stripScrolls"], rows
    assert _within_the_screen(page, page.locator("#live .players .player.me"))
    assert not _within_the_screen(page, page.locator("#pace"))
    _scroll_to_the_end(page, "#live .players")
    assert _within_the_screen(page, page.locator("#pace"))
    assert page.evaluate("scrollX") == 0

    # The site bar's links: a fingertip high, "Log out" reached by a swipe, and it still works.
    for link in page.locator(".topbar nav > a").all():
        assert link.bounding_box()["height"] >= 40, link.text_content()
    _scroll_to_the_end(page, ".topbar nav")
    logout = page.locator(".topbar button:has-text('Log out')")
    assert _within_the_screen(page, logout)
    assert logout.bounding_box()["height"] >= 40
    assert errors == []

    # A spectator's rows are as short, "You are watching" in the strip.
    watcher = browser.new_context(**PHONE).new_page()
    watcher.set_default_timeout(20000)
    watcher.goto(url)
    watcher.fill("input[name=display_name]", "Eve")
    with watcher.expect_navigation(wait_until="load"):
        watcher.click(".guest-form button[type=submit]")
    open_game(watcher, url)
    expect(watcher.locator("#live .players .spectating")).to_have_text("You are watching")
    seen = watcher.evaluate(ROWS_JS)
    assert seen["players"]["bottom"] <= ROWS_AT_MOST * seen["screen"] and seen["players"]["height"] <= ONE_LINE, seen
    watcher.context.close()

    with page.expect_navigation(wait_until="load"):
        logout.click()
    expect(page.locator(".topbar")).to_contain_text("Log in")
    page.context.close()

    # A desktop keeps its rows: the bar's links in one line at the right, the players wrapping, no strip.
    desk = browser.new_context(**DESKTOP).new_page()
    log_in(desk, live_server_proc.url, "ana", PASSWORD)
    open_game(desk, url)
    rows = desk.evaluate(ROWS_JS)
    assert rows["topbar"]["height"] < 60 and not rows["stripScrolls"], rows
    assert desk.locator("#live .players").evaluate("e => getComputedStyle(e).flexWrap") == "wrap"
    assert _within_the_screen(desk, desk.locator("#pace"))
    desk.context.close()
