"""The coordinator: per-game lock, presence and reveal barrier across workers.

Service code calls :func:`get_coordinator`, which picks the backend from
``settings.REDIS_URL``: empty or None gives the in-process
:class:`MemoryCoordinator` (the single-process default), anything else the
:class:`RedisCoordinator` shared by every worker. One instance per process.
"""
from __future__ import annotations

import threading

from games.coordinator.base import (
    Coordinator,
    CoordinatorError,
    LockLost,
    LockTimeout,
    Presence,
)
from games.coordinator.memory import MemoryCoordinator
from games.coordinator.redis import RedisCoordinator

__all__ = [
    "Coordinator",
    "CoordinatorError",
    "LockLost",
    "LockTimeout",
    "MemoryCoordinator",
    "Presence",
    "RedisCoordinator",
    "get_coordinator",
    "reset_coordinator",
]

_instance: Coordinator | None = None
_instance_guard = threading.Lock()


def get_coordinator() -> Coordinator:
    """This process's coordinator, built on first use from ``settings.REDIS_URL``."""
    global _instance
    with _instance_guard:
        if _instance is None:
            from django.conf import settings

            url = getattr(settings, "REDIS_URL", None)
            _instance = (RedisCoordinator(url, max_connections=settings.SNOWBALL_REDIS_CONNECTIONS,
                                          lease=getattr(settings, "SNOWBALL_GAME_LOCK_LEASE_SECONDS", 1.0))
                         if url else MemoryCoordinator())
        return _instance


def reset_coordinator() -> None:
    """Close and forget this process's coordinator; the next call builds a new one."""
    global _instance
    with _instance_guard:
        if _instance is not None:
            _instance.close()
        _instance = None

