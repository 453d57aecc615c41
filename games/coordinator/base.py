"""The coordinator interface shared by the in-process and the Redis backends.

A coordinator is what several ASGI workers must agree on about a live game:
who may change it right now (the lock), who is watching it (presence), and
whether every seat has locked its sealed choice (the reveal barrier). Games
themselves live in the database; nothing here is durable.

Every method but :meth:`Coordinator.lock_async` is synchronous: callers are Django service
functions, running in a worker thread or on the event loop's own thread
(games/loop_database.py), where ``NEVER_WAIT_FOR_A_LOCK`` is set. ``lock_async`` is for a
move made from the event loop (``services.submit_action_async``): it waits for the lock
without stopping the loop. Nothing in this module imports Django.
"""
from __future__ import annotations

import asyncio
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

Clock = Callable[[], float]
"""Seconds as a float; every worker sharing a backend must agree on it (wall time)."""

DEFAULT_PRESENCE_TTL = 30.0
DEFAULT_BARRIER_TTL = 24 * 60 * 60.0
DEFAULT_COMPLETED_ROUND_TTL = 60.0

NEVER_WAIT_FOR_A_LOCK: ContextVar[bool] = ContextVar("snowball_never_wait_for_a_lock", default=False)
"""True in a context that must not block on a held lock (an event loop's thread): there,
:meth:`Coordinator.lock` raises :class:`LockWouldWait` at once instead of waiting."""


class CoordinatorError(Exception):
    """Base of the coordinator's own errors."""


class LockTimeout(CoordinatorError, TimeoutError):
    """The game's lock could not be taken within the allowed wait."""

    def __init__(self, game_id: int, wait: float) -> None:
        super().__init__(f"game {game_id} is busy: its lock was not free within {wait:g}s")
        self.game_id = game_id
        self.wait = wait


class LockWouldWait(CoordinatorError):
    """The game's lock is held and this context may not wait for it (``NEVER_WAIT_FOR_A_LOCK``).

    Nothing was done under the lock: the caller may run the same call again where waiting is
    allowed (a worker thread).
    """

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id}'s lock is held and this thread may not wait for it")
        self.game_id = game_id


class LockLost(CoordinatorError):
    """The game's lock expired while held, so another worker may have taken it."""

    def __init__(self, game_id: int, timeout: float) -> None:
        super().__init__(
            f"lock of game {game_id} expired before release: the critical section "
            f"outlived its {timeout:g}s timeout"
        )
        self.game_id = game_id
        self.timeout = timeout


@dataclass(frozen=True)
class Presence:
    """Who is connected to one game right now."""

    seats_connected: frozenset[int] = frozenset()
    """Seats with at least one live connection."""
    spectators: int = 0
    """Live connections without a seat."""
    connections: int = 0
    """All live connections, seated or not."""

    @classmethod
    def from_seats(cls, seats: Iterable[int | None]) -> Presence:
        """Count one live connection per item: its seat, or None for a spectator."""
        seats = list(seats)
        return cls(
            seats_connected=frozenset(s for s in seats if s is not None),
            spectators=sum(1 for s in seats if s is None),
            connections=len(seats),
        )


