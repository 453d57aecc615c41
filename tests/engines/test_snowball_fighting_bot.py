"""The computer player: legal orders from its own view, and sensible ones."""
from __future__ import annotations

import pytest

from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting.garden import GARDEN
from tests.engines.test_snowball_fighting_helpers import arena, put, started


def bot_orders(s, seat=0):
    action = R.bot_action(s, seat)
    assert action["type"] == "orders"
    R.apply(s, seat, action)  # legal
    return action["segments"]


def test_setup_names_and_prefers_every_start_hex():
    s = R.new_game(players=3, options={}, seed=3)
    action = R.bot_action(s, 2)
    assert action["type"] == "setup" and action["ready"] is True
    assert sorted(action["starts"]) == sorted(GARDEN.starts) and action["starts"][0] == GARDEN.starts[2]


def test_an_empty_handed_bot_collects_first():
    s = put(arena({0: "A5", 1: "W13"}), 0, "A5", ss=0)
    assert bot_orders(s)[0] == {"type": "collect", "what": "ss", "count": 2}


def test_a_bot_on_the_path_with_nothing_steps_off_to_collect():
    s = put(arena({0: "K11", 1: "W1"}), 0, "K11", ss=0)
    first = bot_orders(s)[0]
    assert first["type"] == "collect_move" and not GARDEN.on_path(first["route"][-1])


def test_a_bot_in_range_throws_at_the_best_target():
    s = arena({0: "A5", 1: "E5", 2: "W13"}, players=3)
    assert bot_orders(s)[0] == {"type": "rattlesnake", "target": 1}


def test_a_bot_with_a_dirigible_lobs_it_when_close():
    s = put(arena({0: "A5", 1: "E5"}), 0, "A5", ss=0, dd=1)
    assert bot_orders(s)[0] == {"type": "dirigible", "target": 1}


def test_a_bot_storms_a_conifer_with_opponents_under_it():
    s = arena({0: "I3", 1: "E3", 2: "F4", 3: "D4"}, players=4)
    assert bot_orders(s)[0] == {"type": "storm", "conifer": "E3"}


def test_a_distant_bot_closes_in_and_keeps_off_snowy_conifers():
    s = arena({0: "A1", 1: "W13"})
    before = GARDEN.throw_range("A1", "W13")
    segments = bot_orders(s)
    assert segments[0]["type"] in ("move", "collect_move")
    end = segments[0]["route"][-1]
    assert GARDEN.throw_range(end, "W13") < before
    for order in segments:
        if order["type"] in ("move", "collect_move"):
            assert order["route"][-1] not in GARDEN.conifers


def test_a_bot_in_the_kitchen_comes_out():
    s = put(arena({0: "W11", 1: "A1"}), 0, "KITCHEN")
    assert bot_orders(s)[0] == {"type": "move", "route": ["W11"]}


def test_a_bot_marks_written_orders_ready():
    s = started(2)
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [None, None, None]})
    assert R.bot_action(s, 0) == {"type": "ready"}


def test_the_bot_refuses_to_act_for_a_seat_not_asked():
    s = started(2)
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [None, None, None], "ready": True})
    with pytest.raises(ValueError, match="not asked"):
        R.bot_action(s, 0)
