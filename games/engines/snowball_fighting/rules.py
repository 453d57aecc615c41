"""The ten actions and the hit-probability table, as data and small pure functions.

Every throw's chance is built the same way, at resolution and when a player writes orders:
the action's base chance, the table's modifiers (each with the book's wording), then halved
(rounded down) when the shot passes over the shed. A d100 roll of 01-05 always hits and
96-00 always misses; otherwise the roll must be at most the adjusted number.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.snowball_fighting.garden import HexMap


@dataclass(frozen=True)
class Throw:
    """One of the throwing actions: range in hexes, base chance in percent, damage, ammunition."""

    key: str
    name: str
    range: int
    chance: int
    damage: int
    ss: int = 0
    dd: int = 0


THROWS: dict[str, Throw] = {
    t.key: t
    for t in (
        Throw("rattlesnake", "Rogerson Rattlesnake", 6, 80, 1, ss=1),
        Throw("baker", "Baker Bounce", 4, 60, 1, ss=1),
        Throw("bolero", "Bowen Bolero", 4, 50, 1, ss=2),
        Throw("maniac", "Mendham Maniac", 2, 25, 1),
        Throw("dirigible", "Doubleday Dirigible", 3, 55, 3, dd=1),
        Throw("storm", "Conifer Storm", 4, 90, 2, ss=1),
        Throw("avalanche", "Shed Avalanche", 2, 80, 2, dd=1),
    )
}
ACTION_NAMES: dict[str, str] = {
    "stand": "Stand still",
    "move": "Move",
    "collect": "Collect",
    "collect_move": "Collect and move",
    **{key: t.name for key, t in THROWS.items()},
}

STORM_FALL_CHANCE = 70
STORM_CONIFER_DAMAGE = 2
STORM_AROUND_DAMAGE = 1
AVALANCHE_CHANCE = 80
AVALANCHE_SIDE_CHANCE = 80
NEAREST_PENALTY = -10
ALWAYS_HITS = 5
ALWAYS_MISSES = 96
DISASTER_ROLL = 100
DISASTER_DAMAGE = 2
SLIP_CHANCE = 10

# Half-MF cost of collecting one of each: a simple snowball 2 MF, a Dirigible 4 MF, a head 2 MF.
COLLECT_COST = {"ss": 4, "dd": 8, "head": 4, "barrow": 4}
# How many snowballs a collection counts as for "Target collected one/two snowballs".
COLLECT_COUNTS_AS = {"dd": 2, "head": 1, "barrow": 1}

M_COLLECTED_TWO = "Target collected two snowballs this segment"
M_COLLECTED_ONE = "Target collected one snowball this segment"
M_STOOD = "Target didn't move this segment"
M_MOVED_SHORT = "Target moved 1 or 2 hexes this segment"
M_MOVED_FAR = "Target moved 3 or 4 hexes this segment"
M_TARGET_BIG_HIT = "Target hit by Avalanche or Dirigible last segment"
M_ASSAILANT_BIG_HIT = "Assailant hit by Avalanche or Dirigible last segment"
M_CONIFER = "Target on conifer hex"
M_NEAR_CONIFER = "Target adjacent to conifer"
M_SNOWMAN = "Target on snowman hex"
M_MANIAC = "Target did Mendham Maniac this segment"
M_BOUNCE = "Target did Baker Bounce with added Bounce this segment"
M_BOLERO = "Target did Bowen Bolero this segment"
M_NMR = "Target NMRed: standing admiring the sky"
M_NEAREST = "Aimed at \"nearest opponent\""
M_CONDITIONAL = "Conditional order (optional rule 13)"


def range_modifier(distance: int, reach: int) -> tuple[str, int] | None:
    """+5% per hex closer than the action's range, -5% per hex beyond it."""
    if distance == reach:
        return None
    if distance < reach:
        n = reach - distance
        return (f"Target {n} {'hex' if n == 1 else 'hexes'} below range", 5 * n)
    n = distance - reach
    return (f"Target {n} {'hex' if n == 1 else 'hexes'} above range", -5 * n)


def target_modifiers(garden: HexMap, facts: dict[str, Any]) -> list[tuple[str, int]]:
    """The table's lines that describe the target, from what it did this segment.

    ``facts`` keys (missing ones are unknown and give no line): ``hex``, ``moved`` (hexes
    entered), ``collected`` (0, 1 or 2), ``action``, ``bounce_spot``, ``big_hit_last``, ``nmr``.
    """
    mods: list[tuple[str, int]] = []
    collected = facts.get("collected")
    if collected is not None and collected >= 2:
        mods.append((M_COLLECTED_TWO, 10))
    elif collected == 1:
        mods.append((M_COLLECTED_ONE, 5))
    moved = facts.get("moved")
    if moved is not None:
        if moved == 0:
            mods.append((M_STOOD, 5))
        elif moved <= 2:
            mods.append((M_MOVED_SHORT, -5))
        else:
            mods.append((M_MOVED_FAR, -10))
    if facts.get("big_hit_last"):
        mods.append((M_TARGET_BIG_HIT, 10))
    where = facts.get("hex")
    if where is not None:
        if where in garden.conifers:
            mods.append((M_CONIFER, -25))
        elif garden.near_conifer(where):
            mods.append((M_NEAR_CONIFER, -10))
        if where in garden.snowmen:
            mods.append((M_SNOWMAN, -10))
    action = facts.get("action")
    if action == "maniac":
        mods.append((M_MANIAC, -5))
    elif action == "baker" and facts.get("bounce_spot"):
        mods.append((M_BOUNCE, -25))
    elif action == "bolero":
        mods.append((M_BOLERO, 10))
    if facts.get("nmr"):
        mods.append((M_NMR, 10))
    return mods


def thrower_modifiers(*, big_hit_last: bool, conditional: bool) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if big_hit_last:
        mods.append((M_ASSAILANT_BIG_HIT, -10))
    if conditional:
        mods.append((M_CONDITIONAL, -10))
    return mods


def chance(base: int, modifiers: list[tuple[str, int]], over_shed: bool) -> dict[str, Any]:
    """The number a d100 must not exceed, with every step that made it (JSON-safe).

    ``needed`` is the adjusted number (halved, rounded down, over the shed); ``percent`` is
    the real chance once 01-05 always hits and 96-00 always misses.
    """
    adjusted = base + sum(v for _, v in modifiers)
    needed = adjusted // 2 if over_shed else adjusted
    return {
        "base": base,
        "modifiers": [{"label": label, "value": value} for label, value in modifiers],
        "adjusted": adjusted,
        "over_shed": over_shed,
        "needed": needed,
        "percent": min(ALWAYS_MISSES - 1, max(ALWAYS_HITS, needed)),
    }


def roll_hits(roll: int, needed: int) -> bool:
    """A d100 roll (1-100, 100 being "00") against an adjusted number."""
    if roll <= ALWAYS_HITS:
        return True
    if roll >= ALWAYS_MISSES:
        return False
    return roll <= needed


def carry_fits(ss: int, dd: int) -> bool:
    """Can a moving combatant carry this much: two simple snowballs or one Dirigible."""
    return (dd == 0 and ss <= 2) or (ss == 0 and dd <= 1)


def carried_after_leaving(ss: int, dd: int, prefer: str | None) -> tuple[int, int]:
    """What a combatant takes along when it leaves its hex; the rest is trampled.

    ``prefer`` "ss" or "dd" says which to keep when it holds both; by default the Dirigible.
    """
    if carry_fits(ss, dd):
        return ss, dd
    if dd and (prefer != "ss" or ss == 0):
        return 0, 1
    return min(ss, 2), 0
