"""An asynchronous PostgreSQL connection per event loop, for the moves made on the loop.

Database calls run on the event loop's own thread (games/loop_database.py), so every
statement a move sends stops the whole worker until PostgreSQL answers: the read of the
game, then the write, whose commit waits for the log to reach the disk. A move made on the
loop (``services.submit_action_async``) sends those two statements through psycopg's
``AsyncConnection`` instead, and the loop serves its other sockets meanwhile.

Each event loop keeps one such connection, opened with the parameters and the adapters of
Django's own connection to the database that holds the games, in autocommit mode (the
move's write is one statement, see games/statements.py). The loop's moves take turns on it
(psycopg queues their statements). A connection that broke, or whose statement was
interrupted (a cancelled task), is closed, and the next call opens a new one; so is one
older than ``CONN_MAX_AGE``, as Django does for its own.
"""
from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from django.db import connections, router


class _LoopConnection:
    """The connection of one event loop, opened on first use."""

    def __init__(self) -> None:
        self.current: psycopg.AsyncConnection | None = None
        self.close_at: float | None = None
        self.opening = asyncio.Lock()

    async def get(self) -> psycopg.AsyncConnection:
        if self.current is not None and (self.current.closed or self._expired()):
            self.drop()
        if self.current is None:
            async with self.opening:
                if self.current is None:
                    self.current, self.close_at = await _connect()
        return self.current

    def drop(self) -> None:
        current, self.current = self.current, None
        if current is not None and not current.closed:
            current.pgconn.finish()  # what close() does, without awaiting on a loop that may be gone

    def _expired(self) -> bool:
        return self.close_at is not None and time.monotonic() >= self.close_at


_LOOPS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopConnection] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection]:
    """This event loop's connection to the games' database, for the ``async with`` block.

    Should the block fail with the connection broken, or be interrupted, the connection is
    closed so that the next block gets a sound one.
    """
    loop = asyncio.get_running_loop()
    here = _LOOPS.get(loop)
    if here is None:
        here = _LOOPS[loop] = _LoopConnection()
    conn = await here.get()
    try:
        yield conn
    except (asyncio.CancelledError, psycopg.OperationalError, psycopg.InterfaceError):
        if here.current is conn:
            here.drop()
        raise
    except BaseException:
        if conn.closed and here.current is conn:
            here.drop()
        raise


def close_all() -> None:
    """Close every loop's connection (tests call this between tests: each has its own loop)."""
    for here in list(_LOOPS.values()):
        here.drop()
    _LOOPS.clear()


async def _connect() -> tuple[psycopg.AsyncConnection, float | None]:
    """A new connection like Django's (same server, options and adapters), in autocommit mode,
    and the monotonic time to replace it at."""
    django_connection = _games_connection()
    params = django_connection.get_connection_params()
    params["cursor_factory"] = psycopg.AsyncClientCursor  # client-side binding, as Django's own cursors
    conn = await psycopg.AsyncConnection.connect(autocommit=True, **params)
    max_age = django_connection.settings_dict.get("CONN_MAX_AGE")
    return conn, (None if max_age is None else time.monotonic() + max_age)


def _games_connection():
    from games.models import Game

    return connections[router.db_for_write(Game)]
