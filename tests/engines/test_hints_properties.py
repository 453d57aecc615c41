"""Hints of every game along random games: they repeat the seat's prompt, explain every kind of
action offered (counting its choices) and no other, link only parts of the rules page that exist,
and never say a kind of action is not offered while it is (Jingle Bells: for that character)."""
from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.jingle_bells import RULESET as JB
from games.engines.jingle_bells.engine import ACTION_TYPES as JB_TYPES
from games.engines.snowball_fight.engine import _ACTION_TYPES as SF_TYPES
from games.engines.snowball_fighting.engine import PLAYER_ACTION_TYPES as SFG_TYPES  # deadline: the server's
from games.engines.what_a_snowball.common import ACTION_TYPES as WAS_TYPES
from games.engines.snowball_fight import RULESET as SF
from games.engines.snowball_fighting import RULESET as SFG
from games.engines.what_a_snowball import RULESET as WAS

PACKAGES = {JB: "jingle_bells", SF: "snowball_fight", SFG: "snowball_fighting", WAS: "what_a_snowball"}


def rules_anchors(package: str) -> set[str]:
    module = importlib.import_module(f"games.engines.{package}.rulings")
    return {r["id"] for r in getattr(module, "RULINGS", ())} | {p["id"] for p in getattr(module, "BOOK", ())}


def new_state(ruleset, seed: int):
    return ruleset.new_game(players=ruleset.min_players, options={o.name: o.default for o in ruleset.options}, seed=seed)


ACTION_TYPES = {JB: JB_TYPES, SF: SF_TYPES, SFG: SFG_TYPES, WAS: WAS_TYPES}


@pytest.mark.parametrize("ruleset", list(PACKAGES), ids=lambda r: r.slug)
def test_every_action_type_of_each_game_is_explained_with_a_part_of_its_rules_page(ruleset):
    explained = importlib.import_module(f"games.engines.{PACKAGES[ruleset]}.hints").EXPLAINED
    assert set(ACTION_TYPES[ruleset]) <= set(explained)
    assert {anchor for _, anchor in explained.values()} <= rules_anchors(PACKAGES[ruleset])


@pytest.mark.parametrize("ruleset", list(PACKAGES), ids=lambda r: r.slug)
@settings(max_examples=examples(4), deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(20, 120))
def test_hints_along_a_random_game_match_the_engines_prompt_and_legal_actions(ruleset, seed, steps):
    hints_of = importlib.import_module(f"games.engines.{PACKAGES[ruleset]}.hints").hints
    anchors = rules_anchors(PACKAGES[ruleset])
    state, pick = new_state(ruleset, seed), random.Random(seed)
    assert anchors >= {anchor for _, anchor in importlib.import_module(
        f"games.engines.{PACKAGES[ruleset]}.hints").EXPLAINED.values()}
    for _ in range(steps):
        asked = ruleset.to_act(state)
        if not asked:
            break
        seat = pick.choice(sorted(asked))
        legal = ruleset.legal_actions(state, seat)
        hints = hints_of(prompt=asked[seat].as_dict(), legal_actions=legal, state=state, seat=seat)
        assert hints["asks"] == asked[seat].text
        offered = {a["type"] for a in legal}
        assert {o["type"] for o in hints["options"]} == offered
        assert sum(o["count"] for o in hints["options"]) == len(legal)
        assert all(link in anchors for link in [o["rule"] for o in hints["options"]] + [m["rule"] for m in hints["not_offered"]])
        for missing in hints["not_offered"]:
            assert missing["why"]
            if ruleset is JB:
                character = missing["why"].split(":")[0]
                assert not any(a["type"] == "throw" and a["character"] == character for a in legal)
            else:
                assert missing["type"] not in offered
        assert hints_of(prompt=None, legal_actions=legal, state=state, seat=seat) is None
        state, _ = ruleset.apply(state, seat, ruleset.bot_action(state, seat))
