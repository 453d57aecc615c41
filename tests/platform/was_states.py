"""Real What a Snowball! states for the board tests, reached by playing the engine from a seed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.what_a_snowball import RULESET as R

State = dict[str, Any]


def new(seed: int = 7, players: int = 2, options: dict[str, Any] | None = None) -> State:
    return R.new_game(players=players, options=options or {}, seed=seed)


def play_until(state: State, stop: Callable[[State], bool], *, limit: int = 3000,
               choose: Callable[[State, int], dict] | None = None) -> State:
    """Let the computer players act until ``stop(state)``; the state it stopped at."""
    for _ in range(limit):
        if stop(state):
            return state
        to_act = R.to_act(state)
        if not to_act:
            break
        seat = min(to_act)
        action = choose(state, seat) if choose else None
        state, _ = R.apply(state, seat, action or R.bot_action(state, seat))
    if stop(state):
        return state
    raise AssertionError("the game never reached the wanted moment")
