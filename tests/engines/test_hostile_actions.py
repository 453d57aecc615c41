"""Hostile input against every game's engine. Actions: legal actions with one field replaced by
arbitrary JSON, dropped or joined by another, and arbitrary JSON as a whole action. Creation
options (an object, as the site's boundary lets through): the benchmark's options with one
value replaced or one key added, a What a Snowball! roster entry with one field replaced, and an
object of arbitrary keys and values. Each is either accepted or refused with a game error whose
message is short and says something, and a refused action leaves the state exactly as it was."""
from __future__ import annotations

import copy
import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from bench.engines import CHOOSERS, SETUPS, _uniform
from games.engines import all_rulesets
from games.engines.base import GameError

RULESETS = {r.slug: r for r in all_rulesets()}
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
            "database": None}

SCALARS = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True, allow_infinity=True) \
    | st.text(max_size=12)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


def _setup(slug: str, seed: int) -> dict:
    """``new_game``'s arguments but the seed, as the engine benchmark seats the game."""
    return SETUPS[slug](seed) if slug in SETUPS else {"players": RULESETS[slug].min_players, "options": {}}


def _accepted_or_briefly_refused(attempt) -> None:
    """Run ``attempt``; a game error it raises must say something, in at most 400 characters."""
    try:
        attempt()
    except GameError as refused:
        message = str(refused)
        assert message.strip() and len(message) <= 400, message


@functools.cache
def states(slug: str, seed: int = 11, count: int = 4) -> list[tuple[dict, int]]:
    """``count`` states spread over a game played as the engine benchmark plays it, each with a
    seat asked to act."""
    ruleset = RULESETS[slug]
    rng = random.Random(seed)
    state = ruleset.new_game(seed=seed, **_setup(slug, seed))
    choose = CHOOSERS.get(slug, _uniform)
    seen = []
    while ruleset.outcome(state) is None and len(seen) < 300:
        asked = ruleset.to_act(state)
        seat = rng.choice(sorted(asked))
        seen.append((state, seat))
        try:
            state, _ = ruleset.apply(state, seat, choose(ruleset, state, seat, ruleset.legal_actions(state, seat), rng))
        except GameError:
            state, _ = ruleset.apply(state, seat, asked[seat].default)
    return [seen[i * len(seen) // count] for i in range(count)]


def _mutants(draw, legal: list[dict]) -> object:
    """A legal action (a region's example) with one field replaced by arbitrary JSON, dropped or
    joined by another; or arbitrary JSON."""
    base = dict(draw(st.sampled_from(legal)))
    base = dict(base.get("example", base)) if isinstance(base.get("example"), dict) else base
    how = draw(st.sampled_from(["replace", "drop", "add", "whole"]))
    if how == "whole" or not base:
        return draw(JSON)
    field = draw(st.sampled_from(sorted(base)))
    if how == "replace":
        base[field] = draw(JSON)
    elif how == "drop":
        base.pop(field)
    else:
        base[draw(st.text(min_size=1, max_size=8))] = draw(JSON)
    return base


@pytest.mark.parametrize("slug", sorted(RULESETS))
@settings(max_examples=examples(150), **SETTINGS)
@given(data=st.data())
def test_a_hostile_action_is_legal_or_refused_with_a_short_error_and_changes_nothing(slug, data):
    ruleset = RULESETS[slug]
    state, seat = data.draw(st.sampled_from(states(slug)))
    action = data.draw(st.composite(lambda draw: _mutants(draw, ruleset.legal_actions(state, seat)))())
    before = copy.deepcopy(state)
    _accepted_or_briefly_refused(lambda: ruleset.apply(state, seat, action))
    assert state == before


def _hostile_options(draw, options: dict) -> dict:
    """``options`` with one value replaced by arbitrary JSON or one key added, or one field of one
    of its Kids replaced; or an object of arbitrary keys and values."""
    options = copy.deepcopy(options)
    how = draw(st.sampled_from(["replace", "add", "kid", "whole"]))
    if how == "kid" and options.get("kids"):
        kid = draw(st.sampled_from(options["kids"]))
        kid[draw(st.sampled_from(["name", "seat", "type", "traits", "extra"]))] = draw(JSON)
    elif how == "replace" and options:
        options[draw(st.sampled_from(sorted(options)))] = draw(JSON)
    elif how == "whole":
        options = draw(st.dictionaries(st.text(max_size=8), JSON, max_size=4))
    else:
        options[draw(st.text(max_size=8))] = draw(JSON)
    return options


@pytest.mark.parametrize("slug", sorted(RULESETS))
@settings(max_examples=examples(150), **SETTINGS)
@given(data=st.data())
def test_a_hostile_creation_option_is_accepted_or_refused_with_a_short_error(slug, data):
    setup = _setup(slug, 3)
    options = data.draw(st.composite(lambda draw: _hostile_options(draw, setup["options"]))())
    _accepted_or_briefly_refused(lambda: RULESETS[slug].new_game(seed=5, **{**setup, "options": options}))
