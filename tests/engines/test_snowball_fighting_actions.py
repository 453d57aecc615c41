"""Every action of Snowball Fighting at its boundaries: ranges, chances, damage, ammunition, with scripted dice."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.base import BadAction, IllegalAction
from games.engines.snowball_fighting import rules as RU
from tests.engines.test_snowball_fighting_helpers import STAND, arena, dice, mods, put, rolls_of, turn  # noqa: F401

RATTLE = {"type": "rattlesnake", "target": 1}


def first(events, kind="roll"):
    return next(e for e in events if e["type"] == kind)


@given(st.integers(1, 100), st.integers(-200, 200))
def test_01_to_05_always_hit_and_96_to_00_always_miss(roll, target):
    hit = RU.roll_hits(roll, target)
    if roll <= 5:
        assert hit
    elif roll >= 96:
        assert not hit
    else:
        assert hit == (roll <= target)


@pytest.mark.parametrize("at, distance, line", [
    ("K5", 5, ("Target 1 hex below range", 5)),
    ("M5", 6, None),
    ("O5", 7, ("Target 1 hex above range", -5)),
])
def test_rattlesnake_range_six_is_soft_five_percent_a_hex(dice, at, distance, line):
    s = arena({0: "A5", 1: at})
    dice([1])
    _, events = turn(s, {0: [RATTLE, STAND, STAND]})
    roll = first(events)
    assert roll["distance"] == distance and roll["base"] == 80
    expected = {RU.M_STOOD: 5}
    if line:
        expected[line[0]] = line[1]
    assert mods(roll) == expected
    assert roll["adjusted"] == 85 + (line[1] if line else 0)


@pytest.mark.parametrize("roll, hit", [(85, True), (86, False)])
def test_a_roll_equal_to_the_adjusted_chance_hits_one_more_misses(dice, roll, hit):
    s = arena({0: "A5", 1: "M5"})
    dice([roll])
    s2, events = turn(s, {0: [RATTLE, STAND, STAND]})
    assert first(events)["hit"] is hit
    assert s2["combatants"][1]["hp"] == (9 if hit else 10)
    assert s2["combatants"][0]["vp"] == (1 if hit else 0)
    assert s2["combatants"][0]["ss"] == 1  # thrown, hit or miss


@pytest.mark.parametrize("roll, hit", [(95, True), (96, False), (100, False)])
def test_96_to_00_miss_even_at_110_percent(dice, roll, hit):
    s = arena({0: "A5", 1: "C5"})
    dice([roll])
    _, events = turn(s, {0: [RATTLE, STAND, STAND]})
    assert first(events)["adjusted"] == 110 and first(events)["hit"] is hit


@pytest.mark.parametrize("roll, hit", [(5, True), (6, False)])
def test_01_to_05_hit_even_below_zero(dice, roll, hit):
    # nearest opponent -10, 9 hexes above range -45, on a conifer -25, bouncing on the spot -25, stood +5
    s = arena({0: "W1", 1: "E13"})
    dice([roll, 50])
    _, events = turn(s, {0: [{"type": "rattlesnake", "target": "nearest"}, STAND, STAND],
                         1: [{"type": "baker", "target": 0, "bounce": "spot"}, STAND, STAND]})
    roll_event = rolls_of(events)[0]
    assert roll_event["adjusted"] == 80 - 10 - 45 - 25 - 25 + 5 < 0
    assert roll_event["hit"] is hit


def test_nearest_opponent_is_chosen_after_moves_ties_at_random_and_costs_ten_percent(dice):
    s = arena({0: "K5", 1: "K1", 2: "K9"}, players=3)
    dice([1, 40])  # tie between seats 1 and 2 (both 2 hexes): the tealeaves pick index 1 -> seat 2
    s2, events = turn(s, {0: [{"type": "rattlesnake", "target": "nearest"}, STAND, STAND]})
    roll = first(events)
    assert roll["victim"] == 2 and mods(roll)[RU.M_NEAREST] == -10
    assert s2["combatants"][2]["hp"] == 9


def test_nearest_opponent_follows_a_target_that_moved_closer(dice):
    s = arena({0: "A5", 1: "M5", 2: "A1"}, players=3)
    dice([40])
    _, events = turn(s, {0: [{"type": "rattlesnake", "target": "nearest"}, STAND, STAND],
                         1: [{"type": "move", "route": ["K5", "I5", "G5", "E5"]}, STAND, STAND]})
    assert first(events)["victim"] == 1 and first(events)["distance"] == 2


def test_baker_bounce_on_the_spot_makes_throws_at_the_baker_25_percent_harder(dice):
    s = arena({0: "A5", 1: "E5"})
    dice([90, 90])
    _, events = turn(s, {0: [{"type": "baker", "target": 1, "bounce": "spot"}, STAND, STAND],
                         1: [RATTLE | {"target": 0}, STAND, STAND]})
    baker, rattle = rolls_of(events)
    assert baker["base"] == 60 and mods(baker) == {"Target 2 hexes below range": 10, RU.M_STOOD: 5}
    assert mods(rattle)[RU.M_BOUNCE] == -25


def test_baker_bounce_to_a_hex_moves_after_the_throws_and_not_onto_someone(dice):
    s = arena({0: "A5", 1: "E5", 2: "B4"}, players=3)
    dice([90, 90])
    s2, events = turn(s, {0: [{"type": "baker", "target": 1, "bounce": "B6"}, STAND, STAND],
                          1: [RATTLE | {"target": 0}, STAND, STAND]})
    assert RU.M_BOUNCE not in mods(rolls_of(events)[1])
    assert mods(rolls_of(events)[1])[RU.M_STOOD] == 5
    assert s2["combatants"][0]["hex"] == "B6"
    s = arena({0: "A5", 1: "E5", 2: "B4"}, players=3)
    dice([90])
    s2, events = turn(s, {0: [{"type": "baker", "target": 1, "bounce": "B4"}, STAND, STAND]})
    assert s2["combatants"][0]["hex"] == "A5"
    assert any("cannot bounce to B4" in e["text"] for e in events)


def test_a_baker_bounce_whose_throw_is_held_does_not_bounce(dice):
    """Book 5.5: "bounce one hex after throwing". Its target gone into the kitchen, the throw is
    held and the snowball kept: the thrower stays where it stood."""
    s = arena({0: "S11", 1: "W11"})
    dice([])
    s2, events = turn(s, {0: [{"type": "baker", "target": 1, "bounce": "R12"}, STAND, STAND],
                          1: [{"type": "move", "route": ["KITCHEN"]}, STAND, STAND]})
    assert any(e["type"] == "no_target" for e in events)
    assert s2["combatants"][0]["hex"] == "S11" and s2["combatants"][0]["ss"] == s["combatants"][0]["ss"]
    assert not any(e["type"] == "bounce" for e in events)


def test_baker_bounce_must_be_to_a_neighbouring_hex():
    s = arena({0: "A5", 1: "E5"})
    with pytest.raises(IllegalAction, match="next to A5"):
        turn(s, {0: [{"type": "baker", "target": 1, "bounce": "E5"}, STAND, STAND]})


def test_bowen_bolero_throws_two_snowballs_at_50_and_makes_its_thrower_easier_to_hit(dice):
    s = arena({0: "E5", 1: "A5", 2: "I5"}, players=3)
    dice([65, 66, 1])
    s2, events = turn(s, {0: [{"type": "bolero", "targets": [1, 2]}, STAND, STAND],
                          1: [RATTLE | {"target": 0}, STAND, STAND]})
    first_ball, second_ball, at_bolero = rolls_of(events)
    assert first_ball["base"] == second_ball["base"] == 50
    assert first_ball["adjusted"] == second_ball["adjusted"] == 50 + 10 + 5  # 2 hexes: 2 below range 4
    assert first_ball["hit"] and not second_ball["hit"]
    assert mods(at_bolero)[RU.M_BOLERO] == 10
    assert s2["combatants"][0]["ss"] == 0 and s2["combatants"][0]["tally"]["thrown"] == [2, 0]
    assert s2["combatants"][0]["vp"] == 1


def test_bowen_bolero_needs_two_different_targets_and_two_snowballs():
    s = arena({0: "E5", 1: "A5", 2: "I5"}, players=3)
    with pytest.raises(IllegalAction, match="two different targets"):
        turn(s, {0: [{"type": "bolero", "targets": [1, 1]}, STAND, STAND]})
    with pytest.raises(IllegalAction, match="needs 2 simple snowballs"):
        turn(put(s, 0, "E5", ss=1), {0: [{"type": "bolero", "targets": [1, 2]}, STAND, STAND]})
    with pytest.raises(BadAction, match="exactly two targets"):
        turn(s, {0: [{"type": "bolero", "targets": [1]}, STAND, STAND]})


def test_mendham_maniac_hits_everyone_within_two_hexes_for_no_vps(dice):
    s = arena({0: "G5", 1: "K5", 2: "M5"}, players=3)
    dice([25, 60])  # Maniac at seat 1 (2 hexes); seat 2 (3 hexes) is out of reach; seat 1 throws back
    s2, events = turn(s, {0: [{"type": "maniac"}, STAND, STAND], 1: [RATTLE | {"target": 0}, STAND, STAND]})
    maniac, back = rolls_of(events)
    assert maniac["victim"] == 1 and maniac["base"] == 25 and maniac["hit"]
    assert mods(maniac) == {RU.M_STOOD: 5}  # no range line: it is an area
    assert mods(back)[RU.M_MANIAC] == -5
    assert s2["combatants"][1]["hp"] == 9 and s2["combatants"][0]["vp"] == 0
    assert s2["combatants"][0]["dealt"] == 1
    assert s2["combatants"][0]["ss"] == 2  # no ammunition used


def test_doubleday_dirigible_does_three_hp_and_marks_the_target_for_the_next_segment(dice):
    s = put(arena({0: "A5", 1: "G5"}), 0, "A5", dd=1, ss=1)
    s = put(s, 1, "G5", ss=2)
    dice([60, 99, 99])
    s2, events = turn(s, {0: [{"type": "dirigible", "target": 1}, RATTLE, STAND],
                          1: [STAND, RATTLE | {"target": 0}, STAND]})
    dirigible, follow_up, back = rolls_of(events)
    assert dirigible["base"] == 55 and dirigible["adjusted"] == 60  # 3 hexes: in range; stood +5
    assert mods(follow_up)[RU.M_TARGET_BIG_HIT] == 10
    assert mods(back)[RU.M_ASSAILANT_BIG_HIT] == -10
    assert s2["combatants"][1]["hp"] == 7 and s2["combatants"][0]["vp"] == 3
    assert s2["combatants"][0]["dd"] == 0


def test_a_dirigible_needs_a_dirigible():
    s = arena({0: "A5", 1: "G5"})
    with pytest.raises(IllegalAction, match="Doubleday Dirigible"):
        turn(s, {0: [{"type": "dirigible", "target": 1}, STAND, STAND]})


@pytest.mark.parametrize("fall_roll, falls", [(70, True), (71, False)])
def test_conifer_storm_90_then_70_covers_the_conifer_and_its_neighbours(dice, fall_roll, falls):
    s = arena({0: "I3", 1: "E3", 2: "F4", 3: "C5"}, players=4)
    dice([95, fall_roll])
    s2, events = turn(s, {0: [{"type": "storm", "conifer": "E3"}, STAND, STAND]})
    storm = first(events)
    assert storm["base"] == 90 and mods(storm) == {"Target 2 hexes below range": 10}
    assert storm["hit"]
    hp = [c["hp"] for c in s2["combatants"]]
    assert hp == ([10, 8, 9, 10] if falls else [10, 10, 10, 10])
    assert s2["combatants"][0]["vp"] == (3 if falls else 0)
    assert s2["used"]["conifers"] == (["E3"] if falls else [])


@pytest.mark.parametrize(("tealeaves", "credited"), [(0, 0), (1, 3)])
def test_two_storms_that_bring_one_conifer_down_at_once_drop_its_snow_once(dice, tealeaves, credited):
    """Book 5: a segment's actions are simultaneous. Storms at one conifer in one segment are all
    thrown (neither is held for the other), the snow falls once, and its VPs go to the thrower
    the tealeaves pick, whatever the seats' numbers."""
    s = arena({0: "I3", 1: "E3", 2: "F4", 3: "C5"}, players=4)
    dice([95, 60, 95, 60, tealeaves])
    s2, events = turn(s, {0: [{"type": "storm", "conifer": "E3"}, STAND, STAND],
                          3: [{"type": "storm", "conifer": "E3"}, STAND, STAND]})
    assert [e["seat"] for e in events if e["type"] == "roll"] == [0, 3]  # both thrown, both hit
    assert not any(e["type"] == "no_target" for e in events)
    assert [c["hp"] for c in s2["combatants"]] == [10, 8, 9, 10]  # the snow fell once
    assert [c["vp"] for c in s2["combatants"]] == [3 if credited == 0 else 0, 0, 0, 3 if credited == 3 else 0]
    assert s2["used"]["conifers"] == ["E3"]
    shared = next(e for e in events if e["type"] == "shared_fall")
    assert shared["seats"] == [0, 3] and shared["seat"] == credited


