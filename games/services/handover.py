"""Handing an away player's seat to a computer player when the rest of the table agrees.

Once a live game's absence grace has run out for a seat (``pace.note_away``), each other
player still playing the game may vote to hand it over; when all of them have, a computer
player takes the seat for good, as after resigning, except that the game's own rule for
resigning does not apply: the seat plays on. The votes live in ``prompts["handover"]``
(``{seat: [voters]}``) and are dropped when the away player comes back.
"""
from __future__ import annotations

import time
import uuid

from django.conf import settings

from games import pacing
from games.errors import BadRequest, Conflict, Forbidden, NotSeated
from games.models import ActionRecord, Game, Seat
from games.selectors import seat_names
from games.selectors.pace import handover_voters
from games.services.broadcast import broadcast_after_commit
from games.services.locking import locked_game, ruleset_of
from games.services.play import _commit, _load_state, _prepare_write, run_automatic
from games.services.reveal import Arrival


def vote_handover(*, game_id: int, user, seat: int, now: float | None = None) -> Game:
    """``user`` agrees to hand ``seat`` (away past its grace) to a computer player; the last
    vote needed hands it over. A vote already given changes nothing."""
    now = time.time() if now is None else now
    with locked_game(game_id) as game:
        if game.status != Game.Status.ACTIVE:
            raise Conflict("only a seat at a game in play can be handed over" if game.status == Game.Status.OPEN
                           else "the game is over")
        seats = list(game.seats.select_related("user__profile").order_by("number"))
        voter = next((s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk), None)
        if voter is None:
            raise NotSeated("only the players at this table may hand a seat over; spectators cannot")
        if voter.is_bot:
            raise Forbidden("a computer player has your seat; you no longer vote at this table")
        if seat >= len(seats):
            raise BadRequest(f"there is no seat {seat} at this table (it has {len(seats)})")
        if seat == voter.number:
            raise Forbidden("you cannot hand over your own seat; connect again and it is yours as before")
        name = seat_names(game, seats)[seat]
        since = (game.prompts.get("away") or {}).get(str(seat))
        if since is None:
            raise Conflict(f"{name} is not away; only the seat of a player who left can be handed over")
        back_by = since + (pacing.grace_seconds(game.pace, settings.SNOWBALL_ABSENCE_GRACE) or 0.0)
        if now < back_by:
            raise Conflict(f"{name} may still come back ({pacing.duration_text(max(1, round(back_by - now)))} "
                           f"left); the seat can be handed over once that time is up", back_by=back_by)
        voters = handover_voters(game, [s.number for s in seats if not s.is_bot and s.user_id is not None], seat)
        handover = dict(game.prompts.get("handover") or {})
        votes = set(handover.get(str(seat)) or ()) | {voter.number}
        if voters <= votes:
            _hand_over(game, seats[seat], votes)
        elif sorted(votes) != handover.get(str(seat)):
            handover[str(seat)] = sorted(votes)
            game.prompts = {**game.prompts, "handover": handover}
            game.version += 1
            game.save(update_fields=["prompts", "version"])
            broadcast_after_commit(game.pk, game.version, lobby=False)
        return game


def _hand_over(game: Game, seat_row: Seat, votes: set[int]) -> None:
    """A computer player takes the seat; the log says so; it answers what the seat is asked."""
    ruleset = ruleset_of(game.game_type)
    seat = seat_row.number
    state = _load_state(game, ruleset)
    game.version += 1
    game.log_length += 1
    logged = [ActionRecord(game=game, seq=game.log_length, seat=seat, action={"type": "handover", "votes": sorted(votes)},
                           action_id=f"handover-{uuid.uuid4().hex[:12]}", source=ActionRecord.Source.RESIGN,
                           events=[{"type": "handover", "seat": seat,
                                    "text": f"the table hands {{p{seat}}}'s seat to a computer player"}],
                           version=game.version)]
    seat_row.is_bot = True
    seat_row.save(update_fields=["is_bot"])
    away = {k: v for k, v in (game.prompts.get("away") or {}).items() if k != str(seat)}
    handover = {k: v for k, v in (game.prompts.get("handover") or {}).items() if k != str(seat)}
    game.prompts = {**game.prompts, "away": away, "handover": handover,
                    "handed": sorted({*(game.prompts.get("handed") or ()), seat}), "seats_changed": game.version}
    arrivals: list[Arrival] = []
    state = run_automatic(game, ruleset, state, logged, arrivals)
    _commit(_prepare_write(game, ruleset, state, logged, arrivals=arrivals))
