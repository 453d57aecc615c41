"""Whole What a Snowball! games: computer players to the end, random games checked after every action.

Every game replays exactly from its seed and action log. ``SNOWBALL_TEST_DEPTH``
scales the number of random games (tests/depth.py).
"""
from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from shapely.geometry import Point, Polygon

from games.engines.base import IllegalAction, NotYourTurn
from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball import kids as K
from games.engines.what_a_snowball.bot import random_action
from games.engines.what_a_snowball.geometry import TOLERANCE, placement_problem, terrain_for

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "database": None}
MAX_ACTIONS = 4000


def random_table(rng: random.Random) -> tuple[int, list[int], dict[str, Any]]:
    """Seats, teams and options for a random legal game: 2-4 teams, 6-12 Kids, 1-3 per seat, any types and cards."""
    while True:
        teams = rng.choice([2, 3, 4])
        size = rng.choice([n for n in range(2, 7) if 6 <= n * teams <= 12])
        seat_team, kids = [], []
        for team in range(teams):
            left = size
            while left:
                mine = rng.randint(1, min(3, left))
                seat = len(seat_team)
                seat_team.append(team)
                for _ in range(mine):
                    kind = rng.choice(list(K.TYPES))
                    spec = K.TYPES[kind]
                    kid = {"name": f"Kid{len(kids)}", "seat": seat, "type": kind}
                    if spec["fixed_traits"] is None:
                        kid["traits"] = rng.sample(K.TRAITS, spec["traits"])
                    kids.append(kid)
                left -= mine
        if len(seat_team) <= 12:
            break
    options = {"village": rng.choice(["green", "high_street", "random"]), "special_players": True,
               "ability_cards": rng.choice(["none", "method1", "method2"]), "kids": kids}
    return len(seat_team), seat_team, options


def play(seed: int, *, bots: bool, check: bool = False, table: tuple | None = None):
    players, teams, options = table or random_table(random.Random(seed))
    s = R.new_game(players=players, options=options, seed=seed, teams=teams)
    rng = random.Random(seed)
    log, events_log = [], []
    while R.outcome(s) is None:
        assert len(log) < MAX_ACTIONS, f"game {seed} did not end"
        asked = R.to_act(s)
        seat = rng.choice(sorted(asked))
        action = R.bot_action(s, seat) if bots else random_action(R.view(s, seat), rng)
        before = s
        s, events = R.apply(s, seat, action)
        log.append((seat, action))
        events_log.append(events)
        if check:
            check_step(before, s, events, seat, action, rng)
    return (players, teams, options), s, log, events_log


def check_step(before: dict, s: dict, events: list[dict], seat: int, action: dict, rng: random.Random) -> None:
    terrain = terrain_for(s["terrain"])
    bases = [(k, kid["pos"], kid["radius"]) for k, kid in s["kids"].items() if kid["pos"] is not None]
    for kid_id, kid in s["kids"].items():
        assert 0 <= kid["command_dice"] <= 6  # RULINGS, What a Snowball! 8: a pool of at most 6
        if kid["home"] is None and s["phase"] == "play":
            assert kid["command_dice"] >= 1 and kid["pos"] is not None
        if kid["pos"] is not None:
            moved = before["kids"][kid_id]["pos"] != kid["pos"]
            if moved:
                assert placement_problem(terrain, bases, kid["pos"], kid["radius"], ignore=(kid_id,)) is None, kid
        assert all(1 <= size <= 5 for size in kid["snowballs"])  # rule book: "max. Size is still 5"
        assert kid["points"] >= 0
    for event in events:
        if event["type"] == "move":
            assert event["path"] <= event["roll"] + TOLERANCE
        if event["type"] == "effect" and event["size"] > 6:
            assert any(e["type"] == "card" and e["card"] == "ice" for e in events) or before["throw"]["ice"]
    assert json.loads(json.dumps(events)) == events
    refused_out_of_turn(before, action)


def refused_out_of_turn(before: dict, action: dict) -> None:
    """The action just taken, sent by a seat that is not being asked (ruling 11: even a reaction card
    waits to be asked), is refused with NotYourTurn, which names who is awaited, and changes nothing.
    Surrendering and the reaction settings may be sent at any time, so they are not tried."""
    if action["type"] in ("surrender", "set_never_ask"):
        return
    asked = R.to_act(before)
    kept = copy.deepcopy(before)
    for other in sorted(set(range(before["players"])) - set(asked)):
        with pytest.raises(NotYourTurn, match="It is not your turn: waiting for "):
            R.apply(before, other, action)
        assert before == kept
        assert R.to_act(before).keys() == asked.keys()


# A seat is asked at the start of its Kid's activation and at a reaction whenever it holds any card
# (engine README, ruling 19), so being asked shows only how many it holds: every seat but the viewer,
# asked or not, is dealt a new hand with the others; which cards a seat being asked to react is
# offered is changed too (hidden_from_others). tests/engines/test_what_a_snowball_asking.py checks
# that what follows from a question is the same whichever cards are held.


def _dealt_again(s: dict, viewer: int | None) -> list[int]:
    """The seats whose hands ``viewer`` may not know and that can be dealt again."""
    return [seat for seat in range(s["players"]) if seat != viewer]


