"""Rule engine for "Jingle Bells WAR IS HELL SNOWMAN'S GONNA PAY" (slug ``jingle-bells``).

A game runs through these phases, kept in ``state["phase"]``:

``draft``    players alternate picking characters until each has three;
``deploy``   the first picker, then the other, places a snowman and three characters;
``dice``     each player rolls two dice per character in play, may re-roll once, then
             allocates two dice to each character, sealed until both have locked;
``actions``  players alternate spending one die at a time (or passing); hits wait for
             the target's player to react (Dodge, Robert's interception) when they can;
``return``   after the end phase, characters whose last cold token came off are placed
             on their owner's back edge, then a new turn starts at ``dice``;
``over``     a snowman took its fourth cold token, or turn ``MAX_TURNS`` ended (the house
             ruling "Turn limit").

See README.md in this package for the rulings behind each choice.
"""
from __future__ import annotations

import functools
import marshal
import math
from collections import Counter
from typing import Any

from ..base import (
    Action,
    BadAction,
    Event,
    IllegalAction,
    NotYourTurn,
    Option,
    Prompt,
    State,
    View,
    changes_only_own,
    rng_for,
    seen_by_seat_alone,
    shown,
)
from ..base import action_field as _field
from ..base import action_int as _int
from ..base import action_str as _str
from . import characters as cards
from . import layouts
from .geometry import (
    TOLERANCE,
    circles_touch,
    distance,
    placement_problem,
    sight_clear,
    sight_line,
    within,
)

WIDTH = layouts.WIDTH
HEIGHT = layouts.HEIGHT
MOVE_DISTANCE = 8.9
SNOWBALL_DISTANCE = 17.8
CHARACTER_RADIUS = 1.25
SNOWMAN_RADIUS = 1.5
TEAM_SIZE = 3
DICE_PER_CHARACTER = 2
MAX_TURNS = 300  # house ruling "Turn limit": the game ends when this turn's action phase is over
TURN_LIMIT_RULING = 'house ruling "Turn limit"'

TIMEOUTS: dict[str, float] = {
    "pick": 60, "deploy": 180, "dice": 90, "turn": 120, "followup": 60, "reaction": 15, "return": 60,
}

SEATS = (0, 1)
ACTION_TYPES = (
    "pick", "deploy", "reroll", "allocate", "lock", "throw", "move", "ability", "pass", "skip",
    "react", "return", "set_auto_dodge",
)
ALLOWED: dict[str, tuple[str, ...]] = {
    "pick": ("pick",),
    "deploy": ("deploy",),
    "reroll": ("reroll", "allocate"),
    "allocate": ("allocate", "lock"),
    "react": ("react",),
    "followup": ("move", "throw", "skip"),
    "turn": ("throw", "move", "ability", "pass"),
    "return": ("return",),
}
ASKED_WORDS: dict[str, str] = {
    "pick": "pick a character",
    "deploy": "set up a snowman and characters",
    "reroll": "choose dice to re-roll or allocate the dice",
    "allocate": "allocate the dice and lock them",
    "react": "answer a snowball thrown at a character",
    "followup": "finish a double action (a second move or throw)",
    "turn": "use a die or pass",
    "return": "place a returning character on the back edge",
}


def snowman_id(seat: int) -> str:
    return f"snowman{seat}"


def _p(seat: int) -> str:
    return "{p%d}" % seat


def _label(s: State, piece_id: str) -> str:
    """A piece in event text: "{p0}'s Paul", "{p1}'s snowman"."""
    piece = s["pieces"][piece_id]
    return f"{_p(piece['seat'])}'s {piece['name']}"


def _with_die(value: int | None, as_value: int | None) -> str:
    """How an action's die reads in the log: " with a 5", " with a 4 as a 5" (Stephen), or,
    for the second half of a double, which uses no die of its own, " again, for the double"."""
    if value is None:
        return " again, for the double"
    if as_value is not None:
        return f" with a {value} as a {as_value}"
    return f" with a {value}"


def _event(events: list[Event], kind: str, text: str, **data: Any) -> None:
    events.append({"type": kind, "text": text, **data})


def _copy(state: State) -> State:
    """A copy ``apply`` may change freely. Written out by hand because it runs on every action,
    and it copies only what an action in the state's phase can change; the rest is shared with
    ``state`` (nothing changes it in place):

    * the obstructions and options never change, and a piece's position is replaced when it
      moves, never changed in place;
    * the pool and the teams change only in the draft (``_do_pick``);
    * each seat's dice record changes in place only in the dice phase (re-roll, allocate, lock,
      reveal); a new turn replaces the records with new ones, so outside that phase only the
      list holding them is copied.
    """
    s = dict(state)
    phase = state["phase"]
    if phase == "draft":
        s["pool"] = list(state["pool"])
        s["teams"] = [list(team) for team in state["teams"]]
    s["pieces"] = {pid: {**p, "dice": list(p["dice"])} for pid, p in state["pieces"].items()}
    if phase == "dice":
        s["dice"] = [
            {**d, "rolled": list(d["rolled"]),
             "allocation": None if d["allocation"] is None else {k: list(v) for k, v in d["allocation"].items()}}
            for d in state["dice"]
        ]
    else:
        s["dice"] = list(state["dice"])
    s["returning"] = [list(r) for r in state["returning"]]
    s["auto_dodge"] = list(state["auto_dodge"])
    for key in ("pending", "followup", "result"):
        if state[key] is not None:
            s[key] = marshal.loads(marshal.dumps(state[key]))
    return s


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _cm(value: float) -> str:
    return f"{value:.1f} cm"


def _move_words(label: str, gap: float, value: int | None, as_value: int | None) -> str:
    """A move's log line: how far and with which die ("moves 5.0 cm with a 4"), or, for a move
    that goes nowhere as the log measures it (0.0 cm), that it stays put (ruling 4: any spot
    within 1 Move, its own included; a double's second move, ruling 7)."""
    if _cm(gap) != _cm(0.0):
        return f"{label} moves {_cm(gap)}{_with_die(value, as_value)}."
    if value is None:
        return f"{label} stays put for the second move of the double."
    return f"{label} stays put{_with_die(value, as_value)}."


def _at(point: Any) -> str:
    return f"({point[0]:.1f}, {point[1]:.1f})"


# --- reading actions -------------------------------------------------------------------

