"""Snowball Fight at four seats and two against two, in browsers: two players, computer players
and a spectator, on a wide screen and a phone (375 px)."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from tests.browser.conftest import press_create, SHOTS, SCREENSHOT_TIMEOUT_MS, as_guest, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# One step of play: hand out the team's cards if asked, else a decisive button (lock, an effect,
# a draft keep), else the first tentative choice.
PLAY_JS = """
() => {
  const deal = document.querySelector('#live form.sbf-deal button[type=submit]');
  if (deal) { deal.click(); return 'deal'; }
  const buttons = [...document.querySelectorAll('#live button[ws-send]:not([disabled])')];
  const kind = b => { try { return JSON.parse(JSON.parse(b.getAttribute('hx-vals')).action).type } catch (e) { return '' } };
  const pick = buttons.find(b => kind(b) !== 'choose') || buttons[0];
  if (!pick) return null;
  pick.click();
  return kind(pick);
}
"""


# As PLAY_JS, but a team leader's deal is left for the test to look at and hand out.
PLAY_BUT_HOLD_THE_DEAL_JS = PLAY_JS.replace("if (deal) { deal.click(); return 'deal'; }", "if (deal) return null;")
assert PLAY_BUT_HOLD_THE_DEAL_JS != PLAY_JS


# As PLAY_JS, but a player about to choose aims an Upgrade side when a card has one, as players
# who build their decks do: the Arsenal empties and the game ends in as few turns as a real one.
UPGRADE_JS = """
() => {
  const decided = [...document.querySelectorAll('#live button[ws-send]:not([disabled])')].some(b => {
    try { return JSON.parse(JSON.parse(b.getAttribute('hx-vals')).action).type !== 'choose' } catch (e) { return false }
  });
  const upgrade = [...document.querySelectorAll('#live .sbf-ring-choose .sbf-act')]
    .find(act => /Upgrade/.test(act.firstChild.textContent));
  if (!decided && upgrade) { upgrade.querySelector('button[ws-send]').click(); return 'choose'; }
  return (""" + PLAY_JS + """)();
}
"""


def _player(browser, base: str, url: str, name: str, width: int = 1280):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    as_guest(page, url, name)
    expect(page.locator(".who")).to_contain_text(name)
    return page


def _row(page, seat: int):
    return page.locator(f".seat-row[data-seat='{seat}']")


def _sit(page, seat: int, name: str) -> None:
    _row(page, seat).locator("button:has-text('Sit here')").click()
    expect(_row(page, seat)).to_contain_text(name)


def _add_computer(page, seat: int) -> None:
    _row(page, seat).locator("button:has-text('Add computer player')").click()
    expect(_row(page, seat)).to_contain_text(f"Computer {seat + 1}")


def _choose_team(page, seat: int, team: int) -> None:
    choice = _row(page, seat).locator(f"button.team-choice[data-team='{team}']")
    choice.click()
    expect(choice).to_have_attribute("aria-pressed", "true")


def _create(page, seats: int, teams: int | None = None, draft: str | None = None) -> str:
    page.click("a.game-type[href$='/snowball-fight/']")
    page.select_option("select[name=num_seats]", str(seats))
    if teams is not None:
        page.select_option("select[name=num_teams]", str(teams))
    if draft is not None:
        page.select_option("select[name=opt_draft]", draft)
    press_create(page)
    expect(page.locator(".waiting-room")).to_be_visible()
    return page.url


def _play_until(pages, done, limit: int = 1500, script: str | list[str] = PLAY_JS) -> None:
    """Click through ``pages`` (each with ``script``, or the script at its place in a list) until
    ``done()``. After a click a page is given up to 2 s to show the game's next version, so a
    tentative choice is not clicked again (and taken back) before the page shows it."""
    scripts = script if isinstance(script, list) else [script] * len(pages)
    for _ in range(limit):
        if done():
            return
        clicked = False
        for page, each in zip(pages, scripts):
            before = live_version(page)
            if page.evaluate(each):
                clicked = True
                try:
                    page.wait_for_function("v => document.querySelector('#live').dataset.version !== v", arg=before,
                                           timeout=2000)
                except PlaywrightTimeout:
                    pass
        if not clicked:
            pages[0].wait_for_timeout(120)
    raise AssertionError("the game did not reach the expected moment; the pages then showed: "
                         + "; ".join(_what_the_page_shows(page) for page in pages))


def _what_the_page_shows(page) -> str:
    """A page's version, connection and what its prompt bar says, for a flow that gives up."""
    asked = page.locator("#live .prompt-bar").first
    asked_text = " ".join(asked.inner_text().split())[:120] if asked.count() else "-"
    return (f"{page.url} version {live_version(page)}, {page.locator('#connection').inner_text()!r}, "
            f"asking {asked_text!r}")


