"""Rule engine for "What a Snowball!" (slug ``what-a-snowball``), the skirmish for 2-4 teams of Kids.

A game runs through these phases, kept in ``state["phase"]``:

``corners``  the teams, in roll-off order, pick their corners (two each with two teams);
``deploy``   team by team, each seat places its Kids within 6 inches of a corner of its team;
``play``     six turns: the activation order is rolled, then each Kid in turn rolls its
             Command Dice and spends them one at a time; throws, shoves and cards may stop
             to ask another seat (a reaction) before they resolve;
``over``     six turns are done, one team is left, or every other team surrendered.

See README.md in this package for the rulings behind each choice.
"""
from __future__ import annotations

import functools
import marshal
import math
import threading
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
    rng_for,
    shown,
)
from . import kids as K
from . import villages
from .geometry import (
    SIZE,
    TOLERANCE,
    Walker,
    base_gap,
    distance,
    in_contact,
    line_of_fire,
    placement_problem,
    region_rings,
    sight_clear,
    terrain_for,
    vault_landing,
    within,
)

_MEMO_STATES = 8
_MEMOS: dict[int, tuple[State, dict[Any, Any]]] = {}
_MEMO_LOCK = threading.Lock()
_WORTH_REMEMBERING = frozenset({"turn", "move_to", "place"})


def _memo(state: State) -> dict[Any, Any]:
    """What has been worked out for this very state, for the last few states asked about. States are never changed once made (``apply`` makes a new one), so
    the state object itself is the key; the memo holds it, so its ``id`` is not reused meanwhile."""
    with _MEMO_LOCK:
        entry = _MEMOS.get(id(state))
        if entry is not None and entry[0] is state:
            return entry[1]
        while len(_MEMOS) >= _MEMO_STATES:
            del _MEMOS[next(iter(_MEMOS))]
        memo: dict[Any, Any] = {}
        _MEMOS[id(state)] = (state, memo)
        return memo


TURNS = 6
DEPLOY_DISTANCE = 6.0
GIVE_DISTANCE = 2.0
TOO_CLOSE = 1.0
RANGE_BANDS = ((6.0, 7), (12.0, 8))
LONG_RANGE_NEEDS = 9
MIN_KIDS, MAX_KIDS = 6, 12
MAX_KIDS_PER_SEAT = 3
NAME_LENGTH = 20
WIN_BONUS = 5
WIPED_OUT = -1_000_000

TIMEOUTS: dict[str, float] = {
    "corner": 60, "place": 90, "start": 30, "turn": 120, "move_to": 90, "reaction": 15,
}
CARD_METHODS = ("none", "method1", "method2")

ACTION_TYPES = (
    "corner", "place", "roll", "move", "vault", "gather", "aim", "throw", "wild", "end_activation", "play_card",
    "move_to", "decline", "set_never_ask", "surrender",
)
ANYTIME = ("set_never_ask", "surrender")
ALLOWED: dict[str, tuple[str, ...]] = {
    "corner": ("corner",),
    "place": ("place",),
    "start": ("roll", "play_card"),
    "turn": ("move", "vault", "gather", "aim", "throw", "wild", "end_activation", "play_card"),
    "move_to": ("move_to",),
    "reaction": ("play_card", "decline"),
}
ASKED_WORDS: dict[str, str] = {
    "corner": "pick a corner",
    "place": "place a Kid",
    "start": "roll Command Dice",
    "turn": "spend a Command Die",
    "move_to": "choose where to move",
    "reaction": "answer a reaction",
}
TEAM_COLOURS = ("red", "blue", "green", "gold")
TEAM_NAMES = ("Red", "Blue", "Green", "Gold")


def _p(seat: int) -> str:
    return "{p%d}" % seat


def _event(events: list[Event], kind: str, text: str, **data: Any) -> None:
    events.append({"type": kind, "text": text, **data})


def _copy(state: State) -> State:
    """A copy ``apply`` may change in place: it has its own copy of every list and dict that some action
    changes in place, and shares what actions only ever replace (the terrain, options, seat teams, rolls
    and orders, a caught cheat, the result; the ability-card pile and the discards; each team's corners;
    each Kid's "pos", "traits" and "snowballs"; each seat's hand and "never ask" cards; a move's dice; a
    question's cards; a throw's modifiers). test_what_a_snowball_copies checks that ``apply`` leaves the
    state it is given as it was."""
    s = state.copy()
    s["kids"] = {kid_id: kid.copy() for kid_id, kid in state["kids"].items()}
    for key in ("surrender_votes", "surrendered", "hands", "never_ask"):
        s[key] = state[key][:]
    s["corners"] = state["corners"].copy()
    activation = state["activation"]
    if activation is not None:
        s["activation"] = {**activation, "tray": activation["tray"][:]}
    pending = state["pending"]
    if pending is not None:
        s["pending"] = pending.copy()
    if state["throw"] is not None:
        s["throw"] = state["throw"].copy()
    return s


def _without(values: list[Any], value: Any) -> list[Any]:
    """A new list: ``values`` less its first ``value``."""
    index = values.index(value)
    return values[:index] + values[index + 1:]


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _inches(value: float) -> str:
    return f'{value:.1f}"'


def _at(point: Any) -> str:
    return f"({_coordinate(point[0])}, {_coordinate(point[1])})"


def _coordinate(value: float) -> str:
    """A coordinate to a tenth of an inch; one far off the village in three figures."""
    return f"{value:.1f}" if abs(value) < 1000 else f"{value:.3g}"


def _dice_words(values: list[int]) -> str:
    return ", ".join(map(str, values)) if values else "none"


# --- reading actions ---------------------------------------------------------------------------

def _field(action: Action, key: str) -> Any:
    if key not in action:
        raise BadAction(f'A "{action["type"]}" action needs a "{key}" field.')
    return action[key]


def _int(action: Action, key: str) -> int:
    value = _field(action, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadAction(f'"{key}" must be a whole number, not {shown(value)}.')
    return value


def _str(action: Action, key: str) -> str:
    value = _field(action, key)
    if not isinstance(value, str):
        raise BadAction(f'"{key}" must be a name, not {shown(value)}.')
    return value


def _bool(action: Action, key: str, default: bool = False) -> bool:
    value = action.get(key, default)
    if not isinstance(value, bool):
        raise BadAction(f'"{key}" must be true or false, not {shown(value)}.')
    return value


def _point(value: Any, key: str) -> list[float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v) for v in value):
        raise BadAction(f'"{key}" must be a point [x, y] in inches, not {shown(value)}.')
    return [float(value[0]), float(value[1])]


# --- creation: the roster ----------------------------------------------------------------------

def _default_roster(seat_team: list[int]) -> list[dict[str, Any]]:
    """Equal teams of the fewest Kids (at least 6 in all), shared out evenly over each team's seats."""
    teams = sorted(set(seat_team))
    seats_of = {t: [s for s, team in enumerate(seat_team) if team == t] for t in teams}
    size = next((n for n in range(1, MAX_KIDS + 1) if n * len(teams) >= MIN_KIDS
                 and all(len(seats) <= n <= MAX_KIDS_PER_SEAT * len(seats) for seats in seats_of.values())), None)
    if size is None or size * len(teams) > MAX_KIDS:
        raise BadAction("These seats cannot make equal teams of 6-12 Kids with 1-3 Kids per seat; "
                        'give the Kids in the "kids" option.')
    roster = []
    for t in teams:
        seats = seats_of[t]
        for i in range(size):
            roster.append({"seat": seats[i % len(seats)]})
    for i, kid in enumerate(roster):
        kid["name"] = K.DEFAULT_NAMES[i]
        kid["traits"] = [K.TRAITS[i % len(K.TRAITS)]]
        kid["type"] = "kid"
    return roster


def canonical_trait(trait: Any) -> Any:
    """A Trait as the engine names it: ``fast`` for ``Fast`` or ``FAST`` (the views show its label,
    ``Fast``); anything that is not text, as it is, for the roster's check to refuse."""
    return trait.lower() if isinstance(trait, str) else trait


