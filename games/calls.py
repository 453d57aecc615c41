"""Where calls run: the event loop never waits on the database or on Redis.

A worker's event loop serves every socket it holds, so anything it waits for, all of them
wait for. Hence:

- Database calls made from async code go through :func:`db_call`: each runs on a thread of
  this process's database threads (``SNOWBALL_DB_POOL_SIZE`` of them). On PostgreSQL it
  takes a connection from psycopg's pool for the call and gives it back when the call
  returns (closing a pooled connection returns it); on SQLite each thread keeps its own. The threads are not Channels' one
  database thread (``database_sync_to_async``): there, one game's call stuck behind SQLite's
  write lock or a slow PostgreSQL would queue every other game's calls behind it. Here it
  holds one thread; the others go on.
- Calls to the coordinator made from async code (presence, heartbeats) go through
  :func:`coordinator_call`, on threads of their own: a slow Redis delays presence, not moves
  and not the loop.
- A service's own coordinator calls (the game's lock, the reveal barrier) are synchronous and
  run in the thread that runs the service.
- The Redis fan-out listener (games/channel_layers.py) is awaited (redis.asyncio) and only
  puts messages in each consumer's own queue; every consumer handles its messages in its
  own task, so one slow socket delays only itself.
- HTTP views run on the thread Django gives each request; its connection goes back at the
  request's end.
"""
from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

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
                                executor=_executor("db", settings.SNOWBALL_DB_POOL_SIZE))

    @functools.wraps(function)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        outbox: list = []
        try:
            return await in_a_thread(outbox, *args, **kwargs)
        finally:
            send_outbox(outbox)  # asgiref awaits the thread's end even when this call is cancelled

    return call


def coordinator_call(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """A coordinator call (presence, heartbeats; never the game's lock) from async code."""
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
