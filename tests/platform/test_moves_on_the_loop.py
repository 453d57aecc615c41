"""In the one-process shape (SQLite in the process, this process's coordinator), a move on a
game the process holds is made on the event loop, with no hop to a database thread; whatever
it would have to wait for (the game's lock, SQLite's lock held by another process) sends it to
a database thread instead; a write of this process's own database threads it awaits, and makes
the move on the loop after it. The loop goes on serving every other socket meanwhile. Either way the move is committed before it is acked, once."""
from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import calls, consumers, engines, selectors, services
from games.models import ActionRecord, Game, RatingChange
from games.services import play
from games.services.locking import game_lock, sqlite_writer
from tests.platform.test_socket_answers import _games, _move, api_socket, next_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def django_guards_the_loop(monkeypatch):
    """As in a server: Django refuses its database on a thread that runs an event loop (the
    test process allows it for the browser tests' sake)."""
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE", raising=False)


@pytest.fixture
def thread_calls(monkeypatch):
    """The names of the functions handed to a database thread by the sockets."""
    handed: list[str] = []
    real = consumers.db_call

    def recording(function):
        handed.append(function.__name__)
        return real(function)

    monkeypatch.setattr(consumers, "db_call", recording)
    return handed


def _logged(game_id: int, action_id: str) -> int:
    return ActionRecord.objects.filter(game_id=game_id, action_id=action_id).count()


async def _acked_once(comm, game_id: int, action_id: str) -> dict:
    """The answer to ``action_id``: an ack of a move made now, logged once."""
    ack = await next_of(comm, "ack", "error", timeout=10)
    assert ack["type"] == "ack" and ack["duplicate"] is False and ack["action_id"] == action_id
    assert await database_sync_to_async(_logged)(game_id, action_id) == 1
    return ack


@pytest.mark.parametrize("on_the_loop", [True, False], ids=["on", "off"])
async def test_a_held_move_is_made_on_the_loop_and_committed_before_its_ack(
        site_backend, make_user, settings, thread_calls, on_the_loop):
    settings.SNOWBALL_MOVES_ON_THE_LOOP = on_the_loop
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")  # the socket's read: the process holds the game
    await _move(ana, game, moves[0], "a1")
    ack = await _acked_once(ana, game.pk, "a1")
    await _move(ana, game, moves[0], "a1")  # resent: a duplicate, logged once
    again = await next_of(ana, "ack", "error")
    assert again["type"] == "ack" and again["duplicate"] is True and again["version"] == ack["version"]
    assert await database_sync_to_async(_logged)(game.pk, "a1") == 1
    # SQLite with this process's coordinator, or PostgreSQL (its statement awaited on the loop)
    made_on_the_loop = on_the_loop and (site_backend == "memory" or connection.vendor == "postgresql")
    assert thread_calls.count("_submit") == (1 if made_on_the_loop else 2)  # a resend is answered on a thread
    await ana.disconnect()


async def test_sqlite_locked_by_another_process_sends_the_move_to_a_thread_and_other_sockets_go_on(
        make_user, settings, thread_calls):
    """Another process holds SQLite's write lock for a second and a half: the move waits for it
    on a database thread, not on the loop, so another game's socket gets its pong at once."""
    (game, keys, moves), (other_game, other_keys, _) = await _games(make_user, 2)
    ana, other = await api_socket(game.pk, keys[0]), await api_socket(other_game.pk, other_keys[0])
    await next_of(ana, "view")
    await next_of(other, "view")
    writer = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        await _move(ana, game, moves[0], "a1")
        await asyncio.sleep(0.2)
        await other.send_json_to({"type": "ping"})
        await next_of(other, "pong", timeout=1)
        assert time.monotonic() - started < 1.0
        await asyncio.sleep(1.5 - (time.monotonic() - started))
    finally:
        writer.rollback()
        writer.close()
    await _acked_once(ana, game.pk, "a1")
    assert "_submit" in thread_calls
    for comm in (ana, other):
        await comm.disconnect()


@contextmanager
def _held_on_a_thread(hold: Callable[[], AbstractContextManager]) -> Iterator[threading.Event]:
    """``hold()`` entered on a thread of its own and kept until the block ends, or until the
    event it yields is set."""
    taken, release = threading.Event(), threading.Event()

    def keep():
        with hold():
            taken.set()
            release.wait(5)

    holder = threading.Thread(target=keep)
    holder.start()
    assert taken.wait(5)
    try:
        yield release
    finally:
        release.set()
        holder.join()


async def _answered_at_once(comm) -> None:
    """The socket answers a ping at once: the loop is not stopped."""
    started = time.monotonic()
    await comm.send_json_to({"type": "ping"})
    await next_of(comm, "pong", timeout=1)
    assert time.monotonic() - started < 0.5


async def test_a_move_while_a_thread_writes_waits_for_it_and_is_made_on_the_loop(make_user, thread_calls):
    """A database thread is writing (a deadline's default, a move over HTTP) and holds this
    process's turn to write: the move waits for that turn without stopping the loop (another
    game's socket gets its pong), then is made on the loop, not handed to a thread."""
    (game, keys, moves), (other_game, other_keys, _) = await _games(make_user, 2)
    ana, other = await api_socket(game.pk, keys[0]), await api_socket(other_game.pk, other_keys[0])
    await next_of(ana, "view")
    await next_of(other, "view")
    with _held_on_a_thread(sqlite_writer):
        await _move(ana, game, moves[0], "a1")
        await asyncio.sleep(0.2)
        await _answered_at_once(other)
        assert await database_sync_to_async(_logged)(game.pk, "a1") == 0
    await _acked_once(ana, game.pk, "a1")
    assert "_submit" not in thread_calls
    for comm in (ana, other):
        await comm.disconnect()


