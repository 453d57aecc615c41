"""Reads for players' pages and leaderboards: games played, wins and losses, and ratings.

The rating shown is openskill's ordinal, mu - 3 sigma, rounded to one decimal: a new
player starts at 0 and climbs as its games make the rating surer and higher.
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.urls import NoReverseMatch, reverse

from games import engines
from games.models import Game, Rating, RatingChange, Seat
from games.selectors.games import display_name
from games.services.ratings import is_guest

LEADERBOARD_SIZE = 50
RECENT_GAMES = 20
COMPUTER_NAME = "Computer"


def shown_rating(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 1)


def game_name(game_type: str) -> str:
    try:
        return engines.get(game_type).name
    except KeyError:
        return game_type


def review_url(game_id: int) -> str:
    """Where a finished game is looked back on: its review, or its page where there is none."""
    try:
        return reverse("review", args=[game_id])
    except NoReverseMatch:
        return reverse("game", args=[game_id])


def player_by_username(username: str):
    """The user called ``username`` (case-insensitive), or None."""
    return get_user_model().objects.select_related("profile").filter(username__iexact=username).first()


def seat_result(game: Game, number: int) -> str:
    """"won", "lost", "drew" (a game that ended with no winner), "resigned" or "left" (the
    table handed the seat to a computer player) for the seat ``number`` of a finished game: a
    player who resigned or left lost, whatever the computer player in the seat did after."""
    if number in (game.prompts.get("resigned") or ()):
        return "resigned"
    if number in (game.prompts.get("handed") or ()):
        return "left"
    winners = (game.outcome or {}).get("winners")
    if winners == []:
        return "drew"
    return "won" if number in (winners or ()) else "lost"


def player_profile(user, *, viewer=None) -> dict[str, Any]:
    """``user``'s page: per game, games played, wins, losses and rating; its recent finished
    games (private ones only for the player itself) with the rating change each made."""
    seats = (Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
             .select_related("game").only("number", "game__id", "game__game_type", "game__outcome", "game__prompts",
                                           "game__finished_at", "game__is_public", "game__rated")
             .order_by("-game__finished_at", "-game__id"))
    per_game: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    changes = {(c.game_id, c.seat): c for c in RatingChange.objects.filter(user=user)}
    own_page = viewer is not None and getattr(viewer, "pk", None) == user.pk
    for seat in seats:
        game = seat.game
        result = seat_result(game, seat.number)
        row = per_game.setdefault(game.game_type, {"game_type": game.game_type, "name": game_name(game.game_type),
                                                   "games": 0, "wins": 0, "losses": 0, "rating": None,
                                                   "mu": None, "sigma": None, "rated_games": 0})
        row["games"] += 1
        row["wins" if result == "won" else "losses"] += 1
        if len(recent) < RECENT_GAMES and (game.is_public or own_page):
            change = changes.get((game.pk, seat.number))
            recent.append({
                "id": game.pk, "game_type": game.game_type, "name": game_name(game.game_type),
                "finished_at": game.finished_at, "result": result, "rated": bool(game.rated),
                "rating_change": None if change is None else round(
                    shown_rating(change.mu_after, change.sigma_after) - shown_rating(change.mu_before, change.sigma_before), 1),
                "review_url": review_url(game.pk),
            })
    for rating in Rating.objects.filter(user=user):
        row = per_game.setdefault(rating.game_type, {"game_type": rating.game_type, "name": game_name(rating.game_type),
                                                     "games": 0, "wins": 0, "losses": 0})
        row["rating"] = shown_rating(rating.mu, rating.sigma)
        row["mu"], row["sigma"], row["rated_games"] = rating.mu, rating.sigma, rating.games
    return {
        "username": user.get_username(),
        "name": display_name(user),
        "is_guest": is_guest(user),
        "games": sorted(per_game.values(), key=lambda r: r["name"]),
        "recent": recent,
    }


def leaderboard(game_type: str, *, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The best ratings at ``game_type``, highest first, with games played (rated ones)."""
    rows = (Rating.objects.filter(game_type=game_type, games__gt=0)
            .filter(Q(user__isnull=True) | Q(user__profile__is_guest=False))
            .annotate(shown=F("mu") - 3 * F("sigma")).select_related("user__profile")
            .order_by("-shown", "-games", "pk")[:limit])
    return [{
        "place": place,
        "username": None if r.user is None else r.user.get_username(),
        "name": COMPUTER_NAME if r.user is None else display_name(r.user),
        "is_computer": r.user is None,
        "rating": shown_rating(r.mu, r.sigma), "mu": r.mu, "sigma": r.sigma,
        "games": r.games, "wins": r.wins, "losses": r.losses,
    } for place, r in enumerate(rows, start=1)]


def rated_note(game: Game) -> str:
    """Whether ``game`` is or will be rated, in words, for its waiting room and result."""
    if game.rated is True:
        return "This game is rated: it changes the rating of every signed-in player (computer players share one rating; guests get none)."
    if game.rated is False:
        return "This game is not rated: a guest or a computer player sat at the table."
    seats = list(game.seats.select_related("user__profile"))
    taken = [s for s in seats if not s.is_empty]
    if not all(s.user_id is not None and not is_guest(s.user) for s in taken):
        return "This game will not be rated: a guest or a computer player sits at the table."
    return "This game will be rated, as long as every seat goes to a signed-in player."


def rated_tag(*, rated: bool | None, players: list[dict[str, Any]]) -> dict[str, str]:
    """What the game page's header says of whether a game is rated, from a viewer payload's
    ``rated`` and ``players``: ``state`` (its ``data-rated``), ``label`` and ``title``. While a
    table is open (``rated`` None) a guest or a computer player in a seat makes it "Unrated", as
    the waiting room's ``rated_note`` says, though the payload's ``rated`` stays None: the seat
    may still go to a signed-in player."""
    if rated:
        return {"state": "true", "label": "Rated", "title": "This game changes its players' ratings"}
    if rated is False:
        return {"state": "false", "label": "Unrated",
                "title": "This game changes nobody's rating: a guest or a computer player sits at the table"}
    if any(not p.get("empty") and p.get("username", "") is None for p in players):
        return {"state": "false", "label": "Unrated",
                "title": "This game will not be rated: a guest or a computer player sits at the table"}
    return {"state": "undecided", "label": "Rated if all seats sign in",
            "title": "Rated when the game ends if every seat is then a signed-in player"}


def game_rating_changes(game: Game) -> list[dict[str, Any]]:
    """What a finished game did to its players' shown ratings, by seat."""
    rows = RatingChange.objects.filter(game=game).select_related("user__profile").order_by("seat")
    return [{
        "seat": c.seat, "username": None if c.user is None else c.user.get_username(),
        "name": COMPUTER_NAME if c.user is None else display_name(c.user),
        "before": shown_rating(c.mu_before, c.sigma_before), "after": shown_rating(c.mu_after, c.sigma_after),
        "change": round(shown_rating(c.mu_after, c.sigma_after) - shown_rating(c.mu_before, c.sigma_before), 1),
    } for c in rows]
