"""Where calls run: the event loop never waits on the database or on Redis.

A worker's event loop serves every socket it holds, so anything it waits for, all of them
wait for. Hence:

- Database calls made from async code go through :func:`db_call`: each runs on a thread of
  this process's database threads (``SNOWBALL_DB_POOL_SIZE`` of them, less the event loop's
  own connections on PostgreSQL). On PostgreSQL it
  takes a connection from psycopg's pool for the call and gives it back when the call
  returns (closing a pooled connection returns it); on SQLite each thread keeps its own. The threads are not Channels' one
  database thread (``database_sync_to_async``): there, one game's call stuck behind SQLite's
  write lock or a slow PostgreSQL would queue every other game's calls behind it. Here it
  holds one thread; the others go on.
- The exception: in the one-process shape (SQLite in the process, this process's
  coordinator), a move on a game the process holds is made on the event loop itself
  (:func:`on_the_loop`, ``services.submit_held_action``). It takes nothing it would have to
  wait for: the game's lock and the process's turn to write only if they are free now,
  SQLite's lock with no busy wait, and WAL checkpoints (a flush to disk) are left to the
  database threads. When anything is taken, it writes nothing and the move goes to a
  database thread as before. A thread's hop costs a move more than its write.
- On PostgreSQL, such a move is worked out on the event loop in the same way and its one
  statement awaited there, on the loop's own connections (:func:`loop_awaits_writes`,
  ``services.submit_held_action_awaited``, games/loop_database.py): the loop serves every
  other socket while the statement runs.
- Calls to the coordinator made from async code (presence, heartbeats) go through
  :func:`coordinator_call`, on threads of their own: a slow Redis delays presence, not moves
  and not the loop. The in-process coordinator's presence answers at once, on the loop.
- A service's own coordinator calls (the game's lock, the reveal barrier) are synchronous and
  run in the thread that runs the service.
- The Redis fan-out listener (games/channel_layers.py) is awaited (redis.asyncio) and only
  puts messages in each consumer's own queue; every consumer handles its messages in its
  own task, so one slow socket delays only itself.
- HTTP views run on the thread Django gives each request; its connection goes back at the
  request's end.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from games.coordinator import MemoryCoordinator, get_coordinator

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

COORDINATOR_THREADS = 4

_executors: dict[str, ThreadPoolExecutor] = {}
_executors_guard = threading.Lock()


def db_call(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``function`` (which uses the database) as a coroutine function that runs it on a
    database thread and returns the thread's connection afterwards.

    What the call broadcasts after its commits is collected on the thread and sent from the
    event loop once the call has returned (or failed): one hand-off from the thread to the
    loop per call instead of one more per broadcast.
    """
    from games.services.broadcast import collecting_broadcasts, send_outbox

    def with_a_connection_for_the_call(outbox: list, *args: P.args, **kwargs: P.kwargs) -> R:
        with collecting_broadcasts(outbox):
            try:
                return function(*args, **kwargs)
            finally:
                return_connections()

    in_a_thread = sync_to_async(with_a_connection_for_the_call, thread_sensitive=False,
                                executor=_executor("db", settings.SNOWBALL_DB_POOL_SIZE - settings.SNOWBALL_LOOP_DB_CONNECTIONS))

    @functools.wraps(function)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        outbox: list = []
        try:
            return await in_a_thread(outbox, *args, **kwargs)
        finally:
            send_outbox(outbox)  # asgiref awaits the thread's end even when this call is cancelled

    return call


def on_the_loop(function: Callable[P, R | None]) -> Callable[P, R | None]:
    """``function``, a database call that never waits (its docstring says how), run on the
    event loop itself, with none of a database thread's hops: None at once outside the
    one-process shape (``loop_may_write``), as ``function`` returns None for what it leaves
    to a database thread.

    Its broadcasts are collected and sent once it returns, as ``db_call``'s are. Django
    refuses the database on a thread that runs an event loop, as it should refuse a call that
    may wait; for this one the loop is out of sight until it returns (no other task runs
    meanwhile). The loop's own SQLite connection never waits for SQLite's lock and never
    checkpoints: every ``CHECKPOINT_EVERY`` calls a database thread checkpoints instead.
    """
    @functools.wraps(function)
    def call(*args: P.args, **kwargs: P.kwargs) -> R | None:
        if not loop_may_write():
            return None
        try:
            with on_the_loop_for_a_moment():
                try:
                    _prepare_loop_connection()
                except Exception as exc:  # a database thread's call will say what is wrong
                    log.warning("the event loop's database connection failed (%s); a thread makes the call", exc)
                    return None
                return function(*args, **kwargs)
        finally:
            _count_loop_call()

    return call


