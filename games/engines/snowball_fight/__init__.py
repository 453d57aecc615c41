"""Snowball Fight: a micro deckbuilder with simultaneous, sealed card plays.

Two players, or 3-6 (``new_game(players=5, ...)``, the rule book's 3+ player variant, in
``table.py``), or two teams of two or three (``new_game(players=4, teams=[0, 1, 0, 1], ...)``).
Tables of 2 to 6 seats, each for themselves or in two teams; ``team_leader_option`` names
the option through which the platform passes the leaders chosen in the waiting room.

The rules are in ``engine.py`` (state and resolution), ``cards.py`` (every card),
``views.py`` (what each viewer sees) and ``bot.py`` (a computer player). README.md beside this
file lists the project's rulings on what the rule book leaves open; ``rulings.py`` words
them for players on the rules page (/rules/snowball-fight/).

Options (``new_game(options=...)``)::

    {"draft": "draft" | "quick",                  # default "draft"
     "alternates": ["<alternate>:<standard>", ...],  # at most two, default []
     "team_leaders": [seat, seat]}                # team play only; default each team's lowest seat

alternate: upgrade-dodge | weapons-cache | raid; standard: iceball |
offensive-dodge | barrage | throwing-rocks. "raid:barrage" plays Raid / Refined
Upgrade instead of Barrage / Snatch and Run.

Actions (every card is named by its id, "c01".."c23", "c01b".., "c01c".. for extra decks;
sides are "top"/"bottom")::

    sealed steps (draft "pick" and "keep", card "choose"), until the seat locks:
      {"type": "choose", "card": "c07"}                     draft pick, tentative
      {"type": "choose", "keep": ["c07", "c12"]}            draft keep (two ids), tentative
      {"type": "choose", "card": "c07", "side": "top"}      card to play, tentative
      {"type": "lock"}                                      lock the tentative choice
      {"type": "play", ...same fields as choose...}         choose and lock at once
    3+ players play both cards, one to each neighbour (choose / play):
      {"type": "play", "left": {"card": "c07", "side": "top"}, "right": {"card": "c22", "side": "top"}}
    team leaders hand out the team's draw (one card to each listed team-mate):
      {"type": "deal", "give": {"0": "c07", "2": "c12b"}}
    effect prompts (one seat at a time, during a reveal):
      {"type": "abandon", "card": id}        Sneak Attack / Iceball hit you
      {"type": "upgrade", "card": id}        Upgrade, Ultra/Refined Upgrade, Upgrade Dodge
      {"type": "second_card", "card": id, "side": s} | {"type": "pass"}   Barrage hit
      {"type": "exchange", "give": id, "take": id}   Snatch and Run
      {"type": "cache", "card": id}          Weapons Cache
      {"type": "restock", "card": id}        Restock: the other discard to shuffle back
      {"type": "raid", "card": id}           Raid

An effect prompt with a single possible answer is answered by the engine.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import Action, Event, Option, State, changes_only_own, seen_by_seat_alone
from games.engines.snowball_fight import bot, engine, table, views


class SnowballFight:
    """The Snowball Fight ruleset (see the module docstring for options and actions)."""

    slug = engine.SLUG
    name = "Snowball Fight"
    score_unit = "points"
    score_unit_one = "point"
    reveal_events = frozenset({"draft_pass", "draft_done", "reveal"})
    ready_action = {"type": "lock"}  # a chosen card is revisable until locked
    min_players = 2
    max_players = engine.MAX_SEATS
    team_counts: tuple[int, ...] = (0, 2)
    team_leader_option = "team_leaders"
    options: tuple[Option, ...] = engine.OPTIONS

    # The rules are the engine's functions themselves (no wrapper call on every step).
    new_game = staticmethod(engine.new_game)
    to_act = staticmethod(engine.to_act)
    legal_actions = staticmethod(engine.legal_actions)
    apply = staticmethod(engine.apply)
    view = staticmethod(views.view)
    outcome = staticmethod(engine.outcome)

    @staticmethod
    def check_teams(*, players: int, teams: list[int]) -> None:
        """Team play needs two teams of equal size, at least two players each (RULINGS 15)."""
        table.team_layout(players, teams)

    def bot_action(self, state: State, seat: int) -> Action:
        return bot.choose_action(views.view(state, seat))

    @staticmethod
    def private_action(before: State, after: State, seat: int, action: Action, events: list[Event]) -> bool:
        """A chosen card changed for another before the lock: the others already saw "has
        chosen", and only the chooser sees which."""
        return (action.get("type") == "choose" and before["sealed"][seat] is not None
                and after["sealed"][seat] is not None and changes_only_own(before, after, seat, ("sealed",))
                and seen_by_seat_alone(events, seat))

    @staticmethod
    def resigned_outcome(state: State, winners: list[int]) -> dict[str, Any]:
        """The outcome when one side is left after the others resigned: the scores as they stand."""
        return {**engine.standing(state), "winners": list(winners)}


RULESET = SnowballFight()

__all__ = ["RULESET", "SnowballFight"]
