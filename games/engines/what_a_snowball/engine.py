"""Rule engine for "What a Snowball!" (slug ``what-a-snowball``), the skirmish for 2-4 teams of Kids.

A game runs through these phases, kept in ``state["phase"]``:

``corners``  the teams, in roll-off order, pick their corners (two each with two teams);
``deploy``   team by team, each seat places its Kids within 6 inches of a corner of its team;
``play``     six turns: the activation order is rolled, then each Kid in turn rolls its
             Command Dice and spends them one at a time; throws, shoves and cards may stop
             to ask another seat (a reaction) before they resolve;
``over``     six turns are done, one team is left, or every other team surrendered.

See README.md in this package for the rulings behind each choice.
"""
from __future__ import annotations

from typing import Any

from ..base import (Action, BadAction, Event, IllegalAction, NotYourTurn, Option, State, changes_only_own,
                    seen_by_seat_alone, shown)
from . import kids as K
from . import villages
from .set_up import SetUp
from .asking import Asking
from .cards import Cards
from .activation import Activation
from .throwing import Throwing
from .turns import Turns
from .views import Views
from .common import (
    ACTION_TYPES,
    ALLOWED,
    ANYTIME,
    ASKED_WORDS,
    canonical_options,
    _copy,
    _fire,
    _in_play,
    _p,
)


# --- the ruleset --------------------------------------------------------------------------------

class WhatASnowball(SetUp, Asking, Cards, Activation, Throwing, Turns, Views):
    """Ruleset for the miniatures skirmish; see the module docstring for the phases."""

    slug = "what-a-snowball"
    name = "What a Snowball!"
    score_unit = "points"
    score_unit_one = "point"
    reveal_events = frozenset()
    review_reveals = frozenset({"roll_off", "turn", "card", "point"})  # roll-off, initiative, a card played, a point
    min_players = 2
    max_players = 12
    team_counts = (2, 3, 4)
    options = (
        Option(name="village", label="Village", kind="choice", default=villages.DEFAULT, choices=villages.CHOICES,
               help="The 24 x 24 inch Christmas village the fight takes place in; a random village is drawn when "
                    "the game starts."),
        Option(name="special_players", label="Special players (optional rules)", kind="bool", default=False,
               help="Allow Big Kids, Christmas Elves, Living Snowmen, Yetis and Penguins in the roster."),
        Option(name="ability_cards", label="Ability cards (optional rules)", kind="choice", default="none",
               choices=(("none", "No ability cards"),
                        ("method1", "Method 1: drawn in play"),
                        ("method2", "Method 2: drawn at the start")),
               help="Method 1: draw one on 3 points or on sending an enemy home. Method 2: draw at the start, "
                    "3 for one Kid, else one per Kid."),
        Option(name="kids", label="Kids", kind="roster", default=None,
               help="Each Kid's name, the player who commands it, its type and Trait(s): 6 to 12 Kids, 1 to 3 per "
                    "player, every team the same size. Left empty, the game makes equal teams of ready-made Kids. "
                    f"Types: {', '.join(K.TYPES)} (all but kid with special players); Traits: "
                    f"{', '.join(K.TRAITS)}, in any letter case."),
    )

    canonical_options = staticmethod(canonical_options)

    @staticmethod
    def private_action(before: State, after: State, seat: int, action: Action, events: list[Event]) -> bool:
        """A card set to be asked about, or never, that answers no question: only its player sees it."""
        return (action.get("type") == "set_never_ask" and changes_only_own(before, after, seat, ("never_ask",))
                and seen_by_seat_alone(events, seat))

    # -- applying actions -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadAction('An action must be an object with a "type".')
        kind = action["type"]
        if kind not in ACTION_TYPES:
            raise BadAction(f"Unknown action {shown(kind)}; this game knows {', '.join(ACTION_TYPES)}.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise NotYourTurn(f"There is no seat {shown(seat)} in this game.")
        if state["phase"] == "over":
            raise IllegalAction("The game is over.")
        s = _copy(state)
        events: list[Event] = []
        if kind in ANYTIME:
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        else:
            asked = self._asked(s)
            if seat not in asked:
                waiting = ", ".join(f"{_p(other)} to {ASKED_WORDS[k]}" for other, k in asked.items())
                raise NotYourTurn(f"It is not your turn: waiting for {waiting}.")
            if kind not in ALLOWED[asked[seat]]:
                raise IllegalAction(f"You cannot {kind} now: you are asked to {ASKED_WORDS[asked[seat]]}.")
            getattr(self, f"_do_{kind}")(s, seat, action, events)
        self._advance(s, events)
        return s, events

    def bot_action(self, state: State, seat: int) -> Action:
        from .bot import choose_action

        if seat not in self._asked(state):
            raise NotYourTurn("The computer player is not being asked to act now.")
        return choose_action(self.view(state, seat))


RULESET = WhatASnowball()


def line_of_fire_between(state: State, from_id: str, to_id: str) -> dict[str, Any]:
    """Line of fire between two Kids in the village (see ``geometry.line_of_fire``)."""
    for kid_id in (from_id, to_id):
        if kid_id not in _in_play(state):
            raise KeyError(f"no Kid {shown(kid_id)} in the village")
    return _fire(state, from_id, to_id)
