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

_MISSING = object()


class LRU(Generic[K, V]):
    """A thread-safe least-recently-used map holding at most ``size`` entries. With
    ``group_of`` (a game's entries: ``lambda key: key[0]``), ``discard_group`` drops one
    group's entries without walking the others."""

    def __init__(self, size: int, *, group_of: Callable[[K], Hashable] | None = None):
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._group_of = group_of
        self._groups: dict[Hashable, set[K]] = {}

    def get(self, key: K) -> V | None:
        """The value, now the most recently used; None when not held. Without the lock: each of
        its two steps is one call into the interpreter's own dict, and an entry another thread
        drops between them is simply not moved (a read is a quarter of what it costs with the
        lock, and a move reads these caches some forty times)."""
        value = self._data.get(key)
        if value is not None:
            try:
                self._data.move_to_end(key)
            except KeyError:
                pass
        return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            if self._group_of is not None and key not in self._data:
                self._groups.setdefault(self._group_of(key), set()).add(key)
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._ungroup(self._data.popitem(last=False)[0])

    def pop(self, key: K) -> None:
        with self._lock:
            if self._data.pop(key, _MISSING) is not _MISSING:
                self._ungroup(key)

    def discard_group(self, group: Hashable) -> None:
        """Drop every entry of ``group`` (``group_of``'s value for their keys)."""
        with self._lock:
            for key in self._groups.pop(group, ()):
                self._data.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._groups.clear()

    def _ungroup(self, key: K) -> None:
        if self._group_of is None:
            return
        group = self._group_of(key)
        keys = self._groups.get(group)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._groups[group]

    def __len__(self) -> int:
        return len(self._data)
