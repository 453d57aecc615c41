"""Why a Command Die cannot be spent now: the reasons behind what the legal actions leave out.

``why_not_offered`` says why the active Kid's legal actions hold nothing of one kind (MOVE, GATHER
SNOW, AIM, THROW, a Wild use) by the same tests ``WhatASnowball._turn_actions`` makes;
``unspendable_dice`` gives the reason for each die in the tray that no legal action spends.
"""
from __future__ import annotations

from typing import Any

from shapely.geometry import Point, Polygon

from . import kids as K
from .engine import RULESET
from .common import _blocker_words, _enemies, _fire, _meanings, _on_snow, _terrain_label, _visible_enemies

State = dict[str, Any]
KINDS: tuple[str, ...] = (*K.ACTIONS, "wild")


def _spending_kid(state: State) -> str | None:
    activation = state["activation"]
    if state["phase"] != "play" or activation is None or activation["stage"] != "turn" or state["pending"]:
        return None
    return activation["kid"]


def _gritted_ground(state: State, pos: list[float]) -> str:
    piece = next((p for p in state["terrain"] if p.get("snowless") and Polygon(p["points"]).intersects(Point(pos))),
                 None)
    return _terrain_label(state, piece["id"]) if piece else "gritted ground"


def why_not_offered(state: State, kind: str) -> str | None:
    """Why the active Kid is offered no action of ``kind`` ("move", "gather", "aim", "throw" or "wild")
    for a die spent as it, in the player's words; None when it is offered one, or no Kid is spending dice."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of action {kind!r}; one of {', '.join(KINDS)}")
    kid_id = _spending_kid(state)
    if kid_id is None:
        return None
    kid = state["kids"][kid_id]
    name = kid["name"]
    if kid["down"] and kind != "wild":
        return f"{name} is knocked down: only a Wild die can be spent (to get up, recover or prepare)"
    if kind == "gather" and not _on_snow(state, kid["pos"]):
        return f"{name} stands on {_gritted_ground(state, kid['pos'])}: no snow to gather there"
    if kind == "throw" and not RULESET._throw_options(state, kid_id):
        if not kid["snowballs"] and not (kid["type"] == "snowman" and kid["command_dice"] >= 2):
            if kid["type"] == "snowman":
                return f"{name} has no snowball, and a Living Snowman needs 2 Command Dice to throw a piece of itself"
            return f"{name} has no snowball to throw: GATHER SNOW first"
        enemies = _enemies(state, kid_id)
        if not enemies:
            return "no enemy Kid is left in the village"
        if not _visible_enemies(state, kid_id):
            blockers = {e: _fire(state, kid_id, e).get("blocker") for e in enemies}
            hidden = [f"{_blocker_words(state, b)} hides {state['kids'][e]['name']}" for e, b in blockers.items() if b]
            return "no enemy Kid in sight" + (": " + ", ".join(hidden) if hidden else "")
    return None


def unspendable_dice(state: State) -> dict[str, str]:
    """For each die value in the active Kid's tray that no legal action spends, why not (keyed by the
    value as a string, as in the view's JSON); empty when every die can be spent or no Kid is spending."""
    kid_id = _spending_kid(state)
    if kid_id is None:
        return {}
    spent = {a["die"] for a in RULESET._turn_actions(state) if "die" in a}
    kid = state["kids"][kid_id]
    reasons = {}
    for value in sorted(set(state["activation"]["tray"]) - spent):
        why = [why_not_offered(state, kind) for kind in _meanings(kid, value)]
        reasons[str(value)] = "; ".join(dict.fromkeys(w for w in why if w)) or "nothing to spend it on now"
    return reasons
