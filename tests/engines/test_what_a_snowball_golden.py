"""Golden replays: recorded What a Snowball! games must replay to the same events, views and outcome.

The files are in tests/data/golden/what_a_snowball/ (2, 3 and 4 teams, each village);
regenerate.py beside them rewrites them after an intended rules change (review the diff
before committing it).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engines.what_a_snowball import RULESET

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "what_a_snowball"
FILES = sorted(GOLDEN.glob("*.json"))


def test_golden_replays_cover_two_three_and_four_teams_and_every_village():
    games = [json.loads(path.read_text()) for path in FILES]
    assert {len(set(g["teams"])) for g in games} == {2, 3, 4}
    assert {g["options"]["village"] for g in games} == {"green", "high_street", "random"}


def _seen(state, players):
    views = {str(seat): RULESET.view(state, seat) for seat in range(players)}
    views["spectator"] = RULESET.view(state, None)
    return json.loads(json.dumps(views))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    game = json.loads(path.read_text())
    players = len(game["teams"])
    state = RULESET.new_game(players=players, options=game["options"], seed=game["seed"], teams=game["teams"])
    events = []
    for step, (seat, action) in enumerate(game["actions"], start=1):
        assert seat in RULESET.to_act(state)
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
        if step == game["snapshot"]["after"]:
            assert _seen(state, players) == game["snapshot"]["views"]
    assert RULESET.outcome(state) == game["outcome"]
    assert hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest() == game["events_sha256"]
    assert _seen(state, players) == game["final_views"]
