"""Property tests: whole seeded games of 2-6 players checked after every action, replays, refusals.

Each game mixes the computer player with random legal orders (and now and then a missed
deadline). After every action: apply did not change its input; every prompt's default is
legal; at most one combatant stands on a hex; snowballs held equal collected minus thrown,
trampled, broken and melted; HP, VPs and damage agree with the report's damage lines.
``SNOWBALL_TEST_DEPTH`` scales the number of games (tests/depth.py).
"""
from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.base import GameError
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import bot
from tests.engines.test_snowball_fighting_helpers import play_game, replay

SEEDS = st.integers(min_value=0, max_value=2**40)
PLAYERS = st.integers(min_value=2, max_value=6)
OPTIONS = st.fixed_dictionaries({"rule12": st.booleans(), "rule13": st.booleans(), "rule14": st.booleans()})


def games(count: int) -> settings:
    return settings(max_examples=examples(count), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Ledger:
    """What the report's lines say happened, to compare with the state."""

    def __init__(self, players: int):
        self.vp = [0] * players
        self.taken = [0] * players
        self.dealt = [0] * players

    def read(self, events: list) -> None:
        for e in events:
            if e["type"] == "damage":
                self.taken[e["seat"]] += e["hp"]
                if e["thrower"] is not None and e["thrower"] != e["seat"]:
                    self.dealt[e["thrower"]] += e["hp"]
                    self.vp[e["thrower"]] += e["vps"]
            elif e["type"] == "disaster":
                self.taken[e["seat"]] += 2


def check_state(s: dict, ledger: Ledger) -> None:
    standing = [c["hex"] for c in s["combatants"] if c["hex"] != "KITCHEN" and c["status"] != "gone"]
    assert len(standing) == len(set(standing)), f"two combatants share a hex: {standing}"
    for x, c in enumerate(s["combatants"]):
        t = c["tally"]
        for kind, held in ((0, c["ss"]), (1, c["dd"])):
            assert held == (t["collected"][kind] - t["thrown"][kind] - t["trampled"][kind]
                            - t["broken"][kind] - t["melted"][kind]) >= 0
        assert 0 <= c["hp"] <= 10
        assert (c["status"] in ("drying", "gone")) <= (c["hex"] == "KITCHEN")
        assert c["vp"] == ledger.vp[x] and c["taken"] == ledger.taken[x] and c["dealt"] == ledger.dealt[x]
        assert c["vp"] <= c["dealt"]
        if c["status"] == "fighting" and c["hex"] != "KITCHEN":
            assert c["hp"] > 0


@games(120)
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_random_games_keep_the_books_and_replay_exactly(seed, players, options):
    ledger = Ledger(players)

    def on_step(before, seat, action, after, events):
        if not after["combatants"]:
            return
        ledger.read(events)
        check_state(after, ledger)
        for asked, prompt in R.to_act(after).items():  # the server's default, never offered to the seat
            assert prompt.default == {"type": "deadline"}
            assert prompt.default not in R.legal_actions(after, asked)

    s, log = play_game(players, seed, options, on_step=on_step)
    result = R.outcome(s)
    assert result["scores"] == [c["vp"] for c in s["combatants"]]
    if result["code"] == "victory":
        assert all(result["scores"][w] >= 15 for w in result["winners"])
        assert all(v < 15 for x, v in enumerate(result["scores"]) if x not in result["winners"])
    assert replay(players, seed, options, log) == s
    assert json.loads(json.dumps(s)) == s


@games(30)
@given(seed=SEEDS, players=PLAYERS, options=OPTIONS)
def test_apply_never_changes_its_input_and_gives_the_same_answer_twice(seed, players, options):
    def on_step(before, seat, action, after, events):
        frozen = copy.deepcopy(before)
        again, again_events = R.apply(before, seat, copy.deepcopy(action))
        assert before == frozen
        assert again == after and again_events == events

    play_game(players, seed, options, on_step=on_step)


@games(6)
@given(seed=SEEDS)
def test_computer_players_finish_games_of_every_size_and_replay(seed):
    for players in range(2, 7):
        s, log = play_game(players, seed, {"rule12": True, "rule13": True, "rule14": True}, random_share=0.0)
        assert R.outcome(s) is not None
        assert replay(players, seed, {"rule12": True, "rule13": True, "rule14": True}, log) == s


JUNK_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.sampled_from(
    ["nearest", "spot", "N", "S", "E3", "K7", "W11", "KITCHEN", "A5", "C5", "ss", "dd", "head", "start", "end"]),
    st.lists(st.sampled_from(["C5", "B6", "K7", "A5", "E5", "Z1", "KITCHEN"]), max_size=6),
    st.lists(st.integers(-1, 6), max_size=3))
ORDER_TYPES = st.sampled_from(["stand", "move", "collect", "collect_move", "rattlesnake", "baker", "bolero",
                               "maniac", "dirigible", "storm", "avalanche", "conditional", "fly"])
ORDER = st.one_of(st.none(), st.builds(
    lambda kind, fields: {"type": kind, **fields}, ORDER_TYPES,
    st.dictionaries(st.sampled_from(["route", "target", "targets", "what", "count", "bounce", "conifer", "side",
                                     "collect_at", "carry", "cases", "otherwise"]), JUNK_VALUES, max_size=4)))


@settings(max_examples=examples(400), deadline=None, database=None)
@given(seed=st.integers(0, 50), segments=st.lists(ORDER, min_size=0, max_size=4), ready=JUNK_VALUES)
def test_every_refused_order_leaves_the_game_unchanged(seed, segments, ready):
    s = _mid_game(seed)
    seat = min(R.to_act(s))
    frozen = copy.deepcopy(s)
    try:
        R.apply(s, seat, {"type": "orders", "segments": segments, "ready": ready})
    except GameError as error:
        assert str(error)
    assert s == frozen


_MID: dict[int, dict] = {}


def _mid_game(seed: int) -> dict:
    """A 3-player game a few turns in, made by the computer player (cached per seed)."""
    if seed not in _MID:
        s = R.new_game(players=3, options={"rule13": seed % 2 == 0}, seed=seed)
        rng = random.Random(seed)
        while s["turn"] < 3 and R.outcome(s) is None:
            seat = min(R.to_act(s))
            action = bot.random_orders(s, seat, rng) if s["phase"] == "orders" else R.bot_action(s, seat)
            s, _ = R.apply(s, seat, action)
        _MID[seed] = s
    return _MID[seed]
