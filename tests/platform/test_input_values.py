"""Every JSON value a client sends is checked once, at the boundary (``inputs.check_value``):
nesting past ``MAX_DEPTH``, NUL or a lone surrogate in any string or key, and integers past
+-(2**53 - 1) are refused with a ``malformed`` error that names where; anything else passes,
unchanged. Judged against a plain recursive statement of the same rules."""
from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings, strategies as st

from games import inputs
from tests.depth import examples

CHARACTERS = st.characters(exclude_categories=())  # NUL and lone surrogates included
TEXT = st.text(CHARACTERS, max_size=6) | st.sampled_from(["", "a", "\x00", "\ud800", "é\udfff", "ok"])
INTEGER = st.integers(-(2**53) - 2, -(2**53) + 2) | st.integers(2**53 - 2, 2**53 + 2) | st.integers(-5, 5)
LEAF = st.none() | st.booleans() | INTEGER | st.floats(allow_nan=False) | TEXT


def nested(depth: int, leaf):
    """``leaf`` inside ``depth`` lists or objects."""
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


VALUES = (st.recursive(LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                       max_leaves=10)
          | st.builds(nested, st.integers(inputs.MAX_DEPTH - 2, inputs.MAX_DEPTH + 2), LEAF))


def fault(value, depth: int = 0) -> bool:
    """Whether ``value`` breaks one of the boundary's rules (a container's depth counts from 0 at the top)."""
    if isinstance(value, (dict, list)) and depth >= inputs.MAX_DEPTH:
        return True
    if isinstance(value, dict):
        return any(bad_text(key) or fault(child, depth + 1) for key, child in value.items())
    if isinstance(value, list):
        return any(fault(child, depth + 1) for child in value)
    if isinstance(value, str):
        return bad_text(value)
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > inputs.MAX_SAFE_INTEGER


def bad_text(text: str) -> bool:
    return "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text)


@settings(max_examples=examples(400), deadline=None, database=None)
@given(VALUES)
@example(nested(inputs.MAX_DEPTH, 1))  # MAX_DEPTH containers, one in another: taken
@example(nested(inputs.MAX_DEPTH + 1, 1))  # one more: refused
@example({"a": [{"b\x00": 1}]})
@example([2**53 - 1, -(2**53 - 1)])
@example({"x": [1, 2**53]})
def test_a_value_is_refused_exactly_when_it_breaks_a_rule_and_the_error_says_where(value):
    if not fault(value):
        inputs.check_value(value, what="the frame")
        return
    with pytest.raises(inputs.InputError) as refused:
        inputs.check_value(value, what="the frame")
    assert refused.value.code == "malformed"
    assert refused.value.message.startswith("the frame ")
    assert "(at " in refused.value.message


# Integers around and far past 64 bits (orjson reads those as floats), beside floats of any size.
WIDE_LEAF = (st.integers(2**63 - 2, 2**80) | st.integers(-(2**80), -(2**63) + 2) | INTEGER
             | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=3).filter(lambda t: not bad_text(t)))


@settings(max_examples=examples(300), deadline=None, database=None)
@given(st.recursive(WIDE_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner,
                                                                                            max_size=3), max_leaves=6))
@example({"version": 99999999999999999999})
@example([1e20, -1e300])
def test_json_text_with_an_integer_of_any_size_past_the_limit_is_refused_and_a_large_float_is_not(value):
    text = json.dumps(value)
    if not fault(value):
        assert inputs.parse_json(text, what="the frame") == value
        return
    with pytest.raises(inputs.InputError) as refused:
        inputs.parse_json(text, what="the frame")
    assert refused.value.code == "malformed"
    assert refused.value.message.startswith("the frame holds an integer beyond")


