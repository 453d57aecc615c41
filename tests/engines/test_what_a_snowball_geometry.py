"""What a Snowball! geometry: line of sight, objects near the line of fire, reachable areas and vaulting.

Boundaries are fuzzed with hypothesis around the one tolerance.
"""
from __future__ import annotations

import math
import random

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.depth import examples
from shapely.geometry import Point, Polygon

from games.engines.what_a_snowball import villages
from games.engines.what_a_snowball.geometry import (
    TOLERANCE,
    Terrain,
    Walker,
    line_of_fire,
    placement_problem,
    region_rings,
    sight_clear,
    terrain_for,
    vault_landing,
)

from tests.engines.what_a_snowball_scenes import piece, rect

R = 0.5
SETTINGS = {"deadline": None, "database": None}
coordinate = st.floats(min_value=2.0, max_value=22.0, allow_nan=False)


def _perpendicular(a, b, t, h):
    """The point at fraction t along ab, moved h to its left."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return [a[0] + t * dx - dy / length * h, a[1] + t * dy + dx / length * h]


@settings(max_examples=examples(300), **SETTINGS)
@given(ax=coordinate, ay=coordinate, bx=coordinate, by=coordinate, t=st.floats(0.3, 0.7),
       h=st.floats(0.0, 2.0))
def test_a_kid_blocks_sight_only_when_the_line_passes_through_its_base(ax, ay, bx, by, t, h):
    a, b = [ax, ay], [bx, by]
    assume(math.dist(a, b) > 4.0)
    assume(abs(h - (R - TOLERANCE)) > 1e-6 and abs(h - (R + 1.0 + TOLERANCE)) > 1e-6)
    c = _perpendicular(a, b, t, h)
    fire = line_of_fire(terrain_for([]), [("a", a, R), ("b", b, R), ("c", c, R)], "a", "b")
    assert fire["visible"] is (h >= R - TOLERANCE)
    assert ("c" in fire["objects"]) is (h <= R + 1.0 + TOLERANCE)


@settings(max_examples=examples(200), **SETTINGS)
@given(y=st.floats(10.0, 14.0), gap=st.floats(0.0, 2.0), kind=st.sampled_from(["house", "wall", "road", "lamp"]))
def test_terrain_near_the_line_of_fire_counts_within_an_inch(y, gap, kind):
    assume(abs(gap - (1.0 + TOLERANCE)) > 1e-6 and gap > 1e-6)
    thing = piece("t1", kind, rect(9, y + gap, 11, y + gap + 1.5))
    fire = line_of_fire(terrain_for([thing]), [("a", [2, y], R), ("b", [20, y], R)], "a", "b")
    standing = kind != "road"
    assert ("t1" in fire["objects"]) is (standing and gap <= 1.0 + TOLERANCE)
    assert fire["visible"]


@settings(max_examples=examples(100), **SETTINGS)
@given(depth=st.floats(0.0, 0.5))
def test_a_house_blocks_sight_only_when_the_line_enters_it_by_more_than_the_tolerance(depth):
    assume(abs(depth - TOLERANCE) > 1e-6)
    house = piece("t1", "house", rect(9, 12 - depth, 11, 16))
    fire = line_of_fire(terrain_for([house]), [("a", [2, 12], R), ("b", [20, 12], R)], "a", "b")
    assert fire["visible"] is (depth < TOLERANCE)
    assert "t1" in fire["objects"]


def test_a_low_wall_counts_as_an_object_but_does_not_block():
    wall = piece("t1", "wall", rect(9, 10, 9.4, 14))
    fire = line_of_fire(terrain_for([wall]), [("a", [2, 12], R), ("b", [20, 12], R)], "a", "b")
    assert fire["visible"] and fire["objects"] == ["t1"]
    assert fire["gap"] == pytest.approx(17.0)


@settings(max_examples=examples(200), **SETTINGS)
@given(angle=st.floats(0, 2 * math.pi), roll=st.integers(1, 6), extra=st.floats(-0.5, 0.5))
def test_in_the_open_a_move_reaches_its_roll_in_every_direction(angle, roll, extra):
    assume(abs(extra - TOLERANCE) > 1e-6)
    start = [12.0, 12.0]
    goal = [start[0] + (roll + extra) * math.cos(angle), start[1] + (roll + extra) * math.sin(angle)]
    walker = Walker(terrain_for([]), [("me", start, R)], "me", start, R)
    assert (walker.path_length(goal, roll) is not None) is (extra <= TOLERANCE)


WALLED = [piece("t1", "house", rect(8, 6, 12, 18)), piece("t2", "wall", rect(14, 4, 14.4, 10)),
          piece("t3", "tree", villages.octagon(15, 16, 1.2))]
OTHERS = [("e1", [5.0, 5.0], R), ("e2", [17.0, 12.0], R), ("e3", [12.6, 19.0], R)]


@settings(max_examples=examples(60), **SETTINGS)
@given(sx=st.floats(1, 7), sy=st.floats(1, 23), roll=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_the_reachable_area_agrees_with_the_move_check(sx, sy, roll, seed):
    terrain = terrain_for(WALLED)
    start = [sx, sy]
    assume(placement_problem(terrain, OTHERS, start, R) is None)
    walker = Walker(terrain, OTHERS + [("me", start, R)], "me", start, R)
    region = shapely.union_all(walker.region(roll))
    rng = random.Random(seed)
    boundary = region.boundary
    for _ in range(40):
        p = [rng.uniform(0, 24), rng.uniform(0, 24)]
        if boundary.distance(Point(p)) < 0.03:
            continue
        length = walker.path_length(p, roll)
        assert region.contains(Point(p)) is (length is not None), (p, length)
        if length is not None:
            assert length >= math.dist(start, p) - 1e-9
            assert placement_problem(terrain, OTHERS, p, R) is None


@settings(max_examples=examples(15), **SETTINGS)
@given(seed=st.integers(0, 10**6))
def test_an_area_is_the_same_whether_the_village_remembers_its_ways_or_not(seed):
    """The village remembers which ways between its path nodes are clear; moves worked out after
    many others draw the same areas and measure the same paths as on a village seen first."""
    rng = random.Random(seed)
    pieces = villages.random_village(rng)
    remembering = Terrain(pieces)
    bases: list = []
    while len(bases) < 12:
        spot = [rng.uniform(0.5, 23.5), rng.uniform(0.5, 23.5)]
        if placement_problem(remembering, bases, spot, R) is None:
            bases.append((f"k{len(bases)}", spot, R))
    for mover, start, _radius in bases:
        roll = rng.randint(3, 12)
        goals = [[rng.uniform(0, 24), rng.uniform(0, 24)] for _ in range(10)]
        fresh = Walker(Terrain(pieces), bases, mover, start, R)
        seasoned = Walker(remembering, bases, mover, start, R)
        assert region_rings(seasoned.region(roll)) == region_rings(fresh.region(roll))
        assert [seasoned.path_length(g, roll) for g in goals] == [fresh.path_length(g, roll) for g in goals]


@settings(max_examples=examples(60), **SETTINGS)
@given(seed=st.integers(0, 10**6))
def test_the_lines_tested_together_see_what_each_line_of_fire_sees(seed):
    rng = random.Random(seed)
    terrain = terrain_for(WALLED)
    bases = []
    while len(bases) < 9:
        spot = [rng.uniform(0.5, 23.5), rng.uniform(0.5, 23.5)]
        if placement_problem(terrain, bases, spot, R) is None:
            bases.append((f"k{len(bases)}", spot, R))
    targets = [b[0] for b in bases[1:]]
    assert sight_clear(terrain, bases, "k0", targets) == [
        line_of_fire(terrain, bases, "k0", t)["visible"] for t in targets]


def test_a_slide_along_a_road_across_the_village_never_reaches_the_far_side():
    road = piece("t1", "road", rect(0, 11.4, 24, 12.6))
    terrain = terrain_for([road])
    start = [18.0, 13.0]
    walker = Walker(terrain, [("me", start, R)], "me", start, R, extra=("t1",), extra_radius=0.0)
    region = shapely.union_all(walker.region(6))
    assert not region.intersects(shapely.box(0, 0, 24, 11.4))
    assert region.contains(Point(18.0, 17.0)) and region.contains(Point(13.0, 14.0))


def test_a_path_around_a_house_is_longer_than_the_straight_line():
    terrain = terrain_for(WALLED)
    start, goal = [7.0, 12.0], [13.0, 12.0]
    walker = Walker(terrain, [("me", start, R)], "me", start, R)
    assert walker.path_length(goal, 6.0) is None
    around = walker.path_length(goal, 20.0)
    # the true shortest way: two tangents of 6.062 to the corners' half-inch arcs, two arcs of
    # 0.744 and 4 inches along the top, 17.612; the path nodes sit just outside the arcs
    assert 17.612 < around < 17.612 * 1.005


def test_a_path_round_another_kid_wraps_its_base():
    start, goal = [10.0, 12.0], [14.0, 12.0]
    walker = Walker(terrain_for([]), [("me", start, R), ("k", [12.0, 12.0], R)], "me", start, R)
    # the true shortest way: two tangents of 1.732 to the circle of 1" round the other Kid's centre
    # (both bases' radii) and an arc of a sixth of it, 4.511; not 4 through the other base
    assert walker.path_length(goal, 4.45) is None
    assert not shapely.union_all(walker.region(4.45)).contains(Point(goal))
    assert 4.49 < walker.path_length(goal, 6.0) < 4.511 * 1.02


def test_a_gap_narrower_than_a_base_cannot_be_squeezed_through():
    narrow = [piece("t1", "hedge", rect(10, 0, 11, 11.55)), piece("t2", "hedge", rect(10, 12.45, 11, 24))]
    wide = [piece("t1", "hedge", rect(10, 0, 11, 11.49)), piece("t2", "hedge", rect(10, 12.51, 11, 24))]
    for pieces, passes in ((narrow, False), (wide, True)):
        walker = Walker(terrain_for(pieces), [("me", [8, 12], R)], "me", [8, 12], R)
        assert (walker.path_length([13, 12], 6) is not None) is passes


@settings(max_examples=examples(100), **SETTINGS)
@given(thickness=st.floats(0.1, 1.0), y=st.floats(8, 16), side=st.sampled_from([-1, 1]))
def test_vaulting_lands_in_contact_with_the_far_side(thickness, y, side):
    wall = piece("t1", "wall", rect(12 - thickness / 2, 4, 12 + thickness / 2, 20))
    terrain = terrain_for([wall])
    start = [12 + side * (thickness / 2 + R), y]
    landing = vault_landing(terrain, "t1", start, R)
    assert landing[0] == pytest.approx(12 - side * (thickness / 2 + R), abs=TOLERANCE)
    assert landing[1] == pytest.approx(y, abs=1e-4)
    assert placement_problem(terrain, [], landing, R) is None
    assert vault_landing(terrain, "t1", [start[0] + side * 2 * TOLERANCE, y], R) is None


def test_nobody_goes_indoors_or_off_the_village():
    terrain = terrain_for([piece("t1", "house", rect(8, 8, 12, 12))])
    assert placement_problem(terrain, [], [10, 10], R) == "t1"
    assert placement_problem(terrain, [], [7.5, 10], R) is None
    assert placement_problem(terrain, [], [7.52, 10], R) == "t1"
    assert placement_problem(terrain, [], [0.5, 10], R) is None
    assert placement_problem(terrain, [], [0.48, 10], R) == "outside"


# --- villages -----------------------------------------------------------------------------------

VILLAGES = [villages.village(name, random.Random(0)) for name in villages.PRESETS] + \
    [villages.village(villages.RANDOM, random.Random(seed)) for seed in range(60)]

# The engine README's table ("Village and geometry"): blocks movement, blocks sight, vaultable,
# snowless, indoors.
KINDS = {
    "house": (1, 1, 0, 0, 1), "shop": (1, 1, 0, 0, 1), "church": (1, 1, 0, 0, 1),
    "tree": (1, 1, 0, 0, 0), "hedge": (1, 1, 0, 0, 0), "stall": (1, 1, 0, 0, 0), "car": (1, 1, 0, 0, 0),
    "lamp": (1, 0, 0, 0, 0),
    "wall": (1, 0, 1, 0, 0), "fence": (1, 0, 1, 0, 0), "bench": (1, 0, 1, 0, 0), "fountain": (1, 0, 1, 0, 0),
    "road": (0, 0, 0, 1, 0), "path": (0, 0, 0, 1, 0),
}
PROPERTIES = ("blocks_movement", "blocks_sight", "vaultable", "snowless", "indoors")
CORNERS = [(0, 0), (24, 0), (24, 24), (0, 24)]  # ruling 1: 24 x 24 inches
CORNER_CLEAR = 7  # README: "keeps 7 inches round each corner free of anything that blocks movement"
GAP = 1.5  # README: "and 1.5 inches between such pieces (so a base passes between them)"


@pytest.mark.parametrize("pieces", VILLAGES)
def test_villages_are_sound(pieces):
    blockers = [p for p in pieces if p["blocks_movement"]]
    for p in pieces:
        shape = Polygon(p["points"])
        assert shape.is_valid and shape.area > 0 and shape.convex_hull.area == pytest.approx(shape.area)
        assert all(-1e-9 <= x <= 24 and -1e-9 <= y <= 24 for x, y in p["points"])
        assert [p[k] for k in PROPERTIES] == [bool(f) for f in KINDS[p["kind"]]], p
    for p in blockers:
        assert all(Polygon(p["points"]).distance(Point(c)) >= CORNER_CLEAR - 1e-9 for c in CORNERS), p
    for a in blockers:
        for b in blockers:
            if a is not b:
                assert Polygon(a["points"]).distance(Polygon(b["points"])) >= GAP - 1e-9
    assert len({p["id"] for p in pieces}) == len(pieces)
    assert any(p["snowless"] for p in pieces)


def test_two_presets_and_a_random_village_are_offered():
    assert len(villages.PRESETS) >= 2
    assert villages.RANDOM in dict(villages.CHOICES)
    one, two = (villages.village(villages.RANDOM, random.Random(s)) for s in (1, 2))
    assert one != two and villages.village(villages.RANDOM, random.Random(1)) == one


def test_region_is_a_union_of_polygons_with_holes():
    walker = Walker(terrain_for(WALLED), OTHERS + [("me", [16.0, 8.0], R)], "me", [16.0, 8.0], R)
    region = shapely.union_all(walker.region(6))
    assert not region.is_empty and shapely.is_valid(region)
