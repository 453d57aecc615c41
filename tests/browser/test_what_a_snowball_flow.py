"""What a Snowball! in three browser contexts: two players and a spectator, set-up and a full turn.

The game is created on the new-game page with the roster editor (six Kids, three a player, one
renamed and one re-trained), then both players act only through the page: corners are picked by
clicking the village, Kids are placed and MOVEs ended by clicking points inside the area the
board draws, dice are spent with the tray's buttons. The spectator only watches.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import press_create, FULL_GAME_FLOWS, as_guest, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A point well inside the drawn area (#was-allowed), in village inches: the grid point whose
# neighbours a quarter inch round are all inside too, farthest from `from` (or any, if none given).
INSIDE_JS = """
(from) => {
  const W = window.WhatASnowball; if (!W || !document.getElementById('was-allowed')) return null;
  let best = null;
  for (let x = 0.3; x < 24; x += 0.25) for (let y = 0.3; y < 24; y += 0.25) {
    const ok = [[0,0],[0.25,0],[-0.25,0],[0,0.25],[0,-0.25]].every(e => W.inAllowed([x + e[0], y + e[1]]));
    if (!ok) continue;
    const score = from ? Math.hypot(x - from[0], y - from[1]) : Math.random();
    if (!best || score > best.score) best = {score, p: [x, y]};
  }
  return best && {p: best.p, screen: W.toScreen(best.p[0], best.p[1])};
}
"""




class Driver:
    """Plays one seat through the page; counts what it did."""

    def __init__(self, page, name: str):
        self.page = page
        self.name = name
        self.done: dict[str, int] = {}
        self.moved: set[str] = set()

    def count(self, what: str) -> str:
        self.done[what] = self.done.get(what, 0) + 1
        return what

    def wait_next(self, before: str, timeout: float = 5000) -> None:
        self.page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{before}'",
                                    timeout=timeout)

    def click_inside(self, start=None) -> bool:
        spot = self.page.evaluate(INSIDE_JS, start)
        if not spot:
            return False
        before = live_version(self.page)
        self.page.mouse.click(spot["screen"]["x"], spot["screen"]["y"])
        self.wait_next(before)
        return True

    def press(self, locator) -> None:
        before = live_version(self.page)
        locator.click()
        self.wait_next(before)

    def step(self) -> str | None:
        page = self.page
        if not page.locator("#was-board").count() or not page.locator("#was-board").get_attribute("data-prompt"):
            return None
        if page.locator(".was-reaction").count():
            self.press(page.locator(".was-reaction button[data-decline]"))
            return self.count("reaction")
        if page.locator(".was-corner-pick").count():
            if self.done.get("corner-click"):  # the second pick goes through the panel's button
                self.press(page.locator("[data-was-corners] button").last)
                return self.count("corner-button")
            self.press(page.locator(".was-corner-pick path").first)
            return self.count("corner-click")
        if page.locator("[data-was-place]").count():
            page.locator("input[name=was-place-kid]").last.check()
            if self.name == "Ben" and not self.done.get("typed"):  # the keyboard path: x and y typed in
                spot = page.evaluate(INSIDE_JS, None)
                assert spot, "no room drawn to place a Kid"
                page.fill("[data-was-place] [data-was-x]", f"{spot['p'][0]:.1f}")
                page.fill("[data-was-place] [data-was-y]", f"{spot['p'][1]:.1f}")
                self.press(page.locator("[data-was-place] [data-was-here]"))
                self.count("typed")
                return self.count("place")
            assert self.click_inside(), "no room drawn to place a Kid"
            return self.count("place")
        if page.locator("[data-was-move]").count():
            start = page.evaluate("() => WhatASnowball.clickSpec().actions[0].from")
            if self.click_inside(start):
                return self.count("move")
            self.press(page.locator("[data-was-move] button.secondary"))
            return self.count("stay")
        tray = page.locator("[data-was-tray]")
        if tray.count():
            kid = page.locator("#was-board .was-status .was-chip").first.inner_text()
            key = f"{page.locator('#was-board').get_attribute('data-turn')}:{kid}"
            for kind, selector in (("move", "button[data-spend=move]"), ("throw", "button[data-spend=throw]"),
                                   ("gather", "button[data-spend=gather]"), ("aim", "button[data-spend=aim]")):
                if kind == "move" and key in self.moved:
                    continue
                buttons = tray.locator(selector)
                if buttons.count():
                    if kind == "move":
                        self.moved.add(key)
                    self.press(buttons.first)
                    return self.count(kind)
            self.press(tray.locator("button[data-spend=end_activation]"))
            return self.count("end")
        start = page.locator(".was-do button").first
        if start.count():
            self.press(start)
            return self.count("start")
        return None


def test_two_players_and_a_spectator_set_up_and_play_a_turn(browser, live_server_proc, shot):
    base = live_server_proc.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(3)]
    ana, ben, eve = (c.new_page() for c in contexts)
    errors = script_errors_of(ana, ben, eve, timeout_ms=6000)

    as_guest(ana, base + "/", "Ana")
    expect(ana.locator(".who")).to_contain_text("Ana")
    ana.goto(base + "/games/new/what-a-snowball/")
    ana.select_option("select[name=opt_village]", "high_street")
    expect(ana.locator("[data-roster-help]")).to_contain_text("Players pick their teams in the waiting room")
    expect(ana.locator("[data-roster-fallback]")).to_be_hidden()  # the no-script JSON hint goes with the table
    expect(ana.locator("[data-roster-json]")).to_be_hidden()
    ana.uncheck("[data-roster-default]")
    expect(ana.locator("[data-roster-rows] tr")).to_have_count(6)
    ana.locator("[data-roster-rows] tr").first.locator("input[type=text]").fill("Blizzard")
    ana.locator("[data-roster-rows] tr").nth(3).locator("td").nth(3).locator("select").select_option("strong")
    shot(ana, "was-00-new-game-roster")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)

    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    expect(ana.locator(".waiting-room")).to_contain_text("Ben")
    ben.click("#start-game")
    eve.goto(game_url)
    expect(eve.locator(".spectating")).to_be_visible()
    for page in (ana, ben, eve):
        expect(page.locator("#connection")).to_contain_text("Connected")
        expect(page.locator("#was-board")).to_have_attribute("data-phase", "corners")
        expect(page.locator("[data-was-rolloff]")).to_contain_text("Roll-off")
    # the roster editor's choices reached the game
    expect(eve.locator(".was-sheet").first).to_contain_text("Blizzard")
    expect(eve.locator(".was-sheet").nth(1).locator("tbody tr").first).to_contain_text("Strong")
    expect(eve.locator(".was-corner-pick")).to_have_count(0)
    shot(eve, "was-01-corners-spectator")

    drivers = [Driver(ana, "Ana"), Driver(ben, "Ben")]
    shots: set[str] = set()
    for _ in range(400):
        turn = int(eve.locator("#was-board").get_attribute("data-turn") or 0)
        if turn >= 2:
            break
        progressed = False
        for d in drivers:
            board = d.page.locator("#was-board")
            moment = board.get_attribute("data-phase") if board.count() else None
            if d.page.locator("[data-was-move]").count():
                moment = "move"
            elif d.page.locator("[data-was-tray]").count():
                moment = "tray"
            if moment and moment not in shots and board.get_attribute("data-prompt"):
                shots.add(moment)
                shot(d.page, f"was-02-{moment}-player")
                shot(eve, f"was-02-{moment}-spectator")
                if moment in ("move", "tray"):
                    d.page.set_viewport_size({"width": 390, "height": 844})
                    shot(d.page, f"was-02-{moment}-player-phone")
                    d.page.set_viewport_size({"width": 1280, "height": 900})
            try:
                what = d.step()
            except (PlaywrightError, AssertionError) as exc:
                if "no room drawn" in str(exc):
                    raise
                what = None  # the board changed under the click; look again
            progressed = progressed or bool(what)
            if what == "throw" and "thrown" not in shots:
                shots.add("thrown")
                # the spectator's log explains the roll: the dice, every modifier, the number needed
                expect(eve.locator("#log-lines")).to_contain_text(re.compile(r"Roll to Hit \(2D6\): .* needing \d+|an automatic hit"))
                shot(eve, "was-03-after-throw-spectator")
            if what == "place" and "placed" not in shots:
                shots.add("placed")
                expect(eve.locator("#log-lines")).to_contain_text("takes position at")
        if not progressed:
            ana.wait_for_timeout(100)

    expect(eve.locator("#was-board")).to_have_attribute("data-turn", "2")
    totals = {k: sum(d.done.get(k, 0) for d in drivers) for k in
              ("corner-click", "corner-button", "place", "move", "throw", "gather", "aim", "end")}
    assert totals["corner-click"] == 2 and totals["corner-button"] == 1, totals
    assert totals["place"] == 6 and drivers[1].done.get("typed") == 1, totals
    assert totals["move"] >= 1 and totals["gather"] >= 1, totals
    log = eve.locator("#log-lines").inner_text()
    assert "Turn 2 of 6. Activation rolls" in log
    assert re.search(r"moves [\d.]+\" of", log), log
    # the spectator never gets a control that acts
    assert eve.locator("#was-board button[ws-send]").count() == 0
    expect(eve.locator(".was-order .was-track-item")).to_have_count(6)
    shot(eve, "was-04-turn-2-spectator")
    eve.set_viewport_size({"width": 390, "height": 844})
    shot(eve, "was-04-turn-2-spectator-phone")
    assert not errors, errors
    ana.goto(base + "/me/games/")
    expect(ana.locator("table")).to_contain_text(f"#{game_id}")
    for context in contexts:
        context.close()


@pytest.mark.skipif(not FULL_GAME_FLOWS,
                    reason="six turns clicked through take ten minutes or more: `make test-full-games` runs it")
@pytest.mark.timeout(1800)  # the suite's ten minutes a test is less than this flow takes beside the others
def test_three_teams_two_people_and_a_computer_play_to_the_result(browser, live_server_proc, shot):
    """Three teams: Ana and Ben by the page, a computer player for the third; corners, set-up and six
    turns (or until one team is left) through the page, then the result with each team's points
    and the book's end bonuses, the same for both players."""
    base = live_server_proc.url
    contexts = [browser.new_context(viewport=size) for size in ({"width": 1280, "height": 900}, {"width": 375, "height": 812})]
    ana, ben = (c.new_page() for c in contexts)
    errors = script_errors_of(ana, ben, timeout_ms=8000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/what-a-snowball/")
    ana.select_option("select[name=num_seats]", "3")
    ana.select_option("select[name=num_teams]", "3")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    expect(ana.locator(".waiting-room")).to_contain_text("Ben")
    ana.locator("button:has-text('Add computer player')").first.click()
    expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(1)
    ana.click("#start-game")
    drivers = [Driver(ana, "Ana"), Driver(ben, "Ben")]
    for _ in range(3000):
        if ana.locator("#was-board").get_attribute("data-phase") == "over":
            break
        progressed = False
        for d in drivers:
            try:
                progressed = bool(d.step()) or progressed
            except (PlaywrightError, AssertionError) as exc:
                if "no room drawn" in str(exc):
                    raise
        if not progressed:
            ana.wait_for_timeout(100)
    for page in (ana, ben):
        expect(page.locator("#was-board")).to_have_attribute("data-phase", "over")
        result = page.locator(".was-over")
        expect(result).to_contain_text(re.compile(r"six turns are over|is left|surrender", re.I))
        expect(result.locator(".was-score tr")).to_have_count(3)
        expect(result).to_contain_text("points of remaining Kids")
    assert ana.locator(".was-over").inner_text() == ben.locator(".was-over").inner_text()
    totals = {k: sum(d.done.get(k, 0) for d in drivers) for k in ("place", "move", "throw", "gather", "end")}
    assert all(d.done.get("place") for d in drivers) and totals["move"] >= 6 and totals["throw"] >= 1, totals
    shot(ana, "was-05-result-player")
    shot(ben, "was-05-result-phone")
    assert not errors, errors
    for context in contexts:
        context.close()


def test_on_a_desktop_the_whole_village_fits_the_window_below_the_bars_and_on_a_phone_it_is_full_width(
        browser, live_server_proc):
    """At 1280 x 800, with the site's header, the players, the prompt and the status bars above it, the
    village ends inside the window and the dice tray stands beside it; at 390 px it is as wide as the page."""
    base = live_server_proc.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    ana, ben = (c.new_page() for c in contexts)
    errors = script_errors_of(ana, ben, timeout_ms=6000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/what-a-snowball/")
    press_create(ana)
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    expect(ana.locator(".waiting-room")).to_contain_text("Ben")
    ben.click("#start-game")
    drivers = [Driver(ana, "Ana"), Driver(ben, "Ben")]
    player = None
    for _ in range(200):
        player = next((d.page for d in drivers if d.page.locator("[data-was-tray]").count()), None)
        if player:
            break
        for d in drivers:
            try:
                d.step()
            except (PlaywrightError, AssertionError):
                pass
    assert player, "no dice tray came up"
    player.goto(game_url)
    expect(player.locator("[data-was-tray]")).to_be_visible()
    rects = "() => ['#was-village', '.was-side', '.prompt-bar'].map(s => document.querySelector(s).getBoundingClientRect().toJSON())"
    village, side, prompt = player.evaluate(rects)
    assert prompt["bottom"] < village["top"]
    assert village["bottom"] <= 800, village
    assert village["width"] >= 400 and abs(village["width"] - village["height"]) < 2, village
    assert side["left"] >= village["right"] and side["top"] < village["bottom"], (side, village)
    player.set_viewport_size({"width": 390, "height": 844})
    village = player.evaluate(rects)[0]
    assert village["width"] >= 340, village
    assert not errors, errors
    for context in contexts:
        context.close()


def test_four_teams_sheets_show_every_column_on_a_laptop_and_a_phone(browser, live_server_proc, shot):
    """Four teams at 1366 x 800: each team's sheet shows all its columns (Points and State too), with
    nothing hidden behind a scroll bar inside the sheet; at 390 px each Kid's row is stacked instead."""
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    errors = script_errors_of(ana, timeout_ms=6000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/what-a-snowball/")
    ana.select_option("select[name=num_seats]", "4")
    ana.select_option("select[name=num_teams]", "4")
    press_create(ana)
    for count in range(1, 4):
        ana.locator("button:has-text('Add computer player')").first.click()
        expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(count)
    ana.click("#start-game")
    expect(ana.locator(".was-sheet")).to_have_count(4)
    hidden = """() => [...document.querySelectorAll('.was-sheet')].filter(s => s.scrollWidth > s.clientWidth + 1)
                       .map(s => s.getAttribute('aria-label') + ': ' + s.scrollWidth + ' > ' + s.clientWidth)"""
    for sheet in ana.locator(".was-sheet").all():
        for header in ("Points", "State"):
            expect(sheet.locator("thead th", has_text=header)).to_be_visible()
    assert ana.evaluate(hidden) == []
    shot(ana, "was-06-four-teams-sheets")
    ana.set_viewport_size({"width": 390, "height": 844})
    expect(ana.locator(".was-sheet thead").first).to_be_hidden()
    expect(ana.locator(".was-sheet td[data-label=State]").first).to_be_visible()
    assert ana.evaluate(hidden) == []
    shot(ana, "was-06-four-teams-sheets-phone")
    assert not errors, errors
    ana.context.close()
