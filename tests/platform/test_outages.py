"""Redis away: a socket that connects meanwhile gets a documented refusal or opens without
presence, never a crash; and the reveal barrier's lost record is told apart from two writers."""
from __future__ import annotations

import asyncio
import json
import logging

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from redis.exceptions import ConnectionError as RedisConnectionError

from games import services
from games.coordinator import get_coordinator
from tests.platform.test_socket_answers import _games, _move, api_socket, next_of
from snowball_site.asgi import application
from tests.platform.helpers import started_game
from tests.platform.test_move_path import _asked

REDIS_DOWN = RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def _down(*args, **kwargs):
    raise REDIS_DOWN


async def _async_down(*args, **kwargs):
    raise REDIS_DOWN


def _no_tracebacks(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_while_the_layer_is_down_is_told_to_try_again_later(site_backend, make_user,
                                                                                   monkeypatch, caplog):
    [(game, keys, _)] = await _games(make_user)
    monkeypatch.setattr(get_channel_layer(), "group_add", _async_down)
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game.pk}/",
                                 headers=[(b"origin", b"http://localhost"), (b"host", b"localhost"),
                                          (b"authorization", f"Token {keys[0]}".encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected  # accepted, so the client sees why: an error frame, then close 4013
    frame = json.loads(await comm.receive_from(timeout=5))
    assert frame["type"] == "error" and frame["code"] == "unavailable"
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4013}
    assert _a_server_may_close_with(closed["code"])
    await comm.wait(timeout=5)
    assert _no_tracebacks(caplog) == []
    assert any("4013" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_lobby_socket_opened_while_the_layer_is_down_is_told_to_try_again_later(site_backend, monkeypatch,
                                                                                        caplog):
    monkeypatch.setattr(get_channel_layer(), "group_add", _async_down)
    comm = WebsocketCommunicator(application, "/ws/lobby/",
                                 headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4013}
    assert _a_server_may_close_with(closed["code"])
    await comm.wait(timeout=5)
    assert _no_tracebacks(caplog) == []


def _a_server_may_close_with(code: int) -> bool:
    """Whether daphne can send this close code: its websocket library (autobahn) lets the
    application close only with 1000 or a code from 3000-4999, and raises on any other
    (the socket then gets 1011 and the server logs a crash)."""
    return code == 1000 or 3000 <= code <= 4999


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_while_the_coordinator_is_down_plays_without_presence_and_joins_later(
        site_backend, make_user, monkeypatch, settings, caplog):
    settings.SNOWBALL_PRESENCE_HEARTBEAT = 0.2
    [(game, keys, moves)] = await _games(make_user)
    coordinator = get_coordinator()
    for name in ("join", "presence", "leave", "heartbeats"):
        monkeypatch.setattr(coordinator, name, _down)
    ana, ben = await api_socket(game.pk, keys[0]), await api_socket(game.pk, keys[1])
    await next_of(ana, "view")
    await next_of(ben, "view")
    await _move(ana, game, moves[0], "a1")
    ack = await next_of(ana, "ack", "error")
    assert ack["type"] == "ack"
    assert (await next_of(ben, "view"))["version"] == ack["version"]
    assert _no_tracebacks(caplog) == []

    monkeypatch.undo()  # the coordinator answers again: the next heartbeat has both join
    for _ in range(50):
        if (await asyncio.to_thread(coordinator.presence, game.pk)).seats_connected == {0, 1}:
            break
        await asyncio.sleep(0.1)
    assert (await asyncio.to_thread(coordinator.presence, game.pk)).seats_connected == {0, 1}

    for name in ("leave", "presence"):
        monkeypatch.setattr(coordinator, name, _down)
    monkeypatch.setattr(get_channel_layer(), "group_discard", _async_down)
    await ana.disconnect()
    await ben.disconnect()
    assert _no_tracebacks(caplog) == []


@pytest.mark.django_db(transaction=True)
def test_a_reveal_after_redis_forgot_the_round_is_logged_as_a_lost_record(make_user, caplog):
    """Redis restarted empty between two locks of one sealed round: the engine reveals, the
    barrier counts only the last lock. That is a lost record (INFO), not two writers."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="a", version=game.version)
    game.refresh_from_db()
    round_key = f"sealed-{game.prompts['sealed_round']}"
    get_coordinator().barrier_clear(game.pk, round_key)  # what Redis restarted empty holds
    with caplog.at_level(logging.INFO, logger="games.services.reveal"):
        resent = services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="b",
                                        version=game.version)
    assert resent.revealed
    told = [r for r in caplog.records if r.name == "games.services.reveal"]
    assert [r.levelno for r in told] == [logging.INFO]
    assert "lost its record" in told[0].getMessage() and "[0]" in told[0].getMessage()


@pytest.mark.django_db(transaction=True)
def test_a_barrier_that_completes_a_round_the_engine_did_not_reveal_is_an_error(make_user, caplog, monkeypatch):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    monkeypatch.setattr(get_coordinator(), "barrier_arrive", lambda *args, **kwargs: True)
    services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="a", version=game.version)
    told = [r for r in caplog.records if r.name == "games.services.reveal"]
    assert [r.levelno for r in told] == [logging.ERROR] and "two writers" in told[0].getMessage()
