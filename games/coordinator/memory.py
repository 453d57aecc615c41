"""The in-process coordinator: the single-process default, with no Redis.

Everything lives in this process's memory, so it coordinates the threads of one
worker and nothing else. A lock cannot outlive its holder here (a dead thread's
``with`` block has unwound; a dead process takes the lock with it), so the lock's
``timeout`` is accepted for the interface and ignored.
"""
from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from games.coordinator.base import (
    DEFAULT_BARRIER_TTL,
    DEFAULT_COMPLETED_ROUND_TTL,
    DEFAULT_PRESENCE_TTL,
    Clock,
    Coordinator,
    LockTimeout,
    Presence,
    check_arrival,
    positive,
)


ROUND_SWEEP_INTERVAL = 1.0  # seconds between sweeps of expired reveal rounds


class _GameLock:
    """A plain lock in an object that a WeakValueDictionary may hold."""

    __slots__ = ("lock", "__weakref__")

    def __init__(self) -> None:
        self.lock = threading.Lock()


@dataclass
class _Connection:
    seat: int | None
    user_key: str
    last_seen: float


@dataclass
class _Round:
    seats: set[int] = field(default_factory=set)
    forget_at: float = 0.0


class MemoryCoordinator(Coordinator):
    """Coordinates the threads of one process; see the module docstring."""

    answers_at_once = True

    def __init__(
        self,
        *,
        presence_ttl: float = DEFAULT_PRESENCE_TTL,
        barrier_ttl: float = DEFAULT_BARRIER_TTL,
        completed_round_ttl: float = DEFAULT_COMPLETED_ROUND_TTL,
        clock: Clock = time.time,
    ) -> None:
        self.presence_ttl = positive("presence_ttl", presence_ttl)
        self.barrier_ttl = positive("barrier_ttl", barrier_ttl)
        self.completed_round_ttl = positive("completed_round_ttl", completed_round_ttl)
        self.clock = clock
        self._guard = threading.Lock()
        self._locks: weakref.WeakValueDictionary[int, _GameLock] = weakref.WeakValueDictionary()
        self._connections: dict[int, dict[str, _Connection]] = {}
        self._rounds: dict[tuple[int, str], _Round] = {}
        self._next_round_sweep = 0.0

    @contextmanager
    def lock(self, game_id: int, *, timeout: float = 10.0, wait: float = 10.0) -> Iterator[None]:
        game_lock = self._game_lock(game_id)
        if not game_lock.lock.acquire(timeout=max(wait, 0.0)):
            raise LockTimeout(game_id, wait)
        try:
            yield
        finally:
            game_lock.lock.release()

    def _game_lock(self, game_id: int) -> _GameLock:
        with self._guard:
            game_lock = self._locks.get(game_id)
            if game_lock is None:
                game_lock = self._locks[game_id] = _GameLock()
            return game_lock

    def join(self, game_id: int, conn_id: str, *, seat: int | None, user_key: str) -> None:
        now = self.clock()
        with self._guard:
            connections = self._live_connections(game_id, now)
            connections[conn_id] = _Connection(seat, user_key, now)
            self._connections[game_id] = connections

    def heartbeat(self, game_id: int, conn_id: str) -> bool:
        now = self.clock()
        with self._guard:
            connection = self._live_connections(game_id, now).get(conn_id)
            if connection is None:
                return False
            connection.last_seen = now
            return True

    def leave(self, game_id: int, conn_id: str) -> None:
        with self._guard:
            connections = self._connections.get(game_id, {})
            connections.pop(conn_id, None)
            if not connections:
                self._connections.pop(game_id, None)

    def presence(self, game_id: int) -> Presence:
        now = self.clock()
        with self._guard:
            connections = self._live_connections(game_id, now)
            return Presence.from_seats(c.seat for c in connections.values())

    def barrier_arrive(self, game_id: int, key: str, seat: int, expected: frozenset[int]) -> bool:
        check_arrival(seat, expected)
        now = self.clock()
        with self._guard:
            round_ = self._live_round(game_id, key, now)
            if round_ is None:
                round_ = self._rounds[(game_id, key)] = _Round()
            new = seat not in round_.seats
            round_.seats.add(seat)
            if not expected <= round_.seats:
                round_.forget_at = now + self.barrier_ttl
                return False
            if not new:
                return False
            round_.forget_at = now + self.completed_round_ttl
            return True

    def barrier_state(self, game_id: int, key: str) -> frozenset[int]:
        with self._guard:
            round_ = self._live_round(game_id, key, self.clock())
            return frozenset(round_.seats) if round_ else frozenset()

    def barrier_clear(self, game_id: int, key: str) -> None:
        with self._guard:
            self._rounds.pop((game_id, key), None)

    def close(self) -> None:
        with self._guard:
            self._connections.clear()
            self._rounds.clear()

    def _live_connections(self, game_id: int, now: float) -> dict[str, _Connection]:
        """The game's connections with the expired ones dropped; call with the guard held."""
        cutoff = now - self.presence_ttl
        connections = {
            conn_id: c
            for conn_id, c in self._connections.get(game_id, {}).items()
            if c.last_seen > cutoff
        }
        if connections:
            self._connections[game_id] = connections
        else:
            self._connections.pop(game_id, None)
        return connections

    def _live_round(self, game_id: int, key: str, now: float) -> _Round | None:
        """The round unless it expired; call with the guard held. Expired rounds are swept
        out at most every ``ROUND_SWEEP_INTERVAL`` seconds: a completed round is kept for a
        minute, so a live server holds thousands, too many to walk on every arrival."""
        if now >= self._next_round_sweep:
            for stale in [k for k, r in self._rounds.items() if r.forget_at <= now]:
                del self._rounds[stale]
            self._next_round_sweep = now + ROUND_SWEEP_INTERVAL
        round_ = self._rounds.get((game_id, key))
        return round_ if round_ is not None and round_.forget_at > now else None
