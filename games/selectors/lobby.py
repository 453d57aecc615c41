"""The lobby's lists: open tables, games in play, a player's own games."""
from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Seat


def open_games() -> QuerySet[Game]:
    return Game.objects.filter(is_public=True, status=Game.Status.OPEN).prefetch_related(_seats_with_names())


def live_games() -> QuerySet[Game]:
    return (Game.objects.filter(is_public=True, status=Game.Status.ACTIVE).order_by("-started_at")
            .prefetch_related(_seats_with_names()))


def _seats_with_names() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))


def my_games(user) -> QuerySet[Game]:
    if not user.is_authenticated:
        return Game.objects.none()
    seated = Seat.objects.filter(user=user).values("game_id")
    return Game.objects.filter(Q(pk__in=seated) | Q(created_by=user)).order_by("-created_at")
