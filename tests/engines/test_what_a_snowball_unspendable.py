"""What a Snowball!: why a Command Die cannot be spent, from the engine's own legal actions.

A die the legal actions spend has no reason; one they do not spend has the rule that keeps it
unspent: a Kid knocked down spends only Wild dice, GATHER SNOW needs snow underfoot, THROW needs a
snowball and an enemy Kid in sight.
"""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball.bot import random_action
from games.engines.what_a_snowball.unspendable import KINDS, unspendable_dice, why_not_offered
from tests.engines.what_a_snowball_scenes import piece, rect, scene

ROAD = piece("road", "road", rect(0, 10, 24, 14))
HOUSE = piece("house", "house", rect(10, 8, 14, 16))


def spent_dice(state) -> set[int]:
    return {a["die"] for a in R.legal_actions(state, R.view(state, None)["waiting_for"][0]) if "die" in a}


def test_a_throw_die_with_every_enemy_behind_a_house_says_no_enemy_is_in_sight_and_what_hides_them():
    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [1], "name": "Holly"},
               {"team": 1, "pos": [18, 12], "name": "Noel"}], tray=[1, 4], terrain=[HOUSE])
    assert spent_dice(s) == {1}
    assert why_not_offered(s, "throw") == "no enemy Kid in sight: the house hides Noel"
    assert unspendable_dice(s) == {"4": "no enemy Kid in sight: the house hides Noel"}
    assert R.view(s, 1)["activation"]["unspendable"] == {"4": "no enemy Kid in sight: the house hides Noel"}


def test_the_same_throw_die_in_sight_of_an_enemy_is_spendable_and_has_no_reason():
    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [1]}, {"team": 1, "pos": [18, 12]}], tray=[4], terrain=[])
    assert spent_dice(s) == {4}
    assert why_not_offered(s, "throw") is None and unspendable_dice(s) == {}


def test_a_throw_die_without_a_snowball_says_to_gather_first():
    s = scene([{"team": 0, "pos": [6, 12], "name": "Holly"}, {"team": 1, "pos": [18, 12]}], tray=[4], terrain=[])
    assert unspendable_dice(s) == {"4": "Holly has no snowball to throw: GATHER SNOW first"}


def test_a_gather_die_on_a_gritted_road_names_the_road():
    s = scene([{"team": 0, "pos": [6, 12], "name": "Holly"}, {"team": 1, "pos": [18, 3]}], tray=[2, 3],
              terrain=[ROAD])
    assert spent_dice(s) == {3}
    road = s["terrain"][0]["label"]
    assert unspendable_dice(s) == {"2": f"Holly stands on the {road}: no snow to gather there"}
    s = copy.deepcopy(s)  # a state once asked about is never changed: this is another state
    s["kids"][s["activation"]["kid"]]["pos"] = [6.0, 14.6]  # off the road, on snow
    assert unspendable_dice(s) == {} and spent_dice(s) == {2, 3}


def test_a_kid_knocked_down_spends_only_wild_dice():
    s = scene([{"team": 0, "pos": [6, 12], "name": "Holly", "down": True, "snowballs": [2]},
               {"team": 1, "pos": [18, 12]}], tray=[1, 3, 6], terrain=[])
    assert spent_dice(s) == {6}
    why = "Holly is knocked down: only a Wild die can be spent (to get up, recover or prepare)"
    assert unspendable_dice(s) == {"1": why, "3": why}
    assert why_not_offered(s, "wild") is None


def test_no_reasons_outside_a_kids_spending_and_an_unknown_kind_is_refused():
    s = scene([{"team": 0, "pos": [6, 12]}, {"team": 1, "pos": [18, 12]}], stage="start")
    assert unspendable_dice(s) == {} and all(why_not_offered(s, kind) is None for kind in KINDS)
    with pytest.raises(ValueError, match="unknown kind of action 'dance'"):
        why_not_offered(s, "dance")


@settings(max_examples=examples(6), deadline=None, database=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_every_die_the_legal_actions_leave_unspent_has_a_reason_and_only_those(seed, players):
    """Random play with special players: at every moment a Kid spends dice, the dice with a reason are
    exactly those no legal action spends, and a kind has a reason exactly when no legal action is of it."""
    rng = random.Random(seed)
    s = R.new_game(players=players, options={"special_players": True, "ability_cards": "method2",
                                             "village": "random"}, seed=seed)
    checked = 0
    for _ in range(900):
        to_act = R.to_act(s)
        if not to_act:
            break
        seat = min(to_act)
        if (s["activation"] or {}).get("stage") == "turn" and not s["pending"]:
            legal = R.legal_actions(s, seat)
            reasons = unspendable_dice(s)
            unspent = set(s["activation"]["tray"]) - {a["die"] for a in legal if "die" in a}
            assert {int(v) for v in reasons} == unspent
            assert all(r and r != "nothing to spend it on now" for r in reasons.values())
            kinds = {a["type"] if a["type"] != "vault" else "move" for a in legal if "die" in a}
            kid = s["kids"][s["activation"]["kid"]]
            if 6 in s["activation"]["tray"] and not kid["down"]:  # a Wild die stands for every kind
                assert all((why_not_offered(s, kind) is None) == (kind in kinds) for kind in KINDS)
            checked += 1
        s, _ = R.apply(s, seat, random_action(R.view(s, seat), rng))
    assert checked
