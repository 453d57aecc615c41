"""Exact plane geometry for the table, in centimetres.

Bases (characters, snowmen) are circles; obstructions are convex polygons; sight lines
are segments between centres. Every comparison allows the same slack, ``TOLERANCE``,
and in the player's favour:

* a distance counts as "within" a limit when it exceeds it by at most ``TOLERANCE``;
* two shapes overlap only when one reaches more than ``TOLERANCE`` into the other, so
  bases may touch;
* a sight line is blocked only when it crosses the shape shrunk by ``TOLERANCE`` on
  every side, so a line that grazes a base or an obstruction's edge or corner is clear;
* a base touches another when the gap (or overlap) between them is at most ``TOLERANCE``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

TOLERANCE = 0.01
"""Centimetres (a tenth of a millimetre): the one slack used by every test below."""

Point = Sequence[float]
Polygon = Sequence[Point]


def distance(a: Point, b: Point) -> float:
    """Centre-to-centre distance."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def within(length: float, limit: float) -> bool:
    """True when ``length`` is at most ``limit`` (with the tolerance)."""
    return length <= limit + TOLERANCE


def closest_approach(p: Point, a: Point, b: Point) -> tuple[float, float]:
    """Distance from ``p`` to segment ``ab`` and the segment parameter t in [0, 1] where it is reached."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0.0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]), t


def circles_overlap(a: Point, ra: float, b: Point, rb: float) -> bool:
    """True when two bases overlap by more than the tolerance."""
    return distance(a, b) < ra + rb - TOLERANCE


def circles_touch(a: Point, ra: float, b: Point, rb: float) -> bool:
    """True when two bases are in contact: neither apart nor overlapping by more than the tolerance."""
    return abs(distance(a, b) - (ra + rb)) <= TOLERANCE


def outward_edges(polygon: Polygon) -> list[list[float]]:
    """Each edge as [start x, start y, unit outward normal x, y], whichever way the polygon winds."""
    n = len(polygon)
    area2 = sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n))
    sign = 1.0 if area2 > 0 else -1.0
    edges = []
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        length = math.hypot(ex, ey)
        edges.append([a[0], a[1], sign * ey / length, -sign * ex / length])
    return edges


def obstacle(points: Polygon, **extra: Any) -> dict[str, Any]:
    """A convex polygon with its edges and bounding box worked out once, for the functions below."""
    return {**extra, "points": [list(p) for p in points], "edges": outward_edges(points), "box": list(bounding_box(points))}


def _edges(shape: Polygon | Mapping[str, Any]) -> list[list[float]]:
    if isinstance(shape, dict):
        return shape["edges"] if "edges" in shape else outward_edges(shape["points"])
    return outward_edges(shape)


def _points(shape: Polygon | Mapping[str, Any]) -> Polygon:
    return shape["points"] if isinstance(shape, dict) else shape


def signed_distance_to_polygon(p: Point, shape: Polygon | Mapping[str, Any]) -> float:
    """Distance from ``p`` to a convex polygon's boundary; negative inside, its depth.

    ``shape`` is a list of vertices or an :func:`obstacle`.
    """
    px, py = p[0], p[1]
    depth = max(nx * (px - vx) + ny * (py - vy) for vx, vy, nx, ny in _edges(shape))
    if depth <= 0.0:
        return depth
    polygon = _points(shape)
    n = len(polygon)
    return min(closest_approach(p, polygon[i], polygon[(i + 1) % n])[0] for i in range(n))


def circle_overlaps_polygon(c: Point, r: float, shape: Polygon | Mapping[str, Any]) -> bool:
    """True when a base reaches more than the tolerance into an obstruction (vertices or :func:`obstacle`)."""
    if isinstance(shape, dict) and "box" in shape:
        x0, y0, x1, y1 = shape["box"]
        reach = r - TOLERANCE
        if c[0] + reach <= x0 or c[0] - reach >= x1 or c[1] + reach <= y0 or c[1] - reach >= y1:
            return False
    return signed_distance_to_polygon(c, shape) < r - TOLERANCE


def circle_inside_rect(c: Point, r: float, width: float, height: float) -> bool:
    """True when a base lies within the play area [0, width] x [0, height]."""
    return (
        c[0] - r >= -TOLERANCE
        and c[1] - r >= -TOLERANCE
        and c[0] + r <= width + TOLERANCE
        and c[1] + r <= height + TOLERANCE
    )


def segment_blocked_by_circle(a: Point, b: Point, c: Point, r: float) -> float | None:
    """Where (t in [0, 1]) segment ``ab`` passes more than the tolerance inside a circle, or None."""
    gap, t = closest_approach(c, a, b)
    return t if gap < r - TOLERANCE else None


def segment_blocked_by_polygon(a: Point, b: Point, shape: Polygon | Mapping[str, Any]) -> float | None:
    """Where (t in [0, 1]) segment ``ab`` first passes more than the tolerance inside a convex polygon, or None.

    The polygon shrunk by the tolerance is the intersection of its edges' half-planes,
    each moved inward by the tolerance; the segment is clipped against them (Cyrus-Beck).
    """
    if isinstance(shape, dict) and "box" in shape:
        x0, y0, x1, y1 = shape["box"]
        if max(a[0], b[0]) <= x0 or min(a[0], b[0]) >= x1 or max(a[1], b[1]) <= y0 or min(a[1], b[1]) >= y1:
            return None
    t_in, t_out = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for vx, vy, nx, ny in _edges(shape):
        start = nx * (a[0] - vx) + ny * (a[1] - vy) + TOLERANCE
        rate = nx * dx + ny * dy
        if rate == 0.0:
            if start >= 0.0:
                return None
        elif rate > 0.0:
            t_out = min(t_out, -start / rate)
        else:
            t_in = max(t_in, -start / rate)
        if t_in >= t_out:
            return None
    return t_in


def regular_polygon(cx: float, cy: float, r: float, sides: int = 8) -> list[list[float]]:
    """Vertices of a regular polygon (a jar, a tin) circumscribed by a circle of radius ``r``."""
    step = 2 * math.pi / sides
    return [[round(cx + r * math.cos(i * step + step / 2), 4), round(cy + r * math.sin(i * step + step / 2), 4)]
            for i in range(sides)]


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """Vertices of an axis-aligned rectangle."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def is_convex(polygon: Polygon) -> bool:
    """True for a convex polygon: at least three vertices, every turn the same way."""
    n = len(polygon)
    if n < 3:
        return False
    signs = set()
    for i in range(n):
        a, b, c = polygon[i], polygon[(i + 1) % n], polygon[(i + 2) % n]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if cross != 0.0:
            signs.add(cross > 0)
    return len(signs) == 1


