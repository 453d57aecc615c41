"""Before the start: opening a table, sitting, moving, teams, computer players, starting."""
from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import pacing, tables
from games.engines.base import GameError, check_option_names
from games.errors import BadRequest, Conflict, Forbidden, NotSeated
from games.models import ActionRecord, Game, Seat
from games.services.broadcast import broadcast_after_commit
from games.services.locking import bump, locked_game, ruleset_of
from games.services.play import game_arguments, run_automatic, save_state
from games.services.reveal import Arrival


def create_game(*, creator, game_type: str, options: dict[str, Any] | None = None, is_public: bool = True,
                num_seats: int | None = None, num_teams: int | None = None, take_seat: bool = True,
                spectators_read_only: bool = False, pace: str | None = None,
                decision_seconds: int | None = None, rated: bool = False) -> Game:
    """Open a new table of ``num_seats`` (the game's smallest by default) and, for a team
    game, ``num_teams``, at ``pace`` (games/pacing.py: live by default); the options are
    checked before anything is saved: a name the game does not declare is refused, and the
    engine checks the values; they are saved in the game's canonical form
    (``Ruleset.canonical_options``, where the game has one). With ``spectators_read_only``
    spectators read the table talk but cannot write in it. With ``rated`` the game is rated
    even with guests or computer players (games/services/ratings.py)."""
    ruleset = ruleset_of(game_type)
    pace, decision_seconds = pacing.checked(pace, decision_seconds)
    options = dict(options or {})
    seats = tables.seat_count(ruleset, num_seats)
    teams = tables.team_count(ruleset, num_teams, seats=seats)
    seed = secrets.randbits(62)
    try:
        check_option_names(options, ruleset.options)
        ruleset.new_game(**tables.new_game_arguments(players=seats, options=options, seed=seed,
                                                     teams=tables.provisional_teams(seats, teams) if teams else None))
    except GameError as exc:
        raise BadRequest(f"bad options: {exc}") from exc
    if hasattr(ruleset, "canonical_options"):
        options = ruleset.canonical_options(options)
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type, options=options, seed=seed, num_seats=seats, num_teams=teams, is_public=is_public,
            spectators_read_only=spectators_read_only, invite_code=Game.new_invite_code(), created_by=creator,
            pace=pace, decision_seconds=decision_seconds, rated=True if rated else None,
        )
        Seat.objects.bulk_create([Seat(game=game, number=n) for n in range(seats)])
        if take_seat:
            Seat.objects.filter(game=game, number=0).update(user=creator, team=tables.team_for_newcomer([], teams))
        broadcast_after_commit(game.pk, game.version, lobby=game.is_public)
    return game


def join_seat(*, game_id: int, user, number: int | None = None, team: int | None = None) -> Game:
    """Sit ``user`` in seat ``number`` (or the first empty one) before the game starts; at a
    team table on ``team``, or on the smallest team."""
    with locked_game(game_id) as game:
        _require_open(game)
        if game.seats.filter(user=user).exists():
            raise Conflict("you already have a seat at this game; move to another seat instead")
        seat = _empty_seat(game, number)
        seat.user = user
        seat.team = _team_for(game, team)
        try:
            seat.save(update_fields=["user", "team"])
        except IntegrityError as exc:
            raise Conflict("you already have a seat at this game") from exc
        return bump(game)


def move_seat(*, game_id: int, user, number: int) -> Game:
    """Move ``user`` from its seat to the empty seat ``number``, keeping its team."""
    with locked_game(game_id) as game:
        _require_open(game)
        current = game.seats.select_for_update().filter(user=user).first()
        if current is None:
            raise NotSeated("you have no seat at this game; sit down first")
        if number is None:
            raise BadRequest("say which empty seat to move to")
        if number == current.number:
            raise Conflict(f"you are already in Seat {number + 1}", seat=number)
        target = _empty_seat(game, number)
        team, leads = current.team, current.is_team_leader
        current.user, current.team, current.is_team_leader = None, None, False
        current.save(update_fields=["user", "team", "is_team_leader"])
        target.user, target.team, target.is_team_leader = user, team, leads
        target.save(update_fields=["user", "team", "is_team_leader"])
        return bump(game)


def leave_seat(*, game_id: int, user) -> Game:
    """Give up ``user``'s seat before the game starts."""
    with locked_game(game_id) as game:
        _require_open(game)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotSeated("you have no seat at this game")
        seat.user, seat.team, seat.is_team_leader = None, None, False
        seat.save(update_fields=["user", "team", "is_team_leader"])
        return bump(game)


def add_bot(*, game_id: int, user, number: int | None = None, team: int | None = None) -> Game:
    """Put a computer player in an empty seat (on ``team``, or the smallest team); only
    seated players or the creator may."""
    with locked_game(game_id) as game:
        _require_open(game)
        _require_host_or_seated(game, user)
        seat = _empty_seat(game, number)
        seat.is_bot = True
        seat.team = _team_for(game, team)
        seat.save(update_fields=["is_bot", "team"])
        return bump(game)


