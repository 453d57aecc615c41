"""The lobby's lists: open tables, games in play, a player's own games."""
from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Game, Seat


def open_games() -> QuerySet[Game]:
    """Public tables not started yet, each with ``open_seats``: how many seats nobody has taken."""
    return (Game.objects.filter(is_public=True, status=Game.Status.OPEN)
            .annotate(open_seats=Count("seats", filter=Q(seats__user__isnull=True, seats__is_bot=False)))
            .prefetch_related(_seats_with_names()))


def live_games() -> QuerySet[Game]:
    return (Game.objects.filter(is_public=True, status=Game.Status.ACTIVE).order_by("-started_at")
            .prefetch_related(_seats_with_names()))


def recently_finished_games() -> QuerySet[Game]:
    """Public games that are over, the most recently finished first (each links to its review)."""
    return (Game.objects.filter(is_public=True, status=Game.Status.FINISHED).order_by("-finished_at")
            .prefetch_related(_seats_with_names()))


def finished_games_of(user) -> QuerySet[Game]:
    """The finished games ``user`` had a seat at, the most recently finished first."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    return (Game.objects.filter(status=Game.Status.FINISHED, seats__user=user).order_by("-finished_at")
            .prefetch_related(_seats_with_names()))


def _seats_with_names() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


def my_games(user, limit: int = 200) -> list[Game]:
    """The user's games (seated in, or created), those waiting for the user's decision first,
    soonest deadline first, then the rest newest first. Each game carries ``your_seat``,
    ``your_turn`` and ``your_deadline`` (epoch seconds, or None)."""
    if not user.is_authenticated:
        return []
    seats = dict(Seat.objects.filter(user=user).values_list("game_id", "number"))
    mine = Game.objects.filter(Q(pk__in=Seat.objects.filter(user=user).values("game_id")) | Q(created_by=user))
    in_play = list(mine.filter(status=Game.Status.ACTIVE).order_by("-created_at")[:limit])
    others = list(mine.exclude(status=Game.Status.ACTIVE).order_by("-created_at")[:limit])
    games = sorted(in_play + others, key=lambda g: g.created_at, reverse=True)
    for game in games:
        game.your_seat = seats.get(game.pk)
        entry = _asked(game, game.your_seat)
        game.your_turn = entry is not None
        game.your_deadline = entry.get("deadline") if entry else None
    games.sort(key=lambda g: (not g.your_turn, g.your_deadline or float("inf")) if g.your_turn else (True, 0.0))
    return games[:limit]


def _asked(game: Game, seat: int | None) -> dict | None:
    """The prompt entry of ``seat`` if the game waits for its decision now."""
    if (seat is None or game.status != Game.Status.ACTIVE or seat in (game.prompts.get("resigned") or ())
            or seat in (game.prompts.get("handed") or ())):
        return None
    return (game.prompts.get("seats") or {}).get(str(seat))