def _can_deal(s: dict, viewer: int | None) -> bool:
    """Another seat holds a card, and dealing the unseen cards again can change its hand."""
    seats = _dealt_again(s, viewer)
    unseen = [c for seat in seats for c in s["hands"][seat]] + s["deck"]
    places = [s["hands"][seat] for seat in seats if s["hands"][seat]] + ([s["deck"]] if s["deck"] else [])
    return any(s["hands"][seat] for seat in seats) and len(places) > 1 and len(set(unseen)) > 1


def _asked_to_react(s: dict, viewer: int | None) -> int | None:
    """The seat other than ``viewer`` being asked whether to play a reaction card, if any."""
    pending = s["pending"] or {}
    return pending["seat"] if pending.get("kind") == "reaction" and pending["seat"] != viewer else None


def has_secret(s: dict, viewer: int | None) -> bool:
    """Some card another seat holds is hidden from ``viewer`` and can be changed."""
    return _can_deal(s, viewer) or _asked_to_react(s, viewer) is not None


def hidden_from_others(s: dict, viewer: int | None, rng: random.Random) -> None:
    """``viewer`` sees nothing of the other seats' hands but their sizes, nor of the pile but its size.

    Ability cards are drawn at random from a pile (rule book, 5. Ability Cards); a view holds the
    viewer's own hand and every seat's hand size, and never another seat's hand or the pile's
    order (engine README, view). So dealing the cards ``viewer`` cannot see again, each hand
    keeping its size, must leave its view unchanged; and while another seat is asked to react,
    which cards it is asked about (and holds) must not show either, only that it is asked.
    """
    assert has_secret(s, viewer), f"no hand is hidden from viewer {viewer} here: this state proves nothing"
    other = copy.deepcopy(s)
    if _can_deal(s, viewer):
        seats = _dealt_again(s, viewer)
        unseen = [c for seat in seats for c in s["hands"][seat]] + s["deck"]
        for _ in range(1000):
            rng.shuffle(unseen)
            hands = [list(h) for h in s["hands"]]
            rest = list(unseen)
            for seat in seats:
                hands[seat], rest = rest[:len(hands[seat])], rest[len(hands[seat]):]
            if any(sorted(hands[seat]) != sorted(s["hands"][seat]) for seat in seats):
                break
        else:
            raise AssertionError("no new deal changed a hand")
        other["hands"], other["deck"] = hands, rest
    owner = _asked_to_react(s, viewer)
    if owner is not None:
        pending = s["pending"]
        swap = next((c for c in K.REACTION_CARDS if c not in pending["cards"]), None)
        other["pending"]["cards"] = [swap] if swap else pending["cards"][:1]
        size = len(s["hands"][owner])
        other["hands"][owner] = (other["pending"]["cards"] * size)[:size]
    assert R.view(other, viewer) == R.view(s, viewer), f"viewer {viewer} sees another seat's cards"


@settings(max_examples=examples(4), **SETTINGS)
@given(seed=st.integers(0, 2**40), method=st.sampled_from(["method1", "method2"]))
@example(seed=0, method="method2")  # seven versions with a seat asked to react
@example(seed=1, method="method2")
def test_no_seat_and_no_spectator_sees_another_seats_ability_cards(seed, method):
    players, teams, options = random_table(random.Random(seed))
    s = R.new_game(players=players, options={**options, "ability_cards": method}, seed=seed, teams=teams)
    rng = random.Random(seed)
    checked = 0
    while R.outcome(s) is None:
        for viewer in [None, *range(players)]:
            if has_secret(s, viewer):
                hidden_from_others(s, viewer, rng)
                checked += 1
        seat = rng.choice(sorted(R.to_act(s)))
        s, _ = R.apply(s, seat, random_action(R.view(s, seat), rng))
    if method == "method2":  # three cards each from the start
        assert checked >= players + 1


