"""Rewrite the Snowball Fight golden replays: ``python tests/data/golden/snowball_fight/regenerate.py``.

Each game is played by the engine's own bot for seat 0 and a seeded random player for
the other seats (so effect prompts and odd choices appear), then stored as seed + options +
action list with the final view of each seat, the spectator's view and the outcome.
Games of more than two players also store ``players`` (and ``teams`` for team play).
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
    "three_players": (503, {"players": 3}),
    "six_players": (606, {"players": 6, "draft": "quick", "alternates": ["raid:barrage"]}),
    "teams_two_against_two": (707, {"players": 4, "teams": [0, 1, 0, 1], "team_leaders": [2, 1]}),
}


def play(seed: int, options: dict) -> dict:
    """One recorded game: the actions in order and what each viewer sees at the end."""
    options = dict(options)
    players = options.pop("players", 2)
    teams = options.pop("teams", None)
    table = {"players": players, **({"teams": teams} if teams is not None else {})}
    state = RULESET.new_game(options=options, seed=seed, **table)
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
    extra = table if players != 2 else {}
    return finished_game(RULESET, state, seed=seed, options=options, actions=actions, seats=players, **extra)


def main() -> None:
    write_games(HERE, GAMES, play)


if __name__ == "__main__":
    main()
