"""On PostgreSQL (docker compose's workers), a move on a game the worker holds is worked out on
the event loop and its one statement awaited there, on the loop's own connection
(games/loop_database.py): no database thread. What the held row no longer serves (another
writer moved the game on, the action was sent before) and a connection that fails send the move
to a database thread, which answers it once. Either way the move is committed before its ack."""
from __future__ import annotations

import asyncio
import logging
import time

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import engines, loop_database, selectors, services
from games.coordinator import get_coordinator
from games.models import ApiToken, Game
from games.services import reveal
from tests.platform.helpers import started_game
from tests.platform.test_moves_on_the_loop import _logged, thread_calls  # noqa: F401 (a fixture)
from tests.platform.test_socket_answers import _games, _move, api_socket, next_of

pytestmark = [
    pytest.mark.django_db(transaction=True), pytest.mark.asyncio,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the loop awaits its writes on PostgreSQL only (tests.on_postgres runs these)"),
]


async def _answer(comm) -> dict:
    return await next_of(comm, "ack", "error", timeout=10)


async def test_a_held_move_is_written_from_the_loop_and_every_socket_is_sent_it(site_backend, make_user,
                                                                                thread_calls):
    [(game, keys, moves)] = await _games(make_user)
    ana, ben = await api_socket(game.pk, keys[0]), await api_socket(game.pk, keys[1])
    await next_of(ana, "view")
    await next_of(ben, "view")
    await _move(ana, game, moves[0], "a1")
    ack = await _answer(ana)
    assert ack["type"] == "ack" and ack["duplicate"] is False and ack["version"] > game.version
    assert await database_sync_to_async(_logged)(game.pk, "a1") == 1
    assert "_submit" not in thread_calls  # made on the loop: no database thread
    assert (await next_of(ben, "view"))["version"] == ack["version"]
    await _move(ana, game, moves[0], "a1")  # resent: the held row refuses it, a thread answers it
    again = await _answer(ana)
    assert again["type"] == "ack" and again["duplicate"] is True and again["version"] == ack["version"]
    assert await database_sync_to_async(_logged)(game.pk, "a1") == 1
    await ana.disconnect()
    await ben.disconnect()


async def test_a_move_on_a_row_another_writer_moved_on_is_made_on_a_thread_and_keeps_that_change(
        site_backend, make_user, thread_calls):
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")

    def mark_ben_away() -> int:  # another worker's write: the row's version moves, no log entry
        stored = Game.objects.get(pk=game.pk)
        Game.objects.filter(pk=game.pk).update(prompts={**stored.prompts, "away": {"1": 12345.0}},
                                               version=stored.version + 1)
        return stored.version + 1

    marked = await database_sync_to_async(mark_ben_away)()
    await _move(ana, game, moves[0], "a1")  # sent before the mark's broadcast reached her
    ack = await _answer(ana)
    assert ack["type"] == "ack" and ack["version"] == marked + 1
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.prompts["away"] == {"1": 12345.0} and stored.version == marked + 1
    assert await database_sync_to_async(_logged)(game.pk, "a1") == 1
    assert thread_calls.count("_submit") == 1
    await ana.disconnect()


@pytest.mark.parametrize("ran", [False, True], ids=["before-it-ran", "after-it-committed"])
async def test_a_loop_connection_that_fails_leaves_the_move_to_a_thread_which_makes_it_once(
        site_backend, make_user, thread_calls, monkeypatch, ran):
    """The statement fails on the loop's connection, before it ran or after it committed (the
    answer lost on the way): a database thread reads the row and makes the move, or finds it
    made; either way it is logged once and acked."""
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    real = loop_database.execute

    async def failing(sql, params):
        if ran:
            await real(sql, params)
        raise loop_database.LoopDatabaseError("OperationalError: server closed the connection unexpectedly")

    monkeypatch.setattr(loop_database, "execute", failing)
    await _move(ana, game, moves[0], "a1")
    ack = await _answer(ana)
    assert ack["type"] == "ack" and ack["version"] == game.version + 1 and ack["duplicate"] is ran
    assert await database_sync_to_async(_logged)(game.pk, "a1") == 1
    assert thread_calls.count("_submit") == 1
    await ana.disconnect()


async def test_each_locked_choice_made_on_the_loop_reaches_the_reveal_barrier(site_backend, make_user):
    """Snowball Fight's first choice is sealed: each seat's lock, committed from the loop, is
    told to the reveal barrier after its commit (from a coordinator thread, a few moves at once)."""
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    await _move(ana, game, moves[0], "a1")
    assert (await _answer(ana))["type"] == "ack"
    prompts = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).prompts
    key = f"sealed-{prompts['sealed_round']}"
    deadline = time.monotonic() + 5
    while 0 not in await database_sync_to_async(get_coordinator().barrier_state)(game.pk, key):
        assert time.monotonic() < deadline, "the lock never reached the barrier"
        await asyncio.sleep(0.02)
    await ana.disconnect()


@database_sync_to_async
def _two_players(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    state = selectors.game_state(game)
    ruleset = engines.get(game.game_type)
    return game, ben, ApiToken.issue(user=ana, name="t")[1], ruleset.bot_action(state, 0), ruleset.bot_action(state, 1)


async def test_a_reveal_told_from_a_thread_comes_after_the_lock_the_loop_still_holds(site_backend, make_user, caplog,
                                                                                     monkeypatch):
    """Ana's lock, committed from the loop, waits in the loop's batch for the barrier when Ben's
    move over HTTP reveals the round on a database thread: Ben's telling takes Ana's lock first,
    so the barrier has the whole round and nothing is logged as lost."""
    monkeypatch.setattr(reveal, "BARRIER_BATCH_SECONDS", 0.5)  # the loop's lock is still untold when Ben reveals
    game, ben, key, ana_move, ben_move = await _two_players(make_user)
    seen = game.version
    ana = await api_socket(game.pk, key)
    await next_of(ana, "view")
    with caplog.at_level(logging.INFO, logger="games.services.reveal"):
        await _move(ana, game, ana_move, "a1")  # made on the loop, told to the barrier after the batch's pause
        assert (await next_of(ana, "ack", "error", timeout=10))["type"] == "ack"
        prompts = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).prompts
        round_key = f"sealed-{prompts['sealed_round']}"
        result = await database_sync_to_async(services.submit_action)(  # at once, on a database thread
            game_id=game.pk, user=ben, action=ben_move, action_id="b1", version=seen)
        assert result.revealed
        await asyncio.sleep(0.7)  # the loop's batch, told by now, holds nothing more of the game
    assert [r.getMessage() for r in caplog.records if r.name == "games.services.reveal"] == []
    assert await database_sync_to_async(get_coordinator().barrier_state)(game.pk, round_key) == {0, 1}
    await ana.disconnect()

