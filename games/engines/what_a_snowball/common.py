"""What every phase of What a Snowball! reads: its constants, action fields, and the queries over a
state.
"""
from __future__ import annotations

import functools
import math
import threading
from collections import Counter
from typing import Any

from ..base import Action, BadAction, Event, State, not_plain, shown
from . import kids as K
from . import villages
from .geometry import (
    Walker,
    base_gap,
    distance,
    in_contact,
    line_of_fire,
    placement_problem,
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
    """A distance as the board writes it: to a tenth of an inch, whole inches without ".0" (6", 3.5")."""
    text = f"{value:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + '"'


def _rolled_inches(dice: list[int]) -> str:
    """A MOVE's or a dash's roll as the log says it: "rolls 1: 1 inch", "rolls 3 + 4 = 7 inches"."""
    total = sum(dice)
    unit = "inch" if total == 1 else "inches"
    if len(dice) == 1:
        return f"rolls {total}: {total} {unit}"
    return f"rolls {' + '.join(map(str, dice))} = {total} {unit}"


def _past(value: float, limit: float) -> str:
    """``value``, just over ``limit``, written finely enough to read as over it (5.52", not 5.5")."""
    for places in (1, 2, 3):
        text = f"{value:.{places}f}"
        if float(text) > limit:
            return text + '"'
    return f"{value:.3f}\""


def _at(point: Any) -> str:
    return f"({_coordinate(point[0])}, {_coordinate(point[1])})"


def _coordinate(value: float) -> str:
    """A coordinate to a tenth of an inch; one far off the village in three figures."""
    return f"{value:.1f}" if abs(value) < 1000 else f"{value:.3g}"


def _dice_words(values: list[int]) -> str:
    return ", ".join(map(str, values)) if values else "none"


# --- reading actions ---------------------------------------------------------------------------

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
        if (why := not_plain(name)) is not None:
            raise BadAction(f"{where}: a name may not contain {why}, not {shown(name)}.")
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


def _touching(s: State, a: str, b: str) -> bool:
    """Whether Kids ``a`` and ``b`` stand base to base now (a shove needs a MOVE into contact)."""
    ka, kb = s["kids"][a], s["kids"][b]
    return in_contact(ka["pos"], ka["radius"], kb["pos"], kb["radius"])


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
                f"{_inches(reach)} away (it is {_past(min(gaps), reach)}).")
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
