"""Golden replays: recorded games must replay to the same final views and outcome.

The files are in tests/data/golden/snowball_fight/; regenerate.py beside them rewrites
them after an intended rules change (review the diff before committing it).
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from games.engines.snowball_fight import RULESET

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "snowball_fight"
FILES = sorted(GOLDEN.glob("*.json"))
SCRIPT = importlib.import_module("tests.data.golden.snowball_fight.regenerate")


def test_golden_replays_exist():
    games = [json.loads(path.read_text()) for path in FILES]
    assert len(games) >= 7
    assert {g.get("players", 2) for g in games} >= {2, 3, 6}
    assert any("teams" in g for g in games)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path):
    game = json.loads(path.read_text())
    players = game.get("players", 2)
    table = {"teams": game["teams"]} if "teams" in game else {}
    state = RULESET.new_game(players=players, options=game["options"], seed=game["seed"], **table)
    for seat, action in game["actions"]:
        assert seat in RULESET.to_act(state)
        state, _ = RULESET.apply(state, seat, action)
    assert RULESET.outcome(state) == game["outcome"]
    viewers = [(str(seat), seat) for seat in range(players)] + [("spectator", None)]
    assert sorted(game["final_views"]) == sorted(key for key, _ in viewers)
    for key, viewer in viewers:
        assert json.loads(json.dumps(RULESET.view(state, viewer))) == game["final_views"][key], key


@pytest.mark.parametrize("name", sorted(SCRIPT.GAMES))
def test_the_regenerate_script_writes_each_file_as_it_is(name):
    """regenerate.py, run now, writes every file exactly as stored: its diff after a rules change
    then shows that change alone, not an older one nobody regenerated the files for."""
    seed, options = SCRIPT.GAMES[name]
    game = SCRIPT.play(seed, options)
    stored = (GOLDEN / f"{name}.json").read_text()
    assert game["actions"] == json.loads(stored)["actions"]
    assert json.dumps(game, indent=1, sort_keys=True) + "\n" == stored