def loop_may_write() -> bool:
    """Whether a move may be made on the event loop: ``SNOWBALL_MOVES_ON_THE_LOOP``, with SQLite
    in the process and this process's coordinator (a move on PostgreSQL waits on the network,
    a Redis coordinator's commands on Redis)."""
    return (settings.SNOWBALL_MOVES_ON_THE_LOOP and _default_database_vendor() == "sqlite"
            and isinstance(get_coordinator(), MemoryCoordinator))


def loop_awaits_writes() -> bool:
    """Whether a move may be made on the event loop with its write awaited there
    (games/loop_database.py): ``SNOWBALL_MOVES_ON_THE_LOOP`` on PostgreSQL, with connections
    kept for the loop (``SNOWBALL_LOOP_DB_CONNECTIONS``) and the game's lock this process's own
    (not ``SNOWBALL_GAME_LOCK_IN_REDIS``, whose taking waits on Redis)."""
    return (settings.SNOWBALL_MOVES_ON_THE_LOOP and settings.SNOWBALL_LOOP_DB_CONNECTIONS > 0
            and _default_database_vendor() == "postgresql" and not settings.SNOWBALL_GAME_LOCK_IN_REDIS)


@functools.cache
def _default_database_vendor() -> str:
    """Asked once: the connection is a thread's own, and finding it costs more than the answer."""
    return connections["default"].vendor


@contextmanager
def on_the_loop_for_a_moment() -> Iterator[None]:
    """Around synchronous work on the event loop that does not wait (``on_the_loop``'s call; a
    move worked out on the row a process holds, what follows its commit): Django lets it near
    the database, its broadcasts go once the block ends, and the connections it took go back."""
    from games.services.broadcast import collecting_broadcasts, send_outbox

    outbox: list = []
    try:
        with collecting_broadcasts(outbox), _loop_out_of_sight():
            try:
                yield
            finally:
                return_connections()
    finally:
        send_outbox(outbox)


CHECKPOINT_EVERY = 100
_loop = threading.local()


@contextmanager
def _loop_out_of_sight() -> Iterator[None]:
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


def _prepare_loop_connection() -> None:
    """The loop's SQLite connection answers ``database is locked`` at once rather than wait,
    and leaves checkpoints to the database threads."""
    connection = connections["default"]
    connection.ensure_connection()
    if getattr(_loop, "connection", None) is not connection.connection:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout = 0")
            cursor.execute("PRAGMA wal_autocheckpoint = 0")
        _loop.connection = connection.connection


def _count_loop_call() -> None:
    calls = _loop.calls = getattr(_loop, "calls", 0) + 1
    if calls % CHECKPOINT_EVERY == 0:
        from games.services.broadcast import start_background

        start_background(db_call(checkpoint)())


def checkpoint() -> None:
    """Copy SQLite's write-ahead log into the database where no reader still needs it
    (what SQLite does by itself after a commit that grew the log past 1,000 pages)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")


def coordinator_call(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """A coordinator call (presence, heartbeats; never the game's lock) from async code: on a
    coordinator thread, or on the loop itself for a method of a coordinator that answers at
    once (the in-process one), where the hop would cost more than the call."""
    if getattr(getattr(function, "__self__", None), "answers_at_once", False):
        async def at_once(*args: P.args, **kwargs: P.kwargs) -> R:
            return function(*args, **kwargs)
        return at_once
    return sync_to_async(function, thread_sensitive=False, executor=_executor("coordinator", COORDINATOR_THREADS))


def return_connections() -> None:
    """Close this thread's database connections that are not to be kept (``CONN_MAX_AGE``
    0, as on PostgreSQL, where closing gives the connection back to the pool) or that failed.

    Runs after the call's work is done, perhaps committed: a failure here is logged, never
    passed up to turn a committed move into an error.
    """
    for connection in connections.all(initialized_only=True):
        try:
            connection.close_if_unusable_or_obsolete()
        except Exception:
            log.exception("closing database connection %r failed", connection.alias)


def _executor(name: str, threads: int) -> ThreadPoolExecutor:
    with _executors_guard:
        executor = _executors.get(name)
        if executor is None:
            executor = _executors[name] = ThreadPoolExecutor(max_workers=max(1, threads),
                                                             thread_name_prefix=f"snowball-{name}")
        return executor
