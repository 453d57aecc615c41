"""Reads of one game's row and seats: names, who sits where, who may watch."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from games import engines, tables
from games.errors import NotFound
from games.models import Game, Seat
from games.state_cache import STATE_CACHE


def viewer_version(game: Game, seat: int | None) -> int:
    """The game's version as ``seat`` (None: a spectator) counts it: every change but those it
    does not see (``engines.base.seen_only_by``: another seat's sealed choice revised, a
    Fogbound shout out of its hearing), so that the version tells no one how often another
    player revised a secret or shouted. It is what every answer to that viewer reports, and
    what its actions' ``version`` is compared with. A player who gave up their seat watches as
    a spectator but goes on counting as that seat (``seat_held``), so their versions never go
    back."""
    seen = game.prompts.get("private")
    if not seen:
        return game.version
    hidden = game.prompts.get("restricted", sum(seen))
    if seat is None or not 0 <= seat < len(seen):
        return game.version - hidden + game.prompts.get("spectators_saw", 0)
    return game.version - hidden + seen[seat]


def counted_restricted(game: Game, seen_by: list[int | None]) -> dict[str, Any]:
    """The game's prompts with one more change counted that only ``seen_by`` see (None for
    the spectators), for ``viewer_version``: ``private`` holds how many such changes each seat
    saw, ``restricted`` how many there were, ``spectators_saw`` how many the spectators saw."""
    seen = list(game.prompts.get("private") or [0] * game.num_seats)
    restricted = game.prompts.get("restricted", sum(seen)) + 1
    for seat in seen_by:
        if seat is not None:
            seen[seat] += 1
    spectators_saw = game.prompts.get("spectators_saw", 0) + (None in seen_by)
    return {**game.prompts, "private": seen, "restricted": restricted, "spectators_saw": spectators_saw}


def display_name(user) -> str:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile else user.get_username()


def seat_names(game: Game, seats: list[Seat] | None = None) -> list[str]:
    """The name shown for each seat, by seat number. Names two seats share (in any letter case,
    or written with look-alike forms such as full-width letters; a guest named like a
    computer player) are told apart by their seat, "Ana (seat 1)" and "Ana (seat 3)", so that
    no log line or result can be read as another player's."""
    named = _names_by_seat(seats if seats is not None else game.seats.select_related("user__profile"))
    alike = Counter(_name_key(name) for _, name in named)
    return [f"{name} (seat {number + 1})" if alike[_name_key(name)] > 1 else name for number, name in named]


def _name_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def _names_by_seat(seats) -> list[tuple[int, str]]:
    """Each seat's number and its own name, in the seats' order."""
    named = []
    for seat in seats:
        if seat.is_bot and seat.user_id is not None:  # a player who resigned
            name = display_name(seat.user)
        elif seat.is_bot:
            name = f"Computer {seat.number + 1}"
        elif seat.user is not None:
            name = display_name(seat.user)
        else:
            name = f"(empty seat {seat.number + 1})"
        named.append((seat.number, name))
    return named


def profile_username(user) -> str | None:
    """The username of ``user``'s page (/players/<username>/), or None for a guest or nobody."""
    if user is None:
        return None
    profile = getattr(user, "profile", None)
    return None if profile is not None and profile.is_guest else user.get_username()


def seats_summary(game: Game, seats: list[Seat] | None = None) -> list[dict[str, Any]]:
    """Each seat: number, name, who sits there (``username``: the page of a signed-in player,
    None for a guest, a computer player or an empty seat), its team, and whether it leads its
    team (``team_leader``: only in games whose teams have leaders)."""
    if seats is None:
        seats = list(game.seats.select_related("user__profile"))
    players = [
        {"seat": s.number, "name": name, "is_bot": s.is_bot, "empty": s.is_empty,
         "user_id": s.user_id, "username": profile_username(s.user) if s.user_id is not None else None,
         "team": s.team, "chosen_leader": s.is_team_leader}
        for s, name in zip(seats, seat_names(game, seats))
    ]
    leaders = set()
    if game.num_teams and tables.has_team_leaders(engines.get(game.game_type)):
        leaders = set(tables.team_leaders(players, game.num_teams))
    for p in players:
        del p["chosen_leader"]
        p["team_leader"] = p["seat"] in leaders
    return players