def _part(page, selector: str, name: str) -> None:
    """A screenshot of one part of the page (a phone's full page is too tall to look at)."""
    SHOTS.mkdir(exist_ok=True)
    page.locator(selector).first.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled",
                                       timeout=SCREENSHOT_TIMEOUT_MS)


def _turn(page) -> int:
    text = page.locator(".sbf-status .sbf-phase").inner_text()
    found = re.search(r"Turn (\d+)", text)
    return int(found.group(1)) if found else 0


def test_four_players_two_of_them_computers_with_a_spectator_and_a_phone(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = _player(browser, base, base + "/", "Ana")
    game_url = _create(ana, 4)
    ben = _player(browser, base, game_url, "Ben", width=375)
    _sit(ben, 1, "Ben")
    for seat in (2, 3):
        _add_computer(ana, seat)
    ana.click("#start-game")
    eve = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    eve.goto(game_url)
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)
    expect(eve.locator(".spectating")).to_be_visible()
    expect(ana.locator(".sbf-area")).to_have_count(4)

    _play_until([ana, ben], lambda: ana.locator(".sbf-ring-choose").count() > 0)
    expect(ana.locator(".sbf-ring-choose h3")).to_contain_text("one to your left at Ben, one to your right at Computer 4")
    shot(ana, "sbf4-01-ana-choosing")
    ana.locator(".sbf-ring-choose .sbf-aim-buttons button").first.click()
    expect(ana.locator(".sbf-aimbar")).not_to_contain_text("not chosen")
    expect(ana.locator(".sbf-chosen-at")).to_have_count(2)
    area = eve.locator(".sbf-area[data-seat='0']")
    expect(area).to_contain_text("left: Ben")
    expect(area).to_contain_text("right: Computer 4")

    _play_until([ana, ben], lambda: _turn(ana) >= 3 and ana.locator(".sbf-battle").count() >= 4)
    expect(eve.locator(".sbf-battle")).to_have_count(4)
    expect(eve.locator(".sbf-battle").first).to_contain_text("Battle")
    shot(ana, "sbf4-02-ana-after-reveal")
    shot(ben, "sbf4-03-ben-phone")
    shot(eve, "sbf4-04-spectator-phone")
    _part(ben, ".sbf-areas", "sbf4-05-ben-phone-areas")
    _part(eve, ".sbf-battle", "sbf4-06-spectator-phone-battle")
    if ben.locator(".sbf-ring-choose").count():
        _part(ben, ".sbf-ring-choose", "sbf4-07-ben-phone-choosing")
    for page in (ben, eve):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 380, f"the board is {width} px wide on a 375 px screen"
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()


def test_two_against_two_with_a_chosen_leader_handing_out_cards(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = _player(browser, base, base + "/", "Ana")
    game_url = _create(ana, 4, 2)
    ben = _player(browser, base, game_url, "Ben", width=375)
    _sit(ben, 1, "Ben")
    _choose_team(ben, 1, 0)
    expect(_row(ana, 0).locator(".team-leader")).to_be_visible()
    _row(ben, 1).locator("button:has-text('Make team leader')").click()
    expect(_row(ben, 1).locator(".team-leader")).to_be_visible()
    expect(_row(ana, 1).locator(".team-leader")).to_be_visible()
    expect(_row(ana, 0).locator(".team-leader")).to_have_count(0)
    for seat in (2, 3):
        _add_computer(ana, seat)
    expect(ana.locator(".team-chip[data-team='0']")).to_contain_text("Ben (leader)")
    expect(ana.locator(".team-chip[data-team='1']")).to_contain_text("Computer 3 (leader)")
    shot(ana, "sbf2v2-01-waiting-room")
    ana.click("#start-game")
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    eve.goto(game_url)
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)
    expect(eve.locator(".sbf-team")).to_have_count(2)
    expect(eve.locator(".sbf-team[data-team='0']")).to_contain_text("led by Ben")
    expect(eve.locator(".sbf-team[data-team='0'] h3 .team-mark[data-mark='circle']")).to_have_count(1)
    expect(eve.locator(".sbf-team[data-team='1'] h3 .team-mark[data-mark='square']")).to_have_count(1)
    expect(eve.locator(".sbf-area.team-red h3 .team-mark[data-mark='circle']")).to_have_count(2)

    # A turn's start, before Ben has chosen, seen in one look (a prompt may be swapped between two).
    _play_until([ana, ben], lambda: ana.evaluate(
        "() => [...document.querySelectorAll('.sbf-choose h3')].some(h => h.textContent.includes('at Computer'))"
        " && document.querySelectorAll(\".sbf-area[data-seat='1'] .sbf-fact-hand .sbf-chip\").length > 0"))
    mate_hand = ana.locator(".sbf-area[data-seat='1'] .sbf-fact-hand .sbf-chip")
    assert mate_hand.count() >= 1, "Ana does not see her team-mate's hand"
    assert eve.locator(".sbf-area[data-seat='1'] .sbf-fact-hand .sbf-chip").count() == 0
    expect(eve.locator(".sbf-area[data-seat='1']")).to_contain_text("2 cards")
    shot(ana, "sbf2v2-02-ana-sees-team-hand")

    _play_until([ana, ben], lambda: ben.locator("form.sbf-deal").count() > 0, limit=3000,
                script=PLAY_BUT_HOLD_THE_DEAL_JS)
    expect(ana.locator(".sbf-team[data-team='0']")).to_contain_text("Ben is handing them out")
    expect(eve.locator(".sbf-team[data-team='0']")).to_contain_text("Ben is handing them out")
    assert eve.locator(".sbf-team[data-team='0'] .sbf-chip").count() <= 1  # at most the discard's face-up top
    shot(ben, "sbf2v2-03-ben-deals-phone")
    _part(ben, "form.sbf-deal", "sbf2v2-06-ben-phone-deal-form")
    _part(ben, ".sbf-teams", "sbf2v2-07-ben-phone-teams")
    shot(ana, "sbf2v2-04-ana-waits-for-the-deal")
    shot(eve, "sbf2v2-05-spectator")
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= 380, f"the board is {width} px wide on a 375 px screen"
    ben.locator("form.sbf-deal button[type=submit]").click()
    expect(ben.locator("form.sbf-deal")).to_have_count(0)
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()


