"""Every committed version reaches this worker's sockets, even one that nobody announced.

A move is announced after its commit (``services.broadcast_version``). A worker that dies
between the two, or a lost message, would leave the sockets of the other workers on an old
version until their viewers act. So once every ``INTERVAL`` seconds, each event loop reads
the versions of the games its sockets watch, in one query on a database thread, and queues
a ``game.changed`` for every socket that was sent an older version; the socket then sends
its viewer the new view as after any broadcast.
"""
from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any

from games.calls import db_call
from games.models import Game

log = logging.getLogger(__name__)

INTERVAL = 1.0
"""Seconds between two reads of the watched games' versions."""

SentVersion = Callable[[], int]


class _LoopWatch:
    """The sockets one event loop holds, by game, and the task that checks their versions."""

    def __init__(self) -> None:
        self.games: dict[int, dict[str, tuple[Any, SentVersion]]] = {}
        self.task: asyncio.Task | None = None

    def add(self, game_id: int, channel: str, layer: Any, sent_version: SentVersion) -> None:
        self.games.setdefault(game_id, {})[channel] = (layer, sent_version)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._check_forever())

    def discard(self, game_id: int, channel: str) -> None:
        sockets = self.games.get(game_id)
        if sockets is not None:
            sockets.pop(channel, None)
            if not sockets:
                del self.games[game_id]
        if not self.games and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _check_forever(self) -> None:
        while self.games:
            await asyncio.sleep(INTERVAL)
            try:
                await self.check()
            except Exception:  # the database away: the next check tries again
                log.exception("checking the versions of %d games failed", len(self.games))

    async def check(self) -> None:
        """Queue ``game.changed`` for every socket behind its game's committed version."""
        versions = await db_call(_committed_versions)(list(self.games))
        for game_id, version in versions.items():
            for channel, (layer, sent_version) in list(self.games.get(game_id, {}).items()):
                if sent_version() < version:
                    await layer.queue_here(channel, {"type": "game.changed", "version": version})


def _committed_versions(game_ids: list[int]) -> dict[int, int]:
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopWatch] = weakref.WeakKeyDictionary()


def _of_this_loop() -> _LoopWatch:
    loop = asyncio.get_running_loop()
    watch_ = _loops.get(loop)
    if watch_ is None:
        watch_ = _loops[loop] = _LoopWatch()
    return watch_


def watch(game_id: int, channel: str, layer: Any, sent_version: SentVersion) -> None:
    """Check this socket's game from now on; ``sent_version`` says what the socket last sent.
    ``layer`` queues the message for the socket (``queue_here``, games/channel_layers.py)."""
    _of_this_loop().add(game_id, channel, layer, sent_version)


def unwatch(game_id: int, channel: str) -> None:
    """Stop checking for this socket (it is closing)."""
    _of_this_loop().discard(game_id, channel)