def rated_status(game: Game, seats: list[Seat]) -> bool | None:
    """Whether ``game`` is rated: the creator's choice, else, once it has started, whether every
    seat is a signed-in player (as games/services/ratings.py decides at the end); None while a
    table not made rated is still open."""
    if game.rated is not None:
        return bool(game.rated)
    if game.status == Game.Status.OPEN:
        return None
    return bool(seats) and all(s.user_id is not None and profile_username(s.user) is not None for s in seats)


def get_game(game_id: int, *, with_state: bool = True) -> Game:
    """The game's row; without ``with_state`` its state column is read only when first used."""
    games = Game.objects.filter(pk=game_id)
    game = (games if with_state else games.defer("state")).first()
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def seat_held(game: Game, user) -> int | None:
    """The seat that is ``user``'s at ``game``, or was until a computer player took it over:
    the seat whose count of versions they are told (``viewer_version``)."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).values_list("number", flat=True).first()


def seat_of(game: Game, user) -> int | None:
    """The seat ``user`` plays at ``game``, or None for a spectator. A player whose seat passed
    to a computer player (resigned, or handed over) watches as a spectator: the seat's
    private view is the computer player's now."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user, is_bot=False).values_list("number", flat=True).first()


def seat_played_and_held(game: Game, user) -> tuple[int | None, int | None]:
    """``seat_of`` and ``seat_held`` in one query: the seat ``user`` plays (None once a computer
    player has it) and the seat that is theirs or was."""
    if user is None or not user.is_authenticated:
        return None, None
    row = game.seats.filter(user=user).values_list("number", "is_bot").first()
    if row is None:
        return None, None
    number, handed_over = row
    return (None if handed_over else number), number


def can_watch(game: Game, user, invite_code: str | None = None) -> bool:
    """Public games are open to all; private ones to their players and invitees."""
    if game.is_public or (invite_code and invite_code == game.invite_code):
        return True
    if user is None or not user.is_authenticated:
        return False
    return game.created_by_id == user.pk or game.seats.filter(user=user).exists()


def game_state(game: Game) -> dict[str, Any] | None:
    cached = STATE_CACHE.get(game.pk, game.version)
    if cached is not None:
        return cached
    if game.state is not None:
        STATE_CACHE.put(game.pk, game.version, game.state)
    return game.state


_NAME_PLACE = re.compile(r"\{p(\d{1,2})\}")
_OWNER_PLACE = re.compile(r" \(\{p(\d{1,2})\}\)")


def same_name(a: str, b: str) -> bool:
    """Whether two names read alike (a Kid named after its player), as ``seat_names`` compares
    players' names: letter case, look-alike forms and spaces round them aside."""
    return _name_key(a) == _name_key(b)


def fill_names(text: str, names: list[str]) -> str:
    """``text`` with each seat's ``{pN}`` replaced by its name, in one pass: a name that itself
    reads like a place for a name (``{p1}``) is shown as it is, never as another seat's. A piece
    named after its player ("Holly ({p0})" with Holly in seat 0) reads "Holly", not "Holly (Holly)"."""
    if "{p" not in text:  # every logged line passes here: many name nobody
        return text
    return _NAME_PLACE.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0],
                           _OWNER_PLACE.sub(lambda m: _owner_place(text, m, names), text))


def _owner_place(text: str, place: re.Match[str], names: list[str]) -> str:
    """`` ({pN})`` after a name, or nothing when the name before it is seat N's own."""
    seat = int(place[1])
    name = names[seat].strip() if seat < len(names) else ""
    start = place.start() - len(name)
    if name and start >= 0 and same_name(text[start:place.start()], name) and not text[start - 1:start].isalnum():
        return ""
    return place[0]


def bot_seats(game: Game) -> list[int]:
    return list(Seat.objects.filter(game=game, is_bot=True).values_list("number", flat=True))


def dice(game: Game) -> dict[str, Any]:
    """The commitment to the game's seed, shown from the start; the seed and its salt only
    once the game is over (docs/verifiable-dice.md)."""
    finished = game.status == Game.Status.FINISHED
    return {"commitment": game.seed_commitment, "seed": game.seed if finished else None,
            "salt": game.seed_salt if finished else None}