def remove_bot(*, game_id: int, user, number: int | None) -> Game:
    """Take the computer player in seat ``number`` out of its seat before the start."""
    with locked_game(game_id) as game:
        _require_open(game)
        _require_host_or_seated(game, user)
        if number is None:
            raise BadRequest("say which seat's computer player to remove")
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < game.num_seats:
            raise BadRequest(f"seat must be 0 to {game.num_seats - 1}, got {number!r}")
        seat = game.seats.filter(number=number, is_bot=True).first()
        if seat is None:
            raise BadRequest(f"Seat {number + 1} has no computer player", seat=number)
        seat.is_bot, seat.team, seat.is_team_leader = False, None, False
        seat.save(update_fields=["is_bot", "team", "is_team_leader"])
        return bump(game)


def choose_team(*, game_id: int, user, team: int, number: int | None = None) -> Game:
    """Put ``user``'s own seat, or the computer player in seat ``number``, on ``team``
    before the start. A computer player's team is for its creator or a seated player."""
    with locked_game(game_id) as game:
        _require_open(game)
        ruleset = ruleset_of(game.game_type)
        team = tables.checked_team(team, game.num_teams, game_name=ruleset.name)
        own = game.seats.filter(user=user).first()
        if number is None or (own is not None and own.number == number):
            if own is None:
                raise NotSeated("you have no seat at this game; sit down first")
            seat = own
        else:
            _require_host_or_seated(game, user)
            seat = game.seats.filter(number=number).first() if isinstance(number, int) else None
            if seat is None:
                raise BadRequest(f"seat must be 0 to {game.num_seats - 1}, got {number!r}")
            if not seat.is_bot:
                whose = "empty" if seat.is_empty else "another player's"
                raise Forbidden(f"Seat {number + 1} is {whose}; a team is chosen by its own player, "
                                "or for a computer player", seat=number)
        if seat.team != team:
            seat.team, seat.is_team_leader = team, False
            seat.save(update_fields=["team", "is_team_leader"])
        return bump(game)


def choose_leader(*, game_id: int, user, number: int | None) -> Game:
    """Make the player in seat ``number`` its team's leader (the one who hands out the team's
    cards); only a member of that team may choose, before the start."""
    with locked_game(game_id) as game:
        _require_open(game)
        ruleset = ruleset_of(game.game_type)
        if not game.num_teams or not tables.has_team_leaders(ruleset):
            raise BadRequest(f"this game of {ruleset.name} has no team leaders")
        if number is None:
            raise BadRequest("say which seat is to lead its team")
        seats = list(game.seats.select_for_update())
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(seats):
            raise BadRequest(f"seat must be 0 to {len(seats) - 1}, got {number!r}")
        target = seats[number]
        if target.is_empty or target.team is None:
            raise Conflict(f"Seat {number + 1} is empty; only a seated player can lead a team", seat=number)
        own = next((s for s in seats if s.user_id == user.pk), None)
        if own is None:
            raise NotSeated("you have no seat at this game; sit down first")
        if own.team != target.team:
            raise Forbidden(f"Seat {number + 1} is on {tables.team_name(target.team)}; only its own team "
                            "chooses its leader", seat=number)
        for seat in seats:
            leads = seat is target
            if seat.team == target.team and seat.is_team_leader != leads:
                seat.is_team_leader = leads
                seat.save(update_fields=["is_team_leader"])
        return bump(game)


def start_game(*, game_id: int, user) -> Game:
    """Deal and begin once every seat is filled (and, at a team table, the teams are ones
    the engine accepts); any seated player may start."""
    with locked_game(game_id) as game:
        _require_open(game)
        if not game.seats.filter(user=user).exists():
            raise NotSeated("only a seated player can start the game")
        ruleset = ruleset_of(game.game_type)
        seats = list(game.seats.all())
        problem = tables.start_problem(ruleset, num_teams=game.num_teams, players=[
            {"seat": s.number, "empty": s.is_empty, "team": s.team} for s in seats])
        if problem:
            raise Conflict(f"the game cannot start: {problem}")
        try:
            state = ruleset.new_game(**game_arguments(game, seats))
        except GameError as exc:
            raise Conflict(f"the game cannot start: {exc}") from exc
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        game.version += 1
        logged: list[ActionRecord] = []
        arrivals: list[Arrival] = []
        state = run_automatic(game, ruleset, state, logged, arrivals)
        save_state(game, ruleset, state, logged, started=True, arrivals=arrivals)
        return game


def _team_for(game: Game, team: int | None) -> int | None:
    """The team a newcomer sits on: ``team`` if given and valid, else the smallest one."""
    if team is not None:
        return tables.checked_team(team, game.num_teams, game_name=ruleset_of(game.game_type).name)
    return tables.team_for_newcomer(game.seats.exclude(team=None).values_list("team", flat=True), game.num_teams)



def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict("the game has already started" if game.status == Game.Status.ACTIVE else "the game is over")


def _require_host_or_seated(game: Game, user) -> None:
    if game.created_by_id != user.pk and not game.seats.filter(user=user).exists():
        raise Forbidden("only the game's creator or a seated player can do that")


def _empty_seat(game: Game, number: int | None) -> Seat:
    seats = list(game.seats.select_for_update())
    if number is None:
        for seat in seats:
            if seat.is_empty:
                return seat
        raise Conflict("every seat is taken")
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(seats):
        raise BadRequest(f"seat must be 0 to {len(seats) - 1}, got {number!r}")
    seat = seats[number]
    if not seat.is_empty:
        raise Conflict(f"Seat {number + 1} is taken", seat=number)
    return seat

