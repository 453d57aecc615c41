"""Golden replays: recorded Snowball Fighting games must replay to the same views, events and outcome.

The files are in tests/data/golden/snowball_fighting/; regenerate.py beside them rewrites
them after an intended rules change (review the diff before committing it).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engines.snowball_fighting import RULESET
from games.engines.snowball_fighting.views import map_view

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "snowball_fighting"
FILES = sorted(GOLDEN.glob("*.json"))


def check_views(state: dict, players: int, expected: dict) -> None:
    for viewer in [None, *range(players)]:
        view = json.loads(json.dumps(RULESET.view(state, viewer)))
        assert view.pop("map") == map_view("garden")
        spectator = expected["spectator"]
        if viewer is None:
            assert view == spectator
        else:
            assert view == {**spectator, "viewer": viewer, "you": expected[str(viewer)]["you"]}, viewer


def test_golden_replays_cover_two_to_six_players_and_every_optional_rule():
    games = [json.loads(p.read_text()) for p in FILES]
    assert {g["players"] for g in games} >= {2, 3, 4, 6}
    assert any(all(g["options"].get(r) for r in ("rule12", "rule13", "rule14")) for g in games)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    game = json.loads(path.read_text())
    players = game["players"]
    state = RULESET.new_game(players=players, options=game["options"], seed=game["seed"])
    events = []
    for i, (seat, action) in enumerate(game["actions"], start=1):
        assert seat in RULESET.to_act(state)
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
        if i == game["snapshot"]["after_actions"]:
            check_views(state, players, game["snapshot"]["views"])
    assert RULESET.outcome(state) == game["outcome"]
    assert hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest() == game["events_sha256"]
    check_views(state, players, game["final_views"])
