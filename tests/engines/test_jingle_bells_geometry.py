"""Geometry for Jingle Bells: distances, contact, overlap and line of sight, at the tolerance's edges."""
from __future__ import annotations

import math

import pytest

from games.engines.jingle_bells.geometry import (
    TOLERANCE,
    circle_inside_rect,
    circle_overlaps_polygon,
    circles_overlap,
    circles_touch,
    closest_approach,
    distance,
    is_convex,
    obstacle,
    placement_problem,
    rectangle,
    regular_polygon,
    segment_blocked_by_circle,
    segment_blocked_by_polygon,
    sight_clear,
    sight_line,
    signed_distance_to_polygon,
    within,
)

BOX = rectangle(10.0, 10.0, 14.0, 12.0)
HALF = TOLERANCE / 2


def test_tolerance_is_small_and_positive() -> None:
    assert 0 < TOLERANCE <= 0.05


def test_distance_and_within() -> None:
    assert distance([0, 0], [3, 4]) == 5.0
    assert within(17.8, 17.8)
    assert within(17.8 + HALF, 17.8)
    assert not within(17.8 + 2 * TOLERANCE, 17.8)


def test_closest_approach_clamps_to_the_segment() -> None:
    assert closest_approach([5, 3], [0, 0], [10, 0]) == (3.0, 0.5)
    assert closest_approach([-4, 3], [0, 0], [10, 0]) == (5.0, 0.0)
    assert closest_approach([1, 1], [2, 2], [2, 2]) == (math.sqrt(2), 0.0)


@pytest.mark.parametrize(
    ("gap", "touch", "overlap"),
    [
        (2.5, True, False),
        (2.5 - HALF, True, False),
        (2.5 + HALF, True, False),
        (2.5 - 2 * TOLERANCE, False, True),
        (2.5 + 2 * TOLERANCE, False, False),
        (0.0, False, True),
    ],
)
def test_circle_contact_and_overlap(gap: float, touch: bool, overlap: bool) -> None:
    assert circles_touch([0, 0], 1.25, [gap, 0], 1.25) is touch
    assert circles_overlap([0, 0], 1.25, [gap, 0], 1.25) is overlap


def test_signed_distance_to_polygon_outside_edge_corner_and_inside() -> None:
    assert signed_distance_to_polygon([12, 15], BOX) == pytest.approx(3.0)
    assert signed_distance_to_polygon([17, 16], BOX) == pytest.approx(5.0)
    assert signed_distance_to_polygon([12, 11], BOX) == pytest.approx(-1.0)
    assert signed_distance_to_polygon([10, 11], BOX) == pytest.approx(0.0)


def test_winding_does_not_matter() -> None:
    clockwise = list(reversed(BOX))
    for point in ([12, 15], [12, 11], [9, 9]):
        assert signed_distance_to_polygon(point, clockwise) == pytest.approx(signed_distance_to_polygon(point, BOX))


@pytest.mark.parametrize(
    ("center", "overlaps"),
    [
        ([12.0, 12.0 + 1.25], False),
        ([12.0, 12.0 + 1.25 - HALF], False),
        ([12.0, 12.0 + 1.25 - 2 * TOLERANCE], True),
        ([12.0, 11.0], True),
        ([14.0 + 1.25 / math.sqrt(2), 12.0 + 1.25 / math.sqrt(2)], False),
        ([14.0 + 0.8, 12.0 + 0.8], True),
    ],
)
def test_base_against_obstruction(center: list[float], overlaps: bool) -> None:
    assert circle_overlaps_polygon(center, 1.25, BOX) is overlaps
    assert circle_overlaps_polygon(center, 1.25, obstacle(BOX)) is overlaps


def test_inside_the_play_area() -> None:
    assert circle_inside_rect([1.25, 1.25], 1.25, 50, 30)
    assert circle_inside_rect([1.25 - HALF, 28.75 + HALF], 1.25, 50, 30)
    assert not circle_inside_rect([1.2, 15], 1.25, 50, 30)
    assert not circle_inside_rect([49.0, 15], 1.25, 50, 30)


def test_sight_line_through_the_middle_of_an_obstruction_is_blocked() -> None:
    assert segment_blocked_by_polygon([0, 11], [20, 11], BOX) == pytest.approx(0.5, abs=TOLERANCE)


@pytest.mark.parametrize("y", [12.0, 10.0, 12.0 + HALF, 12.0 - HALF])
def test_sight_line_grazing_an_edge_is_clear(y: float) -> None:
    assert segment_blocked_by_polygon([0, y], [20, y], BOX) is None
    assert segment_blocked_by_polygon([0, y], [20, y], obstacle(BOX)) is None


