"""Helpers for the Snowball Fighting tests: games at a chosen position, scripted dice, whole games.

``started()`` plays the setup; ``put()`` places combatants; ``turn()`` has every asked seat
send the given orders (the rest stand) and resolves; ``Dice`` replaces the game's generator
with a script of rolls for one resolution, so a test can roll exactly a boundary.
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import bot
from games.engines.snowball_fighting import engine as E

STAND = {"type": "stand"}


def started(players: int = 2, *, seed: int = 1, **options: Any) -> dict:
    """A game at the start of turn 1: seat x is "P<x>" and got the x-th start hex."""
    s = R.new_game(players=players, options=options, seed=seed)
    starts = list(E.MAPS["garden"].starts)
    for seat in range(players):
        s, _ = R.apply(s, seat, {"type": "setup", "name": f"P{seat}", "starts": [starts[seat]], "ready": True})
    assert s["phase"] == "orders"
    return s


def put(s: dict, seat: int, hex_ref: str, **fields: Any) -> dict:
    """The same game with ``seat`` moved to ``hex_ref`` and any combatant fields replaced."""
    s = copy.deepcopy(s)
    s["combatants"][seat].update(hex=hex_ref, **fields)
    return s


def arena(positions: dict[int, str], players: int | None = None, **options: Any) -> dict:
    """A fresh turn-1 game with combatants at the given hexes (others far away in the corners)."""
    n = players or max(2, len(positions))
    s = started(n, **options)
    corners = ["A1", "W13", "A13", "W1", "S13", "C7"]
    spare = [h for h in corners if h not in positions.values()]
    for seat in range(n):
        s = put(s, seat, positions.get(seat) or spare.pop(0))
    return s


def turn(s: dict, orders: dict[int, list], *, nmr: tuple[int, ...] = ()) -> tuple[dict, list]:
    """Send the orders (seats not named stand still; seats in ``nmr`` send nothing) and resolve."""
    events: list = []
    for seat in E.asked_seats(s):
        if seat in nmr:
            s, ev = R.apply(s, seat, {"type": "deadline"})
        else:
            segs = orders.get(seat, [STAND, STAND, STAND])
            s, ev = R.apply(s, seat, {"type": "orders", "segments": segs, "ready": True})
        events += ev
    return s, events


class Dice:
    """A stand-in for the game's generator that rolls what the test says, in order."""

    def __init__(self, rolls: list[int]):
        self.rolls = list(rolls)

    def _next(self, lo: int, hi: int) -> int:
        assert self.rolls, "the engine rolled more dice than the test scripted"
        value = self.rolls.pop(0)
        assert lo <= value <= hi, f"scripted roll {value} is outside {lo}..{hi}"
        return value

    def randint(self, lo: int, hi: int) -> int:
        return self._next(lo, hi)

    def randrange(self, n: int) -> int:
        return self._next(0, n - 1)

    def shuffle(self, items: list) -> None:
        return None


@pytest.fixture
def dice(monkeypatch):
    """``dice([rolls])`` makes the next resolutions roll exactly these numbers."""
    def script(rolls: list[int]) -> Dice:
        scripted = Dice(rolls)

        def rng_for(state: dict) -> Dice:
            state["rng_counter"] += 1
            return scripted

        monkeypatch.setattr(E, "rng_for", rng_for)
        return scripted
    return script


def rolls_of(events: list) -> list[dict]:
    return [e for e in events if e["type"] == "roll"]


def mods(event: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in event["modifiers"]}


def play_game(players: int, seed: int, options: dict | None = None, *, random_share: float = 0.5,
              on_step=None) -> tuple[dict, list]:
    """A whole game: each seat is the bot or, with probability ``random_share`` per turn, random orders."""
    rng = random.Random(seed)
    s = R.new_game(players=players, options=options or {}, seed=seed)
    log: list = []
    while R.outcome(s) is None:
        assert len(log) < 2000, f"game {seed} did not end"
        seat = min(R.to_act(s))
        if s["phase"] == "orders" and s["orders"][seat] is None and rng.random() < random_share:
            action = bot.random_orders(s, seat, rng) if rng.random() > 0.05 else {"type": "deadline"}
        else:
            action = R.bot_action(s, seat)
        before = s
        s, events = R.apply(s, seat, action)
        log.append([seat, action])
        if on_step is not None:
            on_step(before, seat, action, s, events)
    return s, log


def replay(players: int, seed: int, options: dict | None, log: list) -> dict:
    s = R.new_game(players=players, options=options or {}, seed=seed)
    for seat, action in log:
        s, _ = R.apply(s, seat, json.loads(json.dumps(action)))
    return s


def test_started_places_each_seat_on_its_first_choice():
    s = started(4)
    assert [c["hex"] for c in s["combatants"]] == ["A7", "C1", "I13", "S1"]
    assert [c["name"] for c in s["combatants"]] == ["P0", "P1", "P2", "P3"]


def test_scripted_dice_refuse_to_run_dry(dice):
    s = arena({0: "K3", 1: "K5"})
    dice([])
    with pytest.raises(AssertionError, match="more dice"):
        turn(s, {0: [{"type": "rattlesnake", "target": 1}, STAND, STAND]})
