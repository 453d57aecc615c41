"""The coordinator interface shared by the in-process and the Redis backends.

A coordinator is what several ASGI workers must agree on about a live game:
who may change it right now (the lock), who is watching it (presence), and
whether every seat has locked its sealed choice (the reveal barrier). Games
themselves live in the database; nothing here is durable.

Every method is synchronous: callers are service functions running on a thread, or async
code that runs them on threads (games/calls.py). Nothing in this module imports Django.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

Clock = Callable[[], float]
"""Seconds as a float; every worker sharing a backend must agree on it (wall time)."""

DEFAULT_PRESENCE_TTL = 30.0
DEFAULT_BARRIER_TTL = 24 * 60 * 60.0
DEFAULT_COMPLETED_ROUND_TTL = 60.0
DEFAULT_LOCK_LEASE = 1.0

class CoordinatorError(Exception):
    """Base of the coordinator's own errors."""


class LockTimeout(CoordinatorError, TimeoutError):
    """The game's lock could not be taken within the allowed wait."""

    def __init__(self, game_id: int, wait: float) -> None:
        super().__init__(f"game {game_id} is busy: its lock was not free within {wait:g}s")
        self.game_id = game_id
        self.wait = wait


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
    answers_at_once: bool = False
    """Its presence calls never wait (no network, a lock held for microseconds): async code
    makes them on the event loop instead of a coordinator thread (``calls.coordinator_call``)."""

    @abstractmethod
    def lock(
        self, game_id: int, *, timeout: float = 10.0, wait: float = 10.0
    ) -> AbstractContextManager[None]:
        """Hold the game's mutual-exclusion lock for the ``with`` block.

        ``wait`` is how long to wait for it before raising :class:`LockTimeout`.
        ``timeout`` bounds how long a block may hold it; a block that runs longer may
        raise :class:`LockLost` on exit. Where the backend outlives its holders, a holder
        that died keeps it at most one lease (``lease``, renewed while a live holder's
        block runs). The lock is not re-entrant.
        """

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
