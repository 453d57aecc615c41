"""Movement, collecting, contested hexes, the kitchen, NMRs, optional rules 12-14, victory and setup."""
from __future__ import annotations

import copy

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import rules as RU
from games.engines.snowball_fighting.garden import KITCHEN
from tests.engines.test_snowball_fighting_helpers import STAND, arena, dice, mods, put, rolls_of, started, turn  # noqa: F401

RATTLE = {"type": "rattlesnake", "target": 1}


def hexes(s):
    return [c["hex"] for c in s["combatants"]]


# --------------------------------------------------------------------------- moving


def test_the_path_halves_movement_in_resolution_too():
    s = arena({0: "B10", 1: "W1"})
    s2, _ = turn(s, {0: [{"type": "move", "route": ["C11", "E11", "G11", "I11", "K11", "L10"]}, STAND, STAND]})
    assert hexes(s2)[0] == "L10"


def test_a_move_longer_than_four_mf_is_refused_with_the_cost():
    s = arena({0: "A5", 1: "W1"})
    with pytest.raises(IllegalAction, match=r"segment 2: the route costs 5 MF by K5, but only 4 MF"):
        turn(s, {0: [STAND, {"type": "move", "route": ["C5", "E5", "G5", "I5", "K5"]}, STAND]})


def test_orders_are_checked_from_where_the_earlier_orders_leave_you():
    s = arena({0: "A5", 1: "W1"})
    with pytest.raises(IllegalAction, match="segment 2: step 1 of the route, C5, is not next to I5"):
        turn(s, {0: [{"type": "move", "route": ["C5", "E5", "G5", "I5"]}, {"type": "move", "route": ["C5"]}, STAND]})


def test_the_faster_gets_a_contested_hex_and_the_slower_stops_a_hex_short():
    s = arena({0: "G5", 1: "K1"})
    s2, events = turn(s, {0: [{"type": "move", "route": ["I5", "K5"]}, STAND, STAND],
                          1: [{"type": "move", "route": ["L2", "K3", "L4", "K5"]}, STAND, STAND]})
    assert hexes(s2) == ["K5", "L4"]
    contest = next(e for e in events if e["type"] == "contest")
    assert contest["winner"] == 0 and not contest["random"]


@pytest.mark.parametrize("leaf, expected", [(0, ["K5", "M5"]), (1, ["I5", "K5"])])
def test_equally_fast_combatants_are_sorted_out_by_the_tealeaves(dice, leaf, expected):
    s = arena({0: "G5", 1: "O5"})
    dice([leaf])
    s2, events = turn(s, {0: [{"type": "move", "route": ["I5", "K5"]}, STAND, STAND],
                          1: [{"type": "move", "route": ["M5", "K5"]}, STAND, STAND]})
    assert hexes(s2) == expected
    assert next(e for e in events if e["type"] == "contest")["random"]


def test_a_collector_is_slower_than_an_equally_fast_mover(dice):
    s = put(arena({0: "G5", 1: "O5"}), 0, "G5", ss=1)
    dice([])  # settled without the tealeaves
    s2, _ = turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end",
                          "route": ["I5", "K5"]}, STAND, STAND],
                     1: [{"type": "move", "route": ["M5", "K5"]}, STAND, STAND]})
    assert hexes(s2) == ["I5", "K5"]
    assert s2["combatants"][0]["ss"] == 2


def test_the_mf_spent_collecting_before_a_move_count_towards_a_contested_hex(dice):
    """R7: fewer MF spent wins. Collecting first (2 MF) and moving 2 hexes is 4 MF spent on
    arrival, slower than a mover's 3; a mover's 4 ties it, and the collector loses the tie."""
    collect_first = {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "start", "route": ["I5", "K5"]}
    dice([])
    for mover_at, route in (("N8", ["M7", "L6", "K5"]), ("O9", ["N8", "M7", "L6", "K5"])):
        s = put(arena({0: "G5", 1: mover_at}), 0, "G5", ss=1)
        s2, events = turn(s, {0: [collect_first, STAND, STAND], 1: [{"type": "move", "route": route}, STAND, STAND]})
        assert hexes(s2) == ["I5", "K5"], mover_at
        assert next(e for e in events if e["type"] == "contest")["winner"] == 1


