"""The move path's bookkeeping: action ids per seat, the server's own ids out of the players'
reach, and the reveal barrier following only what was committed."""
from __future__ import annotations

import pytest
from django.db import OperationalError

from games import engines, selectors, services, statements
from games.coordinator import get_coordinator
from games.errors import Busy
from games.models import ActionRecord, Game
from tests.platform.helpers import started_game

pytestmark = pytest.mark.django_db


def _asked(game: Game) -> dict[int, dict]:
    ruleset = engines.get(game.game_type)
    state = selectors.game_state(game)
    return {seat: ruleset.bot_action(state, seat) for seat in ruleset.to_act(state)}


def test_two_seats_may_number_their_actions_alike_and_each_resend_counts_once(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    first = services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="1", version=game.version)
    second = services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="1", version=game.version)
    assert not first.duplicate and not second.duplicate
    assert sorted(ActionRecord.objects.filter(game=game, action_id="1").values_list("seat", flat=True)) == [0, 1]
    again = services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="1", version=game.version)
    assert again.duplicate and again.version == second.version
    assert ActionRecord.objects.filter(game=game, action_id="1").count() == 2


def test_a_player_cannot_take_the_id_of_a_computer_players_move(make_user):
    ana = make_user("Ana")
    game = started_game(ana, bots=1)
    moves = _asked(game)  # the computer player has chosen already; it answers again after the reveal
    predicted = f"bot-{game.version + 1}-1"
    result = services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id=predicted,
                                    version=game.version)
    assert not result.duplicate
    logged = dict(ActionRecord.objects.filter(game=game, action_id=predicted).values_list("source", "seat"))
    assert logged == {"player": 0, "bot": 1}


def test_a_player_cannot_take_the_id_of_a_timeout_of_their_own_seat(make_user):
    """Ana names her move after the timeout her next prompt would get; it still times out."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    next_round = game.version + 2  # after her lock and Ben's, which reveals and asks again
    predicted = f"timeout-{next_round}-0"
    services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id=predicted, version=game.version)
    services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="b", version=game.version)
    game.refresh_from_db()
    assert game.prompts["seats"]["0"]["since"] == next_round
    version = services.apply_timeouts(game_id=game.pk, now=services.next_deadline(game) + 1)
    assert version is not None and version > game.version
    sources = sorted(ActionRecord.objects.filter(game=game, action_id=predicted, seat=0).values_list("source", flat=True))
    assert sources == ["player", "timeout"]


@pytest.mark.django_db(transaction=True)
def test_a_resend_after_a_failed_write_finds_the_sealed_round_as_it_was(make_user, monkeypatch):
    """Nothing reaches the barrier before the write commits; the round closes with the reveal."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    assert sorted(moves) == [0, 1]  # a sealed round: both choose at once
    services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="a", version=game.version)
    game.refresh_from_db()
    round_key = f"sealed-{game.prompts['sealed_round']}"
    assert get_coordinator().barrier_state(game.pk, round_key) == {0}

    write = statements.write_move

    def fails(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(statements, "write_move", fails)
    with pytest.raises(Busy):
        services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="b", version=game.version)
    assert get_coordinator().barrier_state(game.pk, round_key) == {0}
    assert Game.objects.get(pk=game.pk).prompts == game.prompts

    monkeypatch.setattr(statements, "write_move", write)
    resent = services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="b", version=game.version)
    assert resent.revealed and not resent.duplicate
    assert get_coordinator().barrier_state(game.pk, round_key) == {0, 1}
    stored = Game.objects.get(pk=game.pk)
    assert stored.prompts["sealed_round"] is None and stored.prompts["sealed_seats"] is None
