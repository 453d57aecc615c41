"""On PostgreSQL a worker holds at most ``SNOWBALL_DB_POOL_SIZE`` connections (its database
threads' and its event loop's), whatever its traffic: many HTTP requests and many concurrent
socket moves (runs under ``python -m
tests.on_postgres``)."""
from __future__ import annotations

import asyncio
import json
import threading
import uuid

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings
from django.db import connection

from games.models import ApiToken
from snowball_site.asgi import application
from tests.platform.helpers import started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class ConnectionCounter:
    """Counts, every few milliseconds from a thread of its own, the sessions that other
    connections hold on the test database, and keeps the highest count."""

    def __init__(self) -> None:
        params = {**connection.get_connection_params()}
        params.pop("cursor_factory", None)
        params.pop("context", None)
        self.conn = psycopg.connect(**params, autocommit=True)
        self.highest = 0
        self.samples = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._count)

    def _count(self) -> None:
        while not self.stop.is_set():
            (count,) = self.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                         "AND pid <> pg_backend_pid()").fetchone()
            self.highest = max(self.highest, count)
            self.samples += 1
            self.stop.wait(0.005)

    def __enter__(self) -> ConnectionCounter:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)
        self.conn.close()


@database_sync_to_async
def _games(make_user, count: int):
    made = []
    for _ in range(count):
        ana, ben = make_user("Ana"), make_user("Ben")
        game = started_game(ana, ben)
        made.append((game, [ApiToken.issue(user=user, name="t")[1] for user in (ana, ben)]))
    return made


async def _play(game, keys: list[str], moves: int) -> int:
    """Both seats of ``game`` move as fast as they are answered; the number of acks."""
    sockets = []
    for key in keys:
        comm = WebsocketCommunicator(application, f"/ws/api/games/{game.pk}/",
                                     headers=[(b"authorization", f"Token {key}".encode())])
        assert (await comm.connect(timeout=10))[0]
        sockets.append(comm)
    acks = 0
    views = {seat: None for seat in range(2)}
    for _ in range(moves * 20):
        for seat, comm in enumerate(sockets):
            while not await comm.receive_nothing(timeout=0.01):
                frame = json.loads(await comm.receive_from())
                if frame["type"] == "view" and (views[seat] is None or frame["version"] >= views[seat]["version"]):
                    views[seat] = {**frame, "sent": False}
                acks += frame["type"] == "ack"
        if acks >= moves or all(v and v["status"] == "finished" for v in views.values()):
            break
        for seat, view in views.items():
            if view and view["legal_actions"] and not view["sent"]:
                await sockets[seat].send_json_to({"type": "action", "action": view["legal_actions"][0],
                                                  "action_id": uuid.uuid4().hex, "version": view["version"]})
                view["sent"] = True
    for comm in sockets:
        await comm.disconnect()
    return acks


async def _get(path: str) -> int:
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"localhost")])
    response = await communicator.get_response(timeout=30)
    await communicator.wait(timeout=30)  # as a server does: the request ends, its connection goes back
    return response["status"]


async def test_connections_stay_within_the_pool_under_many_requests_and_moves(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("the connection pool is PostgreSQL's (python -m tests.on_postgres)")
    pool_size = settings.SNOWBALL_DB_POOL_SIZE  # Django's pool and the event loop's together
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] + settings.SNOWBALL_LOOP_DB_CONNECTIONS \
        == pool_size
    games = await _games(make_user, 8)
    paths = [f"/api/games/{game.pk}/" for game, _ in games] * 7
    with ConnectionCounter() as counter:
        statuses = []
        for _ in range(6):  # 300 requests, 50 at a time
            statuses += await asyncio.gather(*(_get(path) for path in paths[:50]))
        acks = await asyncio.gather(*(_play(game, keys, moves=6) for game, keys in games),
                                    *(_get(path) for path in paths[:50]))
        statuses += acks[len(games):]
        acks = acks[:len(games)]
    assert statuses.count(200) == len(statuses) == 350
    assert sum(acks) >= 8 * 6
    assert counter.samples > 10
    assert 1 <= counter.highest <= pool_size
