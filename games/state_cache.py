"""Live games' states kept in memory by version, so a game is not reloaded to be played or drawn."""
from __future__ import annotations

from typing import Any

from games.caches import LRU


class StateCache:
    """``game_id -> (version, state)`` for the newest version seen; engines never mutate states."""

    def __init__(self, max_games: int = 4000):
        self._lru: LRU[int, tuple[int, Any]] = LRU(max_games)

    def get(self, game_id: int, version: int) -> Any | None:
        entry = self._lru.get(game_id)
        return entry[1] if entry is not None and entry[0] == version else None

    def put(self, game_id: int, version: int, state: Any) -> None:
        current = self._lru.get(game_id)
        if current is None or current[0] <= version:
            self._lru.put(game_id, (version, state))

    def forget(self, game_id: int) -> None:
        self._lru.pop(game_id)

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        self._lru.clear()


STATE_CACHE = StateCache()
