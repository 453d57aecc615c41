"""Who is connected: the coordinator's presence calls made from async code, and the
heartbeats of one event loop's sockets, sent together.

A socket is present while its connection was seen less than the coordinator's
``presence_ttl`` ago. One task per event loop beats for all of its sockets every
``SNOWBALL_PRESENCE_HEARTBEAT`` seconds, in one pipeline run on a coordinator thread
(games/calls.py), and has the sockets whose connection had expired (a stalled loop, a
restarted Redis) join again.

When the last socket of this process that watches a game leaves, the process forgets what it
cached for that game (``selectors.forget_game``): finished games' snapshots and views used to
stay until the caches' size limits, thousands of games later.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable

from django.conf import settings

from games import selectors
from games.calls import coordinator_call, db_call
from games.coordinator import get_coordinator

log = logging.getLogger(__name__)

Rejoin = Callable[[], Awaitable[None]]


class _LoopHeartbeats:
    """The connections one event loop keeps alive, and the task that beats for them."""

    def __init__(self) -> None:
        self.connections: dict[tuple[int, str], Rejoin] = {}
        self.task: asyncio.Task | None = None

    def add(self, game_id: int, conn_id: str, rejoin: Rejoin) -> None:
        self.connections[(game_id, conn_id)] = rejoin
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._beat_forever())

    def discard(self, game_id: int, conn_id: str) -> bool:
        """Stop beating for this connection; False if it was not kept alive here."""
        known = self.connections.pop((game_id, conn_id), None) is not None
        if not self.connections and self.task is not None:
            self.task.cancel()
            self.task = None
        return known

    async def _beat_forever(self) -> None:
        while self.connections:
            await asyncio.sleep(settings.SNOWBALL_PRESENCE_HEARTBEAT)
            try:
                await self.beat()
            except Exception as exc:  # Redis away: the next beat tries again, and rejoins if needed
                log.warning("presence heartbeat of %d connections failed (%s: %s); the next one tries again",
                            len(self.connections), type(exc).__name__, exc)

    async def beat(self) -> None:
        """Keep every connection alive; those already expired join again."""
        beating = list(self.connections)
        alive = await coordinator_call(get_coordinator().heartbeats)(beating)
        rejoins = [self.connections[key] for key, ok in zip(beating, alive)
                   if not ok and key in self.connections]
        for failed in await asyncio.gather(*(rejoin() for rejoin in rejoins), return_exceptions=True):
            if isinstance(failed, BaseException):
                log.error("a connection could not join its game's presence again: %r", failed)


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopHeartbeats] = weakref.WeakKeyDictionary()

_watching: Counter[int] = Counter()  # game id -> sockets of this process (every loop) kept alive
_watching_lock = threading.Lock()


def _of_this_loop() -> _LoopHeartbeats:
    loop = asyncio.get_running_loop()
    beats = _loops.get(loop)
    if beats is None:
        beats = _loops[loop] = _LoopHeartbeats()
    return beats


def keep_alive(game_id: int, conn_id: str, *, rejoin: Rejoin) -> None:
    """Beat for this connection from now on; ``rejoin`` is awaited should it have expired."""
    beats = _of_this_loop()
    if (game_id, conn_id) not in beats.connections:
        with _watching_lock:
            _watching[game_id] += 1
    beats.add(game_id, conn_id, rejoin)


def stop_keeping_alive(game_id: int, conn_id: str) -> None:
    """No more beats for this connection (it is closing); the last of its game here also
    drops the game from this process's caches."""
    if not _of_this_loop().discard(game_id, conn_id):
        return
    with _watching_lock:
        _watching[game_id] -= 1
        last = _watching[game_id] <= 0
        if last:
            del _watching[game_id]
    if last:
        selectors.forget_game(game_id)


def sockets_watching(game_id: int) -> int:
    """How many sockets of this process are kept alive for this game."""
    with _watching_lock:
        return _watching.get(game_id, 0)


_LATER: set[asyncio.Task] = set()


def note_absence_later(game_id: int, seat: int) -> None:
    """The last connection of ``seat`` closed: unless one is back within
    ``SNOWBALL_ABSENCE_NOTICE_DELAY`` seconds (a reload, a short network loss), tell the game
    that its player left at this moment (``services.note_away``). A negative delay: never."""
    delay = settings.SNOWBALL_ABSENCE_NOTICE_DELAY
    if delay < 0:
        return
    task = asyncio.get_running_loop().create_task(_note_if_still_gone(game_id, seat, time.time(), delay))
    _LATER.add(task)  # the loop keeps only weak references to its tasks
    task.add_done_callback(_LATER.discard)


async def _note_if_still_gone(game_id: int, seat: int, since: float, delay: float) -> None:
    from games import services

    await asyncio.sleep(delay)
    try:
        presence = await coordinator_call(get_coordinator().presence)(game_id)
        if seat not in presence.seats_connected:
            await db_call(services.note_away)(game_id=game_id, seat=seat, now=since)
    except Exception as exc:
        log.warning("game %s: the absence of seat %s could not be noted (%s: %s)", game_id, seat,
                    type(exc).__name__, exc)
