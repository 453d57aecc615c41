"""The one-process mode's database calls, run on the event loop's own thread.

With SQLite and the in-process coordinator (``make run``) the database is a file in this
process: a move's statements take tens of microseconds. Handing each call to Channels'
database thread cost more than the call itself: a hop there and back, and, worse, the two
threads taking turns at the interpreter lock. Every SQLite call releases the lock and must
win it back from a busy event loop, so under load a 0.6 ms move took several milliseconds of
wall time on that thread and moves queued behind each other (docs/performance.md).

Here a call runs straight on the loop's thread, inside one ``contextvars.Context`` kept for
the purpose: Django keeps its connections per context, so every call shares one connection
instead of opening one per socket task. Calls never await, so they never interleave: each
runs start to finish (lock, transaction, commit) before the loop goes on. Django's guard
against blocking the loop (``SynchronousOnlyOperation``) is lifted for this process by
settings (``DJANGO_ALLOW_ASYNC_UNSAFE``) in this mode only; with a server database or Redis
the calls go to threads as before (``games.consumers.db_call``).

The price: whatever a call waits for, every socket of the process waits for. Here that is
SQLite's write lock, which the site's own page requests (short transactions in Django's
sync threads) take between moves, and a WAL checkpoint now and then (4-7 ms).
"""
from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_CONTEXT = contextvars.Context()


def on_the_loop(function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``function`` as a coroutine function that runs it at once on the calling thread,
    in the one context that holds this process's database connection."""

    @functools.wraps(function)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return _CONTEXT.run(function, *args, **kwargs)

    return call
