"""Rewrite the Snowball Fight golden replays: ``python tests/data/golden/snowball_fight/regenerate.py``.

Each game is played by the engine's own bot for seat 0 and a seeded random player for
seat 1 (so effect prompts and odd choices appear), then stored as seed + options +
action list with the final view of each seat, the spectator's view and the outcome.
Run it only when a rules change is meant to change these games, and review the diff.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from tests.data.golden.recording import finished_game, write_games  # noqa: E402
from games.engines.snowball_fight import RULESET  # noqa: E402

GAMES = {
    "full_draft": (101, {}),
    "quick_draft": (200, {"draft": "quick"}),
    "raid_and_weapons_cache": (331, {"alternates": ["raid:barrage", "weapons-cache:iceball"]}),
    "upgrade_dodge": (404, {"draft": "quick", "alternates": ["upgrade-dodge:throwing-rocks"]}),
}


def play(seed: int, options: dict) -> dict:
    """One recorded game: the actions in order and what each viewer sees at the end."""
    state = RULESET.new_game(players=2, options=options, seed=seed)
    rng = random.Random(seed)
    actions = []
    while RULESET.outcome(state) is None:
        seat = min(RULESET.to_act(state))
        if seat == 0:
            action = RULESET.bot_action(state, seat)
        else:
            legal = [a for a in RULESET.legal_actions(state, seat) if a["type"] != "choose"]
            action = rng.choice(legal)
        actions.append([seat, action])
        state, _ = RULESET.apply(state, seat, action)
    return finished_game(RULESET, state, seed=seed, options=options, actions=actions)


def main() -> None:
    write_games(HERE, GAMES, play)


if __name__ == "__main__":
    main()
