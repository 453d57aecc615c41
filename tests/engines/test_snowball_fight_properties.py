"""Property tests: many seeded random games played to the end through the public contract."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E
from games.engines.snowball_fight import views as V
from tests.engines.privacy_oracle import find_leaks
from tests.engines.test_snowball_fight_helpers import all_cards, random_game

OPTION_SETS = [
    {},
    {"draft": "quick"},
    {"alternates": ["raid:barrage", "weapons-cache:iceball"]},
    {"draft": "quick", "alternates": ["upgrade-dodge:offensive-dodge", "weapons-cache:throwing-rocks"]},
    {"alternates": ["raid:throwing-rocks"]},
]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
option_sets = st.sampled_from(OPTION_SETS)


def games(count: int) -> settings:
    """Hypothesis settings for ``count`` whole games: no per-example deadline."""
    return settings(max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@games(1500)
@given(seed=seeds, options=option_sets)
def test_random_games_end_conserve_cards_and_offer_legal_defaults(seed, options):
    expected: list[str] = []

    def check(s, seat, action):
        cards = sorted(all_cards(s))
        if not expected:
            expected.extend(cards)
        assert cards == expected, "a card appeared or vanished"
        for asked_seat, prompt in RULESET.to_act(s).items():
            assert prompt.default in RULESET.legal_actions(s, asked_seat)
            assert prompt.timeout and prompt.timeout > 0

    s, log = random_game(seed, options=options, on_step=check)
    assert len(log) < 3000
    result = RULESET.outcome(s)
    assert sorted(all_cards(s)) == expected
    assert result["scores"] == [sum(i["points"] for i in rows) for rows in result["breakdown"]]
    assert result["winners"] == [x for x in (0, 1) if result["scores"][x] == max(result["scores"])]
    # the book scores draw and discard piles: hands are empty at the end, cached cards score 0
    assert s["hands"] == [[], []]
    for x in (0, 1):
        assert sorted(i["id"] for i in result["breakdown"][x] if not i.get("cached")) == \
            sorted(s["draw"][x] + s["discard"][x])
        assert sorted(i["id"] for i in result["breakdown"][x] if i.get("cached")) == sorted(s["cache"][x])


def clone(state):
    return json.loads(json.dumps(state))


def hidden_variants(s, viewer, rng):
    """States that differ from ``s`` only in what ``viewer`` may not know."""
    variants = []
    v = clone(s)
    for pile in v["draw"]:
        rng.shuffle(pile)
    variants.append(v)
    for x in range(s["players"]):
        if x == viewer or (viewer is not None and viewer in s["shown"][x]):
            continue
        if s["hands"][x] and s["draw"][x]:
            v = clone(s)
            h, d = v["hands"][x][0], v["draw"][x][-1]
            v["hands"][x][0], v["draw"][x][-1] = d, h
            if v["sealed"][x] and v["sealed"][x].get("card") == h:
                v["sealed"][x] = {**v["sealed"][x], "card": d}
            variants.append(v)
        if s["sealed"][x] and "side" in s["sealed"][x]:
            v = clone(s)
            flip = "top" if s["sealed"][x]["side"] == "bottom" else "bottom"
            v["sealed"][x] = {**v["sealed"][x], "side": flip}
            variants.append(v)
        if s["face_down"][x] and s["draw"][x]:
            v = clone(s)
            f, d = v["face_down"][x][0], v["draw"][x][0]
            v["discard"][x][v["discard"][x].index(f)] = d
            v["face_down"][x][0], v["draw"][x][0] = d, f
            if v["battle"] is not None:
                v["battle"]["face_down"][x] = [d if c == f else c for c in v["battle"]["face_down"][x]]
            variants.append(v)
        if s["draft"] is not None and s["draft"]["packs"][x]:
            v = clone(s)
            spare = v["draft"]["extremes"]
            v["draft"]["packs"][x][0], spare[0] = spare[0], v["draft"]["packs"][x][0]
            variants.append(v)
    return variants


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)


@games(40)
@given(seed=seeds, options=option_sets)
def test_views_hide_hands_choices_face_down_cards_and_draw_order(seed, options):
    rng = random.Random(seed)

    def check(s, seat, action):
        before = clone(s)
        for viewer in (0, 1, None):
            view = RULESET.view(s, viewer)
            assert clone(view) == view, "the view is not plain JSON"
            assert find_leaks(s, view, viewer) == []
            for variant in hidden_variants(s, viewer, rng):
                assert RULESET.view(variant, viewer) == view, "the view depends on hidden cards"
                if viewer is not None and viewer in RULESET.to_act(s):
                    assert RULESET.bot_action(variant, viewer) == RULESET.bot_action(s, viewer), \
                        "the bot peeked"
        RULESET.apply(s, seat, action)
        assert s == before, "apply changed its input"

    random_game(seed, options=options, on_step=check)


@games(40)
@given(seed=seeds, options=option_sets, order=st.permutations([0, 1, None, None]))
def test_a_viewer_gets_the_same_view_whoever_asked_for_the_state_before(seed, options, order):
    """A state's viewers share what they all see (worked out for the first of them): in any
    order, each gets the view it gets of a copy of the state that nobody viewed before, and
    each seat in it as that viewer alone may see it (its own hand, a hand shown to it)."""
    def check(s, seat, action):
        views = {viewer: clone(RULESET.view(s, viewer)) for viewer in order}
        for viewer in (0, 1, None):
            assert views[viewer] == RULESET.view(clone(s), viewer), f"seat {viewer}'s view"
            assert views[viewer]["seats"] == [V._seat_view(s, x, viewer) for x in (0, 1)], f"seat {viewer}'s seats"

    random_game(seed, options=options, on_step=check)


@games(60)
@given(seed=seeds, options=option_sets)
def test_same_seed_and_actions_give_the_same_states_and_views(seed, options):
    first, log = random_game(seed, options=options)
    s = RULESET.new_game(players=2, options=options, seed=seed)
    states = [dump(s)]
    for seat, action in log:
        s, _ = RULESET.apply(s, seat, action)
        states.append(dump(s))
    again = RULESET.new_game(players=2, options=options, seed=seed)
    assert dump(again) == states[0]
    for i, (seat, action) in enumerate(log):
        again, _ = RULESET.apply(again, seat, action)
        assert dump(again) == states[i + 1]
    for viewer in (0, 1, None):
        assert dump(RULESET.view(again, viewer)) == dump(RULESET.view(first, viewer))


@games(150)
@given(seed=seeds, options=option_sets)
def test_bots_play_legal_actions_to_the_end(seed, options):
    s = RULESET.new_game(players=2, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if RULESET.outcome(s) is not None:
            break
        seat = rng.choice(sorted(RULESET.to_act(s)))
        action = RULESET.bot_action(s, seat)
        assert action in RULESET.legal_actions(s, seat), f"the bot chose {action}, which is not legal"
        before = dump(s)
        s, _ = RULESET.apply(s, seat, action)
        assert dump(s) != before, f"the bot's {action} changed nothing"
    assert RULESET.outcome(s) is not None


def reached(seed: int, options: dict, steps: int):
    """The state after ``steps`` random legal actions (fewer if the game ends first)."""
    rng = random.Random(seed)
    s = RULESET.new_game(players=2, options=options, seed=seed)
    for _ in range(steps):
        if RULESET.outcome(s) is not None:
            break
        seat = rng.choice(sorted(RULESET.to_act(s)))
        s, _ = RULESET.apply(s, seat, rng.choice(RULESET.legal_actions(s, seat)))
    return s


@games(60)
@given(seed=seeds, options=option_sets)
def test_every_listed_action_is_accepted_and_only_asked_seats_have_any(seed, options):
    listed = 0

    def check(s, seat, action):
        nonlocal listed
        asked = RULESET.to_act(s)
        for each in (0, 1):
            legal = RULESET.legal_actions(s, each)
            assert bool(legal) == (each in asked), f"seat {each}: asked {each in asked}, legal actions {legal}"
            for candidate in legal:
                RULESET.apply(s, each, candidate)
                listed += 1

    random_game(seed, options=options, on_step=check)
    assert listed > 0


CARD_IDS = [*sorted(C.DECK), "c00", "c24", "C01", ""]
VALUES_BY_KEY = {
    "type": st.sampled_from([*E._ACTION_TYPES, "dance", "", "PLAY"]),
    "card": st.sampled_from(CARD_IDS),
    "take": st.sampled_from(CARD_IDS),
    "give": st.sampled_from(CARD_IDS),
    "side": st.sampled_from(["top", "bottom", "middle", "TOP", ""]),
    "keep": st.lists(st.sampled_from(CARD_IDS), max_size=3),
}
ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-2, 30), st.sampled_from(CARD_IDS),
                      st.sampled_from(["top", "bottom"]), st.lists(st.sampled_from(CARD_IDS), max_size=2),
                      st.dictionaries(st.sampled_from(["card", "side"]), st.sampled_from(CARD_IDS), max_size=1))


def value_for(key: str):
    return VALUES_BY_KEY.get(key, ANY_VALUE)


@st.composite
def near_miss(draw, base: dict):
    """``base`` with one thing changed: a value, a key dropped, or a key added."""
    action = dict(base)
    how = draw(st.sampled_from(["change", "drop", "add"]))
    if how == "change":
        key = draw(st.sampled_from(sorted(action)))
        action[key] = draw(value_for(key))
    elif how == "drop":
        del action[draw(st.sampled_from(sorted(action)))]
    else:
        key = draw(st.sampled_from(["card", "side", "keep", "take", "give", "pile", "type"]))
        action[key] = draw(value_for(key))
    return action


@games(1000)
@given(seed=seeds, options=option_sets, steps=st.integers(0, 160), data=st.data())
def test_actions_that_are_not_listed_are_refused_with_a_typed_error_and_change_nothing(seed, options, steps, data):
    """Whatever ``apply`` accepts does what some listed action does; everything else is refused
    with BadAction, NotYourTurn or IllegalAction, and the state it was given is untouched."""
    s = reached(seed, options, steps)
    bases = [a for each in (0, 1) for a in RULESET.legal_actions(s, each)] or [{"type": "lock"}]
    base = data.draw(st.sampled_from(bases), label="base")
    action = data.draw(st.one_of(near_miss(base), st.just(base)), label="action")
    seat = data.draw(st.sampled_from([0, 1, 2, -1]), label="seat")
    legal = RULESET.legal_actions(s, seat) if seat in (0, 1) else []
    before = dump(s)
    try:
        after, events = RULESET.apply(s, seat, action)
    except (BadAction, IllegalAction, NotYourTurn) as refusal:
        assert action not in legal, f"listed action {action} refused: {refusal}"
        assert str(refusal), "a refusal must say what was wrong"
        event(f"refused: {type(refusal).__name__}")
    else:
        event("accepted")
        same = [a for a in legal if dump(RULESET.apply(s, seat, a)) == dump((after, events))]
        assert same, f"seat {seat}'s {action} was accepted but does what no listed action does"
    assert dump(s) == before, "apply changed the state it was given"