def _point(value: Any, key: str) -> list[float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not (_is_coordinate(value[0])
                                                                        and _is_coordinate(value[1])):
        raise BadAction(f'"{key}" must be a point [x, y] in centimetres, not {shown(value)}.')
    return [float(value[0]), float(value[1])]


def _is_coordinate(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def _die_list(value: Any, key: str) -> list[int]:
    if not isinstance(value, list) or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in value
    ):
        raise BadAction(f'"{key}" must be a list of die values 1-6, not {shown(value)}.')
    return value


# --- queries over a state ---------------------------------------------------------------

def _team_in_play(s: State, seat: int) -> list[str]:
    return [name for name in s["teams"][seat] if s["pieces"][name]["pos"] is not None]


def _enemy_targets(s: State, seat: int) -> list[str]:
    return _team_in_play(s, 1 - seat) + [snowman_id(1 - seat)]


def _gap(s: State, a: str, b: str) -> float:
    return distance(s["pieces"][a]["pos"], s["pieces"][b]["pos"])


def _in_range(s: State, a: str, b: str, limit: float) -> bool:
    """``within(_gap(s, a, b), limit)`` in one step: the check runs thousands of times a game."""
    pa, pb = s["pieces"][a]["pos"], s["pieces"][b]["pos"]
    return math.hypot(pa[0] - pb[0], pa[1] - pb[1]) <= limit + TOLERANCE


def line_of_sight(state: State, from_id: str, to_id: str) -> dict[str, Any]:
    """Sight line between two pieces' centres: {"clear", "blocker", "distance"}.

    Any other character, snowman or obstruction blocks. A piece off the table (not yet
    placed, or run away) sees nothing: {"clear": False, "blocker": None, "distance": None}.
    """
    pieces = state["pieces"]
    for piece_id in (from_id, to_id):
        if piece_id not in pieces:
            raise KeyError(f"no piece called {shown(piece_id)}")
    if pieces[from_id]["pos"] is None or pieces[to_id]["pos"] is None:
        return {"clear": False, "blocker": None, "distance": None}
    return sight_line(pieces, state["obstructions"], from_id, to_id)


def _describe_blocker(s: State, blocker: str) -> str:
    if blocker in s["pieces"]:
        return _label(s, blocker)
    label = next(o["label"] for o in s["obstructions"] if o["id"] == blocker)
    return f"the {label} ({blocker})"


def _reach_problem(s: State, from_id: str, to_id: str, limit: float, limit_name: str) -> str | None:
    """Why ``from_id`` cannot reach ``to_id`` (too far, no line of sight), in player words; None when it can."""
    sight = sight_line(s["pieces"], s["obstructions"], from_id, to_id)
    a, b = s["pieces"][from_id]["name"], s["pieces"][to_id]["name"]
    if not within(sight["distance"], limit):
        return f"{b} is {sight['distance']:.1f} cm from {a}; {limit_name} is {limit} cm."
    if not sight["clear"]:
        return f"{a} cannot see {b}: {_describe_blocker(s, sight['blocker'])} is in the way."
    return None


def _reachable(s: State, from_id: str, to_id: str, limit: float) -> bool:
    if not _in_range(s, from_id, to_id, limit):
        return False
    return sight_clear(s["pieces"], s["obstructions"], from_id, to_id)


def _reachable_targets(s: State, seat: int, name: str, targets: list[str] | None = None) -> list[str]:
    """The enemy pieces ``name`` can throw at: within Snowball distance and in sight.

    The same as ``[t for t in targets if _reachable(s, name, t, SNOWBALL_DISTANCE)]``, with the
    distance test written out since most targets fail it. ``targets`` defaults to
    :func:`_enemy_targets`; callers asking for several characters pass it once.
    """
    pieces = s["pieces"]
    x, y = pieces[name]["pos"]
    limit = SNOWBALL_DISTANCE + TOLERANCE
    found = []
    for target in _enemy_targets(s, seat) if targets is None else targets:
        tx, ty = pieces[target]["pos"]
        if math.hypot(x - tx, y - ty) <= limit and sight_clear(pieces, s["obstructions"], name, target):
            found.append(target)
    return found


def _uses(name: str, value: int) -> list[tuple[int | None, str]]:
    options: list[tuple[int | None, str]] = [(None, cards.face(name, value))]
    if name == "Stephen":
        options += [(v, cards.face(name, v)) for v in (value - 1, value + 1) if 1 <= v <= 6]
    return options


DIE_USES: dict[str, dict[int, list[tuple[int | None, str]]]] = {
    name: {value: _uses(name, value) for value in range(1, 7)} for name in cards.NAMES
}
"""(as, face) pairs a die can be used as: its own face and, for Stephen, one higher or lower."""
MOVE_VALUES = {name: {v for v, uses in table.items() if any(f in ("M", "MM") for _, f in uses)}
               for name, table in DIE_USES.items()}
DIE_USE_FIELDS: dict[str, dict[int, list[tuple[dict[str, int], str]]]] = {
    name: {value: [({"die": value} if as_value is None else {"die": value, "as": as_value}, symbol)
                   for as_value, symbol in uses] for value, uses in table.items()}
    for name, table in DIE_USES.items()
}
"""DIE_USES as the action fields naming the die ({"die"} or {"die", "as"}); only ever copied from."""
THROW_VALUES = {name: {v for v, uses in table.items() if any(f in ("T", "TT") for _, f in uses)}
                for name, table in DIE_USES.items()}


def _dodge_dice(s: State, target: str) -> list[dict[str, int]]:
    piece = s["pieces"][target]
    if piece["kind"] != "character":
        return []
    found = []
    for value in sorted(set(piece["dice"])):
        for as_value, symbol in DIE_USES[target][value]:
            if symbol == "D":
                found.append({"die": value} if as_value is None else {"die": value, "as": as_value})
    return found


def _interceptor(s: State, defender: int, target: str) -> str | None:
    """Robert, when he can take a hit meant for ``target``."""
    if "Robert" not in s["teams"][defender] or target == "Robert":
        return None
    robert = s["pieces"]["Robert"]
    if robert["pos"] is None or not robert["dice"] or not _in_range(s, "Robert", target, MOVE_DISTANCE):
        return None
    return "Robert"


def _reaction_options(s: State, defender: int, target: str) -> list[Action]:
    options = [{"type": "react", "choice": "dodge", **d} for d in _dodge_dice(s, target)]
    if _interceptor(s, defender, target):
        options += [{"type": "react", "choice": "intercept", "die": v} for v in sorted(set(s["pieces"]["Robert"]["dice"]))]
    return options


ABILITY_NAMES = frozenset({"Bianca", "Natasha", "Emily", "Paul"})
"""The characters whose card Action is an action of its own ("ability")."""


def _has_active_option(s: State, seat: int) -> bool:
    """Whether the seat can do anything but pass with the dice it has left."""
    pieces = s["pieces"]
    armed = [name for name in _team_in_play(s, seat) if pieces[name]["dice"]]
    for name in armed:
        if not MOVE_VALUES[name].isdisjoint(pieces[name]["dice"]):
            return True
    targets = _enemy_targets(s, seat)
    for name in armed:
        if not THROW_VALUES[name].isdisjoint(pieces[name]["dice"]) and _reachable_targets(s, seat, name, targets):
            return True
    return any(_ability_options(s, seat, name) for name in armed if name in ABILITY_NAMES)


def _second_half_actions(s: State, seat: int) -> list[Action]:
    """The legal second halves of a double symbol (ruling 7): a move always exists (staying
    put is a move); a second throw exists while a target is in reach."""
    f = s["followup"]
    if f["kind"] == "move":
        return [{"type": "move", "character": f["character"], **_move_region(s, f["character"])}]
    return [{"type": "throw", "character": f["character"], "target": t}
            for t in _reachable_targets(s, seat, f["character"])]


def _second_half_default(s: State, *, options: list[Action]) -> Action:
    """What a missed deadline does with a double's second half: stay put, or throw at the
    first target in reach."""
    first = options[0]
    if first["type"] == "move":
        return {"type": "move", "character": first["character"], "to": list(s["pieces"][first["character"]]["pos"])}
    return {"type": "throw", "character": first["character"], "target": first["target"]}


def _ability_options(s: State, seat: int, name: str, throw_targets: list[str] | None = None) -> list[Action]:
    """Legal uses of a character's card Action (Robert's and Stephen's are not separate actions).

    ``throw_targets``, when the caller has it, is :func:`_reachable_targets` for ``name``.
    """
    piece = s["pieces"][name]
    if name not in ABILITY_NAMES or not piece["dice"] or piece["pos"] is None:
        return []
    dice = sorted(set(piece["dice"]))
    found: list[Action] = []
    if name == "Bianca":
        for other in s["pieces"]:
            p = s["pieces"][other]
            if other == name:
                if len(piece["dice"]) >= 2:
                    found += [{"type": "ability", "character": name, "die": v, "target": name} for v in dice]
            elif p["kind"] == "character" and p["pos"] is not None and p["dice"] \
                    and _in_range(s, name, other, MOVE_DISTANCE):
                found += [{"type": "ability", "character": name, "die": v, "target": other} for v in dice]
    elif name == "Natasha":
        for mate in _team_in_play(s, seat):
            if mate != name and _in_range(s, name, mate, MOVE_DISTANCE):
                found += [{"type": "ability", "character": name, "die": v, "with": mate} for v in dice]
    elif name == "Emily":
        snowman = snowman_id(1 - seat)
        if _reachable(s, name, snowman, MOVE_DISTANCE):
            found += [{"type": "ability", "character": name, "die": v, "target": snowman} for v in dice]
    elif name == "Paul":
        fours_fives = sorted(v for v in piece["dice"] if v in (4, 5))
        pairs = sorted({(a, b) for i, a in enumerate(fours_fives) for b in fours_fives[i + 1:]})
        if pairs:
            for target in _reachable_targets(s, seat, name) if throw_targets is None else throw_targets:
                found += [{"type": "ability", "character": name, "dice": list(pair), "target": target}
                          for pair in pairs]
    return found


# --- placement helpers --------------------------------------------------------------------

def _problem_words(s: State, who: str, problem: str) -> str:
    if problem == "outside":
        return f"{who} would stick out of the play area"
    return f"{who} would overlap {_describe_blocker(s, problem)}"


def _edge_x(seat: int, radius: float) -> float:
    """The x of a base touching ``seat``'s own (back) edge."""
    return radius if seat == 0 else WIDTH - radius


def _edge_distance(seat: int, point: list[float]) -> float:
    return point[0] if seat == 0 else WIDTH - point[0]


def _avoid_list(s: State, radius: float, ignore: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Shapes a base of ``radius`` must keep its centre out of, for UIs and bots."""
    shapes: list[dict[str, Any]] = [
        {"kind": "circle", "id": pid, "center": list(p["pos"]), "radius": radius + p["radius"]}
        for pid, p in s["pieces"].items() if p["pos"] is not None and pid not in ignore
    ]
    shapes += [{"kind": "polygon", "id": o["id"], "points": o["points"], "clearance": radius} for o in s["obstructions"]]
    return shapes


def auto_deployment(s: State, seat: int) -> Action | None:
    """A legal deployment: snowman near the middle of the seat's edge, characters on its enemy side."""
    pieces = {pid: p for pid, p in s["pieces"].items() if p["pos"] is not None}
    facing = 0.0 if seat == 0 else math.pi
    contact = SNOWMAN_RADIUS + CHARACTER_RADIUS
    team = s["teams"][seat]
    for dy in (0, 3, -3, 6, -6, 9, -9, 11, -11):
        for depth in (5.0, 3.0, 7.0):
            snow = [_edge_x(seat, depth), HEIGHT / 2 + dy]
            if placement_problem(pieces, s["obstructions"], WIDTH, HEIGHT, snow, SNOWMAN_RADIUS):
                continue
            placed = dict(pieces)
            placed["_snow"] = {"pos": snow, "radius": SNOWMAN_RADIUS}
            spots: dict[str, list[float]] = {}
            for step in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, 6):
                if len(spots) == len(team):
                    break
                angle = facing + step * math.pi / 6
                spot = [round(snow[0] + contact * math.cos(angle), 4), round(snow[1] + contact * math.sin(angle), 4)]
                if not placement_problem(placed, s["obstructions"], WIDTH, HEIGHT, spot, CHARACTER_RADIUS):
                    name = team[len(spots)]
                    spots[name] = spot
                    placed[name] = {"pos": spot, "radius": CHARACTER_RADIUS}
            if len(spots) == len(team):
                return {"type": "deploy", "snowman": snow, "characters": spots}
    return None


def free_back_edge_y(s: State, seat: int) -> float | None:
    """The free spot (tried every 0.25 cm) on the seat's back edge nearest its snowman, or None."""
    x = _edge_x(seat, CHARACTER_RADIUS)
    snow = s["pieces"][snowman_id(seat)]["pos"]
    return next((y for y in _back_edge_ys(snow[1]) if not placement_problem(
        s["pieces"], s["obstructions"], WIDTH, HEIGHT, [x, y], CHARACTER_RADIUS)), None)


@functools.lru_cache(maxsize=64)
def _back_edge_ys(snowman_y: float) -> tuple[float, ...]:
    """The spots tried on a back edge, every 0.25 cm, nearest the snowman's y first (ties: lower y)."""
    low, high = CHARACTER_RADIUS, HEIGHT - CHARACTER_RADIUS
    ys = (low + 0.25 * i for i in range(int((high - low) / 0.25) + 1))
    return tuple(sorted(ys, key=lambda y: (abs(y - snowman_y), y)))


def _move_region(s: State, name: str, avoid: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Where ``name`` may move to: a disc, the area's bounds for its centre, and shapes to keep out of."""
    r = s["pieces"][name]["radius"]
    return {
        "center": list(s["pieces"][name]["pos"]),
        "radius": MOVE_DISTANCE,
        "piece_radius": r,
        "bounds": [r, r, WIDTH - r, HEIGHT - r],
        "must_avoid": _avoid_list(s, r, ignore=(name,)) if avoid is None else avoid,
    }


def _auto_allocation(s: State, seat: int) -> dict[str, list[int]]:
    """Highest dice first, two to each character in team order: a fair default for a timeout."""
    dice = sorted(s["dice"][seat]["rolled"], reverse=True)
    names = _team_in_play(s, seat)
    return {name: sorted(dice[2 * i:2 * i + 2]) for i, name in enumerate(names)}


# --- the ruleset -------------------------------------------------------------------------

class JingleBells:
    """Ruleset for the two-player dice skirmish; see the module docstring for the phases."""

    slug = "jingle-bells"
    name = "Jingle Bells WAR IS HELL SNOWMAN'S GONNA PAY"
    score_unit = "cold tokens on the enemy snowman"
    score_unit_one = "cold token on the enemy snowman"
    reveal_events = frozenset({"reveal"})
    ready_action = {"type": "lock"}  # allocated dice are revisable until locked
    min_players = 2
    max_players = 2
    options = (
        Option(
            name="layout",
            label="Table layout",
            kind="choice",
            default=layouts.DEFAULT,
            choices=layouts.CHOICES,
            help="Where the 6-8 obstructions stand on the 50 x 30 cm table; a random table is drawn when the game starts.",
        ),
    )

    # -- creation ---------------------------------------------------------------------

    def new_game(self, *, players: int, options: dict[str, Any], seed: int) -> State:
        if players != 2:
            raise BadAction(f"Jingle Bells is for exactly 2 players, not {players}.")
        layout = (options or {}).get("layout", layouts.DEFAULT)
        if not isinstance(layout, str) or layout not in dict(layouts.CHOICES):
            raise BadAction(f"Unknown table layout {shown(layout)}; choose one of {', '.join(dict(layouts.CHOICES))}.")
        s: State = {"seed": seed, "rng_counter": 0}
        rng = rng_for(s)
        first = rng.randint(0, 1)
        s.update({
            "options": {"layout": layout},
            "obstructions": layouts.layout(layout, rng_for(s)),
            "phase": "draft",
            "turn": 0,
            "first_picker": first,
            "pool": list(cards.NAMES),
            "picker": first,
            "teams": [[], []],
            "pieces": {
                snowman_id(seat): {
                    "kind": "snowman", "seat": seat, "name": "snowman", "pos": None,
                    "radius": SNOWMAN_RADIUS, "cold": 0, "dice": [],
                }
                for seat in SEATS
            },
            "deploying": first,
            "dice": [self._no_dice(), self._no_dice()],
            "first_actor": None,
            "to_move": None,
            "passes": 0,
            "pending": None,
            "followup": None,
            "returning": [[], []],
            "auto_dodge": [False, False],
            "result": None,
        })
        return s

    @staticmethod
    def _no_dice() -> dict[str, Any]:
        return {"rolled": [], "rerolled": False, "stage": "idle", "allocation": None}

    # -- who is asked -----------------------------------------------------------------

    def _asked(self, s: State) -> dict[int, str]:
        phase = s["phase"]
        if phase == "draft":
            return {s["picker"]: "pick"}
        if phase == "deploy":
            return {s["deploying"]: "deploy"}
        if phase == "dice":
            return {seat: d["stage"] for seat, d in enumerate(s["dice"]) if d["stage"] in ("reroll", "allocate")}
        if phase == "actions":
            if s["pending"] is not None:
                return {1 - s["pending"]["attacker"]: "react"}
            if s["followup"] is not None:
                return {s["followup"]["seat"]: "followup"}
            return {s["to_move"]: "turn"}
        if phase == "return":
            return {seat: "return" for seat in SEATS if s["returning"][seat]}
        return {}

    def to_act(self, state: State) -> dict[int, Prompt]:
        return {seat: self._prompt(state, seat, kind) for seat, kind in self._asked(state).items()}

    def _prompt(self, s: State, seat: int, kind: str) -> Prompt:
        if kind == "pick":
            return Prompt("turn", "Pick a character for your team.", TIMEOUTS["pick"],
                          {"type": "pick", "character": s["pool"][0]}, {"pool": list(s["pool"])})
        if kind == "deploy":
            return Prompt("turn", f"Place your snowman within 1 Move ({MOVE_DISTANCE} cm) of your edge and your "
                          "three characters touching it.", TIMEOUTS["deploy"], auto_deployment(s, seat))
        if kind in ("reroll", "allocate"):
            dice = s["dice"][seat]
            allocation = dice["allocation"] or _auto_allocation(s, seat)
            default = {"type": "allocate", "allocation": allocation, "lock": True}
            if kind == "reroll":
                return Prompt("turn", "Choose any dice to re-roll once (or none), then put two dice on each "
                              "character.", TIMEOUTS["dice"], default)
            return Prompt("sealed", "Put two dice on each character and lock them. Your opponent sees your "
                          "choice only when both of you have locked.", TIMEOUTS["dice"], default)
        if kind == "react":
            return self._reaction_prompt(s, seat)
        if kind == "followup":
            f = s["followup"]
            verb = "move" if f["kind"] == "move" else "throw"
            seconds = _second_half_actions(s, seat)
            if not seconds:
                return Prompt("effect", f"{f['character']} has no target for a second throw: skip it.",
                              TIMEOUTS["followup"], {"type": "skip"}, {"character": f["character"], "action": verb})
            return Prompt("effect", f"{f['character']} must {verb} a second time.", TIMEOUTS["followup"],
                          _second_half_default(s, options=seconds), {"character": f["character"], "action": verb})
        if kind == "turn":
            return Prompt("turn", "Your turn: use one die on one character card, or pass.", TIMEOUTS["turn"],
                          {"type": "pass"})
        name = s["returning"][seat][0]
        y = free_back_edge_y(s, seat)
        default = {"type": "return", "character": name, "y": y} if y is not None else None
        return Prompt("effect", f"{name} comes back: place them on your back edge.", TIMEOUTS["return"], default,
                      {"characters": list(s["returning"][seat])})

    def _reaction_prompt(self, s: State, seat: int) -> Prompt:
        p = s["pending"]
        options = _reaction_options(s, seat, p["target"])
        dodges = [o for o in options if o["choice"] == "dodge"]
        default = dodges[0] if dodges and s["auto_dodge"][seat] else {"type": "react", "choice": "take"}
        target = s["pieces"][p["target"]]["name"]
        ways = []
        if dodges:
            ways.append("Dodge")
        if any(o["choice"] == "intercept" for o in options):
            ways.append("let Robert take it")
        hit_word = f"hit {p['hits_done'] + 1} of {p['hits_total']}" if p["hits_total"] > 1 else "a snowball"
        text = f"{p['thrower']} throws at {target} ({hit_word}): {' or '.join(ways)}, or take the hit?"
        return Prompt("reaction", text, TIMEOUTS["reaction"], default,
                      {"target": p["target"], "thrower": p["thrower"], "options": options + [{"type": "react", "choice": "take"}]})

    # -- legal actions ----------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        s = state
        if seat not in SEATS:
            return []
        found: list[Action] = []
        kind = self._asked(s).get(seat)
        if kind == "pick":
            found = [{"type": "pick", "character": name} for name in s["pool"]]
        elif kind == "deploy":
            found = [self._deploy_region(s, seat)]
        elif kind in ("reroll", "allocate"):
            dice = s["dice"][seat]
            if kind == "reroll":
                found.append({"type": "reroll", "from": list(dice["rolled"])})
            found.append({"type": "allocate", "dice": list(dice["rolled"]), "characters": _team_in_play(s, seat),
                          "per_character": DICE_PER_CHARACTER})
            if kind == "allocate" and dice["allocation"] is not None:
                found.append({"type": "lock"})
        elif kind == "react":
            found = _reaction_options(s, seat, s["pending"]["target"]) + [{"type": "react", "choice": "take"}]
        elif kind == "followup":
            found = _second_half_actions(s, seat) or [{"type": "skip"}]
        elif kind == "turn":
            found = self._turn_actions(s, seat)
        elif kind == "return":
            x = _edge_x(seat, CHARACTER_RADIUS)
            example = free_back_edge_y(s, seat)
            for name in s["returning"][seat]:
                found.append({"type": "return", "character": name, "x": x,
                              "y_range": [CHARACTER_RADIUS, HEIGHT - CHARACTER_RADIUS], "radius": CHARACTER_RADIUS,
                              "must_avoid": _avoid_list(s, CHARACTER_RADIUS), "example_y": example})
        if s["phase"] != "over":
            found.append({"type": "set_auto_dodge", "on": not s["auto_dodge"][seat]})
        return found

    def _deploy_region(self, s: State, seat: int) -> Action:
        x_low, x_high = (SNOWMAN_RADIUS, MOVE_DISTANCE) if seat == 0 else (WIDTH - MOVE_DISTANCE, WIDTH - SNOWMAN_RADIUS)
        return {
            "type": "deploy",
            "snowman": {"radius": SNOWMAN_RADIUS, "bounds": [x_low, SNOWMAN_RADIUS, x_high, HEIGHT - SNOWMAN_RADIUS]},
            "characters": list(s["teams"][seat]),
            "character_radius": CHARACTER_RADIUS,
            "contact_distance": SNOWMAN_RADIUS + CHARACTER_RADIUS,
            "must_avoid": _avoid_list(s, 0.0),
            "example": auto_deployment(s, seat),
        }

    def _turn_actions(self, s: State, seat: int) -> list[Action]:
        found: list[Action] = []
        targets = _enemy_targets(s, seat)
        avoid = _avoid_list(s, CHARACTER_RADIUS)
        for name in _team_in_play(s, seat):
            dice = sorted(set(s["pieces"][name]["dice"]))
            if not dice:
                continue
            reachable: list[str] | None = None
            region: dict[str, Any] | None = None
            for value in dice:
                for use, symbol in DIE_USE_FIELDS[name][value]:
                    if symbol in ("M", "MM"):
                        region = region or _move_region(s, name, [x for x in avoid if x["id"] != name])
                        found.append({"type": "move", "character": name, **use, "twice": symbol == "MM", **region})
                    elif symbol in ("T", "TT"):
                        if reachable is None:
                            reachable = _reachable_targets(s, seat, name, targets)
                        found += [{"type": "throw", "character": name, **use, "target": t} for t in reachable]
            found += _ability_options(s, seat, name, reachable)
        found.append({"type": "pass"})
        return found

    # -- applying actions -------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadAction('An action must be an object with a "type".')
        kind = action["type"]
        if kind not in ACTION_TYPES:
            raise BadAction(f"Unknown action {shown(kind)}; this game knows {', '.join(ACTION_TYPES)}.")
        if seat not in SEATS:
            raise NotYourTurn("Only the two players can act in this game.")
        s = _copy(state)
        events: list[Event] = []
        if kind == "set_auto_dodge":
            self._set_auto_dodge(s, seat, action, events)
        else:
            if s["phase"] == "over":
                raise IllegalAction("The game is over.")
            asked = self._asked(s)
            if seat not in asked:
                waiting = ", ".join(f"{_p(other)} to {ASKED_WORDS[k]}" for other, k in asked.items())
                raise NotYourTurn(f"It is not your turn: waiting for {waiting}.")
            if kind not in ALLOWED[asked[seat]]:
                raise IllegalAction(f"You cannot {kind} now: you are asked to {ASKED_WORDS[asked[seat]]}.")
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        self._advance(s, events)
        return s, events

    @staticmethod
    def private_action(before: State, after: State, seat: int, action: Action, events: list[Event]) -> bool:
        """Dice allocated again before the lock, or the automatic dodge switched with nothing to
        dodge now: only their player sees the allocation or the setting."""
        if action.get("type") == "allocate":
            return (before["dice"][seat]["allocation"] is not None
                    and changes_only_own(before, after, seat, ("dice",)) and seen_by_seat_alone(events, seat))
        return (action.get("type") == "set_auto_dodge" and changes_only_own(before, after, seat, ("auto_dodge",))
                and seen_by_seat_alone(events, seat))

    def _set_auto_dodge(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        on = _field(action, "on")
        if not isinstance(on, bool):
            raise BadAction(f'"on" must be true or false, not {shown(on)}.')
        s["auto_dodge"][seat] = on  # a setting, not a game event: no log line (its checkbox shows it)
        p = s["pending"]
        if on and p is not None and 1 - p["attacker"] == seat:
            self._resolve_hits(s, events)

    # draft and deployment

    def _do_pick(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        name = _str(action, "character")
        if name not in s["pool"]:
            taken = name in cards.NAMES
            raise IllegalAction(f"{name} has already been picked." if taken else
                                f"There is no character called {shown(name)}; choose from {', '.join(s['pool'])}.")
        s["pool"].remove(name)
        s["teams"][seat].append(name)
        s["pieces"][name] = {"kind": "character", "seat": seat, "name": name, "pos": None,
                             "radius": CHARACTER_RADIUS, "cold": 0, "dice": []}
        _event(events, "pick", f"{_p(seat)} picks {name}.", seat=seat, character=name)
        if all(len(team) == TEAM_SIZE for team in s["teams"]):
            s["phase"] = "deploy"
            s["deploying"] = s["first_picker"]
            _event(events, "phase", f"{_p(s['first_picker'])} sets up first.", phase="deploy")
        else:
            s["picker"] = 1 - seat

    def _do_deploy(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        snow = _point(_field(action, "snowman"), "snowman")
        placed = _field(action, "characters")
        team = s["teams"][seat]
        if not isinstance(placed, dict) or sorted(placed) != sorted(team):
            raise BadAction(f'"characters" must give a point for each of {", ".join(team)}.')
        spots = {name: _point(placed[name], name) for name in team}
        gap = _edge_distance(seat, snow)
        if not within(gap, MOVE_DISTANCE):
            raise IllegalAction(f"The snowman at {_at(snow)} is {_cm(gap)} from your edge; it must be within 1 Move "
                                f"({MOVE_DISTANCE} cm).")
        pieces = dict(s["pieces"])
        problem = placement_problem(pieces, s["obstructions"], WIDTH, HEIGHT, snow, SNOWMAN_RADIUS)
        if problem:
            raise IllegalAction(f"The snowman at {_at(snow)}: {_problem_words(s, 'it', problem)}.")
        pieces[snowman_id(seat)] = dict(pieces[snowman_id(seat)], pos=snow)
        for name, spot in spots.items():
            if not circles_touch(spot, CHARACTER_RADIUS, snow, SNOWMAN_RADIUS):
                raise IllegalAction(
                    f"{name} must touch the snowman: centres {distance(spot, snow):.2f} cm apart, contact is "
                    f"{SNOWMAN_RADIUS + CHARACTER_RADIUS} cm.")
            problem = placement_problem(pieces, s["obstructions"], WIDTH, HEIGHT, spot, CHARACTER_RADIUS)
            if problem:
                raise IllegalAction(f"{name} at {_at(spot)}: {_problem_words(s, name, problem)}.")
            pieces[name] = dict(pieces[name], pos=spot)
        s["pieces"][snowman_id(seat)]["pos"] = snow
        for name, spot in spots.items():
            s["pieces"][name]["pos"] = spot
        _event(events, "deploy", f"{_p(seat)} sets up their snowman and {', '.join(team)}.", seat=seat,
               snowman=snow, characters=spots)
        if s["pieces"][snowman_id(1 - seat)]["pos"] is None:
            s["deploying"] = 1 - seat
        else:
            self._start_turn(s, events)

    # dice

    def _start_turn(self, s: State, events: list[Event]) -> None:
        s["turn"] += 1
        s["phase"] = "dice"
        s["first_actor"] = s["to_move"] = None
        s["passes"] = 0
        _event(events, "turn", f"Turn {s['turn']} begins.", turn=s["turn"])
        for seat in SEATS:
            names = _team_in_play(s, seat)
            rng = rng_for(s)
            rolled = sorted(rng.randint(1, 6) for _ in range(DICE_PER_CHARACTER * len(names)))
            s["dice"][seat] = {"rolled": rolled, "rerolled": False, "stage": "reroll" if names else "locked",
                               "allocation": None if names else {}}
            if names:
                _event(events, "roll", f"{_p(seat)} rolls {', '.join(map(str, rolled))}.", seat=seat, dice=rolled)
            else:
                _event(events, "roll", f"{_p(seat)} has nobody on the field and rolls no dice.", seat=seat, dice=[])

    def _do_reroll(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        chosen = _die_list(_field(action, "dice"), "dice")
        dice = s["dice"][seat]
        missing = Counter(chosen) - Counter(dice["rolled"])
        if missing:
            raise IllegalAction(f"You cannot re-roll {', '.join(map(str, sorted(missing.elements())))}: "
                                f"your dice show {', '.join(map(str, dice['rolled']))}.")
        kept = list((Counter(dice["rolled"]) - Counter(chosen)).elements())
        rng = rng_for(s)
        new = [rng.randint(1, 6) for _ in chosen]
        dice["rolled"] = sorted(kept + new)
        dice["rerolled"] = True
        dice["stage"] = "allocate"
        if chosen:
            _event(events, "reroll", f"{_p(seat)} re-rolls {', '.join(map(str, sorted(chosen)))} and gets "
                   f"{', '.join(map(str, new))}.", seat=seat, rerolled=sorted(chosen), results=new, dice=dice["rolled"])
        else:
            _event(events, "reroll", f"{_p(seat)} keeps their dice.", seat=seat, rerolled=[], results=[],
                   dice=dice["rolled"])
        if len(_team_in_play(s, seat)) == 1:
            dice["allocation"] = _auto_allocation(s, seat)
            self._lock(s, seat, events)

    def _do_allocate(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        allocation = _field(action, "allocation")
        lock = action.get("lock", False)
        if not isinstance(lock, bool):
            raise BadAction(f'"lock" must be true or false, not {shown(lock)}.')
        names = _team_in_play(s, seat)
        if not isinstance(allocation, dict) or sorted(allocation) != sorted(names):
            raise BadAction(f'"allocation" must give two dice to each of {", ".join(names)}.')
        for name in names:
            values = _die_list(allocation[name], name)
            if len(values) != DICE_PER_CHARACTER:
                raise IllegalAction(f"{name} must get exactly two dice, not {len(values)}.")
        rolled = s["dice"][seat]["rolled"]
        given = sorted(v for name in names for v in allocation[name])
        if given != rolled:
            raise IllegalAction(f"Your allocation uses {', '.join(map(str, given))} but your dice show "
                                f"{', '.join(map(str, rolled))}.")
        dice = s["dice"][seat]
        revised = dice["allocation"] is not None
        dice["allocation"] = {name: sorted(allocation[name]) for name in names}
        dice["stage"] = "allocate"
        _event(events, "allocate", f"You put {'; '.join(f'{n}: {a} and {b}' for n, (a, b) in dice['allocation'].items())}.",
               seat=seat, allocation=dice["allocation"], visible_to=[seat])
        if lock:
            self._lock(s, seat, events)
        elif not revised:  # a revision, like the screen's dice moved behind it, is nobody else's to count
            _event(events, "allocated", f"{_p(seat)} has chosen an allocation.", seat=seat)

    def _do_lock(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if s["dice"][seat]["allocation"] is None:
            raise IllegalAction("Allocate your dice before locking them.")
        self._lock(s, seat, events)

    def _lock(self, s: State, seat: int, events: list[Event]) -> None:
        s["dice"][seat]["stage"] = "locked"
        _event(events, "lock", f"{_p(seat)} locks their dice.", seat=seat)

    def _reveal(self, s: State, events: list[Event]) -> None:
        totals = []
        for seat in SEATS:
            dice = s["dice"][seat]
            dice["stage"] = "revealed"
            for name, values in dice["allocation"].items():
                s["pieces"][name]["dice"] = list(values)
            totals.append(sum(dice["rolled"]))
        rolloff: list[list[int]] = []
        if totals[0] != totals[1]:
            first = 0 if totals[0] < totals[1] else 1
        else:
            while not rolloff or rolloff[-1][0] == rolloff[-1][1]:
                rng = rng_for(s)
                rolloff.append([rng.randint(1, 6), rng.randint(1, 6)])
            first = 0 if rolloff[-1][0] > rolloff[-1][1] else 1
        why = (f"lower total, {min(totals)} against {max(totals)}" if not rolloff
               else f"totals tied at {totals[0]}; roll-off {', '.join(f'{a}-{b}' for a, b in rolloff)}")
        _event(events, "reveal", f"Dice revealed. {_p(first)} acts first ({why}).",
               allocations=[s["dice"][seat]["allocation"] for seat in SEATS], totals=totals, rolloff=rolloff,
               first=first)
        s["phase"] = "actions"
        s["first_actor"] = s["to_move"] = first
        s["passes"] = 0

    # action phase

    def _own_character(self, s: State, seat: int, action: Action) -> str:
        name = _str(action, "character")
        if name not in s["pieces"] or s["pieces"][name]["kind"] != "character":
            raise BadAction(f"There is no character called {shown(name)}.")
        if name not in s["teams"][seat]:
            raise IllegalAction(f"{name} is not on your team.")
        if s["pieces"][name]["pos"] is None:
            raise IllegalAction(f"{name} has run away and cannot act.")
        return name

    def _use_die(self, s: State, name: str, action: Action) -> tuple[int, int | None, str]:
        """The die named by the action, the value Stephen treats it as (or None), and the face used."""
        value = _int(action, "die")
        dice = s["pieces"][name]["dice"]
        if value not in dice:
            faces = ", ".join(map(str, dice)) if dice else "no dice"
            raise IllegalAction(f"{name} has no {value} on their card (it has {faces}).")
        as_value = action.get("as")
        if as_value is None or as_value == value:
            return value, None, cards.face(name, value)
        if isinstance(as_value, bool) or not isinstance(as_value, int):
            raise BadAction(f'"as" must be a whole number, not {shown(as_value)}.')
        if name != "Stephen":
            raise IllegalAction(f"Only Stephen can treat a die as one higher or lower; {name} cannot.")
        if abs(as_value - value) != 1 or not 1 <= as_value <= 6:
            raise IllegalAction(f"Stephen can treat a {value} only as {' or '.join(str(v) for v in (value - 1, value + 1) if 1 <= v <= 6)}.")
        return value, as_value, cards.face(name, as_value)

    def _enemy_target(self, s: State, seat: int, action: Action) -> str:
        target = _str(action, "target")
        if target not in s["pieces"]:
            raise BadAction(f"There is no character or snowman called {shown(target)}.")
        if s["pieces"][target]["seat"] == seat:
            raise IllegalAction(f"{s['pieces'][target]['name']} is on your side; throw at the other team.")
        if s["pieces"][target]["pos"] is None:
            raise IllegalAction(f"{target} has run away and is not on the field.")
        return target

    def _do_throw(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        name = self._own_character(s, seat, action)
        followup = s["followup"]
        if followup is not None:
            if name != followup["character"] or followup["kind"] != "throw":
                raise IllegalAction(f"Finish {followup['character']}'s double {followup['kind']} first, or skip it.")
            value, as_value, symbol = None, None, "T"
            s["followup"] = None
        else:
            value, as_value, symbol = self._use_die(s, name, action)
            if symbol not in ("T", "TT"):
                raise IllegalAction(f"{name}'s {as_value or value} means {cards.FACE_WORDS[symbol]}, not throw.")
        target = self._enemy_target(s, seat, action)
        problem = _reach_problem(s, name, target, SNOWBALL_DISTANCE, "Snowball distance")
        if problem:
            raise IllegalAction(problem)
        if value is not None:
            s["pieces"][name]["dice"].remove(value)
        gap = round(_gap(s, name, target), 3)
        _event(events, "throw", f"{_label(s, name)} throws a snowball at {_label(s, target)}{_with_die(value, as_value)} "
               f"({_cm(gap)} away, clear line of sight).", seat=seat, thrower=name, target=target, die=value, **{"as": as_value},
               face=symbol, distance=gap, limit=SNOWBALL_DISTANCE, line_of_sight="clear")
        self._start_hits(s, events, seat, name, target, 1, "throw")
        self._after_action(s, seat, {"seat": seat, "character": name, "kind": "throw"} if symbol == "TT" else None)

    def _do_move(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        name = self._own_character(s, seat, action)
        followup = s["followup"]
        if followup is not None:
            if name != followup["character"] or followup["kind"] != "move":
                raise IllegalAction(f"Finish {followup['character']}'s double {followup['kind']} first, or skip it.")
            value, as_value, symbol = None, None, "M"
        else:
            value, as_value, symbol = self._use_die(s, name, action)
            if symbol not in ("M", "MM"):
                raise IllegalAction(f"{name}'s {as_value or value} means {cards.FACE_WORDS[symbol]}, not move.")
        to = _point(_field(action, "to"), "to")
        piece = s["pieces"][name]
        gap = distance(piece["pos"], to)
        if not within(gap, MOVE_DISTANCE):
            raise IllegalAction(f"{_at(to)} is {_cm(gap)} from {name}; a Move is {MOVE_DISTANCE} cm.")
        problem = placement_problem(s["pieces"], s["obstructions"], WIDTH, HEIGHT, to, piece["radius"], ignore=(name,))
        if problem:
            raise IllegalAction(f"{name} cannot stand at {_at(to)}: {_problem_words(s, 'they', problem)}.")
        if value is not None:
            piece["dice"].remove(value)
        s["followup"] = None
        start, piece["pos"] = piece["pos"], to
        _event(events, "move", _move_words(_label(s, name), gap, value, as_value), seat=seat, character=name, die=value,
               **{"as": as_value}, face=symbol, start=start, to=to, distance=round(gap, 3), limit=MOVE_DISTANCE)
        self._after_action(s, seat, {"seat": seat, "character": name, "kind": "move"} if symbol == "MM" else None)

    def _do_skip(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        f = s["followup"]
        if _second_half_actions(s, seat):
            what = "move (staying put is a move)" if f["kind"] == "move" else "throw at a target in reach"
            raise IllegalAction(f"A double symbol is two actions: {f['character']} must {what} a second time; "
                                "only a second throw with no target in reach is skipped.")
        s["followup"] = None
        _event(events, "skip", f"{_label(s, f['character'])} does not {f['kind']} a second time.", seat=seat,
               character=f["character"])
        self._after_action(s, seat, None)

    def _do_pass(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        _event(events, "pass", f"{_p(seat)} passes.", seat=seat, auto=False)
        s["passes"] += 1
        s["to_move"] = 1 - seat

    def _do_ability(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        name = self._own_character(s, seat, action)
        piece = s["pieces"][name]
        if name == "Robert":
            raise IllegalAction("Robert's Action is used when a hit is coming at a team-mate or your snowman.")
        if name == "Stephen":
            raise IllegalAction('Stephen\'s Action works with any die he uses: add "as" (one higher or lower).')
        if name == "Paul":
            chosen = _die_list(_field(action, "dice"), "dice")
            if len(chosen) != 2 or any(v not in (4, 5) for v in chosen):
                raise IllegalAction(f"Paul's double throw takes two dice showing 4 or 5, not {chosen}.")
            if Counter(chosen) - Counter(piece["dice"]):
                raise IllegalAction(f"Paul does not have {chosen[0]} and {chosen[1]} (he has "
                                    f"{', '.join(map(str, piece['dice'])) or 'no dice'}).")
            target = self._enemy_target(s, seat, action)
            problem = _reach_problem(s, name, target, SNOWBALL_DISTANCE, "Snowball distance")
            if problem:
                raise IllegalAction(problem)
            for v in chosen:
                piece["dice"].remove(v)
            gap = round(_gap(s, name, target), 3)
            _event(events, "throw", f"{_label(s, name)} throws two snowballs at once at {_label(s, target)} "
                   f"with a {chosen[0]} and a {chosen[1]} ({_cm(gap)} away): two hits.", seat=seat, thrower=name, target=target, dice=chosen,
                   ability=True, hits=2, distance=gap, limit=SNOWBALL_DISTANCE, line_of_sight="clear")
            self._start_hits(s, events, seat, name, target, 2, "double_throw")
            self._after_action(s, seat, None)
            return
        value = _int(action, "die")
        if value not in piece["dice"]:
            raise IllegalAction(f"{name} has no {value} on their card (it has "
                                f"{', '.join(map(str, piece['dice'])) or 'no dice'}).")
        if name == "Emily":
            target = self._enemy_target(s, seat, action)
            if s["pieces"][target]["kind"] != "snowman":
                raise IllegalAction("Emily's Action scores two hits on a snowman, not on a character.")
            problem = _reach_problem(s, name, target, MOVE_DISTANCE, "1 Move")
            if problem:
                raise IllegalAction(problem)
            piece["dice"].remove(value)
            gap = round(_gap(s, name, target), 3)
            _event(events, "smash", f"{_label(s, name)} charges {_label(s, target)}{_with_die(value, None)} "
                   f"({_cm(gap)} away): two hits.",
                   seat=seat, thrower=name, target=target, die=value, ability=True, hits=2, distance=gap,
                   limit=MOVE_DISTANCE, line_of_sight="clear")
            self._start_hits(s, events, seat, name, target, 2, "smash")
        elif name == "Bianca":
            target = _str(action, "target")
            other = s["pieces"].get(target)
            if other is None or other["kind"] != "character":
                raise BadAction(f"There is no character called {shown(target)}.")
            if target == name and len(piece["dice"]) < 2:
                raise IllegalAction("Bianca has no dice left to re-roll once she spends this one.")
            if other["pos"] is None:
                raise IllegalAction(f"{target} has run away and is not on the field.")
            gap = _gap(s, name, target)
            if not within(gap, MOVE_DISTANCE):
                raise IllegalAction(f"{target} is {_cm(gap)} from Bianca; her Action reaches 1 Move ({MOVE_DISTANCE} cm).")
            if not other["dice"]:
                raise IllegalAction(f"{target} has no dice left to re-roll.")
            piece["dice"].remove(value)
            old = list(other["dice"])
            rng = rng_for(s)
            other["dice"] = sorted(rng.randint(1, 6) for _ in old)
            _event(events, "force_reroll", f"{_label(s, name)} makes {_label(s, target)} re-roll: "
                   f"{', '.join(map(str, old))} becomes {', '.join(map(str, other['dice']))}.", seat=seat,
                   character=name, die=value, target=target, before=old, after=other["dice"], distance=round(gap, 3))
        elif name == "Natasha":
            mate = _str(action, "with")
            if mate not in s["teams"][seat] or mate == name:
                raise IllegalAction(f"Natasha swaps places with a team-mate; {shown(mate)} is not one.")
            if s["pieces"][mate]["pos"] is None:
                raise IllegalAction(f"{mate} has run away and is not on the field.")
            gap = _gap(s, name, mate)
            if not within(gap, MOVE_DISTANCE):
                raise IllegalAction(f"{mate} is {_cm(gap)} from Natasha; her Action reaches 1 Move ({MOVE_DISTANCE} cm).")
            piece["dice"].remove(value)
            mine, theirs = piece["pos"], s["pieces"][mate]["pos"]
            piece["pos"], s["pieces"][mate]["pos"] = theirs, mine
            _event(events, "swap", f"{_label(s, name)} swaps places with {mate}.", seat=seat, character=name,
                   die=value, other=mate, positions={name: theirs, mate: mine}, distance=round(gap, 3))
        self._after_action(s, seat, None)

    def _after_action(self, s: State, seat: int, followup: dict[str, Any] | None) -> None:
        """Hand play on once an action (and any hits it caused) is done."""
        if s["phase"] != "actions":
            return
        if s["pending"] is not None:
            s["pending"]["then"] = followup
            return
        s["passes"] = 0
        if followup is not None and s["pieces"][followup["character"]]["pos"] is not None:
            s["followup"] = followup
            return
        s["followup"] = None
        s["to_move"] = 1 - seat

    # hits and reactions

    def _start_hits(self, s: State, events: list[Event], seat: int, thrower: str, target: str, hits: int,
                    source: str) -> None:
        s["pending"] = {"attacker": seat, "thrower": thrower, "target": target, "source": source,
                        "hits_total": hits, "hits_done": 0, "then": None}
        self._resolve_hits(s, events)

    def _resolve_hits(self, s: State, events: list[Event]) -> None:
        """Land or dodge each hit still due; stop to ask the target's player when they have a choice."""
        p = s["pending"]
        defender = 1 - p["attacker"]
        while p["hits_done"] < p["hits_total"]:
            target = p["target"]
            if s["pieces"][target]["pos"] is None:
                left = p["hits_total"] - p["hits_done"]
                _event(events, "lost_hit", f"{_label(s, target)} has already run away; {left} hit"
                       f"{'s are' if left > 1 else ' is'} lost.", target=target, hits=left)
                break
            options = _reaction_options(s, defender, target)
            dodges = [o for o in options if o["choice"] == "dodge"]
            if dodges and s["auto_dodge"][defender]:
                best = next((d for d in dodges if "as" not in d), dodges[0])
                self._dodge(s, events, target, best["die"], best.get("as"), auto=True)
            elif options:
                return
            else:
                self._land(s, events, target, p)
            p["hits_done"] += 1
            if s["phase"] == "over":
                return
        s["pending"] = None
        self._after_action(s, p["attacker"], p["then"])

    def _dodge(self, s: State, events: list[Event], target: str, value: int, as_value: int | None, auto: bool) -> None:
        s["pieces"][target]["dice"].remove(value)
        used = value if as_value is None else as_value
        how = "automatically " if auto else ""
        _event(events, "dodge", f"{_label(s, target)} {how}dodges with a {value}"
               f"{f' used as a {as_value}' if as_value is not None else ''}: no cold token.", target=target,
               die=value, **{"as": as_value}, face=cards.face(target, used), auto=auto)

    def _land(self, s: State, events: list[Event], target: str, p: dict[str, Any], by: str | None = None) -> None:
        piece = s["pieces"][target]
        piece["cold"] += 1
        limit = cards.SNOWMAN_COLD_LIMIT if piece["kind"] == "snowman" else cards.cold_limit(target)
        _event(events, "hit", f"{_label(s, target)} is hit: {piece['cold']} of {limit} cold tokens.", target=target,
               thrower=p["thrower"], hit=p["hits_done"] + 1, hits=p["hits_total"], cold=piece["cold"], cold_limit=limit,
               intercepted_for=by)
        if piece["cold"] < limit:
            return
        if piece["kind"] == "snowman":
            loser = piece["seat"]
            s["phase"] = "over"
            s["pending"] = s["followup"] = None
            s["result"] = {"winner": 1 - loser, "loser": loser,
                           "reason": f"{_p(loser)}'s snowman took its fourth cold token and lost its head."}
            _event(events, "game_over", f"{_p(loser)}'s snowman loses its head! {_p(1 - loser)} wins.",
                   winner=1 - loser, loser=loser)
            return
        lost = piece["dice"]
        piece["dice"], piece["pos"] = [], None
        losing = f", losing {_count(len(lost), 'die', 'dice')}" if lost else ""
        _event(events, "run_away", f"{_label(s, target)} is too cold and runs away{losing}.", target=target,
               lost_dice=lost)

    def _do_react(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["pending"]
        choice = _str(action, "choice")
        target = p["target"]
        if choice == "take":
            self._land(s, events, target, p)
        elif choice == "dodge":
            if s["pieces"][target]["kind"] == "snowman":
                raise IllegalAction("A snowman cannot dodge; only Robert can take the hit for it.")
            value = _int(action, "die")
            as_value = action.get("as")
            option = {"type": "react", "choice": "dodge", "die": value, **({"as": as_value} if as_value not in (None, value) else {})}
            if option not in _reaction_options(s, seat, target):
                dice = s["pieces"][target]["dice"]
                used = f"a {value} used as {as_value}" if as_value not in (None, value) else f"a {value}"
                raise IllegalAction(f"{s['pieces'][target]['name']} cannot dodge with {used}: dodging needs a die "
                                    f"showing Dodge on their card (dice left: {', '.join(map(str, dice)) or 'none'}).")
            self._dodge(s, events, target, value, option.get("as"), auto=False)
        elif choice == "intercept":
            value = _int(action, "die")
            if _interceptor(s, seat, target) is None:
                raise IllegalAction("Robert can only take a hit meant for a team-mate or your snowman within 1 Move "
                                    f"({MOVE_DISTANCE} cm), and needs a die left.")
            robert = s["pieces"]["Robert"]
            if value not in robert["dice"]:
                raise IllegalAction(f"Robert has no {value} (he has {', '.join(map(str, robert['dice']))}).")
            robert["dice"].remove(value)
            _event(events, "intercept", f"{_label(s, 'Robert')} jumps in front of {_label(s, target)} and takes the "
                   f"hit (discarding a {value}).", target=target, by="Robert", die=value,
                   distance=round(_gap(s, "Robert", target), 3))
            self._land(s, events, "Robert", p, by=target)
        else:
            raise BadAction(f'"choice" must be "dodge", "intercept" or "take", not {shown(choice)}.')
        p["hits_done"] += 1
        if s["phase"] == "over":
            return
        self._resolve_hits(s, events)

    # end phase and returning

    def _advance(self, s: State, events: list[Event]) -> None:
        """Run every step that needs nobody's decision: reveals, automatic passes, end phases, new turns."""
        while True:
            phase = s["phase"]
            if phase == "dice":
                if any(d["stage"] != "locked" for d in s["dice"]):
                    return
                self._reveal(s, events)
            elif phase == "actions":
                if s["pending"] is not None or s["followup"] is not None:
                    return
                has_dice = any(p["dice"] for p in s["pieces"].values())
                if s["passes"] >= 2 or not has_dice:
                    self._end_phase(s, events)
                    continue
                actor = s["to_move"]
                if _has_active_option(s, actor):
                    return
                _event(events, "pass", f"{_p(actor)} has no die they can use now and passes.", seat=actor, auto=True)
                s["passes"] += 1
                s["to_move"] = 1 - actor
            elif phase == "return":
                for seat in SEATS:
                    if s["returning"][seat] and free_back_edge_y(s, seat) is None:
                        stuck = s["returning"][seat]
                        _event(events, "no_room", f"There is no room on {_p(seat)}'s back edge; "
                               f"{', '.join(stuck)} wait{'s' if len(stuck) == 1 else ''} a turn.", seat=seat,
                               characters=list(stuck))
                        s["returning"][seat] = []
                if any(s["returning"]):
                    return
                self._start_turn(s, events)
            else:
                return

    def _end_phase(self, s: State, events: list[Event]) -> None:
        _event(events, "end_phase", f"End of turn {s['turn']}.", turn=s["turn"])
        for piece in s["pieces"].values():
            piece["dice"] = []
        s["to_move"] = None
        if s["turn"] >= MAX_TURNS:
            self._end_at_turn_limit(s, events)
            return
        for seat in SEATS:
            for name in s["teams"][seat]:
                piece = s["pieces"][name]
                if piece["pos"] is not None:
                    continue
                if piece["cold"] > 0:
                    piece["cold"] -= 1
                    _event(events, "warm_up", f"{_label(s, name)} warms up: {_count(piece['cold'], 'cold token')} left.",
                           character=name, cold=piece["cold"])
                if piece["cold"] == 0:
                    s["returning"][seat].append(name)
        s["phase"] = "return"

    def _end_at_turn_limit(self, s: State, events: list[Event]) -> None:
        """The house ruling "Turn limit": once turn MAX_TURNS's action phase is over the game ends,
        scored as the book scores it: the side whose snowman has fewer cold tokens wins; equal
        tokens are a draw (no winner)."""
        cold = [s["pieces"][snowman_id(seat)]["cold"] for seat in SEATS]
        last = f"Turn {MAX_TURNS} was the last ({TURN_LIMIT_RULING})"
        if cold[0] == cold[1]:
            winners: list[int] = []
            losers: list[int] = []
            both = "no cold tokens" if cold[0] == 0 else _count(cold[0], "cold token")
            reason = f"{last} and both snowmen have {both}: a draw."
            verdict = "Nobody wins: a draw."
        else:
            loser = 0 if cold[0] > cold[1] else 1
            winners, losers = [1 - loser], [loser]
            reason = (f"{last} and {_p(loser)}'s snowman has more cold tokens: "
                      f"{cold[loser]} against {_p(1 - loser)}'s {cold[1 - loser]}.")
            verdict = f"{_p(1 - loser)} wins."
        s["phase"] = "over"
        s["result"] = {"code": "turn_limit", "winners": winners, "losers": losers, "reason": reason}
        _event(events, "game_over", f"Turn {MAX_TURNS} is over: by the {TURN_LIMIT_RULING} the game ends. "
               f"{_p(0)}'s snowman has {_count(cold[0], 'cold token')}, {_p(1)}'s {cold[1]}. {verdict}",
               code="turn_limit", winners=winners, losers=losers, snowman_cold=cold)

    def _do_return(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        name = _str(action, "character")
        if name not in s["returning"][seat]:
            raise IllegalAction(f"{name} is not coming back now; you are placing {', '.join(s['returning'][seat])}.")
        y = _field(action, "y")
        if isinstance(y, bool) or not isinstance(y, (int, float)) or not math.isfinite(y):
            raise BadAction(f'"y" must be a number of centimetres, not {shown(y)}.')
        spot = [_edge_x(seat, CHARACTER_RADIUS), float(y)]
        problem = placement_problem(s["pieces"], s["obstructions"], WIDTH, HEIGHT, spot, CHARACTER_RADIUS)
        if problem:
            raise IllegalAction(f"{name} cannot come back at {_at(spot)}: {_problem_words(s, 'they', problem)}.")
        s["pieces"][name]["pos"] = spot
        s["returning"][seat].remove(name)
        _event(events, "return", f"{_label(s, name)} comes back to the snowball fight.", seat=seat, character=name,
               to=spot)

    # -- views and results ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        s = state
        viewer = seat if seat in SEATS else None
        asked = self._asked(s)
        dice_view = []
        for owner, d in enumerate(s["dice"]):
            visible = owner == viewer or d["stage"] == "revealed"
            dice_view.append({
                "rolled": list(d["rolled"]),
                "rerolled": d["rerolled"],
                "stage": d["stage"],
                "has_allocation": d["allocation"] is not None,
                "allocation": marshal.loads(marshal.dumps(d["allocation"])) if visible else None,
                "total": sum(d["rolled"]),
            })
        pieces = {}
        for pid, p in s["pieces"].items():
            pieces[pid] = {
                "id": pid, "kind": p["kind"], "seat": p["seat"], "name": p["name"],
                "pos": list(p["pos"]) if p["pos"] is not None else None, "radius": p["radius"],
                "cold": p["cold"],
                "cold_limit": cards.SNOWMAN_COLD_LIMIT if p["kind"] == "snowman" else cards.cold_limit(p["name"]),
                "away": p["kind"] == "character" and p["pos"] is None and s["phase"] not in ("draft", "deploy"),
                "dice": list(p["dice"]),
            }
        result: View = {
            "game": self.slug,
            "viewer": viewer,
            "phase": s["phase"],
            "turn": s["turn"],
            "table": {
                "width": WIDTH, "height": HEIGHT, "move_distance": MOVE_DISTANCE,
                "snowball_distance": SNOWBALL_DISTANCE, "character_radius": CHARACTER_RADIUS,
                "snowman_radius": SNOWMAN_RADIUS, "tolerance": TOLERANCE,
                "back_edge_x": [0.0, WIDTH],
            },
            "layout": s["options"]["layout"],
            "obstructions": [{"id": o["id"], "label": o["label"], "points": [list(p) for p in o["points"]],
                              "box": list(o["box"])} for o in s["obstructions"]],
            "cards": {name: cards.card(name) for name in cards.NAMES},
            "face_words": dict(cards.FACE_WORDS),
            "first_picker": s["first_picker"],
            "pool": list(s["pool"]),
            "teams": [list(t) for t in s["teams"]],
            "pieces": pieces,
            "dice": dice_view,
            "first_actor": s["first_actor"],
            "to_move": s["to_move"],
            "passes": s["passes"],
            "pending": self._pending_view(s),
            "followup": dict(s["followup"]) if s["followup"] else None,
            "returning": [list(r) for r in s["returning"]],
            "auto_dodge": s["auto_dodge"][viewer] if viewer is not None else None,
            "waiting_for": sorted(asked),
            "prompt": self._prompt(s, viewer, asked[viewer]).as_dict() if viewer in asked else None,
            "legal_actions": self.legal_actions(s, viewer) if viewer is not None else [],
            "sightlines": self._sightlines(s) if s["phase"] == "actions" else [],
            "outcome": self.outcome(s),
        }
        return result

    def _pending_view(self, s: State) -> dict[str, Any] | None:
        p = s["pending"]
        if p is None:
            return None
        return {key: p[key] for key in ("attacker", "thrower", "target", "source", "hits_total", "hits_done")}

    def _sightlines(self, s: State) -> list[dict[str, Any]]:
        """Every character's line to each enemy piece on the field, for drawing rings and lines."""
        lines = []
        for seat in SEATS:
            for name in _team_in_play(s, seat):
                for target in _enemy_targets(s, seat):
                    if s["pieces"][target]["pos"] is None:
                        continue
                    sight = sight_line(s["pieces"], s["obstructions"], name, target)
                    lines.append({"from": name, "to": target, **sight,
                                  "in_throw_range": within(sight["distance"], SNOWBALL_DISTANCE),
                                  "within_move": within(sight["distance"], MOVE_DISTANCE)})
        return lines

    def outcome(self, state: State) -> dict[str, Any] | None:
        result = state["result"]
        if result is None:
            return None
        if "code" in result:  # ended by a house ruling (the turn limit)
            return {
                "code": result["code"],
                "winners": list(result["winners"]),
                "losers": list(result["losers"]),
                "scores": [state["pieces"][snowman_id(1)]["cold"], state["pieces"][snowman_id(0)]["cold"]],
                "reason": result["reason"],
            }
        return {
            "winners": [result["winner"]],
            "losers": [result["loser"]],
            "scores": [state["pieces"][snowman_id(1)]["cold"], state["pieces"][snowman_id(0)]["cold"]],
            "reason": result["reason"],
        }

    def resigned_outcome(self, state: State, winners: list[int]) -> dict[str, Any]:
        """The outcome when a player resigns: each seat's score (the cold its opponent's snowman
        took) as it stands."""
        return {
            "winners": list(winners),
            "losers": [seat for seat in (0, 1) if seat not in winners],
            "scores": [state["pieces"][snowman_id(1)]["cold"], state["pieces"][snowman_id(0)]["cold"]],
        }

    def bot_action(self, state: State, seat: int) -> Action:
        from .bot import choose_action

        if seat not in self._asked(state):
            raise NotYourTurn("The computer player is not being asked to act now.")
        return choose_action(self.view(state, seat))


RULESET = JingleBells()
