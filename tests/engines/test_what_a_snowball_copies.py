"""``apply`` never changes the state it is given, although the state it returns shares the parts no action
changes in place (see ``engine._copy``)."""
from __future__ import annotations

import copy
import random

import pytest

from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball.bot import random_action


@pytest.mark.parametrize("seed, cards, village", [(1, "method1", "green"), (2, "method2", "high_street"),
                                                  (3, "method2", "random")])
def test_apply_leaves_every_state_of_a_random_game_as_it_was(seed, cards, village):
    s = R.new_game(players=4, options={"village": village, "special_players": False, "ability_cards": cards},
                   seed=seed, teams=[0, 1, 0, 1])
    rng = random.Random(seed)
    while R.outcome(s) is None:
        seat = rng.choice(sorted(R.to_act(s)))
        action = random_action(R.view(s, seat), rng)
        before = copy.deepcopy(s)
        after, _ = R.apply(s, seat, action)
        assert s == before, action
        s = after
