"""The hint panel of a Learn game: each engine's ``hints`` (games/engines/<game>/hints.py)."""
from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Callable

from games import engines
from games.selectors.snapshots import snapshot


@cache
def hints_function(game_type: str) -> Callable[..., dict[str, Any] | None] | None:
    """The engine package's ``hints`` function, or None for a game without one."""
    module = type(engines.get(game_type)).__module__
    if not module.startswith("games.engines."):
        return None
    package = ".".join(module.split(".")[:3])
    try:
        return importlib.import_module(f"{package}.hints").hints
    except ModuleNotFoundError:
        return None


def hints_for(game, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The hints for the viewer of ``payload``: only in a Learn game, only when the viewer is asked."""
    if not getattr(game, "is_learn", False) or payload.get("prompt") is None or payload.get("seat") is None:
        return None
    hints = hints_function(game.game_type)
    if hints is None:
        return None
    state = snapshot(game.pk, version=payload["version"]).state
    return hints(prompt=payload["prompt"], legal_actions=payload["legal_actions"], state=state)
