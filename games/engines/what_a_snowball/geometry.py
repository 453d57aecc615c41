"""Plane geometry for the 24 x 24 inch village, on shapely.

Kids stand on round bases; terrain pieces are convex polygons with properties (see
``villages.TERRAIN_KINDS``). Every distance between Kids is measured between the nearest
edges of their bases. Every comparison allows the same slack, ``TOLERANCE``, always in the
player's favour:

* a distance counts as "within" a limit when it exceeds it by at most ``TOLERANCE``;
* a base overlaps a shape only when it reaches more than ``TOLERANCE`` into it, so bases
  may touch terrain and each other ("in contact" is a gap of at most ``TOLERANCE``);
* a line of sight is blocked only when it crosses a shape shrunk by ``TOLERANCE``, so a
  line grazing a base or a corner is clear;
* a MOVE path may be ``TOLERANCE`` longer than the roll.

Shortest paths run on a visibility graph: the nodes are the corners of the keep-out shapes
(terrain grown by the mover's radius, other bases grown by both radii) pushed just outside
them, so a path found here never clips a keep-out shape; round a corner or a base it is at
most 2% longer than the true arc (about 0.3% on a typical path round a house).
"""
from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

TOLERANCE = 0.01
"""Inches: the one slack used by every test in this module."""

SIZE = 24.0
RANGE_OBJECT_DISTANCE = 1.0

_ROUND_SEGMENTS = 16
_NODE_QUAD_SEGMENTS = {"polygon": 4, "circle": 4}

Point2 = Sequence[float]


def distance(a: Point2, b: Point2) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def within(length: float, limit: float) -> bool:
    """True when ``length`` is at most ``limit`` (with the tolerance)."""
    return length <= limit + TOLERANCE


def base_gap(a: Point2, ra: float, b: Point2, rb: float) -> float:
    """Distance between the nearest edges of two bases (negative when they overlap)."""
    return distance(a, b) - ra - rb


def in_contact(a: Point2, ra: float, b: Point2, rb: float) -> bool:
    return abs(base_gap(a, ra, b, rb)) <= TOLERANCE


# --- the village's terrain, built once per layout ----------------------------------------------

