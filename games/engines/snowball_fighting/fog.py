"""The Fogbound variant's fog: what a combatant sees and hears, and the variant's numbers.

Pure functions over the game's state and its :class:`HexMap`. A seat sees the hexes within
its vision of the hex it stands on (fog, not walls: nothing but range blocks it) and what
stands in them; what it cannot see it may hear, as a compass direction and a rough distance.
The engine's resolution and the views both ask here, so a report and a view agree on what a
seat saw.
"""
from __future__ import annotations

import math
import re
from typing import Any

from games.engines.base import State
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, HexMap, parse_ref

VISION_START = 2
VISION_MIN = 1
VISION_UP = 50      # a d100 at or under this: vision grows by one hex
VISION_DOWN = 60    # over VISION_UP and at or under this (10%): it shrinks by one, never below VISION_MIN
OPENING_TURNS = 2   # turns of running out into the garden: no throwing, nobody falls in the pond
VICTORY_VPS = 12
MAX_TURNS = 10
GNOME_CHANCE = 30   # percent per entered hex holding or next to a gnome
SHOUT_RANGE = 6
SHOUT_LENGTH = 200
NEAR, MIDDLING = 3, 7  # hex distances: up to 3 near, 4 to 7 middling, beyond far
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
PUBLIC_EVENTS = frozenset({"vision", "victory", "game_over"})
_SEAT_KEYS = ("seat", "victim", "thrower", "winner")
_HEX_KEYS = ("hex", "from", "to", "conifer")
_HEX_TOKEN = re.compile(r"\b[A-Z]{1,2}\d{1,2}\b")


def is_fogbound(state: State) -> bool:
    return state.get("fog") is not None


def new_fog(players: int, spectators_see_all: bool) -> dict[str, Any]:
    """The fog's part of a new game's state (the gnomes are placed when the setup ends)."""
    garden = MAPS["fogbound"]
    return {"vision": VISION_START, "gnomes": [], "found": [[] for _ in range(players)],
            "barrow": 3 if garden.wheelbarrow else 0, "sounds": [[] for _ in range(players)],
            "spectators_see_all": spectators_see_all}


def gnome_hexes(garden: HexMap, rng: Any, count: int = 3, away: int = 3) -> list[str]:
    """``count`` open hexes, chosen by the game's generator, each at least ``away`` hexes from
    every start hex: not path, shed, conifer, snowman, pond, wheelbarrow or a start hex."""
    taken = (set(garden.path) | {garden.shed} | set(garden.conifers) | set(garden.snowmen)
             | set(garden.pond) | {garden.wheelbarrow} | set(garden.starts))
    open_hexes = [h for h in garden.hexes if h not in taken
                  and all(garden.distance(h, s) >= away for s in garden.starts)]
    return sorted(rng.sample(open_hexes, count), key=garden.hexes.index)


def eye(state: State, seat: int) -> str | None:
    """The garden hex ``seat`` looks (and listens) from; None inside the kitchen or gone."""
    c = state["combatants"][seat] if state["combatants"] else None
    if c is None or c["status"] == "gone" or c["hex"] == KITCHEN:
        return None
    return c["hex"]


def visible_now(state: State, seat: int) -> frozenset[str]:
    """The hexes ``seat`` sees now."""
    here = eye(state, seat)
    if here is None:
        return frozenset()
    return MAPS[state["options"]["map"]].within(here, state["fog"]["vision"])


def sight_along(garden: HexMap, hexes: list[str], vision: int) -> frozenset[str]:
    """What a combatant saw in a segment from every hex it stood on or passed through."""
    seen: frozenset[str] = frozenset()
    for h in hexes:
        if h != KITCHEN:
            seen |= garden.within(h, vision)
    return seen


