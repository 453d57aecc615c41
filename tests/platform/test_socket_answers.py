"""Every action frame gets exactly one answer matching what was committed, and a stall of
one game's storage or of Redis stops neither the event loop nor other games' sockets.

Failures and stalls are injected where they happen in production: in the lock's release,
the broadcast, the connection's return, the game's read, the coordinator's calls.
"""
from __future__ import annotations

import asyncio
import json
import time
from contextlib import contextmanager

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from games import consumers, engines, selectors, services, statements
from games.coordinator import LockLost, get_coordinator
from games.models import ActionRecord, ApiToken, Game
from games.services import broadcast
from snowball_site.asgi import application
from tests.platform.helpers import started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def api_socket(game_id: int, key: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game_id}/",
                                 headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"authorization", f"Token {key}".encode())])
    connected, code = await comm.connect(timeout=5)
    assert connected, f"refused with {code}"
    return comm


async def next_of(comm: WebsocketCommunicator, *kinds: str, timeout: float = 5.0) -> dict:
    """The next frame of one of ``kinds``, skipping others (presence, views)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(await comm.receive_from(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] in kinds:
            return frame


@database_sync_to_async
def _games(make_user, count: int = 1) -> list[tuple[Game, dict[int, str], dict[int, dict]]]:
    """``count`` started two-player games: each with its players' keys and their first moves."""
    made = []
    for _ in range(count):
        ana, ben = make_user("Ana"), make_user("Ben")
        game = started_game(ana, ben)
        keys = {0: ApiToken.issue(user=ana, name="t")[1], 1: ApiToken.issue(user=ben, name="t")[1]}
        ruleset = engines.get(game.game_type)
        state = selectors.game_state(game)
        made.append((game, keys, {seat: ruleset.bot_action(state, seat) for seat in ruleset.to_act(state)}))
    return made


def _logged(game_id: int, action_id: str) -> bool:
    return ActionRecord.objects.filter(game_id=game_id, action_id=action_id).exists()


async def _move(comm, game: Game, action: dict, action_id: str) -> None:
    await comm.send_json_to({"type": "action", "action": action, "action_id": action_id, "version": game.version})


@contextmanager
def _release_fails(error: Exception):
    """The game's lock works, but releasing it raises ``error`` after a clean block."""
    coordinator = get_coordinator()
    real_lock = coordinator.lock

    @contextmanager
    def lock(game_id, **kwargs):
        with real_lock(game_id, **kwargs):
            yield
        raise error

    coordinator.lock = lock
    try:
        yield
    finally:
        del coordinator.lock


@pytest.mark.parametrize("error", [LockLost(1, 3.0), RedisConnectionError("Redis went away")],
                         ids=["lock-lost", "redis-error"])
async def test_a_move_committed_before_the_lock_release_failed_is_acked(site_backend, make_user, error):
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    with _release_fails(error):
        await _move(ana, game, moves[0], "a1")
        answer = await next_of(ana, "ack", "error")
    assert answer["type"] == "ack" and answer["duplicate"] is False and answer["version"] > game.version
    assert await database_sync_to_async(_logged)(game.pk, "a1")
    await ana.send_json_to({"type": "ping"})
    assert (await next_of(ana, "pong"))["version"] == answer["version"]
    await ana.disconnect()


async def test_a_move_whose_connection_failed_to_close_after_the_commit_is_acked(site_backend, make_user, monkeypatch):
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")
    from django.db.backends.base.base import BaseDatabaseWrapper

    def close_fails(self):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(BaseDatabaseWrapper, "close_if_unusable_or_obsolete", close_fails)
    await _move(ana, game, moves[0], "a1")
    answer = await next_of(ana, "ack", "error")
    monkeypatch.undo()
    assert answer["type"] == "ack" and answer["duplicate"] is False
    assert await database_sync_to_async(_logged)(game.pk, "a1")
    await ana.disconnect()


async def test_a_move_whose_broadcast_failed_is_acked_and_reaches_the_other_player(site_backend, make_user,
                                                                                   monkeypatch):
    """The broadcast is lost after the commit: the mover is acked, and the version watch
    brings the version to the other player's socket within about two seconds."""
    [(game, keys, moves)] = await _games(make_user)
    ana, ben = await api_socket(game.pk, keys[0]), await api_socket(game.pk, keys[1])
    await next_of(ana, "view")
    await next_of(ben, "view")

    def lost(**kwargs):
        raise RedisConnectionError("the broadcast was lost")

    monkeypatch.setattr(broadcast, "broadcast_version", lost)
    await _move(ana, game, moves[0], "a1")
    ack = await next_of(ana, "ack", "error")
    assert ack["type"] == "ack"
    seen = await next_of(ben, "view", timeout=2.5)
    assert seen["version"] == ack["version"]
    for comm in (ana, ben):
        await comm.disconnect()


