"""Each worker's background sweep of overdue prompts.

Sockets wake at their game's next deadline themselves (``BaseGameConsumer._arm_timer``),
which keeps a live game's defaults prompt. A game nobody watches, or whose deadline passed
while every worker was down, is found by this sweep: once every ``SNOWBALL_SWEEP_SECONDS``
(``sweep_once``), a database call reads the overdue games from the indexed
``Game.next_deadline`` and one call a game applies its defaults. It starts with the first connection or
request an event loop serves (``with_deadline_sweep``); ``manage.py sweep_deadlines`` does
the same from cron for a site with no traffic at all.
"""
from __future__ import annotations

import asyncio
import logging
import time
import weakref

from django.conf import settings

from games.services import pace
from games.calls import db_call

log = logging.getLogger(__name__)

_tasks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = weakref.WeakKeyDictionary()


def ensure_running() -> None:
    """Start this event loop's sweep unless it runs already (or sweeps are turned off with 0)."""
    if settings.SNOWBALL_SWEEP_SECONDS <= 0:
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_sweep_forever())


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(settings.SNOWBALL_SWEEP_SECONDS)
        try:
            moved = await sweep_once()
        except Exception:  # the database away: the next sweep tries again
            log.exception("sweeping the overdue deadlines failed")
            continue
        if moved:
            log.info("deadlines passed in %d games: their defaults were played", len(moved))


async def sweep_once(now: float | None = None) -> dict[int, int]:
    """``services.sweep_deadlines``, one game to a database call: between two games the loop
    serves its sockets, and the moves it makes itself take their turn to write (a sweep of
    thirty overdue games in one call held SQLite's writer for some 300 ms)."""
    now = time.time() if now is None else now
    moved: dict[int, int] = {}
    for game_id in await db_call(pace.overdue_games)(now):
        version = await db_call(pace.sweep_game)(game_id=game_id, now=now)
        if version is not None:
            moved[game_id] = version
    return moved


def with_deadline_sweep(app):
    """The ASGI ``app``, starting the sweep of the loop that serves it."""

    async def application(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_running()
        return await app(scope, receive, send)

    return application