class Coordinator(ABC):
    """Per-game lock, presence and reveal barrier, shared by every worker of a backend."""

    presence_ttl: float
    clock: Clock
    lock_poll: float = 0.005
    """Seconds between two tries of a lock held elsewhere, in :meth:`lock_async`."""

    @abstractmethod
    def lock(
        self, game_id: int, *, timeout: float = 10.0, wait: float = 10.0
    ) -> AbstractContextManager[None]:
        """Hold the game's mutual-exclusion lock for the ``with`` block.

        ``wait`` is how long to wait for it before raising :class:`LockTimeout`; where
        ``NEVER_WAIT_FOR_A_LOCK`` is set, a held lock raises :class:`LockWouldWait` at once.
        ``timeout`` bounds how long a holder that died keeps it (where the backend
        outlives its holders); a block that runs longer may raise :class:`LockLost`
        on exit. The lock is not re-entrant.
        """

    @asynccontextmanager
    async def lock_async(self, game_id: int, *, timeout: float = 10.0, wait: float = 10.0) -> AsyncIterator[None]:
        """:meth:`lock` for an ``async with`` block on an event loop, which goes on serving
        its other tasks while this one waits.

        Tasks of one event loop queue for a game in the process first (an ``asyncio.Lock``
        per game), so only the first of them tries the shared lock; while another thread or
        process holds it, that task tries again every ``lock_poll`` seconds. Raises
        :class:`LockTimeout` after ``wait`` seconds in all, and :class:`LockLost` as
        :meth:`lock` does. The block runs on the loop: it must not wait for this game's
        lock again.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(wait, 0.0)
        queue = self._queue(loop, game_id)
        try:
            async with asyncio.timeout_at(deadline):
                await queue.acquire()
        except TimeoutError:
            raise LockTimeout(game_id, wait) from None
        try:
            held = self._try_lock(game_id, timeout=timeout)
            while held is None:
                if loop.time() >= deadline:
                    raise LockTimeout(game_id, wait)
                await asyncio.sleep(min(self.lock_poll, max(deadline - loop.time(), 0.0)))
                held = self._try_lock(game_id, timeout=timeout)
            with self._held(game_id, held, timeout=timeout):
                yield
        finally:
            queue.release()

    @contextmanager
    def _held(self, game_id: int, held: Any, *, timeout: float) -> Iterator[None]:
        """Run the block with a lock taken by :meth:`_try_lock` (or the like), then release it."""
        try:
            yield
        except BaseException:
            self._unlock(game_id, held, timeout=timeout, failed=True)
            raise
        self._unlock(game_id, held, timeout=timeout, failed=False)

    def _queue(self, loop: asyncio.AbstractEventLoop, game_id: int) -> asyncio.Lock:
        """The event loop's queue for one game; it lives while a task holds or awaits it."""
        per_loop = self.__dict__.setdefault("_async_queues", weakref.WeakKeyDictionary())
        queues = per_loop.get(loop)
        if queues is None:
            queues = per_loop[loop] = weakref.WeakValueDictionary()
        queue = queues.get(game_id)
        if queue is None:
            queue = queues[game_id] = asyncio.Lock()
        return queue

    @abstractmethod
    def _try_lock(self, game_id: int, *, timeout: float) -> Any | None:
        """Take the game's lock if it is free, without waiting: a handle for :meth:`_unlock`,
        or None while another holder has it."""

    @abstractmethod
    def _unlock(self, game_id: int, held: Any, *, timeout: float, failed: bool) -> None:
        """Release a lock taken by :meth:`_try_lock`; ``failed`` says the block raised."""

    @abstractmethod
    def join(self, game_id: int, conn_id: str, *, seat: int | None, user_key: str) -> None:
        """Record a live connection; ``seat`` None is a spectator. Joining again updates it."""

    @abstractmethod
    def heartbeat(self, game_id: int, conn_id: str) -> bool:
        """Keep a connection alive; False if it is unknown or already expired (join again)."""

    def heartbeats(self, connections: Sequence[tuple[int, str]]) -> list[bool]:
        """Keep many connections, given as ``(game_id, conn_id)``, alive at once: for each,
        what :meth:`heartbeat` would answer. One round trip where the backend has them."""
        return [self.heartbeat(game_id, conn_id) for game_id, conn_id in connections]

    @abstractmethod
    def leave(self, game_id: int, conn_id: str) -> None:
        """Forget a connection; unknown connections are ignored."""

    @abstractmethod
    def presence(self, game_id: int) -> Presence:
        """Live connections: those seen less than ``presence_ttl`` seconds ago."""

    @abstractmethod
    def barrier_arrive(self, game_id: int, key: str, seat: int, expected: frozenset[int]) -> bool:
        """Record that ``seat`` locked its sealed choice for round ``key``.

        True for exactly one caller: the arrival that completes ``expected``.
        Repeated arrivals of a seat count once. Every caller of one key must pass
        the same ``expected``; a seat outside it raises ValueError. An open round is
        forgotten a day after its last arrival; a completed one ``completed_round_ttl``
        seconds (a minute) after the arrival that completed it, so callers need not clear
        it, and a late repeat of an arrival within that time still counts once.
        """

    @abstractmethod
    def barrier_state(self, game_id: int, key: str) -> frozenset[int]:
        """Seats that have arrived for round ``key``."""

    @abstractmethod
    def barrier_clear(self, game_id: int, key: str) -> None:
        """Forget round ``key``."""

    @abstractmethod
    def close(self) -> None:
        """Release the backend's resources; the instance is not used afterwards."""


def check_arrival(seat: int, expected: frozenset[int]) -> None:
    """Raise ValueError unless ``seat`` is one of the ``expected`` seats."""
    if seat not in expected:
        raise ValueError(
            f"seat {seat} is not expected at this barrier (expected: {sorted(expected)})"
        )


def positive(name: str, value: float) -> float:
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return float(value)
