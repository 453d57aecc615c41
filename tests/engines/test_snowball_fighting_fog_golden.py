"""Golden replays of Fogbound games: recorded games must replay to the same views, events and outcome.

The files are in tests/data/golden/snowball_fighting_fogbound/; regenerate.py beside them
rewrites them after an intended rules change (review the diff before committing it).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engines.snowball_fighting import RULESET
from games.engines.snowball_fighting.views import map_view

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "snowball_fighting_fogbound"
FILES = sorted(GOLDEN.glob("*.json"))


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def check_views(state: dict, players: int, expected: dict) -> None:
    for viewer in [None, *range(players)]:
        view = json.loads(json.dumps(RULESET.view(state, viewer)))
        assert view.pop("map") == map_view("fogbound")
        want = expected["spectator" if viewer is None else str(viewer)]
        assert (view if isinstance(want, dict) else digest(view)) == want, viewer


def test_golden_fogbound_replays_cover_shouts_spectators_who_see_all_and_an_optional_rule():
    games = [json.loads(p.read_text()) for p in FILES]
    assert {g["players"] for g in games} >= {3, 6}
    assert any(g["options"].get("spectators_see_all") for g in games)
    assert any(g["options"].get("rule14") for g in games)
    assert all(any(a["type"] == "shout" for _, a in g["actions"]) for g in games)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_fogbound_replay(path):
    game = json.loads(path.read_text())
    players = game["players"]
    state = RULESET.new_game(players=players, options=game["options"], seed=game["seed"])
    events = []
    for i, (seat, action) in enumerate(game["actions"], start=1):
        state, new_events = RULESET.apply(state, seat, action)
        events.extend(new_events)
        if i == game["snapshot"]["after_actions"]:
            check_views(state, players, game["snapshot"]["views"])
    assert RULESET.outcome(state) == game["outcome"]
    assert digest(events) == game["events_sha256"]
    check_views(state, players, game["final_views"])