@settings(max_examples=examples(15), **SETTINGS)
@given(seed=st.integers(0, 2**40))
def test_random_games_stay_sound_and_replay_exactly(seed):
    table, final, log, events_log = play(seed, bots=False, check=True)
    outcome = R.outcome(final)
    assert outcome["winners"] and set(outcome["winners"]) | set(outcome["losers"]) == set(range(table[0]))
    points = {k: 0 for k in final["kids"]}
    for events in events_log:
        for e in events:
            if e["type"] == "point":
                points[e["kid"]] += 1
            if e["type"] == "cruel":
                points[e["kid"]] = max(0, points[e["kid"]] - 1)
    assert {k: kid["points"] for k, kid in final["kids"].items()} == points
    s = R.new_game(players=table[0], options=table[2], seed=seed, teams=table[1])
    for (seat, action), events in zip(log, events_log):
        s, replayed = R.apply(s, seat, action)
        assert replayed == events
    assert s == final
    assert json.loads(json.dumps(final)) == final


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_computer_players_play_to_the_end_and_the_game_replays(teams):
    seat_team = {2: [0, 1, 0, 1], 3: [0, 1, 2, 0, 1, 2], 4: [0, 1, 2, 3]}[teams]
    kids = []
    per_team = {2: 6, 3: 4, 4: 3}[teams]
    for team in range(teams):
        seats = [s for s, t in enumerate(seat_team) if t == team]
        for i in range(per_team):
            kid_type = list(K.TYPES)[(team + i) % len(K.TYPES)]
            kid = {"name": f"{team}-{i}", "seat": seats[i % len(seats)], "type": kid_type}
            if K.TYPES[kid_type]["fixed_traits"] is None:
                kid["traits"] = [K.TRAITS[(i + j) % 4] for j in range(K.TYPES[kid_type]["traits"])]
            kids.append(kid)
    options = {"village": ["green", "high_street", "random"][teams - 2], "special_players": True,
               "ability_cards": ["method1", "method2", "method2"][teams - 2], "kids": kids}
    table = (len(seat_team), seat_team, options)
    _, final, log, events_log = play(100 + teams, bots=True, table=table)
    assert final["phase"] == "over"
    thrown = sum(1 for events in events_log for e in events if e["type"] == "throw")
    assert thrown >= 5
    s = R.new_game(players=table[0], options=options, seed=100 + teams, teams=seat_team)
    for seat, action in log:
        s, _ = R.apply(s, seat, action)
    assert s == final


def test_the_computer_gathers_before_throwing_and_never_cheats_where_it_can_be_caught():
    _, final, log, events_log = play(11, bots=True, table=(2, [0, 1], {"village": "green"}))
    first_throw = next(i for i, events in enumerate(events_log) if any(e["type"] == "throw" for e in events))
    assert any(e["type"] == "gather" for events in events_log[:first_throw] for e in events)
    assert not any(e["type"] == "parents" and e["rolled"] for events in events_log for e in events)


def test_the_computer_reads_only_its_own_view():
    _, s, _, _ = play(5, bots=False, table=(2, [0, 1], {"village": "green", "ability_cards": "method2"}))
    s = R.new_game(players=2, options={"village": "green", "ability_cards": "method2"}, seed=5, teams=[0, 1])
    while R.outcome(s) is None:
        seat = min(R.to_act(s))
        other = copy.deepcopy(s)
        other["hands"][1 - seat] = list(reversed(other["hands"][1 - seat])) + ["saving"]
        other["deck"] = other["deck"][::-1]
        other["seed"] += 1
        assert R.bot_action(s, seat) == R.bot_action(other, seat)
        s, _ = R.apply(s, seat, R.bot_action(s, seat))
        if s["turn"] >= 2:
            break


def test_the_computer_refuses_to_act_out_of_turn():
    s = R.new_game(players=2, options={}, seed=5, teams=[0, 1])
    idle = 1 - next(iter(R.to_act(s)))
    with pytest.raises(NotYourTurn):
        R.bot_action(s, idle)


def test_every_prompt_default_is_accepted():
    s = R.new_game(players=3, options={"village": "random", "ability_cards": "method2"}, seed=9, teams=[0, 1, 2])
    steps = 0
    while R.outcome(s) is None and steps < 2000:
        asked = R.to_act(s)
        seat = min(asked)
        s, _ = R.apply(s, seat, asked[seat].default)
        steps += 1
    assert R.outcome(s) is not None


def move_prompts(seed: int, count: int):
    """The first ``count`` states of a random game where a Kid chooses where to MOVE."""
    players, teams, options = random_table(random.Random(seed))
    s = R.new_game(players=players, options=options, seed=seed, teams=teams)
    rng = random.Random(seed)
    found = 0
    while R.outcome(s) is None and found < count:
        asked = R.to_act(s)
        seat = rng.choice(sorted(asked))
        pending = s.get("pending")
        if isinstance(pending, dict) and pending.get("kind") == "move_to":
            found += 1
            yield s
            seat = pending["seat"]
        s, _ = R.apply(s, seat, random_action(R.view(s, seat), rng))


@settings(max_examples=examples(12), **SETTINGS)
@given(seed=st.integers(0, 2**40))
def test_the_move_region_a_client_reads_is_what_the_engine_accepts(seed):
    """The JSON region's polygons are valid, outer rings counter-clockwise; a point inside any of them
    is accepted as a MOVE and a point outside all of them is refused (away from their edges)."""
    rng = random.Random(seed)
    for s in move_prompts(seed, 4):
        seat, kid = s["pending"]["seat"], s["kids"][s["pending"]["kid"]]
        legal = next(a for a in R.legal_actions(s, seat) if a["type"] == "move_to")
        polygons = [Polygon(part["outer"], part["holes"]) for part in legal["region"]]
        assert polygons and all(p.is_valid and p.exterior.is_ccw for p in polygons)
        edges = shapely.union_all([p.boundary for p in polygons])
        roll = legal["roll"]
        for _ in range(25):
            to = [kid["pos"][0] + rng.uniform(-roll, roll), kid["pos"][1] + rng.uniform(-roll, roll)]
            if edges.distance(Point(to)) < 0.03:
                continue
            inside = any(p.contains(Point(to)) for p in polygons)
            try:
                R.apply(s, seat, {"type": "move_to", "to": to})
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted is inside, (to, inside)