def canonical_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The creation options with each Kid's Traits in their canonical form (``canonical_trait``),
    as the game stores them; whatever is malformed is left as it is, for ``new_game`` to refuse."""
    options = dict(options or {})
    kids = options.get("kids")
    if isinstance(kids, list):
        options["kids"] = [
            {**kid, "traits": [canonical_trait(t) for t in kid["traits"]]}
            if isinstance(kid, dict) and isinstance(kid.get("traits"), list) else kid
            for kid in kids]
    return options


def _read_roster(raw: Any, players: int, seat_team: list[int], special: bool) -> list[dict[str, Any]]:
    if raw is None:
        return _default_roster(seat_team)
    if not isinstance(raw, list):
        raise BadAction('"kids" must be a list of Kids, each {"name", "seat", "traits", "type"}.')
    roster = []
    names: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"Kid {index + 1}"
        if not isinstance(entry, dict):
            raise BadAction(f"{where} must be an object with name, seat, traits and type.")
        name = entry.get("name", K.DEFAULT_NAMES[index] if index < len(K.DEFAULT_NAMES) else f"Kid {index + 1}")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
            raise BadAction(f"{where}: the name must be 1-{NAME_LENGTH} characters, not {shown(name)}.")
        name = name.strip()
        if name.lower() in names:
            raise BadAction(f"{where}: the name {shown(name)} is taken by another Kid.")
        names.add(name.lower())
        seat = entry.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BadAction(f"{where} ({name}): seat must be a seat number 0-{players - 1}, not {shown(seat)}.")
        kind = entry.get("type", "kid")
        if not isinstance(kind, str) or kind not in K.TYPES:
            raise BadAction(f"{where} ({name}): unknown type {shown(kind)}; choose one of {', '.join(K.TYPES)}.")
        if kind != "kid" and not special:
            raise BadAction(f"{where} ({name}): a {K.TYPES[kind]['label']} needs the special players option.")
        spec = K.TYPES[kind]
        traits = entry.get("traits", None)
        if isinstance(traits, list):
            traits = [canonical_trait(t) for t in traits]
        if spec["fixed_traits"] is not None:
            if traits not in (None, list(spec["fixed_traits"])):
                fixed = " and ".join(K.TRAIT_LABELS[t] for t in spec["fixed_traits"]) or "no Traits"
                raise BadAction(f"{where} ({name}): a {spec['label']} has {fixed}; do not choose Traits.")
            traits = list(spec["fixed_traits"])
        else:
            if traits is None:
                traits = [K.TRAITS[index % len(K.TRAITS)], K.TRAITS[(index + 1) % len(K.TRAITS)]][:spec["traits"]]
            if not isinstance(traits, list) or any(t not in K.TRAITS for t in traits) \
                    or len(set(traits)) != len(traits) or len(traits) != spec["traits"]:
                raise BadAction(f"{where} ({name}): a {spec['label']} takes {_count(spec['traits'], 'Trait')} "
                                f"from {', '.join(K.TRAITS)} (in any letter case), not {shown(entry.get('traits'))}.")
        roster.append({"name": name, "seat": seat, "traits": traits, "type": kind})
    per_seat = Counter(k["seat"] for k in roster)
    for seat in range(players):
        if not 1 <= per_seat[seat] <= MAX_KIDS_PER_SEAT:
            raise BadAction(f"Seat {seat} commands {per_seat[seat]} Kids; every seat commands 1-{MAX_KIDS_PER_SEAT}.")
    if not MIN_KIDS <= len(roster) <= MAX_KIDS:
        raise BadAction(f"The game has {len(roster)} Kids; it needs {MIN_KIDS}-{MAX_KIDS}.")
    sizes = Counter(seat_team[k["seat"]] for k in roster)
    if len(set(sizes.values())) != 1:
        listed = ", ".join(f"team {t}: {n}" for t, n in sorted(sizes.items()))
        raise BadAction(f"Teams must be the same size ({listed}).")
    return roster


# --- queries over a state ----------------------------------------------------------------------

def _in_play(s: State) -> list[str]:
    kids = s["kids"]
    return [kid_id for kid_id in s["kid_order"] if kids[kid_id]["home"] is None and kids[kid_id]["pos"] is not None]


def _in_the_village(kid: dict[str, Any]) -> bool:
    """Whether a Kid stands in the village: placed, and not sent home."""
    return kid["home"] is None and kid["pos"] is not None


def _bases(s: State) -> list[tuple[str, list[float], float]]:
    return [(kid_id, s["kids"][kid_id]["pos"], s["kids"][kid_id]["radius"]) for kid_id in _in_play(s)]


def _base_tuples(s: State) -> tuple[tuple[str, tuple[float, float], float], ...]:
    """:func:`_bases` as tuples, in one pass: the key of what is remembered per position of the Kids."""
    kids = s["kids"]
    found = []
    for kid_id in s["kid_order"]:
        kid = kids[kid_id]
        if kid["home"] is None and kid["pos"] is not None:
            found.append((kid_id, tuple(kid["pos"]), kid["radius"]))
    return tuple(found)


def _terrain(s: State):
    return terrain_for(s["terrain"])


def _label(s: State, kid_id: str) -> str:
    kid = s["kids"][kid_id]
    return f"{kid['name']} ({_p(kid['seat'])})"


def _gap(s: State, a: str, b: str) -> float:
    ka, kb = s["kids"][a], s["kids"][b]
    return base_gap(ka["pos"], ka["radius"], kb["pos"], kb["radius"])


def _teams_left(s: State) -> list[int]:
    return sorted({kid["team"] for kid in s["kids"].values() if kid["home"] is None and kid["pos"] is not None})


def _several_teams_left(s: State) -> bool:
    """Whether Kids of two teams or more are still in the village (stops at the second team found)."""
    first = None
    for kid in s["kids"].values():
        if kid["home"] is None and kid["pos"] is not None:
            if first is None:
                first = kid["team"]
            elif kid["team"] != first:
                return True
    return False


def can_cheat(aggressor: dict[str, Any], victim: dict[str, Any]) -> bool:
    """Whether ``aggressor`` may cheat against ``victim`` (Santa's Watching, Jerk, Oops)."""
    if aggressor["type"] == "yeti":
        return False
    if aggressor["type"] == "elf":
        return victim["type"] == "snowman"
    if victim["type"] == "elf":
        return aggressor["type"] == "snowman"
    return True


def range_needs(gap: float) -> int:
    """The Roll to Hit needed at a base-to-base distance."""
    for limit, needs in RANGE_BANDS:
        if within(gap, limit):
            return needs
    return LONG_RANGE_NEEDS


def throw_modifiers(s: State, thrower: str, target: str, size: int, objects: list[str]) -> list[dict[str, Any]]:
    """Every modifier to the 2D6 Roll to Hit, each {"label", "value"} (added to the roll)."""
    me, them = s["kids"][thrower], s["kids"][target]
    mods = []
    if me["aims"]:
        mods.append({"label": f"AIM x{me['aims']}", "value": me["aims"]})
    if size in (2, 3):
        mods.append({"label": f"Size {size} snowball", "value": 1})
    elif size >= 4:
        mods.append({"label": f"Size {size} snowball", "value": 2})
    for obj in objects:
        what = s["kids"][obj]["name"] if obj in s["kids"] else _terrain_label(s, obj)
        mods.append({"label": f"{what} within 1\" of the line of fire", "value": -1, "object": obj})
    if me["type"] != "elf" and them["type"] == "big_kid":
        mods.append({"label": "Expert Dodger (Big Kid)", "value": -1})
    if me["type"] != "elf" and them["type"] == "snowman":
        mods.append({"label": "Blend In (Living Snowman)", "value": -1})
    if them["type"] == "elf":
        mods.append({"label": "Skirmisher (throwing at an Elf)", "value": -1})
    if me["type"] == "elf":
        mods.append({"label": "Skirmisher (an Elf throwing)", "value": 1})
    return mods


def _terrain_label(s: State, piece_id: str) -> str:
    piece = next(p for p in s["terrain"] if p["id"] == piece_id)
    return _the(piece["label"])


def _the(label: str) -> str:
    """``label`` with "the" before it, once: "the hedge", "the old rectory"."""
    return label if label.lower().startswith("the ") else f"the {label}"


def _blocker_words(s: State, blocker: str) -> str:
    return s["kids"][blocker]["name"] if blocker in s["kids"] else _terrain_label(s, blocker)


def _fire(s: State, thrower: str, target: str) -> dict[str, Any]:
    fire = _fire_between(_terrain(s), _base_tuples(s), thrower, target)
    return dict(fire, objects=list(fire["objects"]))


@functools.lru_cache(maxsize=512)
def _fire_between(terrain: Any, bases: tuple, thrower: str, target: str) -> dict[str, Any]:
    """A line of fire, remembered: the Kids stand still through most of a turn's actions and views."""
    return line_of_fire(terrain, bases, thrower, target)


def _visible_enemies(s: State, kid_id: str) -> list[str]:
    """The enemy Kids ``kid_id`` can see (a line of fire that is not blocked)."""
    kids = s["kids"]
    team = kids[kid_id]["team"]
    bases = []
    enemies = []
    for k in s["kid_order"]:
        kid = kids[k]
        pos = kid["pos"]
        if kid["home"] is None and pos is not None:
            bases.append((k, tuple(pos), kid["radius"]))
            if kid["team"] != team:
                enemies.append(k)
    if not enemies:
        return []
    enemies_seen = _sight_between(_terrain(s), tuple(bases), kid_id, tuple(enemies))
    return [t for t, ok in zip(enemies, enemies_seen) if ok]


@functools.lru_cache(maxsize=256)
def _sight_between(terrain: Any, bases: tuple, thrower: str, targets: tuple) -> tuple:
    """Which lines of fire are clear, remembered: the Kids stand still through most of a turn's actions."""
    return tuple(sight_clear(terrain, bases, thrower, targets))


def _on_snow(s: State, pos: list[float]) -> bool:
    """Whether a centre stands on snowy ground (not on a gritted road)."""
    return not _on_snowless(_terrain(s), pos[0], pos[1])


@functools.lru_cache(maxsize=256)
def _on_snowless(terrain: Any, x: float, y: float) -> bool:
    """``Terrain.on_snowless`` remembered: a Kid's ground is asked about at every action of its activation."""
    return terrain.on_snowless((x, y))


def _enemies(s: State, kid_id: str) -> list[str]:
    team = s["kids"][kid_id]["team"]
    return [k for k in _in_play(s) if s["kids"][k]["team"] != team]


def _meanings(kid: dict[str, Any], value: int) -> tuple[str, ...]:
    return _face_table(kid["type"], tuple(kid["traits"]))[value]


@functools.lru_cache(maxsize=64)
def _face_table(kind: str, traits: tuple[str, ...]) -> dict[int, tuple[str, ...]]:
    """``kids.face_meanings`` for a type and its Traits, worked out once."""
    return K.face_meanings({"type": kind, "traits": list(traits)})


def _can_spend_as(kid: dict[str, Any], value: int, result: str) -> bool:
    """Whether a die showing ``value`` can be spent as ``result``."""
    return result in _die_uses(kid, value)


def _die_uses(kid: dict[str, Any], value: int) -> frozenset[str]:
    """Every result a die showing ``value`` can be spent as."""
    return _uses_by_face(kid)[value]


def _uses_by_face(kid: dict[str, Any]) -> dict[int, frozenset[str]]:
    """For each face, every result a die showing it can be spent as, for the Kid as it is now."""
    return _uses_by_face_for(kid["type"], tuple(kid["traits"]), kid["down"])


@functools.lru_cache(maxsize=64)
def _uses_by_face_for(kind: str, traits: tuple[str, ...], down: bool) -> dict[int, frozenset[str]]:
    """:func:`_uses_by_face` worked out once: a Wild die acts as any other result; a Kid knocked down
    spends only Wild dice (to get up, recover or prepare)."""
    uses = {}
    for value, meanings in _face_table(kind, traits).items():
        if "wild" in meanings:
            uses[value] = frozenset({"wild"}) if down else frozenset(K.ACTIONS + ("wild",))
        else:
            uses[value] = frozenset() if down else frozenset(meanings)
    return uses


def _corner_spots(s: State, team: int) -> list[list[float]]:
    return [list(villages.CORNERS[c]) for c in s["corners"][str(team)]]


def _deploy_problem(s: State, kid_id: str, to: list[float]) -> str | None:
    kid = s["kids"][kid_id]
    reach = DEPLOY_DISTANCE - kid["radius"]
    corners = _corner_spots(s, kid["team"])
    gaps = [distance(to, c) for c in corners]
    if not any(within(g, reach) for g in gaps):
        return (f"{_at(to)} is not within {DEPLOY_DISTANCE:.0f}\" of your team's corner"
                f"{'s' if len(corners) > 1 else ''}: the whole base must be, so its centre at most "
                f"{_inches(reach)} away (it is {_inches(min(gaps))}).")
    problem = placement_problem(_terrain(s), _bases(s), to, kid["radius"], ignore=(kid_id,))
    if problem:
        return f"{kid['name']} cannot stand at {_at(to)}: {_problem_words(s, problem)}."
    return None


def _problem_words(s: State, problem: str) -> str:
    if problem == "outside":
        return "the base would stick out of the village"
    if problem in s["kids"]:
        return f"the base would overlap {s['kids'][problem]['name']}"
    piece = next(p for p in s["terrain"] if p["id"] == problem)
    if piece["indoors"]:
        return f"no going indoors ({piece['label']}, {problem})"
    return f"the base would overlap {_the(piece['label'])} ({problem})"


_DEPLOY_OFFSETS = tuple(sorted(((i * 0.5 + 0.5, j * 0.5 + 0.5) for i in range(11) for j in range(11)),
                               key=lambda d: (d[0] ** 2 + d[1] ** 2, d)))
"""Offsets into the village from a corner, on a half-inch grid, nearest first: where set-up examples are looked for."""


def example_placement(s: State, kid_id: str) -> list[float] | None:
    """A legal spot for a Kid being set up: the free spot nearest one of its corners, on a half-inch grid."""
    kid = s["kids"][kid_id]
    corners = tuple(villages.CORNERS[c] for c in s["corners"][str(kid["team"])])
    spot = _free_deploy_spot(_terrain(s), _base_tuples(s), kid_id, kid["radius"], corners)
    return list(spot) if spot is not None else None


@functools.lru_cache(maxsize=64)
def _free_deploy_spot(terrain: Any, bases: tuple, kid_id: str, radius: float,
                      corners: tuple) -> tuple[float, float] | None:
    """:func:`example_placement` worked out once: a seat's prompt and legal actions ask for the same spot."""
    reach = DEPLOY_DISTANCE - radius
    for corner in corners:
        sx = 1.0 if corner[0] == 0 else -1.0
        sy = 1.0 if corner[1] == 0 else -1.0
        for dx, dy in _DEPLOY_OFFSETS:
            to = [corner[0] + sx * dx, corner[1] + sy * dy]
            if any(within(distance(to, c), reach) for c in corners) \
                    and placement_problem(terrain, bases, to, radius, ignore=(kid_id,)) is None:
                return to[0], to[1]
    return None


def _hand(s: State, seat: int) -> list[str]:
    return s["hands"][seat]


MOMENT_CARDS: dict[str, tuple[str, ...]] = {
    "start": ("not_done",), "throw_declared": ("dork", "dash"), "hit": ("grandma",), "caught": ("miracle",),
}
"""The cards a seat is asked about at each moment: the start of its Kid's activation, and the reactions."""


def _asks(s: State, seat: int, cards: tuple[str, ...] | list[str]) -> bool:
    """Whether the seat is asked about ``cards`` (what could be played at this moment, as everyone can
    tell): when ability cards are in play, it holds any card at all and has not set every one of
    ``cards`` to "never ask". Others see how many cards a seat holds and never which, so which ones it
    holds decides only what it is offered (:func:`_offered`), never whether it is asked."""
    return (s["options"]["ability_cards"] != "none" and bool(_hand(s, seat))
            and any(c not in s["never_ask"][seat] for c in cards))


def _about(pending: dict[str, Any]) -> list[str]:
    """The cards a pending reaction question is about (for a question stored without them, the cards
    it offers)."""
    return pending.get("about", pending["cards"])


def _offered(s: State, seat: int, cards: tuple[str, ...] | list[str]) -> list[str]:
    """Those of ``cards`` the seat holds and has not set to "never ask": what its question offers (maybe none)."""
    hand, muted = _hand(s, seat), s["never_ask"][seat]
    return [c for c in cards if c in hand and c not in muted]


@functools.lru_cache(maxsize=256)
def _vault_landings(terrain: Any, x: float, y: float, radius: float) -> tuple[tuple[str, tuple[float, float]], ...]:
    """Where a base at (x, y) lands vaulting each vaultable piece it touches, remembered: a Kid that stays
    put is offered the same vaults at every action of its activation."""
    found = []
    for piece_id in terrain.vaultable:
        landing = vault_landing(terrain, piece_id, (x, y), radius)
        if landing is not None:
            found.append((piece_id, tuple(landing)))
    return tuple(found)


@functools.lru_cache(maxsize=64)
def _move_walker(terrain: Any, bases: tuple, kid_id: str, snowless: tuple[str, ...]) -> Walker:
    """The shortest ways for a Kid's MOVE from one state, remembered (with the paths it has found):
    the drawn area, the check of the chosen point and every seat's view of the state ask for them."""
    start, radius = next((pos, r) for k, pos, r in bases if k == kid_id)
    return Walker(terrain, bases, kid_id, start, radius, extra=snowless, extra_radius=0.0)


# --- the ruleset --------------------------------------------------------------------------------

class WhatASnowball:
    """Ruleset for the miniatures skirmish; see the module docstring for the phases."""

    slug = "what-a-snowball"
    name = "What a Snowball!"
    score_unit = "points"
    score_unit_one = "point"
    reveal_events = frozenset()
    review_reveals = frozenset({"roll_off", "turn", "card", "point"})  # roll-off, initiative, a card played, a point
    min_players = 2
    max_players = 12
    team_counts = (2, 3, 4)
    options = (
        Option(name="village", label="Village", kind="choice", default=villages.DEFAULT, choices=villages.CHOICES,
               help="The 24 x 24 inch Christmas village the fight takes place in."),
        Option(name="special_players", label="Special players (optional rules)", kind="bool", default=False,
               help="Allow Big Kids, Christmas Elves, Living Snowmen, Yetis and Penguins in the roster."),
        Option(name="ability_cards", label="Ability cards (optional rules)", kind="choice", default="none",
               choices=(("none", "No ability cards"),
                        ("method1", "Method 1: draw one on 3 points or on sending an enemy home"),
                        ("method2", "Method 2: draw at the start (3 for one Kid, else one per Kid)"))),
        Option(name="kids", label="Kids", kind="roster", default=None,
               help="Each Kid's name, the player who commands it, its type and Trait(s): 6 to 12 Kids, 1 to 3 per "
                    "player, every team the same size. Left empty, the game makes equal teams of ready-made Kids. "
                    f"Types: {', '.join(K.TYPES)} (all but kid with special players); Traits: "
                    f"{', '.join(K.TRAITS)}, in any letter case."),
    )

    # -- creation ---------------------------------------------------------------------------

    canonical_options = staticmethod(canonical_options)

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

    # -- who is asked -----------------------------------------------------------------------

    def _asked(self, s: State) -> dict[int, str]:
        phase = s["phase"]
        if phase == "corners":
            team = self._picking_team(s)
            return {self._team_seats(s, team)[0]: "corner"}
        if phase == "deploy":
            team = self._deploying_team(s)
            return {seat: "place" for seat in self._team_seats(s, team)
                    if any(k["seat"] == seat and k["pos"] is None for k in s["kids"].values())}
        if phase == "play":
            pending = s["pending"]
            if pending is not None:
                return {pending["seat"]: pending["kind"]}
            activation = s["activation"]
            if activation is not None:
                return {s["kids"][activation["kid"]]["seat"]: activation["stage"]}
        return {}

    def _team_seats(self, s: State, team: int) -> list[int]:
        return [seat for seat, t in enumerate(s["seat_team"]) if t == team]

    def _picks(self, s: State) -> list[int]:
        """The team picking each corner, in order: roll-off order, twice round with two teams."""
        order = s["team_order"]
        return order * 2 if s["team_count"] == 2 else list(order)

    def _picking_team(self, s: State) -> int:
        return self._picks(s)[s["pick_index"]]

    def _deploying_team(self, s: State) -> int:
        for team in s["team_order"]:
            if any(k["team"] == team and k["pos"] is None and k["home"] is None for k in s["kids"].values()):
                return team
        return s["team_order"][-1]

    def to_act(self, state: State) -> dict[int, Prompt]:
        return {seat: self._prompt(state, seat, kind) for seat, kind in self._asked(state).items()}

    def _prompt(self, s: State, seat: int, kind: str) -> Prompt:
        if kind == "corner":
            free = self._free_corners(s)
            return Prompt("turn", f"Pick a corner for team {TEAM_NAMES[s['seat_team'][seat]]}.", TIMEOUTS["corner"],
                          {"type": "corner", "corner": free[0]}, {"corners": free})
        if kind == "place":
            kid_id = next(k for k in s["kid_order"] if s["kids"][k]["seat"] == seat and s["kids"][k]["pos"] is None)
            spot = example_placement(s, kid_id)
            return Prompt("turn", f"Place your Kids within {DEPLOY_DISTANCE:.0f}\" of your corner.", TIMEOUTS["place"],
                          {"type": "place", "kid": kid_id, "to": spot} if spot else None, {"kid": kid_id})
        activation = s["activation"]
        if kind == "start":
            name = s["kids"][activation["kid"]]["name"]
            cards = _offered(s, seat, MOMENT_CARDS["start"])
            text = (f"{name} activates: roll Command Dice or play \"I'm not done yet!\"." if cards else
                    f"{name} activates: you have no card to play now; roll Command Dice.")
            return Prompt("turn", text, TIMEOUTS["start"], {"type": "roll"}, {"kid": activation["kid"], "cards": cards})
        if kind == "turn":
            name = s["kids"][activation["kid"]]["name"]
            return Prompt("turn", f"{name}'s activation: spend a Command Die or end the activation.",
                          TIMEOUTS["turn"], {"type": "end_activation"},
                          {"kid": activation["kid"], "tray": list(activation["tray"])})
        pending = s["pending"]
        if kind == "move_to":
            kid = s["kids"][pending["kid"]]
            return Prompt("effect", f"{kid['name']} moves up to {_inches(pending['roll'])}: choose where.",
                          TIMEOUTS["move_to"], {"type": "move_to", "to": list(kid["pos"])},
                          {"kid": pending["kid"], "roll": pending["roll"]})
        cards = pending["cards"]
        titles = " or ".join(f"\"{K.CARDS[c]['title']}\"" for c in cards)
        question = f"Play {titles}?" if cards else "You have no card to play now."
        return Prompt("reaction", f"{pending['text']} {question}", TIMEOUTS["reaction"], {"type": "decline"},
                      {"cards": list(cards), "moment": pending["moment"]})

    def _free_corners(self, s: State) -> list[int]:
        taken = {c for picks in s["corners"].values() for c in picks}
        return [c for c in range(4) if c not in taken]

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """A seat's legal actions. The asked seat's turn, MOVE and set-up actions are worked out once per
        state (the server asks for them for the prompt and again for the seat's view): later calls get a
        fresh copy."""
        s = state
        if not isinstance(seat, int) or not 0 <= seat < s["players"]:
            return []
        kind = self._asked(s).get(seat)
        if kind not in _WORTH_REMEMBERING:
            return self._legal_actions(s, seat, kind)
        memo = _memo(s)
        known = memo.get(("legal", seat))
        if known is not None:
            return marshal.loads(known)  # a copy: a caller may build its action from the one it was given
        found = self._legal_actions(s, seat, kind)
        memo[("legal", seat)] = marshal.dumps(found)
        return found

    def _legal_actions(self, s: State, seat: int, kind: str | None) -> list[Action]:
        found: list[Action] = []
        if kind == "corner":
            found = [{"type": "corner", "corner": c} for c in self._free_corners(s)]
        elif kind == "place":
            for kid_id in s["kid_order"]:
                kid = s["kids"][kid_id]
                if kid["seat"] == seat and kid["pos"] is None:
                    found.append({"type": "place", "kid": kid_id, "corners": _corner_spots(s, kid["team"]),
                                  "within": DEPLOY_DISTANCE - kid["radius"], "piece_radius": kid["radius"],
                                  "must_avoid": self._avoid_list(s, kid["radius"]),
                                  "example": {"type": "place", "kid": kid_id, "to": example_placement(s, kid_id)}})
        elif kind == "start":
            found = [{"type": "roll"}] + [{"type": "play_card", "card": c}
                                          for c in _offered(s, seat, MOMENT_CARDS["start"])]
        elif kind == "turn":
            found = self._turn_actions(s)
        elif kind == "move_to":
            found = [self._move_region(s)]
        elif kind == "reaction":
            found = [{"type": "play_card", "card": c} for c in s["pending"]["cards"]] + [{"type": "decline"}]
        if s["phase"] != "over":
            if s["options"]["ability_cards"] != "none":
                found += [{"type": "set_never_ask", "card": c, "on": c not in s["never_ask"][seat]}
                          for c in K.ASKED_CARDS]
            found.append({"type": "surrender", "on": not s["surrender_votes"][seat]})
        return found

    def _avoid_list(self, s: State, radius: float) -> list[dict[str, Any]]:
        shapes: list[dict[str, Any]] = [
            {"kind": "circle", "id": k, "center": list(s["kids"][k]["pos"]), "radius": radius + s["kids"][k]["radius"]}
            for k in _in_play(s)]
        shapes += [{"kind": "polygon", "id": p["id"], "points": p["points"], "clearance": radius}
                   for p in s["terrain"] if p["blocks_movement"]]
        return shapes

    def _turn_actions(self, s: State) -> list[Action]:
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        found: list[Action] = []
        on_snow = _on_snow(s, kid["pos"])
        vaults = gathers = throws = None
        uses_by_face = _uses_by_face(kid)
        for value in sorted(set(activation["tray"])):
            uses = uses_by_face[value]
            if "move" in uses:
                found.append({"type": "move", "die": value})
                if kid["type"] == "penguin" and on_snow:
                    found.append({"type": "move", "die": value, "slide": True})
                if vaults is None:
                    vaults = self._vault_options(s, kid_id)
                found += [{"type": "vault", "die": value, "terrain": piece_id, "to": list(landing)}
                          for piece_id, landing in vaults]
            if "gather" in uses and on_snow:
                if gathers is None:
                    gathers = self._gather_options(s, kid_id)
                found += [{"type": "gather", "die": value, **g} for g in gathers]
            if "aim" in uses:
                found.append({"type": "aim", "die": value})
            if "throw" in uses:
                if throws is None:
                    throws = self._throw_options(s, kid_id)
                found += [{"type": "throw", "die": value, "target": target, "snowball": ball, "cards": list(cards)}
                          for target, ball, cards in throws]
            if "wild" in uses:
                if kid["command_dice"] < K.MAX_COMMAND_DICE:
                    found.append({"type": "wild", "die": value, "use": "recover"})
                found.append({"type": "wild", "die": value, "use": "prepare"})
                if kid["down"]:
                    found.append({"type": "wild", "die": value, "use": "get_up"})
        found += self._own_card_actions(s, kid_id)
        found.append({"type": "end_activation"})
        return found

    def _can_spend(self, s: State) -> bool:
        """Whether the active Kid's activation stays open: while its seat holds any ability card (which
        ones must not show, and a card might be played: the player ends the activation), or while
        :meth:`_turn_actions` offers a die to spend, the cheap checks first: a MOVE, AIM or Wild die is
        always usable, GATHER SNOW whenever the Kid stands on snow (it can always make a new snowball),
        THROW when it has a throw."""
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        if s["options"]["ability_cards"] != "none" and _hand(s, kid["seat"]):
            return True
        uses_by_face = _uses_by_face(kid)
        uses: set[str] = set()
        for value in set(activation["tray"]):
            uses |= uses_by_face[value]
        if not uses.isdisjoint(("wild", "move", "aim")):
            return True
        if "gather" in uses and _on_snow(s, kid["pos"]):
            return True
        return "throw" in uses and bool(self._throw_options(s, kid_id))

    def _vault_options(self, s: State, kid_id: str) -> list[tuple[str, list[float]]]:
        """Each vaultable piece the Kid can vault now, with where it lands."""
        kid = s["kids"][kid_id]
        if kid["down"]:
            return []
        terrain = _terrain(s)
        pos = kid["pos"]
        return [(piece_id, list(landing))
                for piece_id, landing in _vault_landings(terrain, pos[0], pos[1], kid["radius"])
                if not placement_problem(terrain, _bases(s), landing, kid["radius"], ignore=(kid_id,))]

    def _gather_options(self, s: State, kid_id: str) -> list[dict[str, Any]]:
        kid = s["kids"][kid_id]
        options: list[dict[str, Any]] = [{"make": "new"}]
        sizes = sorted(set(kid["snowballs"]))
        options += [{"make": "grow", "size": size} for size in sizes if size < K.MAX_SIZE]
        if sizes:
            kids = s["kids"]
            for mate_id in s["kid_order"]:
                mate = kids[mate_id]
                if mate["team"] == kid["team"] and mate_id != kid_id and mate["home"] is None \
                        and mate["pos"] is not None \
                        and within(base_gap(kid["pos"], kid["radius"], mate["pos"], mate["radius"]), GIVE_DISTANCE):
                    options += [{"make": "give", "size": size, "to": mate_id} for size in sizes]
        if kid["type"] == "snowman" and kid["command_dice"] < K.MAX_COMMAND_DICE:
            options.append({"make": "mend"})
        return options

    def _throw_options(self, s: State, kid_id: str) -> list[tuple[str, Any, list[str]]]:
        """Every throw the Kid can make, as (target, snowball, cards): each enemy it sees, each snowball it
        holds, each card combination."""
        kid = s["kids"][kid_id]
        balls: list[Any] = sorted(set(kid["snowballs"]))
        if kid["type"] == "snowman" and kid["command_dice"] >= 2:
            balls.append("self")
        if not balls:
            return []
        hand = _hand(s, kid["seat"])
        combos: list[list[str]] = [[]]
        for card in ("pitch", "ice"):
            if card in hand:
                combos += [c + [card] for c in combos]
        options = []
        for target in _visible_enemies(s, kid_id):
            too_close = self._too_close(s, kid_id, target)
            for ball in balls:
                for combo in combos:
                    if too_close and "pitch" in combo:
                        continue
                    options.append((target, ball, combo))
        return options

    def _own_card_actions(self, s: State, kid_id: str) -> list[Action]:
        kid = s["kids"][kid_id]
        hand = _hand(s, kid["seat"])
        found: list[Action] = []
        if "saving" in hand:
            found += [{"type": "play_card", "card": "saving", "choice": c} for c in K.SAVING_CHOICES]
        if "dash" in hand and not kid["down"]:
            found.append({"type": "play_card", "card": "dash"})
        if "miracle" in hand and kid["type"] in ("elf", "yeti"):
            found.append({"type": "play_card", "card": "miracle"})
        return found

    def _vault_spot(self, s: State, kid_id: str, piece_id: str) -> list[float] | None:
        """Where the Kid lands vaulting ``piece_id`` now; None when it cannot vault it."""
        return next((landing for piece, landing in self._vault_options(s, kid_id) if piece == piece_id), None)

    def _walker(self, s: State, kid_id: str, slide: bool) -> Walker:
        bases = tuple((k, tuple(pos), r) for k, pos, r in _bases(s))
        snowless = tuple(p["id"] for p in s["terrain"] if p["snowless"]) if slide else ()
        return _move_walker(_terrain(s), bases, kid_id, snowless)

    def _move_region(self, s: State) -> Action:
        pending = s["pending"]
        kid_id = pending["kid"]
        kid = s["kids"][kid_id]
        rings = region_rings(self._walker(s, kid_id, pending["slide"]).region(float(pending["roll"])))
        return {
            "type": "move_to", "kid": kid_id, "from": list(kid["pos"]), "roll": pending["roll"],
            "piece_radius": kid["radius"], "tolerance": TOLERANCE, "keeps_off_snowless": pending["slide"],
            "region": rings, "must_avoid": self._avoid_list(s, kid["radius"]),
            "shove": self._shove_candidates(s, kid_id) if pending["shove"] else [],
            "example": {"type": "move_to", "to": list(kid["pos"])},
        }

    def _shove_candidates(self, s: State, kid_id: str) -> list[str]:
        kid = s["kids"][kid_id]
        return [e for e in _enemies(s, kid_id) if not s["kids"][e]["down"] and can_cheat(kid, s["kids"][e])]

    def _too_close(self, s: State, thrower: str, target: str) -> bool:
        return within(_gap(s, thrower, target), TOO_CLOSE) and can_cheat(s["kids"][thrower], s["kids"][target])

    # -- applying actions -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadAction('An action must be an object with a "type".')
        kind = action["type"]
        if kind not in ACTION_TYPES:
            raise BadAction(f"Unknown action {shown(kind)}; this game knows {', '.join(ACTION_TYPES)}.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise NotYourTurn(f"There is no seat {shown(seat)} in this game.")
        if state["phase"] == "over":
            raise IllegalAction("The game is over.")
        s = _copy(state)
        events: list[Event] = []
        if kind in ANYTIME:
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        else:
            asked = self._asked(s)
            if seat not in asked:
                waiting = ", ".join(f"{_p(other)} to {ASKED_WORDS[k]}" for other, k in asked.items())
                raise NotYourTurn(f"It is not your turn: waiting for {waiting}.")
            if kind not in ALLOWED[asked[seat]]:
                raise IllegalAction(f"You cannot {kind} now: you are asked to {ASKED_WORDS[asked[seat]]}.")
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        self._advance(s, events)
        return s, events

    # setup

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

    # cards

    def _draw(self, s: State, seat: int, count: int, events: list[Event], why: str) -> None:
        deck = s["deck"]
        kept = max(0, len(deck) - count)
        drawn = deck[kept:][::-1]
        s["deck"] = deck[:kept]
        if len(drawn) < count:
            _event(events, "deck_empty", "The ability-card pile is empty.", seat=seat)
        s["hands"][seat] = s["hands"][seat] + drawn
        if drawn:
            _event(events, "draw", f"{_p(seat)} draws {_count(len(drawn), 'ability card')} ({why}).", seat=seat,
                   count=len(drawn), why=why)
            _event(events, "drawn", f"You draw {', '.join(K.CARDS[c]['title'] for c in drawn)}.", seat=seat,
                   cards=drawn, visible_to=[seat])

    def _discard(self, s: State, seat: int, card: str, events: list[Event], kid_id: str | None) -> None:
        s["hands"][seat] = _without(s["hands"][seat], card)
        s["discards"] = s["discards"] + [card]
        who = f" for {s['kids'][kid_id]['name']}" if kid_id else ""
        _event(events, "card", f"{_p(seat)} plays \"{K.CARDS[card]['title']}\"{who}.", seat=seat, card=card,
               kid=kid_id)

    def _need_card(self, s: State, seat: int, card: Any) -> str:
        if card not in K.CARDS:
            raise BadAction(f"There is no ability card {shown(card)}; cards are {', '.join(K.CARD_NAMES)}.")
        if card not in _hand(s, seat):
            raise IllegalAction(f"You do not hold \"{K.CARDS[card]['title']}\".")
        return card

    def _do_set_never_ask(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = _str(action, "card")
        if card not in K.ASKED_CARDS:
            raise BadAction(f"Only the cards you are asked about ({', '.join(K.ASKED_CARDS)}) can be set to never "
                            f"ask, not {shown(card)}.")
        on = _bool(action, "on", True)
        settings = s["never_ask"][seat]
        if on and card not in settings:
            s["never_ask"][seat] = settings + [card]
        if not on and card in settings:
            s["never_ask"][seat] = _without(settings, card)
        _event(events, "setting", f"You will {'never be asked' if on else 'be asked'} to play "
               f"\"{K.CARDS[card]['title']}\".", seat=seat, card=card, never_ask=on, visible_to=[seat])
        if not on:
            return
        # a question this setting closes is answered as the game would answer it without asking
        pending, activation = s["pending"], s["activation"]
        if pending is not None and pending["seat"] == seat and pending["kind"] == "reaction" \
                and card in _about(pending):
            pending["cards"] = [c for c in pending["cards"] if c != card]
            if not _asks(s, seat, _about(pending)):
                self._answer_reaction(s, events, None)
        elif pending is None and activation is not None and activation["stage"] == "start" \
                and s["kids"][activation["kid"]]["seat"] == seat and card in MOMENT_CARDS["start"] \
                and not _asks(s, seat, MOMENT_CARDS["start"]):
            self._roll_command_dice(s, events, s["kids"][activation["kid"]]["command_dice"])

    def _do_surrender(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        on = _bool(action, "on", True)
        s["surrender_votes"][seat] = on
        team = s["seat_team"][seat]
        seats = self._team_seats(s, team)
        agreed = sum(1 for x in seats if s["surrender_votes"][x])
        _event(events, "surrender_vote", f"{_p(seat)} {'votes to surrender' if on else 'withdraws the surrender'}"
               f" (team {TEAM_NAMES[team]}: {agreed} of {len(seats)} agree).", seat=seat, team=team, on=on,
               agreed=agreed, needed=len(seats))

    def _do_play_card(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = self._need_card(s, seat, action.get("card"))
        pending = s["pending"]
        if pending is not None:
            if card not in pending["cards"]:
                raise IllegalAction(f"\"{K.CARDS[card]['title']}\" cannot be played now; you may play "
                                    f"{', '.join(pending['cards']) or 'nothing'}.")
            self._answer_reaction(s, events, card)
            return
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        if activation["stage"] == "start":
            if card != "not_done":
                raise IllegalAction("Before rolling you may play only \"I'm not done yet!\"; roll first for others.")
            if card not in _offered(s, seat, MOMENT_CARDS["start"]):
                raise IllegalAction("You set \"I'm not done yet!\" to never ask; roll, or switch the setting back.")
            self._discard(s, seat, card, events, kid_id)
            self._roll_command_dice(s, events, 6)
            return
        if card == "saving":
            choice = _str(action, "choice")
            if choice not in K.SAVING_CHOICES:
                raise BadAction(f'"choice" must be one of {", ".join(K.SAVING_CHOICES)}, not {shown(choice)}.')
            self._discard(s, seat, card, events, kid_id)
            kid["snowballs"] = sorted(kid["snowballs"] + K.SAVING_CHOICES[choice])
            _event(events, "stash", f"{kid['name']} pulls out a stash: snowballs of Size "
                   f"{', '.join(map(str, K.SAVING_CHOICES[choice]))}.", kid=kid_id, gained=K.SAVING_CHOICES[choice],
                   snowballs=list(kid["snowballs"]))
        elif card == "dash":
            if kid["down"]:
                raise IllegalAction(f"{kid['name']} is knocked down: get up before dashing.")
            self._discard(s, seat, card, events, kid_id)
            self._start_dash(s, events, kid_id, then=None)
        elif card == "miracle":
            if kid["type"] not in ("elf", "yeti"):
                raise IllegalAction("\"A Christmas Miracle!\" is played when a Kid is about to be removed for "
                                    "cheating; only for a Kid that cannot cheat (an Elf or a Yeti) may it be "
                                    "swapped for two cards.")
            self._discard(s, seat, card, events, kid_id)
            self._draw(s, seat, 2, events, "A Christmas Miracle!")
        else:
            raise IllegalAction(f"\"{K.CARDS[card]['title']}\" is played {K.CARDS[card]['when']}.")

    def _do_decline(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        self._answer_reaction(s, events, None)

    def _start_dash(self, s: State, events: list[Event], kid_id: str, then: str | None) -> None:
        rng = rng_for(s)
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        kid = s["kids"][kid_id]
        _event(events, "move_roll", f"{kid['name']} dashes: rolls {dice[0]} + {dice[1]} = {sum(dice)} inches.",
               kid=kid_id, dice=dice, roll=sum(dice), source="dash")
        s["pending"] = {"kind": "move_to", "seat": kid["seat"], "kid": kid_id, "roll": sum(dice), "dice": dice,
                        "slide": False, "shove": False, "source": "dash", "then": then}

    def _answer_reaction(self, s: State, events: list[Event], card: str | None) -> None:
        """Play a reaction card (or decline) and carry on with what the reaction interrupted."""
        pending = s["pending"]
        seat, moment = pending["seat"], pending["moment"]
        throw = s["throw"]
        if card is None:
            _event(events, "decline", f"{_p(seat)} plays no card.", seat=seat)
            s["pending"] = None
            self._resume(s, events, moment)
            return
        kid_id = pending["kid"]
        self._discard(s, seat, card, events, kid_id)
        if card == "dork":
            throw["dork"] = True
        elif card == "grandma":
            throw["grandma"] = True
        elif card == "dash":
            s["pending"] = None
            self._start_dash(s, events, kid_id, then=moment)
            return
        elif card == "miracle":
            _event(events, "miracle", f"{s['kids'][kid_id]['name']}'s parents are distracted at the last second: "
                   "nothing happens.", kid=kid_id)
            s["pending"] = None
            self._resume(s, events, "miracle")
            return
        # still asked about the moment's other cards, if any (each is played once a moment)
        about = [c for c in _about(pending) if c != card]
        if _asks(s, seat, about):
            pending["about"], pending["cards"] = about, _offered(s, seat, about)
            return
        s["pending"] = None
        self._resume(s, events, moment)

    def _resume(self, s: State, events: list[Event], moment: str | None) -> None:
        """Carry on after a question: the throw in progress, a cheat's aftermath, or the activation."""
        if moment in ("throw_declared", "hit"):
            self._run_throw(s, events)
        elif moment in ("caught", "miracle"):
            cheat = s["pending_cheat"]
            s["pending_cheat"] = None
            if moment == "caught" and cheat is not None:
                self._send_home(s, events, cheat["aggressor"], "parents")
            self._finish_action(s, events)

    # the activation

    def _do_roll(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid = s["kids"][s["activation"]["kid"]]
        self._roll_command_dice(s, events, kid["command_dice"])

    def _roll_command_dice(self, s: State, events: list[Event], count: int) -> None:
        activation = s["activation"]
        kid_id = activation["kid"]
        rng = rng_for(s)
        tray = sorted(rng.randint(1, 6) for _ in range(count))
        activation["tray"] = tray
        activation["stage"] = "turn"
        kid = s["kids"][kid_id]
        _event(events, "command_dice", f"{kid['name']} rolls {_count(count, 'Command Die', 'Command Dice')}: "
               f"{_dice_words(tray)}.", kid=kid_id, dice=tray, count=count, pool=kid["command_dice"])

    def _spend(self, s: State, action: Action, result: str) -> tuple[str, dict[str, Any], int]:
        """The active Kid, and the die named by the action, checked as spendable for ``result``; removes it."""
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        value = _int(action, "die")
        if value not in activation["tray"]:
            raise IllegalAction(f"{kid['name']} has no {value} left (dice: {_dice_words(activation['tray'])}).")
        if not _can_spend_as(kid, value, result):
            if kid["down"] and result != "wild":
                raise IllegalAction(f"{kid['name']} is knocked down and can spend only Wild Dice until it gets up.")
            meanings = " or ".join(K.ACTION_LABELS[m] for m in _meanings(kid, value))
            raise IllegalAction(f"For {kid['name']} a {value} is {meanings}, not {K.ACTION_LABELS[result]}.")
        return kid_id, kid, value

    def _use_die(self, s: State, value: int) -> None:
        s["activation"]["tray"].remove(value)

    def _as_words(self, kid: dict[str, Any], value: int, result: str) -> str:
        if result in _meanings(kid, value):
            return f"a {value}"
        return f"a {value} (Wild, as {K.ACTION_LABELS[result]})"

    def _do_move(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "move")
        slide = _bool(action, "slide")
        if slide:
            if kid["type"] != "penguin":
                raise IllegalAction(f"Only Penguins slide; {kid['name']} is a {K.TYPES[kid['type']]['label']}.")
            if not _on_snow(s, kid["pos"]):
                raise IllegalAction(f"{kid['name']} stands on snowless ground and cannot slide from here.")
        self._use_die(s, value)
        rng = rng_for(s)
        dice = [rng.randint(1, 6)] + ([rng.randint(1, 6)] if slide else [])
        how = "slides on its belly" if slide else "moves"
        _event(events, "move_roll", f"{kid['name']} spends {self._as_words(kid, value, 'move')} on MOVE and "
               f"{how}: rolls {' + '.join(map(str, dice))} = {sum(dice)} inches.", kid=kid_id, die=value,
               dice=dice, roll=sum(dice), slide=slide, source="move")
        s["pending"] = {"kind": "move_to", "seat": seat, "kid": kid_id, "roll": sum(dice), "dice": dice,
                        "slide": slide, "shove": True, "source": "move", "then": None}

    def _do_move_to(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        pending = s["pending"]
        kid_id = pending["kid"]
        kid = s["kids"][kid_id]
        to = _point(_field(action, "to"), "to")
        shove = action.get("shove")
        if shove is not None and not isinstance(shove, str):
            raise BadAction(f'"shove" must be a Kid id or null, not {shown(shove)}.')
        problem = placement_problem(_terrain(s), _bases(s), to, kid["radius"], ignore=(kid_id,))
        if problem:
            raise IllegalAction(f"{kid['name']} cannot stand at {_at(to)}: {_problem_words(s, problem)}.")
        walker = self._walker(s, kid_id, pending["slide"])
        length = walker.path_length(to, pending["roll"])
        if length is None:
            keep = " keeping to snow" if pending["slide"] else ""
            raise IllegalAction(f"{kid['name']} cannot reach {_at(to)} with {_inches(pending['roll'])}{keep}: the "
                                "shortest way round terrain and other Kids is longer.")
        if shove is not None:
            if not pending["shove"]:
                raise IllegalAction("Only a MOVE bought with a Command Die can knock another Kid down.")
            victim = s["kids"].get(shove)
            if victim is None or not _in_the_village(victim):
                raise BadAction(f"There is no Kid {shown(shove)} in the village.")
            if victim["team"] == kid["team"]:
                raise IllegalAction(f"{victim['name']} is on your team.")
            if not can_cheat(kid, victim):
                raise IllegalAction(self._no_cheat_words(kid, victim))
            if victim["down"]:
                raise IllegalAction(f"{victim['name']} is already knocked down.")
            if not in_contact(to, kid["radius"], victim["pos"], victim["radius"]):
                gap = base_gap(to, kid["radius"], victim["pos"], victim["radius"])
                raise IllegalAction(f"To knock {victim['name']} down, end the move in base contact "
                                    f"(it would be {_inches(gap)} away).")
        start = kid["pos"]
        kid["pos"] = to
        s["pending"] = None
        text = (f"{kid['name']} moves {_inches(length)} of {_inches(pending['roll'])} to {_at(to)}." if length > 0
                else f"{kid['name']} stays at {_at(to)} (could have moved {_inches(pending['roll'])}).")
        _event(events, "move", text, kid=kid_id, start=start, to=to, path=round(length, 3), roll=pending["roll"], source=pending["source"])
        if pending["then"] is not None:
            self._after_dash(s, events, pending["then"])
            return
        if shove is not None:
            self._shove(s, events, kid_id, shove)
            return
        self._finish_action(s, events)

    def _after_dash(self, s: State, events: list[Event], moment: str) -> None:
        """Back to the throw a dash interrupted; the target may still play "Missed me, dork!"."""
        throw = s["throw"]
        target = s["kids"][throw["target"]]
        about = [] if throw["dork"] else ["dork"]
        if self._question(s, target["seat"], moment, throw["target"],
                          f"{s['kids'][throw['thrower']]['name']} throws at {target['name']}.", about):
            return
        self._resume(s, events, moment)

    def _no_cheat_words(self, kid: dict[str, Any], victim: dict[str, Any]) -> str:
        if kid["type"] == "yeti":
            return f"{kid['name']} is a Yeti: too stupid and friendly to cheat."
        if kid["type"] == "elf":
            return f"{kid['name']} is an Elf: its code of honour allows cheating only against Snowmen."
        return f"Santa's Watching: nobody but a Snowman cheats against {victim['name']}, a Christmas Elf."

    def _do_vault(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "move")
        piece_id = _str(action, "terrain")
        piece = next((p for p in s["terrain"] if p["id"] == piece_id), None)
        if piece is None:
            raise BadAction(f"There is no terrain piece {shown(piece_id)}.")
        if not piece["vaultable"]:
            raise IllegalAction(f"The {piece['label']} ({piece_id}) is not shorter than a Kid: it cannot be vaulted.")
        landing = self._vault_spot(s, kid_id, piece_id)
        if landing is None:
            raise IllegalAction(f"{kid['name']} must be in contact with the {piece['label']} ({piece_id}) and have "
                                "room on the far side to vault it.")
        self._use_die(s, value)
        start = kid["pos"]
        kid["pos"] = landing
        _event(events, "vault", f"{kid['name']} spends {self._as_words(kid, value, 'move')} vaulting over the "
               f"{piece['label']} to {_at(landing)}.", kid=kid_id, die=value, terrain=piece_id, start=start,
               to=landing)
        self._finish_action(s, events)

    def _do_gather(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "gather")
        if not _on_snow(s, kid["pos"]):
            raise IllegalAction(f"{kid['name']} stands on snowless ground (a gritted road): no snow to gather.")
        make = _str(action, "make")
        amount = K.TYPES[kid["type"]]["gather"]
        spent = self._as_words(kid, value, "gather")
        if make == "new":
            self._use_die(s, value)
            kid["snowballs"] = sorted(kid["snowballs"] + [amount])
            text = f"makes a new Size {amount} snowball"
            data: dict[str, Any] = {"size": amount}
        elif make == "grow":
            size = self._ball(kid, action)
            if size >= K.MAX_SIZE:
                raise IllegalAction(f"A Size {size} snowball cannot grow: Size {K.MAX_SIZE} is the largest.")
            self._use_die(s, value)
            grown = min(K.MAX_SIZE, size + amount)
            kid["snowballs"] = sorted(_without(kid["snowballs"], size) + [grown])
            text = f"grows a Size {size} snowball to Size {grown}"
            data = {"size": size, "grown": grown}
        elif make == "give":
            size = self._ball(kid, action)
            mate_id = _str(action, "to")
            mate = s["kids"].get(mate_id)
            if mate is None or not _in_the_village(mate):
                raise BadAction(f"There is no Kid {shown(mate_id)} in the village.")
            if mate["team"] != kid["team"] or mate_id == kid_id:
                raise IllegalAction(f"{mate['name']} is not a team-mate of {kid['name']}.")
            gap = _gap(s, kid_id, mate_id)
            if not within(gap, GIVE_DISTANCE):
                raise IllegalAction(f"{mate['name']} is {_inches(gap)} from {kid['name']}; a snowball can be given "
                                    f"within {GIVE_DISTANCE:.0f}\".")
            self._use_die(s, value)
            kid["snowballs"] = _without(kid["snowballs"], size)
            mate["snowballs"] = sorted(mate["snowballs"] + [size])
            text = f"gives a Size {size} snowball to {mate['name']} ({_inches(gap)} away)"
            data = {"size": size, "to": mate_id, "gap": round(gap, 3)}
        elif make == "mend":
            if kid["type"] != "snowman":
                raise IllegalAction("Only a Living Snowman can gather snow to replace a lost Command Die.")
            if kid["command_dice"] >= K.MAX_COMMAND_DICE:
                raise IllegalAction(f"{kid['name']} has lost no Command Dice.")
            self._use_die(s, value)
            kid["command_dice"] += 1
            text = f"packs snow onto itself: {kid['command_dice']} Command Dice"
            data = {"command_dice": kid["command_dice"]}
        else:
            raise BadAction(f'"make" must be "new", "grow", "give" or "mend", not {shown(make)}.')
        _event(events, "gather", f"{kid['name']} spends {spent} on GATHER SNOW and {text}.", kid=kid_id, die=value,
               make=make, snowballs=list(kid["snowballs"]), **data)
        self._finish_action(s, events)

    def _ball(self, kid: dict[str, Any], action: Action) -> int:
        size = _int(action, "size")
        if size not in kid["snowballs"]:
            raise IllegalAction(f"{kid['name']} has no Size {size} snowball (sizes: "
                                f"{_dice_words(kid['snowballs'])}).")
        return size

    def _do_aim(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "aim")
        self._use_die(s, value)
        kid["aims"] += 1
        _event(events, "aim", f"{kid['name']} spends {self._as_words(kid, value, 'aim')} on AIM: +{kid['aims']} to "
               "the next throw.", kid=kid_id, die=value, aims=kid["aims"])
        self._finish_action(s, events)

    def _do_wild(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "wild")
        use = _str(action, "use")
        if use == "recover":
            if kid["command_dice"] >= K.MAX_COMMAND_DICE:
                raise IllegalAction(f"{kid['name']} has lost no Command Dice ({K.MAX_COMMAND_DICE} is the most).")
            kid["command_dice"] += 1
            text = f"recovers a Command Die ({kid['command_dice']} from next turn)"
        elif use == "prepare":
            kid["prepare"] += 1
            text = f"prepares: +{kid['prepare']} to its next Activation Order roll"
        elif use == "get_up":
            if not kid["down"]:
                raise IllegalAction(f"{kid['name']} is not knocked down.")
            kid["down"] = False
            text = "gets up"
        else:
            raise BadAction(f'"use" must be "recover", "prepare" or "get_up", not {shown(use)}; to act as another '
                            'result, send that action with this die.')
        self._use_die(s, value)
        _event(events, "wild", f"{kid['name']} spends a {value} (Wild) and {text}.", kid=kid_id, die=value, use=use,
               command_dice=kid["command_dice"], prepare=kid["prepare"], down=kid["down"])
        self._finish_action(s, events)

    def _do_end_activation(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id = s["activation"]["kid"]
        left = s["activation"]["tray"]
        _event(events, "end_activation", f"{s['kids'][kid_id]['name']} ends its activation"
               f"{f' with {_dice_words(left)} unspent' if left else ''}.", kid=kid_id, unspent=list(left), automatic=False)
        self._end_activation(s, events)

    # throwing

    def _do_throw(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "throw")
        target = _str(action, "target")
        victim = s["kids"].get(target)
        if victim is None or not _in_the_village(victim):
            raise BadAction(f"There is no Kid {shown(target)} in the village.")
        if victim["team"] == kid["team"]:
            raise IllegalAction(f"{victim['name']} is on your team: throw at another team's Kid.")
        ball = _field(action, "snowball")
        if ball == "self":
            if kid["type"] != "snowman":
                raise IllegalAction("Only a Living Snowman can throw a piece of itself.")
            if kid["command_dice"] < 2:
                raise IllegalAction(f"{kid['name']} has one Command Die left: it cannot throw its last piece.")
            size = 4
        elif isinstance(ball, bool) or not isinstance(ball, int):
            raise BadAction(f'"snowball" must be a snowball Size or "self", not {shown(ball)}.')
        else:
            if ball not in kid["snowballs"]:
                raise IllegalAction(f"{kid['name']} has no Size {ball} snowball (sizes: "
                                    f"{_dice_words(kid['snowballs'])}); you may not THROW without a snowball.")
            size = ball
        cards = action.get("cards", [])
        if not isinstance(cards, list) or any(c not in ("pitch", "ice") for c in cards) or len(set(cards)) != len(cards):
            raise BadAction(f'"cards" must list "pitch" and/or "ice" at most once each, not {shown(cards)}.')
        for card in cards:
            self._need_card(s, seat, card)
        fire = _fire(s, kid_id, target)
        if not fire["visible"]:
            raise IllegalAction(f"{kid['name']} cannot see {victim['name']}: {_blocker_words(s, fire['blocker'])} "
                                "is in the way.")
        too_close = self._too_close(s, kid_id, target)
        if too_close and "pitch" in cards:
            raise IllegalAction("A throw within 1\" hits automatically: there is no Roll to Hit to practise for.")
        self._use_die(s, value)
        if ball == "self":
            kid["command_dice"] -= 1
        else:
            kid["snowballs"] = _without(kid["snowballs"], size)
        for card in cards:
            self._discard(s, seat, card, events, kid_id)
        needs = range_needs(fire["gap"])
        mods = throw_modifiers(s, kid_id, target, size, fire["objects"])
        aims = kid["aims"]
        kid["aims"] = 0
        what = "a piece of itself (Size 4)" if ball == "self" else f"a Size {size} snowball"
        _event(events, "throw", f"{kid['name']} spends {self._as_words(kid, value, 'throw')} on THROW: {what} at "
               f"{_label(s, target)}, {_inches(fire['gap'])} away" + (" - too close!" if too_close else "") + ".",
               kid=kid_id, die=value, target=target, size=size, self_piece=ball == "self", gap=fire["gap"],
               distance=fire["distance"], objects=fire["objects"], needs=needs, modifiers=mods, aims_used=aims,
               too_close=too_close, cards=cards)
        s["throw"] = {"thrower": kid_id, "target": target, "size": size, "needs": needs, "modifiers": mods,
                      "too_close": too_close, "pitch": "pitch" in cards, "ice": "ice" in cards, "dork": False,
                      "grandma": False, "step": "declared", "hit": False, "critical": None}
        self._run_throw(s, events)

    def _run_throw(self, s: State, events: list[Event]) -> None:
        """Resolve the throw in progress step by step, stopping when a seat must be asked."""
        throw = s["throw"]
        thrower, target = s["kids"][throw["thrower"]], s["kids"][throw["target"]]
        if throw["step"] == "declared":
            throw["step"] = "roll"
            if not throw["too_close"] and self._ask(s, events, target["seat"], "throw_declared", throw["target"],
                                                    f"{thrower['name']} throws at {target['name']}."):
                return
        if throw["step"] == "roll":
            throw["step"] = "hit"
            if target["home"] is not None or target["pos"] is None:
                s["throw"] = None
                self._finish_action(s, events)
                return
            self._roll_to_hit(s, events)
            if not throw["hit"]:
                s["throw"] = None
                if throw["critical"] == "miss":
                    _event(events, "critical_miss", f"Snake eyes! {thrower['name']}'s activation ends.",
                           kid=throw["thrower"])
                    self._end_activation(s, events)
                    return
                self._finish_action(s, events)
                return
            if self._ask(s, events, target["seat"], "hit", throw["target"],
                         f"{target['name']} is hit by {thrower['name']}'s snowball."):
                return
        if throw["step"] == "hit":
            throw["step"] = "done"
            self._roll_for_effect(s, events)
            s["throw"] = None
            if throw["too_close"] and _several_teams_left(s):
                if self._cheat_consequences(s, events, throw["thrower"], throw["target"], "throw"):
                    return
            self._finish_action(s, events)

    def _ask(self, s: State, events: list[Event], seat: int, moment: str, kid_id: str, text: str) -> bool:
        """Stop to ask ``seat`` about the reaction cards of ``moment`` (a knocked-down Kid cannot dash), if
        :func:`_asks` says it is asked; True when it is."""
        about = [c for c in MOMENT_CARDS[moment] if not (c == "dash" and s["kids"][kid_id]["down"])]
        if not self._question(s, seat, moment, kid_id, text, about):
            return False
        _event(events, "waiting", f"Waiting for {_p(seat)}.", seat=seat)
        return True

    def _question(self, s: State, seat: int, moment: str, kid_id: str, text: str, about: list[str]) -> bool:
        """Make the reaction question about the cards ``about`` pending, if the seat is asked about them;
        its ``cards`` are those of them the seat may play (possibly none)."""
        if not _asks(s, seat, about):
            return False
        s["pending"] = {"kind": "reaction", "seat": seat, "moment": moment, "about": about,
                        "cards": _offered(s, seat, about), "kid": kid_id, "text": text}
        return True

    def _roll_to_hit(self, s: State, events: list[Event]) -> None:
        throw = s["throw"]
        thrower_id, target_id = throw["thrower"], throw["target"]
        thrower, target = s["kids"][thrower_id], s["kids"][target_id]
        if throw["too_close"]:
            throw["hit"] = True
            _event(events, "to_hit", f"{thrower['name']} is within 1\" of {target['name']}: an automatic hit "
                   "(cheating!).", kid=thrower_id, target=target_id, automatic=True, hit=True, dice=[], kept=[],
                   modifiers=[], total=None, needs=None, critical=None)
        else:
            rng = rng_for(s)
            if throw["pitch"] and throw["dork"]:
                method = "2D6 (\"I've been practicing my pitch!\" and \"Missed me, dork!\" cancel out)"
                dice = [rng.randint(1, 6) for _ in range(2)]
                kept = list(dice)
            elif throw["pitch"]:
                method = "3D6, lowest discarded"
                dice = [rng.randint(1, 6) for _ in range(3)]
                kept = sorted(dice)[1:]
            elif throw["dork"]:
                method = "3D6, highest discarded"
                dice = [rng.randint(1, 6) for _ in range(3)]
                kept = sorted(dice)[:2]
            else:
                method = "2D6"
                dice = [rng.randint(1, 6) for _ in range(2)]
                kept = list(dice)
            modifier = sum(m["value"] for m in throw["modifiers"])
            total = sum(kept) + modifier
            natural = sum(kept)
            critical = "hit" if natural == 12 else "miss" if natural == 2 else None
            hit = critical == "hit" or (critical is None and total >= throw["needs"])
            throw["hit"], throw["critical"] = hit, critical
            mod_words = "".join(f" {'+' if m['value'] > 0 else '-'} {abs(m['value'])} ({m['label']})"
                                for m in throw["modifiers"])
            outcome = ("a natural 12: a critical hit!" if critical == "hit" else
                       "a natural 2: a critical miss!" if critical == "miss" else "a hit!" if hit else "a miss.")
            _event(events, "to_hit", f"Roll to Hit ({method}): {_dice_words(dice)} - kept {' + '.join(map(str, kept))}"
                   f"{mod_words} = {total}, needing {throw['needs']}: {outcome}", kid=thrower_id, target=target_id,
                   automatic=False, method=method, dice=dice, kept=kept, natural=natural, modifiers=throw["modifiers"],
                   modifier=modifier, total=total, needs=throw["needs"], critical=critical, hit=hit)
        if throw["hit"]:
            thrower["points"] += 1
            target["aims"] = 0
            _event(events, "point", f"{thrower['name']} scores a point ({thrower['points']} in all).",
                   kid=thrower_id, points=thrower["points"])
            self._card_for_points(s, events, thrower_id)

    def _card_for_points(self, s: State, events: list[Event], kid_id: str) -> None:
        kid = s["kids"][kid_id]
        if s["options"]["ability_cards"] != "method1":
            return
        while kid["points"] // 3 > kid["cards_for_points"]:
            kid["cards_for_points"] += 1
            self._draw(s, kid["seat"], 1, events, f"{kid['name']} reached {3 * kid['cards_for_points']} points")

    def _roll_for_effect(self, s: State, events: list[Event]) -> None:
        throw = s["throw"]
        target_id = throw["target"]
        target = s["kids"][target_id]
        if target["home"] is not None:
            return
        size = throw["size"]
        parts = [f"Size {size}"]
        if throw["critical"] == "hit":
            size += 1
            parts.append("+1 critical hit")
        if throw["ice"]:
            size += 3
            parts.append("+3 \"Ice to see you!\"")
        if throw["grandma"]:
            _event(events, "effect", f"{target['name']}'s extra (ugly) sweater: no Command Dice lost.",
                   kid=target_id, size=size, size_parts=parts, dice=[], threshold=None, successes=0, lost=0,
                   grandma=True, command_dice=target["command_dice"])
            return
        rng = rng_for(s)
        dice = [rng.randint(1, 6) for _ in range(size)]
        threshold = 5 if target["type"] == "elf" else 4
        successes = sum(1 for d in dice if d >= threshold)
        lost = successes // 2 if target["type"] == "yeti" else successes
        lost = min(lost, target["command_dice"])
        target["command_dice"] -= lost
        why = [f"{threshold}+ loses a die" + (" (Warm Heart)" if target["type"] == "elf" else "")]
        if target["type"] == "yeti":
            why.append("one die per two (Thick Fur)")
        _event(events, "effect", f"Roll for Effect for {target['name']} ({' '.join(parts)} = {size}D6): "
               f"{_dice_words(dice)}; {'; '.join(why)}: loses {_count(lost, 'Command Die', 'Command Dice')}, "
               f"{target['command_dice']} left.", kid=target_id, size=size, size_parts=parts, dice=dice,
               threshold=threshold, successes=successes, lost=lost, grandma=False,
               command_dice=target["command_dice"])
        if target["command_dice"] <= 0:
            self._send_home(s, events, target_id, "cold")
            thrower = s["kids"][throw["thrower"]]
            if s["options"]["ability_cards"] == "method1" and thrower["home"] is None:
                self._draw(s, thrower["seat"], 1, events, f"{thrower['name']} sent {target['name']} home")

    def _cheat_consequences(self, s: State, events: list[Event], aggressor_id: str, victim_id: str,
                            source: str) -> bool:
        """The parents' roll after cheating; True when the game stops to ask about "A Christmas Miracle!"."""
        aggressor, victim = s["kids"][aggressor_id], s["kids"][victim_id]
        if aggressor["type"] == "snowman":
            if victim["type"] == "penguin":
                aggressor["points"] = max(0, aggressor["points"] - 1)
                _event(events, "cruel", f"{aggressor['name']} cheated against a Penguin: cruel even for a Snowman. "
                       f"It loses a point ({aggressor['points']} left).", kid=aggressor_id, points=aggressor["points"])
            else:
                _event(events, "parents", f"{aggressor['name']} is a Snowman: no parents, no naughty list.",
                       kid=aggressor_id, rolled=False, caught=False)
            return False
        if victim["type"] == "snowman":
            _event(events, "parents", f"Nobody minds cheating against a Snowman: {aggressor['name']} gets away with it.",
                   kid=aggressor_id, rolled=False, caught=False)
            return False
        needs = 2 if victim["type"] == "penguin" else 4
        rng = rng_for(s)
        if aggressor["type"] == "big_kid":
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            kept = min(dice)
            method = "2D6, highest removed (Playing Rough)"
        else:
            dice = [rng.randint(1, 6)]
            kept = dice[0]
            method = "1D6"
        caught = kept >= needs
        reason = " (DO NOT HIT ANIMALS)" if victim["type"] == "penguin" else ""
        _event(events, "parents", f"Did the parents see? {method}: {_dice_words(dice)}, caught on {needs}+{reason}: "
               + (f"{aggressor['name']} is dragged home for a telling off!" if caught else "nobody saw."),
               kid=aggressor_id, rolled=True, dice=dice, kept=kept, needs=needs, method=method, caught=caught)
        if not caught:
            return False
        seat = aggressor["seat"]
        s["pending_cheat"] = {"aggressor": aggressor_id, "source": source}
        if self._ask(s, events, seat, "caught", aggressor_id, f"{aggressor['name']}'s parents saw that."):
            return True
        s["pending_cheat"] = None
        self._send_home(s, events, aggressor_id, "parents")
        return False

    def _shove(self, s: State, events: list[Event], aggressor_id: str, victim_id: str) -> None:
        aggressor, victim = s["kids"][aggressor_id], s["kids"][victim_id]
        victim["down"] = True
        lost = 1 if victim["command_dice"] >= 2 else 0
        victim["command_dice"] -= lost
        _event(events, "shove", f"Shove 'Em! {aggressor['name']} knocks {_label(s, victim_id)} over"
               + (f"; it loses a Command Die ({victim['command_dice']} left)." if lost else "."), kid=aggressor_id,
               target=victim_id, lost=lost, command_dice=victim["command_dice"])
        if victim["type"] == "yeti":
            rng = rng_for(s)
            roll = rng.randint(1, 6)
            oops = roll >= 4
            text = f"Oops! {victim['name']} rolls {roll}"
            if oops:
                aggressor["down"] = True
                back = 1 if aggressor["command_dice"] >= 2 else 0
                aggressor["command_dice"] -= back
                text += f" and knocks {aggressor['name']} down too, by accident" + (
                    f" ({aggressor['command_dice']} Command Dice left)." if back else ".")
            else:
                text += ": no accident this time."
                back = 0
            _event(events, "oops", text, kid=victim_id, target=aggressor_id, roll=roll, needs=4, knocked=oops,
                   lost=back)
        if self._cheat_consequences(s, events, aggressor_id, victim_id, "shove"):
            return
        self._finish_action(s, events)

    def _send_home(self, s: State, events: list[Event], kid_id: str, why: str) -> None:
        kid = s["kids"][kid_id]
        kid["home"] = why
        kid["pos"] = None
        words = {"cold": "goes home to warm up", "parents": "is taken home by its parents",
                 "surrender": "goes home (its team surrendered)"}[why]
        _event(events, "home", f"{_label(s, kid_id)} {words}.", kid=kid_id, why=why)

    def _finish_action(self, s: State, events: list[Event]) -> None:
        """After a die's action: end the activation if the Kid left or has no dice it can use."""
        activation = s["activation"]
        if activation is None or s["pending"] is not None:
            return
        kid = s["kids"][activation["kid"]]
        if kid["home"] is not None:
            self._end_activation(s, events)

    def _end_activation(self, s: State, events: list[Event]) -> None:
        s["activation"] = None
        s["pending"] = None
        s["throw"] = None

    # turns

    def _start_turn(self, s: State, events: list[Event]) -> None:
        s["phase"] = "play"
        s["turn"] += 1
        ids = _in_play(s)
        bonus = {k: s["kids"][k]["prepare"] for k in ids}
        order, rolls = self._ordered(s, ids, bonus)
        for k in ids:
            s["kids"][k]["prepare"] = 0
        s["order"] = order
        s["order_rolls"] = rolls
        s["next_index"] = 0
        first = rolls[0]
        words = ", ".join(f"{s['kids'][k]['name']} {first['rolls'][k]}"
                          + (f"+{first['bonus'][k]}" if first["bonus"].get(k) else "") for k in first["group"])
        ties = "".join("; tie re-rolled: " + ", ".join(f"{s['kids'][k]['name']} {r['rolls'][k]}" for k in r["group"])
                       for r in rolls[1:])
        _event(events, "turn", f"Turn {s['turn']} of {TURNS}. Activation rolls: {words}{ties}. Order: "
               f"{', '.join(s['kids'][k]['name'] for k in order)}.", turn=s["turn"], rolls=rolls, order=order)

    def _next_activation(self, s: State, events: list[Event]) -> None:
        while s["next_index"] < len(s["order"]):
            kid_id = s["order"][s["next_index"]]
            s["next_index"] += 1
            kid = s["kids"][kid_id]
            if kid["home"] is not None:
                continue
            s["activation"] = {"kid": kid_id, "stage": "start", "tray": []}
            _event(events, "activation", f"{_label(s, kid_id)} activates.", kid=kid_id, seat=kid["seat"])
            if not _asks(s, kid["seat"], MOMENT_CARDS["start"]):
                self._roll_command_dice(s, events, kid["command_dice"])
            return
        _event(events, "end_turn", f"End of turn {s['turn']}.", turn=s["turn"])
        if s["turn"] >= TURNS:
            self._end_game(s, events, "six turns are over")
        else:
            self._start_turn(s, events)

    def _advance(self, s: State, events: list[Event]) -> None:
        """Run every step that needs nobody's decision: surrenders, automatic ends, next activations and turns."""
        while s["phase"] != "over":
            if s["pending"] is None and s["throw"] is None:
                self._apply_surrenders(s, events)
            if s["phase"] in ("corners", "deploy"):
                return
            if s["pending"] is not None:
                return
            if not _several_teams_left(s):
                self._end_game(s, events, "one team is left" if _teams_left(s) else "no Kids are left")
                return
            activation = s["activation"]
            if activation is None:
                self._next_activation(s, events)
                continue
            if activation["stage"] == "start":
                return
            if not activation["tray"]:
                _event(events, "end_activation", f"{s['kids'][activation['kid']]['name']} has spent every Command "
                       "Die.", kid=activation["kid"], unspent=[], automatic=True)
                self._end_activation(s, events)
                continue
            if not self._can_spend(s):
                _event(events, "end_activation", f"{s['kids'][activation['kid']]['name']} can do nothing with "
                       f"{_dice_words(activation['tray'])} and ends its activation.", kid=activation["kid"],
                       unspent=list(activation["tray"]), automatic=True)
                self._end_activation(s, events)
                continue
            return

    def _apply_surrenders(self, s: State, events: list[Event]) -> None:
        """Send home the Kids of every team whose seats all voted to surrender (from the first turn on)."""
        if s["phase"] != "play" or not any(s["surrender_votes"]):
            return
        for team in range(s["team_count"]):
            if team in s["surrendered"]:
                continue
            if all(s["surrender_votes"][seat] for seat in self._team_seats(s, team)):
                s["surrendered"].append(team)
                _event(events, "surrender", f"Team {TEAM_NAMES[team]} surrenders.", team=team)
                for kid_id in s["kid_order"]:
                    kid = s["kids"][kid_id]
                    if kid["team"] == team and kid["home"] is None:
                        self._send_home(s, events, kid_id, "surrender")
                if s["activation"] is not None and s["kids"][s["activation"]["kid"]]["home"] is not None:
                    self._end_activation(s, events)

    # the end

    def _team_scores(self, s: State) -> list[dict[str, Any]]:
        counts = {t: 0 for t in range(s["team_count"])}
        sizes = {t: 0 for t in range(s["team_count"])}
        points = {t: 0 for t in range(s["team_count"])}
        for kid in s["kids"].values():
            sizes[kid["team"]] += 1
            if kid["home"] is None:
                counts[kid["team"]] += 1
                points[kid["team"]] += kid["points"]
        most = max(counts.values())
        rows = []
        for t in range(s["team_count"]):
            breakdown = [{"label": "points of remaining Kids", "points": points[t]}]
            if counts[t] == sizes[t]:
                breakdown.append({"label": "all its Kids still in the fight", "points": WIN_BONUS})
            if counts[t] == most and most > 0:
                breakdown.append({"label": "most Kids remaining", "points": WIN_BONUS})
            if counts[t] == 0:
                breakdown.append({"label": "lost all its Kids", "points": WIPED_OUT})
            rows.append({"team": t, "kids_left": counts[t], "score": sum(b["points"] for b in breakdown),
                         "breakdown": breakdown})
        return rows

    def _end_game(self, s: State, events: list[Event], why: str) -> None:
        rows = self._team_scores(s)
        left = _teams_left(s)
        if len(left) == 1 and s["turn"] > 0 and why != "six turns are over":
            winners = left
        else:
            best = max(r["score"] for r in rows)
            winners = [r["team"] for r in rows if r["score"] == best and r["team"] not in s["surrendered"]]
        s["phase"] = "over"
        s["activation"] = s["pending"] = s["throw"] = None
        s["result"] = {"why": why, "teams": rows, "winning_teams": winners}
        scores = ", ".join(f"{TEAM_NAMES[r['team']]} {r['score']}" for r in rows)
        _event(events, "game_over", f"The game ends: {why}. Scores: {scores}. "
               f"{' and '.join(TEAM_NAMES[t] for t in winners)} win{'s' if len(winners) == 1 else ''}!",
               why=why, teams=rows, winners=winners)

    def outcome(self, state: State) -> dict[str, Any] | None:
        result = state["result"]
        if result is None:
            return None
        rows = {r["team"]: r for r in result["teams"]}
        seats = range(state["players"])
        return {
            "reason": f"The game ended: {result['why']}.",
            "scores": [rows[state["seat_team"][seat]]["score"] for seat in seats],
            "winners": [seat for seat in seats if state["seat_team"][seat] in result["winning_teams"]],
            "losers": [seat for seat in seats if state["seat_team"][seat] not in result["winning_teams"]],
            "breakdown": [[dict(b) for b in rows[state["seat_team"][seat]]["breakdown"]] for seat in seats],
            "teams": [dict(r, breakdown=[dict(b) for b in r["breakdown"]]) for r in result["teams"]],
            "winning_teams": list(result["winning_teams"]),
        }

    def resigned_outcome(self, state: State, winners: list[int]) -> dict[str, Any]:
        """The outcome when the teams of ``winners`` are left after the others resigned: every
        team's score as it stands (as the end of the game would count it)."""
        rows = self._team_scores(state)
        winning = sorted({state["seat_team"][seat] for seat in winners})
        by_team = {r["team"]: r for r in rows}
        seats = range(state["players"])
        return {
            "scores": [by_team[state["seat_team"][seat]]["score"] for seat in seats],
            "winners": list(winners),
            "losers": [seat for seat in seats if seat not in winners],
            "breakdown": [[dict(b) for b in by_team[state["seat_team"][seat]]["breakdown"]] for seat in seats],
            "teams": rows,
            "winning_teams": winning,
        }

    # -- views --------------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) sees. Everything but the viewer's own part (its hand, settings,
        prompt and legal actions) is the same for every viewer: it is worked out once per state, and the
        views of one state share it (a view is read, never changed)."""
        s = state
        viewer = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s["players"] else None
        memo = _memo(s)
        shared = memo.get("view")
        if shared is None:
            shared = memo["view"] = self._shared_view(s)
        view = dict(shared)
        asked = self._asked(s)
        view["viewer"] = viewer
        view["hand"] = list(s["hands"][viewer]) if viewer is not None else None
        view["never_ask"] = list(s["never_ask"][viewer]) if viewer is not None else None
        view["prompt"] = self._prompt(s, viewer, asked[viewer]).as_dict() if viewer in asked else None
        view["legal_actions"] = self.legal_actions(s, viewer) if viewer is not None else []
        return view

    def _shared_view(self, s: State) -> View:
        """The view less the viewer's own part (``viewer``, ``hand``, ``never_ask``, ``prompt`` and
        ``legal_actions`` are None here, in their places)."""
        from .unspendable import unspendable_dice

        asked = self._asked(s)
        kids_view = {}
        for kid_id in s["kid_order"]:
            kid = s["kids"][kid_id]
            kids_view[kid_id] = {
                "id": kid_id, "name": kid["name"], "seat": kid["seat"], "team": kid["team"],
                "colour": TEAM_COLOURS[kid["team"]], "pos": list(kid["pos"]) if kid["pos"] else None,
                "radius": kid["radius"], "command_dice": kid["command_dice"], "snowballs": list(kid["snowballs"]),
                "aims": kid["aims"], "down": kid["down"], "prepare": kid["prepare"], "points": kid["points"],
                "home": kid["home"], "sheet": K.sheet_row(kid),
            }
        activation = s["activation"]
        view: View = {
            "game": self.slug,
            "viewer": None,
            "phase": s["phase"],
            "turn": s["turn"],
            "turns": TURNS,
            "village": {"name": s["options"]["village"], "size": [SIZE, SIZE], "tolerance": TOLERANCE,
                        "corners": [list(c) for c in villages.CORNERS], "corner_names": list(villages.CORNER_NAMES),
                        "terrain": [{k: (marshal.loads(marshal.dumps(v)) if k == "points" else v)
                                     for k, v in p.items()} for p in s["terrain"]]},
            "options": dict(s["options"]),
            "seat_team": list(s["seat_team"]),
            "teams": [{"team": t, "name": TEAM_NAMES[t], "colour": TEAM_COLOURS[t],
                       "seats": self._team_seats(s, t), "corners": list(s["corners"][str(t)]),
                       "surrendered": t in s["surrendered"],
                       "worth": sum(K.TYPES[k["type"]]["worth"] for k in s["kids"].values() if k["team"] == t)}
                      for t in range(s["team_count"])],
            "team_rolls": marshal.loads(marshal.dumps(s["team_rolls"])),
            "team_order": list(s["team_order"]),
            "kids": kids_view,
            "order": list(s["order"]),
            "order_rolls": marshal.loads(marshal.dumps(s["order_rolls"])),
            "next_index": s["next_index"],
            "activation": None if activation is None else {
                "kid": activation["kid"], "stage": activation["stage"], "tray": list(activation["tray"]),
                "unspendable": unspendable_dice(s)},
            "pending": self._pending_view(s),
            "throw": self._throw_view(s),
            "lines_of_fire": self._lines_of_fire(s),
            "hand": None,
            "hand_sizes": [len(h) for h in s["hands"]],
            "deck_size": len(s["deck"]),
            "discards": list(s["discards"]),
            "cards": {name: dict(card) for name, card in K.CARDS.items()},
            "never_ask": None,
            "surrender_votes": list(s["surrender_votes"]),
            "waiting_for": sorted(asked),
            "prompt": None,
            "legal_actions": None,
            "outcome": self.outcome(s),
        }
        return view

    def _pending_view(self, s: State) -> dict[str, Any] | None:
        pending = s["pending"]
        if pending is None:
            return None
        if pending["kind"] == "move_to":
            return {"kind": "move_to", "seat": pending["seat"], "kid": pending["kid"], "roll": pending["roll"],
                    "dice": list(pending["dice"]), "source": pending["source"], "slide": pending["slide"]}
        return {"kind": "reaction", "seat": pending["seat"], "moment": pending["moment"], "kid": pending["kid"]}

    def _throw_view(self, s: State) -> dict[str, Any] | None:
        throw = s["throw"]
        if throw is None:
            return None
        keys = ("thrower", "target", "size", "needs", "modifiers", "too_close", "pitch", "ice", "dork", "grandma",
                "step", "hit", "critical")
        return marshal.loads(marshal.dumps({k: throw[k] for k in keys}))

    def _lines_of_fire(self, s: State) -> list[dict[str, Any]]:
        """The active Kid's line to each enemy Kid: visible, distance, objects and the Roll to Hit needed."""
        activation = s["activation"]
        if s["phase"] != "play" or activation is None:
            return []
        kid_id = activation["kid"]
        lines = []
        for target in _enemies(s, kid_id):
            fire = _fire(s, kid_id, target)
            lines.append({"from": kid_id, "to": target, **fire, "needs": range_needs(fire["gap"]),
                          "too_close": self._too_close(s, kid_id, target),
                          "modifiers_without_size": throw_modifiers(s, kid_id, target, 1, fire["objects"])})
        return lines

    def bot_action(self, state: State, seat: int) -> Action:
        from .bot import choose_action

        if seat not in self._asked(state):
            raise NotYourTurn("The computer player is not being asked to act now.")
        return choose_action(self.view(state, seat))


RULESET = WhatASnowball()


def line_of_fire_between(state: State, from_id: str, to_id: str) -> dict[str, Any]:
    """Line of fire between two Kids in the village (see ``geometry.line_of_fire``)."""
    for kid_id in (from_id, to_id):
        if kid_id not in _in_play(state):
            raise KeyError(f"no Kid {shown(kid_id)} in the village")
    return _fire(state, from_id, to_id)
