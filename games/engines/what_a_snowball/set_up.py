"""Setting up a game of What a Snowball!: the table made from the options, the corners' roll-off,
the corners picked and the Kids placed.
"""
from __future__ import annotations

from typing import Any

from ..base import Action, BadAction, Event, IllegalAction, State, rng_for, shown
from ..base import action_field as _field
from ..base import action_int as _int
from ..base import action_str as _str
from . import kids as K
from . import villages
from .common import (
    CARD_METHODS,
    TEAM_NAMES,
    _at,
    _deploy_problem,
    _event,
    _label,
    _p,
    _point,
    _read_roster,
)


class SetUp:
    """The set-up phases: creation, ``corners`` and ``deploy``. A part of ``engine.WhatASnowball``."""

    def new_game(self, *, players: int, options: dict[str, Any], seed: int,
                 teams: list[int] | None = None) -> State:
        options = dict(options or {})
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= self.max_players:
            raise BadAction(f"What a Snowball! seats 2-{self.max_players} players, not {shown(players)}.")
        if teams is None:
            teams = list(range(players)) if players <= 4 else None
            if teams is None:
                raise BadAction("With more than four seats, say which team each seat is on.")
        if not isinstance(teams, list) or len(teams) != players:
            raise BadAction(f'"teams" must give a team for each of the {players} seats, not {shown(teams)}.')
        if any(isinstance(t, bool) or not isinstance(t, int) for t in teams):
            raise BadAction(f'"teams" must give each seat a team number, not {shown(teams)}.')
        count = len(set(teams))
        if sorted(set(teams)) != list(range(count)) or count not in self.team_counts:
            raise BadAction(f"Teams must be numbered 0..k-1 with 2-4 teams, not {shown(teams)}.")
        village = options.get("village", villages.DEFAULT)
        if not isinstance(village, str) or village not in dict(villages.CHOICES):
            raise BadAction(f"Unknown village {shown(village)}; choose one of {', '.join(dict(villages.CHOICES))}.")
        special = options.get("special_players", False)
        if not isinstance(special, bool):
            raise BadAction(f'"special_players" must be true or false, not {shown(special)}.')
        method = options.get("ability_cards", "none")
        if not isinstance(method, str) or method not in CARD_METHODS:
            raise BadAction(f"Unknown ability-card method {shown(method)}; choose one of {', '.join(CARD_METHODS)}.")
        roster = _read_roster(options.get("kids"), players, teams, special)
        s: State = {"seed": seed, "rng_counter": 0}
        terrain = villages.village(village, rng_for(s))
        kids = {}
        for i, entry in enumerate(roster):
            kid_id = f"k{i}"
            kids[kid_id] = {
                "id": kid_id, "name": entry["name"], "seat": entry["seat"], "team": teams[entry["seat"]],
                "type": entry["type"], "traits": list(entry["traits"]), "radius": K.BASE_RADIUS, "pos": None,
                "command_dice": K.MAX_COMMAND_DICE, "snowballs": [], "aims": 0, "down": False, "prepare": 0,
                "points": 0, "home": None, "cards_for_points": 0,
            }
        deck: list[str] = []
        if method != "none":
            deck = [card for card in K.CARD_NAMES for _ in range(2 * len(kids))]
            rng_for(s).shuffle(deck)
        s.update({
            "options": {"village": village, "special_players": special, "ability_cards": method},
            "players": players,
            "seat_team": list(teams),
            "team_count": count,
            "terrain": terrain,
            "kids": kids,
            "kid_order": list(kids),
            "phase": "corners",
            "turn": 0,
            "team_order": [],
            "team_rolls": [],
            "corners": {str(t): [] for t in range(count)},
            "pick_index": 0,
            "order": [],
            "order_rolls": [],
            "next_index": 0,
            "activation": None,
            "pending": None,
            "throw": None,
            "pending_cheat": None,
            "deck": deck,
            "discards": [],
            "hands": [[] for _ in range(players)],
            "never_ask": [[] for _ in range(players)],
            "surrender_votes": [False] * players,
            "surrendered": [],
            "result": None,
        })
        events: list[Event] = []
        self._roll_off(s, events)
        self._advance(s, events)
        return s

    def _roll_off(self, s: State, events: list[Event]) -> None:
        """Every team rolls a D6; ties re-roll within the tied group; the highest picks first."""
        order, rolls = self._ordered(s, list(range(s["team_count"])), {t: 0 for t in range(s["team_count"])})
        s["team_order"] = order
        s["team_rolls"] = rolls
        words = "; ".join(", ".join(f"{TEAM_NAMES[int(t)]} {v}" for t, v in r["rolls"].items()) for r in rolls)
        _event(events, "roll_off", f"The teams roll off ({words}): {', '.join(TEAM_NAMES[t] for t in order)} "
               "pick corners in that order.", rolls=rolls, order=order)

    def _ordered(self, s: State, items: list[Any], bonus: dict[Any, int]) -> tuple[list[Any], list[dict[str, Any]]]:
        """Order items by a D6 each (plus a bonus) from highest; tied groups re-roll among themselves."""
        record: list[dict[str, Any]] = []

        def rank(group: list[Any], with_bonus: bool) -> list[Any]:
            rng = rng_for(s)
            dice = {item: rng.randint(1, 6) for item in group}
            totals = {item: dice[item] + (bonus[item] if with_bonus else 0) for item in group}
            record.append({"group": list(group), "rolls": {str(i): dice[i] for i in group},
                           "bonus": {str(i): bonus[i] for i in group} if with_bonus else {},
                           "totals": {str(i): totals[i] for i in group}})
            ordered: list[Any] = []
            for total in sorted(set(totals.values()), reverse=True):
                tied = [item for item in group if totals[item] == total]
                ordered += tied if len(tied) == 1 else rank(tied, False)
            return ordered

        return rank(items, True), record


    # corners and Kids placed

    def _do_corner(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        corner = _int(action, "corner")
        free = self._free_corners(s)
        if corner not in range(4):
            raise BadAction(f'"corner" must be 0-3 ({", ".join(villages.CORNER_NAMES)}), not {corner}.')
        if corner not in free:
            raise IllegalAction(f"The {villages.CORNER_NAMES[corner]} corner is taken; free: "
                                f"{', '.join(villages.CORNER_NAMES[c] for c in free)}.")
        self._take_corner(s, self._picking_team(s), corner, events, seat)

    def _take_corner(self, s: State, team: int, corner: int, events: list[Event], seat: int | None) -> None:
        s["corners"][str(team)] = s["corners"][str(team)] + [corner]
        s["pick_index"] += 1
        who = f"{_p(seat)} picks" if seat is not None else "takes the last corner,"
        _event(events, "corner", f"Team {TEAM_NAMES[team]}: {who} the {villages.CORNER_NAMES[corner]} corner.",
               team=team, corner=corner, seat=seat)
        picks = self._picks(s)
        if s["pick_index"] == len(picks) - 1 and len(self._free_corners(s)) == 1 and s["team_count"] == 2:
            self._take_corner(s, picks[-1], self._free_corners(s)[0], events, None)
            return
        if s["pick_index"] >= len(picks):
            s["phase"] = "deploy"
            _event(events, "phase", "Teams place their Kids, in roll-off order.", phase="deploy")

    def _do_place(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id = _str(action, "kid")
        kid = s["kids"].get(kid_id)
        if kid is None:
            raise BadAction(f"There is no Kid {shown(kid_id)}.")
        if kid["seat"] != seat:
            raise IllegalAction(f"{kid['name']} is not one of your Kids.")
        if kid["pos"] is not None:
            raise IllegalAction(f"{kid['name']} is already placed.")
        to = _point(_field(action, "to"), "to")
        problem = _deploy_problem(s, kid_id, to)
        if problem:
            raise IllegalAction(problem)
        kid["pos"] = to
        _event(events, "place", f"{_label(s, kid_id)} takes position at {_at(to)}.", kid=kid_id, to=to)
        if all(k["pos"] is not None for k in s["kids"].values()):
            if s["options"]["ability_cards"] == "method2":
                for seat_number in range(s["players"]):
                    mine = sum(1 for k in s["kids"].values() if k["seat"] == seat_number)
                    self._draw(s, seat_number, 3 if mine == 1 else mine, events, "starting hand")
            self._start_turn(s, events)
