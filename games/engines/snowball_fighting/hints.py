"""Hints for a first-time Snowball Fighting player (see games/engines/hinting.py)."""
from __future__ import annotations

from typing import Any

from games.engines.hinting import build

EXPLAINED = {
    "setup": ("Choose your nom de guerre and the start hexes you would like.", "start"),
    "orders": ("Write what your player does in each of the turn's three segments: move, collect, throw.", "turns"),
    "ready": ("Say your orders are final; the turn is resolved once everyone has.", "turns"),
    "deadline": ("Answer nothing: what is played for you when time runs out (no orders: your player stands still).", "nmr"),
}


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks and what each offered action does."""
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED)
