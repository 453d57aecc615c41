"""The play service's rules at their edges: when a move is stale, and who may move for a seat.

A move based on a version from before its seat's current question is stale; one based on
the version that asked it, or on any later one the game has reached, is played. Only the
user holding a seat moves for it, whether the game's seats are read from the database or
from the snapshot a watched game keeps in memory.
"""
from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import engines, selectors, services
from games.engines.base import IllegalAction, NotYourTurn
from games.errors import BadRequest, NotSeated, StaleVersion
from games.models import ActionRecord, ApiToken, Game
from tests.platform.helpers import started_game
from tests.platform.test_consumers import api_socket, next_of

pytestmark = pytest.mark.django_db


def _state(game: Game) -> dict:
    game.refresh_from_db()
    return selectors.game_state(game)


def _move(game: Game, user, action: dict, version: int) -> services.ActionResult:
    return services.submit_action(game_id=game.pk, user=user, action=action, action_id=uuid.uuid4().hex,
                                  version=version)


def _unchanged(game: Game):
    """What a refused move must leave as it was: the version, the log and the state."""
    game.refresh_from_db()
    return game.version, list(game.actions.values_list("seq", "seat", "action")), game.state


# ---------------------------------------------------------------- the stale-version boundary


def _asked_again(make_user):
    """A Snowball Fight draft after its first round: both seats were asked a new question
    (a new pack) by Ben's lock at version ``asked_at``; then Ana's tentative choice moved the
    game on to ``asked_at + 1`` without changing Ben's question."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    ruleset = engines.get(game.game_type)
    state = _state(game)
    assert set(ruleset.to_act(state)) == {0, 1} and state["step"] == "pick"
    _move(game, ana, ruleset.bot_action(state, 0), game.version)
    state = _state(game)
    first_question = ruleset.legal_actions(state, 1)
    asked_at = _move(game, ben, ruleset.bot_action(state, 1), game.version).version
    state = _state(game)
    assert game.version == asked_at
    new_question = ruleset.legal_actions(state, 1)
    assert new_question != first_question, "Ben's lock must have asked him something new"
    tentative = next(a for a in ruleset.legal_actions(state, 0) if a["type"] == "choose")
    _move(game, ana, tentative, asked_at)
    state = _state(game)
    assert game.version == asked_at + 1
    assert ruleset.legal_actions(state, 1) == new_question, "Ana's choice must not change Ben's question"
    return game, ben, ruleset.bot_action(state, 1), asked_at


@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_a_move_is_stale_exactly_when_based_on_a_version_before_its_question(site_backend, make_user, offset):
    game, ben, action, asked_at = _asked_again(make_user)
    based_on = asked_at + offset
    if offset < 0:
        before = _unchanged(game)
        with pytest.raises(StaleVersion, match=f"you saw version {based_on}, it is at {asked_at + 1}"):
            _move(game, ben, action, based_on)
        assert _unchanged(game) == before
    else:
        result = _move(game, ben, action, based_on)
        assert result.version > asked_at + 1
        assert ActionRecord.objects.filter(game=game, seat=1, action=action).exists()


@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_the_version_before_the_question_is_stale_and_the_question_s_own_is_played(
        site_backend, make_user):
    """The same boundary through the JSON socket, which may make its moves another way."""

    @database_sync_to_async
    def setup():
        game, ben, action, asked_at = _asked_again(make_user)
        return game, ApiToken.issue(user=ben, name="t")[1], action, asked_at, _unchanged(game)

    game, ben_key, action, asked_at, before = await setup()
    ben = await api_socket(game.pk, ben_key)
    assert (await next_of(ben, "view"))["version"] == asked_at + 1
    await ben.send_json_to({"type": "action", "action": action, "action_id": "b-stale", "version": asked_at - 1})
    error = await next_of(ben, "error")
    assert error["code"] == "stale_version" and error["action_id"] == "b-stale"
    assert await database_sync_to_async(_unchanged)(game) == before
    await ben.send_json_to({"type": "action", "action": action, "action_id": "b-fresh", "version": asked_at})
    ack = await next_of(ben, "ack")
    assert ack["action_id"] == "b-fresh" and ack["duplicate"] is False and ack["version"] > asked_at + 1
    await ben.disconnect()


def test_a_move_based_on_a_version_the_game_has_not_reached_is_refused(site_backend, make_user):
    game, ben, action, asked_at = _asked_again(make_user)
    before = _unchanged(game)
    with pytest.raises(BadRequest, match=f"version {asked_at + 2} is ahead of the game"):
        _move(game, ben, action, asked_at + 2)
    assert _unchanged(game) == before


# ---------------------------------------------------------------- who may move for a seat


def _watch(game: Game) -> None:
    """A spectator opens the game's page, as anyone watching a live game does."""
    response = Client().get(f"/games/{game.pk}/")
    assert response.status_code == 200


