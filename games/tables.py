"""A table's seats and teams: how many, who may start, and what the engine is told.

The waiting room's services (``games.services``) call these rules; the pages and the API
show their answers. Teams are numbered 0..k-1 as the engine sees them and named by their
colour: Red, Blue, Green, Gold... (the names What a Snowball! gives its teams too), and each
colour has a shape too (``team_mark``: a red circle, a blue square, a green triangle, a gold diamond...)
drawn beside it, so that no one needs to tell the colours apart.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from games.engines.base import GameError, Ruleset, team_counts_of
from games.errors import BadRequest

TEAM_COLOURS = ("red", "blue", "green", "gold", "purple", "teal", "orange", "pink", "brown", "grey", "navy", "olive")


TEAM_MARKS = ("circle", "square", "triangle", "diamond", "star", "plus", "triangle-down", "hexagon", "cross", "ring",
              "pentagon", "bar")


def _polygon(corners: int, radius: float, *, inner: float | None = None, turn: float = 0.0) -> str:
    """A regular polygon (or a star, with ``inner``) round the origin, first corner straight up."""
    points = []
    for k in range(corners * (2 if inner else 1)):
        r = inner if inner and k % 2 else radius
        angle = math.pi * (turn - 0.5) + 2 * math.pi * k / (corners * (2 if inner else 1))
        points.append(f"{r * math.cos(angle):.3f} {r * math.sin(angle):.3f}")
    return "M" + " L".join(points) + " Z"


MARK_PATHS = {  # each within about -1..1, y down
    "circle": "M-1 0A1 1 0 1 0 1 0A1 1 0 1 0 -1 0Z",
    "square": "M-.9 -.9H.9V.9H-.9Z",
    "triangle": "M0 -1.05L1.1 .85H-1.1Z",
    "diamond": "M0 -1.15L1.05 0L0 1.15L-1.05 0Z",
    "star": _polygon(5, 1.15, inner=.5),
    "plus": "M-.36 -1H.36V-.36H1V.36H.36V1H-.36V.36H-1V-.36H-.36Z",
    "triangle-down": "M0 1.05L1.1 -.85H-1.1Z",
    "hexagon": _polygon(6, 1.0, turn=1 / 6),
    "cross": "M-.75 -1.05L0 -.3L.75 -1.05L1.05 -.75L.3 0L1.05 .75L.75 1.05L0 .3L-.75 1.05L-1.05 .75L-.3 0L-1.05 -.75Z",
    "ring": "M-1 0A1 1 0 1 0 1 0A1 1 0 1 0 -1 0ZM-.5 0A.5 .5 0 1 1 .5 0A.5 .5 0 1 1 -.5 0Z",
    "pentagon": _polygon(5, 1.05),
    "bar": "M-1 -.42H1V.42H-1Z",
}


def team_mark(colour: str) -> str:
    """The shape a team is also told apart by, whoever cannot tell its colour: "circle" for red,
    "square" for blue... ("" for a colour that is no team's)."""
    return TEAM_MARKS[TEAM_COLOURS.index(colour)] if colour in TEAM_COLOURS else ""


def team_name(team: int) -> str:
    """"Red", "Blue"...: a team is named by its colour (a table has at most 12 teams)."""
    return team_colour(team).capitalize()


def team_colour(team: int) -> str:
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


def teams_of_table(num_teams: int) -> list[dict[str, Any]]:
    """Each team's number, name and colour, for pages and the API."""
    return [{"team": t, "name": team_name(t), "colour": team_colour(t)} for t in range(num_teams)]


def seat_count(ruleset: Ruleset, requested: int | None) -> int:
    """The table's seats: ``requested``, or the game's smallest table; BadRequest outside its range."""
    seats = ruleset.min_players if requested is None else requested
    if isinstance(seats, bool) or not isinstance(seats, int) or not ruleset.min_players <= seats <= ruleset.max_players:
        raise BadRequest(f"{ruleset.name} takes {player_range(ruleset)} players, got {seats!r}")
    return seats


def team_count(ruleset: Ruleset, requested: int | None, *, seats: int) -> int:
    """The table's teams (0: none): ``requested`` among the ruleset's ``team_counts``, or the
    only count it allows, or its smallest (none, where teams are optional); BadRequest for a
    count it does not allow."""
    allowed = team_counts_of(ruleset)
    if not allowed:
        if requested not in (None, 0):
            raise BadRequest(f"{ruleset.name} is played without teams, got teams={requested!r}")
        return 0
    teams = min(allowed) if requested is None else requested
    if isinstance(teams, bool) or not isinstance(teams, int) or teams not in allowed:
        counts = _or_list([str(c) for c in sorted(allowed)])
        raise BadRequest(f"{ruleset.name} is played with {counts} teams, got teams={requested!r}")
    if teams > seats:
        raise BadRequest(f"{teams} teams need at least {teams} seats, the table has {seats}")
    return teams


def player_range(ruleset: Ruleset) -> str:
    """"2" or "2-12": the seats a table of this game may have."""
    if ruleset.min_players == ruleset.max_players:
        return str(ruleset.min_players)
    return f"{ruleset.min_players}-{ruleset.max_players}"


def checked_team(team: Any, num_teams: int, *, game_name: str) -> int:
    """``team`` as a team number of this table; BadRequest naming the allowed ones otherwise."""
    if num_teams == 0:
        raise BadRequest(f"this game of {game_name} is played without teams")
    if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < num_teams:
        raise BadRequest(f"team must be 0 to {num_teams - 1}, got {team!r}")
    return team


def team_for_newcomer(taken: Iterable[int | None], num_teams: int) -> int | None:
    """The team a player or computer player joins unless it says otherwise: the smallest
    team so far (the lowest-numbered of those), None at a table without teams."""
    if num_teams == 0:
        return None
    sizes = Counter(team for team in taken if team is not None)
    return min(range(num_teams), key=lambda team: (sizes[team], team))


def has_team_leaders(ruleset: Ruleset) -> bool:
    """Whether each team of this game has a leader, chosen in the waiting room."""
    return bool(getattr(ruleset, "team_leader_option", None))


def team_leaders(players: list[dict[str, Any]], num_teams: int) -> list[int | None]:
    """Each team's leader: the seat its team chose (``chosen_leader``), else its lowest seat;
    None for a team with nobody yet."""
    leaders: list[int | None] = []
    for team in range(num_teams):
        members = [p for p in players if p["team"] == team and not p["empty"]]
        chosen = [p["seat"] for p in members if p.get("chosen_leader")]
        leaders.append(chosen[0] if chosen else (members[0]["seat"] if members else None))
    return leaders


def provisional_teams(num_seats: int, num_teams: int) -> list[int]:
    """A balanced split (seat i on team i mod k), to check the options at creation."""
    return [seat % num_teams for seat in range(num_seats)]


def new_game_arguments(*, players: int, options: dict[str, Any], seed: int,
                       teams: list[int] | None, leaders: dict[str, list[int | None]] | None = None) -> dict[str, Any]:
    """The keyword arguments of a ruleset's ``new_game``: ``teams`` only for a table in teams;
    ``leaders`` (``{option name: [leader of each team]}``) joins the options."""
    arguments: dict[str, Any] = {"players": players, "options": {**options, **(leaders or {})}, "seed": seed}
    if teams is not None:
        arguments["teams"] = list(teams)
    return arguments


def start_problem(ruleset: Ruleset, *, num_teams: int, players: list[dict[str, Any]]) -> str | None:
    """Why the table cannot start yet, in words, or None when it can.

    ``players`` are the seats as ``selectors.seats_summary`` lists them (``seat``, ``empty``,
    ``team``). Every seat must be filled; at a team table every team needs somebody, and
    the engine's ``check_teams`` (if it has one) must accept the split.
    """
    empty = [p["seat"] + 1 for p in players if p["empty"]]
    if empty:
        return f"Seat{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} {'are' if len(empty) > 1 else 'is'} still empty"
    if num_teams == 0:
        return None
    teams = [p["team"] for p in players]
    nobody = [team_name(t) for t in range(num_teams) if t not in teams]
    if nobody:
        return f"{' and '.join(nobody)} {'have' if len(nobody) > 1 else 'has'} nobody yet; every team needs a player"
    check = getattr(ruleset, "check_teams", None)
    if check is not None:
        try:
            check(players=len(players), teams=teams)
        except GameError as exc:
            return str(exc)
    return None


def team_count_words(ruleset: Ruleset) -> str:
    """"in 2 teams", "in 2, 3 or 4 teams", "each for themselves or in 2 teams": how a game
    may be played ("" for a game without teams)."""
    counts = team_counts_of(ruleset)
    words = [str(c) for c in sorted(counts) if c]
    if not words:
        return ""
    teams = f"in {_or_list(words)} teams"
    return f"each for themselves or {teams}" if 0 in counts else teams


def _or_list(words: list[str]) -> str:
    """"2", "0 or 2", "2, 3 or 4"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
