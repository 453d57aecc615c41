"""A player's private changes (a sealed choice revised, ``Ruleset.private_action``) are not
counted in the version anyone else is told: not in their views, their errors, the game's
summary or an in-play review's steps, so no one can count how often an opponent changed their
mind. Each viewer's actions are checked against its own count."""
from __future__ import annotations

import pytest
from django.test import Client

from games import selectors
from games.selectors import review
from games.models import ActionRecord, Game
from tests.platform.helpers import api_client, play_to_end, started_game

pytestmark = pytest.mark.django_db


def _act(client: Client, game_id: int, action: dict, action_id: str, version: int):
    return client.post(f"/api/games/{game_id}/actions/", {"action": action, "action_id": action_id, "version": version},
                       content_type="application/json")


@pytest.fixture
def drafting(make_user):
    """A two-player Snowball Fight in its draft: Ana has chosen a card, then chosen twice again."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    clients = {"ana": api_client(ana), "ben": api_client(ben), "spectator": api_client()}
    before = {name: client.get(f"/api/games/{game.pk}/").json() for name, client in clients.items()}
    chooses = [a for a in before["ana"]["legal_actions"] if a["type"] == "choose"]
    assert len(chooses) >= 3
    version = before["ana"]["version"]
    for n, action in enumerate([chooses[0], chooses[1], chooses[2]]):
        answer = _act(clients["ana"], game.pk, action, f"c{n}", version)
        assert answer.status_code == 200, answer.json()
        assert answer.json()["ack"]["version"] == version + 1
        version += 1
    return game, clients, before


def test_a_revised_choice_moves_only_its_players_version(drafting):
    game, clients, before = drafting
    after = {name: client.get(f"/api/games/{game.pk}/").json() for name, client in clients.items()}
    assert after["ana"]["version"] == before["ana"]["version"] + 3
    # the others saw one change (Ana has chosen), not three
    for name in ("ben", "spectator"):
        assert after[name]["version"] == before[name]["version"] + 1, name
        assert after[name]["view"] == {**after[name]["view"]}  # a whole view, as every answer
    assert ActionRecord.objects.filter(game=game).count() == 3
    acks = [before["ana"]["version"] + n for n in (1, 2, 3)]
    told = review.versions_told(game)
    assert [told[seq] for seq in sorted(told)] == acks  # what each ack said, replayed from the log
    summary = clients["ben"].get("/api/games/?status=active").json()
    listed = next(g for g in summary["games"] if g["id"] == game.pk)
    assert listed["version"] == after["spectator"]["version"]


def test_each_seat_acts_on_its_own_count_and_is_told_it(drafting):
    game, clients, before = drafting
    ben = clients["ben"].get(f"/api/games/{game.pk}/").json()
    ana_version = clients["ana"].get(f"/api/games/{game.pk}/").json()["version"]
    ahead = _act(clients["ben"], game.pk, ben["legal_actions"][0], "b-ahead", ana_version)
    assert ahead.status_code == 400
    assert f"ahead of the game (at {ben['version']})" in ahead.json()["error"]["message"]
    choose = next(a for a in ben["legal_actions"] if a["type"] == "choose")
    answer = _act(clients["ben"], game.pk, choose, "b1", ben["version"])
    assert answer.status_code == 200 and answer.json()["ack"]["version"] == ben["version"] + 1
    # Ben's choice is public, as Ana's first was: it counts for everyone
    assert clients["ana"].get(f"/api/games/{game.pk}/").json()["version"] == ana_version + 1
    again = next(a for a in ben["legal_actions"] if a["type"] == "choose" and a != choose)
    answer = _act(clients["ben"], game.pk, again, "b2", ben["version"] + 1)
    assert answer.status_code == 200 and answer.json()["ack"]["version"] == ben["version"] + 2
    told = review.versions_told(game)
    assert told[max(told)] == ben["version"] + 2 < Game.objects.get(pk=game.pk).version


def test_a_stale_version_is_answered_with_the_seats_own_count(drafting):
    game, clients, _ = drafting
    for name in ("ana", "ben"):
        view = clients[name].get(f"/api/games/{game.pk}/").json()
        lock = {"type": "lock"} if {"type": "lock"} in view["legal_actions"] else None
        action = lock or next(a for a in view["legal_actions"] if a["type"] == "play")
        assert _act(clients[name], game.pk, action, f"{name}-final", view["version"]).status_code == 200
    # the draft's pick revealed: a new question for both, asked at each seat's own version
    for name in ("ana", "ben"):
        view = clients[name].get(f"/api/games/{game.pk}/").json()
        stale = _act(clients[name], game.pk, view["legal_actions"][0], f"{name}-stale", view["version"] - 1)
        assert stale.status_code == 409, stale.json()
        error = stale.json()["error"]
        assert error["code"] == "stale_version" and error["current_version"] == view["version"], name


def test_an_in_play_review_has_no_step_for_a_private_change_and_the_finished_one_has(drafting, make_user):
    game, clients, before = drafting
    review = clients["spectator"].get(f"/api/games/{game.pk}/review/").json()
    assert review["steps"] == 2  # the start, and Ana's first choice
    spectator = clients["spectator"].get(f"/api/games/{game.pk}/").json()
    assert review["version"] == spectator["version"] == before["spectator"]["version"] + 1
    start = clients["spectator"].get(f"/api/games/{game.pk}/review/?step=0").json()
    assert start["version"] == before["spectator"]["version"]

    ana, ben = (Game.objects.get(pk=game.pk).seats.get(number=n).user for n in (0, 1))
    finished = play_to_end(game.pk, {0: ana, 1: ben})
    assert finished.status == Game.Status.FINISHED
    done = clients["spectator"].get(f"/api/games/{game.pk}/review/").json()
    assert done["steps"] == ActionRecord.objects.filter(game=game).count() + 1
    revised = clients["spectator"].get(f"/api/games/{game.pk}/review/?step=3").json()
    assert revised["actor"] == 0 and revised["version"] == review["version"]  # told, and uncounted as it was


def test_private_changes_push_no_line_out_of_the_others_logs(drafting, monkeypatch):
    """A log keeps its newest records down to the one holding its sixtieth line everyone reads
    (here its first): records no one else reads (Ana's revisions) move nobody else's window."""
    game, clients, _ = drafting
    for name in ("ana", "ben"):  # the pick revealed, in lines everyone reads
        view = clients[name].get(f"/api/games/{game.pk}/").json()
        action = next(a for a in view["legal_actions"] if a["type"] in ("lock", "play"))
        assert _act(clients[name], game.pk, action, f"{name}-final", view["version"]).status_code == 200
    view = clients["ana"].get(f"/api/games/{game.pk}/").json()
    chooses = [a for a in view["legal_actions"] if a["type"] == "choose"]
    assert _act(clients["ana"], game.pk, chooses[0], "first", view["version"]).status_code == 200
    view = clients["ana"].get(f"/api/games/{game.pk}/").json()
    monkeypatch.setattr(selectors.snapshots, "LOG_LENGTH", 1)
    selectors.forget_game(game.pk)
    logs = {name: client.get(f"/api/games/{game.pk}/").json()["log"] for name, client in clients.items()}
    assert logs["spectator"] and logs["ben"]
    for n in range(6):
        answer = _act(clients["ana"], game.pk, chooses[1 + n % 2], f"again-{n}", view["version"] + n)
        assert answer.status_code == 200, answer.json()
    for fresh in (False, True):  # carried from move to move, and read afresh
        if fresh:
            selectors.forget_game(game.pk)
        for name in ("ben", "spectator"):
            assert clients[name].get(f"/api/games/{game.pk}/").json()["log"] == logs[name], (name, fresh)


def test_a_player_who_resigns_goes_on_counting_as_their_seat(drafting):
    """Resigned, Ana watches as a spectator, but her versions never go back below those she was
    sent: she goes on counting her own private changes (a client keeps the newest view)."""
    game, clients, _ = drafting
    ana = clients["ana"].get(f"/api/games/{game.pk}/").json()
    resigned = clients["ana"].post(f"/api/games/{game.pk}/resign/", {}, content_type="application/json")
    assert resigned.status_code == 200, resigned.json()
    after = clients["ana"].get(f"/api/games/{game.pk}/").json()
    spectator = clients["spectator"].get(f"/api/games/{game.pk}/").json()
    assert after["seat"] is None and after["view"] == spectator["view"]
    assert after["version"] > ana["version"] > spectator["version"]