@pytest.mark.parametrize("collect_at", ["start", "end"])
def test_a_collect_and_move_is_the_slower_in_a_contest_whichever_it_does_first(dice, collect_at):
    """R15: collecting at the end, two hexes cost 2 MF, fewer than the mover's 3, yet the
    collector is the slower one; collecting first it is slower anyway."""
    s = put(arena({0: "G5", 1: "N8"}), 0, "G5", ss=1)
    dice([])
    s2, events = turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": collect_at,
                               "route": ["I5", "K5"]}, STAND, STAND],
                          1: [{"type": "move", "route": ["M7", "L6", "K5"]}, STAND, STAND]})
    assert hexes(s2) == ["I5", "K5"]
    assert next(e for e in events if e["type"] == "contest")["winner"] == 1


def test_a_collect_and_move_bumped_back_to_where_it_started_keeps_its_hex(dice):
    """Someone who ends where it started always keeps its hex, a collect-and-move too (R15 is
    about arriving)."""
    s = put(arena({0: "G5", 1: "I5", 2: "C5"}, players=3), 0, "G5", ss=1)
    dice([])
    s2, _ = turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "start",
                          "route": ["I5"]}, STAND, STAND],
                     2: [{"type": "move", "route": ["E5", "G5"]}, STAND, STAND]})
    assert hexes(s2) == ["G5", "I5", "E5"]


def test_two_collect_and_moves_contest_by_mf(dice):
    s = put(put(arena({0: "I5", 1: "N6"}), 0, "I5", ss=1), 1, "N6", ss=1)
    dice([])
    cm = {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end"}
    s2, _ = turn(s, {0: [{**cm, "route": ["K5"]}, STAND, STAND],
                     1: [{**cm, "route": ["M5", "K5"]}, STAND, STAND]})
    assert hexes(s2) == ["K5", "M5"]


def test_someone_standing_keeps_their_hex_and_bumps_cascade():
    s = arena({0: "G5", 1: "K5", 2: "C5"}, players=3)
    s2, _ = turn(s, {0: [{"type": "move", "route": ["I5", "K5"]}, STAND, STAND],
                     2: [{"type": "move", "route": ["E5", "G5", "H6", "I5"]}, STAND, STAND]})
    assert hexes(s2) == ["I5", "K5", "H6"]


def test_anyone_may_pass_through_an_occupied_hex():
    s = arena({0: "G5", 1: "I5"})
    s2, _ = turn(s, {0: [{"type": "move", "route": ["I5", "K5"]}, STAND, STAND]})
    assert hexes(s2) == ["K5", "I5"]


def test_a_bumped_move_is_replanned_from_where_the_mover_stands():
    s = arena({0: "G5", 1: "K5"})
    s2, events = turn(s, {0: [{"type": "move", "route": ["I5", "K5"]}, {"type": "move", "route": ["M5", "O5"]}, STAND]})
    moves = [m for seg in s2["report"]["segments"] for m in seg["moves"]]
    assert moves[0]["to"] == "I5" and moves[0]["bumped"]
    # the written route M5, O5 starts at K5; from I5 the engine walks the cheapest way to O5
    assert moves[1]["route"] == ["K5", "M5", "O5"] and hexes(s2)[0] == "O5"


# --------------------------------------------------------------------------- collecting and carrying


def test_collect_and_move_shares_four_mf():
    s = put(arena({0: "G5", 1: "W1"}), 0, "G5", ss=0)
    s2, _ = turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end",
                          "route": ["I5", "K5"]}, STAND, STAND]})
    assert hexes(s2)[0] == "K5" and s2["combatants"][0]["ss"] == 1
    with pytest.raises(IllegalAction, match="the route costs 3 MF by K3, but only 2 MF"):
        turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "route": ["H4", "I3", "K3"]}, STAND, STAND]})
    with pytest.raises(IllegalAction, match="takes 4 MF, leaving nothing to move with"):
        turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 2, "route": ["I5"]}, STAND, STAND]})
    with pytest.raises(IllegalAction, match="a Doubleday Dirigible takes 4 MF"):
        turn(s, {0: [{"type": "collect_move", "what": "dd", "route": ["I5"]}, STAND, STAND]})


