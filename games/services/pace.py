"""Deadlines kept by the server, a player's "ready", and players who went away.

Every prompt's deadline is written with the move that asked it (``play._prepare_write``),
and the earliest of a game's deadlines in its indexed ``Game.next_deadline``. So whatever
restarts, ``sweep_deadlines`` finds the overdue games in the database and answers their
prompts with the engines' defaults (``play.apply_timeouts``); the game's lock and the
timeouts' own action ids make each default apply once however many workers sweep.
"""
from __future__ import annotations

import logging
import time

from django.conf import settings

from games import pacing
from games.errors import BadRequest, ServiceError
from games.models import ActionRecord, Game
from games.selectors.pace import ready_action
from games.services.broadcast import broadcast_after_commit
from games.services.locking import locked_game, ruleset_of
from games.services.play import ActionResult, _seat_of, apply_timeouts, check_current, next_deadline, submit_action

log = logging.getLogger(__name__)

SWEEP_BATCH = 200


def overdue_games(now: float, limit: int = SWEEP_BATCH) -> list[int]:
    """The games with a deadline at or before ``now``, most overdue first (only games in play
    have one), read through the index on ``next_deadline``."""
    return list(Game.objects.filter(next_deadline__lte=now).order_by("next_deadline")
                .values_list("pk", flat=True)[:limit])


def sweep_deadlines(*, now: float | None = None, limit: int = SWEEP_BATCH) -> dict[int, int]:
    """Apply the defaults of every overdue prompt; ``{game id: its new version}`` for the games
    that moved. A game another worker holds now is left for the next sweep."""
    now = time.time() if now is None else now
    moved: dict[int, int] = {}
    for game_id in overdue_games(now, limit):
        version = sweep_game(game_id=game_id, now=now)
        if version is not None:
            moved[game_id] = version
    return moved


def sweep_game(*, game_id: int, now: float) -> int | None:
    """Apply the defaults of one game's prompts overdue at ``now``: its new version, or None
    when nothing was due or the game was left for the next sweep (a failure is logged)."""
    try:
        return apply_timeouts(game_id=game_id, now=now)
    except ServiceError as exc:
        log.info("deadlines of game %s deferred (%s)", game_id, exc.message)
    except Exception:
        log.exception("deadlines of game %s could not be applied", game_id)
    return None


# ------------------------------------------------------------------ ready


def mark_ready(*, game_id: int, user, version: int, action_id: str) -> ActionResult:
    """Mark the user's decision ready: the engine's ``ready_action`` as the user's move, refused
    as an action would be (not seated, resigned, not in play, a stale version) before "nothing
    to mark"; a resent ``action_id`` is acked as a duplicate."""
    from games import selectors

    game = selectors.get_game(game_id)
    seat = _seat_of(game, user)
    ruleset = ruleset_of(game.game_type)
    if getattr(ruleset, "ready_action", None) is None:
        raise BadRequest(f"in {ruleset.name} a decision is ready once it is sent; there is nothing to mark ready")
    if not _sent_already(game, seat, action_id):
        check_current(game, seat=seat, version=version)
        if ready_action(ruleset, selectors.game_state(game), seat) is None:
            raise BadRequest("you have no decision to mark ready now (write it first, or it is already ready)")
    return submit_action(game_id=game_id, user=user, action=dict(ruleset.ready_action), action_id=action_id,
                         version=version)


def _sent_already(game: Game, seat: int, action_id: str) -> bool:
    """Whether this seat's ``action_id`` was applied: resent, it is acked as a duplicate."""
    return ActionRecord.objects.filter(game=game, seat=seat, source=ActionRecord.Source.PLAYER,
                                       action_id=action_id).exists()


# ------------------------------------------------------------------ absence


def note_away(*, game_id: int, seat: int, now: float | None = None) -> bool:
    """The last connection of ``seat``'s player closed: in a live game the others are told,
    and once the grace period ends its prompts get their defaults at once. False when
    nothing changed (not in play, by the day, a computer's seat, already away)."""
    now = time.time() if now is None else now
    return _set_away(game_id, seat, now)


def note_back(*, game_id: int, seat: int) -> bool:
    """``seat``'s player is connected again: its deadlines are its own again."""
    return _set_away(game_id, seat, None)


def _set_away(game_id: int, seat: int, since: float | None) -> bool:
    peek = Game.objects.filter(pk=game_id).only("status", "pace", "prompts", "is_learn").first()
    if peek is None or not _absence_changes(peek, seat, since):
        return False
    with locked_game(game_id) as game:
        if not _absence_changes(game, seat, since):
            return False
        if game.seats.filter(number=seat, is_bot=True).exists():
            return False
        away = dict(game.prompts.get("away") or {})
        handover = dict(game.prompts.get("handover") or {})
        if since is None:
            away.pop(str(seat), None)
            handover.pop(str(seat), None)
        else:
            away[str(seat)] = since
        game.prompts = {**game.prompts, "away": away, "handover": handover}
        grace = pacing.grace_seconds(game.pace, settings.SNOWBALL_ABSENCE_GRACE) or 0.0
        for number, entry in game.prompts.get("seats", {}).items():
            entry["deadline"] = pacing.effective_deadline(entry.get("due", entry.get("deadline")), away.get(number),
                                                          grace, has_default=entry.get("has_default", True))
        game.next_deadline = next_deadline(game)
        game.version += 1
        game.save(update_fields=["prompts", "next_deadline", "version"])
        broadcast_after_commit(game.pk, game.version, lobby=False)
        return True


def _absence_changes(game: Game, seat: int, since: float | None) -> bool:
    if game.status != Game.Status.ACTIVE or game.pace != pacing.LIVE or game.is_learn:
        return False
    if seat in (game.prompts.get("resigned") or ()):
        return False
    is_away = str(seat) in (game.prompts.get("away") or {})
    return is_away if since is None else not is_away
