"""A Kid's activation in What a Snowball!: its Command Dice rolled and spent on moving, vaulting,
gathering, aiming and Wild results.
"""
from __future__ import annotations

from typing import Any

from ..base import Action, BadAction, Event, IllegalAction, State, rng_for, shown
from ..base import action_field as _field
from ..base import action_int as _int
from ..base import action_str as _str
from . import kids as K
from .geometry import base_gap, in_contact, placement_problem, within
from .common import (
    GIVE_DISTANCE,
    _at,
    _bases,
    _bool,
    can_cheat,
    _can_spend_as,
    _count,
    _dice_words,
    _event,
    _gap,
    _in_the_village,
    _inches,
    _rolled_inches,
    _touching,
    _meanings,
    _on_snow,
    _point,
    _problem_words,
    _terrain,
    _without,
)


class Activation:
    """A Kid's activation, die by die (throws are in ``throwing``). A part of ``engine.WhatASnowball``."""

    def _do_roll(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid = s["kids"][s["activation"]["kid"]]
        self._roll_command_dice(s, events, kid["command_dice"])

    def _roll_command_dice(self, s: State, events: list[Event], count: int) -> None:
        activation = s["activation"]
        kid_id = activation["kid"]
        rng = rng_for(s)
        tray = sorted(rng.randint(1, 6) for _ in range(count))
        activation["tray"] = tray
        activation["stage"] = "turn"
        kid = s["kids"][kid_id]
        _event(events, "command_dice", f"{kid['name']} rolls {_count(count, 'Command Die', 'Command Dice')}: "
               f"{_dice_words(tray)}.", kid=kid_id, dice=tray, count=count, pool=kid["command_dice"])

    def _spend(self, s: State, action: Action, result: str) -> tuple[str, dict[str, Any], int]:
        """The active Kid, and the die named by the action, checked as spendable for ``result``; removes it."""
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        value = _int(action, "die")
        if value not in activation["tray"]:
            raise IllegalAction(f"{kid['name']} has no {value} left (dice: {_dice_words(activation['tray'])}).")
        if not _can_spend_as(kid, value, result):
            if kid["down"] and result != "wild":
                raise IllegalAction(f"{kid['name']} is knocked down and can spend only Wild Dice until it gets up.")
            meanings = " or ".join(K.ACTION_LABELS[m] for m in _meanings(kid, value))
            raise IllegalAction(f"For {kid['name']} a {value} is {meanings}, not {K.ACTION_LABELS[result]}.")
        return kid_id, kid, value

    def _use_die(self, s: State, value: int) -> None:
        s["activation"]["tray"].remove(value)

    def _as_words(self, kid: dict[str, Any], value: int, result: str) -> str:
        if result in _meanings(kid, value):
            return f"a {value}"
        return f"a {value} (Wild, as {K.ACTION_LABELS[result]})"

    def _do_move(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "move")
        slide = _bool(action, "slide")
        if slide:
            if kid["type"] != "penguin":
                raise IllegalAction(f"Only Penguins slide; {kid['name']} is a {K.TYPES[kid['type']]['label']}.")
            if not _on_snow(s, kid["pos"]):
                raise IllegalAction(f"{kid['name']} stands on snowless ground and cannot slide from here.")
        self._use_die(s, value)
        rng = rng_for(s)
        dice = [rng.randint(1, 6)] + ([rng.randint(1, 6)] if slide else [])
        how = "slides on its belly" if slide else "moves"
        _event(events, "move_roll", f"{kid['name']} spends {self._as_words(kid, value, 'move')} on MOVE and "
               f"{how}: {_rolled_inches(dice)}.", kid=kid_id, die=value,
               dice=dice, roll=sum(dice), slide=slide, source="move")
        s["pending"] = {"kind": "move_to", "seat": seat, "kid": kid_id, "roll": sum(dice), "dice": dice,
                        "slide": slide, "shove": True, "source": "move", "then": None}

    def _do_move_to(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        pending = s["pending"]
        kid_id = pending["kid"]
        kid = s["kids"][kid_id]
        to = _point(_field(action, "to"), "to")
        shove = action.get("shove")
        if shove is not None and not isinstance(shove, str):
            raise BadAction(f'"shove" must be a Kid id or null, not {shown(shove)}.')
        problem = placement_problem(_terrain(s), _bases(s), to, kid["radius"], ignore=(kid_id,))
        if problem:
            raise IllegalAction(f"{kid['name']} cannot stand at {_at(to)}: {_problem_words(s, problem)}.")
        walker = self._walker(s, kid_id, pending["slide"])
        length = walker.path_length(to, pending["roll"])
        if length is None:
            keep = " keeping to snow" if pending["slide"] else ""
            raise IllegalAction(f"{kid['name']} cannot reach {_at(to)} with {_inches(pending['roll'])}{keep}: the "
                                "shortest way round terrain and other Kids is longer.")
        if shove is not None:
            if not pending["shove"]:
                raise IllegalAction("Only a MOVE bought with a Command Die can knock another Kid down.")
            victim = s["kids"].get(shove)
            if victim is None or not _in_the_village(victim):
                raise BadAction(f"There is no Kid {shown(shove)} in the village.")
            if victim["team"] == kid["team"]:
                raise IllegalAction(f"{victim['name']} is on your team.")
            if not can_cheat(kid, victim):
                raise IllegalAction(self._no_cheat_words(kid, victim))
            if victim["down"]:
                raise IllegalAction(f"{victim['name']} is already knocked down.")
            if _touching(s, kid_id, shove):
                raise IllegalAction(f"{kid['name']} is already touching {victim['name']}: a shove is a MOVE that "
                                    "comes into contact (step away with one MOVE, come back with the next).")
            if not in_contact(to, kid["radius"], victim["pos"], victim["radius"]):
                gap = base_gap(to, kid["radius"], victim["pos"], victim["radius"])
                raise IllegalAction(f"To knock {victim['name']} down, end the move in base contact "
                                    f"(it would be {_inches(gap)} away).")
        start = kid["pos"]
        kid["pos"] = to
        s["pending"] = None
        text = (f"{kid['name']} moves {_inches(length)} of {_inches(pending['roll'])} to {_at(to)}." if length > 0
                else f"{kid['name']} stays at {_at(to)} (could have moved {_inches(pending['roll'])}).")
        _event(events, "move", text, kid=kid_id, start=start, to=to, path=round(length, 3), roll=pending["roll"], source=pending["source"])
        if pending["then"] is not None:
            self._after_dash(s, events, pending["then"])
            return
        if shove is not None:
            self._shove(s, events, kid_id, shove)
            return
        self._finish_action(s, events)

    def _after_dash(self, s: State, events: list[Event], moment: str) -> None:
        """Back to the throw a dash interrupted, which resolves as it was declared; the target may
        still play "Missed me, dork!", unless the throw is Too Close (it hits without a roll)."""
        throw = s["throw"]
        target = s["kids"][throw["target"]]
        about = [] if throw["dork"] or throw["too_close"] else ["dork"]
        if self._question(s, target["seat"], moment, throw["target"],
                          f"{s['kids'][throw['thrower']]['name']} throws at {target['name']}.", about):
            return
        self._resume(s, events, moment)

    def _no_cheat_words(self, kid: dict[str, Any], victim: dict[str, Any]) -> str:
        if kid["type"] == "yeti":
            return f"{kid['name']} is a Yeti: too stupid and friendly to cheat."
        if kid["type"] == "elf":
            return f"{kid['name']} is an Elf: its code of honour allows cheating only against Snowmen."
        return f"Santa's Watching: nobody but a Snowman cheats against {victim['name']}, a Christmas Elf."

    def _do_vault(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "move")
        piece_id = _str(action, "terrain")
        piece = next((p for p in s["terrain"] if p["id"] == piece_id), None)
        if piece is None:
            raise BadAction(f"There is no terrain piece {shown(piece_id)}.")
        if not piece["vaultable"]:
            raise IllegalAction(f"The {piece['label']} ({piece_id}) is not shorter than a Kid: it cannot be vaulted.")
        landing = self._vault_spot(s, kid_id, piece_id)
        if landing is None:
            raise IllegalAction(f"{kid['name']} must be in contact with the {piece['label']} ({piece_id}) and have "
                                "room on the far side to vault it.")
        self._use_die(s, value)
        start = kid["pos"]
        kid["pos"] = landing
        _event(events, "vault", f"{kid['name']} spends {self._as_words(kid, value, 'move')} vaulting over the "
               f"{piece['label']} to {_at(landing)}.", kid=kid_id, die=value, terrain=piece_id, start=start,
               to=landing)
        self._finish_action(s, events)

    def _do_gather(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "gather")
        if not _on_snow(s, kid["pos"]):
            raise IllegalAction(f"{kid['name']} stands on snowless ground (a gritted road): no snow to gather.")
        make = _str(action, "make")
        amount = K.TYPES[kid["type"]]["gather"]
        spent = self._as_words(kid, value, "gather")
        if make == "new":
            self._use_die(s, value)
            kid["snowballs"] = sorted(kid["snowballs"] + [amount])
            text = f"makes a new Size {amount} snowball"
            data: dict[str, Any] = {"size": amount}
        elif make == "grow":
            size = self._ball(kid, action)
            if size >= K.MAX_SIZE:
                raise IllegalAction(f"A Size {size} snowball cannot grow: Size {K.MAX_SIZE} is the largest.")
            self._use_die(s, value)
            grown = min(K.MAX_SIZE, size + amount)
            kid["snowballs"] = sorted(_without(kid["snowballs"], size) + [grown])
            text = f"grows a Size {size} snowball to Size {grown}"
            data = {"size": size, "grown": grown}
        elif make == "give":
            size = self._ball(kid, action)
            mate_id = _str(action, "to")
            mate = s["kids"].get(mate_id)
            if mate is None or not _in_the_village(mate):
                raise BadAction(f"There is no Kid {shown(mate_id)} in the village.")
            if mate["team"] != kid["team"] or mate_id == kid_id:
                raise IllegalAction(f"{mate['name']} is not a team-mate of {kid['name']}.")
            gap = _gap(s, kid_id, mate_id)
            if not within(gap, GIVE_DISTANCE):
                raise IllegalAction(f"{mate['name']} is {_inches(gap)} from {kid['name']}; a snowball can be given "
                                    f"within {GIVE_DISTANCE:.0f}\".")
            self._use_die(s, value)
            kid["snowballs"] = _without(kid["snowballs"], size)
            mate["snowballs"] = sorted(mate["snowballs"] + [size])
            text = f"gives a Size {size} snowball to {mate['name']} ({_inches(gap)} away)"
            data = {"size": size, "to": mate_id, "gap": round(gap, 3)}
        elif make == "mend":
            if kid["type"] != "snowman":
                raise IllegalAction("Only a Living Snowman can gather snow to replace a lost Command Die.")
            if kid["command_dice"] >= K.MAX_COMMAND_DICE:
                raise IllegalAction(f"{kid['name']} has lost no Command Dice.")
            self._use_die(s, value)
            kid["command_dice"] += 1
            text = f"packs snow onto itself: {kid['command_dice']} Command Dice"
            data = {"command_dice": kid["command_dice"]}
        else:
            raise BadAction(f'"make" must be "new", "grow", "give" or "mend", not {shown(make)}.')
        _event(events, "gather", f"{kid['name']} spends {spent} on GATHER SNOW and {text}.", kid=kid_id, die=value,
               make=make, snowballs=list(kid["snowballs"]), **data)
        self._finish_action(s, events)

    def _ball(self, kid: dict[str, Any], action: Action) -> int:
        size = _int(action, "size")
        if size not in kid["snowballs"]:
            raise IllegalAction(f"{kid['name']} has no Size {size} snowball (sizes: "
                                f"{_dice_words(kid['snowballs'])}).")
        return size

    def _do_aim(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "aim")
        self._use_die(s, value)
        kid["aims"] += 1
        _event(events, "aim", f"{kid['name']} spends {self._as_words(kid, value, 'aim')} on AIM: +{kid['aims']} to "
               "the next throw.", kid=kid_id, die=value, aims=kid["aims"])
        self._finish_action(s, events)

    def _do_wild(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "wild")
        use = _str(action, "use")
        if use == "recover":
            if kid["command_dice"] >= K.MAX_COMMAND_DICE:
                raise IllegalAction(f"{kid['name']} has lost no Command Dice ({K.MAX_COMMAND_DICE} is the most).")
            kid["command_dice"] += 1
            text = f"recovers a Command Die ({kid['command_dice']} from next turn)"
        elif use == "prepare":
            kid["prepare"] += 1
            text = f"prepares: +{kid['prepare']} to its next Activation Order roll"
        elif use == "get_up":
            if not kid["down"]:
                raise IllegalAction(f"{kid['name']} is not knocked down.")
            kid["down"] = False
            text = "gets up"
        else:
            raise BadAction(f'"use" must be "recover", "prepare" or "get_up", not {shown(use)}; to act as another '
                            'result, send that action with this die.')
        self._use_die(s, value)
        _event(events, "wild", f"{kid['name']} spends a {value} (Wild) and {text}.", kid=kid_id, die=value, use=use,
               command_dice=kid["command_dice"], prepare=kid["prepare"], down=kid["down"])
        self._finish_action(s, events)

    def _do_end_activation(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id = s["activation"]["kid"]
        left = s["activation"]["tray"]
        _event(events, "end_activation", f"{s['kids'][kid_id]['name']} ends its activation"
               f"{f' with {_dice_words(left)} unspent' if left else ''}.", kid=kid_id, unspent=list(left), automatic=False)
        self._end_activation(s, events)