def test_no_snowballs_on_the_path():
    s = arena({0: "C11", 1: "W1"})
    with pytest.raises(IllegalAction, match=r"cannot be collected on the path \(C11\)"):
        turn(s, {0: [{"type": "collect", "what": "ss", "count": 2}, STAND, STAND]})
    s = arena({0: "B10", 1: "W1"})
    with pytest.raises(IllegalAction, match=r"on the path \(C11\)"):
        turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end", "route": ["C11"]},
                     STAND, STAND]})
    s = arena({0: "C11", 1: "W1"})  # collecting first, standing on the path, before stepping off it
    with pytest.raises(IllegalAction, match=r"segment 1: snowballs cannot be collected on the path \(C11\)"):
        turn(s, {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "start", "route": ["B10"]},
                     STAND, STAND]})
    # a route that only passes along the path, collecting after it, is fine
    s2, _ = turn(arena({0: "B10", 1: "W1"}), {0: [{"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end",
                                                  "route": ["C11", "D12"]}, STAND, STAND]})
    assert hexes(s2)[0] == "D12"
    # a segment that starts on the path after an earlier move is checked from there
    with pytest.raises(IllegalAction, match=r"segment 2: snowballs cannot be collected on the path \(C11\)"):
        turn(arena({0: "B10", 1: "W1"}), {0: [{"type": "move", "route": ["C11"]},
                                             {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "start",
                                              "route": ["D12"]}, STAND]})


def test_an_excess_stash_is_trampled_when_its_owner_moves():
    s = arena({0: "A5", 1: "W1"})
    s2, events = turn(s, {0: [{"type": "collect", "what": "ss", "count": 2}, {"type": "move", "route": ["C5"]}, STAND]})
    c = s2["combatants"][0]
    assert c["ss"] == 2 and c["tally"]["trampled"] == [2, 0] and c["tally"]["collected"] == [4, 0]
    assert any(e["type"] == "trampled" and e["hex"] == "A5" for e in events)


@pytest.mark.parametrize("carry, kept, trampled", [(None, (0, 1), [2, 0]), ("ss", (2, 0), [0, 1])])
def test_a_mover_carries_two_simple_snowballs_or_one_dirigible(carry, kept, trampled):
    s = put(arena({0: "A5", 1: "W1"}), 0, "A5", ss=2, dd=1)
    move = {"type": "move", "route": ["C5"], **({"carry": carry} if carry else {})}
    s2, _ = turn(s, {0: [move, STAND, STAND]})
    c = s2["combatants"][0]
    assert (c["ss"], c["dd"]) == kept and c["tally"]["trampled"] == trampled


# --------------------------------------------------------------------------- the kitchen


def test_zero_hp_runs_to_the_kitchen_dries_three_segments_and_comes_back_at_w11(dice):
    s = put(arena({0: "S9", 1: "W9"}), 1, "W9", hp=1)
    dice([1])
    s, events = turn(s, {0: [RATTLE, STAND, STAND], 1: [STAND, RATTLE | {"target": 0}, STAND]})
    c = s["combatants"][1]
    assert c["status"] == "drying" and c["hex"] == "KITCHEN" and c["tally"]["melted"] == [2, 0]
    assert len(rolls_of(events)) == 1  # its segment-2 throw was ignored: it was running
    assert R.to_act(s)[1].text.endswith("segment 3.")
    with pytest.raises(IllegalAction, match="drying your socks"):
        turn(s, {1: [RATTLE | {"target": 0}, STAND, STAND]})
    s, _ = turn(s, {1: [None, None, {"type": "move", "route": ["U11"]}]})
    c = s["combatants"][1]
    assert (c["status"], c["hex"], c["hp"], c["ss"]) == ("fighting", "U11", 10, 2)
    assert c["tally"]["collected"] == [4, 0]


