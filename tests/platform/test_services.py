"""The play service: seats, actions applied once, stale and foreign actions refused, replay."""
from __future__ import annotations

import asyncio
import threading
import uuid
from contextlib import nullcontext

import pytest
from django.db import connection

from games import engines, selectors, services, statements
from games.coordinator import get_coordinator
from games.engines.base import GameError
from games.errors import BadRequest, Busy, Conflict, NotFound, NotSeated, StaleVersion
from games.models import ActionRecord, Game
from games.state_cache import STATE_CACHE
from tests.platform.helpers import SLUG, play_to_end, started_game

pytestmark = pytest.mark.django_db


def _first_move(game: Game, seat: int) -> dict:
    ruleset = engines.get(game.game_type)
    return ruleset.bot_action(selectors.game_state(game), seat)


def test_waiting_room_seats_and_start(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=ana, game_type=SLUG)
    assert [s["name"] for s in selectors.seats_summary(game)] == ["Ana", "(empty seat 2)"]
    with pytest.raises(Conflict, match="still empty"):
        services.start_game(game_id=game.pk, user=ana)
    services.join_seat(game_id=game.pk, user=ben, number=1)
    with pytest.raises(Conflict, match="every seat is taken"):
        services.join_seat(game_id=game.pk, user=cy)
    with pytest.raises(Conflict, match="already have a seat"):
        services.join_seat(game_id=game.pk, user=ben)
    services.leave_seat(game_id=game.pk, user=ben)
    services.join_seat(game_id=game.pk, user=cy)
    with pytest.raises(NotSeated):
        services.start_game(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=cy)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert selectors.viewer_payload(game, 0)["view"] is not None
    with pytest.raises(Conflict, match="already started"):
        services.leave_seat(game_id=game.pk, user=cy)


def test_bad_options_are_refused_before_anything_is_saved(make_user):
    ana = make_user("Ana")
    with pytest.raises(BadRequest):
        services.create_game(creator=ana, game_type="no-such-game")
    with pytest.raises(BadRequest, match="players"):
        services.create_game(creator=ana, game_type=SLUG, num_seats=9)
    assert Game.objects.count() == 0


def test_full_game_finishes_and_replays_from_seed_and_log(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    game = play_to_end(game.pk, {0: ana, 1: ben})
    assert game.status == Game.Status.FINISHED
    assert game.outcome["winners"]
    assert len(game.outcome["scores"]) == 2
    assert services.replay(game=game) == game.state
    assert game.actions.count() == game.actions.order_by("-seq").first().seq
    assert game in selectors.my_games(ana)


def test_resent_action_id_is_applied_once(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    action = _first_move(game, 0)
    first = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="same-id", version=game.version)
    again = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="same-id", version=game.version)
    assert not first.duplicate and again.duplicate
    assert again.version == first.version
    assert ActionRecord.objects.filter(game=game, action_id="same-id").count() == 1


def test_action_based_on_an_old_prompt_is_refused_as_stale(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    old_version = game.version
    play_to_end(game.pk, {0: ana, 1: ben}, max_steps=6)
    game.refresh_from_db()
    ruleset = engines.get(game.game_type)
    seat = min(ruleset.to_act(game.state))
    user = ana if seat == 0 else ben
    since = game.prompts["seats"][str(seat)]["since"]
    assert since > old_version
    with pytest.raises(StaleVersion, match="moved on"):
        services.submit_action(game_id=game.pk, user=user, action=_first_move(game, seat),
                               action_id=uuid.uuid4().hex, version=old_version)
    game.refresh_from_db()
    assert game.version == game.actions.order_by("-seq").first().version


def test_simultaneous_choices_are_not_stale_for_the_other_seat(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    ruleset = engines.get(game.game_type)
    assert set(ruleset.to_act(game.state)) == {0, 1}
    seen = game.version
    services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="a1", version=seen)
    game.refresh_from_db()
    result = services.submit_action(game_id=game.pk, user=ben, action=_first_move(game, 1), action_id="b1", version=seen)
    assert result.version > seen


def test_strangers_and_illegal_actions_change_nothing(make_user):
    ana, ben, eve = make_user("Ana"), make_user("Ben"), make_user("Eve")
    game = started_game(ana, ben)
    before = (game.version, game.state)
    with pytest.raises(NotSeated):
        services.submit_action(game_id=game.pk, user=eve, action=_first_move(game, 0), action_id="x", version=game.version)
    with pytest.raises(GameError):
        services.submit_action(game_id=game.pk, user=ana, action={"type": "play", "card": "nope", "side": "top"},
                               action_id="y", version=game.version)
    with pytest.raises(BadRequest):
        services.submit_action(game_id=game.pk, user=ana, action="not a dict", action_id="z", version=game.version)
    with pytest.raises(BadRequest):
        services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="w", version="7")
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert not ActionRecord.objects.filter(game=game).exists()


