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

A connection taken from the pool is kept by the loop between statements for up to
``KEEP_SECONDS``, then given back (the pool's checks and lifetimes apply from there):
taking one from the pool and giving it back around each statement cost some 20 µs of its
200-odd µs of client CPU (docs/performance.md, "Fewer instructions a move"). The loop runs one statement at a time on each,
and a connection goes back to the pool at once when another statement waits for one.
"""
from __future__ import annotations

import asyncio
import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections, router
from psycopg_pool import AsyncConnectionPool

from games.models import Game

log = logging.getLogger(__name__)

POOL_WAIT_SECONDS = 2.0
PREPARE_AFTER_RUNS = 5  # psycopg's own default
KEEP_SECONDS = 30.0


@dataclass
class _LoopPool:
    """One event loop's pool, what closes it with the loop (``_closed_with_the_loop``), and the
    connections the loop took from it and keeps between statements, each with when it was taken."""

    pool: AsyncConnectionPool
    closer: Any = None
    kept: list[tuple[psycopg.AsyncConnection, float]] = field(default_factory=list)
    waiting: int = 0  # statements of this loop waiting for the pool to hand them a connection


_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopPool] = weakref.WeakKeyDictionary()

IntegrityError = psycopg.IntegrityError


class LoopDatabaseError(Exception):
    """The loop's connection could not run the statement; whether it ran is unknown."""


async def execute(sql: str, params: list[Any]) -> int:
    """Run one statement on a connection of this loop's pool: the rows it changed.
    ``psycopg.IntegrityError`` as PostgreSQL raised it; ``LoopDatabaseError`` for anything
    else that went wrong (a connection lost, none free within ``POOL_WAIT_SECONDS``)."""
    entry = await _loop_pool()
    connection = None
    try:
        connection, taken_at = await _take(entry)
        cursor = await connection.execute(sql, params)
        rowcount = cursor.rowcount
    except psycopg.IntegrityError:
        await _keep(entry, connection, taken_at)  # the statement failed alone: the connection serves on
        raise
    except Exception as exc:
        if connection is not None:
            await _give_back(entry, connection)  # the pool looks at it, and replaces it if it is broken
        raise LoopDatabaseError(f"{type(exc).__name__}: {exc}") from exc
    await _keep(entry, connection, taken_at)
    return rowcount


async def _take(entry: _LoopPool) -> tuple[psycopg.AsyncConnection, float]:
    """A kept connection taken less than ``KEEP_SECONDS`` ago, else one from the pool (those
    kept longer go back to it)."""
    now = time.monotonic()
    while entry.kept:
        connection, taken_at = entry.kept.pop()
        if now - taken_at < KEEP_SECONDS and not connection.closed:
            return connection, taken_at
        await _give_back(entry, connection)
    entry.waiting += 1
    try:
        return await entry.pool.getconn(timeout=POOL_WAIT_SECONDS), now
    finally:
        entry.waiting -= 1


async def _keep(entry: _LoopPool, connection: psycopg.AsyncConnection, taken_at: float) -> None:
    """Keep the connection for the loop's next statement, unless a statement is waiting for the
    pool (every connection taken: it gets this one) or the connection is no longer fit."""
    if (entry.waiting or entry.pool.closed or connection.closed
            or connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE):
        await _give_back(entry, connection)
    else:
        entry.kept.append((connection, taken_at))


async def _give_back(entry: _LoopPool, connection: psycopg.AsyncConnection) -> None:
    try:
        await entry.pool.putconn(connection)
    except Exception:  # a pool closed meanwhile closes the connection itself
        log.debug("a connection of a closed pool was not given back", exc_info=True)


async def _loop_pool() -> _LoopPool:
    loop = asyncio.get_running_loop()
    entry = _POOLS.get(loop)
    if entry is None:
        pool = AsyncConnectionPool(kwargs=_connection_params(), min_size=1,
                                   max_size=settings.SNOWBALL_LOOP_DB_CONNECTIONS, open=False,
                                   name="event-loop")
        entry = _POOLS[loop] = _LoopPool(pool=pool)
        entry.closer = _closed_with_the_loop(entry)
        await entry.closer.__anext__()
    if entry.pool.closed:  # a second caller meanwhile waits on the pool's own lock, then finds it open
        await entry.pool.open()
    return entry


async def close_pool() -> None:
    """Close this event loop's pool now, if it has one: for a loop about to be closed by
    ``asyncio.Runner`` (``asyncio.run``, a test's loop), which cancels every task before it
    closes the asynchronous generators. psycopg_pool's workers catch a cancellation that comes
    while they run a task (``CLIENT_EXCEPTIONS``) and wait for the next one, so such a worker
    is never done and the runner's close waits for it for ever; closed first, the pool stops
    its workers itself."""
    entry = _POOLS.pop(asyncio.get_running_loop(), None)
    if entry is not None:
        await entry.closer.aclose()  # its ``finally`` closes the pool


async def _closed_with_the_loop(entry: _LoopPool):
    """Started once and left waiting: an event loop closes the asynchronous generators it
    started before it closes itself (``shutdown_asyncgens``, as ``asyncio.run`` and every
    test's loop do), and this one then closes its loop's pool, with the connections the loop
    kept, which would otherwise outlive it (and hold its database open)."""
    pool = entry.pool
    try:
        yield
    finally:
        while entry.kept:
            await _give_back(entry, entry.kept.pop()[0])
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