def test_someone_on_w11_makes_the_returner_come_out_next_to_it(dice):
    s = put(arena({0: "W11", 1: "A1"}), 1, "KITCHEN", status="drying", dry_until=0, hp=0, ss=0)
    s2, events = turn(s, {})
    assert s2["combatants"][1]["hex"] == "U11"


def test_a_coward_may_hide_in_the_kitchen_and_cannot_be_hit():
    s = arena({0: "U11", 1: "W1"})
    s, _ = turn(s, {0: [{"type": "move", "route": ["W11", "KITCHEN"]}, STAND, STAND]})
    assert hexes(s)[0] == "KITCHEN" and s["combatants"][0]["ss"] == 0
    with pytest.raises(IllegalAction, match="inside the kitchen"):
        turn(s, {0: [RATTLE, STAND, STAND]})
    s2, _ = turn(s, {1: [RATTLE | {"target": 0}, STAND, STAND]})
    assert s2["combatants"][0]["hp"] == 10 and s2["combatants"][1]["ss"] == 2


# --------------------------------------------------------------------------- NMRs


def test_a_first_nmr_stands_admiring_the_sky_a_second_runs_for_good(dice):
    s = arena({0: "A5", 1: "W1", 2: "A1"}, players=3)
    s, _ = turn(s, {}, nmr=(2,))
    assert s["combatants"][2]["nmr_streak"] == 1 and hexes(s)[2] == "A1"
    dice([1])
    s, events = turn(s, {0: [{"type": "rattlesnake", "target": 2}, STAND, STAND]}, nmr=(2,))
    c = s["combatants"][2]
    assert c["status"] == "fled" and c["hex"] != "A1"
    roll = rolls_of(events)[0]
    assert mods(roll)[RU.M_NMR] == 10 and mods(roll)[RU.M_MOVED_FAR] == -10 and roll["hit"]
    assert 2 not in R.to_act(s)
    for _ in range(6):
        s, _ = turn(s, {})
    assert s["combatants"][2]["status"] == "gone" and R.outcome(s) is None


def test_sending_orders_between_two_nmrs_starts_the_count_again():
    s = arena({0: "A5", 1: "W1"})
    s, _ = turn(s, {}, nmr=(1,))
    s, _ = turn(s, {})
    s, _ = turn(s, {}, nmr=(1,))
    assert s["combatants"][1]["status"] == "fighting" and s["combatants"][1]["nmr_streak"] == 1


def test_a_two_player_game_ends_when_one_side_nmrs_twice():
    s = arena({0: "A5", 1: "W1"})
    s, _ = turn(s, {}, nmr=(1,))
    s, _ = turn(s, {}, nmr=(1,))
    result = R.outcome(s)
    assert result["code"] == "abandoned" and result["winners"] == [0]


def test_the_deadline_locks_orders_already_written():
    s = arena({0: "A5", 1: "W1"})
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": ["C5"]}, None, None]})
    s, _ = R.apply(s, 0, {"type": "deadline"})
    s, _ = R.apply(s, 1, {"type": "orders", "segments": [STAND, STAND, STAND], "ready": True})
    assert hexes(s)[0] == "C5" and s["combatants"][0]["nmr_streak"] == 0


# --------------------------------------------------------------------------- optional rules


@pytest.mark.parametrize("rule12", [True, False])
def test_rule_12_00_spells_disaster(dice, rule12):
    s = arena({0: "A5", 1: "M5"}, rule12=rule12)
    dice([100])
    s2, events = turn(s, {0: [RATTLE, {"type": "collect", "what": "ss", "count": 2},
                              {"type": "collect", "what": "ss", "count": 1}]})
    c = s2["combatants"][0]
    assert not rolls_of(events)[0]["hit"]
    if rule12:
        assert (c["hp"], c["ss"], c["taken"], c["tally"]["broken"]) == (8, 1, 2, [1, 0])
        assert any("recovering" in e["text"] for e in events)
        assert s2["combatants"][1]["vp"] == 0
    else:
        assert (c["hp"], c["ss"]) == (10, 4)