@pytest.fixture(params=["unwatched", "watched"])
def watched(request) -> bool:
    """Run once on a game nobody has opened (its seats come from the database) and once on a
    game a spectator is watching (its started seats come from the kept snapshot)."""
    return request.param == "watched"


def _draft(make_user, watched: bool):
    """A Jingle Bells draft, where exactly one seat (the first picker) is asked."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type="jingle-bells", options={"layout": "garden"})
    if watched:
        _watch(game)
    ruleset = engines.get(game.game_type)
    state = _state(game)
    (picker,) = ruleset.to_act(state)
    users = {0: ana, 1: ben}
    return game, ruleset, users[picker], users[1 - picker], picker


def test_a_seated_player_cannot_move_for_the_seat_that_is_asked(site_backend, make_user, watched):
    """Picks alternate, so each player in turn tries to pick while the other is asked."""
    game, ruleset, picker_user, other_user, picker = _draft(make_user, watched)
    for turn in range(2):
        pick = ruleset.bot_action(_state(game), picker)
        assert pick["type"] == "pick"
        before = _unchanged(game)
        with pytest.raises(NotYourTurn, match="not your turn: waiting for (Ana|Ben) to pick"):
            _move(game, other_user, pick, game.version)
        assert _unchanged(game) == before
        _move(game, picker_user, pick, game.version)
        recorded = ActionRecord.objects.get(game=game, seq=turn + 1)
        assert (recorded.seat, recorded.action) == (picker, pick)
        picker, picker_user, other_user = 1 - picker, other_user, picker_user


def test_a_seated_player_cannot_play_the_other_seats_cards(site_backend, make_user, watched):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, options={"draft": "quick"})
    if watched:
        _watch(game)
    ruleset = engines.get(game.game_type)
    state = _state(game)
    if state["step"] != "choose":  # the quick draft's keep: both seats lock their defaults
        for seat, user in ((0, ana), (1, ben)):
            _move(game, user, ruleset.to_act(_state(game))[seat].default, game.version)
        state = _state(game)
    assert state["step"] == "choose" and set(ruleset.to_act(state)) == {0, 1}
    anas_card = next(a for a in ruleset.legal_actions(state, 0) if a["type"] == "play")
    assert anas_card not in ruleset.legal_actions(state, 1)
    before = _unchanged(game)
    with pytest.raises(IllegalAction, match=f"card {anas_card['card']} is not in your hand"):
        _move(game, ben, anas_card, game.version)
    assert _unchanged(game) == before


def test_a_player_of_another_game_and_an_anonymous_visitor_cannot_move(site_backend, make_user, watched):
    game, ruleset, picker_user, _, picker = _draft(make_user, watched)
    eve, fay = make_user("Eve"), make_user("Fay")
    elsewhere = started_game(eve, fay, game_type="jingle-bells", options={"layout": "garden"})
    if watched:
        _watch(elsewhere)
    pick = ruleset.bot_action(_state(game), picker)
    before = _unchanged(game)
    for who in (eve, fay, AnonymousUser(), None):
        with pytest.raises(NotSeated):
            _move(game, who, pick, game.version)
    assert _unchanged(game) == before
    assert not ActionRecord.objects.filter(game=elsewhere).exists()