class Terrain:
    """Shapely shapes for one village's terrain pieces, grouped by property.

    ``pieces`` are dicts with "id", "kind", "points" and the flags "blocks_movement",
    "blocks_sight", "vaultable", "snowless"; build it with :func:`terrain_for`.
    """

    def __init__(self, pieces: Sequence[Mapping[str, Any]]):
        self.pieces = [dict(p) for p in pieces]
        self.shapes = {p["id"]: Polygon(p["points"]) for p in pieces}
        for shape in self.shapes.values():
            shapely.prepare(shape)
        self.movement = [p["id"] for p in pieces if p["blocks_movement"]]
        self.movement_shapes = np.array([self.shapes[i] for i in self.movement], dtype=object)
        self.sight = [p["id"] for p in pieces if p["blocks_sight"]]
        self.objects = [p["id"] for p in pieces if not p["snowless"]]
        self.vaultable = [p["id"] for p in pieces if p["vaultable"]]
        snowless = [self.shapes[p["id"]] for p in pieces if p["snowless"]]
        self.snowless = shapely.union_all(snowless) if snowless else Polygon()
        shapely.prepare(self.snowless)
        self.shrunk = {i: self.shapes[i].buffer(-TOLERANCE, join_style="mitre") for i in self.sight}
        for shape in self.shrunk.values():
            shapely.prepare(shape)
        self.boxes = {i: shape.bounds for i, shape in self.shapes.items()}
        self.movement_boxes = [self.boxes[i] for i in self.movement]
        sight = list(self.shrunk.values())
        self.sight_blocker = shapely.union_all(sight) if sight else Polygon()
        shapely.prepare(self.sight_blocker)
        self._grown: dict[tuple[float, tuple[str, ...]], tuple[BaseGeometry, list[tuple[float, float, int]],
                                                                list[BaseGeometry]]] = {}
        self._combined: dict[tuple, Any] = {}

    def grown(self, radius: float, extra: tuple[str, ...] = ()) -> tuple[BaseGeometry, list[tuple[float, float, int]],
                                                                          list[BaseGeometry]]:
        """Where a base of ``radius`` may not put its centre (movement blockers plus the pieces
        named in ``extra``), shrunk by the tolerance: the union, the path nodes just outside it
        (x, y and the index of the shape they go round), and each piece's (convex) shape."""
        key = (radius, extra)
        if key not in self._grown:
            ids = self.movement + [i for i in extra if i not in self.movement]
            shapes = [self.shapes[i].buffer(radius - TOLERANCE, quad_segs=_ROUND_SEGMENTS) if radius > TOLERANCE
                      else self.shapes[i] for i in ids]
            keepout = shapely.union_all(shapes) if shapes else Polygon()
            shapely.prepare(keepout)
            nodes: list[tuple[float, float, int]] = []
            for owner, i in enumerate(ids):
                nodes += [(x, y, owner) for x, y in _corner_nodes(self.shapes[i], radius)]
            self._grown[key] = (keepout, nodes, shapes)
        return self._grown[key]

    def keepout(self, radius: float, extra: tuple[str, ...], extra_radius: float
                ) -> tuple[BaseGeometry, list[tuple[float, float, int]], list[BaseGeometry]]:
        """:meth:`grown` for a mover of ``radius``, with the pieces in ``extra`` kept out at ``extra_radius``."""
        if not extra:
            return self.grown(radius)
        key = (radius, extra, extra_radius)
        if key not in self._combined:
            ground, nodes, convex = self.grown(radius)
            more, more_nodes, more_convex = self.grown(extra_radius, extra)
            union = shapely.union_all([ground, more])
            shapely.prepare(union)
            shifted = [(x, y, owner + len(convex)) for x, y, owner in more_nodes]
            self._combined[key] = (union, nodes + shifted, convex + more_convex)
        return self._combined[key]

    def free_nodes(self, radius: float, extra: tuple[str, ...], extra_radius: float
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The terrain's path nodes for :meth:`keepout` that lie inside the village and outside the
        keep-out shapes (n x 2), and the index of the shape each goes round."""
        key = ("nodes", radius, extra, extra_radius)
        if key not in self._combined:
            union, nodes, _convex = self.keepout(radius, extra, extra_radius)
            table = np.array(nodes, dtype=float).reshape(-1, 3)
            found, owners = table[:, :2], table[:, 2].astype(int)
            low, high = radius - TOLERANCE, SIZE - radius + TOLERANCE
            inside = (found[:, 0] >= low) & (found[:, 0] <= high) & (found[:, 1] >= low) & (found[:, 1] <= high)
            found, owners = found[inside], owners[inside]
            if len(found):
                clear = ~shapely.intersects_xy(union, found[:, 0], found[:, 1])
                found, owners = found[clear], owners[clear]
            self._combined[key] = (np.ascontiguousarray(found), owners)
        return self._combined[key]

    def known_ways(self, radius: float, extra: tuple[str, ...], extra_radius: float) -> np.ndarray:
        """What is known of the straight way between each two of :meth:`free_nodes` (n x n): 0 not
        yet tested, 1 clear of the terrain's keep-out shapes, 2 not; filled in as searches test them."""
        key = ("ways", radius, extra, extra_radius)
        if key not in self._combined:
            count = len(self.free_nodes(radius, extra, extra_radius)[0])
            self._combined[key] = np.zeros((count, count), dtype=np.int8)
        return self._combined[key]

    def outlines(self, radius: float, extra: tuple[str, ...], extra_radius: float
                 ) -> tuple[list[np.ndarray], np.ndarray]:
        """The corners of each of :meth:`keepout`'s convex shapes, counter-clockwise without the
        closing one, and their bounding boxes (n x 4)."""
        key = ("outlines", radius, extra, extra_radius)
        if key not in self._combined:
            convex = self.keepout(radius, extra, extra_radius)[2]
            rings = [shapely.get_coordinates(shape.exterior)[:-1] for shape in convex]
            self._combined[key] = ([ring if shapely.is_ccw(shape.exterior) else ring[::-1].copy()
                                    for ring, shape in zip(rings, convex)],
                                   np.array([shape.bounds for shape in convex], dtype=float).reshape(-1, 4))
        return self._combined[key]

    def padded_outlines(self, radius: float, extra: tuple[str, ...], extra_radius: float
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`outlines` as one array, padded as :func:`_padded` does, with their counts, boxes
        and a point inside each (the mean of its padded corners)."""
        key = ("padded", radius, extra, extra_radius)
        if key not in self._combined:
            outlines, boxes = self.outlines(radius, extra, extra_radius)
            corners, counts = _padded(outlines)
            centres = corners.mean(axis=1) if len(corners) else np.zeros((0, 2))
            self._combined[key] = (corners, counts, boxes, centres)
        return self._combined[key]

    def on_snowless(self, point: Point2) -> bool:
        """Whether a centre stands on snowless ground (a gritted road)."""
        return bool(shapely.intersects_xy(self.snowless, point[0], point[1]))


def _corner_nodes(shape: BaseGeometry, radius: float) -> list[tuple[float, float]]:
    """Path nodes round a polygon grown by ``radius``: its outline at slightly more than the
    radius, drawn with chords that stay outside the grown shape."""
    segments = _NODE_QUAD_SEGMENTS["polygon"]
    reach = (radius + TOLERANCE) / math.cos(math.pi / (4 * segments))
    ring = shape.buffer(reach, quad_segs=segments).exterior.coords
    return [(x, y) for x, y in list(ring)[:-1]]


@functools.lru_cache(maxsize=2)
def _circle_directions(sides: int) -> np.ndarray:
    """Unit vectors to the corners of a polygon of ``sides`` round a base, half a side off the x axis."""
    return np.array([(math.cos(2 * math.pi * (k + 0.5) / sides), math.sin(2 * math.pi * (k + 0.5) / sides))
                     for k in range(sides)])


def _circle_offsets_reach(radii: np.ndarray) -> np.ndarray:
    """How far from its centre each base's path nodes lie (for keep-out circles of ``radii``)."""
    return (radii + TOLERANCE) / math.cos(math.pi / (4 * _NODE_QUAD_SEGMENTS["circle"]))


def _circle_nodes(centers: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Path nodes round every base's keep-out circle (``centers`` n x 2, ``radii`` n), polygon corners
    pushed just outside the circle."""
    if not len(radii):
        return np.zeros((0, 2))
    sides = 4 * _NODE_QUAD_SEGMENTS["circle"]
    reach = (radii + TOLERANCE) / math.cos(math.pi / sides)
    return (centers[:, None, :] + reach[:, None, None] * _circle_directions(sides)[None]).reshape(-1, 2)


def _terrain_key(pieces: Sequence[Mapping[str, Any]]) -> tuple:
    return tuple((p["id"], p["blocks_movement"], p["blocks_sight"], p["vaultable"], p["snowless"],
                  tuple(tuple(pt) for pt in p["points"])) for p in pieces)


@functools.lru_cache(maxsize=32)
def _terrain_cached(key: tuple) -> Terrain:
    return Terrain([{"id": i, "blocks_movement": m, "blocks_sight": s, "vaultable": v, "snowless": g,
                     "points": [list(pt) for pt in pts], "kind": ""} for i, m, s, v, g, pts in key])


_RECENT: dict[int, tuple[Any, Terrain]] = {}


def terrain_for(pieces: Sequence[Mapping[str, Any]]) -> Terrain:
    """The shapely shapes for a terrain list, built once and reused.

    A game's states share one terrain list (it never changes), so the list itself is
    remembered first; any equal list finds the same shapes through its contents.
    """
    seen = _RECENT.get(id(pieces))
    if seen is not None and seen[0] is pieces:
        return seen[1]
    terrain = _terrain_cached(_terrain_key(pieces))
    if len(_RECENT) >= 64:
        _RECENT.pop(next(iter(_RECENT)))
    _RECENT[id(pieces)] = (pieces, terrain)
    return terrain


# --- bases --------------------------------------------------------------------------------------

Base = tuple[str, Point2, float]
"""(id, centre, radius) of a Kid's base on the board."""


def placement_problem(terrain: Terrain, bases: Iterable[Base], pos: Point2, radius: float,
                      ignore: Iterable[str] = ()) -> str | None:
    """Why a base of ``radius`` cannot stand at ``pos``: "outside", a terrain id or a Kid id; None when it can."""
    x, y = pos[0], pos[1]
    if x - radius < -TOLERANCE or y - radius < -TOLERANCE or x + radius > SIZE + TOLERANCE \
            or y + radius > SIZE + TOLERANCE:
        return "outside"
    skip = set(ignore)
    for kid_id, center, other in bases:
        if kid_id not in skip and distance(pos, center) < radius + other - TOLERANCE:
            return kid_id
    reach = radius - TOLERANCE
    # only a piece whose bounding box is within reach can be (a little slack keeps rounding out of it)
    slack = reach + 1e-9
    near = [i for i, (x0, y0, x1, y1) in enumerate(terrain.movement_boxes)
            if x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack]
    if near:
        overlaps = np.nonzero(shapely.distance(terrain.movement_shapes[near], Point(x, y)) < reach)[0]
        if len(overlaps):
            return terrain.movement[near[int(overlaps[0])]]
    return None


# --- line of fire -------------------------------------------------------------------------------

def _segment_gap(p: Point2, a: Point2, b: Point2) -> float:
    """Distance from ``p`` to the segment ``ab``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0.0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])


def line_of_fire(terrain: Terrain, bases: Sequence[Base], from_id: str, to_id: str) -> dict[str, Any]:
    """Line of fire between two Kids' centres.

    Returns {"visible", "blocker" (the first id found in the way, or None), "distance"
    (centre to centre), "gap" (base edge to base edge), "objects" (ids of other Kids and of
    terrain pieces standing up whose nearest point is within 1 inch of the line)}.
    """
    by_id = {kid_id: (center, radius) for kid_id, center, radius in bases}
    a, ra = by_id[from_id]
    b, rb = by_id[to_id]
    blocker = None
    objects: list[str] = []
    for kid_id, center, radius in bases:
        if kid_id == from_id or kid_id == to_id:
            continue
        gap = _segment_gap(center, a, b) - radius
        if gap < -TOLERANCE and blocker is None:
            blocker = kid_id
        if gap <= RANGE_OBJECT_DISTANCE + TOLERANCE:
            objects.append(kid_id)
    line = LineString([a, b]) if distance(a, b) > 0 else Point(a)
    if blocker is None and terrain.sight_blocker.intersects(line):
        blocker = next(i for i in terrain.sight if terrain.shrunk[i].intersects(line))
    reach = RANGE_OBJECT_DISTANCE + TOLERANCE
    low_x, high_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
    low_y, high_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
    for piece_id in terrain.objects:
        x0, y0, x1, y1 = terrain.boxes[piece_id]
        if x1 < low_x or x0 > high_x or y1 < low_y or y0 > high_y:
            continue
        if terrain.shapes[piece_id].distance(line) <= reach:
            objects.append(piece_id)
    return {
        "visible": blocker is None,
        "blocker": blocker,
        "distance": round(distance(a, b), 3),
        "gap": round(distance(a, b) - ra - rb, 3),
        "objects": objects,
    }


def sight_clear(terrain: Terrain, bases: Sequence[Base], from_id: str, to_ids: Sequence[str]) -> list[bool]:
    """For each Kid in ``to_ids``, whether :func:`line_of_fire` from ``from_id`` to it is visible
    (no other base and no sight-blocking terrain in the way); the terrain is tested for every line at once."""
    if not to_ids:
        return []
    centres = {kid_id: center for kid_id, center, _radius in bases}
    a = centres[from_id]
    clear = [not _base_in_the_way(bases, a, centres[target], from_id, target) for target in to_ids]
    open_ = [i for i, ok in enumerate(clear) if ok]
    if open_ and not terrain.sight_blocker.is_empty:
        ends = [centres[to_ids[i]] for i in open_]
        lines = shapely.linestrings(np.array([(a, b) for b in ends], dtype=float).reshape(-1, 2, 2))
        for k, b in enumerate(ends):
            if b[0] == a[0] and b[1] == a[1]:
                lines[k] = Point(a)
        for i, blocked in zip(open_, shapely.intersects(terrain.sight_blocker, lines).tolist()):
            clear[i] = not blocked
    return clear


def _base_in_the_way(bases: Sequence[Base], a: Point2, b: Point2, from_id: str, to_id: str) -> bool:
    """Whether a base other than the two Kids' reaches into the line from ``a`` to ``b`` (as
    :func:`line_of_fire` tests it, with :func:`_segment_gap` written out)."""
    ax, ay = a[0], a[1]
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    low_x, high_x = min(ax, b[0]), max(ax, b[0])
    low_y, high_y = min(ay, b[1]), max(ay, b[1])
    hypot = math.hypot
    for kid_id, (px, py), radius in bases:
        # a base wholly beyond the line's bounding box cannot reach into the line
        if px + radius < low_x or px - radius > high_x or py + radius < low_y or py - radius > high_y \
                or kid_id == from_id or kid_id == to_id:
            continue
        t = 0.0 if length2 == 0.0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
        if hypot(ax + t * dx - px, ay + t * dy - py) - radius < -TOLERANCE:
            return True
    return False


# --- moving -------------------------------------------------------------------------------------

class Walker:
    """Shortest paths for one base moving among terrain and other bases.

    ``extra`` names terrain pieces that block this move although they do not block
    movement in general (a Penguin's slide keeps off snowless ground).

    The path nodes are the terrain's (found once per village and radius, see
    :meth:`Terrain.free_nodes`) and those round the other bases; a search looks only at the
    nodes within its limit of the start. Whether the way between two of the terrain's nodes
    clears the terrain is tested once per village and radius (:meth:`Terrain.known_ways`); other
    bases are tested every time.
    """

    def __init__(self, terrain: Terrain, bases: Sequence[Base], mover: str, start: Point2, radius: float,
                 extra: tuple[str, ...] = (), extra_radius: float | None = None):
        self.start = (float(start[0]), float(start[1]))
        self.radius = radius
        self._key = (radius, extra, 0.0 if extra_radius is None else extra_radius)
        self._terrain = terrain
        self.ground, _nodes, _convex = terrain.keepout(*self._key)
        others = [(center, radius + other) for kid_id, center, other in bases if kid_id != mover]
        self.others = others
        self.kid_xy = np.array([c for c, _ in others], dtype=float).reshape(-1, 2)
        self.kid_reach = np.array([r for _, r in others], dtype=float)
        low, high = radius - TOLERANCE, SIZE - radius + TOLERANCE
        self.bounds = (low, high)
        self._outline_list: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._terrain_shapes = len(terrain.keepout(*self._key)[2])
        self._searches: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self._regions: dict[float, np.ndarray] = {}

    def _candidates(self, reach: float) -> tuple[np.ndarray, np.ndarray]:
        """The path nodes within ``reach`` of the start, and the keep-out shape each goes round (its
        index in :meth:`_outlines`): the terrain's, then those round other bases, each inside the
        village and clear of every keep-out shape."""
        terrain_nodes, terrain_owners = self._terrain.free_nodes(*self._key)
        near = np.hypot(terrain_nodes[:, 0] - self.start[0], terrain_nodes[:, 1] - self.start[1]) <= reach
        nodes, owners = terrain_nodes[near], terrain_owners[near]
        self._terrain_nodes = np.nonzero(near)[0]
        if not len(self.kid_reach):
            return nodes, owners
        gaps = np.hypot(self.kid_xy[:, 0] - self.start[0], self.kid_xy[:, 1] - self.start[1])
        close = np.nonzero(gaps <= reach + _circle_offsets_reach(self.kid_reach) + 1e-6)[0]
        kid_nodes = _circle_nodes(self.kid_xy[close], self.kid_reach[close])
        kid_owners = np.repeat(close + self._terrain_shapes, 4 * _NODE_QUAD_SEGMENTS["circle"])
        low, high = self.bounds
        keep = (np.hypot(kid_nodes[:, 0] - self.start[0], kid_nodes[:, 1] - self.start[1]) <= reach) \
            & (kid_nodes[:, 0] >= low) & (kid_nodes[:, 0] <= high) & (kid_nodes[:, 1] >= low) & (kid_nodes[:, 1] <= high)
        kid_nodes, kid_owners = kid_nodes[keep], kid_owners[keep]
        if len(kid_nodes):
            clear = ~shapely.intersects_xy(self.ground, kid_nodes[:, 0], kid_nodes[:, 1])
            kid_nodes, kid_owners = kid_nodes[clear], kid_owners[clear]
        nodes, owners = np.vstack([nodes, kid_nodes]), np.concatenate([owners, kid_owners])
        clear = ~self._on_kids(nodes)
        self._terrain_nodes = self._terrain_nodes[clear[:len(self._terrain_nodes)]]
        return nodes[clear], owners[clear]

    def _on_kids(self, points: np.ndarray) -> np.ndarray:
        """For each point, whether it is inside another Kid's keep-out circle (by more than the tolerance)."""
        if not len(self.kid_reach):
            return np.zeros(len(points), dtype=bool)
        gaps = np.hypot(points[:, None, 0] - self.kid_xy[None, :, 0], points[:, None, 1] - self.kid_xy[None, :, 1])
        return (gaps < self.kid_reach[None, :] - TOLERANCE).any(axis=1)

    def stands_clear(self, point: Point2) -> bool:
        low, high = self.bounds
        if not (low <= point[0] <= high and low <= point[1] <= high):
            return False
        if shapely.intersects_xy(self.ground, point[0], point[1]):
            return False
        return not self._on_kids(np.array([point], dtype=float))[0]

    def _clear_ways(self, origins: np.ndarray, targets: np.ndarray, known: np.ndarray | None = None) -> np.ndarray:
        """Whether the straight way from each origin to the target beside it (n x 2 each) clips no
        keep-out shape. Only the shapes whose bounding boxes meet the ways' are looked at, and a
        terrain piece only for the ways whose own boxes meet its box. ``known`` (one a way, as
        :meth:`Terrain.known_ways` holds them) spares the terrain test of the ways it knows, and
        is filled in for the others."""
        ok = np.ones(len(origins), dtype=bool)
        if not len(origins):
            return ok
        unknown = None if known is None else known == 0
        if known is not None:
            ok[known == 2] = False
        low_x, high_x = np.minimum(origins[:, 0], targets[:, 0]), np.maximum(origins[:, 0], targets[:, 0])
        low_y, high_y = np.minimum(origins[:, 1], targets[:, 1]), np.maximum(origins[:, 1], targets[:, 1])
        boxes = self._terrain.outlines(*self._key)[1]
        near = (boxes[:, 0] <= high_x.max()) & (boxes[:, 2] >= low_x.min()) \
            & (boxes[:, 1] <= high_y.max()) & (boxes[:, 3] >= low_y.min())
        if near.any():
            boxes = boxes[near]
            crossing = ((boxes[None, :, 0] <= high_x[:, None]) & (boxes[None, :, 2] >= low_x[:, None])
                        & (boxes[None, :, 1] <= high_y[:, None]) & (boxes[None, :, 3] >= low_y[:, None])).any(axis=1)
            if unknown is not None:
                crossing &= unknown
            if crossing.any():
                ways = shapely.linestrings(np.stack([origins[crossing], targets[crossing]], axis=1))
                ok[crossing] = ~shapely.intersects(self.ground, ways)
        if unknown is not None:
            known[unknown] = np.where(ok[unknown], 1, 2)
        if len(self.kid_reach):
            reach = self.kid_reach
            close = (self.kid_xy[:, 0] + reach >= low_x.min()) & (self.kid_xy[:, 0] - reach <= high_x.max()) \
                & (self.kid_xy[:, 1] + reach >= low_y.min()) & (self.kid_xy[:, 1] - reach <= high_y.max())
            if close.any():
                kid_xy, reach = self.kid_xy[close], reach[close]
                ox, oy = origins[:, 0, None], origins[:, 1, None]
                dx, dy = targets[:, 0, None] - ox, targets[:, 1, None] - oy
                length2 = dx * dx + dy * dy
                cx = kid_xy[None, :, 0] - ox
                cy = kid_xy[None, :, 1] - oy
                with np.errstate(invalid="ignore", divide="ignore"):
                    along = np.where(length2 > 0, (cx * dx + cy * dy) / length2, 0.0)
                along = np.clip(along, 0.0, 1.0)
                gaps = np.hypot(along * dx - cx, along * dy - cy)
                ok &= ~(gaps < reach[None, :] - TOLERANCE).any(axis=1)
        return ok

    def _clear_line(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """:meth:`_clear_ways` for one way (the same tests)."""
        if self.ground.intersects(LineString([a, b])):
            return False
        if not len(self.kid_reach):
            return True
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        cx, cy = self.kid_xy[:, 0] - a[0], self.kid_xy[:, 1] - a[1]
        along = np.clip((cx * dx + cy * dy) / length2, 0.0, 1.0) if length2 > 0 else np.zeros(len(cx))
        return not (np.hypot(along * dx - cx, along * dy - cy) < self.kid_reach - TOLERANCE).any()

    def _search(self, limit: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Shortest paths from the start no longer than ``limit`` (with the tolerance), found once per
        limit: the nodes reached (n x 2, the start first), their path lengths, the node each is
        reached from and the keep-out shape each goes round (-1 for the start)."""
        if limit in self._searches:
            return self._searches[limit]
        reach = limit + TOLERANCE
        candidates, owners = self._candidates(reach)
        points = np.vstack([np.array([self.start], dtype=float), candidates])
        # a way can be on a path within the reach only if the straight distance to its first end
        # and the way itself fit in it (a node is never nearer than in a straight line)
        before = np.hypot(points[:, 0] - self.start[0], points[:, 1] - self.start[1])
        first, second = _pairs(len(points))
        ways = np.hypot(points[first, 0] - points[second, 0], points[first, 1] - points[second, 1])
        # a way is tested once for both directions, and only if it fits in the reach after the
        # straight distance to its nearer end (a node is never nearer than in a straight line)
        fits = (np.minimum(before[first], before[second]) + ways <= reach + 1e-9) & (ways > 0)
        first, second = first[fits], second[fits]
        # what the terrain's table knows of the ways between two of its nodes (they come first)
        table = self._terrain.known_ways(*self._key)
        between = (first >= 1) & (second <= len(self._terrain_nodes))
        ends_a, ends_b = self._terrain_nodes[first[between] - 1], self._terrain_nodes[second[between] - 1]
        known = np.zeros(len(first), dtype=np.int8)
        known[between] = table[ends_a, ends_b]
        clear = self._clear_ways(points[first], points[second], known)
        table[ends_a, ends_b] = table[ends_b, ends_a] = known[between]
        rows = np.concatenate([first[clear], second[clear]])
        cols = np.concatenate([second[clear], first[clear]])
        order = np.lexsort((cols, rows))
        ends = np.searchsorted(rows[order], np.arange(len(points) + 1)).tolist()
        cols = cols[order].tolist()
        xy = points.tolist()
        best = [math.inf] * len(points)
        best[0] = 0.0
        came_from = [-1] * len(points)
        settled = [False] * len(points)
        queue = [(0.0, 0)]
        hypot = math.hypot
        while queue:
            length, here = heapq.heappop(queue)
            if settled[here]:
                continue
            settled[here] = True
            hx, hy = xy[here]
            for there in cols[ends[here]:ends[here + 1]]:
                if not settled[there]:
                    px, py = xy[there]
                    through = length + hypot(hx - px, hy - py)
                    if through < best[there] and through <= reach:
                        best[there] = through
                        came_from[there] = here
                        heapq.heappush(queue, (through, there))
        reached = np.nonzero(np.array(settled))[0]
        renumber = np.full(len(points), -1)
        renumber[reached] = np.arange(len(reached))
        froms = np.array(came_from)[reached]
        found = (points[reached], np.array(best)[reached], np.where(froms >= 0, renumber[froms], -1),
                 np.concatenate([[-1], owners])[reached])
        self._searches[limit] = found
        return found

    def path_length(self, goal: Point2, limit: float) -> float | None:
        """The shortest path to ``goal`` if it is within ``limit`` (with the tolerance), else None."""
        goal = (float(goal[0]), float(goal[1]))
        if not self.stands_clear(goal):
            return None
        if goal == self.start:
            return 0.0
        if distance(self.start, goal) > limit + TOLERANCE:
            return None
        if self._clear_line(self.start, goal):
            return distance(self.start, goal)
        points, lengths, _froms, _owners = self._search(limit)
        hypot = math.hypot
        through = [length + hypot(x - goal[0], y - goal[1]) for (x, y), length in zip(points.tolist(), lengths.tolist())]
        hopeful = np.array(through) <= limit + TOLERANCE
        hopeful[0] = False
        if not hopeful.any():
            return None
        sees = self._clear_ways(points[hopeful], np.broadcast_to(np.array(goal), (int(hopeful.sum()), 2)))
        found = [t for t, clear in zip(np.array(through)[hopeful].tolist(), sees.tolist()) if clear]
        return min(found) if found else None

    def region(self, limit: float) -> np.ndarray:
        """The area the centre can reach with a path of at most ``limit``, as cells (polygons, each
        seen whole from one point) whose union it is; cells may overlap. Worked out once per limit.

        A place is reached along a shortest path whose last turn is round a keep-out shape at some
        node, and that node's predecessor does not see it. So each node adds only its cells, one for
        each shape it touches: the sector from the straight way on past the node round to the
        shape, out to the length left, less what other shapes hide from the node. The start's cell
        is its whole disc less its shadows.
        """
        if limit not in self._regions:
            self._regions[limit] = self._cells(limit)
        return self._regions[limit].copy()

    def _cells(self, limit: float) -> np.ndarray:
        """:meth:`region`, worked out."""
        points, lengths, froms, owners = self._search(limit)
        low, high = self.bounds
        if limit <= TOLERANCE:
            board = _board(low + TOLERANCE, high - TOLERANCE)
            return np.array([Point(self.start).buffer(TOLERANCE / 2).intersection(board)], dtype=object)
        corners, counts, boxes, centres = self._outlines()
        turning = np.nonzero(limit - lengths > TOLERANCE)[0]
        turning, shapes = _touching(points, turning[turning > 0], owners, corners, boxes)
        sectors, viewpoints, lefts, own = _sectors(points[turning], points[froms[turning]], limit - lengths[turning],
                                                  corners, centres, shapes)
        cells = np.concatenate([[shapely.polygons(_disc_outline(float(limit))[::-1] + self.start)], sectors])
        viewpoints = np.vstack([np.array([self.start]), viewpoints])
        lefts = np.concatenate([[limit], lefts])
        own = np.concatenate([[-1], own])
        if len(corners):
            # a piece casts a shadow inside a cell only if it reaches into the cell's box and into
            # the disc round its viewpoint (and is not the shape the cell's node turns round)
            cell_boxes = shapely.bounds(cells)
            x, y = viewpoints[:, None, 0], viewpoints[:, None, 1]
            gap_x = np.maximum(np.maximum(boxes[None, :, 0] - x, x - boxes[None, :, 2]), 0)
            gap_y = np.maximum(np.maximum(boxes[None, :, 1] - y, y - boxes[None, :, 3]), 0)
            near = (np.hypot(gap_x, gap_y) < lefts[:, None]) \
                & (boxes[None, :, 0] < cell_boxes[:, None, 2]) & (boxes[None, :, 2] > cell_boxes[:, None, 0]) \
                & (boxes[None, :, 1] < cell_boxes[:, None, 3]) & (boxes[None, :, 3] > cell_boxes[:, None, 1])
            near[np.arange(len(own))[own >= 0], own[own >= 0]] = False
            rows, cols = np.nonzero(near)
            if len(rows):
                shadows = _shadows(viewpoints[rows], lefts[rows], corners[cols], counts[cols])
                # each cell less its shadows, one shadow at a time (for every cell at once)
                grid = np.full((len(cells), int(near.sum(axis=1).max())), None, dtype=object)
                grid[rows, np.arange(len(rows)) - np.searchsorted(rows, rows)] = shadows
                for k in range(grid.shape[1]):
                    has = near.sum(axis=1) > k
                    cells[has] = shapely.difference(cells[has], grid[has, k])
        edges = shapely.bounds(cells)
        outside = ((edges[:, :2] < low + TOLERANCE) | (edges[:, 2:] > high - TOLERANCE)).any(axis=1)
        if outside.any():
            cells[outside] = shapely.clip_by_rect(cells[outside], low + TOLERANCE, low + TOLERANCE,
                                                  high - TOLERANCE, high - TOLERANCE)
        return cells[~shapely.is_empty(cells)]

    def _outlines(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every keep-out piece's corners, counter-clockwise without the closing one, padded as
        :func:`_padded` does, their counts, bounding boxes and a point inside each: the terrain's
        (once per village and radius), then the other bases' (their centres)."""
        if self._outline_list is None:
            corners, counts, boxes, centres = self._terrain.padded_outlines(*self._key)
            if len(self.kid_reach):
                reach = self.kid_reach - TOLERANCE
                disc_corners = 4 * _ROUND_SEGMENTS
                longest = max(corners.shape[1], disc_corners)
                discs = np.array([_padded_disc(r, longest) for r in reach.tolist()])
                corners = np.concatenate([_pad_to(corners, longest), self.kid_xy[:, None, :] + discs])
                counts = np.concatenate([counts, np.full(len(reach), disc_corners)])
                boxes = np.vstack([boxes, np.hstack([self.kid_xy - reach[:, None], self.kid_xy + reach[:, None]])])
                centres = np.vstack([centres, self.kid_xy])
            self._outline_list = (corners, counts, boxes, centres)
        return self._outline_list


@functools.lru_cache(maxsize=256)
def _pairs(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of ``count`` indices once, the first below the second (two arrays)."""
    return np.triu_indices(count, 1)


@functools.lru_cache(maxsize=8)
def _board(low: float, high: float) -> BaseGeometry:
    """The square where a centre may stand, from ``low`` to ``high`` on both axes."""
    square = box(low, low, high, high)
    shapely.prepare(square)
    return square


@functools.lru_cache(maxsize=32)
def _disc_outline(radius: float) -> np.ndarray:
    """The corners of a base's keep-out disc of ``radius`` round the origin, counter-clockwise, as
    shapely draws a buffered point."""
    ring = shapely.get_coordinates(Point(0.0, 0.0).buffer(radius, quad_segs=_ROUND_SEGMENTS).exterior)[:-1]
    return ring[::-1].copy()


@functools.lru_cache(maxsize=32)
def _padded_disc(radius: float, longest: int) -> np.ndarray:
    """:func:`_disc_outline` padded on to ``longest`` corners, as :func:`_pad_to` pads."""
    return _pad_to(_disc_outline(radius)[None], longest)[0]


def _pad_to(corners: np.ndarray, longest: int) -> np.ndarray:
    """Padded outlines (n x k x 2) padded on to ``longest`` corners each, with copies of the last."""
    if corners.shape[1] >= longest:
        return corners
    if not len(corners):
        return np.empty((0, longest, 2))
    return np.concatenate([corners, np.repeat(corners[:, -1:], longest - corners.shape[1], axis=1)], axis=1)


def _padded(outlines: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Outlines of different lengths as one array (n x longest x 2), each padded with copies of its
    last corner, and their lengths."""
    counts = np.array([len(outline) for outline in outlines], dtype=int)
    longest = int(counts.max()) if len(counts) else 0
    corners = np.empty((len(outlines), longest, 2))
    for i, outline in enumerate(outlines):
        corners[i, :len(outline)] = outline
        corners[i, len(outline):] = outline[-1]
    return corners, counts


def _shadows(viewpoints: np.ndarray, lengths: np.ndarray, corners: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """What each convex outline (counter-clockwise corners, padded as :func:`_padded` does) hides from
    its viewpoint, up to its length away, itself included: the outline's side facing the viewpoint,
    from one tangent corner to the other, then out along the tangent lines to far beyond the length
    and the outline (``2 * length + 2``, or twice the farthest corner) and back round through the
    direction between them, so the far side lies outside the disc of that length."""
    if not len(corners):
        return np.empty(0, dtype=object)
    rows = np.arange(len(corners))
    away = corners - viewpoints[:, None, :]
    towards = np.arctan2(away[:, 0, 1], away[:, 0, 0])
    seen = (np.arctan2(away[..., 1], away[..., 0]) - towards[:, None] + np.pi) % (2 * np.pi) - np.pi
    real = np.arange(corners.shape[1])[None, :] < counts[:, None]
    right = np.argmin(np.where(real, seen, np.inf), axis=1)
    left = np.argmax(np.where(real, seen, -np.inf), axis=1)
    # the facing side runs counter-clockwise from the left tangent corner to the right one
    chain = (right - left) % counts + 1
    sizes = chain + 3
    which = np.repeat(rows, sizes)
    step = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    on_side = step < chain[which]
    ring = np.empty((len(which), 2))
    ring[on_side] = corners[which[on_side], ((left[which] + step) % counts[which])[on_side]]
    low, high = towards + seen[rows, right], towards + seen[rows, left]
    far = np.maximum(2 * lengths + 2, 2 * np.hypot(away[..., 0], away[..., 1]).max(axis=1))
    turn = np.stack([low, (low + high) / 2, high], axis=1)
    ring[~on_side] = (viewpoints[:, None, :] + far[:, None, None] * np.stack([np.cos(turn), np.sin(turn)], axis=2)
                      ).reshape(-1, 2)
    return shapely.polygons(shapely.linearrings(ring, indices=which))

_TOUCHING = 0.1
"""Inches: a node turns round every keep-out shape this close to it (its own shape, and another
where two shapes meet, such as a Kid standing against a wall)."""


def _touching(points: np.ndarray, nodes: np.ndarray, owners: np.ndarray, corners: np.ndarray, boxes: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of a node (an index into ``points``) and a keep-out shape it may turn round: its own,
    and any other within :data:`_TOUCHING` of it."""
    xy = points[nodes]
    x, y = xy[:, None, 0], xy[:, None, 1]
    gap_x = np.maximum(np.maximum(boxes[None, :, 0] - x, x - boxes[None, :, 2]), 0)
    gap_y = np.maximum(np.maximum(boxes[None, :, 1] - y, y - boxes[None, :, 3]), 0)
    near = np.hypot(gap_x, gap_y) < _TOUCHING
    near[np.arange(len(nodes)), owners[nodes]] = False
    rows, cols = np.nonzero(near)
    if len(rows):
        # the distance from the node to each side of the shape
        start = corners[cols]
        side = np.roll(start, -1, axis=1) - start
        towards = xy[rows, None, :] - start
        length2 = (side * side).sum(axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            along = np.clip(np.where(length2 > 0, (towards * side).sum(axis=2) / length2, 0.0), 0.0, 1.0)
        gaps = np.hypot(towards[..., 0] - along * side[..., 0], towards[..., 1] - along * side[..., 1]).min(axis=1)
        rows, cols = rows[gaps < _TOUCHING], cols[gaps < _TOUCHING]
    return np.concatenate([nodes, nodes[rows]]), np.concatenate([owners[nodes], cols])


_ARC_STEP = 2 * math.pi / (4 * _ROUND_SEGMENTS)
"""The widest angle between two corners of a drawn arc, as shapely draws a disc."""


def _sectors(nodes: np.ndarray, previous: np.ndarray, lefts: np.ndarray, corners: np.ndarray, centres: np.ndarray,
             owners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each node's cell before shadows: the sector round the node, out to its length left, from the
    straight way on from ``previous`` through the node to the tangent of the shape it turns round
    (``owners``: rows of ``corners``, padded as :func:`_padded` does, and of ``centres``, a point
    inside each). A node whose way on runs into its shape turns round nothing and has no sector.
    Returns the sectors as polygons, and those nodes' points, lengths left and owners."""
    if not len(nodes):
        return np.empty(0, dtype=object), np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=int)
    outline = corners[owners]
    centre = centres[owners]
    towards = np.arctan2(centre[:, 1] - nodes[:, 1], centre[:, 0] - nodes[:, 0])
    seen = np.arctan2(outline[..., 1] - nodes[:, None, 1], outline[..., 0] - nodes[:, None, 0]) - towards[:, None]
    seen = (seen + np.pi) % (2 * np.pi) - np.pi
    first, last = seen.min(axis=1), seen.max(axis=1)
    onward = np.arctan2(nodes[:, 1] - previous[:, 1], nodes[:, 0] - previous[:, 0]) - towards
    onward = (onward + np.pi) % (2 * np.pi) - np.pi
    turns_right = onward > last
    low = np.where(turns_right, last, onward)
    high = np.where(turns_right, onward, first)
    keep = (turns_right | (onward < first)) & (high - low > 1e-9)
    nodes, lefts, owners, towards, low, high = nodes[keep], lefts[keep], owners[keep], towards[keep], low[keep], high[keep]
    if not len(nodes):
        return np.empty(0, dtype=object), nodes, lefts, owners
    steps = np.ceil((high - low) / _ARC_STEP).astype(int) + 1
    sizes = steps + 1
    which = np.repeat(np.arange(len(nodes)), sizes)
    offset = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    angle = towards[which] + low[which] + (offset - 1) / (steps[which] - 1) * (high - low)[which]
    radius = np.where(offset == 0, 0.0, lefts[which])
    ring = np.column_stack([nodes[which, 0] + radius * np.cos(angle), nodes[which, 1] + radius * np.sin(angle)])
    return shapely.polygons(shapely.linearrings(ring, indices=which)), nodes, lefts, owners


def region_rings(cells: np.ndarray, digits: int = 3) -> list[dict[str, list[list[float]]]]:
    """Polygons as JSON-safe rings on a grid of ``digits`` decimals (each still a valid polygon;
    slivers thinner than the grid vanish), outer rings counter-clockwise and holes clockwise:
    [{"outer": [[x, y], ...], "holes": [[[x, y], ...], ...]}]."""
    parts = shapely.get_parts(cells)
    exact = parts[shapely.get_type_id(parts) == 3]
    parts = shapely.set_coordinates(exact.copy(), np.round(shapely.get_coordinates(exact), digits))
    broken = ~shapely.is_valid(parts)
    if broken.any():
        parts = np.concatenate([parts[~broken], shapely.get_parts(shapely.set_precision(exact[broken], 10.0 ** -digits))])
    parts = parts[(shapely.get_type_id(parts) == 3) & ~shapely.is_empty(parts)]
    if not len(parts):
        return []
    rings, owner = shapely.get_rings(shapely.orient_polygons(parts), return_index=True)
    coords, which = shapely.get_coordinates(rings, return_index=True)
    ends = np.searchsorted(which, np.arange(len(rings) + 1)).tolist()
    flat = coords.tolist()
    found: list[dict[str, Any]] = []
    for start, end, part in zip(ends, ends[1:], owner.tolist()):
        if part == len(found):
            found.append({"outer": flat[start:end], "holes": []})
        else:
            found[part]["holes"].append(flat[start:end])
    return found


def vault_landing(terrain: Terrain, piece_id: str, pos: Point2, radius: float) -> list[float] | None:
    """Where a base in contact with a vaultable piece lands on the far side, straight across
    (along the line from the nearest point of the piece through the base's centre); None when
    the base is not in contact with it."""
    x0, y0, x1, y1 = terrain.boxes[piece_id]
    reach = radius + 2 * TOLERANCE
    if pos[0] < x0 - reach or pos[0] > x1 + reach or pos[1] < y0 - reach or pos[1] > y1 + reach:
        return None
    shape = terrain.shapes[piece_id]
    here = Point(pos)
    gap = shape.distance(here) - radius
    if abs(gap) > TOLERANCE:
        return None
    near = shape.exterior.interpolate(shape.exterior.project(here))
    dx, dy = near.x - pos[0], near.y - pos[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return None
    ux, uy = dx / length, dy / length
    far_ray = LineString([(near.x, near.y), (near.x + ux * 2 * SIZE, near.y + uy * 2 * SIZE)])
    crossing = far_ray.intersection(shape)
    exit_point = max((Point(c) for part in shapely.get_parts(crossing) for c in part.coords),
                     key=lambda p: (p.x - near.x) * ux + (p.y - near.y) * uy)
    landing = [exit_point.x + ux * (radius + TOLERANCE / 2), exit_point.y + uy * (radius + TOLERANCE / 2)]
    return [round(landing[0], 4), round(landing[1], 4)]