@pytest.mark.parametrize("hp, status", [(2, "running"), (3, "fighting")])
def test_rule_12_the_disasters_2_hp_can_send_the_thrower_to_the_kitchen(dice, hp, status):
    s = put(arena({0: "A5", 1: "M5"}, rule12=True), 0, "A5", hp=hp)
    dice([100])
    s2, events = turn(s, {0: [RATTLE, RATTLE, STAND]})
    c = s2["combatants"][0]
    assert (c["hp"], c["status"]) == (hp - 2, status)
    assert len(rolls_of(events)) == 1  # recovering, then running: no second throw


@pytest.mark.parametrize("roll, falls", [(10, True), (11, False)])
def test_rule_14_moving_at_full_tilt_slips_one_time_in_ten(dice, roll, falls):
    s = arena({0: "A5", 1: "W1"}, rule14=True)
    dice([roll])
    s2, events = turn(s, {0: [{"type": "move", "route": ["C5", "E5", "G5", "I5"]}, STAND, STAND]})
    c = s2["combatants"][0]
    assert next(e for e in events if e["type"] == "slip_roll")["fell"] is falls
    assert (c["hp"], c["ss"]) == ((8, 0) if falls else (10, 2))


def test_rule_14_rolls_each_segment_of_a_full_tilt_move_and_only_then(dice):
    """Book 14: "moving at full tilt has a 10% chance per segment"; full tilt is a move of all
    4 MF (README 18), so 3 MF or a collect-and-move never slips, and without rule 14 nothing does."""
    def slips(events):
        return [e for e in events if e["type"] == "slip_roll"]

    there = {"type": "move", "route": ["C5", "E5", "G5", "I5"]}
    back = {"type": "move", "route": ["G5", "E5", "C5", "A5"]}
    scripted = dice([11, 11, 11])
    s2, events = turn(arena({0: "A5", 1: "W1"}, rule14=True), {0: [there, back, there]})
    assert [(e["segment"], e["roll"], e["fell"]) for e in slips(events)] == [(1, 11, False), (2, 11, False), (3, 11, False)]
    assert scripted.rolls == [] and hexes(s2)[0] == "I5"

    three_mf = {"type": "move", "route": ["C5", "E5", "G5"]}
    collect_and_move = {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "start", "route": ["I5", "K5"]}
    dice([])  # any roll at all fails the test
    s = put(arena({0: "A5", 1: "W1"}, rule14=True), 0, "A5", ss=1)
    s2, events = turn(s, {0: [three_mf, collect_and_move, STAND]})
    assert slips(events) == [] and hexes(s2)[0] == "K5"
    assert (s2["combatants"][0]["hp"], s2["combatants"][0]["ss"]) == (10, 2)
    path = ["C11", "E11", "G11", "I11", "K11", "M11", "O11", "Q11"]  # half an MF a step (RULINGS 1)
    s2, events = turn(arena({0: "A11", 1: "W1"}, rule14=True), {0: [{"type": "move", "route": path[:7]}, STAND, STAND]})
    assert slips(events) == [] and hexes(s2)[0] == "O11"  # 3.5 MF
    dice([10])
    s2, events = turn(arena({0: "A11", 1: "W1"}, rule14=True), {0: [{"type": "move", "route": path}, STAND, STAND]})
    assert [e["fell"] for e in slips(events)] == [True] and s2["combatants"][0]["hp"] == 8  # 4 MF
    dice([])
    s2, events = turn(arena({0: "A5", 1: "W1"}), {0: [there, back, there]})
    assert slips(events) == [] and hexes(s2)[0] == "I5" and s2["combatants"][0]["hp"] == 10


@pytest.mark.parametrize("first_roll, second_throw", [(1, True), (99, False)])
def test_rule_13_conditional_third_segment_at_minus_10(dice, first_roll, second_throw):
    s = arena({0: "A5", 1: "M5"}, rule13=True)
    dice([first_roll, 50])
    cond = {"type": "conditional", "cases": [{"when": {"if": "hit"}, "then": RATTLE}], "otherwise": STAND}
    s2, events = turn(s, {0: [STAND, STAND, cond], 1: [RATTLE | {"target": 0}, STAND, STAND]})
    rolls = rolls_of(events)
    assert len(rolls) == (2 if second_throw else 1)
    if second_throw:
        assert mods(rolls[1])[RU.M_CONDITIONAL] == -10


