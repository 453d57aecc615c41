"""The hex garden: references, neighbours, distances, throwing routes and the garden's features.

A map is a :class:`HexMap` value built from map data (``GARDEN_DATA`` is a verbatim copy of
``shared/data/snowball_fighting_garden.json``); the engine looks a game's map up by name in
:data:`MAPS`, so a second map (Fogbound) is a second entry, not a change to the rules.

Hexes are named as the rule book names them: a row letter A..W (north to south) and a column
1..13 (west to east), e.g. "K7". Columns are straight and flat-topped hexes step half a hex
between letters, so a hex exists where the letter's index (A = 0) plus the column is odd.
The kitchen is one more place, ``KITCHEN``, entered only through its door below W11 (Fogbound:
its two doors); a move that enters it ends there, so no route passes through the house.
"""
from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import shown
from games.engines.snowball_fighting.fogbound_garden import FOGBOUND_DATA

KITCHEN = "KITCHEN"
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVW"
# Row labels past Z (the Fogbound garden is 30 letters deep) go on as a spreadsheet's columns: AA, AB...
ROW_LABELS: tuple[str, ...] = tuple(chr(65 + i) for i in range(26)) + tuple(f"A{chr(65 + i)}" for i in range(26))
_ROW_INDEX = {label: i for i, label in enumerate(ROW_LABELS)}

GARDEN_DATA: dict[str, Any] = {
    "grid": {
        "cols": "1..13 west->east",
        "rows": "A..W north->south (house/kitchen south of row W)",
        "orientation": "flat-top hexes, straight vertical columns; 'doubled-height' coords: hex exists iff (letterIndex+col) even",
        "neighbours": "(r-2,c) N, (r+2,c) S, (r-1,c-1) NW, (r+1,c-1) SW, (r-1,c+1) NE, (r+1,c+1) SE",
        "distance": "dc+max(0,(dr-dc)/2)",
    },
    "start": ["A7", "C1", "I13", "S1", "W5", "W9"],
    "snowmen": ["B12", "Q3"],
    "shed": ["K7"],
    "avalanche_N": ["I7", "J6", "J8"],
    "avalanche_S": ["M7", "L8"],
    "avalanche_safe_note": "L6 (SW of shed) explicitly safe per rule 7",
    "conifers": ["E3", "E13", "R8"],
    "path": ["A11", "C11", "E11", "G11", "I11", "K11", "M11", "O11", "Q11", "S11", "U11", "W11"],
    "kitchen": {"node": "KITCHEN", "door_below": "W11", "adjacent_to": ["W11"]},
    "conifer_adjacent": [
        "D2", "F2", "C3", "G3", "D4", "F4", "Q7", "S7", "P8", "T8", "Q9", "S9", "D12", "F12", "C13", "G13",
    ],
    "_status": "RECONSTRUCTION: the original map image was not recoverable; every hex the rules name is "
    "placed where the rules put it, the rest is a faithful invention",
}

# Half movement factors: a step costs 2 (1 MF), a step from path to path 1 (0.5 MF).
STEP_COST = 2
PATH_STEP_COST = 1
MF_PER_SEGMENT = 8
_UNREACHABLE = 10**6


def parse_ref(ref: str, rows: int = len(ROW_LETTERS), cols: int = 13) -> tuple[int, int]:
    """(row index, column) of a reference such as "K7" (or "AB7" in a deeper garden);
    ValueError names a malformed one."""
    letters = ref[:2] if isinstance(ref, str) and ref[1:2].isalpha() else ref[:1] if isinstance(ref, str) else ""
    row = _ROW_INDEX.get(letters.upper(), rows)
    if not isinstance(ref, str) or len(ref) <= len(letters) or row >= rows:
        raise ValueError(f"{shown(ref)} is not a hex reference like 'K7'")
    try:
        col = int(ref[len(letters):])
    except ValueError:
        raise ValueError(f"{shown(ref)} is not a hex reference like 'K7'") from None
    if not 1 <= col <= cols or (row + col) % 2 != 1:
        raise ValueError(f"there is no hex {shown(ref)} in the garden")
    return row, col


def ref_of(row: int, col: int) -> str:
    return f"{ROW_LABELS[row]}{col}"


