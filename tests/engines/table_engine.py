"""A small engine for the platform's table tests: 2-12 seats, with or without teams.

Players take turns, seat by seat, taking one or two snowballs from a pile of three per
player; whoever takes the last one wins, with their team at a team table. It keeps the
engine contract (pure, JSON-safe state, typed errors) and records the teams it was given,
so a test can see what the platform told it. Tests register it themselves
(``registered_table_engines``); the site's registry never lists it.
"""
from __future__ import annotations

import copy
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from games.engines.base import Action, BadAction, IllegalAction, NotYourTurn, Option, Prompt, State


TEAM_NAMES = ("Red", "Blue", "Green", "Gold")  # as the site names teams 0-3


class TableEngine:
    """The pile game at a table of 2-12 seats; ``team_counts`` as the contract describes."""

    name = "Snowball Pile"
    min_players = 2
    max_players = 12
    options: tuple[Option, ...] = ()
    score_unit = "snowballs"
    score_unit_one = "snowball"
    reveal_events = frozenset()

    def __init__(self, *, slug: str, team_counts: tuple[int, ...], name: str | None = None):
        self.slug = slug
        self.team_counts = team_counts
        if name:
            self.name = name

    def check_teams(self, *, players: int, teams: list[int]) -> None:
        """Teams may differ in size by one player at most."""
        sizes = Counter(teams)
        if max(sizes.values()) - min(sizes.values()) > 1:
            described = ", ".join(f"{TEAM_NAMES[t]} has {sizes[t]}" for t in sorted(sizes))
            raise IllegalAction(f"teams may differ by one player at most: {described}")

    def new_game(self, *, players: int, options: dict[str, Any], seed: int, teams: list[int] | None = None) -> State:
        if not self.min_players <= players <= self.max_players:
            raise BadAction(f"players must be {self.min_players} to {self.max_players}, got {players}")
        if options:
            raise BadAction(f"this game has no options, got {sorted(options)}")
        if teams is None:
            if self.team_counts and 0 not in self.team_counts:
                raise BadAction("this game is played in teams, but no teams were given")
        elif not self.team_counts:
            raise BadAction("this game is played without teams, but teams were given")
        else:
            if len(teams) != players:
                raise BadAction(f"teams must name one team per seat ({players}), got {teams!r}")
            count = max(teams) + 1
            if count not in self.team_counts or sorted(set(teams)) != list(range(count)):
                raise BadAction(f"teams must be 0..k-1 with k in {self.team_counts}, got {teams!r}")
            self.check_teams(players=players, teams=teams)
        return {"seed": seed, "rng_counter": 0, "players": players, "teams": teams, "pile": 3 * players,
                "turn": 0, "taken": [0] * players, "last": None}

    def to_act(self, state: State) -> dict[int, Prompt]:
        if state["pile"] == 0:
            return {}
        return {state["turn"]: Prompt(kind="turn", text="Take one or two snowballs",
                                      default={"type": "take", "count": 1})}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["pile"] == 0 or seat != state["turn"]:
            return []
        return [{"type": "take", "count": n} for n in (1, 2) if n <= state["pile"]]

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[dict[str, Any]]]:
        if not isinstance(action, dict) or action.get("type") != "take":
            raise BadAction(f'an action here is {{"type": "take", "count": 1 or 2}}, got {action!r}')
        if state["pile"] == 0 or seat != state["turn"]:
            raise NotYourTurn(f"it is {{p{state['turn']}}}'s turn")
        count = action.get("count")
        if count not in (1, 2) or isinstance(count, bool):
            raise BadAction(f"count must be 1 or 2, got {count!r}")
        if count > state["pile"]:
            raise IllegalAction(f"only {state['pile']} snowball is left")
        new = copy.deepcopy(state)
        new["pile"] -= count
        new["taken"][seat] += count
        new["last"] = seat
        new["turn"] = (seat + 1) % new["players"]
        return new, [{"type": "take", "seat": seat, "count": count, "text": f"{{p{seat}}} takes {count}"}]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"pile": state["pile"], "turn": state["turn"], "teams": state["teams"], "taken": state["taken"]}

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state["pile"] > 0:
            return None
        last = state["last"]
        if state["teams"] is None:
            winners = [last]
        else:
            winners = [s for s, team in enumerate(state["teams"]) if team == state["teams"][last]]
        scores = state["taken"]
        if state["teams"] is not None:  # each seat scores its team's total
            scores = [sum(n for s, n in enumerate(scores) if state["teams"][s] == team) for team in state["teams"]]
        return {"reason": f"{{p{last}}} took the last snowball", "winners": winners, "scores": scores}

    def bot_action(self, state: State, seat: int) -> Action:
        return {"type": "take", "count": 1}


TABLE = TableEngine(slug="table-test", team_counts=())
TEAM_TABLE = TableEngine(slug="team-table-test", team_counts=(2, 3, 4), name="Team Snowball Pile")
PAIRS_TABLE = TableEngine(slug="pairs-table-test", team_counts=(2,), name="Two-team Snowball Pile")
MAYBE_PAIRS_TABLE = TableEngine(slug="maybe-pairs-table-test", team_counts=(0, 2), name="Snowball Pile, pairs or not")
TEST_ENGINES = (TABLE, TEAM_TABLE, PAIRS_TABLE, MAYBE_PAIRS_TABLE)
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"  # their boards on the game page


@contextmanager
def registered_table_engines() -> Iterator[None]:
    """The test engines in the site's registry for the duration of the block."""
    from games import engines

    engines.all_rulesets()
    before = dict(engines._REGISTRY)
    for ruleset in TEST_ENGINES:
        engines.register(ruleset)
    try:
        yield
    finally:
        engines._REGISTRY.clear()
        engines._REGISTRY.update(before)
