"""The Jingle Bells computer player: legal, sensible, and blind to what its view hides."""
from __future__ import annotations

import copy
import random

import pytest

from games.engines.base import NotYourTurn
from games.engines.jingle_bells import RULESET as R
from games.engines.jingle_bells.bot import _spot_score, choose_action, random_action
from games.engines.jingle_bells.geometry import distance, obstacle, sight_clear

from tests.engines.test_jingle_bells_engine import battle, deployed

LAYOUTS = ["garden", "park", "street", "random"]


def play(seed: int, bots: tuple[bool, bool], cap: int = 3000) -> dict:
    """A game between the bot and/or a random player; every bot action must be accepted."""
    s = R.new_game(players=2, options={"layout": LAYOUTS[seed % 4]}, seed=seed)
    rng = random.Random(seed)
    for _ in range(cap):
        if R.outcome(s) is not None:
            return s
        seat = rng.choice(sorted(R.to_act(s)))
        if bots[seat]:
            action = R.bot_action(s, seat)
        else:
            action = random_action(R.legal_actions(s, seat), s["pieces"], s["obstructions"], rng, forward=1.0)
        s, _ = R.apply(s, seat, action)
    raise AssertionError(f"game {seed} did not end in {cap} actions")


def test_bot_beats_a_random_player() -> None:
    wins = sum(R.outcome(play(seed, (seed % 2 == 0, seed % 2 == 1)))["winners"] == [seed % 2] for seed in range(12))
    assert wins >= 11


@pytest.mark.parametrize("seed", range(8))
def test_bot_games_end_with_only_legal_actions(seed: int) -> None:
    final = play(seed, (True, True))
    assert R.outcome(final)["reason"]


def test_bot_reads_only_its_view() -> None:
    s = deployed(seed=4)
    s, _ = R.apply(s, 1, {"type": "reroll", "dice": []})
    rolled = s["dice"][1]["rolled"]
    s, _ = R.apply(s, 1, {"type": "allocate", "allocation": {"Bianca": rolled[0:2], "Natasha": rolled[2:4],
                                                             "Emily": rolled[4:6]}})
    other = copy.deepcopy(s)
    other["dice"][1]["allocation"] = {"Bianca": rolled[4:6], "Natasha": rolled[0:2], "Emily": rolled[2:4]}
    other["seed"] += 1
    assert R.bot_action(s, 0) == R.bot_action(other, 0) == choose_action(R.view(s, 0))


def test_bot_refuses_to_act_out_of_turn() -> None:
    with pytest.raises(NotYourTurn):
        R.bot_action(battle({"Paul": [5]}), 1)


def test_bot_dodges_when_it_can() -> None:
    s = battle({"Paul": [5], "Bianca": [3, 4]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, _ = R.apply(s, 0, {"type": "throw", "character": "Paul", "die": 5, "target": "Bianca"})
    assert R.bot_action(s, 1) == {"type": "react", "choice": "dodge", "die": 3}


def test_bot_lets_robert_save_the_snowman() -> None:
    s = battle({"Emily": [3], "Robert": [5]}, {"Emily": [10.0, 15.0], "Robert": [6.0, 18.0]}, to_move=1)
    s, _ = R.apply(s, 1, {"type": "ability", "character": "Emily", "die": 3, "target": "snowman0"})
    assert R.bot_action(s, 0) == {"type": "react", "choice": "intercept", "die": 5}


def test_bot_goes_for_the_snowman_when_it_can_hit_it() -> None:
    s = battle({"Paul": [5]}, {"Paul": [35.0, 15.0], "Bianca": [38.0, 20.0]})
    assert R.bot_action(s, 0) == {"type": "throw", "character": "Paul", "die": 5, "target": "snowman1"}


def test_bot_uses_emily_on_a_snowman_in_reach() -> None:
    s = battle({"Emily": [1, 6]}, {"Emily": [10.0, 15.0]}, to_move=1)
    action = R.bot_action(s, 1)
    assert action["type"] == "ability" and action["target"] == "snowman0"


def test_bot_moves_towards_range_when_nothing_is_in_reach() -> None:
    s = battle({"Paul": [1, 5]}, {"Paul": [8.0, 15.0]})
    action = R.bot_action(s, 0)
    assert action["type"] == "move" and action["die"] == 1
    before = distance(s["pieces"]["Paul"]["pos"], s["pieces"]["snowman1"]["pos"])
    assert distance(action["to"], s["pieces"]["snowman1"]["pos"]) < before - 5
    R.apply(s, 0, action)


def test_bot_prefers_cover_to_standing_in_the_open() -> None:
    """Of two spots as far from the enemy snowman, the one hidden from a loaded thrower scores higher."""
    wall = {"id": "o1", "label": "wall", "points": [[28.0, 16.5], [29.0, 16.5], [29.0, 26.0], [28.0, 26.0]]}
    s = battle({"Paul": [3], "Bianca": [5]}, {"Paul": [20.0, 15.0], "Bianca": [32.0, 15.0]}, obstructions=[wall])
    view = R.view(s, 0)
    view["obstructions"] = [obstacle(o["points"], id=o["id"], label=o["label"]) for o in view["obstructions"]]
    snowman = s["pieces"]["snowman1"]["pos"]
    exposed, hidden = [24.0, 10.0], [24.0, 20.0]
    assert distance(exposed, snowman) == pytest.approx(distance(hidden, snowman))
    moved = dict(s["pieces"], Paul=dict(s["pieces"]["Paul"], pos=hidden))
    assert not sight_clear(moved, s["obstructions"], "Bianca", "Paul")
    assert _spot_score(view, "Paul", hidden, []) > _spot_score(view, "Paul", exposed, [])
