"""The hint panel of a Learn game: each engine's ``hints`` (games/engines/<game>/hints.py)."""
from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Callable

from games import engines
from games.selectors.games import fill_names
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
    """The hints for the viewer of ``payload``: only in a Learn game, only when the viewer is asked;
    seats named in the reasons ("{p1}") are given their players' names."""
    if not getattr(game, "is_learn", False) or payload.get("prompt") is None or payload.get("seat") is None:
        return None
    hints = hints_function(game.game_type)
    if hints is None:
        return None
    state = snapshot(game.pk, version=payload["version"]).state
    found = hints(prompt=payload["prompt"], legal_actions=payload["legal_actions"], state=state, seat=payload["seat"])
    if found is None:
        return None
    names = [p["name"] for p in payload["players"]]
    return {**found, "not_offered": [{**m, "why": fill_names(m["why"], names)} for m in found["not_offered"]]}
