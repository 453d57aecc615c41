"""How often a player revised a secret is as hidden as the secret itself: nothing the other
seats or a spectator are sent counts the revisions, not the version, not the log.

Two games from one seed reach the same position; there Ana locks her first sealed choice in
one, and in the other changes it twice (back to the first) before locking it. Everything Ben
and a spectator are then sent of the game is the same in both.
"""
from __future__ import annotations

import uuid

import pytest

from games import engines, selectors, services
from games.models import Game
from tests.platform.test_hidden_information import POSITIONS, Position

pytestmark = pytest.mark.django_db(transaction=True)

# what tells two games apart, whatever was played: their ids, seeds, players' accounts and clocks
DIFFERS_BY_GAME = ("game_id", "dice", "players", "next_deadline", "rematch", "away")


def _ana_does(position: Position, *actions: dict) -> None:
    for action in actions:
        game = Game.objects.get(pk=position.game_id)
        services.submit_action(game_id=game.pk, user=position.users[0], action=action,
                               action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, 0))


def _as_seen_by(position: Position, seat: int | None) -> dict:
    payload = selectors.viewer_payload(Game.objects.get(pk=position.game_id), seat)
    seen = {key: value for key, value in payload.items() if key not in DIFFERS_BY_GAME}
    if seen.get("prompt"):
        seen["prompt"] = {key: value for key, value in seen["prompt"].items() if key != "deadline"}
    return seen


@pytest.mark.parametrize("game_type", list(POSITIONS))
def test_the_others_are_sent_the_same_whether_a_sealed_choice_was_revised_or_not(make_user, game_type):
    plain, revised = POSITIONS[game_type](make_user), POSITIONS[game_type](make_user)
    _ana_does(plain, plain.first_choice, plain.lock)
    _ana_does(revised, revised.first_choice, revised.second_choice, revised.first_choice, revised.lock)
    assert plain.first_choice == revised.first_choice  # the same position, the same choice locked
    for seat in (1, None):
        seen_plain, seen_revised = _as_seen_by(plain, seat), _as_seen_by(revised, seat)
        assert seen_plain["log"], "the lock must have been logged for everyone"
        assert seen_plain == seen_revised, f"viewer {seat} can tell that Ana revised her choice"
    # Ana's own version counts her revisions
    assert _as_seen_by(revised, 0)["version"] == _as_seen_by(plain, 0)["version"] + 2


def _switches_a_setting(make_user, game_type: str, options: dict, arrived, setting) -> None:
    """At the position ``arrived`` picks, the asked seat switches a setting of its own
    (``setting(state)``) back and forth: nobody else is sent anything new, not even a moved
    deadline, and the seat's own question keeps its time."""
    from tests.platform.test_hidden_information import _drive, _start

    game, users = _start(make_user, game_type, options)
    state = _drive(game, users, arrived)
    seat = min(engines.get(game_type).to_act(state))
    others = [s for s in (0, 1, None) if s != seat]
    before = {s: _as_seen(game.pk, s) for s in others}
    deadline = Game.objects.get(pk=game.pk).prompts["seats"][str(seat)]["deadline"]
    for _ in range(3):
        game.refresh_from_db()
        action = setting(selectors.game_state(game), seat)
        services.submit_action(game_id=game.pk, user=users[seat], action=action, action_id=uuid.uuid4().hex,
                               version=selectors.viewer_version(game, seat))
    assert {s: _as_seen(game.pk, s) for s in others} == before
    game.refresh_from_db()
    assert game.prompts["seats"][str(seat)]["deadline"] == deadline, "the seat's clock started again"
    assert game.prompts["private"][seat] == 3


def _as_seen(game_id: int, seat: int | None) -> dict:
    return selectors.viewer_payload(Game.objects.get(pk=game_id), seat)


def test_switching_jingle_bells_automatic_dodge_on_a_turn_tells_the_others_nothing(make_user):
    _switches_a_setting(make_user, "jingle-bells", {"layout": "garden"},
                        lambda s: s["phase"] == "actions" and engines.get("jingle-bells").to_act(s),
                        lambda s, seat: {"type": "set_auto_dodge", "on": not s["auto_dodge"][seat]})


def test_what_a_snowball_card_asked_or_never_tells_the_others_nothing(make_user):
    _switches_a_setting(make_user, "what-a-snowball", {"ability_cards": "method2"},
                        lambda s: s["phase"] == "play" and engines.get("what-a-snowball").to_act(s),
                        lambda s, seat: {"type": "set_never_ask", "card": "dork", "on": "dork" not in s["never_ask"][seat]})