def compass(garden: HexMap, frm: str, to: str) -> str:
    """The 8-point compass direction from one hex to another (flat-topped hexes, north up)."""
    (r1, c1), (r2, c2) = garden_coords(garden, frm), garden_coords(garden, to)
    dx = (c2 - c1) * 1.5
    dy = (r2 - r1) * math.sqrt(3) / 2
    bearing = math.degrees(math.atan2(dx, -dy)) % 360
    return COMPASS[int((bearing + 22.5) // 45) % 8]


def garden_coords(garden: HexMap, ref: str) -> tuple[int, int]:
    """(row index, column) of a hex of ``garden``."""
    return parse_ref(ref, garden.rows, garden.cols)


def band(distance: int) -> str:
    if distance <= NEAR:
        return "near"
    return "middling" if distance <= MIDDLING else "far"


def heard(garden: HexMap, listener: str, source: str) -> dict[str, str]:
    return {"direction": compass(garden, listener, source), "distance": band(garden.distance(listener, source))}


_DIRECTION_WORDS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south",
                    "SW": "south-west", "W": "west", "NW": "north-west"}
_DISTANCE_WORDS = {"near": "close by", "middling": "a little way off", "far": "far off"}
_SOUND_WORDS = {"splash": "A splash", "throw": "A snowball thrown", "fall": "Someone falling over"}


def sound_text(kind: str, direction: str, distance: str, said: str = "") -> str:
    where = f"to the {_DIRECTION_WORDS[direction]}, {_DISTANCE_WORDS[distance]}"
    if kind == "shout":
        return f"A shout {where}: \u201c{said}\u201d"
    return f"{_SOUND_WORDS[kind]} {where}."


# --------------------------------------------------------------------------- what a seat may read


def event_hexes(garden: HexMap, event: dict[str, Any]) -> set[str]:
    """Every garden hex an event names, in its fields or its text."""
    found: set[str] = set()
    for key in _HEX_KEYS:
        value = event.get(key)
        if isinstance(value, str) and garden.is_hex(value):
            found.add(value)
    for h in event.get("route") or ():
        if garden.is_hex(h):
            found.add(h)
    for token in _HEX_TOKEN.findall(event.get("text", "")):
        if garden.is_hex(token):
            found.add(token)
    return found


def event_seats(event: dict[str, Any]) -> set[int]:
    seats = {event[k] for k in _SEAT_KEYS if isinstance(event.get(k), int) and not isinstance(event.get(k), bool)}
    seats |= {x for x in event.get("seats") or () if isinstance(x, int)}
    target = event.get("target")
    if isinstance(target, int) and not isinstance(target, bool):
        seats.add(target)
    return seats


def readable(garden: HexMap, event: dict[str, Any], viewer: int, sight: frozenset[str],
             seen: frozenset[int]) -> dict[str, Any] | None:
    """The event as ``viewer`` may read it (None: not at all; a negative viewer is a spectator,
    who reads only the public events): every seat it names must be seen and every hex it names
    in sight; a hit from a thrower out of sight reads as "out of the fog"."""
    if event.get("type") in PUBLIC_EVENTS:
        return event
    if viewer < 0:
        return None
    seats = event_seats(event)
    if (event.get("type") == "damage" and event.get("seat") == viewer and event.get("thrower") not in seen
            and "unseen_text" in event):
        seats.discard(event.get("thrower"))
        if seats <= seen | {viewer}:
            return {k: v for k, v in event.items() if k not in ("thrower", "unseen_text")} | {
                "thrower": None, "text": event["unseen_text"]}
        return None
    if not seats <= seen | {viewer} or not event_hexes(garden, event) <= sight:
        return None
    return event


def clipped_move(move: dict[str, Any], viewer: int, sight: frozenset[str]) -> dict[str, Any] | None:
    """A move as ``viewer`` saw it: another's only in the hexes in sight (None: none of them);
    its own whole, but for the planned route (a run to the kitchen) beyond its sight."""
    if move["seat"] == viewer:
        if all(h in sight for h in move["planned"] if h != KITCHEN):
            return move
        return {**move, "planned": [h for h in move["planned"] if h in sight or h == KITCHEN]}
    route = [h for h in move["route"] if h in sight]
    frm = move["from"] if move["from"] in sight else None
    to = move["to"] if move["to"] in sight else None
    if not route and frm is None:
        return None
    out = {"seat": move["seat"], "from": frm, "route": route, "to": to, "planned": [], "bumped": move["bumped"]}
    if "bounce" in move:
        out["bounce"] = move["bounce"]
    return out
