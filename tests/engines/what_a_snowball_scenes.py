"""Building What a Snowball! positions for tests: a scene in the middle of a turn, and scripted dice.

``scene`` makes a real game (through ``new_game``) and then sets it to a chosen moment: the
listed Kids stand where the test says, every other Kid of the roster has gone home, and the
first listed Kid is activating with the Command Dice the test gives. ``scripted`` replaces
the engine's generator so a test decides every die it rolls.
"""
from __future__ import annotations

import copy
import importlib
import pkgutil
from typing import Any

import pytest

import games.engines.what_a_snowball as package
from games.engines import base
from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball.villages import TERRAIN_KINDS

# the engine's modules that roll dice (each takes the generator from ``rng_for``)
ROLLING_MODULES = [module for module in (importlib.import_module(f"{package.__name__}.{info.name}")
                                         for info in pkgutil.iter_modules(package.__path__))
                   if getattr(module, "rng_for", None) is base.rng_for]


def piece(piece_id: str, kind: str, points: list[list[float]]) -> dict[str, Any]:
    """A terrain piece of a kind, with its properties."""
    return {"id": piece_id, **TERRAIN_KINDS[kind], "kind": kind, "points": points}


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def scene(kids: list[dict[str, Any]], *, tray: list[int] = (1, 2, 3, 4, 5, 6), terrain: list[dict] | None = None,
          cards: str = "none", hands: dict[int, list[str]] | None = None, teams: int = 2,
          stage: str = "turn") -> dict[str, Any]:
    """A game in turn 1 with ``kids[0]`` activating.

    Each entry: {"team", "pos", and optionally "name", "type", "traits", "snowballs",
    "command_dice", "down", "aims", "points"}. Team t is seat t with up to three Kids.
    """
    roster = []
    slots: dict[int, list[int]] = {t: [] for t in range(teams)}
    for team in range(teams):
        for i in range(3):
            slots[team].append(len(roster))
            roster.append({"name": f"T{team}K{i}", "seat": team, "traits": ["fast"], "type": "kid"})
    used = {}
    for spec in kids:
        index = slots[spec["team"]].pop(0)
        entry = roster[index]
        entry["name"] = spec.get("name", entry["name"])
        entry["type"] = spec.get("type", "kid")
        if entry["type"] in ("yeti", "elf"):
            entry.pop("traits")
        elif entry["type"] == "big_kid":
            entry["traits"] = spec.get("traits", ["fast", "strong"])
        else:
            entry["traits"] = spec.get("traits", ["fast"])
        used[index] = spec
    scripted_rng = {module: module.rng_for for module in ROLLING_MODULES}
    for module in ROLLING_MODULES:
        module.rng_for = base.rng_for
    try:
        s = R.new_game(players=teams, options={"special_players": True, "ability_cards": cards, "kids": roster},
                       seed=7, teams=list(range(teams)))
    finally:
        for module, rng_for in scripted_rng.items():
            module.rng_for = rng_for
    s = copy.deepcopy(s)
    if terrain is not None:
        s["terrain"] = terrain
    for index, kid_id in enumerate(s["kid_order"]):
        kid = s["kids"][kid_id]
        spec = used.get(index)
        if spec is None:
            kid["home"] = "cold"
            continue
        kid["pos"] = [float(v) for v in spec["pos"]]
        for key in ("snowballs", "command_dice", "down", "aims", "points", "prepare"):
            if key in spec:
                kid[key] = spec[key]
    order = [s["kid_order"][i] for i in used]
    s.update({"phase": "play", "turn": 1, "order": order, "next_index": 1, "pending": None, "throw": None,
              "activation": {"kid": order[0], "stage": stage, "tray": sorted(tray)},
              "corners": {str(t): [t] for t in range(teams)}, "pick_index": teams, "deck": [],
              "hands": [list((hands or {}).get(seat, [])) for seat in range(teams)]})
    return s


def kid_id(s: dict[str, Any], name: str) -> str:
    return next(k for k, kid in s["kids"].items() if kid["name"] == name)


class Scripted:
    """A stand-in generator that rolls the dice a test lists, in order."""

    def __init__(self, values: list[int]):
        self.values = values

    def randint(self, low: int, high: int) -> int:
        if not self.values:
            raise AssertionError("the test ran out of scripted dice")
        value = self.values.pop(0)
        assert low <= value <= high, (value, low, high)
        return value

    def shuffle(self, items: list) -> None:
        pass


@pytest.fixture
def dice(monkeypatch):
    """``dice(3, 5, ...)``: the next dice the engine rolls, in order."""
    script: list[int] = []

    def fake_rng_for(state):
        state["rng_counter"] += 1
        return Scripted(script)

    for module in ROLLING_MODULES:
        monkeypatch.setattr(module, "rng_for", fake_rng_for)

    def load(*values: int) -> list[int]:
        script.extend(values)
        return script

    return load


def act(s: dict[str, Any], seat: int, action: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply an action and check the game refused nothing and the input state is untouched."""
    before = copy.deepcopy(s)
    after, events = R.apply(s, seat, action)
    assert s == before
    return after, events


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
