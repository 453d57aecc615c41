"""The 24 x 24 inch Christmas villages: terrain kinds, two presets and a seeded random one.

A terrain piece is ``{"id", "kind", "label", "points", "blocks_movement", "blocks_sight",
"vaultable", "snowless", "indoors"}``: a convex polygon (corners in inches) with the
properties of its kind. Every village keeps the ground within ``CORNER_CLEAR`` inches of
each corner free of anything that blocks movement, so every team can set up within 6
inches of its corner, and leaves ``MIN_GAP`` inches between pieces that block movement so a
1-inch base can pass between them.
"""
from __future__ import annotations

import math
import random
from typing import Any

from .geometry import SIZE

CORNER_CLEAR = 7.0
MIN_GAP = 1.5

TERRAIN_KINDS: dict[str, dict[str, Any]] = {
    # kind: label, blocks movement, blocks sight, vaultable (shorter than a Kid), snowless, indoors
    "house": {"label": "house", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
              "snowless": False, "indoors": True},
    "shop": {"label": "shop", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
             "snowless": False, "indoors": True},
    "church": {"label": "church", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
               "snowless": False, "indoors": True},
    "tree": {"label": "Christmas tree", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
             "snowless": False, "indoors": False},
    "hedge": {"label": "hedge", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
              "snowless": False, "indoors": False},
    "stall": {"label": "market stall", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
              "snowless": False, "indoors": False},
    "car": {"label": "parked car", "blocks_movement": True, "blocks_sight": True, "vaultable": False,
            "snowless": False, "indoors": False},
    "lamp": {"label": "lamp post", "blocks_movement": True, "blocks_sight": False, "vaultable": False,
             "snowless": False, "indoors": False},
    "wall": {"label": "low wall", "blocks_movement": True, "blocks_sight": False, "vaultable": True,
             "snowless": False, "indoors": False},
    "fence": {"label": "low fence", "blocks_movement": True, "blocks_sight": False, "vaultable": True,
              "snowless": False, "indoors": False},
    "bench": {"label": "bench", "blocks_movement": True, "blocks_sight": False, "vaultable": True,
              "snowless": False, "indoors": False},
    "fountain": {"label": "frozen fountain", "blocks_movement": True, "blocks_sight": False, "vaultable": True,
                 "snowless": False, "indoors": False},
    "road": {"label": "gritted road", "blocks_movement": False, "blocks_sight": False, "vaultable": False,
             "snowless": True, "indoors": False},
    "path": {"label": "gritted path", "blocks_movement": False, "blocks_sight": False, "vaultable": False,
             "snowless": True, "indoors": False},
}

CORNERS: tuple[tuple[float, float], ...] = ((0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE))
CORNER_NAMES: tuple[str, ...] = ("south-west", "south-east", "north-east", "north-west")


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def octagon(cx: float, cy: float, r: float) -> list[list[float]]:
    """A round thing (a tree, a fountain) as the octagon circumscribed by radius ``r``."""
    step = 2 * math.pi / 8
    return [[round(cx + r * math.cos(i * step + step / 2), 4), round(cy + r * math.sin(i * step + step / 2), 4)]
            for i in range(8)]


def _piece(kind: str, points: list[list[float]], label: str | None = None) -> dict[str, Any]:
    props = TERRAIN_KINDS[kind]
    return {"kind": kind, "points": points, **props, "label": label or props["label"]}


def _numbered(pieces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"t{i + 1}", **piece} for i, piece in enumerate(pieces)]


PRESETS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "green": ("Village green", _numbered([
        _piece("path", rect(0.0, 11.4, 24.0, 12.6)),
        _piece("tree", octagon(12.0, 12.0, 1.5), "the big Christmas tree"),
        _piece("house", rect(9.0, 0.5, 15.0, 4.5), "the old rectory"),
        _piece("church", rect(9.0, 19.5, 15.0, 23.5)),
        _piece("wall", rect(4.5, 9.5, 8.0, 9.9)),
        _piece("wall", rect(16.0, 14.1, 19.5, 14.5)),
        _piece("stall", rect(6.5, 6.0, 8.5, 7.5)),
        _piece("stall", rect(15.5, 16.5, 17.5, 18.0)),
        _piece("bench", rect(15.5, 7.5, 17.5, 8.0)),
        _piece("bench", rect(6.5, 16.0, 8.5, 16.5)),
        _piece("fountain", octagon(19.5, 10.0, 0.9)),
        _piece("hedge", rect(3.0, 13.5, 4.2, 17.5)),
    ])),
    "high_street": ("High street", _numbered([
        _piece("road", rect(10.0, 0.0, 14.0, 24.0)),
        _piece("shop", rect(4.5, 8.0, 9.0, 16.0), "the toy shop"),
        _piece("shop", rect(15.0, 8.0, 19.5, 16.0), "the bakery"),
        _piece("car", rect(10.5, 3.0, 12.0, 6.5)),
        _piece("car", rect(12.0, 17.5, 13.5, 21.0)),
        _piece("lamp", octagon(8.6, 4.0, 0.3)),
        _piece("lamp", octagon(15.4, 20.0, 0.3)),
        _piece("fence", rect(0.5, 11.8, 2.8, 12.2)),
        _piece("fence", rect(21.2, 11.8, 23.5, 12.2)),
        _piece("hedge", rect(15.5, 3.0, 17.5, 4.5)),
        _piece("tree", octagon(7.5, 19.5, 1.2)),
        _piece("bench", rect(4.5, 6.0, 6.5, 6.5)),
    ])),
}