def test_conditional_orders_only_for_the_third_segment_and_only_with_rule_13():
    cond = {"type": "conditional", "cases": [{"when": {"if": "hit"}, "then": RATTLE}]}
    s = arena({0: "A5", 1: "M5"}, rule13=True)
    with pytest.raises(BadAction, match="only for segment 3"):
        turn(s, {0: [STAND, cond, STAND]})
    with pytest.raises(BadAction, match="only for segment 3, and only with optional rule 13"):
        turn(arena({0: "A5", 1: "M5"}), {0: [STAND, STAND, cond]})
    with pytest.raises(IllegalAction, match="segment 3: a Rogerson Rattlesnake needs 1"):
        turn(put(s, 0, "A5", ss=0), {0: [STAND, STAND, cond]})


# --------------------------------------------------------------------------- victory


@pytest.mark.parametrize("rolls, winners", [([1, 1], [0, 1]), ([1, 99], [0])])
def test_fifteen_vps_win_and_a_shared_segment_shares_the_victory(dice, rolls, winners):
    s = put(put(arena({0: "A5", 1: "M5"}), 0, "A5", vp=14), 1, "M5", vp=14)
    dice(rolls)
    s2, events = turn(s, {0: [RATTLE, RATTLE, STAND], 1: [RATTLE | {"target": 0}, STAND, STAND]})
    result = R.outcome(s2)
    assert result["code"] == "victory" and result["winners"] == winners
    assert len(s2["report"]["segments"]) == 1  # the game stops in the segment it is won
    assert result["scores"][0] == 15 and result["damage_dealt"][0] == 1
    assert result["damage_taken"][1] == 1
    with pytest.raises(IllegalAction, match="over"):
        R.apply(s2, 0, {"type": "ready"})


# --------------------------------------------------------------------------- setup


def test_start_preferences_are_honoured_and_clashes_go_to_the_tealeaves(dice):
    s = R.new_game(players=3, options={}, seed=5)
    dice([1])
    s, _ = R.apply(s, 0, {"type": "setup", "name": "Jack Frost", "starts": ["A7", "C1"], "ready": True})
    s, _ = R.apply(s, 1, {"type": "setup", "name": "jack  frost", "starts": ["A7", "W9"], "ready": True})
    s, events = R.apply(s, 2, {"type": "deadline"})
    assert hexes(s) == ["C1", "A7", "W9"]
    assert [c["name"] for c in s["combatants"]] == ["Jack Frost", "jack frost II", "Snow Warrior"]
    assert next(e for e in events if e["type"] == "start_clash")["winner"] == 1


def test_setup_refuses_what_is_not_a_start_hex_or_a_name():
    s = R.new_game(players=2, options={}, seed=5)
    with pytest.raises(IllegalAction, match="start choice 2, 'K7', is not a start hex"):
        R.apply(s, 0, {"type": "setup", "name": "A", "starts": ["A7", "K7"]})
    with pytest.raises(IllegalAction, match="only once"):
        R.apply(s, 0, {"type": "setup", "name": "A", "starts": ["A7", "a7"]})
    with pytest.raises(IllegalAction, match="at most 24"):
        R.apply(s, 0, {"type": "setup", "name": "x" * 25, "starts": []})
    with pytest.raises(IllegalAction, match=r"may not contain a brace \(\{\)"):
        R.apply(s, 0, {"type": "setup", "name": "{p1}", "starts": []})
    with pytest.raises(BadAction, match="nom de guerre"):
        R.apply(s, 0, {"type": "setup", "starts": []})
    with pytest.raises(IllegalAction, match="before marking yourself ready"):
        R.apply(s, 0, {"type": "ready"})
    with pytest.raises(IllegalAction, match="orders come after the setup"):
        R.apply(s, 0, {"type": "orders", "segments": [None, None, None]})


