"""A four-seat table in two teams, in five browser contexts: the creator, three players who
sit, move, choose teams and leave, and a computer player in the last seat; then play to the end."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, play_the_pile_to_its_end, press_create
from tests.engines.table_engine import TABLE, TEAM_TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]




def _as_guest(page, url: str, name: str) -> None:
    as_guest(page, url, name)
    expect(page.locator(".who")).to_contain_text(name)


def _row(page, seat: int):
    return page.locator(f".seat-row[data-seat='{seat}']")


def _choose_team(page, seat: int, team: int) -> None:
    _row(page, seat).locator(f"button.team-choice[data-team='{team}']").click()


TEAM_SHOWN = ".team-badge, .team-choice[aria-pressed='true']"


def _team_of(page, seat: int):
    """The team the waiting room shows for a seat: a badge, or the pressed team button."""
    return _row(page, seat).locator(TEAM_SHOWN)


def _teams_seen(page) -> list[str]:
    """Each seat's team as the waiting room shows it, "" for an empty seat."""
    return [row.locator(TEAM_SHOWN).inner_text() if row.locator(TEAM_SHOWN).count() else ""
            for row in page.locator(".seat-row").all()]


def test_four_players_choose_seats_and_teams_and_a_computer_player_fills_the_last_seat(browser, table_server, shot):
    base = table_server.url
    pages = {name: browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
             for name in ("ana", "ben", "cy", "dee", "eve")}
    ana, ben, cy, dee, eve = pages.values()

    _as_guest(ana, base + "/", "Ana")
    ana.click(f"a.game-type[href$='/new/{TEAM_TABLE.slug}/']")
    ana.select_option("select[name=num_seats]", "4")
    ana.select_option("select[name=num_teams]", "2")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)
    expect(ana.locator(".seat-row")).to_have_count(4)
    expect(ana.locator("#seated-count")).to_have_text("1/4 seated")

    _as_guest(ben, game_url, "Ben")
    _row(ben, 1).locator("button:has-text('Sit here')").click()
    expect(_row(ana, 1)).to_contain_text("Ben")
    expect(_team_of(ben, 1)).to_have_text("Blue")  # the smaller team
    _choose_team(ben, 1, 0)
    expect(_team_of(ana, 1)).to_have_text("Red")

    _as_guest(dee, game_url, "Dee")
    _row(dee, 2).locator("button:has-text('Sit here')").click()
    expect(_row(dee, 2)).to_contain_text("Dee (you)")
    _row(dee, 3).locator("button:has-text('Switch to this seat')").click()
    expect(_row(ana, 3)).to_contain_text("Dee")
    expect(_row(ana, 2)).to_contain_text("empty")
    expect(_team_of(ana, 3)).to_have_text("Blue")

    _as_guest(eve, base + "/", "Eve")
    lobby_row = eve.locator("#lobby-lists li", has_text=f"#{game_id}")
    expect(lobby_row).to_contain_text("3/4 seated")
    expect(lobby_row).not_to_contain_text("players")  # the table's size is 3/4, not the game's range
    expect(lobby_row).to_contain_text("Ana, Ben vs Dee")
    shot(eve, "tables-01-lobby")

    _as_guest(cy, game_url, "Cy")
    _row(cy, 2).locator("button:has-text('Sit here')").click()
    expect(ana.locator("#seated-count")).to_have_text("4/4 seated")
    _choose_team(cy, 2, 0)
    expect(ana.locator(".start-problem")).to_contain_text("teams may differ by one player at most")
    expect(ana.locator("#start-game")).to_be_disabled()
    assert _teams_seen(ana) == ["Red", "Red", "Red", "Blue"]
    shot(ana, "tables-02-waiting-room-unbalanced")

    _choose_team(cy, 2, 1)
    expect(ana.locator(".team-chip[data-team='1']")).to_contain_text("Cy, Dee")
    _row(dee, 3).locator("button:has-text('Leave seat')").click()
    expect(_row(ana, 3)).to_contain_text("empty")
    expect(ana.locator(".start-problem")).to_contain_text("Seat 4 is still empty")
    _row(ana, 3).locator("button:has-text('Add computer player')").click()
    expect(_row(ana, 3)).to_contain_text("Computer 4")
    expect(_team_of(cy, 3)).to_have_text("Blue")
    expect(ana.locator(".start-problem")).to_have_count(0)
    assert _teams_seen(cy) == ["Red", "Red", "Blue", "Blue"]
    shot(ana, "tables-03-waiting-room-ready")

    ana.click("#start-game")
    for page in (ana, ben, cy, dee):
        expect(page.locator(".pile-board")).to_be_visible()
    expect(dee.locator(".spectating")).to_be_visible()
    expect(dee.locator(".player[data-team='1']")).to_have_count(2)
    expect(dee.locator(".player[data-seat='3']")).to_have_class(re.compile(r"\bteam-blue\b"))

    play_the_pile_to_its_end(ana, ben, cy)
    for page in (ana, ben, cy, dee):
        expect(page.locator(".result")).to_be_visible(timeout=10000)
    result = dee.locator(".result-line").inner_text()
    assert re.match(r"(Red wins with \d+ snowballs?: Ana and Ben|Blue wins with \d+ snowballs?: Cy and Computer 4)!", result), result
    shot(dee, "tables-04-result")
    for page in pages.values():
        page.context.close()


def test_a_twelve_seat_table_shows_every_seat_and_fills_with_computer_players(browser, table_server, shot):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _as_guest(page, table_server.url + "/", "Ana")
    page.click(f"a.game-type[href$='/new/{TABLE.slug}/']")
    page.select_option("select[name=num_seats]", "12")
    press_create(page)
    expect(page.locator(".seat-row")).to_have_count(12)
    expect(page.locator(".team-summary")).to_have_count(0)
    for seat in range(1, 12):
        _row(page, seat).locator("button:has-text('Add computer player')").click()
        expect(_row(page, seat)).to_contain_text(f"Computer {seat + 1}")
    expect(page.locator("#seated-count")).to_have_text("12/12 seated")
    shot(page, "tables-05-twelve-seats")
    page.click("#start-game")
    expect(page.locator(".pile-board")).to_be_visible()
    expect(page.locator(".player")).to_have_count(12)
    page.context.close()
