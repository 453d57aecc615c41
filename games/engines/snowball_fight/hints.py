"""Hints for a first-time Snowball Fight player (see games/engines/hinting.py)."""
from __future__ import annotations

from typing import Any

from games.engines.base import GameError
from games.engines.hinting import build

from .engine import apply

EXPLAINED = {
    "choose": ("Pick a card (and, in play, its side) for now; you may change it until you lock it. "
               "The others see that you have marked a card, never which; in play, the cards are shown "
               "together once everyone has locked in.", "hidden-cards"),
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

LABELS = {"other_cards": "Cards outside your hand", "lock": "Lock my choice"}


def _engine_refusal(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str | None:
    try:
        apply(state, seat, action)
    except GameError as exc:
        return str(exc)
    return None


def not_offered(prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
                state: dict[str, Any] | None, seat: int | None) -> list[dict[str, str]]:
    """Why an upgrade, a lock, or playing a card that is not in the hand is missing now."""
    if prompt is None:
        return []
    offered = {a.get("type") for a in legal_actions}
    missing = []
    if "upgrade" not in offered and "abandon" in offered:
        missing.append({"type": "upgrade", "rule": "upgrades",
                        "why": "No Arsenal card can be taken now, so only taking nothing is offered."})
    if state is None or seat is None:
        return missing
    if "lock" not in offered and offered & {"choose", "play"}:
        why = _engine_refusal(state, seat, {"type": "lock"})
        if why:
            missing.append({"type": "lock", "rule": "choices", "why": why[0].upper() + why[1:] + "."})
    if state.get("phase") != "draft" and state.get("step") == "choose" and offered & {"choose", "play"}:
        draw, discard = len(state["draw"][seat]), len(state["discard"][seat])
        piles = [f"the {n} in your {pile} pile" for n, pile in ((draw, "draw"), (discard, "discard")) if n]
        if piles:
            missing.append({"type": "other_cards", "rule": "hidden-cards", "why": (
                f"Only the cards in your hand can be played: {' and '.join(piles)} wait until you draw them.")})
    return missing


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and why an upgrade, a lock or a card
    not in the hand is missing (the lock in the engine's own words)."""
    return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED,
                 not_offered=not_offered(prompt, legal_actions, state, seat), labels=LABELS)
