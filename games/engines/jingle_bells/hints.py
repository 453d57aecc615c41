"""Hints for a first-time Jingle Bells player (see games/engines/hinting.py)."""
from __future__ import annotations

from typing import Any

from games.engines.hinting import build

EXPLAINED = {
    "pick": ("Take a character card for your side; the sides pick in turn.", "characters"),
    "deploy": ("Put a character on the table next to your snowman.", "taking-turns"),
    "reroll": ("Roll again the dice you choose, once, before putting two on each character.", "dice"),
    "allocate": ("Put two dice on each character: the side with the lower total acts first.", "dice"),
    "move": ("Use a die that shows Move: the character goes up to 8.9 cm.", "move-and-throw"),
    "throw": ("Use a die that shows Throw at an enemy character or snowman in range and in sight.", "move-and-throw"),
    "ability": ("Use the character's own special action (Stephen, Paul or Emily).", "abilities"),
    "react": ("Answer a throw at you: Dodge, or let Robert take it.", "reactions"),
    "pass": ("Do nothing with this: end your use of dice, or take the hit.", "taking-turns"),
    "set_auto_dodge": ("Let your characters dodge by themselves whenever they can.", "reactions"),
    "return": ("Bring back a character who ran away to warm up, on your back edge.", "running-away"),
}


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and why a throw or a move is missing
    while the other is offered."""
    kinds = {a.get("type") for a in legal_actions}
    missing = []
    if "move" in kinds and "throw" not in kinds:
        missing.append({"type": "throw", "rule": "move-and-throw",
                        "why": "No character can throw now: a throw needs an unused die showing Throw "
                               "and an enemy in range (17.8 cm) and in sight."})
    if "throw" in kinds and "move" not in kinds:
        missing.append({"type": "move", "rule": "move-and-throw",
                        "why": "No character can move now: a move needs an unused die showing Move."})
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED, not_offered=missing)