@pytest.mark.parametrize(("failure", "code"), [(RuntimeError("a bug"), "server_error"),
                                               (OperationalError("database is locked"), "busy")],
                         ids=["unexpected", "database-busy"])
async def test_a_move_that_failed_before_its_commit_gets_an_error_and_the_socket_stays(
        site_backend, make_user, monkeypatch, failure, code):
    [(game, keys, moves)] = await _games(make_user)
    ana = await api_socket(game.pk, keys[0])
    await next_of(ana, "view")

    def fails(*args, **kwargs):
        raise failure

    # the move on the row read, and on the row held, from a database thread or the event loop
    for statement in ("read_game", "write_held_move", "held_move_statement"):
        monkeypatch.setattr(statements, statement, fails)
    await _move(ana, game, moves[0], "a1")
    error = await next_of(ana, "ack", "error")
    assert (error["type"], error["code"], error["action_id"]) == ("error", code, "a1")
    assert not await database_sync_to_async(_logged)(game.pk, "a1")
    monkeypatch.undo()
    await _move(ana, game, moves[0], "a1")  # the same frame again
    ack = await next_of(ana, "ack", "error")
    assert ack["type"] == "ack" and ack["duplicate"] is False
    await ana.disconnect()


async def test_a_timer_that_failed_tries_again_and_applies_the_timeout(site_backend, make_user, monkeypatch):
    [(game, keys, _)] = await _games(make_user)
    prompts = dict(game.prompts)
    prompts["seats"] = {seat: {**p, "deadline": time.time() + 0.3} for seat, p in prompts["seats"].items()}
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(prompts=prompts)
    monkeypatch.setattr(consumers, "TIMER_RETRY_SECONDS", 0.2)
    apply = services.apply_timeouts
    calls = []

    def fails_once(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise psycopg.OperationalError("connection lost")
        return apply(**kwargs)

    monkeypatch.setattr(services, "apply_timeouts", fails_once)
    ana = await api_socket(game.pk, keys[0])
    first = await next_of(ana, "view")
    later = await next_of(ana, "view", timeout=5)
    assert later["version"] > first["version"] and len(calls) >= 2
    assert await database_sync_to_async(ActionRecord.objects.filter(game=game, source="timeout").exists)()
    await ana.disconnect()


async def test_a_stalled_database_call_of_one_game_stops_no_other_game(site_backend, make_user, monkeypatch):
    """One game's read waits three seconds (a held write lock, a stalled server): another
    game's socket still gets its pongs and views at once, and the stalled move is answered."""
    (slow_game, slow_keys, slow_moves), (game, keys, _) = await _games(make_user, 2)
    read = statements.read_game

    def stalls(game_id, **kwargs):
        if game_id == slow_game.pk:
            time.sleep(3)
        return read(game_id, **kwargs)

    stalled = await api_socket(slow_game.pk, slow_keys[0])
    other = await api_socket(game.pk, keys[0])
    await next_of(stalled, "view")
    await next_of(other, "view")
    monkeypatch.setattr(statements, "read_game", stalls)
    started = time.monotonic()
    await _move(stalled, slow_game, slow_moves[0], "s1")
    await asyncio.sleep(0.2)  # the stalled move is under way
    await other.send_json_to({"type": "ping"})
    await next_of(other, "pong", timeout=1)
    await other.send_json_to({"type": "refresh"})
    await next_of(other, "view", timeout=1)
    assert time.monotonic() - started < 1.5
    answer = await next_of(stalled, "ack", "error", timeout=10)
    assert answer["type"] == "ack" or answer["code"] == "busy"
    for comm in (stalled, other):
        await comm.disconnect()


async def test_a_stalled_coordinator_call_stops_no_other_socket(site_backend, make_user, monkeypatch):
    """Redis answers one game's presence three seconds late: other sockets go on."""
    (slow_game, slow_keys, _), (game, keys, _) = await _games(make_user, 2)
    other = await api_socket(game.pk, keys[0])
    await next_of(other, "view")
    coordinator = get_coordinator()
    presence = coordinator.presence

    def stalls(game_id):
        if game_id == slow_game.pk:
            time.sleep(3)
        return presence(game_id)

    monkeypatch.setattr(coordinator, "presence", stalls)
    started = time.monotonic()
    joining = asyncio.create_task(api_socket(slow_game.pk, slow_keys[0]))
    await asyncio.sleep(0.3)  # its connect is waiting for the presence
    await other.send_json_to({"type": "ping"})
    await next_of(other, "pong", timeout=1)
    assert time.monotonic() - started < 1.5
    stalled = await asyncio.wait_for(joining, 10)
    await next_of(stalled, "view", timeout=10)
    for comm in (stalled, other):
        await comm.disconnect()