def test_a_conifer_can_be_stormed_only_once():
    s = arena({0: "I3", 1: "W13"})
    s["used"]["conifers"] = ["E3"]
    with pytest.raises(IllegalAction, match="already been stormed"):
        turn(s, {0: [{"type": "storm", "conifer": "E3"}, STAND, STAND]})
    with pytest.raises(IllegalAction, match="not a conifer"):
        turn(s, {0: [{"type": "storm", "conifer": "E5"}, STAND, STAND]})


@pytest.mark.parametrize("side_roll, fell", [(80, "N"), (81, "S")])
def test_shed_avalanche_80_80_80_and_l6_stays_dry(dice, side_roll, fell):
    s = arena({0: "I9", 1: "J6", 2: "L6", 3: "M7"}, players=4)
    s = put(s, 0, "I9", ss=0, dd=1)
    dice([80, 80, side_roll])
    s2, events = turn(s, {0: [{"type": "avalanche", "side": "N"}, STAND, STAND]})
    shot = first(events)
    assert shot["base"] == 80 and shot["distance"] == 2 and mods(shot) == {}
    hp = [c["hp"] for c in s2["combatants"]]
    assert hp == ([10, 8, 10, 10] if fell == "N" else [10, 10, 10, 8])
    assert s2["used"]["sides"] == [fell]
    assert s2["combatants"][0]["vp"] == 2


