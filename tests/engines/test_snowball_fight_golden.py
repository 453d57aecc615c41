"""Golden replays: recorded games must replay to the same final views and outcome.

The files are in tests/data/golden/snowball_fight/; regenerate.py beside them rewrites
them after an intended rules change (review the diff before committing it).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engines.snowball_fight import RULESET

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "snowball_fight"
FILES = sorted(GOLDEN.glob("*.json"))


def test_golden_replays_exist():
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    game = json.loads(path.read_text())
    state = RULESET.new_game(players=2, options=game["options"], seed=game["seed"])
    for seat, action in game["actions"]:
        assert seat in RULESET.to_act(state)
        state, _ = RULESET.apply(state, seat, action)
    assert RULESET.outcome(state) == game["outcome"]
    for key, viewer in (("0", 0), ("1", 1), ("spectator", None)):
        assert json.loads(json.dumps(RULESET.view(state, viewer))) == game["final_views"][key], key
