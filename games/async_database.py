"""Asynchronous PostgreSQL connections per event loop, for the moves made on the loop.

Database calls run on the event loop's own thread (games/loop_database.py), so every
statement a move sends stops the whole worker until PostgreSQL answers: the read of the
game, then the write, whose commit waits for the log to reach the disk. A move made on the
loop (``services.submit_action_async``) sends those two statements through psycopg's
``AsyncConnection`` instead, and the loop serves its other sockets meanwhile.

Each event loop keeps up to ``CONNECTIONS_PER_LOOP`` such connections, opened on demand with
the parameters and the adapters of Django's own connection to the games' database, in
autocommit mode (the move's write is one statement, see games/statements.py). Moves of
different games then reach PostgreSQL side by side. With a single connection they queued
behind each other's commits: on a saturated machine two workers sustained 178 actions/s,
where the synchronous moves sustained 199-247 and four connections 202-214
(docs/performance.md). A connection goes back
for the next move only if it is idle and sound; one that broke, or whose statement was
interrupted (a cancelled task), is closed, and so is one older than ``CONN_MAX_AGE``, as
Django does for its own.

psycopg_pool's ``AsyncConnectionPool`` does more (minimum sizes, health checks), but it
runs tasks of its own on the loop that opened it and must be closed on that loop; this
needs neither.
"""
from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from django.db import connections, router
from psycopg.pq import TransactionStatus

CONNECTIONS_PER_LOOP = 4


class _LoopConnections:
    """The connections of one event loop: at most ``size`` in use at once."""

    def __init__(self, size: int) -> None:
        self.slots = asyncio.Semaphore(size)
        self.idle: list[tuple[psycopg.AsyncConnection, float | None]] = []
        self.every: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        async with self.slots:
            conn, close_at = self._idle_one() or await self._new_one()
            try:
                yield conn
            finally:
                reusable = (not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE
                            and (close_at is None or time.monotonic() < close_at))
                if reusable:
                    self.idle.append((conn, close_at))
                else:
                    _close(conn)

    def _idle_one(self) -> tuple[psycopg.AsyncConnection, float | None] | None:
        while self.idle:
            conn, close_at = self.idle.pop()
            if not conn.closed and (close_at is None or time.monotonic() < close_at):
                return conn, close_at
            _close(conn)
        return None

    async def _new_one(self) -> tuple[psycopg.AsyncConnection, float | None]:
        conn, close_at = await _connect()
        self.every.add(conn)
        return conn, close_at

    def close(self) -> None:
        for conn in list(self.every):
            _close(conn)
        self.idle.clear()


_LOOPS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopConnections] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection]:
    """One of this event loop's connections to the games' database, for the ``async with``
    block; waits while all of them are in use."""
    loop = asyncio.get_running_loop()
    here = _LOOPS.get(loop)
    if here is None:
        here = _LOOPS[loop] = _LoopConnections(CONNECTIONS_PER_LOOP)
    async with here.connection() as conn:
        yield conn


def close_all() -> None:
    """Close every loop's connections (tests call this between tests: each has its own loop)."""
    for here in list(_LOOPS.values()):
        here.close()
    _LOOPS.clear()


def _close(conn: psycopg.AsyncConnection) -> None:
    if not conn.closed:
        conn.pgconn.finish()  # what close() does, without awaiting on a loop that may be gone


async def _connect() -> tuple[psycopg.AsyncConnection, float | None]:
    """A new connection like Django's (same server, options and adapters), in autocommit mode,
    and the monotonic time to close it at."""
    from games.models import Game

    django_connection = connections[router.db_for_write(Game)]
    params = django_connection.get_connection_params()
    params["cursor_factory"] = psycopg.AsyncClientCursor  # client-side binding, as Django's own cursors
    conn = await psycopg.AsyncConnection.connect(autocommit=True, **params)
    max_age = django_connection.settings_dict.get("CONN_MAX_AGE")
    return conn, (None if max_age is None else time.monotonic() + max_age)