def test_the_error_names_the_path_to_the_fault():
    with pytest.raises(inputs.InputError, match=r"NUL character \(at action\.cards\[1\]\)"):
        inputs.check_value({"type": "action", "action": {"cards": ["c1", "c\x002"]}}, what="the frame")
    with pytest.raises(inputs.InputError, match=r"lone surrogate.*\(at the key action\.<a key of 2 characters>\)"):
        inputs.check_value({"action": {"a\ud800": 1}}, what="the frame")
    with pytest.raises(inputs.InputError, match=r"integer beyond .*\(at version\)"):
        inputs.check_value({"version": 2**53}, what="the frame")


SIZED_TEXT = st.integers(0, inputs.ACTION_TEXT_MAX + 2).map(lambda n: "x" * n)
ACTIONS = st.builds(lambda rest, kind: {**rest, "type": kind},
                    st.dictionaries(SIZED_TEXT, st.recursive(SIZED_TEXT | st.integers(),
                                                             lambda inner: st.lists(inner, max_size=3), max_leaves=5),
                                    max_size=3),
                    SIZED_TEXT.filter(bool))


def too_long(value) -> bool:
    if isinstance(value, str):
        return len(value) > inputs.ACTION_TEXT_MAX
    if isinstance(value, dict):
        return any(too_long(k) or too_long(v) for k, v in value.items())
    if isinstance(value, list):
        return any(too_long(v) for v in value)
    return False


@settings(max_examples=examples(300), deadline=None, database=None)
@given(ACTIONS)
@example({"type": "play", "card": "c" * inputs.ACTION_TEXT_MAX})  # the longest text taken
@example({"type": "play", "card": "c" * (inputs.ACTION_TEXT_MAX + 1)})  # one more: refused
def test_an_action_holding_a_text_longer_than_any_game_takes_is_refused_and_never_echoed(action):
    """No game's action holds a text of more than ACTION_TEXT_MAX characters, so the rules
    never see one, and no error message quotes thousands of characters back."""
    if not too_long(action):
        assert inputs.GAME_ACTION.clean(action, "action") == action
        return
    with pytest.raises(inputs.InputError) as refused:
        inputs.GAME_ACTION.clean(action, "action")
    assert refused.value.code == "bad_request"
    assert f"must be at most {inputs.ACTION_TEXT_MAX} characters" in refused.value.message
    assert "x" * (inputs.ACTION_TEXT_MAX + 1) not in refused.value.message


def test_a_number_written_with_an_exponent_is_named_as_such():
    with pytest.raises(inputs.InputError, match=r"got a number with a fraction or an exponent"):
        inputs.body(b'{"action": {"type": "x"}, "action_id": "a", "version": 1e3}', inputs.ACTION_BODY)


def test_an_action_type_that_is_not_text_is_named_as_such():
    with pytest.raises(inputs.InputError, match=r'"action\.type" must be text, got an integer'):
        inputs.GAME_ACTION.clean({"type": 3}, "action")


def test_the_longest_text_a_game_takes_passes_the_boundary():
    """A Fogbound shout of its full documented length reaches the rules (it was cut at 64)."""
    from games.engines.snowball_fighting.fog import SHOUT_LENGTH

    shout = {"type": "shout", "text": "x" * SHOUT_LENGTH}
    assert inputs.GAME_ACTION.clean(shout, "action") == shout
    assert inputs.PAGE_ACTION_FRAME.clean({"action": json.dumps(shout), "action_id": "a", "version": "3"})["action"] \
        == shout


def test_a_key_given_twice_counts_with_its_last_value_and_a_field_not_used_is_ignored():
    """As docs/api.md says of bodies and frames."""
    assert inputs.frame('{"type": "ping", "type": "refresh", "extra": {"a": 1}}') == {"type": "refresh"}
    action = inputs.frame('{"type": "action", "action": {"type": "pick"}, "action_id": "a", "action_id": "b", '
                          '"version": 3, "note": "x"}')
    assert action == {"type": "action", "action": {"type": "pick"}, "action_id": "b", "version": 3}
    assert inputs.body(b'{"seat": 5, "seat": 2, "extra": true}', inputs.SEAT_BODY) == {"seat": 2, "team": None}
