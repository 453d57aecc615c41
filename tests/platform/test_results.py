"""A finished game's result as clients and players read it: the outcome of a game a whole side
resigned (one score per seat, team totals at a team table, as docs/api.md says), the result
panel of a team game (which team won, its score once, who played in it) and "My games"."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from django.test import Client

from games import engines, selectors, services
from games.models import ApiToken, Game
from tests.engines.test_snowball_fight_table_helpers import book_points

pytestmark = pytest.mark.django_db

def _client(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def _resign(user, game_id: int) -> dict:
    answer = _client(user).post(f"/api/games/{game_id}/resign/", data="{}", content_type="application/json")
    assert answer.status_code == 200, answer.content
    return answer.json()


def _team_table(make_user, game_type: str, teams: list[int]) -> tuple[Game, list]:
    users = [make_user(name) for name in ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")[:len(teams)]]
    game = services.create_game(creator=users[0], game_type=game_type, num_seats=len(teams),
                                num_teams=len(set(teams)))
    services.choose_team(game_id=game.pk, user=users[0], team=teams[0])
    for seat, user in enumerate(users[1:], start=1):
        services.join_seat(game_id=game.pk, user=user, number=seat, team=teams[seat])
    services.start_game(game_id=game.pk, user=users[0])
    return selectors.get_game(game.pk), users


def _play_until(game: Game, users: list, done) -> dict:
    """The players play the computer player's move until ``done(state)``; the state then."""
    ruleset = engines.get(game.game_type)
    for _ in range(2000):
        game = selectors.get_game(game.pk)
        state = selectors.game_state(game)
        if done(state):
            return state
        seat = min(s for s in ruleset.to_act(state))
        services.submit_action(game_id=game.pk, user=users[seat], action=ruleset.bot_action(state, seat),
                               action_id=uuid.uuid4().hex, version=game.version)
    raise AssertionError("the game did not reach the expected moment")


def _snowball_fight_team_cards(state: dict, team: int) -> tuple[list[str], list[str]]:
    """A team's cards as they lie (draw piles, team deck and discard, hands, the leader's draw not
    yet handed out) and its Weapons Cache cards."""
    members = [x for x in range(state["players"]) if state["teams"][x] == team]
    cards = state["discard"][team] + state["team_draw"][team] + list((state["pool"][team] or {}).get("cards", ()))
    for m in members:
        cards = cards + state["draw"][m] + state["hands"][m]
    return cards, [c for m in members for c in state["cache"][m]]


@pytest.mark.parametrize("teams", [[0, 1, 0, 1], [0, 0, 1, 1, 1, 0]])
def test_when_a_whole_snowball_fight_team_resigns_every_seat_has_its_teams_score(make_user, teams):
    game, users = _team_table(make_user, "snowball-fight", teams)
    state = _play_until(game, users, lambda s: s["phase"] != "draft" and s["turn"] >= 3 and s["step"] == "choose")
    blue = [x for x in range(len(teams)) if teams[x] == 1]
    for seat in blue:
        summary = _resign(users[seat], game.pk)
    outcome = summary["outcome"]
    assert summary["status"] == "finished" and outcome["code"] == "resigned"
    assert outcome["winners"] == [x for x in range(len(teams)) if teams[x] == 0]
    expected = []
    for team in (0, 1):
        cards, cached = _snowball_fight_team_cards(state, team)
        expected.append(sum(book_points(c) for c in cards))
        rows = outcome["breakdown"][teams.index(team)]
        assert sorted(r["id"] for r in rows if r.get("cached")) == sorted(cached)
    assert outcome["team_scores"] == expected and min(expected) > 0
    assert outcome["scores"] == [expected[t] for t in teams]
    view = _client(users[0]).get(f"/api/games/{game.pk}/").json()
    assert view["outcome"]["team_scores"] == expected and view["outcome"]["reason"].endswith("resigned")


def test_when_a_whole_what_a_snowball_team_resigns_every_seat_has_its_teams_score(make_user):
    teams = [0, 1, 0, 1]
    game, users = _team_table(make_user, "what-a-snowball", teams)
    state = selectors.game_state(game)
    kids = {t: [k for k in state["kids"].values() if k["team"] == t] for t in (0, 1)}
    for seat in (1, 3):
        summary = _resign(users[seat], game.pk)
    outcome = summary["outcome"]
    assert outcome["code"] == "resigned" and outcome["winners"] == [0, 2] and outcome["losers"] == [1, 3]
    # every Kid still in the fight: the points of the remaining Kids (none yet), +5 for all its Kids
    # still in the fight and +5 for the most Kids remaining, tied (the rule book's 2.3)
    assert [row["kids_left"] for row in outcome["teams"]] == [len(kids[0]), len(kids[1])]
    assert [row["score"] for row in outcome["teams"]] == [10, 10]
    assert outcome["scores"] == [10, 10, 10, 10] and outcome["winning_teams"] == [0]


