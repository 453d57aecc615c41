"""What the golden-replay scripts share: the record of a finished game, and writing the files."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable


def finished_game(ruleset, state: dict[str, Any], *, seed: int, options: dict[str, Any],
                  actions: list, seats: int = 2, **extra: Any) -> dict[str, Any]:
    """Seed, options and actions, with what each seat and a spectator see at the end."""
    return {
        "seed": seed,
        "options": options,
        "actions": actions,
        **extra,
        "final_views": {
            **{str(seat): ruleset.view(state, seat) for seat in range(seats)},
            "spectator": ruleset.view(state, None),
        },
        "outcome": ruleset.outcome(state),
    }


def write_games(folder: Path, games: dict[str, tuple[int, dict[str, Any]]],
                play: Callable[[int, dict[str, Any]], dict[str, Any]]) -> None:
    """Play every named game and write it as ``<name>.json`` beside the script."""
    for name, (seed, options) in games.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(play(seed, options), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")