def hex_distance(a: str, b: str) -> int:
    """Hexes between two references as the crow flies (ignoring conifers and the shed)."""
    (ra, ca), (rb, cb) = parse_ref(a), parse_ref(b)
    dr, dc = abs(ra - rb), abs(ca - cb)
    return dc + max(0, (dr - dc) // 2)


@dataclass(frozen=True, eq=False)
class HexMap:
    """One garden: which hexes exist and what stands on them; routes are computed on demand."""

    name: str
    rows: int
    cols: int
    starts: tuple[str, ...]
    snowmen: tuple[str, ...]
    shed: str
    avalanche: dict[str, tuple[str, ...]]
    conifers: tuple[str, ...]
    conifer_adjacent: frozenset[str]
    path: frozenset[str]
    kitchen_door: str
    kitchen_doors: tuple[str, ...] = ()
    pond: frozenset[str] = frozenset()
    wheelbarrow: str | None = None
    fences: tuple[str, ...] = ()
    hexes: tuple[str, ...] = field(init=False)
    _neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    _throw_cache: dict[tuple[str, bool], dict[str, int]] = field(init=False, repr=False)
    _within_cache: dict[tuple[str, int], frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.kitchen_doors:
            object.__setattr__(self, "kitchen_doors", (self.kitchen_door,))
        hexes = tuple(ref_of(r, c) for r in range(self.rows) for c in range(1, self.cols + 1) if (r + c) % 2 == 1)
        present = set(hexes)
        neighbours: dict[str, tuple[str, ...]] = {}
        for h in hexes:
            r, c = parse_ref(h, self.rows, self.cols)
            around = []
            for dr, dc in ((-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.rows and 1 <= cc <= self.cols and ref_of(rr, cc) in present:
                    around.append(ref_of(rr, cc))
            if h in self.kitchen_doors:
                around.append(KITCHEN)
            neighbours[h] = tuple(around)
        neighbours[KITCHEN] = self.kitchen_doors
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "_neighbours", neighbours)
        object.__setattr__(self, "_throw_cache", {})
        object.__setattr__(self, "_within_cache", {})

    # ------------------------------------------------------------------ places

    def is_hex(self, ref: Any) -> bool:
        return isinstance(ref, str) and ref in self._neighbours and ref != KITCHEN

    def is_place(self, ref: Any) -> bool:
        """A hex or the kitchen: somewhere a combatant can be."""
        return isinstance(ref, str) and ref in self._neighbours and ref != self.shed

    def neighbours(self, ref: str) -> tuple[str, ...]:
        """The hexes (and the kitchen, from its door) one step from ``ref``."""
        return self._neighbours[ref]

    def distance(self, a: str, b: str) -> int:
        """Hexes between two hexes of this garden as the crow flies (nothing blocks it)."""
        (ra, ca), (rb, cb) = parse_ref(a, self.rows, self.cols), parse_ref(b, self.rows, self.cols)
        dr, dc = abs(ra - rb), abs(ca - cb)
        return dc + max(0, (dr - dc) // 2)

    def within(self, centre: str, reach: int) -> frozenset[str]:
        """Every hex at most ``reach`` hexes from ``centre`` (the shed included: fog, not walls)."""
        key = (centre, reach)
        found = self._within_cache.get(key)
        if found is None:
            found = frozenset(h for h in self.hexes if self.distance(centre, h) <= reach)
            self._within_cache[key] = found
        return found

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._neighbours.get(a, ())

    def on_path(self, ref: str) -> bool:
        return ref in self.path

    def near_conifer(self, ref: str) -> bool:
        return ref in self.conifer_adjacent

    def conifer_surroundings(self, conifer: str) -> tuple[str, ...]:
        """The hexes a Conifer Storm covers with snow besides the conifer's own hex."""
        return tuple(h for h in self._neighbours[conifer] if h != KITCHEN)

    def avalanche_side_of(self, ref: str) -> str | None:
        for side, cells in self.avalanche.items():
            if ref in cells:
                return side
        return None

    # ------------------------------------------------------------------ movement

    def step_cost(self, a: str, b: str) -> int:
        """Half-MF to step from ``a`` to the adjacent ``b``: 1 from path to path, else 2."""
        return PATH_STEP_COST if a in self.path and b in self.path else STEP_COST

    def route_problem(self, start: str, route: list[str], budget: int = MF_PER_SEGMENT) -> str | None:
        """Why ``route`` (the hexes entered, in order) cannot be walked from ``start``, or None."""
        if not route:
            return "a move must enter at least one hex"
        here, spent = start, 0
        for i, step in enumerate(route):
            if not isinstance(step, str) or step not in self._neighbours:
                return f"step {i + 1} of the route, {shown(step)}, is not a hex in the garden"
            if step == self.shed:
                return f"step {i + 1} of the route enters the shed ({self.shed}), which nobody can stand on"
            if not self.adjacent(here, step):
                return f"step {i + 1} of the route, {step}, is not next to {here}"
            if here == KITCHEN and i > 0:
                return (f"step {i + 1} of the route, {step}, goes on from the kitchen: a move that enters the "
                        "kitchen ends there (leave it with the next segment's move)")
            spent += self.step_cost(here, step)
            if spent > budget:
                return (f"the route costs {mf(self.route_cost(start, route))} MF by {step}, "
                        f"but only {mf(budget)} MF are free this segment")
            here = step
        return None

    def route_cost(self, start: str, route: list[str]) -> int:
        spent, here = 0, start
        for step in route:
            spent += self.step_cost(here, step)
            here = step
        return spent

    def _search(self, start: str, goal: str | None = None, budget: int | None = None,
                avoid: frozenset[str] = frozenset()) -> tuple[dict[str, int], dict[str, str]]:
        """Dijkstra from ``start`` over the places a combatant may enter (not the shed), ties
        broken by hex order: the cost of each place reached (within ``budget`` half-MF, if given)
        and the place each was entered from. Stops once ``goal`` is settled."""
        best = {start: 0}
        came: dict[str, str] = {}
        queue = [(0, start)]
        while queue:
            cost, here = heapq.heappop(queue)
            if here == goal:
                break
            if cost > best[here] or (here == KITCHEN and here != start):  # a move that enters the kitchen ends there
                continue
            for nxt in self._neighbours[here]:
                if nxt == self.shed or (nxt in avoid and nxt != goal):
                    continue
                c = cost + self.step_cost(here, nxt)
                if (budget is None or c <= budget) and c < best.get(nxt, _UNREACHABLE):
                    best[nxt] = c
                    came[nxt] = here
                    heapq.heappush(queue, (c, nxt))
        return best, came

    @staticmethod
    def _walk_back(start: str, goal: str, came: dict[str, str]) -> list[str]:
        route = [goal]
        while came[route[-1]] != start:
            route.append(came[route[-1]])
        return route[::-1]

    def cheapest_route(self, start: str, goal: str, avoid: frozenset[str] = frozenset()) -> list[str] | None:
        """The cheapest route from ``start`` to ``goal`` (hexes entered), ties broken by hex order,
        entering none of ``avoid`` on the way."""
        if start == goal:
            return []
        _, came = self._search(start, goal, avoid=avoid)
        return self._walk_back(start, goal, came) if goal in came else None

    def cheapest_routes(self, start: str, budget: int = MF_PER_SEGMENT) -> dict[str, tuple[int, list[str]]]:
        """Every place a move from ``start`` can end on within ``budget`` half-MF: its cost and the
        cheapest route there (the same route :meth:`cheapest_route` gives)."""
        best, came = self._search(start, budget=budget)
        return {place: (cost, self._walk_back(start, place, came)) for place, cost in best.items() if place != start}

    # ------------------------------------------------------------------ throwing

    def _throw_distances(self, source: str, avoid_shed: bool) -> dict[str, int]:
        """Shortest throwing route lengths from ``source``: no conifer (nor, if asked, the shed)
        may be passed through, though either may be the end of the route."""
        key = (source, avoid_shed)
        cached = self._throw_cache.get(key)
        if cached is not None:
            return cached
        dist = {source: 0}
        queue = deque([source])
        while queue:
            here = queue.popleft()
            if here != source and (here in self.conifers or (avoid_shed and here == self.shed)):
                continue
            for nxt in self._neighbours[here]:
                if nxt != KITCHEN and nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        self._throw_cache[key] = dist
        return dist

    def throw_range(self, a: str, b: str) -> int | None:
        """Range of a throw from ``a`` to ``b``: hexes along the shortest route not passing
        through a conifer (None when there is no such route)."""
        return self._throw_distances(a, False).get(b)

    def over_shed(self, a: str, b: str) -> bool:
        """True when every shortest throwing route from ``a`` to ``b`` crosses the shed."""
        if self.shed in (a, b):
            return False
        short = self._throw_distances(a, False).get(b)
        around = self._throw_distances(a, True).get(b)
        return short is not None and (around is None or around > short)


def mf(half_mf: int) -> str:
    """Half movement factors as players write them: 3, 3.5."""
    return str(half_mf // 2) if half_mf % 2 == 0 else f"{half_mf / 2:g}"


def map_from_data(name: str, data: dict[str, Any]) -> HexMap:
    """A :class:`HexMap` from map data shaped like ``GARDEN_DATA`` (``rows``/``cols`` optional:
    the snowy garden's 23 letters by 13 columns; ``kitchen.doors``, ``pond``, ``wheelbarrow``
    and ``fences`` optional: the Fogbound garden has them)."""
    return HexMap(
        name=name,
        rows=data.get("rows", len(ROW_LETTERS)),
        cols=data.get("cols", 13),
        starts=tuple(data["start"]),
        snowmen=tuple(data["snowmen"]),
        shed=data["shed"][0],
        avalanche={"N": tuple(data["avalanche_N"]), "S": tuple(data["avalanche_S"])},
        conifers=tuple(data["conifers"]),
        conifer_adjacent=frozenset(data["conifer_adjacent"]),
        path=frozenset(data["path"]),
        kitchen_door=data["kitchen"]["door_below"],
        kitchen_doors=tuple(data["kitchen"].get("doors", ())),
        pond=frozenset(data.get("pond", ())),
        wheelbarrow=data.get("wheelbarrow"),
        fences=tuple(data.get("fences", ())),
    )


GARDEN = map_from_data("garden", GARDEN_DATA)
FOGBOUND = map_from_data("fogbound", FOGBOUND_DATA)
MAPS: dict[str, HexMap] = {"garden": GARDEN, "fogbound": FOGBOUND}
