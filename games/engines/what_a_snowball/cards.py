"""What a Snowball!'s ability cards: drawing and discarding them, playing one, and the reactions
they open.
"""
from __future__ import annotations

from typing import Any

from ..base import Action, BadAction, Event, IllegalAction, State, rng_for, shown
from ..base import action_str as _str
from . import kids as K
from .common import (
    MOMENT_CARDS,
    TEAM_NAMES,
    _about,
    _asks,
    _bool,
    _count,
    _event,
    _hand,
    _offered,
    _p,
    _rolled_inches,
    _without,
)


class Cards:
    """Ability cards and the reactions they answer. A part of ``engine.WhatASnowball``."""

    def _draw(self, s: State, seat: int, count: int, events: list[Event], why: str) -> None:
        deck = s["deck"]
        kept = max(0, len(deck) - count)
        drawn = deck[kept:][::-1]
        s["deck"] = deck[:kept]
        if len(drawn) < count:
            _event(events, "deck_empty", "The ability-card pile is empty.", seat=seat)
        s["hands"][seat] = s["hands"][seat] + drawn
        if drawn:
            _event(events, "draw", f"{_p(seat)} draws {_count(len(drawn), 'ability card')} ({why}).", seat=seat,
                   count=len(drawn), why=why)
            _event(events, "drawn", f"You draw {', '.join(K.CARDS[c]['title'] for c in drawn)}.", seat=seat,
                   cards=drawn, visible_to=[seat])

    def _discard(self, s: State, seat: int, card: str, events: list[Event], kid_id: str | None) -> None:
        s["hands"][seat] = _without(s["hands"][seat], card)
        s["discards"] = s["discards"] + [card]
        who = f" for {s['kids'][kid_id]['name']}" if kid_id else ""
        _event(events, "card", f"{_p(seat)} plays \"{K.CARDS[card]['title']}\"{who}.", seat=seat, card=card,
               kid=kid_id)

    def _need_card(self, s: State, seat: int, card: Any) -> str:
        if card not in K.CARDS:
            raise BadAction(f"There is no ability card {shown(card)}; cards are {', '.join(K.CARD_NAMES)}.")
        if card not in _hand(s, seat):
            raise IllegalAction(f"You do not hold \"{K.CARDS[card]['title']}\".")
        return card

    def _do_set_never_ask(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = _str(action, "card")
        if card not in K.ASKED_CARDS:
            raise BadAction(f"Only the cards you are asked about ({', '.join(K.ASKED_CARDS)}) can be set to never "
                            f"ask, not {shown(card)}.")
        on = _bool(action, "on", True)
        settings = s["never_ask"][seat]
        if on and card not in settings:
            s["never_ask"][seat] = settings + [card]
        if not on and card in settings:
            s["never_ask"][seat] = _without(settings, card)
        _event(events, "setting", f"You will {'never be asked' if on else 'be asked'} to play "
               f"\"{K.CARDS[card]['title']}\".", seat=seat, card=card, never_ask=on, visible_to=[seat])
        if not on:
            return
        # a question this setting closes is answered as the game would answer it without asking
        pending, activation = s["pending"], s["activation"]
        if pending is not None and pending["seat"] == seat and pending["kind"] == "reaction" \
                and card in _about(pending):
            pending["cards"] = [c for c in pending["cards"] if c != card]
            if not _asks(s, seat, _about(pending)):
                self._answer_reaction(s, events, None)
        elif pending is None and activation is not None and activation["stage"] == "start" \
                and s["kids"][activation["kid"]]["seat"] == seat and card in MOMENT_CARDS["start"] \
                and not _asks(s, seat, MOMENT_CARDS["start"]):
            self._roll_command_dice(s, events, s["kids"][activation["kid"]]["command_dice"])

    def _do_surrender(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        on = _bool(action, "on", True)
        s["surrender_votes"][seat] = on
        team = s["seat_team"][seat]
        seats = self._team_seats(s, team)
        agreed = sum(1 for x in seats if s["surrender_votes"][x])
        _event(events, "surrender_vote", f"{_p(seat)} {'votes to surrender' if on else 'withdraws the surrender'}"
               f" (team {TEAM_NAMES[team]}: {agreed} of {len(seats)} agree).", seat=seat, team=team, on=on,
               agreed=agreed, needed=len(seats))

    def _do_play_card(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        card = self._need_card(s, seat, action.get("card"))
        pending = s["pending"]
        if pending is not None:
            if card not in pending["cards"]:
                raise IllegalAction(f"\"{K.CARDS[card]['title']}\" cannot be played now; you may play "
                                    f"{', '.join(pending['cards']) or 'nothing'}.")
            self._answer_reaction(s, events, card)
            return
        activation = s["activation"]
        kid_id = activation["kid"]
        kid = s["kids"][kid_id]
        if activation["stage"] == "start":
            if card != "not_done":
                raise IllegalAction("Before rolling you may play only \"I'm not done yet!\"; roll first for others.")
            if card not in _offered(s, seat, MOMENT_CARDS["start"]):
                raise IllegalAction("You set \"I'm not done yet!\" to never ask; roll, or switch the setting back.")
            self._discard(s, seat, card, events, kid_id)
            self._roll_command_dice(s, events, 6)
            return
        if card == "saving":
            choice = _str(action, "choice")
            if choice not in K.SAVING_CHOICES:
                raise BadAction(f'"choice" must be one of {", ".join(K.SAVING_CHOICES)}, not {shown(choice)}.')
            self._discard(s, seat, card, events, kid_id)
            kid["snowballs"] = sorted(kid["snowballs"] + K.SAVING_CHOICES[choice])
            _event(events, "stash", f"{kid['name']} pulls out a stash: snowballs of Size "
                   f"{', '.join(map(str, K.SAVING_CHOICES[choice]))}.", kid=kid_id, gained=K.SAVING_CHOICES[choice],
                   snowballs=list(kid["snowballs"]))
        elif card == "dash":
            if kid["down"]:
                raise IllegalAction(f"{kid['name']} is knocked down: get up before dashing.")
            self._discard(s, seat, card, events, kid_id)
            self._start_dash(s, events, kid_id, then=None)
        elif card == "miracle":
            if kid["type"] not in ("elf", "yeti"):
                raise IllegalAction("\"A Christmas Miracle!\" is played when a Kid is about to be removed for "
                                    "cheating; only for a Kid that cannot cheat (an Elf or a Yeti) may it be "
                                    "swapped for two cards.")
            self._discard(s, seat, card, events, kid_id)
            self._draw(s, seat, 2, events, "A Christmas Miracle!")
        else:
            raise IllegalAction(f"\"{K.CARDS[card]['title']}\" is played {K.CARDS[card]['when']}.")

    def _do_decline(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        self._answer_reaction(s, events, None)

    def _start_dash(self, s: State, events: list[Event], kid_id: str, then: str | None) -> None:
        rng = rng_for(s)
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        kid = s["kids"][kid_id]
        _event(events, "move_roll", f"{kid['name']} dashes: {_rolled_inches(dice)}.",
               kid=kid_id, dice=dice, roll=sum(dice), source="dash")
        s["pending"] = {"kind": "move_to", "seat": kid["seat"], "kid": kid_id, "roll": sum(dice), "dice": dice,
                        "slide": False, "shove": False, "source": "dash", "then": then}

    def _answer_reaction(self, s: State, events: list[Event], card: str | None) -> None:
        """Play a reaction card (or decline) and carry on with what the reaction interrupted."""
        pending = s["pending"]
        seat, moment = pending["seat"], pending["moment"]
        throw = s["throw"]
        if card is None:
            _event(events, "decline", f"{_p(seat)} plays no card.", seat=seat)
            s["pending"] = None
            self._resume(s, events, moment)
            return
        kid_id = pending["kid"]
        self._discard(s, seat, card, events, kid_id)
        if card == "dork":
            throw["dork"] = True
        elif card == "grandma":
            throw["grandma"] = True
        elif card == "dash":
            s["pending"] = None
            self._start_dash(s, events, kid_id, then=moment)
            return
        elif card == "miracle":
            _event(events, "miracle", f"{s['kids'][kid_id]['name']}'s parents are distracted at the last second: "
                   "nothing happens.", kid=kid_id)
            s["pending"] = None
            self._resume(s, events, "miracle")
            return
        # still asked about the moment's other cards, if any (each is played once a moment)
        about = [c for c in _about(pending) if c != card]
        if _asks(s, seat, about):
            pending["about"], pending["cards"] = about, _offered(s, seat, about)
            return
        s["pending"] = None
        self._resume(s, events, moment)

    def _resume(self, s: State, events: list[Event], moment: str | None) -> None:
        """Carry on after a question: the throw in progress, a cheat's aftermath, or the activation."""
        if moment in ("throw_declared", "hit"):
            self._run_throw(s, events)
        elif moment in ("caught", "miracle"):
            cheat = s["pending_cheat"]
            s["pending_cheat"] = None
            if moment == "caught" and cheat is not None:
                self._send_home(s, events, cheat["aggressor"], "parents")
            self._finish_action(s, events)
