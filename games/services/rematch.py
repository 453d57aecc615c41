"""A rematch: the same table again, once every player of a finished game agrees.

A player of a finished game offers it; every other person who held a seat accepts or
declines in their own page (a player who resigned or whose seat was handed over is asked
too, and plays again); computer players accept at once. One decline ends the offer for
everyone; a new offer may follow it. When everyone has accepted, the new game starts with
the same game, options, number of seats, teams, pace and visibility, a fresh seed, and the
same people, each moved one seat down (the player in seat 2 takes seat 1, the one in seat 1
takes the last seat), so that in a game where seat 1 goes first the first player alternates
from one game to the next; where the engine draws its first player from the seed (Jingle
Bells), the fresh seed is one whose draw does not give it to the same person. ``Game.rematch`` records the offer on the finished game; once
the new game started it holds its id, and every page of the old game moves to it.
"""
from __future__ import annotations

import secrets

from games.errors import Conflict, NotSeated
from games.models import Game, Seat
from games.services.locking import bump, locked_game, ruleset_of
from games.services.play import game_arguments
from games.services.waiting_room import create_game, start_game


def offer_rematch(*, game_id: int, user) -> Game:
    """``user``, who held a seat at the finished game, offers the same table again (and
    accepts it)."""
    with locked_game(game_id) as game:
        seats = _require_finished_and_seated(game, user)
        offer = game.rematch
        if offer and offer.get("game"):
            raise Conflict("the rematch has already started")
        if offer and offer.get("declined") is None:
            raise Conflict("a rematch is already offered; accept or decline it")
        mine = _seat_of(seats, user)
        game.rematch = {"by": mine.number, "accepted": sorted({mine.number, *_computer_seats(seats)}),
                        "declined": None, "game": None}
        return _save(game, seats)


def accept_rematch(*, game_id: int, user) -> Game:
    """``user`` accepts the rematch offered; the last acceptance starts the new game."""
    with locked_game(game_id) as game:
        seats = _require_finished_and_seated(game, user)
        offer = _require_open_offer(game)
        mine = _seat_of(seats, user)
        if mine.number in offer["accepted"]:
            raise Conflict("you have already accepted the rematch")
        game.rematch = {**offer, "accepted": sorted([*offer["accepted"], mine.number])}
        return _save(game, seats)


def decline_rematch(*, game_id: int, user) -> Game:
    """``user`` declines the rematch offered, which ends the offer for everyone."""
    with locked_game(game_id) as game:
        seats = _require_finished_and_seated(game, user)
        offer = _require_open_offer(game)
        game.rematch = {**offer, "declined": _seat_of(seats, user).number}
        game.save(update_fields=["rematch"])
        return bump(game)


def rematch_seat_number(number: int, num_seats: int) -> int:
    """The seat that the player of seat ``number`` takes in the rematch: one seat down."""
    return (number - 1) % num_seats


def _save(game: Game, seats: list[Seat]) -> Game:
    """Save the offer; when every seat has accepted, start the new game first."""
    if len(game.rematch["accepted"]) == len(seats):
        game.rematch = {**game.rematch, "game": _start_new_game(game, seats).pk}
    game.save(update_fields=["rematch"])
    return bump(game)


def _start_new_game(game: Game, seats: list[Seat]) -> Game:
    offerer = seats[game.rematch["by"]].user
    declared = {option.name for option in ruleset_of(game.game_type).options}
    # a name the game does not list (a game saved with one) meant nothing: played again without it
    options = {name: value for name, value in game.options.items() if name in declared}
    new = create_game(creator=offerer, game_type=game.game_type, options=options, is_public=game.is_public,
                      num_seats=game.num_seats, num_teams=game.num_teams, take_seat=False,
                      spectators_read_only=game.spectators_read_only, pace=game.pace,
                      decision_seconds=game.decision_seconds, rated=bool(game.rated))
    if game.is_learn:
        Game.objects.filter(pk=new.pk).update(is_learn=True)
    new_seats = {s.number: s for s in new.seats.all()}
    for old in seats:
        seat = new_seats[rematch_seat_number(old.number, game.num_seats)]
        seat.user, seat.is_bot = old.user, old.user_id is None and old.is_bot
        seat.team, seat.is_team_leader = old.team, old.is_team_leader
    Seat.objects.bulk_update(new_seats.values(), ["user", "is_bot", "team", "is_team_leader"])
    _reseed_for_another_first_player(game, new)
    start_game(game_id=new.pk, user=offerer)
    return new


def _reseed_for_another_first_player(game: Game, new: Game) -> None:
    """Where the engine draws the first player from the seed (Jingle Bells' ``first_picker``),
    give the new game a fresh seed whose draw does not give the first move to the same person."""
    was_first = (game.state or {}).get("first_picker")
    if was_first is None:
        return
    ruleset = ruleset_of(game.game_type)
    same_person = rematch_seat_number(was_first, game.num_seats)
    for _ in range(64):
        if ruleset.new_game(**game_arguments(new)).get("first_picker") != same_person:
            break
        new.seed = secrets.randbits(62)
    new.save(update_fields=["seed"])


def _require_finished_and_seated(game: Game, user) -> list[Seat]:
    if game.status != Game.Status.FINISHED:
        raise Conflict("only a finished game can be played again; this one "
                       + ("has not started yet" if game.status == Game.Status.OPEN else "is still in play"))
    seats = list(game.seats.select_related("user"))
    if user is None or not user.is_authenticated or _seat_of(seats, user) is None:
        raise NotSeated("only the game's players can offer or answer a rematch")
    return seats


def _require_open_offer(game: Game) -> dict:
    offer = game.rematch
    if not offer:
        raise Conflict("no rematch is offered")
    if offer.get("game"):
        raise Conflict("the rematch has already started")
    if offer.get("declined") is not None:
        raise Conflict("the rematch was declined")
    return offer


def _seat_of(seats: list[Seat], user) -> Seat | None:
    """The seat ``user`` held, even if a computer player took it over."""
    return next((s for s in seats if s.user_id == user.pk), None)


def _computer_seats(seats: list[Seat]) -> list[int]:
    """Seats of computer players from the start (not players who resigned)."""
    return [s.number for s in seats if s.user_id is None and s.is_bot]
