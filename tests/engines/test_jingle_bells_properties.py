"""Property tests: thousands of seeded Jingle Bells games played with random legal actions.

Every game is checked after every action: it ends, nobody stands outside the area or in
an obstruction or on another base, cold tokens stay between 0 and the limit, a sealed
allocation is invisible to the opponent and spectators until the reveal, and the same
seed with the same actions replays to the same game.

``SNOWBALL_TEST_DEPTH`` scales the number of games (tests/depth.py: 2,000 at full depth).
Random moves head for the enemy's side (see
``bot.random_action``) so that random games reach the snowmen and end.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.base import NotYourTurn
from games.engines.jingle_bells import RULESET as R
from games.engines.jingle_bells import layouts
from games.engines.jingle_bells.bot import random_action
from games.engines.jingle_bells.geometry import circle_inside_rect, circle_overlaps_polygon, circles_overlap

MAX_ACTIONS = 5000
LAYOUTS = st.sampled_from([*layouts.PRESETS, layouts.RANDOM])
SEEDS = st.integers(min_value=0, max_value=2**40)
FORWARD = st.sampled_from([0.8, 1.0])
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "database": None}

Step = tuple[int, dict[str, Any]]
AREA = (50.0, 30.0)  # RULINGS, Jingle Bells 1: the play area is 50 x 30 cm
SNOWMAN_FALLS_AT = 4  # the rule book: "If a player's snowman takes its fourth cold token ... loses"
# The number beside each character's scarf, from data/jingle_bells_characters.json (RULINGS, Jingle Bells)
RUNS_AWAY_AT = {"Stephen": 3, "Paul": 3, "Robert": 4, "Bianca": 3, "Natasha": 3, "Emily": 2}


def play(seed: int, layout: str, forward: float, check: bool = True) -> tuple[dict, list[Step], list[list[dict]]]:
    """A random game to its end; returns the final state, the actions and each action's events."""
    s = R.new_game(players=2, options={"layout": layout}, seed=seed)
    rng = random.Random(seed)
    steps: list[Step] = []
    events_log: list[list[dict]] = []
    while R.outcome(s) is None:
        assert len(steps) < MAX_ACTIONS, f"game {seed} on {layout} did not end"
        seat = rng.choice(sorted(R.to_act(s)))
        action = random_action(R.legal_actions(s, seat), s["pieces"], s["obstructions"], rng, forward=forward)
        before = s
        s, events = R.apply(s, seat, action)
        steps.append((seat, action))
        events_log.append(events)
        if check:
            check_state(before, s)
            check_sealed(s, events)
            assert json.loads(json.dumps(events)) == events
            if len(steps) % 50 == 0:
                assert json.loads(json.dumps(s)) == s
    assert json.loads(json.dumps(s)) == s
    return s, steps, events_log


def check_state(before: dict, s: dict) -> None:
    """Pieces that moved stand inside the area, clear of obstructions and other bases; cold tokens in range."""
    on_table = {pid: p for pid, p in s["pieces"].items() if p["pos"] is not None}
    for pid, piece in on_table.items():
        old = before["pieces"].get(pid)
        if old is not None and old["pos"] == piece["pos"]:
            continue
        assert circle_inside_rect(piece["pos"], piece["radius"], *AREA), piece
        assert not any(circle_overlaps_polygon(piece["pos"], piece["radius"], o) for o in s["obstructions"]), piece
        for other_id, other in on_table.items():
            if other_id != pid:
                assert not circles_overlap(piece["pos"], piece["radius"], other["pos"], other["radius"]), (pid, other_id)
    for name, piece in s["pieces"].items():
        limit = SNOWMAN_FALLS_AT if piece["kind"] == "snowman" else RUNS_AWAY_AT[name]
        assert 0 <= piece["cold"] <= limit, piece
        assert len(piece["dice"]) <= 2
        if piece["pos"] is None:
            assert piece["dice"] == []
        elif piece["kind"] == "character" and s["phase"] not in ("draft", "deploy"):
            assert piece["cold"] < limit


def check_sealed(s: dict, events: list[dict]) -> None:
    """Before the reveal, changing a seat's allocation changes nothing the other seat or a spectator sees."""
    for event in events:
        if "allocation" in event:
            assert event["visible_to"] == [event["seat"]]
    if s["phase"] != "dice":
        return
    for seat in {e["seat"] for e in events if e["type"] in ("allocate", "lock")}:
        allocation = s["dice"][seat]["allocation"]
        if not allocation or len(allocation) < 2:
            continue
        names = list(allocation)
        other = dict(s, dice=list(s["dice"]))
        other["dice"][seat] = dict(s["dice"][seat], allocation={name: allocation[names[i - 1]]
                                                                for i, name in enumerate(names)})
        for viewer in (1 - seat, None):
            seen = R.view(s, viewer)
            assert seen == R.view(other, viewer)
            assert seen["dice"][seat]["allocation"] is None


@settings(max_examples=examples(1750), **SETTINGS)
@given(seed=SEEDS, layout=LAYOUTS, forward=FORWARD)
def test_random_games_end_soundly_and_replay_exactly(seed: int, layout: str, forward: float) -> None:
    final, steps, events_log = play(seed, layout, forward)
    outcome = R.outcome(final)
    assert outcome["winners"] == [1 - outcome["losers"][0]]
    assert final["pieces"][f"snowman{outcome['losers'][0]}"]["cold"] == SNOWMAN_FALLS_AT
    assert R.to_act(final) == {}
    s = R.new_game(players=2, options={"layout": layout}, seed=seed)
    for (seat, action), events in zip(steps, events_log):
        s, replayed = R.apply(s, seat, action)
        assert replayed == events
    assert s == final


@settings(max_examples=examples(250), **SETTINGS)
@given(seed=SEEDS, layout=LAYOUTS)
def test_apply_never_changes_the_state_it_is_given(seed: int, layout: str) -> None:
    s = R.new_game(players=2, options={"layout": layout}, seed=seed)
    rng = random.Random(seed)
    refused = 0
    for _ in range(120):
        if R.outcome(s) is not None:
            break
        asked = R.to_act(s)
        seat = rng.choice(sorted(asked))
        action = random_action(R.legal_actions(s, seat), s["pieces"], s["obstructions"], rng, forward=0.8)
        before = json.dumps(s, sort_keys=True)
        after, _ = R.apply(s, seat, action)
        for wrong_seat in {0, 1} - set(asked):
            if action["type"] == "set_auto_dodge":  # the one action either seat may send at any time
                R.apply(s, wrong_seat, action)
                continue
            with pytest.raises(NotYourTurn, match="not your turn: waiting for") as refusal:
                R.apply(s, wrong_seat, action)
            assert "{p%d}" % seat in str(refusal.value), "the refusal names who is asked"
            refused += 1
        assert json.dumps(s, sort_keys=True) == before
        s = after
    assert refused > 0, "no move was tried from a seat that was not asked"
