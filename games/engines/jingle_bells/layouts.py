"""Obstruction layouts for the 50 x 30 cm table: named presets and a seeded random one.

An obstruction is ``{"id", "label", "points", "edges", "box"}``: a convex polygon with its
edge normals and bounding box worked out once (see ``geometry.obstacle``). Every
layout keeps the two deployment strips (10 cm from each short edge) and the back edges
clear, so both sides can always set up and run-away characters can always come back,
and leaves at least ``MIN_GAP`` between obstructions so a base can pass between them.
"""
from __future__ import annotations

import random
from typing import Any

from .geometry import bounding_box, obstacle, rectangle, regular_polygon

WIDTH = 50.0
HEIGHT = 30.0
CLEAR_STRIP = 10.0
MIN_GAP = 3.0

Obstruction = dict[str, Any]


def _box(label: str, x0: float, y0: float, x1: float, y1: float) -> Obstruction:
    return {"label": label, "points": rectangle(x0, y0, x1, y1)}


def _jar(label: str, cx: float, cy: float, r: float) -> Obstruction:
    return {"label": label, "points": regular_polygon(cx, cy, r)}


def _numbered(pieces: list[Obstruction]) -> list[Obstruction]:
    return [obstacle(piece["points"], id=f"o{i + 1}", label=piece["label"]) for i, piece in enumerate(pieces)]


PRESETS: dict[str, tuple[str, list[Obstruction]]] = {
    "garden": ("Back garden", _numbered([
        _box("shed", 22.0, 12.0, 28.0, 18.0),
        _jar("bird bath", 15.0, 6.0, 1.8),
        _jar("bird bath", 35.0, 24.0, 1.8),
        _box("hedge", 13.0, 20.0, 17.0, 26.0),
        _box("hedge", 33.0, 4.0, 37.0, 10.0),
        _box("bench", 23.0, 3.0, 27.0, 5.0),
        _box("bench", 23.0, 25.0, 27.0, 27.0),
    ])),
    "park": ("Park", _numbered([
        _jar("tree", 25.0, 15.0, 2.5),
        _box("wall", 14.0, 9.0, 16.0, 15.0),
        _box("wall", 34.0, 15.0, 36.0, 21.0),
        _jar("bin", 19.0, 24.0, 1.5),
        _jar("bin", 31.0, 6.0, 1.5),
        _box("sledge", 11.0, 21.0, 15.0, 23.0),
        _box("sledge", 35.0, 7.0, 39.0, 9.0),
        _box("bench", 23.0, 2.0, 27.0, 4.0),
    ])),
    "street": ("Street", _numbered([
        _box("parked car", 20.0, 5.0, 30.0, 9.0),
        _box("parked car", 20.0, 21.0, 30.0, 25.0),
        _box("post box", 14.0, 14.0, 16.0, 16.0),
        _box("post box", 34.0, 14.0, 36.0, 16.0),
        _jar("lamp post", 12.0, 5.0, 1.0),
        _jar("lamp post", 38.0, 25.0, 1.0),
    ])),
}

RANDOM = "random"
DEFAULT = "garden"
CHOICES: tuple[tuple[str, str], ...] = tuple((name, label) for name, (label, _) in PRESETS.items()) + (
    (RANDOM, "Random"),
)
RANDOM_LABELS = ("box", "book pile", "toy car", "jar", "tin", "remote control", "mug")


def _apart(a: Obstruction, b: Obstruction) -> bool:
    ax0, ay0, ax1, ay1 = bounding_box(a["points"])
    bx0, by0, bx1, by1 = bounding_box(b["points"])
    return bx0 - ax1 >= MIN_GAP or ax0 - bx1 >= MIN_GAP or by0 - ay1 >= MIN_GAP or ay0 - by1 >= MIN_GAP


def random_layout(rng: random.Random) -> list[Obstruction]:
    """Six to eight boxes and jars between the deployment strips, spaced so bases pass between."""
    count = rng.randint(6, 8)
    placed: list[Obstruction] = []
    attempts = 0
    while len(placed) < count:
        attempts += 1
        if attempts % 200 == 0:
            placed = []
        label = rng.choice(RANDOM_LABELS)
        if label in ("jar", "tin", "mug"):
            r = round(rng.uniform(1.0, 2.5), 1)
            cx = round(rng.uniform(CLEAR_STRIP + r, WIDTH - CLEAR_STRIP - r), 1)
            cy = round(rng.uniform(r, HEIGHT - r), 1)
            candidate = _jar(label, cx, cy, r)
        else:
            w, h = round(rng.uniform(2.0, 7.0), 1), round(rng.uniform(2.0, 7.0), 1)
            x0 = round(rng.uniform(CLEAR_STRIP, WIDTH - CLEAR_STRIP - w), 1)
            y0 = round(rng.uniform(0.0, HEIGHT - h), 1)
            candidate = _box(label, x0, y0, x0 + w, y0 + h)
        if all(_apart(candidate, other) for other in placed):
            placed.append(candidate)
    return _numbered(placed)


def layout(name: str, rng: random.Random) -> list[Obstruction]:
    """The obstructions for a layout option value; ``rng`` is used only by the random layout."""
    if name == RANDOM:
        return random_layout(rng)
    return [obstacle(o["points"], id=o["id"], label=o["label"]) for o in PRESETS[name][1]]
