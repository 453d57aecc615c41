"""Reads about a game's pace: what a seat may mark ready, who is away, whose turn it is."""
from __future__ import annotations

from typing import Any

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


def away_notices(game: Game, names: list[str]) -> list[dict[str, Any]]:
    """Who is away now and until when they may come back, for every viewer."""
    grace = pacing.grace_seconds(game.pace, settings.SNOWBALL_ABSENCE_GRACE)
    if grace is None or game.status != Game.Status.ACTIVE:
        return []
    notices = []
    for seat, since in sorted((game.prompts.get("away") or {}).items(), key=lambda item: int(item[0])):
        seat = int(seat)
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        notices.append({"seat": seat, "name": name, "since": since, "back_by": since + grace,
                        "text": f"{name} left - {pacing.duration_text(grace)} to come back"})
    return notices
