"""What one viewer sees of a What a Snowball! game: the part every viewer shares, once per state,
and the viewer's own.
"""
from __future__ import annotations

import marshal
from typing import Any

from ..base import State, View
from . import kids as K
from . import villages
from .geometry import SIZE, TOLERANCE
from .common import TEAM_COLOURS, TEAM_NAMES, TURNS, _enemies, _fire, _memo, range_needs, throw_modifiers


class Views:
    """Each viewer's view of a state. A part of ``engine.WhatASnowball``."""

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) sees. Everything but the viewer's own part (its hand, settings,
        prompt and legal actions) is the same for every viewer: it is worked out once per state, and the
        views of one state share it (a view is read, never changed)."""
        s = state
        viewer = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < s["players"] else None
        memo = _memo(s)
        shared = memo.get("view")
        if shared is None:
            shared = memo["view"] = self._shared_view(s)
        view = dict(shared)
        asked = self._asked(s)
        view["viewer"] = viewer
        view["hand"] = list(s["hands"][viewer]) if viewer is not None else None
        view["never_ask"] = list(s["never_ask"][viewer]) if viewer is not None else None
        view["prompt"] = self._prompt(s, viewer, asked[viewer]).as_dict() if viewer in asked else None
        view["legal_actions"] = self.legal_actions(s, viewer) if viewer is not None else []
        return view

    def _shared_view(self, s: State) -> View:
        """The view less the viewer's own part (``viewer``, ``hand``, ``never_ask``, ``prompt`` and
        ``legal_actions`` are None here, in their places)."""
        from .unspendable import unspendable_dice

        asked = self._asked(s)
        kids_view = {}
        for kid_id in s["kid_order"]:
            kid = s["kids"][kid_id]
            kids_view[kid_id] = {
                "id": kid_id, "name": kid["name"], "seat": kid["seat"], "team": kid["team"],
                "colour": TEAM_COLOURS[kid["team"]], "pos": list(kid["pos"]) if kid["pos"] else None,
                "radius": kid["radius"], "command_dice": kid["command_dice"], "snowballs": list(kid["snowballs"]),
                "aims": kid["aims"], "down": kid["down"], "prepare": kid["prepare"], "points": kid["points"],
                "home": kid["home"], "sheet": K.sheet_row(kid),
            }
        activation = s["activation"]
        view: View = {
            "game": self.slug,
            "viewer": None,
            "phase": s["phase"],
            "turn": s["turn"],
            "turns": TURNS,
            "village": {"name": s["options"]["village"], "size": [SIZE, SIZE], "tolerance": TOLERANCE,
                        "corners": [list(c) for c in villages.CORNERS], "corner_names": list(villages.CORNER_NAMES),
                        "terrain": [{k: (marshal.loads(marshal.dumps(v)) if k == "points" else v)
                                     for k, v in p.items()} for p in s["terrain"]]},
            "options": dict(s["options"]),
            "seat_team": list(s["seat_team"]),
            "teams": [{"team": t, "name": TEAM_NAMES[t], "colour": TEAM_COLOURS[t],
                       "seats": self._team_seats(s, t), "corners": list(s["corners"][str(t)]),
                       "surrendered": t in s["surrendered"],
                       "worth": sum(K.TYPES[k["type"]]["worth"] for k in s["kids"].values() if k["team"] == t)}
                      for t in range(s["team_count"])],
            "team_rolls": marshal.loads(marshal.dumps(s["team_rolls"])),
            "team_order": list(s["team_order"]),
            "kids": kids_view,
            "order": list(s["order"]),
            "order_rolls": marshal.loads(marshal.dumps(s["order_rolls"])),
            "next_index": s["next_index"],
            "activation": None if activation is None else {
                "kid": activation["kid"], "stage": activation["stage"], "tray": list(activation["tray"]),
                "unspendable": unspendable_dice(s)},
            "pending": self._pending_view(s),
            "throw": self._throw_view(s),
            "lines_of_fire": self._lines_of_fire(s),
            "hand": None,
            "hand_sizes": [len(h) for h in s["hands"]],
            "deck_size": len(s["deck"]),
            "discards": list(s["discards"]),
            "cards": {name: dict(card) for name, card in K.CARDS.items()},
            "never_ask": None,
            "surrender_votes": list(s["surrender_votes"]),
            "waiting_for": sorted(asked),
            "prompt": None,
            "legal_actions": None,
            "outcome": self.outcome(s),
        }
        return view

    def _pending_view(self, s: State) -> dict[str, Any] | None:
        pending = s["pending"]
        if pending is None:
            return None
        if pending["kind"] == "move_to":
            return {"kind": "move_to", "seat": pending["seat"], "kid": pending["kid"], "roll": pending["roll"],
                    "dice": list(pending["dice"]), "source": pending["source"], "slide": pending["slide"]}
        return {"kind": "reaction", "seat": pending["seat"], "moment": pending["moment"], "kid": pending["kid"]}

    def _throw_view(self, s: State) -> dict[str, Any] | None:
        throw = s["throw"]
        if throw is None:
            return None
        keys = ("thrower", "target", "size", "needs", "modifiers", "too_close", "pitch", "ice", "dork", "grandma",
                "step", "hit", "critical")
        return marshal.loads(marshal.dumps({k: throw[k] for k in keys}))

    def _lines_of_fire(self, s: State) -> list[dict[str, Any]]:
        """The active Kid's line to each enemy Kid: visible, distance, objects and the Roll to Hit needed."""
        activation = s["activation"]
        if s["phase"] != "play" or activation is None:
            return []
        kid_id = activation["kid"]
        lines = []
        for target in _enemies(s, kid_id):
            fire = _fire(s, kid_id, target)
            lines.append({"from": kid_id, "to": target, **fire, "needs": range_needs(fire["gap"]),
                          "too_close": self._too_close(s, kid_id, target),
                          "modifiers_without_size": throw_modifiers(s, kid_id, target, 1, fire["objects"])})
        return lines
