"""Database calls run on the event loop's own thread.

The default except where several processes share one SQLite file: one process on SQLite
(``make run``) and workers on PostgreSQL (docker compose). A move's statements take tens of
microseconds in SQLite and a few loopback round trips in PostgreSQL. Handing each call to a
thread cost more than the call itself: a hop there and back and, worse, the two threads
taking turns at the interpreter lock. Every database call
releases that lock while it waits and must win it back from a busy event loop, so under
load a 0.6 ms move took several milliseconds of wall time on its thread and moves queued
behind each other (docs/performance.md).

Here a call runs straight on the loop's thread, inside one ``contextvars.Context`` kept for
the purpose: Django keeps its connections per context, so every call shares one connection
instead of opening one per socket task. Calls never await, so they never interleave: each
runs start to finish (lock, transaction, commit) before the loop goes on. Django's guard
against blocking the loop (``SynchronousOnlyOperation``) is lifted for the process by
settings (``DJANGO_ALLOW_ASYNC_UNSAFE``) in this mode only.

The price: whatever a call waits for, every socket of the process waits for. So a call here
never waits for a game's lock: in this context the coordinator raises ``LockWouldWait``
instead (``NEVER_WAIT_FOR_A_LOCK``), and the call is run again on a worker thread, where
waiting is fine. What is left to wait for is the database's own answer: SQLite's write lock
between moves and a WAL checkpoint now and then (4-7 ms); PostgreSQL's round trips, except
a socket's move, which awaits its lock and its two statements instead
(``services.submit_action_async``, games/async_database.py) and runs only its own work here
(``run``). A
connection kept here sees no request begin or end, so each call first drops one that failed
or outlived ``CONN_MAX_AGE``, as Django does around a request.
"""
from __future__ import annotations

import contextvars
import functools
import time
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from django.db import connections

from games.coordinator import NEVER_WAIT_FOR_A_LOCK, LockWouldWait

P = ParamSpec("P")
R = TypeVar("R")

_CONTEXT = contextvars.Context()
_CONTEXT.run(NEVER_WAIT_FOR_A_LOCK.set, True)


def on_the_loop(
    function: Callable[P, R], *, if_it_would_wait: Callable[P, Awaitable[R]] | None = None
) -> Callable[P, Awaitable[R]]:
    """``function`` as a coroutine function that runs it at once on the calling thread,
    in the one context that holds this process's database connection.

    Should it meet a game lock that another thread or process holds, it is called again
    through ``if_it_would_wait`` (a worker thread), or the ``LockWouldWait`` goes up.
    """

    @functools.wraps(function)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return run(function, *args, **kwargs)
        except LockWouldWait:
            if if_it_would_wait is None:
                raise
            return await if_it_would_wait(*args, **kwargs)

    return call


def run(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call ``function`` now, on this thread, in the context that holds the loop's database
    connection (for work between two awaits of an asynchronous move)."""
    return _CONTEXT.run(_with_a_sound_connection, function, *args, **kwargs)


def _with_a_sound_connection(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call ``function`` after dropping a connection that failed or outlived ``CONN_MAX_AGE``.

    Django does this at each request's start and end; a connection kept for the loop sees no
    requests, so a database restart would otherwise leave it broken for good.
    """
    for connection in connections.all(initialized_only=True):
        if connection.connection is None:
            continue
        expired = connection.close_at is not None and time.monotonic() >= connection.close_at
        if connection.errors_occurred or expired:
            connection.close_if_unusable_or_obsolete()
    return function(*args, **kwargs)