def corners_words(names: list[str], whose: str) -> str:
    """A team's set-up corners as a hint names them: "your corner (south-west)", or with two
    teams, each of which sets up at two corners, "one of your corners (south-west or north-east)"."""
    if not names:
        return f"{whose} corner"
    if len(names) == 1:
        return f"{whose} corner ({names[0]})"
    return f"one of {whose} corners ({', '.join(names[:-1])} or {names[-1]})"


RANDOM = "random"
DEFAULT = "green"
CHOICES: tuple[tuple[str, str], ...] = tuple((name, label) for name, (label, _) in PRESETS.items()) + (
    (RANDOM, "Random village"),
)
RANDOM_KINDS = ("house", "shop", "tree", "hedge", "stall", "car", "lamp", "wall", "fence", "bench", "fountain")


def _box_of(points: list[list[float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def corner_distance(points: list[list[float]]) -> float:
    """The least distance from any village corner to a piece's bounding box."""
    x0, y0, x1, y1 = _box_of(points)
    best = math.inf
    for cx, cy in CORNERS:
        dx = max(x0 - cx, 0.0, cx - x1)
        dy = max(y0 - cy, 0.0, cy - y1)
        best = min(best, math.hypot(dx, dy))
    return best


def _apart(a: list[list[float]], b: list[list[float]]) -> bool:
    ax0, ay0, ax1, ay1 = _box_of(a)
    bx0, by0, bx1, by1 = _box_of(b)
    return bx0 - ax1 >= MIN_GAP or ax0 - bx1 >= MIN_GAP or by0 - ay1 >= MIN_GAP or ay0 - by1 >= MIN_GAP


def random_village(rng: random.Random) -> list[dict[str, Any]]:
    """A gritted road across the village and 9-12 pieces, clear of the corners and spaced apart."""
    pieces: list[dict[str, Any]] = []
    width = round(rng.uniform(1.5, 2.5), 1)
    at = round(rng.uniform(8.0, 16.0 - width), 1)
    pieces.append(_piece("road", rect(0.0, at, SIZE, at + width) if rng.random() < 0.5 else rect(at, 0.0, at + width, SIZE)))
    count = rng.randint(9, 12)
    placed: list[dict[str, Any]] = []
    attempts = 0
    while len(placed) < count:
        attempts += 1
        if attempts % 400 == 0:
            placed = []
        kind = rng.choice(RANDOM_KINDS)
        if kind in ("tree", "fountain", "lamp"):
            r = round(rng.uniform(0.3, 0.5), 1) if kind == "lamp" else round(rng.uniform(0.8, 1.6), 1)
            points = octagon(round(rng.uniform(r, SIZE - r), 1), round(rng.uniform(r, SIZE - r), 1), r)
        else:
            if kind in ("wall", "fence", "bench"):
                long, short = round(rng.uniform(2.0, 4.0), 1), round(rng.uniform(0.3, 0.6), 1)
            elif kind in ("house", "shop"):
                long, short = round(rng.uniform(3.5, 6.0), 1), round(rng.uniform(3.0, 4.5), 1)
            else:
                long, short = round(rng.uniform(1.5, 3.5), 1), round(rng.uniform(1.2, 2.0), 1)
            w, h = (long, short) if rng.random() < 0.5 else (short, long)
            x0 = round(rng.uniform(0.0, SIZE - w), 1)
            y0 = round(rng.uniform(0.0, SIZE - h), 1)
            points = rect(x0, y0, round(x0 + w, 1), round(y0 + h, 1))
        if corner_distance(points) < CORNER_CLEAR:
            continue
        if all(_apart(points, other["points"]) for other in placed):
            placed.append(_piece(kind, points))
    return _numbered(pieces + placed)


def village(name: str, rng: random.Random) -> list[dict[str, Any]]:
    """The terrain for a village option value; ``rng`` is used only by the random village."""
    if name == RANDOM:
        return random_village(rng)
    return [dict(piece, points=[list(p) for p in piece["points"]]) for piece in PRESETS[name][1]]