def test_an_avalanche_that_does_not_slide_uses_nothing_up(dice):
    s = put(arena({0: "I9", 1: "J6"}), 0, "I9", ss=0, dd=1)
    dice([80, 81])
    s2, _ = turn(s, {0: [{"type": "avalanche", "side": "N"}, STAND, STAND]})
    assert s2["used"]["sides"] == [] and s2["combatants"][1]["hp"] == 10 and s2["combatants"][0]["dd"] == 0


def test_a_side_of_the_shed_avalanches_only_once():
    s = put(arena({0: "I9", 1: "J6"}), 0, "I9", dd=1, ss=0)
    s["used"]["sides"] = ["S"]
    with pytest.raises(IllegalAction, match="south side"):
        turn(s, {0: [{"type": "avalanche", "side": "S"}, STAND, STAND]})


def test_a_shot_over_the_shed_is_halved_after_the_other_adjustments_rounding_down(dice):
    s = put(arena({0: "I7", 1: "M7"}), 0, "I7", dd=1, ss=0)
    dice([32, 50])
    _, events = turn(s, {0: [{"type": "dirigible", "target": 1}, STAND, STAND],
                         1: [RATTLE | {"target": 0}, STAND, STAND]})
    dirigible, back = rolls_of(events)
    assert dirigible["over_shed"] and dirigible["adjusted"] == 55 + 5 + 5 and dirigible["needed"] == 32
    assert dirigible["hit"]
    assert back["adjusted"] == 80 + 20 + 5 and back["needed"] == 52 and back["hit"]


