"""Seats and teams through the JSON API, as a bot written from docs/api.md would use them."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import ApiToken, Game
from tests.engines.table_engine import TEAM_TABLE, registered_table_engines

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def table_engines():
    with registered_table_engines():
        yield


def _bot(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def _post(client: Client, url: str, body: dict | None = None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def _error(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.content
    return response.json()["error"]["message"]


def test_a_four_seat_table_with_two_teams_from_creation_to_the_start(make_user):
    ana, ben, cy = (_bot(make_user(n)) for n in ("Ana", "Ben", "Cy"))
    kinds = {t["slug"]: t for t in ana.get("/api/game-types/").json()["game_types"]}
    assert kinds[TEAM_TABLE.slug]["team_counts"] == [2, 3, 4]
    assert (kinds[TEAM_TABLE.slug]["min_players"], kinds[TEAM_TABLE.slug]["max_players"]) == (2, 12)
    assert kinds["jingle-bells"]["team_counts"] == [] and not kinds["jingle-bells"]["team_leaders"]
    assert kinds["snowball-fight"]["team_counts"] == [0, 2] and kinds["snowball-fight"]["team_leaders"]

    created = _post(ana, "/api/games/", {"game_type": TEAM_TABLE.slug, "seats": 4, "teams": 2})
    assert created.status_code == 201, created.content
    game = created.json()
    assert (game["num_seats"], game["seated"]) == (4, 1)
    assert game["teams"] == [{"team": 0, "name": "Red", "colour": "red"},
                             {"team": 1, "name": "Blue", "colour": "blue"}]
    url = f"/api/games/{game['id']}"
    listed = next(g for g in cy.get("/api/games/").json()["games"] if g["id"] == game["id"])
    assert (listed["seated"], listed["num_seats"]) == (1, 4)

    joined = _post(ben, f"{url}/join/", {"seat": 2, "team": 0}).json()
    assert joined["players"][2]["name"] == "Ben" and joined["players"][2]["team"] == 0
    moved = _post(ben, f"{url}/move/", {"seat": 3}).json()
    assert moved["players"][2]["empty"] and moved["players"][3]["team"] == 0
    _post(cy, f"{url}/join/", {"seat": 1})
    bot = _post(ana, f"{url}/bots/", {"seat": 2, "team": 1}).json()
    assert bot["players"][2]["is_bot"] and bot["players"][2]["team"] == 1 and bot["seated"] == 4
    teams = [p["team"] for p in bot["players"]]
    assert teams == [0, 1, 1, 0]

    message = _error(_post(cy, f"{url}/team/", {"team": 0, "seat": 3}), 403, "forbidden")
    assert "another player's" in message
    three_on_one = _post(cy, f"{url}/team/", {"team": 0}).json()
    assert [p["team"] for p in three_on_one["players"]] == [0, 0, 1, 0]
    message = _error(_post(ana, f"{url}/start/"), 409, "conflict")
    assert "Red has 3, Blue has 1" in message
    _post(cy, f"{url}/team/", {"team": 1})
    _post(ana, f"{url}/remove-bot/", {"seat": 2})
    assert "Seat 3 is still empty" in _error(_post(ana, f"{url}/start/"), 409, "conflict")
    _post(cy, f"{url}/bots/", {"seat": 2, "team": 1})
    started = _post(ben, f"{url}/start/").json()
    assert started["status"] == "active"
    view = ana.get(f"{url}/").json()
    assert view["view"]["teams"] == [0, 1, 1, 0] == [p["team"] for p in view["players"]]
    assert [t["name"] for t in view["teams"]] == ["Red", "Blue"]


def test_bad_seat_and_team_requests_are_refused_with_what_was_wrong_and_change_nothing(make_user):
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    assert "must be an integer" in _error(_post(ana, "/api/games/", {"game_type": TEAM_TABLE.slug, "seats": "4"}),
                                          400, "bad_request")
    assert "played without teams" in _error(_post(ana, "/api/games/", {"game_type": "jingle-bells", "teams": 2}),
                                            400, "bad_request")
    assert "takes 2-12 players, got 13" in _error(_post(ana, "/api/games/", {"game_type": TEAM_TABLE.slug,
                                                                          "seats": 13}), 400, "bad_request")
    assert "2, 3 or 4 teams, got teams=5" in _error(_post(ana, "/api/games/", {"game_type": TEAM_TABLE.slug,
                                                                             "seats": 6, "teams": 5}),
                                                    400, "bad_request")
    assert Game.objects.count() == 0

    url = "/api/games/{}".format(_post(ana, "/api/games/", {"game_type": TEAM_TABLE.slug, "seats": 4}).json()["id"])
    version = ana.get(f"{url}/").json()["version"]
    assert '"seat" is required' in _error(_post(ana, f"{url}/move/"), 400, "bad_request")
    assert '"team" is required' in _error(_post(ana, f"{url}/team/"), 400, "bad_request")
    assert "team must be 0 to 1, got 2" in _error(_post(ana, f"{url}/team/", {"team": 2}), 400, "bad_request")
    assert '"team" must be an integer' in _error(_post(ana, f"{url}/team/", {"team": True}), 400, "bad_request")
    taken = _post(ben, f"{url}/join/", {"seat": 0})  # the page's "Seat 1"; the error names it both ways
    assert "Seat 1 is taken" in _error(taken, 409, "conflict") and taken.json()["error"]["seat"] == 0
    assert "sit down first" in _error(_post(ben, f"{url}/move/", {"seat": 2}), 403, "not_seated")
    assert "only a seated player" in _error(_post(ben, f"{url}/start/"), 403, "not_seated")
    assert "seat must be 0 to 3, got 4" in _error(_post(ana, f"{url}/move/", {"seat": 4}), 400, "bad_request")
    assert _error(_post(ben, f"{url}/bots/", {"seat": 1}), 403, "forbidden")
    no_bot = _post(ana, f"{url}/remove-bot/", {"seat": 1})
    assert "Seat 2 has no computer player" in _error(no_bot, 400, "bad_request") and no_bot.json()["error"]["seat"] == 1
    assert "unknown operation" in _error(_post(ana, f"{url}/sit-on-lap/"), 404, "not_found")
    assert ana.get(f"{url}/").json()["version"] == version


def test_a_team_chooses_its_leader_through_the_api_and_the_other_team_cannot(make_user):
    ana, ben, cy, dee = (_bot(make_user(n)) for n in ("Ana", "Ben", "Cy", "Dee"))
    game = _post(ana, "/api/games/", {"game_type": "snowball-fight", "seats": 4, "teams": 2}).json()
    url = f"/api/games/{game['id']}"
    for client, team in ((ben, 1), (cy, 0), (dee, 1)):
        assert _post(client, f"{url}/join/", {"team": team}).status_code == 200
    assert "\"seat\" is required to leader" in _error(_post(cy, f"{url}/leader/"), 400, "bad_request")
    assert "only its own team" in _error(_post(ben, f"{url}/leader/", {"seat": 2}), 403, "forbidden")
    answer = _post(cy, f"{url}/leader/", {"seat": 2})
    assert answer.status_code == 200, answer.content
    assert [p["seat"] for p in answer.json()["players"] if p["team_leader"]] == [1, 2]
    assert _post(ana, f"{url}/start/").status_code == 200
    view = ana.get(f"{url}/").json()["view"]
    assert [t["leader"] for t in view["teams"]] == [2, 1]
