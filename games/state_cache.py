"""Live games' states kept in memory by version, so a socket never reloads a game to render it."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class StateCache:
    """A small LRU of ``game_id -> (version, state)``; states are never mutated by engines."""

    def __init__(self, max_games: int = 2000):
        self._max = max_games
        self._data: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Any | None:
        with self._lock:
            entry = self._data.get(game_id)
            if entry is None or entry[0] != version:
                return None
            self._data.move_to_end(game_id)
            return entry[1]

    def put(self, game_id: int, version: int, state: Any) -> None:
        with self._lock:
            current = self._data.get(game_id)
            if current is not None and current[0] > version:
                return
            self._data[game_id] = (version, state)
            self._data.move_to_end(game_id)
            while len(self._data) > self._max:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


STATE_CACHE = StateCache()