def test_throwing_needs_a_snowball_and_cannot_be_at_yourself():
    s = put(arena({0: "A5", 1: "G5"}), 0, "A5", ss=0)
    with pytest.raises(IllegalAction, match="needs 1 simple snowball, and you will have 0"):
        turn(s, {0: [RATTLE, STAND, STAND]})
    s = arena({0: "A5", 1: "G5"})
    with pytest.raises(IllegalAction, match="at yourself"):
        turn(s, {0: [RATTLE | {"target": 0}, STAND, STAND]})
    # two snowballs last two throws; a third needs collecting first
    with pytest.raises(IllegalAction, match="segment 3"):
        turn(s, {0: [RATTLE, RATTLE, RATTLE]})
    turn(s, {0: [RATTLE, {"type": "collect", "what": "ss", "count": 1}, RATTLE]})


def test_a_throw_at_someone_running_to_the_kitchen_is_held(dice):
    s = put(arena({0: "A5", 1: "G5"}), 1, "G5", hp=1)
    dice([10])
    s2, events = turn(s, {0: [RATTLE, RATTLE, STAND]})
    assert len(rolls_of(events)) == 1
    assert s2["combatants"][1]["status"] == "running"
    assert any(e["type"] == "no_target" for e in events)
    assert s2["combatants"][0]["ss"] == 1  # the second snowball was kept


@pytest.mark.parametrize("second, held", [
    (RATTLE, "P0 holds the Rogerson Rattlesnake: P1 cannot be hit now."),
    ({"type": "rattlesnake", "target": "nearest"}, "P0 holds the Rogerson Rattlesnake: no opponent can be hit now."),
    ({"type": "baker", "target": 1, "bounce": "spot"}, "P0 holds the Baker Bounce: P1 cannot be hit now."),
])
def test_a_held_throw_says_who_cannot_be_hit_in_words_that_read(dice, second, held):
    s = put(arena({0: "A5", 1: "G5"}), 1, "G5", hp=1)
    dice([10])
    _, events = turn(s, {0: [RATTLE, second, STAND]})
    assert [e["text"] for e in events if e["type"] == "no_target"] == [held]