def test_overdue_prompts_get_the_rule_books_default(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    deadline = services.next_deadline(game)
    assert deadline is not None
    assert services.apply_timeouts(game_id=game.pk, now=deadline - 1) is None
    new_version = services.apply_timeouts(game_id=game.pk, now=deadline + 1)
    assert new_version is not None and new_version > game.version
    assert ActionRecord.objects.filter(game=game, source="timeout").exists()


def test_computer_player_answers_by_itself(make_user):
    ana = make_user("Ana")
    game = started_game(ana, bots=1)
    game = play_to_end(game.pk, {0: ana})
    assert game.status == Game.Status.FINISHED
    assert ActionRecord.objects.filter(game=game, source="bot").exists()
    assert services.replay(game=game) == game.state


def test_state_survives_a_process_losing_its_memory(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    play_to_end(game.pk, {0: ana, 1: ben}, max_steps=10)
    STATE_CACHE.clear()
    game = play_to_end(game.pk, {0: ana, 1: ben})
    assert game.status == Game.Status.FINISHED
    assert services.replay(game=game) == game.state


def test_guest_registers_later_and_keeps_its_games(make_user):
    guest = make_user("Gus", guest=True)
    ben = make_user("Ben")
    game = started_game(guest, ben)
    user = services.register_user(username="gus", password="snow-ball-1234", guest=guest)
    assert user.pk == guest.pk and not user.profile.is_guest
    assert game in selectors.my_games(user)


# The events with which each engine ends a sealed round (everyone's choice is shown at once).
ROUND_ENDS = {SLUG: {"draft_pick", "draft_done", "reveal"}, "jingle-bells": {"reveal"}}


@pytest.mark.parametrize("game_type", sorted(ROUND_ENDS))
def test_exactly_the_lock_that_completes_a_sealed_round_reports_the_reveal(make_user, game_type, caplog):
    """The reveal barrier agrees with the engine on every round, including one that runs into the next."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=game_type)
    ruleset = engines.get(game_type)
    users = {0: ana, 1: ben}
    reveals = 0
    for _ in range(3000):
        game = selectors.get_game(game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        state = selectors.game_state(game)
        seat = min(ruleset.to_act(state))
        result = services.submit_action(game_id=game.pk, user=users[seat], action=ruleset.bot_action(state, seat),
                                        action_id=uuid.uuid4().hex, version=game.version)
        events = ActionRecord.objects.filter(game=game, version__gt=game.version).values_list("events", flat=True)
        round_ended = any(e["type"] in ROUND_ENDS[game_type] for batch in events for e in batch)
        assert result.revealed == round_ended, f"at version {game.version}, seat {seat}"
        reveals += result.revealed
    assert game.status == Game.Status.FINISHED
    assert reveals >= 2
    assert "barrier" not in caplog.text



@pytest.mark.django_db(transaction=True)
def test_a_move_that_outlived_its_lock_is_refused_whole_and_the_other_move_stands(make_user, monkeypatch):
    """A worker that stalled past its lock's expiry must not overwrite the move made meanwhile.

    Only PostgreSQL runs a move without a transaction; SQLite's keeps every other writer out.
    """
    if not statements.moves_in_one_statement():
        pytest.skip("SQLite's transaction keeps every other writer out until the move commits")
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    read_the_game = statements.locked_game
    coordinator = get_coordinator()

    def ben_moves_on_another_worker():
        try:
            services.submit_action(game_id=game.pk, user=ben, action=_first_move(game, 1), action_id="ben-1",
                                   version=game.version)
        finally:
            connection.close()

    def read_then_let_ben_move(game_id, **kwargs):
        read = read_the_game(game_id, **kwargs)
        monkeypatch.setattr(statements, "locked_game", read_the_game)
        with monkeypatch.context() as expired:  # Ana's lock has run out: Ben's worker gets in
            expired.setattr(coordinator, "lock", lambda game_id, **kwargs: nullcontext())
            other = threading.Thread(target=ben_moves_on_another_worker)
            other.start()
            other.join(timeout=10)
        return read

    monkeypatch.setattr(statements, "locked_game", read_then_let_ben_move)
    with pytest.raises(Busy, match="send it again"):
        services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="ana-1",
                               version=game.version)
    assert list(ActionRecord.objects.filter(game=game).values_list("action_id", flat=True)) == ["ben-1"]
    game.refresh_from_db()
    assert (game.version, game.log_length) == (game.actions.get().version, 1)
    STATE_CACHE.clear()
    again = services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="ana-1",
                                   version=game.version)
    assert not again.duplicate
    assert list(game.actions.values_list("action_id", flat=True)) == ["ben-1", "ana-1"]


# Moves made on the event loop (PostgreSQL): the lock and both statements awaited

on_postgres_only = pytest.mark.skipif(
    "not __import__('games.statements').statements.moves_in_one_statement()",
    reason="moves await the database only on PostgreSQL (services.moves_await_the_database)")


def _asked_moves(game: Game) -> dict[int, dict]:
    ruleset = engines.get(game.game_type)
    state = selectors.game_state(game)
    return {seat: ruleset.bot_action(state, seat) for seat in ruleset.to_act(state)}


@on_postgres_only
@pytest.mark.django_db(transaction=True)
async def test_awaited_moves_of_one_game_take_turns_and_one_of_them_reveals(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked_moves(game)
    assert sorted(moves) == [0, 1]  # both seats choose at once: a sealed round
    selectors.snapshot(game.pk)  # a socket of this process is watching

    ana_result, ben_result = await asyncio.gather(
        services.submit_action_async(game_id=game.pk, user=ana, action=moves[0], action_id="ana-1",
                                     version=game.version),
        services.submit_action_async(game_id=game.pk, user=ben, action=moves[1], action_id="ben-1",
                                     version=game.version))

    stored = Game.objects.get(pk=game.pk)
    assert sorted([ana_result.version, ben_result.version]) == [game.version + 1, stored.version]
    assert [ana_result.revealed, ben_result.revealed].count(True) == 1
    assert sorted(stored.actions.values_list("action_id", flat=True)) == ["ana-1", "ben-1"]
    assert selectors.SNAPSHOTS.get(game.pk).version == stored.version  # this process was told
    resent = await services.submit_action_async(game_id=game.pk, user=ana, action=moves[0], action_id="ana-1",
                                                version=game.version)
    assert (resent.duplicate, resent.version) == (True, stored.version)
    assert Game.objects.get(pk=game.pk).log_length == stored.log_length
    assert services.replay(game=stored) == stored.state


@on_postgres_only
@pytest.mark.django_db(transaction=True)
async def test_an_awaited_move_refuses_what_the_synchronous_one_refuses_and_changes_nothing(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = started_game(ana, ben)
    moves = _asked_moves(game)
    attempts = [
        (dict(user=cy, action=moves[0], action_id="cy", version=game.version), NotSeated, "not seated"),
        (dict(user=ana, action=moves[0], action_id="", version=game.version), BadRequest, "action_id"),
        (dict(user=ana, action=moves[0], action_id="a", version=game.version + 1), BadRequest, "ahead"),
        (dict(user=ana, action={"type": "no-such-move"}, action_id="b", version=game.version), GameError, "no-such-move"),
    ]
    for kwargs, error, message in attempts:
        with pytest.raises(error, match=message):
            await services.submit_action_async(game_id=game.pk, **kwargs)
    with pytest.raises(NotFound):
        await services.submit_action_async(game_id=987654, user=ana, action=moves[0], action_id="c", version=1)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.log_length) == (game.version, game.log_length)


@on_postgres_only
@pytest.mark.django_db(transaction=True)
async def test_a_move_waiting_for_postgresql_stops_neither_the_event_loop_nor_other_games(make_user):
    """Another connection holds the game's row: that move's write waits, while the loop runs
    on and a move of another game goes through."""
    import psycopg

    ana, ben, cy, dee = make_user("Ana"), make_user("Ben"), make_user("Cy"), make_user("Dee")
    game, other_game = started_game(ana, ben), started_game(cy, dee)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    blocker = await psycopg.AsyncConnection.connect(**params)
    try:
        await blocker.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
        move = asyncio.create_task(services.submit_action_async(
            game_id=game.pk, user=ana, action=_asked_moves(game)[0], action_id="ana-1", version=game.version))
        ticks = 0
        for _ in range(20):
            await asyncio.sleep(0.01)
            ticks += 1
        other = await asyncio.wait_for(services.submit_action_async(
            game_id=other_game.pk, user=cy, action=_asked_moves(other_game)[0], action_id="cy-1",
            version=other_game.version), 10)
        assert not move.done() and ticks == 20  # the move waits on the row; the loop did not
        await blocker.rollback()
        result = await asyncio.wait_for(move, 10)
    finally:
        await blocker.close()
    assert (result.version, other.version) == (game.version + 1, other_game.version + 1)
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert Game.objects.get(pk=other_game.pk).version == other_game.version + 1
