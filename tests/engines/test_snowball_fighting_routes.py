"""The cheapest route to a clicked destination: the book's movement costs at their limits.

Rule book 1 and 3: four MF a segment, one a hex, movement doubled along the path, collecting a
simple snowball 2 MF; the shed cannot be entered (ruling 3); the kitchen only by its door below
W11 (R1). The route the page draws is ``orders.move_routes``; ``orders.shortest_route`` is one entry.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import orders as O
from games.engines.snowball_fighting.garden import GARDEN, KITCHEN, MF_PER_SEGMENT
from tests.engines.test_snowball_fighting_helpers import STAND, put, started

STATE = started(2)
PLACES = st.sampled_from([h for h in GARDEN.hexes if h != GARDEN.shed] + [KITCHEN])


def route(a: str, b: str, budget: int = MF_PER_SEGMENT) -> list[str] | None:
    return O.shortest_route(STATE, 0, a, b, budget=budget)


def mf(a: str, steps: list[str]) -> float:
    return GARDEN.route_cost(a, steps) / 2


def test_four_hexes_of_snow_are_a_segment_and_a_fifth_is_too_far():
    assert route("O5", "G5") == ["M5", "K5", "I5", "G5"]
    assert route("O5", "E5") is None


def test_along_the_path_eight_steps_cost_the_four_mf_and_a_ninth_is_too_far():
    assert route("A11", "Q11") == ["C11", "E11", "G11", "I11", "K11", "M11", "O11", "Q11"]
    assert mf("A11", route("A11", "Q11")) == 4
    assert route("A11", "S11") is None


def test_onto_the_path_four_hexes_up_it_and_off_again_as_the_book_says():
    steps = route("B10", "L10")
    assert steps == ["C11", "E11", "G11", "I11", "K11", "L10"]
    assert mf("B10", steps) == 4  # straight down column 10 it is 5 MF
    assert route("B10", "N10") is None  # 4.5 MF


def test_the_shed_is_walked_round_never_entered():
    steps = route("I7", "M7")
    assert GARDEN.shed not in steps and len(steps) == 3
    assert route("I7", GARDEN.shed) is None
    assert route("I7", "M7", budget=4) is None  # collect and move: 2 MF left to walk


def test_the_kitchen_is_entered_only_by_its_door():
    assert route("U11", KITCHEN) == ["W11", KITCHEN]
    assert mf("U11", ["W11", KITCHEN]) == 1.5
    assert route("W9", KITCHEN)[-2:] == ["W11", KITCHEN]
    assert route(KITCHEN, "U11") == ["W11", "U11"]


def test_no_move_ends_where_it_starts_or_off_the_garden():
    assert route("O5", "O5") is None
    assert route("O5", "Z99") is None
    assert route("K8", "O5") is None  # K8 is not a hex


def _cheapest_costs(start: str) -> dict[str, int]:
    """Half-MF to every place, relaxed edge by edge until nothing changes (no priority queue)."""
    cost = {start: 0}
    changed = True
    while changed:
        changed = False
        for here in list(cost):
            for nxt in GARDEN.neighbours(here):
                c = cost[here] + GARDEN.step_cost(here, nxt)
                if nxt != GARDEN.shed and c < cost.get(nxt, 10**6):
                    cost[nxt] = c
                    changed = True
    return cost


@settings(max_examples=examples(300), deadline=None)
@given(PLACES, PLACES, st.sampled_from([4, 8]))
def test_the_route_is_the_cheapest_legal_one_and_is_found_whenever_one_fits(start, goal, budget):
    steps = route(start, goal, budget)
    cheapest = _cheapest_costs(start).get(goal)
    if start == goal or cheapest is None or cheapest > budget:
        assert steps is None
        return
    assert steps is not None
    assert GARDEN.route_problem(start, steps, budget) is None
    assert GARDEN.route_cost(start, steps) == cheapest
    table = O.move_routes(GARDEN, start, budget=budget)
    assert table[goal] == {"route": steps, "mf": cheapest / 2}


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from([h for h in GARDEN.hexes if h != GARDEN.shed]), st.data())
def test_the_engine_takes_every_drawn_route_as_a_move_order(start, data):
    s = put(STATE, 0, start)
    table = O.move_routes(GARDEN, start)
    goal = data.draw(st.sampled_from(sorted(table)))
    order = {"type": "move", "route": table[goal]["route"]}
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [order, STAND, STAND]})
    assert s["orders"][0][0]["route"] == table[goal]["route"]
