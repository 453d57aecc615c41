"""Snowball Fighting: the hex-garden game of secret orders for 2 to 6 players.

The rules are in ``engine.py`` (state, setup, resolution), ``orders.py`` (the orders' JSON
shapes, checking them, and the hit chance a written throw would have), ``rules.py`` (the
ten actions and the hit-probability table), ``garden.py`` (the hex map), ``views.py`` (what
each viewer sees) and ``bot.py`` (a computer player). README.md beside this file gives the
rulings on what the rule book leaves open and every JSON shape.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import Action, Event, Option, State, changes_only_own, seen_by_seat_alone
from games.engines.snowball_fighting import bot, engine, views


class SnowballFighting:
    """The Snowball Fighting ruleset."""

    slug = engine.SLUG
    name = "Snowball Fighting"
    score_unit = "VPs"
    score_unit_one = "VP"
    reveal_events = frozenset({"start", "report"})  # the setup, a turn
    ready_action = {"type": "ready"}  # setup and orders are revisable until ready
    server_actions = frozenset(engine.SERVER_ACTION_TYPES)  # the default at a deadline, never a player's
    min_players = engine.MIN_PLAYERS
    max_players = engine.MAX_PLAYERS
    team_counts: tuple[int, ...] = ()
    options: tuple[Option, ...] = engine.OPTIONS

    new_game = staticmethod(engine.new_game)
    to_act = staticmethod(engine.to_act)
    legal_actions = staticmethod(engine.legal_actions)
    apply = staticmethod(engine.apply)
    view = staticmethod(views.view)
    outcome = staticmethod(engine.outcome)

    def bot_action(self, state: State, seat: int) -> Action:
        return bot.choose_action(views.view(state, seat))

    @staticmethod
    def private_action(before: State, after: State, seat: int, action: Action, events: list[Event]) -> bool:
        """A setup or orders written, or written again, without being ready: only their
        writer sees them."""
        return (action.get("type") in ("setup", "orders") and changes_only_own(before, after, seat, ("setup", "orders"))
                and seen_by_seat_alone(events, seat))

    @staticmethod
    def seen_only_by(before: State, after: State, seat: int, action: Action,
                     events: list[Event]) -> list[int | None] | None:
        """A Fogbound shout changes only its shouter's and its hearers' sounds (and what
        spectators see, if they see the whole garden): the readers of its event."""
        if action.get("type") != "shout":
            return None
        return sorted({reader for event in events for reader in event["visible_to"]}, key=lambda r: (r is None, r or 0))

    @staticmethod
    def resigned_outcome(state: State, winners: list[int]) -> dict[str, Any]:
        """The outcome when one combatant is left after the others resigned: VPs and damage as they stand."""
        return {**engine.standing(state), "winners": list(winners)}


RULESET = SnowballFighting()

__all__ = ["RULESET", "SnowballFighting"]
