"""Snowball Fight two against two to its end, in browsers: Ana and Ben (Red) against Cy and Dee
(Blue). Ben resigns on turn 2, then Cy and Dee: Red wins. The result says which team won, with
its score once and its players, never names Ben a winner, and "My games" reads the same."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import script_errors_of
from tests.browser.test_snowball_fight_table_flow import _choose_team, _create, _play_until, _player, _sit, _turn

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _my_games_line(page, base: str, game_id: str) -> str:
    page.goto(base + "/me/games/")
    return " ".join(page.locator(f"tr[data-game='{game_id}'] td.my-result").inner_text().split())


def _resign(page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#resign")).to_have_count(0)


def test_a_team_game_to_its_end_reads_as_the_teams_result(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = _player(browser, base, base + "/", "Ana")
    game_url = _create(ana, 4, 2, draft="quick")
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)
    ben, cy, dee = (_player(browser, base, game_url, name) for name in ("Ben", "Cy", "Dee"))
    for seat, (page, name, team) in enumerate(((ben, "Ben", 0), (cy, "Cy", 1), (dee, "Dee", 1)), start=1):
        _sit(page, seat, name)
        if page.locator(f".seat-row[data-seat='{seat}'] button.team-choice[data-team='{team}'][aria-pressed='true']").count() == 0:
            _choose_team(page, seat, team)
    ana.click("#start-game")
    errors = script_errors_of(ana, ben, cy, dee, timeout_ms=10000)
    _play_until([ana, ben, cy, dee], lambda: _turn(ana) >= 2)
    _resign(ben)
    expect(ana.locator(".player[data-seat='1']")).to_contain_text("resigned")
    _play_until([ana, cy, dee], lambda: _turn(ana) >= 3)
    for page in (cy, dee):  # all of Blue: Red wins, Ben with it but not named a winner
        _resign(page)

    result = ana.locator("section.result")
    expect(result).to_be_visible()
    columns = result.locator(".score-col")
    expect(columns).to_have_count(2)  # one per team: each team's score once
    heads = [" ".join(t.split()) for t in columns.locator("h3").all_inner_texts()]
    found = [re.fullmatch(rf"{team}: (\d+) points?", head) for team, head in zip(("Red", "Blue"), heads)]
    assert all(found), heads
    red, blue = (int(f.group(1)) for f in found)
    players = [" ".join(t.split()) for t in columns.locator(".team-players").all_inner_texts()]
    assert players == ["Ana, Ben resigned", "Cy resigned, Dee resigned"]
    verdict = " ".join(result.locator(".result-line").inner_text().split())
    assert verdict == f"Red wins with {red} points: Ana! Ben, Cy and Dee resigned", verdict
    for page in (ben, cy):
        assert " ".join(page.locator("section.result .result-line").inner_text().split()) == verdict
    shot(ana, "team-result-01-ana")

    scores = f"Red {red} – Blue {blue}"
    assert _my_games_line(ana, base, game_id) == f"Won · {scores}"
    for page in (ben, cy):
        assert _my_games_line(page, base, game_id) == f"Resigned · {scores}"
    shot(ben, "team-result-02-ben-my-games")
    assert errors == []
    for page in (ana, ben, cy, dee):
        page.context.close()
