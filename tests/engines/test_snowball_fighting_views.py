"""Views: sealed setup and orders never reach another seat or a spectator; the public map and report do."""
from __future__ import annotations

import json
import random

import pytest

from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import bot
from games.engines.snowball_fighting import views as V
from tests.engines.test_snowball_fighting_helpers import STAND, arena, dice, turn  # noqa: F401

ORDERS_A = [{"type": "move", "route": ["C5", "E5"]}, {"type": "collect", "what": "ss", "count": 2},
            {"type": "rattlesnake", "target": "nearest"}]
ORDERS_B = [{"type": "rattlesnake", "target": 1}, {"type": "maniac"}, {"type": "move", "route": ["C5"]}]


def walk_keys(value, path="$"):
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k
            yield from walk_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_keys(v, f"{path}[{i}]")


def written(s, seat, segments, ready=False):
    s2, _ = R.apply(s, seat, {"type": "orders", "segments": segments, "ready": ready})
    return s2


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seats_orders_are_invisible_to_every_other_seat_and_spectators(players):
    spots = ["A5", "E5", "A9", "G9", "K1", "K5"]
    s = arena({x: spots[x] for x in range(players)}, players=players, rule13=True)
    for writer in range(players):
        action = bot.random_orders(s, writer, random.Random(writer), conditional_share=1.0)
        a = R.apply(s, writer, {**action, "ready": False})[0]
        b = R.apply(s, writer, {"type": "orders", "segments": [{"type": "maniac"}, STAND, STAND]})[0]
        assert a["orders"][writer] != b["orders"][writer]
        for viewer in [None, *range(players)]:
            if viewer == writer:
                assert R.view(a, viewer)["you"]["orders"] == a["orders"][writer]
                continue
            assert R.view(a, viewer) == R.view(b, viewer) == R.view(s, viewer), (writer, viewer)
        # marking ready shows; the orders still do not
        ready_a, ready_b = R.apply(a, writer, {"type": "ready"})[0], R.apply(b, writer, {"type": "ready"})[0]
        for viewer in [None, *range(players)]:
            if viewer != writer:
                assert R.view(ready_a, viewer) == R.view(ready_b, viewer)
                assert R.view(ready_a, viewer)["ready"][writer] is True


def test_a_sealed_setup_is_invisible_to_the_others():
    s = R.new_game(players=3, options={}, seed=9)
    a, _ = R.apply(s, 1, {"type": "setup", "name": "Jack Frost", "starts": ["W9", "A7"]})
    b, _ = R.apply(s, 1, {"type": "setup", "name": "Winter Wolf", "starts": ["C1"], "ready": False})
    for viewer in (None, 0, 2):
        assert R.view(a, viewer) == R.view(b, viewer) == R.view(s, viewer)
    assert R.view(a, 1)["you"]["setup"] == {"name": "Jack Frost", "starts": ["W9", "A7"]}


def test_views_hold_no_generator_state_and_are_json(dice):
    s = arena({0: "A5", 1: "M5"})
    s = written(s, 0, ORDERS_A)
    for viewer in (None, 0, 1):
        v = R.view(s, viewer)
        assert json.loads(json.dumps(v)) == v
        keys = {k for _, k in walk_keys(v)}
        assert not keys & {"seed", "rng_counter"}
        orders_paths = [p for p, k in walk_keys(v) if k == "orders"]
        assert orders_paths == (["$.you"] if viewer is not None else [])


def test_the_public_view_has_the_map_and_every_combatant():
    s = arena({0: "A5", 1: "M5"})
    v = R.view(s, None)
    assert v["map"]["shed"] == "K7" and v["map"]["avalanche_safe"] == ["L6"]
    assert v["map"]["kitchen_door"] == "W11" and len(v["map"]["hexes"]) == 150
    assert [(c["name"], c["hex"], c["hp"], c["vp"], c["ss"], c["dd"]) for c in v["combatants"]] == [
        ("P0", "A5", 10, 0, 2, 0), ("P1", "M5", 10, 0, 2, 0)]
    v["map"]["hexes"].clear()
    assert len(R.view(s, None)["map"]["hexes"]) == 150


