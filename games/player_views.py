"""Players' pages and leaderboards, as HTML and as JSON."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games import engines
from games.api import api_view
from games.errors import NotFound
from games.selectors import ratings as rating_reads


def _player(username: str):
    """The player called ``username``; NotFound for a name no account could have (too long,
    or with characters Django's username validator refuses, such as a NUL byte)."""
    try:
        get_user_model().username_validator(username)
        user = rating_reads.player_by_username(username) if len(username) <= 150 else None
    except ValidationError:
        user = None
    if user is None:
        raise NotFound(f"there is no player {username!r}")
    return user


def _ruleset(slug: str):
    try:
        return engines.get(slug)
    except KeyError:
        raise NotFound(f"there is no game called {slug!r}") from None


def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        user = _player(username)
    except NotFound as exc:
        raise Http404(exc.message) from None
    profile = rating_reads.player_profile(user, viewer=request.user)
    return render(request, "games/player.html", {"profile": profile, "rulesets": engines.all_rulesets()})


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        ruleset = _ruleset(slug)
    except NotFound as exc:
        raise Http404(exc.message) from None
    return render(request, "games/leaderboard.html", {
        "ruleset": ruleset, "rows": rating_reads.leaderboard(slug),
        "other_rulesets": [r for r in engines.all_rulesets() if r.slug != slug]})


def _profile_json(profile: dict[str, Any]) -> dict[str, Any]:
    return {**profile, "recent": [{**g, "finished_at": g["finished_at"].isoformat() if g["finished_at"] else None}
                                  for g in profile["recent"]]}


@api_view({"GET"}, login=False)
def player_api(request: HttpRequest, body: dict, username: str) -> JsonResponse:
    return JsonResponse(_profile_json(rating_reads.player_profile(_player(username), viewer=request.user)))


@api_view({"GET"}, login=False)
def leaderboard_api(request: HttpRequest, body: dict, slug: str) -> JsonResponse:
    ruleset = _ruleset(slug)
    return JsonResponse({"game_type": ruleset.slug, "name": ruleset.name, "players": rating_reads.leaderboard(slug)})
