"""Rewrite the Fogbound golden replays: ``python tests/data/golden/snowball_fighting_fogbound/regenerate.py``.

Each game is played by the engine's computer player, with the last seat writing seeded random
legal orders (missing a deadline now and then) and seats shouting now and then. It is stored
as players + seed + options + action list, with what a spectator and seat 0 see (the static
map aside) and a SHA-256 of every other seat's view, mid-turn and at the end, the outcome and
a SHA-256 of every event. Run it only when a rules change is meant to change these games, and
review the diff.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from games.engines.base import GameError  # noqa: E402
from games.engines.snowball_fighting import RULESET  # noqa: E402
from games.engines.snowball_fighting import bot  # noqa: E402

GAMES = {
    "three_players": (3, 31, {"map": "fogbound"}),
    "six_players_spectators_see_all_slipping": (6, 2026, {"map": "fogbound", "spectators_see_all": True,
                                                           "rule14": True}),
}
SNAPSHOT_TURN = 4
SHOUTS = ("over here!", "missed me", "who goes there?")


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def views(state: dict, players: int) -> dict:
    """The spectator's and seat 0's views without the static map; a digest of each other seat's."""
    out = {}
    for viewer in [None, *range(players)]:
        view = {k: v for k, v in RULESET.view(state, viewer).items() if k != "map"}
        out["spectator" if viewer is None else str(viewer)] = view if viewer in (None, 0) else digest(view)
    return out


def play(players: int, seed: int, options: dict) -> dict:
    state = RULESET.new_game(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    random_seat = players - 1
    actions, events, snapshot = [], [], None
    while RULESET.outcome(state) is None:
        if state["phase"] == "orders" and rng.random() < 0.1:
            seat, action = rng.randrange(players), {"type": "shout", "text": rng.choice(SHOUTS)}
        else:
            seat = min(RULESET.to_act(state))
            if state["phase"] == "orders" and seat == random_seat and state["orders"][seat] is None:
                action = {"type": "deadline"} if rng.random() < 0.1 else bot.random_orders(state, seat, rng)
            else:
                action = RULESET.bot_action(state, seat)
        try:
            state, new_events = RULESET.apply(state, seat, action)
        except GameError:
            continue
        actions.append([seat, action])
        events.extend(new_events)
        if snapshot is None and state["turn"] == SNAPSHOT_TURN and state["orders"][0] is not None:
            snapshot = {"after_actions": len(actions), "views": views(state, players)}
    return {"players": players, "seed": seed, "options": options, "actions": actions, "snapshot": snapshot,
            "final_views": views(state, players), "outcome": RULESET.outcome(state),
            "events_sha256": digest(events)}


def main() -> None:
    for name, (players, seed, options) in GAMES.items():
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(play(players, seed, options), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
