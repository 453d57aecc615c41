"""Property tests for 3-6 player and team tables: random games played to the end.

Every step: cards are conserved across all piles, defaults and chosen actions are legal,
no view (each seat and a spectator) shows another seat's hidden cards or depends on them,
no event names a card hidden from a seat it is shown to,
the bot decides from its view only, and a game replays exactly from seed + actions.
"""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from tests.depth import examples
from tests.engines.privacy_oracle import find_leaks, hidden_cards, strings_in
from tests.engines.test_snowball_fight_table_helpers import (
    book_points,
    book_scores,
    deck_cards,
    game_cards,
    random_table_game,
)

TABLES = [(3, None), (4, None), (5, None), (6, None),
          (4, [0, 1, 0, 1]), (4, [0, 0, 1, 1]), (6, [0, 0, 0, 1, 1, 1]), (6, [0, 1, 0, 1, 0, 1])]
OPTION_SETS = [{}, {"draft": "quick"}, {"alternates": ["raid:barrage", "weapons-cache:iceball"]},
               {"draft": "quick", "alternates": ["upgrade-dodge:offensive-dodge"]}]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.sampled_from(TABLES)
option_sets = st.sampled_from(OPTION_SETS)


def games(count: int) -> settings:
    return settings(max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def clone(state):
    return json.loads(json.dumps(state))


@games(80)
@given(seed=seeds, table=tables, options=option_sets)
def test_random_table_games_end_conserve_cards_and_offer_legal_defaults(seed, table, options):
    players, teams = table
    expected = deck_cards(players, options)

    def check(s, seat, action):
        assert sorted(game_cards(s)) == expected, "a card appeared or vanished"
        for asked_seat, prompt in RULESET.to_act(s).items():
            assert prompt.default in RULESET.legal_actions(s, asked_seat)
            assert prompt.timeout and prompt.timeout > 0
        assert action in RULESET.legal_actions(s, seat)
        assert all(not C.is_no_effect(c) for pile in s["discard"] for c in pile)
        assert not any(C.is_no_effect(c) for c in s["abandoned"])
        assert all(len(h) <= 2 for h in s["hands"])

    s, log = random_table_game(seed, players=players, teams=teams, options=options, on_step=check)
    assert len(log) < 5000
    assert sorted(game_cards(s)) == expected
    result = RULESET.outcome(s)
    assert result["scores"] == book_scores(s)
    if teams is not None:
        assert result["team_scores"] == [book_scores(s)[teams.index(t)] for t in (0, 1)]
    # the book scores draw and discard piles: the game ends before a draw, so no hand holds a
    # card, and cached cards are listed at 0 points
    assert not any(c for h in s["hands"] for c in h if not C.is_no_effect(c))
    for x in range(players):
        cached = sorted(s["cache"][x]) if teams is None else \
            sorted(c for m in range(players) if teams[m] == teams[x] for c in s["cache"][m])
        assert sorted(i["id"] for i in result["breakdown"][x] if i.get("cached")) == cached
        assert all(i["points"] == 0 for i in result["breakdown"][x] if i.get("cached"))
        assert [i["points"] for i in result["breakdown"][x] if not i.get("cached")] == \
            [book_points(i["id"]) for i in result["breakdown"][x] if not i.get("cached")]
    if teams is None:
        contenders = result["tiebreak"]["tied"] if result["tiebreak"] else list(range(players))
        best = max(result["scores"][x] for x in contenders)
        assert result["winners"] == [x for x in contenders if result["scores"][x] == best]
    else:
        best = max(result["team_scores"])
        assert result["winners"] == [x for x in range(players) if result["team_scores"][teams[x]] == best]


def _swap_sealed(v, x, old, new):
    sealed = v["sealed"][x]
    if not sealed:
        return
    for where in ("left", "right"):
        if where in sealed and sealed[where]["card"] == old:
            sealed[where]["card"] = new
    if sealed.get("card") == old:
        sealed["card"] = new


def hidden_variants(s, viewer, rng):
    """States that differ from ``s`` only in what ``viewer`` may not know."""
    n = s["players"]
    teams = s.get("teams")
    variants = []
    v = clone(s)
    for pile in v["draw"]:
        rng.shuffle(pile)
    for pile in v.get("team_draw", []):
        rng.shuffle(pile)
    rng.shuffle(v["set_aside"])
    variants.append(v)

    def donor(seats):
        """A draw pile of these seats to swap a hidden card with (cards stay with their owner)."""
        return next((x for x in seats if s["draw"][x]), None)

    def mate(x):
        return viewer is not None and teams is not None and teams[viewer] == teams[x]

    for x in range(n):
        if x == viewer or mate(x) or (viewer is not None and viewer in s["shown"][x]):
            continue
        hand = [c for c in s["hands"][x] if not C.is_no_effect(c)]
        own = donor([x] if teams is None else [m for m in range(n) if teams[m] == teams[x]])
        if hand and own is not None:
            v = clone(s)
            h, d = hand[0], v["draw"][own][-1]
            v["hands"][x][v["hands"][x].index(h)] = d
            v["draw"][own][-1] = h
            _swap_sealed(v, x, h, d)
            variants.append(v)
        sealed = s["sealed"][x]
        if sealed and ("side" in sealed or "left" in sealed):
            v = clone(s)
            for play in [v["sealed"][x]] if "side" in sealed else [v["sealed"][x]["left"], v["sealed"][x]["right"]]:
                play["side"] = "top" if play["side"] == "bottom" else "bottom"
            variants.append(v)
        if teams is None and s["face_down"][x] and own is not None:
            v = clone(s)
            f, d = v["face_down"][x][0], v["draw"][own][0]
            v["discard"][x][v["discard"][x].index(f)] = d
            v["face_down"][x][0], v["draw"][own][0] = d, f
            variants.append(v)
        if s["draft"] is not None and s["draft"]["packs"][x]:
            v = clone(s)
            spare = v["draft"]["extremes"]
            v["draft"]["packs"][x][0], spare[0] = spare[0], v["draft"]["packs"][x][0]
            variants.append(v)
    if teams is not None:
        for team in (0, 1):
            if viewer is not None and teams[viewer] == team:
                continue
            own = donor([m for m in range(n) if teams[m] == team])
            if s["face_down"][team] and own is not None:
                v = clone(s)
                f, d = v["face_down"][team][0], v["draw"][own][0]
                v["discard"][team][v["discard"][team].index(f)] = d
                v["face_down"][team][0], v["draw"][own][0] = d, f
                v["set_down"][team] = [d if c == f else c for c in v["set_down"][team]]
                if v["battle"] is not None:
                    v["battle"]["face_down"][team] = [d if c == f else c for c in v["battle"]["face_down"][team]]
                variants.append(v)
            if s["pool"][team] is not None and s["team_draw"][team]:
                v = clone(s)
                p, d = v["pool"][team]["cards"][0], v["team_draw"][team][0]
                v["pool"][team]["cards"][0], v["team_draw"][team][0] = d, p
                variants.append(v)
    return variants


@games(14)
@given(seed=seeds, table=tables)
def test_views_of_every_seat_and_a_spectator_hide_what_the_rules_hide(seed, table):
    players, teams = table
    rng = random.Random(seed)

    def check(s, seat, action):
        before = clone(s)
        for viewer in [*range(players), None]:
            view = RULESET.view(s, viewer)
            assert clone(view) == view, "the view is not plain JSON"
            assert find_leaks(s, view, viewer) == []
            for variant in hidden_variants(s, viewer, rng):
                assert RULESET.view(variant, viewer) == view, "the view depends on hidden cards"
                if viewer is not None and viewer in RULESET.to_act(s):
                    assert RULESET.bot_action(variant, viewer) == RULESET.bot_action(s, viewer), "the bot peeked"
        after, events = RULESET.apply(s, seat, action)
        assert s == before, "apply changed its input"
        # cards the rules show publicly in this step (played, stolen, Abandoned, taken...) may be
        # hidden again by its end (a reshuffle), so they are not secrets of this step
        shown = {value for event in events if "visible_to" not in event and event["type"] in REVEALING
                 for value in strings_in(event)}
        for viewer in [*range(players), None]:
            secret = set(hidden_cards(s, viewer)) & set(hidden_cards(after, viewer)) - shown
            for event in events:
                if "visible_to" in event and viewer not in event["visible_to"]:
                    continue  # not shown to this viewer
                named = {value for value in strings_in(event) if value in secret}
                assert not named, f"{event['type']} event names {named} to seat {viewer}"

    random_table_game(seed, players=players, teams=teams, on_step=check)


REVEALING = {"reveal", "second_card", "steal", "raid", "exchange", "cache", "abandon", "upgrade", "restock"}



@games(30)
@given(seed=seeds, table=tables, options=option_sets)
def test_same_seed_and_actions_give_the_same_states_and_views(seed, table, options):
    players, teams = table
    first, log = random_table_game(seed, players=players, teams=teams, options=options)
    extra = {"teams": teams} if teams is not None else {}
    again = RULESET.new_game(players=players, options=options, seed=seed, **extra)
    for seat, action in log:
        again, _ = RULESET.apply(again, seat, action)
    assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
    for viewer in [*range(players), None]:
        assert RULESET.view(again, viewer) == RULESET.view(first, viewer)


@games(40)
@given(seed=seeds, table=tables, options=option_sets)
def test_bots_play_legal_actions_to_the_end(seed, table, options):
    players, teams = table
    extra = {"teams": teams} if teams is not None else {}
    s = RULESET.new_game(players=players, options=options, seed=seed, **extra)
    rng = random.Random(seed)
    for _ in range(5000):
        if RULESET.outcome(s) is not None:
            break
        seat = rng.choice(sorted(RULESET.to_act(s)))
        action = RULESET.bot_action(s, seat)
        assert action in RULESET.legal_actions(s, seat)
        s, _ = RULESET.apply(s, seat, action)
    assert RULESET.outcome(s) is not None
