"""Golden replays: recorded Jingle Bells games must replay to the same events, views and outcome.

The files are in tests/data/golden/jingle_bells/ (one per table layout); regenerate.py
beside them rewrites them after an intended rules change (review the diff before
committing it). They were checked against the engine before its speed-up as well.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engines.jingle_bells import RULESET

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "jingle_bells"
FILES = sorted(GOLDEN.glob("*.json"))


def test_every_layout_has_a_golden_replay():
    layouts = {json.loads(path.read_text())["options"]["layout"] for path in FILES}
    assert layouts == {"garden", "park", "street", "random"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    game = json.loads(path.read_text())
    state = RULESET.new_game(players=2, options=game["options"], seed=game["seed"])
    events = []
    for seat, action in game["actions"]:
        assert seat in RULESET.to_act(state)
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
    assert RULESET.outcome(state) == game["outcome"]
    assert hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest() == game["events_sha256"]
    for key, viewer in (("0", 0), ("1", 1), ("spectator", None)):
        assert json.loads(json.dumps(RULESET.view(state, viewer))) == game["final_views"][key], key
