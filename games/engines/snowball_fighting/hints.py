"""Hints for a first-time Snowball Fighting player (see games/engines/hinting.py).

Why an order is not offered is the engine's own answer: each kind of order is tried in each
segment the seat writes, after its own earlier orders as written (later ones left out), through
``engine.apply`` with every target the seat can see; the refusals are gathered per kind. A throw
the engine accepts but that can hit nobody the seat sees now (no throwing route, or beyond the
Mendham Maniac's reach) is said too, as is how far a move reaches.
"""
from __future__ import annotations

from itertools import permutations
from typing import Any

from games.engines.base import GameError
from games.engines.hinting import build

from . import engine as E
from . import orders as O
from . import rules as R
from . import views as V
from .garden import KITCHEN, MF_PER_SEGMENT, mf

EXPLAINED = {
    "setup": ("Choose your nom de guerre and the start hexes you would like.", "start"),
    "orders": ("Write what your player does in each of the turn's three segments: move, collect, throw.", "turns"),
    "ready": ("Say your orders are final; the turn is resolved once everyone has.", "turns"),
}
# at the setup: the page's Ready saves the setup and seals it at once (``setup`` with ``ready``),
# so the setup's own words tell of it from the start, before anything is saved
SETUP_EXPLAINED = {
    **EXPLAINED,
    "setup": ("Keep your nom de guerre and the start hexes you would like; you may change them until you are "
              "ready. Ready saves them and seals them: the game starts once everyone is ready.", "start"),
    "ready": ("Save your nom de guerre and start hexes and seal them: the game starts once everyone is ready.",
              "start"),
}
LABELS = {"reach": "Hexes out of reach",
          "segment": "Segments in the kitchen", "ready": "Orders ready: seal them"}
THROW_KINDS = tuple(R.THROWS)
ANCHORS = {"reach": "moving-and-collecting", "collect": "moving-and-collecting", "segment": "hit-points",
           "ready": "turns", **{kind: "throws" for kind in THROW_KINDS}}


