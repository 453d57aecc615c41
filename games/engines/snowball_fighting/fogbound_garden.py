"""The Fogbound garden (rule book, "Fogbound Variant" 1; RULINGS Snowball Fighting 13), as data.

15 hexes north-south by 12 east-west, numbered as the snowy garden is: a row label A..Z,
AA..AD (north to south) and a column 1..12 (west to east); a hex exists where the row's
index plus the column is odd, so every column holds 15 hexes. Footpaths run along the west
edge (column 1), the east edge (column 12) and the north fence (rows A and B); the west
path ends at the kitchen door AC1, the east one at AD12, both in the house wall along the
south edge. Fences stand on the north, east and west sides. The three gnomes are not here:
the game's seeded generator places them at the start (``gnome_hexes``).
"""
from __future__ import annotations

from typing import Any

ROWS = 30
COLS = 12
_LABELS = tuple(chr(65 + i) for i in range(26)) + tuple(f"A{chr(65 + i)}" for i in range(4))


def _ref(row: int, col: int) -> str:
    return f"{_LABELS[row]}{col}"


def _around(ref: str) -> list[str]:
    letters = ref[:2] if ref[1].isalpha() else ref[:1]
    row, col = _LABELS.index(letters), int(ref[len(letters):])
    out = []
    for dr, dc in ((-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1)):
        r, c = row + dr, col + dc
        if 0 <= r < ROWS and 1 <= c <= COLS:
            out.append(_ref(r, c))
    return out


_WEST_PATH = [_ref(r, 1) for r in range(0, ROWS, 2)]          # A1 .. AC1
_EAST_PATH = [_ref(r, COLS) for r in range(1, ROWS, 2)]       # B12 .. AD12
_NORTH_PATH = [_ref(0 if c % 2 else 1, c) for c in range(1, COLS + 1)]  # A1 B2 A3 .. B12
CONIFERS = ["D10", "M3", "W9"]

FOGBOUND_DATA: dict[str, Any] = {
    "rows": ROWS,
    "cols": COLS,
    "start": ["AB2", "AC1", "AD2", "AB12", "AC11", "AD12"],
    "corners": {"SW": ["AB2", "AC1", "AD2"], "SE": ["AB12", "AC11", "AD12"]},
    "snowmen": ["H8", "R10", "X6"],
    "shed": ["G3"],
    "avalanche_N": ["E3", "F2", "F4"],
    "avalanche_S": ["I3", "H4"],
    "conifers": CONIFERS,
    "conifer_adjacent": sorted({h for c in CONIFERS for h in _around(c)} - set(CONIFERS)),
    "path": sorted(set(_WEST_PATH + _EAST_PATH + _NORTH_PATH)),
    "kitchen": {"node": "KITCHEN", "door_below": "AC1", "doors": ["AC1", "AD12"]},
    "pond": ["O7", "P6"],
    "wheelbarrow": "T8",
    "wheelbarrow_dirigibles": 3,
    "gnomes": 3,
    "gnome_distance_from_starts": 3,
    "fences": ["N", "E", "W"],
}
