"""The engine's speed shortcuts change nothing: each is checked against the plain way over random games."""
from __future__ import annotations

import copy
import json
import random

import pytest

from games.engines.base import Prompt
from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import asking
from games.engines.snowball_fight import engine as E

OPTION_SETS = [
    {},
    {"draft": "quick"},
    {"alternates": ["raid:barrage", "weapons-cache:iceball"]},
    {"draft": "quick", "alternates": ["upgrade-dodge:offensive-dodge", "weapons-cache:throwing-rocks"]},
    {"alternates": ["raid:throwing-rocks", "upgrade-dodge:barrage"]},
]


def play(seed: int, options: dict, snapshots: list | None = None) -> list[tuple[dict, list]]:
    """A seeded random game: every state with the events that led to it (and deep copies made then)."""
    rng = random.Random(seed)
    s = RULESET.new_game(players=2, options=options, seed=seed)
    history = [(s, [])]
    while True:
        if snapshots is not None:
            snapshots.append(copy.deepcopy(s))
        if RULESET.outcome(s) is not None:
            return history
        seat = rng.choice(sorted(RULESET.to_act(s)))
        s, events = RULESET.apply(s, seat, rng.choice(RULESET.legal_actions(s, seat)))
        history.append((s, events))


def test_prompt_shortcut_builds_the_same_prompt():
    fast = asking._prompt("sealed", "text", 90.0, {"type": "lock"}, {"chosen": True})
    plain = Prompt(kind="sealed", text="text", timeout=90.0, default={"type": "lock"}, extra={"chosen": True})
    assert type(fast) is Prompt and fast == plain and vars(fast) == vars(plain)
    assert list(vars(fast)) == list(vars(plain)) and fast.as_dict() == plain.as_dict()


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
def test_no_state_is_changed_by_any_later_step(options):
    # Piles are shared between a state and the next one until they change; none may change in place.
    for seed in range(8):
        snapshots: list[dict] = []
        states = [s for s, _ in play(seed, options, snapshots)]
        changed = [i for i, (s, then) in enumerate(zip(states, snapshots)) if s != then]
        assert changed == [], f"seed {seed}: states {changed} changed after they were returned"


def _generic_run_stages(s, events):
    """The plain way: a todo list of every stage, worked through by ``_run``."""
    s["battle"]["todo"] = [{"do": stage} for stage in E._STAGES]
    E._run(s, events)


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
def test_stage_shortcut_matches_the_generic_runner(options, monkeypatch):
    for seed in range(100, 115):
        fast = play(seed, options)
        with monkeypatch.context() as m:
            m.setattr(E, "_run_stages", _generic_run_stages)
            plain = play(seed, options)
        assert json.dumps(fast) == json.dumps(plain), f"seed {seed}"
