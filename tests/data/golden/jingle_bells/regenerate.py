"""Rewrite the Jingle Bells golden replays: ``python tests/data/golden/jingle_bells/regenerate.py``.

Each game is played by the engine's own computer player for both seats, on each table
layout, then stored as seed + options + action list with the final view of each seat, the
spectator's view, the outcome and a SHA-256 of every event the game produced (so a change
to any roll, hit or log line shows). Run it only when a rules change is meant to change
these games, and review the diff.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from tests.data.golden.recording import finished_game, write_games  # noqa: E402
from games.engines.jingle_bells import RULESET  # noqa: E402

GAMES = {
    "garden": (1224, {"layout": "garden"}),
    "park": (2512, {"layout": "park"}),
    "street": (3112, {"layout": "street"}),
    "random_layout": (4101, {"layout": "random"}),
}


def events_digest(events: list) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def play(seed: int, options: dict) -> dict:
    """One recorded game: the actions in order and what each viewer sees at the end."""
    state = RULESET.new_game(players=2, options=options, seed=seed)
    actions, events = [], []
    while RULESET.outcome(state) is None:
        seat = min(RULESET.to_act(state))
        action = RULESET.bot_action(state, seat)
        actions.append([seat, action])
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
    return finished_game(RULESET, state, seed=seed, options=options, actions=actions,
                         events_sha256=events_digest(events))


def main() -> None:
    write_games(HERE, GAMES, play)


if __name__ == "__main__":
    main()
