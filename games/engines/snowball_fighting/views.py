"""What one viewer may see of a game: ``view(state, seat)``; seat None is a spectator.

Everything a view holds about the garden and the combatants goes through :func:`sight`, the
one answer to "what may this viewer see". In the snowy garden everyone sees the whole map
and every combatant; the Fogbound variant will answer with the hexes a seat can see.

Never in a view: another seat's sealed setup or orders, the seed and generator counter.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engines.base import State, View
from games.engines.snowball_fighting import engine as E
from games.engines.snowball_fighting import orders as O
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, HexMap, mf


@dataclass(frozen=True)
class Sight:
    """What a viewer may see: every hex and combatant (``everything``), or only ``seats``."""

    everything: bool
    seats: frozenset[int]

    def sees(self, seat: int | None) -> bool:
        return seat is None or self.everything or seat in self.seats


def sight(state: State, viewer: int | None) -> Sight:
    """The one place that decides what ``viewer`` sees of the garden (all of it, in the snow)."""
    return Sight(everything=True, seats=frozenset(range(state["players"])))


@lru_cache(maxsize=None)
def _map_view(name: str) -> dict[str, Any]:
    garden: HexMap = MAPS[name]
    shed_around = [h for h in garden.neighbours(garden.shed) if h != KITCHEN]
    return {
        "name": garden.name,
        "rows": [chr(ord("A") + i) for i in range(garden.rows)],
        "cols": garden.cols,
        "hexes": list(garden.hexes),
        "path": sorted(garden.path, key=garden.hexes.index),
        "conifers": list(garden.conifers),
        "conifer_adjacent": sorted(garden.conifer_adjacent, key=garden.hexes.index),
        "snowmen": list(garden.snowmen),
        "shed": garden.shed,
        "avalanche": {side: list(cells) for side, cells in garden.avalanche.items()},
        "avalanche_safe": [h for h in shed_around if garden.avalanche_side_of(h) is None],
        "kitchen_door": garden.kitchen_door,
        "starts": list(garden.starts),
        "mf_per_segment": 4,
    }


def map_view(name: str) -> dict[str, Any]:
    """The static drawing data of a map (a fresh copy the caller may change)."""
    cached = _map_view(name)
    return {k: (list(v) if isinstance(v, list) else {s: list(c) for s, c in v.items()} if isinstance(v, dict) else v)
            for k, v in cached.items()}


def view(state: State, seat: int | None) -> View:
    """The JSON-safe picture of the game for ``seat`` (None: a spectator)."""
    n = state["players"]
    viewer = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n else None
    seen = sight(state, viewer)
    return {
        "game": E.SLUG,
        "phase": state["phase"],
        "turn": state["turn"],
        "segments_resolved": state["clock"],
        "players": n,
        "viewer": viewer,
        "options": dict(state["options"]),
        "map": map_view(state["options"]["map"]),
        "used": {k: list(v) for k, v in state["used"].items()},
        "waiting_for": E.asked_seats(state),
        "ready": list(state["ready"]),
        "combatants": [_combatant_view(state, x, seen) for x in range(n)] if state["combatants"] else [],
        "report": _report_view(state["report"], seen),
        "you": _you(state, viewer) if viewer is not None else None,
        "outcome": E.outcome(state),
    }


def _combatant_view(state: State, x: int, seen: Sight) -> dict[str, Any]:
    c = state["combatants"][x]
    if not seen.sees(x):
        return {"seat": x, "name": c["name"], "seen": False}
    first = O.first_segment(state, x) if state["phase"] == "orders" else None
    return {
        "seat": x, "seen": True, "name": c["name"], "hex": c["hex"], "in_kitchen": c["hex"] == KITCHEN,
        "hp": c["hp"], "vp": c["vp"], "ss": c["ss"], "dd": c["dd"], "status": c["status"],
        "recovering_next": c["recover"] == state["clock"] + 1,
        "hit_big_last_segment": c["big_hit"] == state["clock"] and state["clock"] > 0,
        "dry_until_segment": c["dry_until"], "nmr_streak": c["nmr_streak"],
        "acts_from_segment": first,
        "damage_dealt": c["dealt"], "damage_taken": c["taken"],
        "snowballs": {k: list(v) for k, v in c["tally"].items()},
    }


def _report_view(report: dict[str, Any] | None, seen: Sight) -> dict[str, Any] | None:
    if report is None:
        return None
    segments = []
    for seg in report["segments"]:
        events = [e for e in seg["events"] if seen.sees(e.get("seat"))]
        segments.append({
            "turn": seg["turn"], "segment": seg["segment"],
            "moves": [m for m in seg["moves"] if seen.sees(m["seat"])],
            "throws": [t for t in seg["throws"] if seen.sees(t["seat"])],
            "positions": {k: v for k, v in seg["positions"].items() if seen.sees(int(k))},
            "events": events,
            "lines": [e["text"] for e in events],
        })
    notes = [note for note in report["notes"] if seen.sees(note["seat"])]
    return {"turn": report["turn"], "notes": notes, "segments": segments}


def _you(state: State, seat: int) -> dict[str, Any]:
    """Private details for a player: its own sealed setup or orders, and what it is asked."""
    asked = seat in E.asked_seats(state)
    you: dict[str, Any] = {"seat": seat, "asked": asked, "ready": state["ready"][seat],
                           "setup": None, "orders": None, "plan": None, "preview": None,
                           "orders_help": None}
    if state["phase"] == "setup":
        mine = state["setup"][seat]
        you["setup"] = None if mine is None else {"name": mine["name"], "starts": list(mine["starts"])}
        return you
    if state["phase"] != "orders" or O.first_segment(state, seat) is None:
        return you
    you["orders_help"] = E.orders_description(state, seat)
    mine = state["orders"][seat]
    if mine is not None:
        you["orders"] = [_copy_order(o) for o in mine]
        contexts = O.plan(state, seat, mine)
        you["plan"] = [{"segment": k, "start": ctx["hex"], "ss": ctx["ss"], "dd": ctx["dd"],
                        "mf_left": _mf_left(state, o, ctx)}
                       for k, (o, ctx) in enumerate(zip(mine, contexts), start=1)]
        you["preview"] = O.preview(state, seat, mine)
    return you


def _mf_left(state: State, order: dict[str, Any] | None, ctx: dict[str, Any]) -> str | None:
    """MF left over after a move or collect-and-move order, as players write MF (e.g. "0.5")."""
    if order is None or order["type"] not in ("move", "collect_move"):
        return None
    garden = O.garden_of(state)
    spent = garden.route_cost(ctx["hex"], order["route"])
    if order["type"] == "collect_move":
        spent += R.COLLECT_COST[order["what"]] * order["count"]
    return mf(8 - spent)


def _copy_order(order: dict[str, Any] | None) -> dict[str, Any] | None:
    if order is None:
        return None
    out = dict(order)
    for key in ("route", "targets"):
        if key in out:
            out[key] = list(out[key])
    if "cases" in out:
        out["cases"] = [{"when": dict(c["when"]), "then": _copy_order(c["then"])} for c in out["cases"]]
        out["otherwise"] = _copy_order(out["otherwise"])
    return out
