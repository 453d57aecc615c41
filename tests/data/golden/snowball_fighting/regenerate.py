"""Rewrite the Snowball Fighting golden replays: ``python tests/data/golden/snowball_fighting/regenerate.py``.

Each game is played by the engine's computer player, with one seat writing seeded random
legal orders and missing a deadline now and then, so that every action and optional rule
shows up. It is stored as players + seed + options + action list, with what a spectator and
each seat see in the middle of a turn (one seat's orders written, sealed) and at the end
(the static map aside; a seat's view is the spectator's with its own "viewer" and "you"),
the outcome, and a SHA-256 of every event. Run it only when a rules change is meant to
change these games, and review the diff.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from games.engines.snowball_fighting import RULESET  # noqa: E402
from games.engines.snowball_fighting import bot  # noqa: E402

GAMES = {
    "two_players": (2, 1901, {}),
    "three_players_00_spells_disaster": (3, 2024, {"rule12": True}),
    "four_players_conditional_orders": (4, 77, {"rule13": True}),
    "six_players_every_optional_rule": (6, 3141, {"rule12": True, "rule13": True, "rule14": True}),
}
SNAPSHOT_TURN = 2


def events_digest(events: list) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def without_map(view: dict) -> dict:
    """A view without its static map drawing (the golden test checks that part on its own)."""
    return {k: v for k, v in view.items() if k != "map"}


def views(state: dict, players: int) -> dict:
    """The spectator's view, and each seat's own part ("you"); the rest of a seat's view is the
    spectator's with "viewer" set, which the golden test checks."""
    out: dict = {"spectator": without_map(RULESET.view(state, None))}
    for seat in range(players):
        view = RULESET.view(state, seat)
        assert without_map({**view, "viewer": None, "you": None}) == out["spectator"]
        out[str(seat)] = {"you": view["you"]}
    return out


def play(players: int, seed: int, options: dict) -> dict:
    """One recorded game: the actions in order and what each viewer sees mid-turn and at the end."""
    state = RULESET.new_game(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    random_seat = players - 1
    actions, events, snapshot = [], [], None
    while RULESET.outcome(state) is None:
        seat = min(RULESET.to_act(state))
        if state["phase"] == "orders" and seat == random_seat and state["orders"][seat] is None:
            action = {"type": "deadline"} if rng.random() < 0.1 else bot.random_orders(state, seat, rng)
            if action["type"] == "orders" and snapshot is None and state["turn"] == SNAPSHOT_TURN:
                action = {**action, "ready": False}
        else:
            action = RULESET.bot_action(state, seat)
        actions.append([seat, action])
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
        if snapshot is None and state["turn"] == SNAPSHOT_TURN and state["orders"][random_seat] is not None:
            snapshot = {"after_actions": len(actions), "views": views(state, players)}
    return {
        "players": players, "seed": seed, "options": options, "actions": actions,
        "snapshot": snapshot, "final_views": views(state, players),
        "outcome": RULESET.outcome(state), "events_sha256": events_digest(events),
    }


def main() -> None:
    for name, (players, seed, options) in GAMES.items():
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(play(players, seed, options), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