def test_a_held_bowen_bolero_names_both_targets_that_cannot_be_hit(dice):
    s = arena({0: "A5", 1: "E5", 2: "E7"}, players=3)
    s = put(put(put(s, 0, "A5", ss=4), 1, "E5", hp=1), 2, "E7", hp=1)
    dice([10, 10])
    bolero = {"type": "bolero", "targets": [1, 2]}
    _, events = turn(s, {0: [bolero, bolero, STAND]})
    assert [e["text"] for e in events if e["type"] == "no_target"] == [
        "P0 holds the Bowen Bolero: neither P1 nor P2 can be hit now."]


def test_the_table_of_target_modifiers(dice):
    cases = [
        ({"type": "collect", "what": "ss", "count": 2}, "G5", {RU.M_COLLECTED_TWO: 10, RU.M_STOOD: 5}),
        ({"type": "collect", "what": "ss", "count": 1}, "G5", {RU.M_COLLECTED_ONE: 5, RU.M_STOOD: 5}),
        ({"type": "move", "route": ["H6"]}, "G5", {RU.M_MOVED_SHORT: -5}),
        ({"type": "move", "route": ["H6", "I5"]}, "G5", {RU.M_MOVED_SHORT: -5}),
        ({"type": "move", "route": ["H6", "I5", "J6"]}, "G5", {RU.M_MOVED_FAR: -10}),
        ({"type": "move", "route": ["H6", "I5", "J6", "K5"]}, "G5", {RU.M_MOVED_FAR: -10}),
        (STAND, "F4", {RU.M_STOOD: 5, RU.M_NEAR_CONIFER: -10}),
        (STAND, "E3", {RU.M_STOOD: 5, RU.M_CONIFER: -25}),
        (STAND, "Q3", {RU.M_STOOD: 5, RU.M_SNOWMAN: -10}),
        ({"type": "maniac"}, "G5", {RU.M_STOOD: 5, RU.M_MANIAC: -5}),
    ]
    for order, at, expected in cases:
        s = arena({0: "G9" if at != "Q3" else "Q7", 1: at})
        dice([99] + ([99] if order["type"] == "maniac" else []))
        _, events = turn(s, {0: [RATTLE, STAND, STAND], 1: [order, STAND, STAND]})
        roll = next(e for e in rolls_of(events) if e["seat"] == 0)
        got = {k: v for k, v in mods(roll).items() if "range" not in k}
        assert got == expected, (order, at)


def test_a_combatant_who_sent_no_orders_is_10_percent_easier_to_hit(dice):
    s = arena({0: "A5", 1: "M5"})
    dice([50])
    s2, events = turn(s, {0: [RATTLE, STAND, STAND]}, nmr=(1,))
    assert mods(first(events)) == {RU.M_STOOD: 5, RU.M_NMR: 10}
    assert s2["report"]["notes"][0]["seat"] == 1


def test_three_snowmen_heads_serve_as_dirigibles_once():
    s = arena({0: "Q3", 1: "A13"})
    s2, _ = turn(s, {0: [{"type": "collect", "what": "head"}, STAND, STAND]})
    assert s2["combatants"][0]["dd"] == 1 and s2["used"]["heads"] == ["Q3"]
    with pytest.raises(IllegalAction, match="already lost its head"):
        turn(s2, {0: [{"type": "collect", "what": "head"}, STAND, STAND]})
    s = arena({0: "Q5", 1: "A13"})
    with pytest.raises(IllegalAction, match="only on the snowman's hex"):
        turn(s, {0: [{"type": "collect", "what": "head"}, STAND, STAND]})


def test_an_avalanche_in_the_third_segment_marks_its_victim_in_the_next_turns_first(dice):
    s = put(arena({0: "I9", 1: "J6"}), 0, "I9", ss=1, dd=1)
    dice([80, 80, 80])
    s, _ = turn(s, {0: [STAND, STAND, {"type": "avalanche", "side": "N"}]})
    assert s["combatants"][1]["hp"] == 8
    dice([99, 99, 99])
    _, events = turn(s, {0: [RATTLE, STAND, STAND], 1: [RATTLE | {"target": 0}, STAND, RATTLE | {"target": 0}]})
    at_victim, by_victim, later = rolls_of(events)
    assert mods(at_victim)[RU.M_TARGET_BIG_HIT] == 10
    assert mods(by_victim)[RU.M_ASSAILANT_BIG_HIT] == -10
    assert RU.M_ASSAILANT_BIG_HIT not in mods(later)