def _result(page) -> dict[str, object]:
    """What the result panel says: the verdict line and each player's score heading."""
    panel = page.locator("section.result")
    return {"verdict": panel.locator(".result-line").inner_text(),
            "scores": panel.locator(".score-col h3").all_inner_texts()}


def test_three_players_one_a_computer_play_to_the_result_with_a_spectator_and_a_phone(
        browser, live_server_proc, shot):
    started = time.monotonic()
    base = live_server_proc.url
    ana = _player(browser, base, base + "/", "Ana")
    _part(ana, ".game-types", "sbf3-00-lobby-games-with-rules-links")
    game_url = _create(ana, 3, draft="quick")
    ben = _player(browser, base, game_url, "Ben", width=375)
    _sit(ben, 1, "Ben")
    _add_computer(ana, 2)
    ana.click("#start-game")
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    eve.goto(game_url)
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)
    expect(eve.locator(".spectating")).to_be_visible()
    expect(ana.locator(".sbf-area")).to_have_count(3)

    _play_until([ana, ben], lambda: ana.locator("section.result").count() > 0
                and ben.locator("section.result").count() > 0, limit=3000, script=UPGRADE_JS)
    for page in (ana, ben, eve):
        expect(page.locator("section.result")).to_be_visible()
    results = [_result(page) for page in (ana, ben, eve)]
    assert results[0] == results[1] == results[2], results
    scores = results[0]["scores"]
    assert len(scores) == 3
    for name, line in zip(("Ana", "Ben", "Computer 3"), scores):
        assert re.fullmatch(rf"{name}: \d+ points?", line), scores
    assert re.search(r"(wins!|Shared victory: .+!)", results[0]["verdict"]), results[0]["verdict"]
    expect(eve.locator("section.result")).to_contain_text("cards in a Weapons Cache do not")
    expect(eve.locator("section.result a[href='/rules/snowball-fight/']")).to_have_count(1)
    shot(ana, "sbf3-01-ana-result")
    shot(eve, "sbf3-02-spectator-result")
    _part(ben, "section.result", "sbf3-03-ben-phone-result")
    _part(ben, ".board-wrap", "sbf3-04-ben-phone-board-at-the-end")
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= 380, f"the board is {width} px wide on a 375 px screen"
    turns = " ".join(eve.locator(".sbf-status").first.inner_text().split())
    ben.goto(base + "/rules/snowball-fight/#turn-limit")
    expect(ben.locator("#turn-limit")).to_contain_text("Arsenal piles count as depleted")
    _part(ben, "#house-rulings", "sbf3-05-ben-phone-rules-page")
    width = ben.evaluate("document.documentElement.scrollWidth")
    assert width <= 380, f"the rules page is {width} px wide on a 375 px screen"
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()
    print(f"three-player game to the result ({turns}) in {time.monotonic() - started:.1f} s")
