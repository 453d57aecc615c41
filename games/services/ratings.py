"""Ratings: each finished rated game updates its players' openskill (Plackett-Luce) ratings.

A game is rated when every seat is a signed-in player, or when its creator asked for a
rated game (``Game.rated`` True) even with guests or computer players at the table. Guests
take part in the computation with a fresh rating and never keep one; computer players share
one rating per game. Sides are teams at a team table and seats otherwise; winners share
the first rank, the others follow by score, and a player who resigned, or left and had the table
hand the seat to a computer player, ranks last, alone, below every side that stayed. Each rated
seat gets one ``RatingChange`` row, so a game is rated once.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import Game, Rating, RatingChange, Seat

MODEL = PlackettLuce()
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Side:
    """One ranked side of a finished game: a team, a seat, or a player who left it (resigned or handed over)."""

    seats: tuple[int, ...]
    rank: int
    won: bool


def is_guest(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_guest)


def rated_by_default(seats: list[Seat]) -> bool:
    """Every seat is a signed-in (non-guest) player, even one who later resigned."""
    return bool(seats) and all(seat.user_id is not None and not is_guest(seat.user) for seat in seats)


def is_rated(game: Game, seats: list[Seat]) -> bool:
    return bool(game.rated) or rated_by_default(seats)


def ranked_sides(game: Game, seats: list[Seat]) -> list[Side]:
    """The game's sides with their ranks (1 is first; equal ranks are a tie)."""
    outcome: dict[str, Any] = game.outcome or {}
    winners = set(outcome.get("winners") or ())
    scores = outcome.get("scores") or []
    team_scores = outcome.get("team_scores") or []
    resigned = set(game.prompts.get("resigned") or ()) | set(game.prompts.get("handed") or ())  # both left the game
    teams: dict[Any, list[int]] = {}
    for seat in seats:
        if seat.number in resigned:
            continue
        key = seat.team if game.num_teams and seat.team is not None else f"seat {seat.number}"
        teams.setdefault(key, []).append(seat.number)

    def score(key: Any, members: list[int]) -> float:
        if isinstance(key, int) and key < len(team_scores):
            return team_scores[key]
        return max((scores[m] for m in members if m < len(scores)), default=0)

    standing = [(members, any(m in winners for m in members), score(key, members)) for key, members in teams.items()]
    keys = [(0, 0) if won else (1, -points) for _, won, points in standing]
    sides = [Side(seats=tuple(members), rank=1 + sum(other < key for other in keys), won=won)
             for (members, won, _), key in zip(standing, keys)]
    last = max((side.rank for side in sides), default=0) + 1
    sides += [Side(seats=(number,), rank=last, won=False) for number in sorted(resigned)]
    return sides


def rate_when_finished(*, game: Game) -> None:
    """The move path's hook: rate ``game`` if it has just finished. A failure to rate is
    logged and undone alone (a savepoint), so the game still ends."""
    try:
        with transaction.atomic():
            rate_finished_game(game=game)
    except Exception:
        log.exception("game %s: rating failed; the game ends unrated", game.pk)


def rate_finished_game(*, game: Game) -> list[RatingChange]:
    """Rate ``game`` once it is finished, if it is rated and not yet rated; call it within the
    transaction that finishes the game. Returns the rows it wrote (none on a second call)."""
    if game.status != Game.Status.FINISHED or game.outcome is None:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    seats = list(game.seats.select_related("user__profile").order_by("number"))
    rated = is_rated(game, seats)
    if game.rated is not rated:
        game.rated = rated
        Game.objects.filter(pk=game.pk).update(rated=rated)
    if not rated:
        return []
    sides = ranked_sides(game, seats)
    if len(sides) < 2:
        return []
    by_number = {seat.number: seat for seat in seats}
    stored = _ratings_of(game.game_type, [by_number[n] for side in sides for n in side.seats])
    before = {n: _rating_key(by_number[n]) for side in sides for n in side.seats}
    teams = [[_model_rating(stored.get(before[n])) for n in side.seats] for side in sides]
    results = MODEL.rate(teams, ranks=[float(side.rank) for side in sides])
    changes: list[RatingChange] = []
    moves: dict[Any, list[tuple[RatingChange, bool]]] = {}
    for side, new_team in zip(sides, results):
        for number, new in zip(side.seats, new_team):
            key = before[number]
            if key is None:
                continue
            old = stored[key]
            change = RatingChange(game=game, seat=number, user=by_number[number].user if key != "computer" else None,
                                  game_type=game.game_type, rank=side.rank, won=side.won,
                                  mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu, sigma_after=new.sigma)
            changes.append(change)
            moves.setdefault(key, []).append((change, side.won))
    RatingChange.objects.bulk_create(changes)
    for key, rows in moves.items():
        _apply(stored[key], rows)
    return changes


def _rating_key(seat: Seat) -> Any:
    """Whose rating a seat plays with: its user's, the computer players', or none (a guest)."""
    if seat.user_id is None:
        return "computer" if seat.is_bot else None
    return None if is_guest(seat.user) else seat.user_id


def _ratings_of(game_type: str, seats: list[Seat]) -> dict[Any, Rating]:
    """The stored ratings the seats play with, created at the model's start and locked for update."""
    keys = {_rating_key(seat) for seat in seats} - {None}
    start = MODEL.rating()
    for key in sorted(keys, key=str):
        Rating.objects.get_or_create(user_id=None if key == "computer" else key, game_type=game_type,
                                     defaults={"mu": start.mu, "sigma": start.sigma})
    user_ids = [key for key in keys if key != "computer"]
    rows = Rating.objects.select_for_update().filter(game_type=game_type).order_by("pk")
    found: dict[Any, Rating] = {}
    for row in rows.filter(user_id__in=user_ids):
        found[row.user_id] = row
    if "computer" in keys:
        found["computer"] = rows.get(user__isnull=True)
    return found


def _model_rating(stored: Rating | None):
    return MODEL.rating() if stored is None else MODEL.rating(mu=stored.mu, sigma=stored.sigma)


def _apply(rating: Rating, rows: list[tuple[RatingChange, bool]]) -> None:
    """One game's result on a stored rating; the computer players' rating, when several seats
    share it, moves by the mean of their changes."""
    count = len(rows)
    rating.mu += sum(change.mu_after - change.mu_before for change, _ in rows) / count
    rating.sigma = sum(change.sigma_after for change, _ in rows) / count
    won = any(w for _, w in rows)
    rating.games += 1
    rating.wins += int(won)
    rating.losses += int(not won)
    rating.save(update_fields=["mu", "sigma", "games", "wins", "losses", "updated_at"])
