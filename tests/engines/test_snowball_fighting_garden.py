"""The hex garden against the rule book's named hexes and the shared reconstruction."""
from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.snowball_fighting import garden as G
from games.engines.snowball_fighting.garden import FOGBOUND, GARDEN, KITCHEN, hex_distance, parse_ref

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
HEXES = st.sampled_from(GARDEN.hexes)


def _shared(name: str) -> Path:
    path = SHARED / name
    if not path.exists():
        if os.environ.get("SNOWBALL_REQUIRE_SHARED", "") not in ("", "0"):
            pytest.fail(f"{path} is missing and SNOWBALL_REQUIRE_SHARED is set")
        pytest.skip(f"{path} is not present; set SNOWBALL_REQUIRE_SHARED=1 to make this a failure")
    return path


def test_the_packaged_garden_is_the_shared_reconstruction():
    assert json.loads(_shared("snowball_fighting_garden.json").read_text()) == G.GARDEN_DATA


def test_the_drawing_marks_every_feature_where_the_data_puts_it():
    marks = {"=": set(), "*": set(), ".": set(), "#": set(), "&": set(), "@": set(), "x": set(), "N": set(), "S": set()}
    for line in _shared("snowball_fighting_garden.txt").read_text().splitlines():
        if len(line) > 4 and line[3] in G.ROW_LETTERS and line[:3].strip() == "":
            letter = line[3]
            for col in range(1, 14):
                pos = 8 + (col - 1) * 4
                if pos < len(line) and line[pos] in marks:
                    marks[line[pos]].add(f"{letter}{col}")
    assert marks["="] == set(GARDEN.path)
    assert marks["*"] == set(GARDEN.conifers)
    assert marks["."] == set(GARDEN.conifer_adjacent)
    assert marks["#"] == {GARDEN.shed}
    assert marks["&"] == set(GARDEN.snowmen)
    assert marks["@"] == set(GARDEN.starts)
    assert marks["N"] == set(GARDEN.avalanche["N"]) and marks["S"] == set(GARDEN.avalanche["S"])
    assert marks["x"] == {"L6"}


def test_the_books_named_hexes():
    assert GARDEN.starts == ("A7", "C1", "I13", "S1", "W5", "W9")
    assert GARDEN.snowmen == ("B12", "Q3")  # "the system is orthogonal; thus snowmen are on B12 and Q3"
    for ref in GARDEN.starts + GARDEN.snowmen + GARDEN.conifers + (GARDEN.shed, "L6", "W11"):
        assert GARDEN.is_hex(ref)
    assert GARDEN.kitchen_door == "W11"  # "The Kitchen Door is one hex down from W11"
    assert GARDEN.neighbours(KITCHEN) == ("W11",)
    assert KITCHEN in GARDEN.neighbours("W11")
    assert all(KITCHEN not in GARDEN.neighbours(h) for h in GARDEN.hexes if h != "W11")


def test_a_hex_exists_where_letter_plus_column_is_odd_and_the_garden_is_23_by_13():
    assert len(GARDEN.hexes) == 12 * 7 + 11 * 6
    assert GARDEN.is_hex("A1") and GARDEN.is_hex("B2") and GARDEN.is_hex("W13")
    for bad in ("A2", "B1", "X1", "A14", "A0", "K", "7K", ""):
        with pytest.raises(ValueError):
            parse_ref(bad)


def test_the_shed_has_six_sides_and_l6_is_the_one_safe_from_avalanches():
    around = set(GARDEN.neighbours(GARDEN.shed))
    assert around == {"I7", "J6", "J8", "L6", "L8", "M7"}
    assert set(GARDEN.avalanche["N"]) | set(GARDEN.avalanche["S"]) == around - {"L6"}
    assert all(parse_ref(h)[0] < parse_ref("K7")[0] for h in GARDEN.avalanche["N"])
    assert all(parse_ref(h)[0] > parse_ref("K7")[0] for h in GARDEN.avalanche["S"])
    assert GARDEN.avalanche_side_of("L6") is None


def test_the_conifer_neighbourhoods_are_the_hexes_around_each_conifer():
    around = set()
    for conifer in GARDEN.conifers:
        around |= set(GARDEN.conifer_surroundings(conifer))
    assert around == set(GARDEN.conifer_adjacent)
    assert set(GARDEN.conifer_surroundings("R8")) == {"P8", "T8", "Q7", "S7", "Q9", "S9"}


