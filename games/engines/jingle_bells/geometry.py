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
    depth = None
    for vx, vy, nx, ny in _edges(shape):  # the largest signed distance to an edge's line, as max() picks it
        signed = nx * (px - vx) + ny * (py - vy)
        if depth is None or signed > depth:
            depth = signed
    if depth is None:
        raise ValueError("max() arg is an empty sequence")
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
    return _clip_to_shrunk_edges(a, b[0] - a[0], b[1] - a[1], _edges(shape))


def _clip_to_shrunk_edges(a: Point, dx: float, dy: float, edges: Iterable[Sequence[float]]) -> float | None:
    """The Cyrus-Beck step of :func:`segment_blocked_by_polygon`: segment from ``a`` along (dx, dy)."""
    ax, ay = a[0], a[1]
    t_in, t_out = 0.0, 1.0
    for vx, vy, nx, ny in edges:
        start = nx * (ax - vx) + ny * (ay - vy) + TOLERANCE
        rate = nx * dx + ny * dy
        if rate == 0.0:
            if start >= 0.0:
                return None
        elif rate > 0.0:
            exit_t = -start / rate
            if exit_t < t_out:  # min(t_out, exit_t), keeping t_out on a tie
                t_out = exit_t
        else:
            entry_t = -start / rate
            if entry_t > t_in:  # max(t_in, entry_t), keeping t_in on a tie
                t_in = entry_t
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
    The circle and polygon tests are those of :func:`segment_blocked_by_circle` and
    :func:`segment_blocked_by_polygon`, written out here (same arithmetic, same order)
    because this loop is the engine's hottest.
    """
    a, b = pieces[from_id]["pos"], pieces[to_id]["pos"]
    ax, ay = a[0], a[1]
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    low_x, high_x = (ax, b[0]) if ax <= b[0] else (b[0], ax)
    low_y, high_y = (ay, b[1]) if ay <= b[1] else (b[1], ay)
    for piece_id, piece in pieces.items():
        c = piece["pos"]
        if c is None or piece_id == from_id or piece_id == to_id:
            continue
        cx, cy = c[0], c[1]
        reach = piece["radius"] - TOLERANCE
        if cx + reach <= low_x or cx - reach >= high_x or cy + reach <= low_y or cy - reach >= high_y:
            continue
        # closest_approach(c, a, b), then segment_blocked_by_circle's test
        if length2 == 0.0:
            t = 0.0
        else:
            t = ((cx - ax) * dx + (cy - ay) * dy) / length2
            t = t if t < 1.0 else 1.0  # max(0.0, min(1.0, t)), tie and NaN included
            t = t if t > 0.0 else 0.0
        if math.hypot(ax + t * dx - cx, ay + t * dy - cy) < reach:
            yield t, piece_id
    for obstruction in obstructions:
        if isinstance(obstruction, dict) and "box" in obstruction:
            x0, y0, x1, y1 = obstruction["box"]
            if high_x <= x0 or low_x >= x1 or high_y <= y0 or low_y >= y1:
                continue
        t = _clip_to_shrunk_edges(a, dx, dy, _edges(obstruction))
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
    x, y = pos[0], pos[1]
    for piece_id, piece in pieces.items():
        c = piece["pos"]
        if c is None or piece_id in skip:
            continue
        reach = radius + piece["radius"]
        if abs(c[0] - x) >= reach or abs(c[1] - y) >= reach:
            continue
        if math.hypot(x - c[0], y - c[1]) < reach - TOLERANCE:  # circles_overlap(pos, radius, c, ...)
            return piece_id
    reach = radius - TOLERANCE
    for obstruction in obstructions:
        # circle_overlaps_polygon(pos, radius, obstruction), its bounding-box test written out
        if isinstance(obstruction, dict) and "box" in obstruction:
            x0, y0, x1, y1 = obstruction["box"]
            if x + reach <= x0 or x - reach >= x1 or y + reach <= y0 or y - reach >= y1:
                continue
        if signed_distance_to_polygon(pos, obstruction) < reach:
            return obstruction["id"]
    return None
