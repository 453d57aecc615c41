"""What a Snowball! works out a state's views and its asked seat's legal actions once and hands the
next viewers the same: every view and list of legal actions, asked for in any order and as often as
anyone likes, is the one worked out afresh for that state and viewer alone."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball import common
from games.engines.what_a_snowball.bot import random_action
from tests.engines.test_what_a_snowball_games import random_table

ACTIONS = 150


def fresh(call, state, seat):
    """``call(state, seat)`` with nothing remembered for any state."""
    with common._MEMO_LOCK:
        common._MEMOS.clear()
    return call(state, seat)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(seed=st.integers(0, 2**40), order_seed=st.integers(0, 2**20))
def test_remembered_views_and_legal_actions_are_the_ones_worked_out_afresh(seed, order_seed):
    players, teams, options = random_table(random.Random(seed))
    s = R.new_game(players=players, options=options, seed=seed, teams=teams)
    rng, order = random.Random(seed), random.Random(order_seed)
    states = []
    for _ in range(ACTIONS):
        if R.outcome(s) is not None:
            break
        viewers = [*range(players), None]
        asked = [(R.view, viewer) for viewer in viewers] + [(R.legal_actions, seat) for seat in range(players)]
        asked += order.choices(asked, k=4)  # some asked twice
        order.shuffle(asked)
        seen = [(call, who, call(s, who)) for call, who in asked]
        for call, who, got in seen:
            assert got == fresh(call, s, who), (call.__name__, who)
        states.append(s)
        seat = rng.choice(sorted(R.to_act(s)))
        s, _ = R.apply(s, seat, random_action(R.view(s, seat), rng))
    # an earlier state, asked again once others have pushed it out of what is remembered
    if len(states) > 20:
        old = states[len(states) // 2]
        viewer = order.choice([*range(players), None])
        assert R.view(old, viewer) == fresh(R.view, old, viewer)