@pytest.mark.parametrize("length", [1, 23, 24, 25, 40])
def test_a_nom_de_guerre_of_up_to_24_characters_is_kept_and_a_longer_one_refused(length):
    """Rule 2's boundary: 24 characters is still a name; 25 is one too many."""
    name = ("Frosty" * 7)[:length]
    s = R.new_game(players=2, options={}, seed=5)
    if length > 24:
        with pytest.raises(IllegalAction, match="at most 24"):
            R.apply(s, 0, {"type": "setup", "name": name, "starts": []})
        return
    s, _ = R.apply(s, 0, {"type": "setup", "name": name, "starts": [], "ready": True})
    assert R.view(s, 0)["you"]["setup"]["name"] == name


@pytest.mark.parametrize("players", [1, 7, "2", True])
def test_two_to_six_players(players):
    with pytest.raises(BadAction, match="2 to 6 players"):
        R.new_game(players=players, options={}, seed=1)


def test_creation_options_are_checked():
    with pytest.raises(BadAction, match="rule12 must be true or false"):
        R.new_game(players=2, options={"rule12": "yes"}, seed=1)
    assert R.new_game(players=6, options={"rule13": True}, seed=1)["options"] == {
        "rule12": False, "rule13": True, "rule14": False, "map": "garden"}


# --------------------------------------------------------------------------- refusals


def test_refusals_name_the_problem_and_change_nothing():
    s = arena({0: "A5", 1: "W1"})
    before = copy.deepcopy(s)
    for action, error, words in [
        ({"type": "fly"}, BadAction, "unknown action 'fly'"),
        ({"type": "orders", "segments": [STAND]}, BadAction, "list of 3 orders"),
        ({"type": "orders", "segments": [{"type": "jump"}, None, None]}, BadAction, "segment 1: unknown order 'jump'"),
        ({"type": "orders", "segments": [RATTLE | {"target": 9}, None, None]}, BadAction, "seat number 0..1"),
        ({"type": "ready"}, IllegalAction, "write your orders"),
        ({"type": "setup", "name": "X", "starts": []}, IllegalAction, "the setup is over"),
    ]:
        with pytest.raises(error, match=words):
            R.apply(s, 0, action)
        assert s == before
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, STAND], "ready": True})
    with pytest.raises(NotYourTurn, match="already marked yourself ready"):
        R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, STAND]})


def test_orders_can_be_revised_until_ready():
    s = arena({0: "A5", 1: "W1"})
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": ["C5"]}, None, None]})
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": ["B6"]}, None, None]})
    s, _ = R.apply(s, 0, {"type": "ready"})
    s, _ = turn(s, {})
    assert hexes(s)[0] == "B6"


def test_revising_orders_logs_one_line_a_turn_and_the_report_still_has_every_segment():
    s = arena({0: "A5", 1: "W1"})
    logged = []
    for route in (["C5"], ["B6"], ["C5"], ["B6"]):
        s, events = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": route}, STAND, STAND]})
        logged += events
    assert [e["type"] for e in logged] == ["orders_saved"]
    assert logged[0]["visible_to"] == [0] and "turn 1" in logged[0]["text"]
    s, events = R.apply(s, 0, {"type": "ready"})
    assert [e["type"] for e in events] == ["ready"]
    s, events = R.apply(s, 1, {"type": "orders", "segments": [STAND, STAND, STAND], "ready": True})
    assert [e["type"] for e in events][:1] == ["ready"] and "orders_saved" not in [e["type"] for e in events]
    report = s["report"]
    assert report["turn"] == 1 and len(report["segments"]) == 3
    assert any(e["type"] == "move" and e.get("seat") == 0 for e in events)
    assert hexes(s)[0] == "B6"
    s, events = R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, STAND]})
    assert [(e["type"], e["turn"]) for e in events] == [("orders_saved", 2)]


