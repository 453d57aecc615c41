"""Hints for a first-time What a Snowball! player (see games/engines/hinting.py); why a kind of
action is missing comes from the engine's own tests (``unspendable.why_not_offered``)."""
from __future__ import annotations

from typing import Any

from games.engines.hinting import build

from .unspendable import KINDS, why_not_offered

EXPLAINED = {
    "corner": ("Choose the corner of the village your team starts from.", "setting-up"),
    "place": ("Put one of your Kids down in your starting area.", "setting-up"),
    "move": ("Spend a Command Die as MOVE: the Kid walks up to its distance.", "moving"),
    "move_to": ("Choose where the moving Kid ends up.", "moving"),
    "gather": ("Spend a Command Die to GATHER SNOW: the Kid makes a snowball (it must stand on snow).", "gathering"),
    "aim": ("Spend a Command Die to AIM: the Kid's next throw hits more easily (aims add up until it throws "
            "or is hit).", "aiming"),
    "throw": ("Spend a Command Die to THROW a snowball at an enemy in sight: the farther, the harder to hit.",
              "throwing"),
    "wild": ("Use a Wild die: it can be spent as any action.", "wild"),
    "end_activation": ("End this Kid's activation; its unspent dice are lost.", "activation"),
    "surrender": ("Give up the game.", "surrender"),
    "roll": ("Roll this Kid's Command Dice to start its activation.", "activation"),
    "vault": ("Spend a die as MOVE to climb over a low wall or fence.", "moving"),
    "play_card": ("Play an ability card now.", "ability-cards"),
    "decline": ("Play no card this time.", "reactions"),
    "set_never_ask": ("Stop (or start) being asked about this card when it could be played.", "reactions"),
}
ANCHORS = {"move": "moving", "gather": "gathering", "aim": "aiming", "throw": "throwing", "wild": "wild"}


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and, while a Kid spends dice, why each
    kind of action it is not offered is missing."""
    offered = {a.get("type") for a in legal_actions}
    missing = []
    if state is not None:
        for kind in KINDS:
            if kind in offered:
                continue
            why = why_not_offered(state, kind)
            if why:
                missing.append({"type": kind, "why": why, "rule": ANCHORS[kind]})
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED, not_offered=missing)