def test_the_path_is_one_line_of_hexes_from_a11_to_the_kitchen_door():
    path = sorted(GARDEN.path, key=lambda h: parse_ref(h)[0])
    assert path[0] == "A11" and path[-1] == "W11" and len(path) == 12
    assert all(GARDEN.adjacent(a, b) for a, b in zip(path, path[1:]))


@given(HEXES, HEXES)
def test_distance_formula_equals_steps_on_the_grid(a, b):
    seen, queue = {a: 0}, deque([a])
    while queue:
        h = queue.popleft()
        for n in GARDEN.neighbours(h):
            if n != KITCHEN and n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    assert hex_distance(a, b) == seen[b] == hex_distance(b, a)


@given(HEXES, HEXES)
def test_throwing_range_is_never_shorter_than_the_crow_flies(a, b):
    r = GARDEN.throw_range(a, b)
    assert r is not None and r >= hex_distance(a, b)
    if GARDEN.over_shed(a, b):
        assert GARDEN.shed not in (a, b) and r >= 2


def test_a_throw_goes_round_a_conifer_but_may_end_on_one():
    assert hex_distance("C3", "G3") == 2
    assert GARDEN.throw_range("C3", "G3") == 3  # not through E3
    assert GARDEN.throw_range("C3", "E3") == 1
    assert GARDEN.throw_range("E3", "I3") == 2  # from a conifer hex outwards


def test_a_shot_is_over_the_shed_only_when_every_shortest_route_crosses_it():
    assert GARDEN.over_shed("I7", "M7")  # straight across, 2 hexes; around is 3
    assert GARDEN.over_shed("J6", "L8")
    assert not GARDEN.over_shed("J6", "J8")  # I7 is as short as the shed
    assert not GARDEN.over_shed("H6", "N6")
    assert not GARDEN.over_shed("I7", "K7")  # at the shed itself


def test_movement_costs_one_mf_a_hex_and_half_along_the_path():
    # "a player starting their turn next to the path could move onto the path, four hexes up it, then off again"
    assert GARDEN.route_problem("B10", ["C11", "E11", "G11", "I11", "K11", "L10"]) is None
    assert GARDEN.route_cost("B10", ["C11", "E11", "G11", "I11", "K11", "L10"]) == 8
    problem = GARDEN.route_problem("B10", ["C11", "E11", "G11", "I11", "K11", "M11", "N10"])
    assert problem and "4.5 MF" in problem
    assert GARDEN.route_problem("A1", ["C1", "E1", "G1", "I1"]) is None
    assert "4.5" not in (GARDEN.route_problem("A1", ["C1", "E1", "G1", "I1", "K1"]) or "") and \
        "5 MF" in GARDEN.route_problem("A1", ["C1", "E1", "G1", "I1", "K1"])


def test_routes_must_step_between_neighbours_and_never_into_the_shed():
    assert "not next to" in GARDEN.route_problem("A1", ["E1"])
    assert "shed" in GARDEN.route_problem("I7", ["K7"])
    assert "not a hex" in GARDEN.route_problem("A1", ["Z9"])
    assert GARDEN.route_problem("U11", ["W11", KITCHEN]) is None
    assert GARDEN.route_cost("U11", ["W11", KITCHEN]) == 1 + 2  # path to path, then the door at 1 MF


def test_cheapest_route_uses_the_path_and_reaches_the_kitchen():
    route = GARDEN.cheapest_route("A11", KITCHEN)
    assert route[-2:] == ["W11", KITCHEN] and route[0] == "C11"
    assert GARDEN.route_cost("A11", route) == 11 * 1 + 2


@pytest.mark.parametrize("garden", [GARDEN, FOGBOUND], ids=["garden", "fogbound"])
def test_a_move_that_enters_the_kitchen_ends_there(garden):
    """No route passes through the house: every route the engine offers or plans from any hex ends
    at the kitchen if it enters it, and a route written through it is refused, naming the step."""
    for start in [*garden.hexes, KITCHEN]:
        for _, route in garden.cheapest_routes(start).values():
            assert KITCHEN not in route[:-1], (start, route)
    door = garden.kitchen_doors[0]
    outside = next(h for h in garden.neighbours(door) if h != KITCHEN)
    assert garden.route_problem(outside, [door, KITCHEN]) is None
    assert garden.route_problem(KITCHEN, [door, outside]) is None
    problem = garden.route_problem(outside, [door, KITCHEN, garden.kitchen_doors[-1]])
    assert problem is not None and "step 3" in problem and "kitchen" in problem