def test_every_prompt_has_the_servers_default_and_a_description():
    """The default, ``deadline``, is the server's to play when time runs out: the engine takes it,
    and it is not offered to the seat."""
    s = started(3)
    prompts = R.to_act(s)
    assert set(prompts) == {0, 1, 2}
    for seat, prompt in prompts.items():
        assert prompt.kind == "sealed" and prompt.default == {"type": "deadline"}
        legal = R.legal_actions(s, seat)
        assert prompt.default not in legal and prompt.default["type"] in R.server_actions
        R.apply(s, seat, prompt.default)
        description = legal[0]
        assert description["type"] == "orders" and description["start"] == s["combatants"][seat]["hex"]
        s_try, _ = R.apply(s, seat, description["example"])


@pytest.mark.parametrize("condition, holds", [
    ({"if": "hit"}, False), ({"if": "not_hit"}, True), ({"if": "hit_someone"}, False),
    ({"if": "hp_at_most", "value": 10}, True), ({"if": "hp_at_most", "value": 9}, False),
    ({"if": "snowballs_at_least", "value": 2}, True), ({"if": "snowballs_at_least", "value": 3}, False),
    ({"if": "opponent_within", "value": 6}, True), ({"if": "opponent_within", "value": 5}, False),
    ({"if": "seat_within", "seat": 1, "value": 6}, True), ({"if": "seat_within", "seat": 1, "value": 5}, False),
    ({"if": "seat_away", "seat": 1}, False), ({"if": "at", "hex": "A5"}, True), ({"if": "at", "hex": "C5"}, False),
])
def test_rule_13_conditions_at_their_boundaries(condition, holds):
    s = arena({0: "A5", 1: "M5"}, rule13=True)
    collect = {"type": "collect", "what": "ss", "count": 1}
    cond = {"type": "conditional", "cases": [{"when": condition, "then": collect}], "otherwise": STAND}
    s2, _ = turn(s, {0: [STAND, STAND, cond]})
    assert s2["combatants"][0]["ss"] == (3 if holds else 2)


def test_a_condition_about_a_seat_must_name_another_seat():
    s = arena({0: "A5", 1: "M5"}, rule13=True)
    cond = {"type": "conditional", "cases": [{"when": {"if": "seat_away", "seat": 0}, "then": STAND}]}
    with pytest.raises(IllegalAction, match="another seat"):
        turn(s, {0: [STAND, STAND, cond]})
    with pytest.raises(BadAction, match="a condition is"):
        turn(s, {0: [STAND, STAND, {"type": "conditional", "cases": [{"when": {"if": "raining"}, "then": STAND}]}]})


def test_a_turn_a_seat_is_not_asked_in_ends_its_run_of_nmrs():
    """Book 11: "NMRing for the second consecutive turn". A seat drying all turn is not asked;
    an NMR before that turn and one after it are not consecutive."""
    s = arena({0: "A5", 1: "W1"})
    s, _ = turn(s, {}, nmr=(1,))
    s = put(s, 1, KITCHEN, status="drying", dry_until=s["clock"] + 3)
    assert 1 not in R.to_act(s)
    s, _ = turn(s, {})
    assert 1 in R.to_act(s)
    s, _ = turn(s, {}, nmr=(1,))
    assert s["combatants"][1]["status"] == "fighting" and s["combatants"][1]["nmr_streak"] == 1


def test_a_slip_to_zero_hp_at_the_kitchen_door_dries_in_the_kitchen_and_comes_back(dice):
    """Rule 14 and book 9: a full-tilt move into the kitchen that slips to 0 HP has no run left
    to make: the three segments of drying start at once, then the combatant is back at W11."""
    s = put(arena({0: "V8", 1: "A1"}, rule14=True), 0, "V8", hp=2)
    dice([5])
    s, events = turn(s, {0: [STAND, {"type": "move", "route": ["W9", "V10", "W11", KITCHEN]}, STAND]})
    c = s["combatants"][0]
    assert c["hex"] == KITCHEN and c["hp"] == 0 and c["status"] == "drying"
    assert any(e["type"] == "knocked_out" for e in events)
    for _ in range(2):
        s, _ = turn(s, {})
    c = s["combatants"][0]
    assert c["status"] == "fighting" and c["hp"] == 10 and c["hex"] == "W11" and 0 in R.to_act(s)
