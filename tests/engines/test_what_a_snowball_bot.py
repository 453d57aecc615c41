"""The What a Snowball! computer player makes the sensible choice in small, clear positions."""
from __future__ import annotations

import math

import pytest

from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball.bot import choose_action, hit_chance
from games.engines.what_a_snowball.geometry import line_of_fire, terrain_for

from tests.engines.what_a_snowball_scenes import act, dice, piece, rect, scene  # noqa: F401


@pytest.mark.parametrize("needs, modifier, chance", [(7, 0, 21 / 36), (9, 0, 10 / 36), (7, 10, 35 / 36),
                                                     (7, -10, 1 / 36)])
def test_hit_chance_counts_natural_twos_and_twelves(needs, modifier, chance):
    assert hit_chance(needs, modifier) == pytest.approx(chance)


def test_it_gathers_before_throwing():
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [9, 12]}], tray=[2, 4, 1], terrain=[])
    assert R.bot_action(s, 0) == {"type": "gather", "die": 2, "make": "new"}


def test_it_aims_with_a_spare_die_before_throwing():
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [2]}, {"team": 1, "pos": [12, 12]}], tray=[3, 4],
              terrain=[])
    assert R.bot_action(s, 0) == {"type": "aim", "die": 3}
    s, _ = act(s, 0, R.bot_action(s, 0))
    assert R.bot_action(s, 0)["type"] == "throw"


def test_it_throws_its_biggest_snowball():
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [1, 4]}, {"team": 1, "pos": [8, 12]}], tray=[4],
              terrain=[])
    assert R.bot_action(s, 0) == {"type": "throw", "die": 4, "target": "k3", "snowball": 4, "cards": []}


def test_it_does_not_cheat_where_the_parents_could_see():
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [3]}, {"team": 1, "pos": [4.5, 12]}], tray=[4, 1],
              terrain=[])
    assert R.bot_action(s, 0)["type"] != "throw"
    snowman = scene([{"team": 0, "pos": [3, 12], "snowballs": [3]}, {"team": 1, "pos": [4.5, 12], "type": "snowman"}],
                    tray=[4, 1], terrain=[])
    assert R.bot_action(snowman, 0)["type"] == "throw"


def test_it_gets_up_when_knocked_down():
    s = scene([{"team": 0, "pos": [3, 12], "down": True}, {"team": 1, "pos": [9, 12]}], tray=[6, 4], terrain=[])
    assert R.bot_action(s, 0) == {"type": "wild", "die": 6, "use": "get_up"}


def test_it_closes_to_a_good_range(dice):
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [3]}, {"team": 1, "pos": [20, 12]}], tray=[1, 3],
              terrain=[])
    assert R.bot_action(s, 0) == {"type": "move", "die": 1}
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    action = R.bot_action(s, 0)
    assert action["to"][0] >= 7.4  # most of the 6 inches, straight at the enemy
    act(s, 0, action)


def test_it_hides_when_low_on_command_dice(dice):
    house = piece("t1", "house", rect(10, 6, 14, 18))
    s = scene([{"team": 0, "pos": [7, 16], "command_dice": 2}, {"team": 1, "pos": [4, 8], "snowballs": [3]}],
              tray=[1, 1], terrain=[house])
    assert R.bot_action(s, 0) == {"type": "move", "die": 1}
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    action = R.bot_action(s, 0)
    s, _ = act(s, 0, action)
    terrain = terrain_for(s["terrain"])
    bases = [(k, kid["pos"], kid["radius"]) for k, kid in s["kids"].items() if kid["pos"]]
    assert not line_of_fire(terrain, bases, "k3", "k0")["visible"]


def test_it_plays_missed_me_dork_when_a_throw_comes():
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [1]}, {"team": 1, "pos": [9, 12]}], tray=[4, 3],
              terrain=[], cards="method1", hands={1: ["dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert R.bot_action(s, 1) == {"type": "play_card", "card": "dork"}
    assert choose_action(R.view(s, 1)) == R.bot_action(s, 1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_it_sets_its_kids_up_apart_and_out_of_the_corner_so_each_has_room_to_move(seed):
    from bench.tables import shape

    table = shape("what-a-snowball")  # twelve Kids in four teams, a random village
    s = R.new_game(players=table.seats, options=table.options_for(seed), seed=seed,
                   teams=[table.team_of(seat) for seat in range(table.seats)])
    while s["phase"] != "play":
        seat = min(R.to_act(s))
        s, _ = R.apply(s, seat, R.bot_action(s, seat))  # the engine refuses a spot outside the allowed area
    kids = list(s["kids"].values())
    for kid in kids:
        team_mates = [k for k in kids if k["team"] == kid["team"] and k is not kid]
        assert min(math.dist(kid["pos"], k["pos"]) for k in team_mates) >= 2.0, kid["name"]
        corner = min(math.dist(kid["pos"], c) for c in ((0, 0), (0, 24), (24, 0), (24, 24)))
        assert corner >= 2.0, f"{kid['name']} is set up in its corner, at {kid['pos']}"


def test_a_kid_at_a_good_range_but_out_of_sight_moves_to_where_it_can_see_its_target(dice):
    wall = piece("t1", "house", rect(8.6, 9.5, 9.6, 14.5))  # between the two, at five inches apart
    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [3]}, {"team": 1, "pos": [12, 12]}], tray=[1, 4],
              terrain=[wall])
    terrain = terrain_for(s["terrain"])

    def sees(state) -> bool:
        bases = [(k, kid["pos"], kid["radius"]) for k, kid in state["kids"].items() if kid["pos"] and not kid["home"]]
        return line_of_fire(terrain, bases, "k0", "k3")["visible"]

    assert not sees(s)
    assert R.bot_action(s, 0) == {"type": "move", "die": 1}
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    action = R.bot_action(s, 0)
    assert action["to"] != [6.0, 12.0], "it stays where it cannot throw"
    s, _ = act(s, 0, action)
    assert sees(s)
