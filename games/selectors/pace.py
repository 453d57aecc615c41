"""Reads about a game's pace: what a seat may mark ready, who is away, whose turn it is."""
from __future__ import annotations

from typing import Any, Iterable

from django.conf import settings

from games import pacing
from games.engines.base import Ruleset
from games.models import Game


def ready_action(ruleset: Ruleset, state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The engine's action that marks ``seat``'s revisable decision ready, when it may send it now."""
    action = getattr(ruleset, "ready_action", None)
    if action is None or action not in ruleset.legal_actions(state, seat):
        return None
    return dict(action)


def away_notices(game: Game, names: list[str], players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who is away now, until when they may come back, and who agreed to hand their seat to
    a computer player (of ``handover_needs`` players whose agreement it takes), for every viewer."""
    grace = pacing.grace_seconds(game.pace, settings.SNOWBALL_ABSENCE_GRACE)
    if grace is None or game.status != Game.Status.ACTIVE:
        return []
    humans = [p["seat"] for p in players if not p["is_bot"] and p["user_id"] is not None]
    votes = game.prompts.get("handover") or {}
    notices = []
    for seat, since in sorted((game.prompts.get("away") or {}).items(), key=lambda item: int(item[0])):
        seat = int(seat)
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        voters = handover_voters(game, humans, seat)
        notices.append({"seat": seat, "name": name, "since": since, "back_by": since + grace,
                        "text": f"{name} left - {pacing.duration_text(grace)} to come back",
                        "text_when_due": f"{name} did not come back in time: their default choices are played now",
                        "handover_votes": sorted(voters.intersection(votes.get(str(seat)) or ())),
                        "handover_needs": len(voters)})
    return notices


def handover_voters(game: Game, humans: Iterable[int], seat: int) -> set[int]:
    """The seats whose players must all agree to hand ``seat`` to a computer player: every
    other seat a person still plays (``humans``: the seats no computer player has) and whose
    player is not away too, so two players gone at once can both be handed over."""
    away = {int(s) for s in game.prompts.get("away") or {}}
    gone = {seat, *away, *(game.prompts.get("resigned") or ()), *(game.prompts.get("handed") or ())}
    return set(humans) - gone