def test_a_two_player_resignation_scores_each_seat(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="snowball-fight", num_seats=2)
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ana)
    outcome = _resign(ben, game.pk)["outcome"]
    # the draft has not ended: each player's draw pile holds the three Basic cards
    assert outcome["scores"] == [3, 3] and outcome["winners"] == [0]
    assert [len(rows) for rows in outcome["breakdown"]] == [3, 3]
    # every answer names the resigner, as the game's view does
    assert outcome["reason"] == "Ben resigned"
    mine = _client(ana).get("/api/games/?mine=1").json()["games"]
    assert [g["outcome"]["reason"] for g in mine if g["id"] == game.pk] == ["Ben resigned"]
    verified = _client(ana).get(f"/api/games/{game.pk}/verify/").json()
    assert verified["outcome"]["reason"] == verified["replayed_outcome"]["reason"] == "{p1} resigned"  # as documented
    assert verified["match"] is True


def _page_result(client: Client, game_id: int) -> tuple[str, list[str]]:
    html = client.get(f"/games/{game_id}/").content.decode()
    line = re.search(r'<p class="result-line">(.*?)<span class="muted">', html, re.S).group(1)
    heads = re.findall(r'<div class="score-col[^"]*"[^>]*>\s*<h3>(.*?)</h3>\s*<p class="team-players">(.*?)</p>', html, re.S)
    text = lambda s: " ".join(re.sub(r"<[^>]+>", "", s).split())  # noqa: E731
    return text(line), [f"{text(h)} | {text(p)}" for h, p in heads]


def _my_games_result(client: Client, game_id: int) -> str:
    html = client.get("/me/games/").content.decode()
    row = re.search(rf'<tr[^>]*data-game="{game_id}">(.*?)</tr>', html, re.S).group(1)
    cell = re.search(r'<td class="my-result"[^>]*>(.*?)</td>', row, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", cell).split())


def test_a_team_result_names_the_winning_team_its_score_once_and_its_players(make_user):
    game, users = _team_table(make_user, "snowball-fight", [0, 1, 0, 1])
    _play_until(game, users, lambda s: s["phase"] != "draft")
    _resign(users[2], game.pk)  # Cy, of Red
    for seat in (1, 3):  # then all of Blue
        _resign(users[seat], game.pk)
    outcome = selectors.get_game(game.pk).outcome
    red, blue = outcome["team_scores"]
    clients = [Client() for _ in users]
    for client, user in zip(clients, users):
        client.force_login(user)
    line, columns = _page_result(clients[1], game.pk)
    assert line == f"Red wins with {red} points: Ana!"
    assert columns == [f"Red: {red} points | Ana, Cy resigned", f"Blue: {blue} points | Ben resigned, Dee resigned"]
    assert [_my_games_result(c, game.pk) for c in clients] == [f"Won · Red {red} – Blue {blue}"] + \
        [f"Resigned · Red {red} – Blue {blue}"] * 3


def test_a_team_game_played_to_its_end_reads_as_the_teams_result(make_user):
    game, users = _team_table(make_user, "snowball-fight", [0, 1, 0, 1])
    _play_until(game, users, lambda s: s["result"] is not None)
    outcome = selectors.get_game(game.pk).outcome
    red, blue = outcome["team_scores"]
    client = Client()
    client.force_login(users[0])
    line, columns = _page_result(client, game.pk)
    if red == blue:
        assert line == f"Red (Ana, Cy) and Blue (Ben, Dee) share the victory with {red} points each!"
    else:
        assert line == (f"Red wins with {red} points: Ana and Cy!" if red > blue else
                        f"Blue wins with {blue} points: Ben and Dee!")
    assert columns == [f"Red: {red} points | Ana, Cy", f"Blue: {blue} points | Ben, Dee"]
    verdict = "Won" if red >= blue else "Lost"
    assert _my_games_result(client, game.pk) == f"{verdict} · Red {red} – Blue {blue}"
    assert json.dumps(outcome).count('"team_scores"') == 1


def test_a_what_a_snowball_result_in_three_teams_names_the_team_left(make_user):
    game, users = _team_table(make_user, "what-a-snowball", [0, 1, 2])
    for seat in (1, 2):
        _resign(users[seat], game.pk)
    scores = selectors.get_game(game.pk).outcome["scores"]
    client = Client()
    client.force_login(users[1])
    line, columns = _page_result(client, game.pk)
    assert line == f"Red wins with {scores[0]} points: Ana!"
    assert columns == [f"Red: {scores[0]} points | Ana", f"Blue: {scores[1]} points | Ben resigned",
                       f"Green: {scores[2]} points | Cy resigned"]
    assert _my_games_result(client, game.pk) == f"Resigned · Red {scores[0]} – Blue {scores[1]} – Green {scores[2]}"


def test_a_jingle_bells_game_played_to_its_end_names_its_players_in_the_views_outcome_too(make_user):
    """The engine writes its reason with {p0}/{p1} for the seats; a client reading the view's
    outcome (GET /api/games/<id>/, as a player or a spectator) reads the players' names there, as
    in the game's own outcome, not "{p1}'s snowman took its fourth cold token"."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="jingle-bells", num_seats=2)
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ana)
    ruleset = engines.get("jingle-bells")
    _play_until(selectors.get_game(game.pk), [ana, ben], lambda state: ruleset.outcome(state) is not None)
    assert "{p" in ruleset.outcome(selectors.game_state(selectors.get_game(game.pk)))["reason"]
    for client in (_client(ana), _client(ben), Client()):
        answer = client.get(f"/api/games/{game.pk}/").json()
        assert answer["status"] == "finished"
        reason = answer["view"]["outcome"]["reason"]
        assert reason == answer["outcome"]["reason"] and "{p" not in reason, reason
        assert "Ana" in reason or "Ben" in reason, reason
