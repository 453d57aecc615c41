"""Resigning a game in play.

What resigning means is the engine's call: an engine with ``resign(state, seat)`` returns
the new state and its events (a combatant leaving the garden, say). Either way the seat
passes to a computer player, so the game goes on with every seat answered, and the log
says so to everyone. When only one side is left with a player who has not resigned (in a
two-player game: the other player), the game ends and that side wins, unless the engine's
own resignation already ended it.
"""
from __future__ import annotations

import uuid

from django.utils import timezone

from games.errors import Conflict, Forbidden, NotSeated
from games.models import ActionRecord, Game, Seat
from games.services.locking import locked_game, ruleset_of
from games.services.play import _commit, _load_state, _prepare_write, resigned_state, run_automatic
from games.services.reveal import Arrival


def resign(*, game_id: int, user) -> Game:
    """``user`` gives up its seat at a game in play."""
    with locked_game(game_id) as game:
        if game.status != Game.Status.ACTIVE:
            raise Conflict("only a game in play can be resigned" if game.status == Game.Status.OPEN
                           else "the game is over")
        seat_row = game.seats.filter(user=user).first() if user is not None and user.is_authenticated else None
        if seat_row is None:
            raise NotSeated("you have no seat at this game")
        resigned = list(game.prompts.get("resigned") or [])
        if seat_row.number in resigned:
            raise Forbidden("you have already resigned this game")
        if seat_row.number in (game.prompts.get("handed") or ()):
            raise Forbidden("the table handed your seat to a computer player; there is nothing to resign")
        ruleset = ruleset_of(game.game_type)
        seat = seat_row.number
        state = _load_state(game, ruleset)
        state, events = resigned_state(ruleset, state, seat)
        resign_event = {"type": "resign", "seat": seat, "text": f"{{p{seat}}} resigns; a computer player takes their seat"}
        events = [*events, resign_event]
        game.version += 1
        game.log_length += 1
        logged = [ActionRecord(game=game, seq=game.log_length, seat=seat, action={"type": "resign"},
                               action_id=f"resign-{uuid.uuid4().hex[:12]}", source=ActionRecord.Source.RESIGN,
                               events=events, version=game.version)]
        seat_row.is_bot = True
        seat_row.save(update_fields=["is_bot"])
        away = {k: v for k, v in (game.prompts.get("away") or {}).items() if k != str(seat)}
        handover = {k: v for k, v in (game.prompts.get("handover") or {}).items() if k != str(seat)}
        game.prompts = {**game.prompts, "resigned": sorted(resigned + [seat]), "away": away, "handover": handover,
                        "seats_changed": game.version}
        write = _prepare_write(game, ruleset, state, logged)
        over = ruleset.outcome(state) is not None
        if not over:
            winners = _last_side_standing(game)
            if winners is not None:
                over = True
                _end_by_resignation(game, ruleset, state, winners, write)
            else:
                arrivals: list[Arrival] = []
                state = run_automatic(game, ruleset, state, logged, arrivals)
                write = _prepare_write(game, ruleset, state, logged, arrivals=arrivals)
        if over:  # no computer player takes a seat in a game that is over
            resign_event["text"] = f"{{p{seat}}} resigns"
        _commit(write)
        return game


def _last_side_standing(game: Game) -> list[int] | None:
    """The seats of the one side that still has a player who has not resigned, if only one has.

    A side is a team at a team table, else a seat; a computer player from the start stands
    for its side as a player does."""
    resigned = set(game.prompts.get("resigned") or ())
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    side = {s.number: (s.team if game.num_teams else s.number) for s in seats}
    standing = {side[s.number] for s in seats if s.number not in resigned}
    if len(standing) != 1:
        return None
    (winner,) = standing
    return [n for n, team in side.items() if team == winner]


def resigned_outcome(ruleset, state: dict, winners: list[int], *, seats: int) -> dict:
    """The engine's outcome for a game its resigned sides leave to ``winners`` (``resigned_outcome``:
    the scores as they stand, one per seat, with what the game adds, e.g. team totals); an engine
    without it scores every seat 0."""
    hook = getattr(ruleset, "resigned_outcome", None)
    if hook is None:
        return {"scores": [0] * seats, "winners": list(winners)}
    return {**hook(state, list(winners)), "winners": list(winners)}


def resignation_outcome(ruleset, state: dict, *, winners: list[int], resigned: list[int], seats: int) -> dict:
    """The result of a game that all sides but the ``winners``' left by resigning (``resigned``
    seats, in order); a review's replay works it out again from the log."""
    resigners = [f"{{p{r}}}" for r in resigned]
    resigners = " and ".join(filter(None, [", ".join(resigners[:-1]), resigners[-1]]))
    return {**resigned_outcome(ruleset, state, winners, seats=seats), "code": "resigned",
            "reason": f"{resigners} resigned"}


def _end_by_resignation(game: Game, ruleset, state: dict, winners: list[int], write) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.outcome = resignation_outcome(ruleset, state, winners=winners,
                                       resigned=list(game.prompts.get("resigned") or ()), seats=game.num_seats)
    game.prompts = {**game.prompts, "seats": {}}
    game.next_deadline = None
    write.columns = sorted(set(write.columns) | {"status", "finished_at", "outcome", "prompts", "next_deadline"})
    write.lobby = game.is_public
