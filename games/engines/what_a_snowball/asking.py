"""Who What a Snowball! asks, what it asks them, and the legal actions of each question."""
from __future__ import annotations

import marshal
from typing import Any

from ..base import Action, Prompt, State
from . import kids as K
from . import villages
from .geometry import TOLERANCE, Walker, base_gap, placement_problem, region_rings, within
from .common import (
    DEPLOY_DISTANCE,
    GIVE_DISTANCE,
    MOMENT_CARDS,
    TEAM_NAMES,
    TIMEOUTS,
    TOO_CLOSE,
    _WORTH_REMEMBERING,
    _bases,
    can_cheat,
    _corner_spots,
    _enemies,
    example_placement,
    _gap,
    _hand,
    _in_play,
    _inches,
    _memo,
    _move_walker,
    _offered,
    _on_snow,
    _terrain,
    _touching,
    _uses_by_face,
    _vault_landings,
    _visible_enemies,
)


class Asking:
    """Who is asked what, and what they may answer. A part of ``engine.WhatASnowball``."""

    # -- who is asked -----------------------------------------------------------------------

    def _asked(self, s: State) -> dict[int, str]:
        phase = s["phase"]
        if phase == "corners":
            team = self._picking_team(s)
            return {self._team_seats(s, team)[0]: "corner"}
        if phase == "deploy":
            team = self._deploying_team(s)
            return {seat: "place" for seat in self._team_seats(s, team)
                    if any(k["seat"] == seat and k["pos"] is None for k in s["kids"].values())}
        if phase == "play":
            pending = s["pending"]
            if pending is not None:
                return {pending["seat"]: pending["kind"]}
            activation = s["activation"]
            if activation is not None:
                return {s["kids"][activation["kid"]]["seat"]: activation["stage"]}
        return {}

    def _team_seats(self, s: State, team: int) -> list[int]:
        return [seat for seat, t in enumerate(s["seat_team"]) if t == team]

    def _picks(self, s: State) -> list[int]:
        """The team picking each corner, in order: roll-off order, twice round with two teams."""
        order = s["team_order"]
        return order * 2 if s["team_count"] == 2 else list(order)

    def _picking_team(self, s: State) -> int:
        return self._picks(s)[s["pick_index"]]

    def _deploying_team(self, s: State) -> int:
        for team in s["team_order"]:
            if any(k["team"] == team and k["pos"] is None and k["home"] is None for k in s["kids"].values()):
                return team
        return s["team_order"][-1]

    def to_act(self, state: State) -> dict[int, Prompt]:
        return {seat: self._prompt(state, seat, kind) for seat, kind in self._asked(state).items()}

    def _prompt(self, s: State, seat: int, kind: str) -> Prompt:
        if kind == "corner":
            free = self._free_corners(s)
            return Prompt("turn", f"Pick a corner for team {TEAM_NAMES[s['seat_team'][seat]]}.", TIMEOUTS["corner"],
                          {"type": "corner", "corner": free[0]}, {"corners": free})
        if kind == "place":
            kid_id = next(k for k in s["kid_order"] if s["kids"][k]["seat"] == seat and s["kids"][k]["pos"] is None)
            spot = example_placement(s, kid_id)
            where = villages.corners_words([villages.CORNER_NAMES[c] for c in s["corners"][str(s["seat_team"][seat])]],
                                           "your")
            return Prompt("turn", f"Place your Kids within {DEPLOY_DISTANCE:.0f}\" of {where}.", TIMEOUTS["place"],
                          {"type": "place", "kid": kid_id, "to": spot} if spot else None, {"kid": kid_id})
        activation = s["activation"]
        if kind == "start":
            name = s["kids"][activation["kid"]]["name"]
            cards = _offered(s, seat, MOMENT_CARDS["start"])
            text = (f"{name} activates: roll Command Dice or play \"I'm not done yet!\"." if cards else
                    f"{name} activates: you have no card to play now; roll Command Dice.")
            return Prompt("turn", text, TIMEOUTS["start"], {"type": "roll"}, {"kid": activation["kid"], "cards": cards})
        if kind == "turn":
            name = s["kids"][activation["kid"]]["name"]
            return Prompt("turn", f"{name}'s activation: spend a Command Die or end the activation.",
                          TIMEOUTS["turn"], {"type": "end_activation"},
                          {"kid": activation["kid"], "tray": list(activation["tray"])})
        pending = s["pending"]
        if kind == "move_to":
            kid = s["kids"][pending["kid"]]
            return Prompt("effect", f"{kid['name']} moves up to {_inches(pending['roll'])}: choose where.",
                          TIMEOUTS["move_to"], {"type": "move_to", "to": list(kid["pos"])},
                          {"kid": pending["kid"], "roll": pending["roll"]})
        cards = pending["cards"]
        titles = " or ".join(f"\"{K.CARDS[c]['title']}\"" for c in cards)
        question = f"Play {titles}?" if cards else "You have no card to play now."
        return Prompt("reaction", f"{pending['text']} {question}", TIMEOUTS["reaction"], {"type": "decline"},
                      {"cards": list(cards), "moment": pending["moment"]})

    def _free_corners(self, s: State) -> list[int]:
        taken = {c for picks in s["corners"].values() for c in picks}
        return [c for c in range(4) if c not in taken]

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """A seat's legal actions. The asked seat's turn, MOVE and set-up actions are worked out once per
        state (the server asks for them for the prompt and again for the seat's view): later calls get a
        fresh copy."""
        s = state
        if not isinstance(seat, int) or not 0 <= seat < s["players"]:
            return []
        kind = self._asked(s).get(seat)
        if kind not in _WORTH_REMEMBERING:
            return self._legal_actions(s, seat, kind)
        memo = _memo(s)
        known = memo.get(("legal", seat))
        if known is not None:
            return marshal.loads(known)  # a copy: a caller may build its action from the one it was given
        found = self._legal_actions(s, seat, kind)
        memo[("legal", seat)] = marshal.dumps(found)
        return found

    def _legal_actions(self, s: State, seat: int, kind: str | None) -> list[Action]:
        found: list[Action] = []
        if kind == "corner":
            found = [{"type": "corner", "corner": c} for c in self._free_corners(s)]
        elif kind == "place":
            for kid_id in s["kid_order"]:
                kid = s["kids"][kid_id]
                if kid["seat"] == seat and kid["pos"] is None:
                    found.append({"type": "place", "kid": kid_id, "corners": _corner_spots(s, kid["team"]),
                                  "within": DEPLOY_DISTANCE - kid["radius"], "piece_radius": kid["radius"],
                                  "must_avoid": self._avoid_list(s, kid["radius"]),
                                  "example": {"type": "place", "kid": kid_id, "to": example_placement(s, kid_id)}})
        elif kind == "start":
            found = [{"type": "roll"}] + [{"type": "play_card", "card": c}
                                          for c in _offered(s, seat, MOMENT_CARDS["start"])]
        elif kind == "turn":
            found = self._turn_actions(s)
        elif kind == "move_to":
            found = [self._move_region(s)]
        elif kind == "reaction":
            found = [{"type": "play_card", "card": c} for c in s["pending"]["cards"]] + [{"type": "decline"}]
        if s["phase"] != "over":
            if s["options"]["ability_cards"] != "none":
                found += [{"type": "set_never_ask", "card": c, "on": c not in s["never_ask"][seat]}
                          for c in K.ASKED_CARDS]
            found.append({"type": "surrender", "on": not s["surrender_votes"][seat]})
        return found

    def _avoid_list(self, s: State, radius: float) -> list[dict[str, Any]]:
        shapes: list[dict[str, Any]] = [
            {"kind": "circle", "id": k, "center": list(s["kids"][k]["pos"]), "radius": radius + s["kids"][k]["radius"]}
            for k in _in_play(s)]
        shapes += [{"kind": "polygon", "id": p["id"], "points": p["points"], "clearance": radius}
                   for p in s["terrain"] if p["blocks_movement"]]
        return shapes

    def _turn_actions(self, s: State) -> list[Action]:
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        found: list[Action] = []
        on_snow = _on_snow(s, kid["pos"])
        vaults = gathers = throws = None
        uses_by_face = _uses_by_face(kid)
        for value in sorted(set(activation["tray"])):
            uses = uses_by_face[value]
            if "move" in uses:
                found.append({"type": "move", "die": value})
                if kid["type"] == "penguin" and on_snow:
                    found.append({"type": "move", "die": value, "slide": True})
                if vaults is None:
                    vaults = self._vault_options(s, kid_id)
                found += [{"type": "vault", "die": value, "terrain": piece_id, "to": list(landing)}
                          for piece_id, landing in vaults]
            if "gather" in uses and on_snow:
                if gathers is None:
                    gathers = self._gather_options(s, kid_id)
                found += [{"type": "gather", "die": value, **g} for g in gathers]
            if "aim" in uses:
                found.append({"type": "aim", "die": value})
            if "throw" in uses:
                if throws is None:
                    throws = self._throw_options(s, kid_id)
                found += [{"type": "throw", "die": value, "target": target, "snowball": ball, "cards": list(cards)}
                          for target, ball, cards in throws]
            if "wild" in uses:
                if kid["command_dice"] < K.MAX_COMMAND_DICE:
                    found.append({"type": "wild", "die": value, "use": "recover"})
                found.append({"type": "wild", "die": value, "use": "prepare"})
                if kid["down"]:
                    found.append({"type": "wild", "die": value, "use": "get_up"})
        found += self._own_card_actions(s, kid_id)
        found.append({"type": "end_activation"})
        return found

    def _can_spend(self, s: State) -> bool:
        """Whether the active Kid's activation stays open: while its seat holds any ability card (which
        ones must not show, and a card might be played: the player ends the activation), or while
        :meth:`_turn_actions` offers a die to spend, the cheap checks first: a MOVE, AIM or Wild die is
        always usable, GATHER SNOW whenever the Kid stands on snow (it can always make a new snowball),
        THROW when it has a throw."""
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        if s["options"]["ability_cards"] != "none" and _hand(s, kid["seat"]):
            return True
        uses_by_face = _uses_by_face(kid)
        uses: set[str] = set()
        for value in set(activation["tray"]):
            uses |= uses_by_face[value]
        if not uses.isdisjoint(("wild", "move", "aim")):
            return True
        if "gather" in uses and _on_snow(s, kid["pos"]):
            return True
        return "throw" in uses and bool(self._throw_options(s, kid_id))

    def _vault_options(self, s: State, kid_id: str) -> list[tuple[str, list[float]]]:
        """Each vaultable piece the Kid can vault now, with where it lands."""
        kid = s["kids"][kid_id]
        if kid["down"]:
            return []
        terrain = _terrain(s)
        pos = kid["pos"]
        return [(piece_id, list(landing))
                for piece_id, landing in _vault_landings(terrain, pos[0], pos[1], kid["radius"])
                if not placement_problem(terrain, _bases(s), landing, kid["radius"], ignore=(kid_id,))]

    def _gather_options(self, s: State, kid_id: str) -> list[dict[str, Any]]:
        kid = s["kids"][kid_id]
        options: list[dict[str, Any]] = [{"make": "new"}]
        sizes = sorted(set(kid["snowballs"]))
        options += [{"make": "grow", "size": size} for size in sizes if size < K.MAX_SIZE]
        if sizes:
            kids = s["kids"]
            for mate_id in s["kid_order"]:
                mate = kids[mate_id]
                if mate["team"] == kid["team"] and mate_id != kid_id and mate["home"] is None \
                        and mate["pos"] is not None \
                        and within(base_gap(kid["pos"], kid["radius"], mate["pos"], mate["radius"]), GIVE_DISTANCE):
                    options += [{"make": "give", "size": size, "to": mate_id} for size in sizes]
        if kid["type"] == "snowman" and kid["command_dice"] < K.MAX_COMMAND_DICE:
            options.append({"make": "mend"})
        return options

    def _throw_options(self, s: State, kid_id: str) -> list[tuple[str, Any, list[str]]]:
        """Every throw the Kid can make, as (target, snowball, cards): each enemy it sees, each snowball it
        holds, each card combination."""
        kid = s["kids"][kid_id]
        balls: list[Any] = sorted(set(kid["snowballs"]))
        if kid["type"] == "snowman" and kid["command_dice"] >= 2:
            balls.append("self")
        if not balls:
            return []
        hand = _hand(s, kid["seat"])
        combos: list[list[str]] = [[]]
        for card in ("pitch", "ice"):
            if card in hand:
                combos += [c + [card] for c in combos]
        options = []
        for target in _visible_enemies(s, kid_id):
            too_close = self._too_close(s, kid_id, target)
            for ball in balls:
                for combo in combos:
                    if too_close and "pitch" in combo:
                        continue
                    options.append((target, ball, combo))
        return options

    def _own_card_actions(self, s: State, kid_id: str) -> list[Action]:
        kid = s["kids"][kid_id]
        hand = _hand(s, kid["seat"])
        found: list[Action] = []
        if "saving" in hand:
            found += [{"type": "play_card", "card": "saving", "choice": c} for c in K.SAVING_CHOICES]
        if "dash" in hand and not kid["down"]:
            found.append({"type": "play_card", "card": "dash"})
        if "miracle" in hand and kid["type"] in ("elf", "yeti"):
            found.append({"type": "play_card", "card": "miracle"})
        return found

    def _vault_spot(self, s: State, kid_id: str, piece_id: str) -> list[float] | None:
        """Where the Kid lands vaulting ``piece_id`` now; None when it cannot vault it."""
        return next((landing for piece, landing in self._vault_options(s, kid_id) if piece == piece_id), None)

    def _walker(self, s: State, kid_id: str, slide: bool) -> Walker:
        bases = tuple((k, tuple(pos), r) for k, pos, r in _bases(s))
        snowless = tuple(p["id"] for p in s["terrain"] if p["snowless"]) if slide else ()
        return _move_walker(_terrain(s), bases, kid_id, snowless)

    def _move_region(self, s: State) -> Action:
        pending = s["pending"]
        kid_id = pending["kid"]
        kid = s["kids"][kid_id]
        rings = region_rings(self._walker(s, kid_id, pending["slide"]).region(float(pending["roll"])))
        return {
            "type": "move_to", "kid": kid_id, "from": list(kid["pos"]), "roll": pending["roll"],
            "piece_radius": kid["radius"], "tolerance": TOLERANCE, "keeps_off_snowless": pending["slide"],
            "region": rings, "must_avoid": self._avoid_list(s, kid["radius"]),
            "shove": self._shove_candidates(s, kid_id) if pending["shove"] else [],
            "example": {"type": "move_to", "to": list(kid["pos"])},
        }

    def _shove_candidates(self, s: State, kid_id: str) -> list[str]:
        """The enemies this MOVE may knock down: standing, fair game, and not touching the Kid
        already (book 3.2.1.1: a Kid that "comes into contact" shoves)."""
        kid = s["kids"][kid_id]
        return [e for e in _enemies(s, kid_id) if not s["kids"][e]["down"] and can_cheat(kid, s["kids"][e])
                and not _touching(s, kid_id, e)]

    def _too_close(self, s: State, thrower: str, target: str) -> bool:
        return within(_gap(s, thrower, target), TOO_CLOSE) and can_cheat(s["kids"][thrower], s["kids"][target])