def bounding_box(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _blockers(
    pieces: Mapping[str, Mapping[str, Any]],
    obstructions: Iterable[Mapping[str, Any]],
    from_id: str,
    to_id: str,
) -> Iterator[tuple[float, str]]:
    """(t, id) for everything that blocks the line between two pieces' centres, lazily.

    Shapes whose bounding box misses the segment's are skipped before the exact test.
    """
    a, b = pieces[from_id]["pos"], pieces[to_id]["pos"]
    low_x, high_x = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
    low_y, high_y = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
    for piece_id, piece in pieces.items():
        c = piece["pos"]
        if c is None or piece_id == from_id or piece_id == to_id:
            continue
        reach = piece["radius"] - TOLERANCE
        if c[0] + reach <= low_x or c[0] - reach >= high_x or c[1] + reach <= low_y or c[1] - reach >= high_y:
            continue
        t = segment_blocked_by_circle(a, b, c, piece["radius"])
        if t is not None:
            yield t, piece_id
    for obstruction in obstructions:
        t = segment_blocked_by_polygon(a, b, obstruction)
        if t is not None:
            yield t, obstruction["id"]


def sight_line(
    pieces: Mapping[str, Mapping[str, Any]],
    obstructions: Iterable[Mapping[str, Any]],
    from_id: str,
    to_id: str,
) -> dict[str, Any]:
    """Line of sight between two pieces' centres.

    ``pieces`` maps id to a dict with "pos" ([x, y] or None when off the table) and
    "radius"; ``obstructions`` are :func:`obstacle` dicts with an "id". Every piece other than
    the two ends, and every obstruction, can block. Returns {"clear", "blocker",
    "distance"}; the blocker is the one nearest the first piece.
    """
    nearest = min(_blockers(pieces, obstructions, from_id, to_id), default=None)
    return {
        "clear": nearest is None,
        "blocker": None if nearest is None else nearest[1],
        "distance": round(distance(pieces[from_id]["pos"], pieces[to_id]["pos"]), 3),
    }


def sight_clear(
    pieces: Mapping[str, Mapping[str, Any]],
    obstructions: Iterable[Mapping[str, Any]],
    from_id: str,
    to_id: str,
) -> bool:
    """Whether :func:`sight_line` would be clear, stopping at the first blocker found."""
    return next(_blockers(pieces, obstructions, from_id, to_id), None) is None


def placement_problem(
    pieces: Mapping[str, Mapping[str, Any]],
    obstructions: Iterable[Mapping[str, Any]],
    width: float,
    height: float,
    pos: Point,
    radius: float,
    ignore: Iterable[str] = (),
) -> str | None:
    """Why a base of ``radius`` cannot stand at ``pos`` (an id or "outside"), or None when it can."""
    if not circle_inside_rect(pos, radius, width, height):
        return "outside"
    skip = set(ignore)
    for piece_id, piece in pieces.items():
        c = piece["pos"]
        if c is None or piece_id in skip:
            continue
        reach = radius + piece["radius"]
        if abs(c[0] - pos[0]) >= reach or abs(c[1] - pos[1]) >= reach:
            continue
        if circles_overlap(pos, radius, c, piece["radius"]):
            return piece_id
    for obstruction in obstructions:
        if circle_overlaps_polygon(pos, radius, obstruction):
            return obstruction["id"]
    return None
