"""A game's pace: live (a timer per decision) or by the day (a deadline per turn), and what
it makes of each prompt's deadline. Pure rules; the writes are in games/services/pace.py.

A live game's creator picks seconds per decision among ``LIVE_SECONDS``, or leaves it to
the game (``None``): each prompt then keeps the engine's own ``Prompt.timeout`` (None: no
limit). A game by the day gives every prompt the same time, among ``DAILY_SECONDS``, as does
a live game's chosen time. A prompt without a default has no deadline at any pace: nothing
could be played for its player. A Learn game runs no clock at all: nobody waits for its one
player, who may stop to read the rules at any moment.
"""
from __future__ import annotations

from typing import Any

from games.errors import BadRequest

LIVE, DAILY = "live", "daily"
PACES = (LIVE, DAILY)
LIVE_SECONDS = (30, 60, 120, 300)
DAILY_SECONDS = (3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400)
DEFAULT_DAILY_SECONDS = 86400


def duration_text(seconds: float) -> str:
    """``45 s``, ``2 min``, ``4 h``, ``1 day``, ``3 days``."""
    seconds = int(seconds)
    if seconds < 120 and seconds % 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min" if seconds >= 120 else f"{seconds} s"
    if seconds < 86400:
        return f"{seconds // 3600} h"
    days = seconds // 86400
    return f"{days} day" if days == 1 else f"{days} days"


def checked(pace: Any, seconds: Any) -> tuple[str, int | None]:
    """``(pace, seconds)`` as a game stores them; BadRequest names what is not allowed."""
    if pace is None:
        pace = LIVE
    if pace not in PACES:
        raise BadRequest(f'pace must be "live" or "daily", got {pace!r}')
    allowed = LIVE_SECONDS if pace == LIVE else DAILY_SECONDS
    if seconds is None:
        return pace, (None if pace == LIVE else DEFAULT_DAILY_SECONDS)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds not in allowed:
        listed = ", ".join(str(s) for s in allowed)
        raise BadRequest(f"decision_seconds for a {'live' if pace == LIVE else 'by the day'} game must be "
                         f"one of {listed}" + (" (or left out for the game's own timers)" if pace == LIVE else ""))
    return pace, seconds


LEARN_TEXT = "No clock · take your time"


def describe(pace: str, seconds: int | None, *, learn: bool = False) -> str:
    """The pace in words, for the lobby and the game page."""
    if learn:
        return LEARN_TEXT
    if pace == DAILY:
        return f"By the day · {duration_text(seconds or DEFAULT_DAILY_SECONDS)} a turn"
    if seconds is None:
        return "Live · the game's own timers"
    return f"Live · {duration_text(seconds)} a decision"


def prompt_seconds(pace: str, seconds: int | None, prompt, *, learn: bool = False) -> float | None:
    """The seconds ``prompt`` is given at this pace (the ``timeout`` its viewers are shown): the
    pace's seconds, else the engine's own ``Prompt.timeout``; None when it never runs out (no
    default, or a Learn game)."""
    if prompt.default is None or learn:
        return None
    return seconds if seconds is not None else prompt.timeout


def due(pace: str, seconds: int | None, prompt, now: float, *, learn: bool = False) -> float | None:
    """When ``prompt`` runs out at this pace, or None when it never does (nor in a Learn game)."""
    given = prompt_seconds(pace, seconds, prompt, learn=learn)
    return None if given is None else now + given


def effective_deadline(due_at: float | None, away_since: float | None, grace: float, *,
                       has_default: bool = True) -> float | None:
    """A seat's deadline: its due time, or the end of its player's grace period if sooner (a
    prompt with a default but no time limit included: an absent player's seat plays it)."""
    if away_since is None or not has_default:
        return due_at
    return away_since + grace if due_at is None else min(due_at, away_since + grace)


def grace_seconds(pace: str, grace: float) -> float | None:
    """How long a player of a game at this pace may be gone: live games only."""
    return grace if pace == LIVE else None


def as_dict(pace: str, seconds: int | None, *, learn: bool = False) -> dict[str, Any]:
    return {"pace": pace, "decision_seconds": seconds, "pace_text": describe(pace, seconds, learn=learn)}