async def test_a_move_whose_turn_to_write_a_thread_takes_first_waits_again_on_the_loop(
        make_user, thread_calls, monkeypatch):
    """The loop is told the turn to write is free, but a database thread takes it before the
    move runs: the move waits again and is made on the loop, not handed to a thread (there it
    would queue for the same turn, and hold it while the loop's next moves found it taken)."""
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    waits = []
    really_free = consumers.sqlite_writer_free
    with _held_on_a_thread(sqlite_writer) as release:
        async def free_too_soon_once():
            waits.append(time.monotonic())
            if len(waits) > 1:
                release.set()
                await really_free()

        monkeypatch.setattr(consumers, "sqlite_writer_free", free_too_soon_once)
        await _move(ana, game, moves[0], "a1")
        await _acked_once(ana, game.pk, "a1")
    assert len(waits) == 2
    assert "_submit" not in thread_calls
    await ana.disconnect()


async def test_a_move_while_a_thread_holds_the_games_lock_is_made_after_it(make_user, thread_calls):
    """A computer player's or a timeout's work holds the game's lock on a thread: the move does
    not wait for it on the loop (pongs go on) and is made once the lock is free."""
    [(game, keys, moves)] = await _games(make_user)
    ana, ben = await api_socket(game.pk, keys[0]), await api_socket(game.pk, keys[1])
    await next_of(ana, "view")
    await next_of(ben, "view")
    with _held_on_a_thread(lambda: game_lock(game.pk)):
        await _move(ana, game, moves[0], "a1")
        await asyncio.sleep(0.2)
        await _answered_at_once(ben)  # the other player's socket (ana's frames wait their turn)
        assert await database_sync_to_async(_logged)(game.pk, "a1") == 0
    await _acked_once(ana, game.pk, "a1")
    for comm in (ana, ben):
        await comm.disconnect()


async def test_the_write_ahead_log_is_checkpointed_on_a_database_thread(make_user, monkeypatch):
    """The loop's connection never checkpoints (a flush to disk); every ``CHECKPOINT_EVERY``
    moves made on the loop, a database thread does."""
    monkeypatch.setattr(calls, "CHECKPOINT_EVERY", 1)
    threads: list[str] = []
    real = calls.checkpoint

    def recording():
        threads.append(threading.current_thread().name)
        real()

    monkeypatch.setattr(calls, "checkpoint", recording)
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    await _move(ana, game, moves[0], "a1")
    assert (await next_of(ana, "ack", "error"))["type"] == "ack"
    for _ in range(50):
        if threads:
            break
        await asyncio.sleep(0.05)
    assert threads and all(name.startswith("snowball-db") for name in threads)
    assert calls._loop.connection.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)  # the loop's own
    await ana.disconnect()



async def test_a_loop_connection_that_fails_sends_the_move_to_a_thread(make_user, monkeypatch, thread_calls):
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")

    def fails():
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(calls, "_prepare_loop_connection", fails)
    await _move(ana, game, moves[0], "a1")
    await _acked_once(ana, game.pk, "a1")
    assert thread_calls.count("_submit") == 1
    await ana.disconnect()


async def test_a_refused_move_is_worked_out_once_on_the_held_row(make_user, monkeypatch):
    """A move the held row cannot answer (here an illegal one) is tried there once, on the loop;
    the database thread answers it from the row read under its lock, not from the held row again."""
    from games.services import play

    worked_out: list[int] = []
    real = play._play

    def counting(game, **kwargs):
        worked_out.append(game.pk)
        return real(game, **kwargs)

    monkeypatch.setattr(play, "_play", counting)
    [(game, keys, _)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    await _move(ana, game, {"type": "no-such-action"}, "a1")
    answer = await next_of(ana, "ack", "error")
    assert answer["type"] == "error" and answer["action_id"] == "a1"
    assert worked_out == [game.pk, game.pk]  # the held row on the loop, then the row read
    await ana.disconnect()


def _to_the_last_move(game_id: int) -> tuple[int, dict, int]:
    """Play the game through the services until an asked seat's suggested move would end it:
    that seat, the move and the game's version then."""
    users = {seat.number: seat.user for seat in Game.objects.get(pk=game_id).seats.select_related("user")}
    for step in range(3000):
        game = Game.objects.get(pk=game_id)
        ruleset = engines.get(game.game_type)
        state = selectors.game_state(game)
        seat = min(ruleset.to_act(state))
        action = ruleset.bot_action(state, seat)
        trial = play._row_copy(game)
        trial.logged_already, trial.token_live = False, True
        _, write = play._play(trial, user=users[seat], action=action, action_id="trial", version=game.version)
        if "outcome" in write.columns:
            return seat, action, game.version
        services.submit_action(game_id=game_id, user=users[seat], action=action, action_id=f"s{step}",
                               version=game.version)
    raise AssertionError("the game did not end")


def _ended_and_rated(game_id: int) -> tuple[str, int]:
    return Game.objects.get(pk=game_id).status, RatingChange.objects.filter(game_id=game_id).count()


async def test_the_move_that_ends_a_game_is_made_on_the_loop_and_rated_with_it(make_user, thread_calls):
    [(game, keys, _)] = await _games(make_user)
    seat, action, version = await database_sync_to_async(_to_the_last_move)(game.pk)
    player = await api_socket(game.pk, keys[seat])
    await next_of(player, "view")
    await player.send_json_to({"type": "action", "action": action, "action_id": "last", "version": version})
    await _acked_once(player, game.pk, "last")
    assert "_submit" not in thread_calls
    assert await database_sync_to_async(_ended_and_rated)(game.pk) == (Game.Status.FINISHED, 2)
    await player.disconnect()
