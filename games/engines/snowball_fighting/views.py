"""What one viewer may see of a game: ``view(state, seat)``; seat None is a spectator.

Everything a view holds about the garden and the combatants goes through :func:`sight`, the
one answer to "what may this viewer see". In the snowy garden everyone sees the whole map
and every combatant; in the Fogbound garden a seat sees the hexes within its vision and who
stands in them, and its last report holds what it saw in each segment (``fog.py``).

Never in a view: another seat's sealed setup or orders, the seed and generator counter.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engines.base import State, View
from games.engines.snowball_fighting import engine as E
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import orders as O
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, ROW_LABELS, HexMap, mf


@dataclass(frozen=True)
class Sight:
    """What a viewer may see: every hex and combatant (``everything``), or only ``seats``
    and the garden ``hexes``."""

    everything: bool
    seats: frozenset[int]
    hexes: frozenset[str] = frozenset()

    def sees(self, seat: int | None) -> bool:
        return seat is None or self.everything or seat in self.seats

    def sees_hex(self, ref: str | None) -> bool:
        return self.everything or ref in self.hexes


def sight(state: State, viewer: int | None) -> Sight:
    """The one place that decides what ``viewer`` sees of the garden now: all of it in the snow,
    after a Fogbound game, and for a Fogbound spectator when the creator chose so; otherwise a
    seat sees the hexes within its vision and the combatants standing in them (itself always),
    a spectator nothing."""
    everyone = frozenset(range(state["players"]))
    if (not F.is_fogbound(state) or state["phase"] == "over"
            or (viewer is None and state["fog"]["spectators_see_all"])):
        return Sight(everything=True, seats=everyone)
    if viewer is None:
        return Sight(everything=False, seats=frozenset())
    hexes = F.visible_now(state, viewer)
    seen = {viewer} | {x for x in everyone if F.eye(state, x) in hexes}
    return Sight(everything=False, seats=frozenset(seen), hexes=hexes)


def segment_sight(state: State, seg: dict[str, Any], viewer: int | None) -> Sight:
    """What ``viewer`` saw during one segment of the last report: the hexes within its vision of
    every hex it stood on or passed through, and the combatants standing in them after the moves."""
    now = sight(state, viewer)
    if now.everything or "sight" not in seg:
        return now
    if viewer is None:
        return now
    hexes = frozenset(seg["sight"][viewer])
    return Sight(everything=False, seats=frozenset(seg["seen"][viewer]) | {viewer}, hexes=hexes)


@lru_cache(maxsize=None)
def _map_view(name: str) -> dict[str, Any]:
    garden: HexMap = MAPS[name]
    shed_around = [h for h in garden.neighbours(garden.shed) if h != KITCHEN]
    return {
        "name": garden.name,
        "rows": list(ROW_LABELS[:garden.rows]),
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
        "kitchen_doors": list(garden.kitchen_doors),
        "starts": list(garden.starts),
        "mf_per_segment": 4,
        "pond": sorted(garden.pond, key=garden.hexes.index),
        "wheelbarrow": garden.wheelbarrow,
        "fences": list(garden.fences),
    }


def map_view(name: str) -> dict[str, Any]:
    """The static drawing data of a map (a fresh copy the caller may change)."""
    cached = _map_view(name)
    return {k: (list(v) if isinstance(v, list) else {s: list(c) for s, c in v.items()} if isinstance(v, dict) else v)
            for k, v in cached.items()}


def _used_view(state: State, seen: Sight) -> dict[str, list[str]]:
    """Conifers stormed, shed sides avalanched, heads taken: in the fog, only those in sight."""
    if seen.everything:
        return {k: list(v) for k, v in state["used"].items()}
    garden = MAPS[state["options"]["map"]]
    return {"conifers": [h for h in state["used"]["conifers"] if seen.sees_hex(h)],
            "sides": list(state["used"]["sides"]) if seen.sees_hex(garden.shed) else [],
            "heads": [h for h in state["used"]["heads"] if seen.sees_hex(h)]}


def _fog_view(state: State, viewer: int | None, seen: Sight) -> dict[str, Any]:
    """The ``fog`` part of a Fogbound view: vision, the hexes in sight, gnomes found, sounds heard."""
    fog = state["fog"]
    garden = MAPS[state["options"]["map"]]
    if seen.everything:
        visible = list(garden.hexes)
        gnomes = list(fog["gnomes"])
    else:
        visible = [h for h in garden.hexes if h in seen.hexes]
        gnomes = list(fog["found"][viewer]) if viewer is not None else []
    sounds = [dict(x) for x in fog["sounds"][viewer]] if viewer is not None else []
    return {"vision": fog["vision"], "visible": visible, "gnomes": gnomes, "sounds": sounds,
            "spectators_see_all": fog["spectators_see_all"],
            "wheelbarrow": fog["barrow"] if seen.sees_hex(garden.wheelbarrow) else None,
            "opening": state["phase"] == "orders" and state["turn"] <= F.OPENING_TURNS}


def view(state: State, seat: int | None) -> View:
    """The JSON-safe picture of the game for ``seat`` (None: a spectator)."""
    n = state["players"]
    viewer = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n else None
    seen = sight(state, viewer)
    out = {
        "game": E.SLUG,
        "phase": state["phase"],
        "turn": state["turn"],
        "segments_resolved": state["clock"],
        "players": n,
        "viewer": viewer,
        "options": dict(state["options"]),
        "map": map_view(state["options"]["map"]),
        "used": _used_view(state, seen),
        "waiting_for": E.asked_seats(state),
        "ready": list(state["ready"]),
        "combatants": [_combatant_view(state, x, seen) for x in range(n)] if state["combatants"] else [],
        "report": _report_view(state, viewer),
        "you": _you(state, viewer) if viewer is not None else None,
        "outcome": E.outcome(state),
    }
    if F.is_fogbound(state):
        out["fog"] = _fog_view(state, viewer, seen)
    return out


def _combatant_view(state: State, x: int, seen: Sight) -> dict[str, Any]:
    c = state["combatants"][x]
    if not seen.sees(x):
        return {"seat": x, "name": c["name"], "seen": False, "vp": c["vp"]}
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


def _report_view(state: State, viewer: int | None) -> dict[str, Any] | None:
    report = state["report"]
    if report is None:
        return None
    garden = MAPS[state["options"]["map"]]
    segments = []
    first: Sight | None = None
    for seg in report["segments"]:
        seen = segment_sight(state, seg, viewer)
        first = first or seen
        if seen.everything:
            events = list(seg["events"])
            moves, throws = list(seg["moves"]), list(seg["throws"])
            positions = dict(seg["positions"])
        else:
            events = _events_read(garden, seg, viewer, seen)
            me = -1 if viewer is None else viewer
            moves = [m for m in (F.clipped_move(m, me, seen.hexes) for m in seg["moves"]) if m is not None]
            throws = [t for t in seg["throws"] if t["seat"] == viewer or (
                seen.sees(t["seat"]) and t["from"] in seen.hexes and t["to"] in seen.hexes
                and (not isinstance(t["target"], int) or seen.sees(t["target"])))]
            positions = {k: v for k, v in seg["positions"].items() if int(k) == viewer or v in seen.hexes}
        view = {"turn": seg["turn"], "segment": seg["segment"], "moves": moves, "throws": throws,
                "positions": positions, "events": events, "lines": [e["text"] for e in events]}
        if F.is_fogbound(state):
            view["visible"] = list(garden.hexes) if seen.everything else [h for h in garden.hexes if h in seen.hexes]
        segments.append(view)
    notes = [note for note in report["notes"] if first is None or first.everything or note["seat"] == viewer]
    out = {"turn": report["turn"], "notes": notes, "segments": segments}
    if "vision" in report:
        out["vision"] = dict(report["vision"])
    return out


def _events_read(garden: HexMap, seg: dict[str, Any], viewer: int | None, seen: Sight) -> list[dict[str, Any]]:
    """The segment's events as ``viewer`` read them (who read what was settled at resolution)."""
    if "readers" not in seg:
        me = -1 if viewer is None else viewer
        return [e for e in (F.readable(garden, e, me, seen.hexes, seen.seats) for e in seg["events"]) if e is not None]
    out = []
    for e, readers in zip(seg["events"], seg["readers"]):
        if readers is None:
            out.append(e)
        elif viewer in readers[0]:
            out.append(e)
        elif viewer in readers[1]:
            out.append(F.readable(garden, e, viewer, seen.hexes, seen.seats))
    return out


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
