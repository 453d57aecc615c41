"""PostgreSQL from the event loop itself, for the one statement of a held move.

A worker on PostgreSQL makes a move on a game it holds (games/services/play.py,
``submit_held_action``) on its event loop, as the one-process shape does on SQLite: worked
out on the loop, written with one statement awaited on a connection of the loop's own pool
(psycopg's ``AsyncConnectionPool``), answered from the loop; the statement is prepared on each
connection, so PostgreSQL plans it once there instead of once a move. The database threads
(games/calls.py) are spared the move, and the move is spared their hops: handing it to a
thread and back, and the interpreter lock changing hands on the way.

Each event loop has its pool, made on its first move with the database settings Django
connects with, in autocommit: the statement is its own transaction. The pool opens its
connections in the background, replaces a broken one and closes with its loop; a statement
that fails on one says so (``LoopDatabaseError``), and the move is made on a database thread
instead, which reads the row (and finds the move there if the statement did commit).
"""
from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections, router
from psycopg_pool import AsyncConnectionPool

from games.models import Game

log = logging.getLogger(__name__)

POOL_WAIT_SECONDS = 2.0
PREPARE_AFTER_RUNS = 5  # psycopg's own default

# per event loop: its pool, and what closes the pool with the loop (``_closed_with_the_loop``)
_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[AsyncConnectionPool, Any]] = \
    weakref.WeakKeyDictionary()

IntegrityError = psycopg.IntegrityError


class LoopDatabaseError(Exception):
    """The loop's connection could not run the statement; whether it ran is unknown."""


async def execute(sql: str, params: list[Any]) -> int:
    """Run one statement on a connection of this loop's pool: the rows it changed.
    ``psycopg.IntegrityError`` as PostgreSQL raised it; ``LoopDatabaseError`` for anything
    else that went wrong (a connection lost, none free within ``POOL_WAIT_SECONDS``)."""
    pool = await _pool()
    try:
        async with pool.connection(timeout=POOL_WAIT_SECONDS) as connection:
            cursor = await connection.execute(sql, params)
            return cursor.rowcount
    except psycopg.IntegrityError:
        raise
    except Exception as exc:
        raise LoopDatabaseError(f"{type(exc).__name__}: {exc}") from exc


async def _pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    entry = _POOLS.get(loop)
    if entry is None:
        pool = AsyncConnectionPool(kwargs=_connection_params(), min_size=1,
                                   max_size=settings.SNOWBALL_LOOP_DB_CONNECTIONS, open=False,
                                   name="event-loop")
        keeper = _closed_with_the_loop(pool)
        entry = _POOLS[loop] = (pool, keeper)
        await keeper.__anext__()
    pool = entry[0]
    if pool.closed:  # a second caller meanwhile waits on the pool's own lock, then finds it open
        await pool.open()
    return pool


async def close_pool() -> None:
    """Close this event loop's pool now, if it has one: for a loop about to be closed by
    ``asyncio.Runner`` (``asyncio.run``, a test's loop), which cancels every task before it
    closes the asynchronous generators. psycopg_pool's workers catch a cancellation that comes
    while they run a task (``CLIENT_EXCEPTIONS``) and wait for the next one, so such a worker
    is never done and the runner's close waits for it for ever; closed first, the pool stops
    its workers itself."""
    entry = _POOLS.pop(asyncio.get_running_loop(), None)
    if entry is not None:
        await entry[1].aclose()  # its ``finally`` closes the pool


async def _closed_with_the_loop(pool: AsyncConnectionPool):
    """Started once and left waiting: an event loop closes the asynchronous generators it
    started before it closes itself (``shutdown_asyncgens``, as ``asyncio.run`` and every
    test's loop do), and this one then closes its loop's pool, whose connections would
    otherwise outlive it (and hold its database open)."""
    try:
        yield
    finally:
        try:
            await pool.close(timeout=1.0)
        except asyncio.CancelledError:
            pass  # the loop cancelled the pool's tasks first (asyncio.Runner does): its idle connections close as they go
        except Exception:
            log.warning("an event loop's database pool did not close cleanly", exc_info=True)


def _connection_params() -> dict[str, Any]:
    """What Django connects with (its type adapters too), in autocommit, without its cursor
    class (a synchronous one), and with the statements it runs often prepared.

    Django turns psycopg's prepared statements off (for poolers that cannot keep them); these
    connections are the loop's own, and run a move's few statements again and again: prepared
    after ``PREPARE_AFTER_RUNS`` runs, PostgreSQL parses and plans each once per connection
    instead of once per move, which took about 40% of its CPU a move (docs/performance.md)."""
    params = connections[router.db_for_write(Game)].get_connection_params()
    params.pop("cursor_factory", None)
    return {**params, "autocommit": True, "prepare_threshold": PREPARE_AFTER_RUNS}