def test_the_report_holds_moves_and_throws_to_draw_and_the_rolls_to_read(dice):
    s = arena({0: "A5", 1: "M5"})
    dice([40])
    s, _ = turn(s, {0: [{"type": "move", "route": ["C5"]}, {"type": "rattlesnake", "target": 1}, STAND]})
    report = R.view(s, 1)["report"]
    assert report["turn"] == 1 and [seg["segment"] for seg in report["segments"]] == [1, 2, 3]
    assert report["segments"][0]["moves"] == [
        {"seat": 0, "from": "A5", "route": ["C5"], "to": "C5", "planned": ["C5"], "bumped": False}]
    assert report["segments"][1]["throws"] == [
        {"seat": 0, "action": "rattlesnake", "from": "C5", "to": "M5", "target": 1, "hit": True}]
    line = report["segments"][1]["lines"][0]
    assert "P0: Rogerson Rattlesnake at P1. Base 80%" in line and "d100 rolls 40: HIT" in line
    assert "P1 takes 1 HP" in report["segments"][1]["lines"][1]


def test_sight_is_the_one_place_that_decides_what_a_viewer_sees(monkeypatch, dice):
    s = arena({0: "A5", 1: "M5"})
    dice([40])
    s, _ = turn(s, {0: [{"type": "rattlesnake", "target": 1}, STAND, STAND]})
    monkeypatch.setattr(V, "sight", lambda state, viewer: V.Sight(everything=False, seats=frozenset({1})))
    v = R.view(s, 1)
    assert v["combatants"][0] == {"seat": 0, "name": "P0", "seen": False, "vp": 1}
    assert all(e.get("seat") != 0 for seg in v["report"]["segments"] for e in seg["events"])
    assert v["report"]["segments"][0]["throws"] == []


def test_the_hit_chance_of_a_written_throw_is_shown_with_every_known_modifier():
    s = arena({0: "A5", 1: "E3"}, rule13=True)
    cond = {"type": "conditional", "cases": [{"when": {"if": "not_hit"}, "then": {"type": "rattlesnake", "target": 1}}]}
    s = written(s, 0, [{"type": "move", "route": ["C5"]}, {"type": "rattlesnake", "target": 1}, cond])
    you = R.view(s, 0)["you"]
    assert [p["start"] for p in you["plan"]] == ["A5", "C5", "C5"]
    assert you["plan"][0]["mf_left"] == "3"
    seg2 = you["preview"][1][0]
    assert seg2["distance"] == 2 and seg2["base"] == 80
    assert {m["label"]: m["value"] for m in seg2["modifiers"]} == {
        "Target 4 hexes below range": 20, "Target on conifer hex": -25}
    assert seg2["percent"] == 75 and seg2["unknown"]
    seg3 = you["preview"][2][0]
    assert {m["label"]: m["value"] for m in seg3["modifiers"]}["Conditional order (optional rule 13)"] == -10
    assert you["preview"][0] == []


def test_the_preview_lists_the_lines_the_resolution_will_use_except_the_targets_own(dice):
    s = arena({0: "A5", 1: "G5"})
    s = written(s, 0, [{"type": "rattlesnake", "target": 1}, STAND, STAND])
    preview = R.view(s, 0)["you"]["preview"][0][0]
    dice([99])
    s2, events = R.apply(s, 1, {"type": "orders", "segments": [STAND, STAND, STAND], "ready": True})
    s2, events = R.apply(s2, 0, {"type": "ready"})
    roll = next(e for e in events if e["type"] == "roll")
    assert preview["modifiers"] == [m for m in roll["modifiers"] if m["label"] != "Target didn't move this segment"]
    assert roll["needed"] == preview["needed"] + 5