def test_sight_line_a_little_inside_an_edge_is_blocked() -> None:
    assert segment_blocked_by_polygon([0, 12 - 2 * TOLERANCE], [20, 12 - 2 * TOLERANCE], BOX) is not None


@pytest.mark.parametrize(("cut", "blocked"), [(0.0, False), (TOLERANCE, False), (3 * TOLERANCE, True), (1.0, True)])
def test_sight_line_across_a_corner(cut: float, blocked: bool) -> None:
    """The line x + y = 28 - cut across the corner (14, 14): clear while it stays within the tolerance."""
    square = rectangle(10, 10, 14, 14)
    assert (segment_blocked_by_polygon([12, 16 - cut], [16, 12 - cut], square) is not None) is blocked


def test_sight_line_that_stops_short_or_passes_by_is_clear() -> None:
    assert segment_blocked_by_polygon([0, 11], [10, 11], BOX) is None
    assert segment_blocked_by_polygon([0, 20], [20, 20], BOX) is None
    assert segment_blocked_by_polygon([20, 11], [30, 11], BOX) is None


def test_sight_line_from_inside_an_obstruction_is_blocked() -> None:
    assert segment_blocked_by_polygon([12, 11], [30, 11], BOX) == 0.0
    assert segment_blocked_by_polygon([11, 11], [13, 11], BOX) == 0.0


def test_sight_line_and_a_base() -> None:
    assert segment_blocked_by_circle([0, 0], [10, 0], [5, 1.25], 1.25) is None
    assert segment_blocked_by_circle([0, 0], [10, 0], [5, 1.25 - HALF], 1.25) is None
    assert segment_blocked_by_circle([0, 0], [10, 0], [5, 1.25 - 2 * TOLERANCE], 1.25) == pytest.approx(0.5)
    assert segment_blocked_by_circle([0, 0], [10, 0], [11.0, 0], 1.25) is not None
    assert segment_blocked_by_circle([0, 0], [10, 0], [12.5, 0], 1.25) is None


def test_jars_are_convex_and_boxes_too() -> None:
    assert is_convex(regular_polygon(5, 5, 2))
    assert is_convex(BOX)
    assert not is_convex([[0, 0], [4, 0], [1, 1], [0, 4]])
    assert not is_convex([[0, 0], [1, 1]])


def test_diagonal_line_past_a_jar() -> None:
    jar = regular_polygon(10, 10, 2)
    assert segment_blocked_by_polygon([0, 0], [20, 20], jar) is not None
    assert segment_blocked_by_polygon([0, 4], [20, 4], jar) is None


PIECES = {
    "A": {"pos": [0.0, 0.0], "radius": 1.25},
    "B": {"pos": [20.0, 0.0], "radius": 1.25},
    "C": {"pos": [15.0, 0.5], "radius": 1.25},
    "gone": {"pos": None, "radius": 1.25},
}


def test_sight_line_names_the_nearest_blocker() -> None:
    obstructions = [obstacle(rectangle(4, -1, 6, 1), id="o1"), obstacle(rectangle(16.5, -5, 17, 5), id="o2")]
    sight = sight_line(PIECES, obstructions, "A", "B")
    assert sight == {"clear": False, "blocker": "o1", "distance": 20.0}
    assert sight_line(PIECES, obstructions[1:], "A", "B")["blocker"] == "C"
    assert not sight_clear(PIECES, obstructions, "A", "B")


def test_sight_line_ignores_its_ends_and_pieces_off_the_table() -> None:
    pieces = {k: v for k, v in PIECES.items() if k != "C"}
    assert sight_line(pieces, [], "A", "B") == {"clear": True, "blocker": None, "distance": 20.0}
    assert sight_clear(pieces, [], "A", "B")


def test_placement_problem_names_what_is_in_the_way() -> None:
    obstructions = [obstacle(BOX, id="o1")]
    pieces = {"A": {"pos": [5.0, 5.0], "radius": 1.25}, "gone": {"pos": None, "radius": 1.25}}
    assert placement_problem(pieces, obstructions, 50, 30, [40, 20], 1.25) is None
    assert placement_problem(pieces, obstructions, 50, 30, [0.5, 20], 1.25) == "outside"
    assert placement_problem(pieces, obstructions, 50, 30, [12, 11], 1.25) == "o1"
    assert placement_problem(pieces, obstructions, 50, 30, [7.0, 6.0], 1.25) == "A"
    assert placement_problem(pieces, obstructions, 50, 30, [7.0, 6.0], 1.25, ignore=("A",)) is None
    assert placement_problem(pieces, obstructions, 50, 30, [7.5, 5.0], 1.25) is None
