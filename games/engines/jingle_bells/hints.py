"""Hints for a first-time Jingle Bells player (see games/engines/hinting.py); why a character is
offered no throw is the engine's own answer (its IllegalAction) to a throw at each enemy."""
from __future__ import annotations

from typing import Any

from games.engines.base import GameError
from games.engines.hinting import build

from .engine import DIE_USE_FIELDS, RULESET, _enemy_targets, _team_in_play

EXPLAINED = {
    "pick": ("Take a character card for your side; the sides pick in turn.", "characters"),
    "deploy": ("Put your snowman and characters on the table near your own edge.", "taking-turns"),
    "reroll": ("Roll again the dice you choose, once, before putting two on each character.", "dice"),
    "allocate": ("Put two dice on each character: the side with the lower total acts first.", "dice"),
    "lock": ("Say your dice are placed for good.", "dice"),
    "move": ("Use a die that shows Move: the character goes up to 8.9 cm.", "move-and-throw"),
    "throw": ("Use a die that shows Throw at an enemy character or snowman in range and in sight.", "move-and-throw"),
    "ability": ("Use the character's own special action.", "abilities"),
    "react": ("Answer a throw: Dodge, let Robert take it, or take the hit.", "reactions"),
    "skip": ("Leave out the second half of a double symbol (only when nothing is in reach).", "doubles"),
    "pass": ("Use no more dice this turn.", "taking-turns"),
    "set_auto_dodge": ("Switch whether your characters dodge by themselves whenever they can.", "reactions"),
    "return": ("Bring back a character who ran away to warm up, on your back edge.", "running-away"),
}


def _why_no_throw(state: dict[str, Any], seat: int, name: str) -> str | None:
    """Why ``name`` is offered no throw, in the engine's words: what it says to a throw with its
    first Throw die at each enemy; None when it has no Throw die or can throw."""
    uses = [use for value in sorted(set(state["pieces"][name]["dice"]))
            for use, symbol in DIE_USE_FIELDS[name][value] if symbol in ("T", "TT")]
    if not uses:
        return None
    reasons = []
    for target in _enemy_targets(state, seat):
        try:
            RULESET.apply(state, seat, {"type": "throw", "character": name, **uses[0], "target": target})
        except GameError as exc:
            reasons.append(str(exc))
        else:
            return None
    distinct = list(dict.fromkeys(reasons))
    return " ".join(distinct[:3]) + (" …" if len(distinct) > 3 else "") if distinct else None


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and, on the player's turn, why a
    character holding a Throw die is offered no throw."""
    missing = []
    if state is not None and seat is not None and any(a.get("type") == "pass" for a in legal_actions):
        throwing = {a.get("character") for a in legal_actions if a.get("type") == "throw"}
        for name in _team_in_play(state, seat):
            why = None if name in throwing else _why_no_throw(state, seat, name)
            if why:
                missing.append({"type": "throw", "why": f"{name}: {why}", "rule": "move-and-throw"})
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED, not_offered=missing)
