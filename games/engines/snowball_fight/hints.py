"""Hints for a first-time Snowball Fight player (see games/engines/hinting.py)."""
from __future__ import annotations

from typing import Any

from games.engines.hinting import build

EXPLAINED = {
    "choose": ("Pick a card (and, in play, its side) for now; you may change it until you lock it. "
               "Nobody sees it until everyone has chosen.", "hidden-cards"),
    "play": ("Pick a card and lock it at once; the choices are shown together.", "hidden-cards"),
    "lock": ("Say your choice is final.", "choices"),
    "upgrade": ("Take a card from an Arsenal pile into your deck.", "upgrades"),
    "abandon": ("Take nothing from the Arsenal this time.", "upgrades"),
    "second_card": ("Your Barrage hit: play a second card straight away.", "barrage"),
    "restock": ("Shuffle one of your discards back into your draw pile.", "dodges"),
    "pass": ("Do not use this choice.", "choices"),
    "deal": ("As team leader, hand out the team's cards to its players.", "team-leader"),
    "exchange": ("Snatch and Run: give one of your cards and take one of theirs.", "choices"),
    "cache": ("Weapons Cache: take the card you choose.", "weapons-cache"),
    "raid": ("Raid: take the card you choose from the other side.", "choices"),
}


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and why an upgrade is missing when only
    taking nothing is offered."""
    missing = []
    if prompt is not None and "upgrade" not in {a.get("type") for a in legal_actions} \
            and any(a.get("type") == "abandon" for a in legal_actions):
        missing.append({"type": "upgrade", "rule": "upgrades",
                        "why": "No Arsenal card can be taken now, so only taking nothing is offered."})
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED, not_offered=missing)
