"""Throwing in What a Snowball!: the throw, its roll to hit and for effect, the reactions it asks,
cheating, shoves and Kids sent home.
"""
from __future__ import annotations

from ..base import Action, BadAction, Event, IllegalAction, State, rng_for, shown
from ..base import action_field as _field
from ..base import action_str as _str
from .common import (
    MOMENT_CARDS,
    _asks,
    _blocker_words,
    _count,
    _dice_words,
    _event,
    _fire,
    _in_the_village,
    _inches,
    _label,
    _offered,
    _p,
    range_needs,
    _several_teams_left,
    throw_modifiers,
    _without,
)


class Throwing:
    """A throw from its declaration to its last effect. A part of ``engine.WhatASnowball``."""

    def _do_throw(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kid_id, kid, value = self._spend(s, action, "throw")
        target = _str(action, "target")
        victim = s["kids"].get(target)
        if victim is None or not _in_the_village(victim):
            raise BadAction(f"There is no Kid {shown(target)} in the village.")
        if victim["team"] == kid["team"]:
            raise IllegalAction(f"{victim['name']} is on your team: throw at another team's Kid.")
        ball = _field(action, "snowball")
        if ball == "self":
            if kid["type"] != "snowman":
                raise IllegalAction("Only a Living Snowman can throw a piece of itself.")
            if kid["command_dice"] < 2:
                raise IllegalAction(f"{kid['name']} has one Command Die left: it cannot throw its last piece.")
            size = 4
        elif isinstance(ball, bool) or not isinstance(ball, int):
            raise BadAction(f'"snowball" must be a snowball Size or "self", not {shown(ball)}.')
        else:
            if ball not in kid["snowballs"]:
                raise IllegalAction(f"{kid['name']} has no Size {ball} snowball (sizes: "
                                    f"{_dice_words(kid['snowballs'])}); you may not THROW without a snowball.")
            size = ball
        cards = action.get("cards", [])
        if not isinstance(cards, list) or any(c not in ("pitch", "ice") for c in cards) or len(set(cards)) != len(cards):
            raise BadAction(f'"cards" must list "pitch" and/or "ice" at most once each, not {shown(cards)}.')
        for card in cards:
            self._need_card(s, seat, card)
        fire = _fire(s, kid_id, target)
        if not fire["visible"]:
            raise IllegalAction(f"{kid['name']} cannot see {victim['name']}: {_blocker_words(s, fire['blocker'])} "
                                "is in the way.")
        too_close = self._too_close(s, kid_id, target)
        if too_close and "pitch" in cards:
            raise IllegalAction("A throw within 1\" hits automatically: there is no Roll to Hit to practise for.")
        self._use_die(s, value)
        if ball == "self":
            kid["command_dice"] -= 1
        else:
            kid["snowballs"] = _without(kid["snowballs"], size)
        for card in cards:
            self._discard(s, seat, card, events, kid_id)
        needs = range_needs(fire["gap"])
        mods = throw_modifiers(s, kid_id, target, size, fire["objects"])
        aims = kid["aims"]
        kid["aims"] = 0
        what = "a piece of itself (Size 4)" if ball == "self" else f"a Size {size} snowball"
        _event(events, "throw", f"{kid['name']} spends {self._as_words(kid, value, 'throw')} on THROW: {what} at "
               f"{_label(s, target)}, {_inches(fire['gap'])} away" + (" - too close!" if too_close else "") + ".",
               kid=kid_id, die=value, target=target, size=size, self_piece=ball == "self", gap=fire["gap"],
               distance=fire["distance"], objects=fire["objects"], needs=needs, modifiers=mods, aims_used=aims,
               too_close=too_close, cards=cards)
        s["throw"] = {"thrower": kid_id, "target": target, "size": size, "needs": needs, "modifiers": mods,
                      "too_close": too_close, "pitch": "pitch" in cards, "ice": "ice" in cards, "dork": False,
                      "grandma": False, "step": "declared", "hit": False, "critical": None}
        self._run_throw(s, events)

    def _run_throw(self, s: State, events: list[Event]) -> None:
        """Resolve the throw in progress step by step, stopping when a seat must be asked."""
        throw = s["throw"]
        thrower, target = s["kids"][throw["thrower"]], s["kids"][throw["target"]]
        if throw["step"] == "declared":
            throw["step"] = "roll"
            # Too Close hits without a Roll to Hit: "Missed me, dork!" has nothing to cancel, but the
            # target may still dash ("any THROW actions targeting you are still resolved")
            if self._ask(s, events, target["seat"], "throw_declared", throw["target"],
                         f"{thrower['name']} throws at {target['name']}.", only=("dash",) if throw["too_close"] else None):
                return
        if throw["step"] == "roll":
            throw["step"] = "hit"
            if target["home"] is not None or target["pos"] is None:
                s["throw"] = None
                self._finish_action(s, events)
                return
            self._roll_to_hit(s, events)
            if not throw["hit"]:
                s["throw"] = None
                if throw["critical"] == "miss":
                    _event(events, "critical_miss", f"Snake eyes! {thrower['name']}'s activation ends.",
                           kid=throw["thrower"])
                    self._end_activation(s, events)
                    return
                self._finish_action(s, events)
                return
            if self._ask(s, events, target["seat"], "hit", throw["target"],
                         f"{target['name']} is hit by {thrower['name']}'s snowball."):
                return
        if throw["step"] == "hit":
            throw["step"] = "done"
            self._roll_for_effect(s, events)
            s["throw"] = None
            if throw["too_close"] and _several_teams_left(s):
                if self._cheat_consequences(s, events, throw["thrower"], throw["target"], "throw"):
                    return
            self._finish_action(s, events)

    def _ask(self, s: State, events: list[Event], seat: int, moment: str, kid_id: str, text: str,
             only: tuple[str, ...] | None = None) -> bool:
        """Stop to ask ``seat`` about the reaction cards of ``moment`` (``only`` those of them; a
        knocked-down Kid cannot dash), if :func:`_asks` says it is asked; True when it is."""
        about = [c for c in (only or MOMENT_CARDS[moment]) if not (c == "dash" and s["kids"][kid_id]["down"])]
        if not self._question(s, seat, moment, kid_id, text, about):
            return False
        _event(events, "waiting", f"Waiting for {_p(seat)}.", seat=seat)
        return True

    def _question(self, s: State, seat: int, moment: str, kid_id: str, text: str, about: list[str]) -> bool:
        """Make the reaction question about the cards ``about`` pending, if the seat is asked about them;
        its ``cards`` are those of them the seat may play (possibly none)."""
        if not _asks(s, seat, about):
            return False
        s["pending"] = {"kind": "reaction", "seat": seat, "moment": moment, "about": about,
                        "cards": _offered(s, seat, about), "kid": kid_id, "text": text}
        return True

    def _roll_to_hit(self, s: State, events: list[Event]) -> None:
        throw = s["throw"]
        thrower_id, target_id = throw["thrower"], throw["target"]
        thrower, target = s["kids"][thrower_id], s["kids"][target_id]
        if throw["too_close"]:
            throw["hit"] = True
            _event(events, "to_hit", f"{thrower['name']} is within 1\" of {target['name']}: an automatic hit "
                   "(cheating!).", kid=thrower_id, target=target_id, automatic=True, hit=True, dice=[], kept=[],
                   modifiers=[], total=None, needs=None, critical=None)
        else:
            rng = rng_for(s)
            if throw["pitch"] and throw["dork"]:
                method = "2D6 (\"I've been practicing my pitch!\" and \"Missed me, dork!\" cancel out)"
                dice = [rng.randint(1, 6) for _ in range(2)]
                kept = list(dice)
            elif throw["pitch"]:
                method = "3D6, lowest discarded"
                dice = [rng.randint(1, 6) for _ in range(3)]
                kept = sorted(dice)[1:]
            elif throw["dork"]:
                method = "3D6, highest discarded"
                dice = [rng.randint(1, 6) for _ in range(3)]
                kept = sorted(dice)[:2]
            else:
                method = "2D6"
                dice = [rng.randint(1, 6) for _ in range(2)]
                kept = list(dice)
            modifier = sum(m["value"] for m in throw["modifiers"])
            total = sum(kept) + modifier
            natural = sum(kept)
            critical = "hit" if natural == 12 else "miss" if natural == 2 else None
            hit = critical == "hit" or (critical is None and total >= throw["needs"])
            throw["hit"], throw["critical"] = hit, critical
            mod_words = "".join(f" {'+' if m['value'] > 0 else '-'} {abs(m['value'])} ({m['label']})"
                                for m in throw["modifiers"])
            outcome = ("a natural 12: a critical hit!" if critical == "hit" else
                       "a natural 2: a critical miss!" if critical == "miss" else "a hit!" if hit else "a miss.")
            _event(events, "to_hit", f"Roll to Hit ({method}): {_dice_words(dice)} - kept {' + '.join(map(str, kept))}"
                   f"{mod_words} = {total}, needing {throw['needs']}: {outcome}", kid=thrower_id, target=target_id,
                   automatic=False, method=method, dice=dice, kept=kept, natural=natural, modifiers=throw["modifiers"],
                   modifier=modifier, total=total, needs=throw["needs"], critical=critical, hit=hit)
        if throw["hit"]:
            thrower["points"] += 1
            target["aims"] = 0
            _event(events, "point", f"{thrower['name']} scores a point ({thrower['points']} in all).",
                   kid=thrower_id, points=thrower["points"])
            self._card_for_points(s, events, thrower_id)

    def _card_for_points(self, s: State, events: list[Event], kid_id: str) -> None:
        kid = s["kids"][kid_id]
        if s["options"]["ability_cards"] != "method1":
            return
        while kid["points"] // 3 > kid["cards_for_points"]:
            kid["cards_for_points"] += 1
            self._draw(s, kid["seat"], 1, events, f"{kid['name']} reached {3 * kid['cards_for_points']} points")

    def _roll_for_effect(self, s: State, events: list[Event]) -> None:
        throw = s["throw"]
        target_id = throw["target"]
        target = s["kids"][target_id]
        if target["home"] is not None:
            return
        size = throw["size"]
        parts = [f"Size {size}"]
        if throw["critical"] == "hit":
            size += 1
            parts.append("+1 critical hit")
        if throw["ice"]:
            size += 3
            parts.append("+3 \"Ice to see you!\"")
        if throw["grandma"]:
            _event(events, "effect", f"{target['name']}'s extra (ugly) sweater: no Command Dice lost.",
                   kid=target_id, size=size, size_parts=parts, dice=[], threshold=None, successes=0, lost=0,
                   grandma=True, command_dice=target["command_dice"])
            return
        rng = rng_for(s)
        dice = [rng.randint(1, 6) for _ in range(size)]
        threshold = 5 if target["type"] == "elf" else 4
        successes = sum(1 for d in dice if d >= threshold)
        lost = successes // 2 if target["type"] == "yeti" else successes
        lost = min(lost, target["command_dice"])
        target["command_dice"] -= lost
        why = [f"{threshold}+ loses a die" + (" (Warm Heart)" if target["type"] == "elf" else "")]
        if target["type"] == "yeti":
            why.append("one die per two (Thick Fur)")
        _event(events, "effect", f"Roll for Effect for {target['name']} ({' '.join(parts)} = {size}D6): "
               f"{_dice_words(dice)}; {'; '.join(why)}: loses {_count(lost, 'Command Die', 'Command Dice')}, "
               f"{target['command_dice']} left.", kid=target_id, size=size, size_parts=parts, dice=dice,
               threshold=threshold, successes=successes, lost=lost, grandma=False,
               command_dice=target["command_dice"])
        if target["command_dice"] <= 0:
            self._send_home(s, events, target_id, "cold")
            thrower = s["kids"][throw["thrower"]]
            if s["options"]["ability_cards"] == "method1" and thrower["home"] is None:
                self._draw(s, thrower["seat"], 1, events, f"{thrower['name']} sent {target['name']} home")

    def _cheat_consequences(self, s: State, events: list[Event], aggressor_id: str, victim_id: str,
                            source: str) -> bool:
        """The parents' roll after cheating; True when the game stops to ask about "A Christmas Miracle!"."""
        aggressor, victim = s["kids"][aggressor_id], s["kids"][victim_id]
        if aggressor["type"] == "snowman":
            if victim["type"] == "penguin":
                aggressor["points"] = max(0, aggressor["points"] - 1)
                _event(events, "cruel", f"{aggressor['name']} cheated against a Penguin: cruel even for a Snowman. "
                       f"It loses a point ({aggressor['points']} left).", kid=aggressor_id, points=aggressor["points"])
            else:
                _event(events, "parents", f"{aggressor['name']} is a Snowman: no parents, no naughty list.",
                       kid=aggressor_id, rolled=False, caught=False)
            return False
        if victim["type"] == "snowman":
            _event(events, "parents", f"Nobody minds cheating against a Snowman: {aggressor['name']} gets away with it.",
                   kid=aggressor_id, rolled=False, caught=False)
            return False
        needs = 2 if victim["type"] == "penguin" else 4
        rng = rng_for(s)
        if aggressor["type"] == "big_kid":
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            kept = min(dice)
            method = "2D6, highest removed (Playing Rough)"
        else:
            dice = [rng.randint(1, 6)]
            kept = dice[0]
            method = "1D6"
        caught = kept >= needs
        reason = " (DO NOT HIT ANIMALS)" if victim["type"] == "penguin" else ""
        _event(events, "parents", f"Did the parents see? {method}: {_dice_words(dice)}, caught on {needs}+{reason}: "
               + (f"{aggressor['name']} is dragged home for a telling off!" if caught else "nobody saw."),
               kid=aggressor_id, rolled=True, dice=dice, kept=kept, needs=needs, method=method, caught=caught)
        if not caught:
            return False
        seat = aggressor["seat"]
        s["pending_cheat"] = {"aggressor": aggressor_id, "source": source}
        if self._ask(s, events, seat, "caught", aggressor_id, f"{aggressor['name']}'s parents saw that."):
            return True
        s["pending_cheat"] = None
        self._send_home(s, events, aggressor_id, "parents")
        return False

    def _shove(self, s: State, events: list[Event], aggressor_id: str, victim_id: str) -> None:
        aggressor, victim = s["kids"][aggressor_id], s["kids"][victim_id]
        victim["down"] = True
        lost = 1 if victim["command_dice"] >= 2 else 0
        victim["command_dice"] -= lost
        _event(events, "shove", f"Shove 'Em! {aggressor['name']} knocks {_label(s, victim_id)} over"
               + (f"; it loses a Command Die ({victim['command_dice']} left)." if lost else "."), kid=aggressor_id,
               target=victim_id, lost=lost, command_dice=victim["command_dice"])
        if victim["type"] == "yeti":
            rng = rng_for(s)
            roll = rng.randint(1, 6)
            oops = roll >= 4
            text = f"Oops! {victim['name']} rolls {roll}"
            if oops:
                aggressor["down"] = True
                back = 1 if aggressor["command_dice"] >= 2 else 0
                aggressor["command_dice"] -= back
                text += f" and knocks {aggressor['name']} down too, by accident" + (
                    f" ({aggressor['command_dice']} Command Dice left)." if back else ".")
            else:
                text += ": no accident this time."
                back = 0
            _event(events, "oops", text, kid=victim_id, target=aggressor_id, roll=roll, needs=4, knocked=oops,
                   lost=back)
        if self._cheat_consequences(s, events, aggressor_id, victim_id, "shove"):
            return
        self._finish_action(s, events)

    def _send_home(self, s: State, events: list[Event], kid_id: str, why: str) -> None:
        kid = s["kids"][kid_id]
        kid["home"] = why
        kid["pos"] = None
        words = {"cold": "goes home to warm up", "parents": "is taken home by its parents",
                 "surrender": "goes home (its team surrendered)"}[why]
        _event(events, "home", f"{_label(s, kid_id)} {words}.", kid=kid_id, why=why)

    def _finish_action(self, s: State, events: list[Event]) -> None:
        """After a die's action: end the activation if the Kid left or has no dice it can use."""
        activation = s["activation"]
        if activation is None or s["pending"] is not None:
            return
        kid = s["kids"][activation["kid"]]
        if kid["home"] is not None:
            self._end_activation(s, events)

    def _end_activation(self, s: State, events: list[Event]) -> None:
        s["activation"] = None
        s["pending"] = None
        s["throw"] = None