def _seen_targets(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The other combatants this seat sees now and could name as a target (not gone)."""
    view = V.view(state, seat)
    return [c for c in view["combatants"] if c["seat"] != seat and c.get("seen") and c["status"] != E.GONE]


def _candidates(state: dict[str, Any], kind: str, targets: list[int]) -> list[dict[str, Any]]:
    """Every order of ``kind`` the order tools could write, one per target the seat sees."""
    garden = O.garden_of(state)
    if kind in ("rattlesnake", "dirigible"):
        extra = [{"type": kind, "target": "nearest"}] if kind == "rattlesnake" else []
        return [{"type": kind, "target": t} for t in targets] + extra
    if kind == "baker":
        return [{"type": kind, "target": t, "bounce": "spot"} for t in targets]
    if kind == "bolero":
        return [{"type": kind, "targets": list(p)} for p in permutations(targets, 2)] or \
            [{"type": kind, "targets": [t, t]} for t in targets[:1]]
    if kind == "storm":
        return [{"type": kind, "conifer": c} for c in garden.conifers]
    if kind == "avalanche":
        return [{"type": kind, "side": side} for side in ("N", "S")]
    if kind == "collect":
        return [{"type": "collect", "what": "ss", "count": 1}]
    return [{"type": kind}]


def _refusal(state: dict[str, Any], seat: int, written: list[Any], segment: int, order: dict[str, Any]) -> str | None:
    """The engine's reason for refusing ``order`` in ``segment`` after the seat's earlier orders; None if taken."""
    segments = [written[k] if k < segment - 1 else None for k in range(O.SEGMENTS)]
    segments[segment - 1] = order
    try:
        E.apply(state, seat, {"type": "orders", "segments": segments})
    except GameError as exc:
        text = str(exc)
        prefix = f"{O.where(segment)}: "
        return text[len(prefix):] if text.startswith(prefix) else text
    return None


def _unreachable(state: dict[str, Any], kind: str, here: str, targets: list[dict[str, Any]]) -> str | None:
    """Why an accepted throw of ``kind`` from ``here`` can hit none of the combatants seen now, or None."""
    if kind not in ("rattlesnake", "baker", "bolero", "dirigible", "maniac") or not targets:
        return None
    garden = O.garden_of(state)
    standing = [c for c in targets if c.get("hex") and c["hex"] != KITCHEN and c["status"] in E.TARGETABLE]
    if not standing:
        return "nobody you can see stands in the garden to be hit now"
    distances = {c["name"]: garden.throw_range(here, c["hex"]) for c in standing}
    if all(d is None for d in distances.values()):
        return f"no throwing route from {here} to anyone: conifers stand in every line"
    if kind == "maniac":
        reach = R.THROWS["maniac"].range
        if all(d is None or d > reach for d in distances.values()):
            near = min(d for d in distances.values() if d is not None)
            return f"a Mendham Maniac reaches {reach} hexes, and the nearest opponent is {near} hexes from {here} now"
    return None


def _move_reach(state: dict[str, Any], here: str) -> str:
    garden = O.garden_of(state)
    reach = O.move_routes(garden, here)
    return (f"from {here} a move reaches {len(reach)} places within {mf(MF_PER_SEGMENT)} MF (the amber-edged hexes "
            f"when you pick Move); a hex farther away costs more than a segment's MF. Nobody can enter the shed "
            f"({garden.shed}), and the kitchen only through its door ({garden.kitchen_door})")


def _segments_words(segments: list[int]) -> str:
    if len(segments) == 1:
        return f"segment {segments[0]}"
    return "segments " + ", ".join(str(k) for k in segments[:-1]) + f" and {segments[-1]}"


def not_offered(state: dict[str, Any], seat: int, legal_actions: list[dict[str, Any]]) -> list[dict[str, str]]:
    """What the seat cannot order now and why, in the engine's words, merged across segments."""
    kinds = {a.get("type") for a in legal_actions}
    if state.get("phase") != "orders" or "orders" not in kinds:
        return []
    first = O.first_segment(state, seat) or 1
    written = list(state["orders"][seat] or [None] * O.SEGMENTS)
    try:
        contexts = O.plan(state, seat, written)
    except GameError:
        contexts = [O.starting_point(state, seat)] * O.SEGMENTS
    seen = _seen_targets(state, seat)
    targets = [c["seat"] for c in seen]
    reasons: dict[tuple[str, str], list[int]] = {}
    if first > 1:
        why = _refusal(state, seat, written, 1, {"type": "collect", "what": "ss", "count": 1})
        if why:
            reasons[("segment", why)] = list(range(1, first))
    for segment in range(first, O.SEGMENTS + 1):
        here = contexts[segment - 1]["hex"]
        for kind in ("collect", *THROW_KINDS):
            refusals = [_refusal(state, seat, written, segment, order) for order in _candidates(state, kind, targets)]
            if refusals and all(refusals):
                why = "; ".join(dict.fromkeys(r for r in refusals if r))
            elif not refusals:
                why = "there is nobody you can see to aim it at"
            else:
                why = _unreachable(state, kind, here, seen)
            if why:
                reasons.setdefault((kind, why), []).append(segment)
        reasons.setdefault(("reach", _move_reach(state, here)), []).append(segment)
    missing = [{"type": kind, "why": f"{_segments_words(segments)}: {why}", "rule": ANCHORS[kind]}
               for (kind, why), segments in reasons.items()]
    if "ready" not in kinds:
        try:
            E.apply(state, seat, {"type": "ready"})
        except GameError as exc:
            missing.append({"type": "ready", "why": str(exc), "rule": ANCHORS["ready"]})
    return missing


def hints(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]],
          state: dict[str, Any] | None = None, seat: int | None = None) -> dict[str, Any] | None:
    """What the prompt asks, what each offered action does, and, while orders are written, why an
    order is not offered in a segment (a throw, collecting) and how far a move reaches. At the
    setup, the setup's words tell of the page's Ready (the setup sent with ``"ready": true``)."""
    missing = not_offered(state, seat, legal_actions) if prompt is not None and state is not None \
        and seat is not None else []
    if state is None or state.get("phase") != "setup":
        return build(prompt=prompt, legal_actions=legal_actions, explained=EXPLAINED, not_offered=missing, labels=LABELS)
    return build(prompt=prompt, legal_actions=legal_actions, explained=SETUP_EXPLAINED, not_offered=missing,
                 labels={**LABELS, "ready": "Ready"})
