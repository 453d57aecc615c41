"""Rewrite the What a Snowball! golden replays: ``python tests/data/golden/what_a_snowball/regenerate.py``.

Each game is played by the engine's own computer player for every seat, then stored as seed,
seats' teams, options and the action list, with what every seat and a spectator see part-way
(the first moment after action 60 when nobody is choosing where to move) and at the end, the
outcome and a SHA-256 of every event the game produced (so a change to any roll, hit or log
line shows). Run it only when a rules change is meant to change these games, and review the diff.
With ``--keep-actions`` the recorded actions are replayed instead of the computer player's
choices (for a change of wording or of what a view shows, which leaves the games as they were).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from games.engines.what_a_snowball import RULESET  # noqa: E402

SNAPSHOT_AFTER = 60


def _kids(teams: list[int], per_team: int, types: list[str]) -> list[dict]:
    kids = []
    for team in sorted(set(teams)):
        seats = [seat for seat, t in enumerate(teams) if t == team]
        for i in range(per_team):
            kind = types[(team + i) % len(types)]
            kid = {"name": f"{'RBGY'[team]}{i + 1}", "seat": seats[i % len(seats)], "type": kind}
            if kind == "big_kid":
                kid["traits"] = ["strong", "skilful"]
            elif kind not in ("elf", "yeti"):
                kid["traits"] = [["fast", "strong", "skilful", "resourceful"][(team + i) % 4]]
            kids.append(kid)
    return kids


GAMES = {
    "green_two_teams_four_seats": (2024, [0, 1, 0, 1], {
        "village": "green", "special_players": True, "ability_cards": "method1",
        "kids": _kids([0, 1, 0, 1], 4, ["kid", "big_kid", "elf", "snowman", "yeti", "penguin"])}),
    "high_street_three_teams": (1225, [0, 1, 2], {
        "village": "high_street", "special_players": True, "ability_cards": "method2",
        "kids": _kids([0, 1, 2], 3, ["penguin", "kid", "snowman", "big_kid"])}),
    "random_village_four_teams": (612, [0, 1, 2, 3], {"village": "random"}),
}


def events_digest(events: list) -> str:
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def views(state: dict, players: int) -> dict:
    return {**{str(seat): RULESET.view(state, seat) for seat in range(players)}, "spectator": RULESET.view(state, None)}


def play(seed: int, teams: list[int], options: dict, recorded: list | None = None) -> dict:
    """One recorded game: the actions in order (the computer player's, or ``recorded``) and what
    each viewer sees part-way and at the end."""
    players = len(teams)
    state = RULESET.new_game(players=players, options=options, seed=seed, teams=teams)
    actions, events, snapshot = [], [], None
    while RULESET.outcome(state) is None:
        if recorded is None:
            seat = min(RULESET.to_act(state))
            action = RULESET.bot_action(state, seat)
        else:
            seat, action = recorded[len(actions)]
        actions.append([seat, action])
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
        if snapshot is None and len(actions) >= SNAPSHOT_AFTER and (
                state["pending"] is None or state["pending"]["kind"] != "move_to"):
            snapshot = {"after": len(actions), "views": views(state, players)}
    return {"seed": seed, "teams": teams, "options": options, "actions": actions, "events_sha256": events_digest(events),
            "snapshot": snapshot, "final_views": views(state, players), "outcome": RULESET.outcome(state)}


def main() -> None:
    keep_actions = "--keep-actions" in sys.argv[1:]
    for name, (seed, teams, options) in GAMES.items():
        path = HERE / f"{name}.json"
        recorded = json.loads(path.read_text())["actions"] if keep_actions else None
        path.write_text(json.dumps(play(seed, teams, options, recorded), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
