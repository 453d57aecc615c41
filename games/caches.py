"""Small in-process LRU caches for what a live game reads over and over.

Everything cached here is keyed by a game's version, so an entry is never stale: a new
version is a new key. Values are shared between sockets and must not be mutated.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A thread-safe least-recently-used map holding at most ``size`` entries."""

    def __init__(self, size: int):
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def pop(self, key: K) -> None:
        with self._lock:
            self._data.pop(key, None)

    def discard_where(self, matches: Callable[[K], bool]) -> None:
        """Drop every entry whose key ``matches``."""
        with self._lock:
            for key in [key for key in self._data if matches(key)]:
                del self._data[key]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
