"""The What a Snowball! board, rendered from real engine states for a player and a spectator.

Each test plays the engine from a seed to a moment (set-up, a MOVE being placed, a dice tray,
after a throw, the end) and reads the page as a player would: what is drawn where, which
buttons there are and what they send, and what a spectator or the other seat never gets.
"""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.template.loader import render_to_string
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from tests.depth import examples
from shapely.geometry import Point, Polygon

from games import selectors
from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball import kids as K
from games.engines.what_a_snowball.bot import random_action
from tests.platform.was_states import new, play_until

NAMES = ["Alice", "Bob"]
WS_BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"')
DATA_ACTION = re.compile(r'data-action="([^"]*)"')
SIZE = 24.0


def render(state, seat, names=NAMES):
    to_act = R.to_act(state)
    prompt = to_act[seat].as_dict() if seat in to_act else None
    return render_to_string("games/what-a-snowball/board.html", {
        "view": R.view(state, seat), "seat": seat, "legal": R.legal_actions(state, seat) if seat in to_act else [],
        "prompt": prompt, "names": names, "version": 5, "payload": {"outcome": R.outcome(state)},
    })


def sent(page: str) -> list[dict]:
    return [json.loads(json.loads(html.unescape(vals))["action"]) for vals in WS_BUTTON.findall(page)]


def path_polygons(d: str) -> list[Polygon]:
    """An SVG path of straight rings back in village inches (y north)."""
    rings = []
    for ring in re.findall(r"M([^Z]*)Z", d):
        points = [tuple(map(float, p.split())) for p in re.split(r"\s*L", ring.strip())]
        rings.append(Polygon([(x, SIZE - y) for x, y in points]))
    return rings


def drawn_area(page: str) -> str:
    match = re.search(r'<path id="was-allowed"[^>]* d="([^"]*)"', page)
    assert match, "no allowed area is drawn"
    return match.group(1)


def inside_drawn(d: str, point) -> bool:
    """Even-odd: a point is inside when an odd number of rings hold it."""
    return sum(ring.contains(Point(point)) for ring in path_polygons(d)) % 2 == 1


def off_the_drawn_edge(d: str, point) -> bool:
    """Farther from every ring than the path's rounding (a thousandth of an inch): a point on
    an edge, as drawn, may lie on either side of it as the engine reckons."""
    return min(ring.exterior.distance(Point(point)) for ring in path_polygons(d)) > 0.001


@pytest.fixture(scope="module")
def corners_state():
    return new(seed=7)


@pytest.fixture(scope="module")
def deploy_state():
    return play_until(new(seed=7), lambda s: s["phase"] == "deploy")


@pytest.fixture(scope="module")
def move_state():
    return play_until(new(seed=7), lambda s: (s["pending"] or {}).get("kind") == "move_to" and s["pending"]["roll"] >= 3)


@pytest.fixture(scope="module")
def tray_state():
    return play_until(new(seed=11), lambda s: s["phase"] == "play" and s["pending"] is None and s["activation"]
                      and s["activation"]["stage"] == "turn"
                      and any(a["type"] == "throw" for a in R.legal_actions(s, s["kids"][s["activation"]["kid"]]["seat"])))


@pytest.fixture(scope="module")
def over_state():
    return play_until(new(seed=7), lambda s: s["phase"] == "over")


def test_the_roll_off_is_shown_and_only_the_picking_seat_can_click_a_corner(corners_state):
    s = corners_state
    picker = next(iter(R.to_act(s)))
    page = render(s, picker)
    rolls = s["team_rolls"][0]["totals"]
    for team, total in rolls.items():
        name = ("Red", "Blue")[int(team)]
        assert f"{name} {total}</span>" in page
    offered = [json.loads(html.unescape(a)) for a in DATA_ACTION.findall(page)]
    assert sorted(a["corner"] for a in offered) == [0, 1, 2, 3]
    assert all(a in R.legal_actions(s, picker) for a in offered)
    assert sorted(a["corner"] for a in sent(page) if a["type"] == "corner") == [0, 1, 2, 3]
    for viewer in (1 - picker, None):
        other = render(s, viewer)
        assert "was-corner-pick" not in other and not DATA_ACTION.findall(other)
        assert not [a for a in sent(other) if a["type"] == "corner"]
        assert "is picking a corner" in other


def test_placing_draws_the_allowed_area_within_six_inches_of_the_teams_corners(deploy_state):
    s = deploy_state
    seat = next(iter(R.to_act(s)))
    page = render(s, seat)
    place = [a for a in R.legal_actions(s, seat) if a["type"] == "place"]
    d = drawn_area(page)
    for ring in path_polygons(d):
        for x, y in ring.exterior.coords:
            assert min(Point(x, y).distance(Point(c)) for c in place[0]["corners"]) <= place[0]["within"] + 0.011
            assert 0.5 - 0.011 <= x <= SIZE - 0.5 + 0.011 and 0.5 - 0.011 <= y <= SIZE - 0.5 + 0.011
    assert inside_drawn(d, place[0]["example"]["to"])
    # every unplaced Kid of this seat can be chosen, and the click data carries the legal actions
    for action in place:
        assert f'value="{action["kid"]}"' in page
    click = json.loads(html.unescape(re.search(r'data-click="([^"]*)"', page).group(1)))
    assert click["mode"] == "place" and click["actions"] == place
    spectator = render(s, None)
    assert 'id="was-allowed"' not in spectator and 'data-click=""' in spectator
    assert "placing Kids" in spectator


# the drawn area (its bases and team-mates left out) is a part of the square the points come from:
# some runs keep fewer than one point in five, which hypothesis would otherwise call an error
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(corner=st.integers(0, 1), dx=st.floats(0, 6.2), dy=st.floats(0, 6.2), placed=st.integers(0, 2))
@example(corner=0, dx=1.2, dy=1.2, placed=1)  # on the drawn edge of Rudy's base, which the engine refuses
def test_a_point_inside_the_drawn_set_up_area_is_one_the_engine_accepts(deploy_state, corner, dx, dy, placed):
    s = deploy_state
    for _ in range(placed):  # with none, one or two team-mates already down, where the engine suggests
        seat = next(iter(R.to_act(s)))
        s, _ = R.apply(s, seat, next(a for a in R.legal_actions(s, seat) if a["type"] == "place")["example"])
    seat = next(iter(R.to_act(s)))
    place = next(a for a in R.legal_actions(s, seat) if a["type"] == "place")
    cx, cy = place["corners"][corner]
    point = [abs(cx - dx), abs(cy - dy)]
    drawn = drawn_area(render(s, seat))
    assume(inside_drawn(drawn, point) and off_the_drawn_edge(drawn, point))
    placed_state, _ = R.apply(s, seat, {"type": "place", "kid": place["kid"], "to": point})
    assert placed_state["kids"][place["kid"]]["pos"] == point


def test_a_move_draws_the_engines_reachable_area_for_the_mover_and_only_the_roll_for_others(move_state):
    s = move_state
    seat = s["pending"]["seat"]
    kid = s["kids"][s["pending"]["kid"]]
    page = render(s, seat)
    region = next(a for a in R.legal_actions(s, seat) if a["type"] == "move_to")["region"]
    d = drawn_area(page)
    rings = path_polygons(d)
    assert len(rings) == sum(1 + len(piece["holes"]) for piece in region)
    drawn = sum(r.area for r in rings[:1])
    assert drawn == pytest.approx(Polygon(region[0]["outer"]).area, rel=1e-3)
    assert f'{kid["name"]} moves up to {s["pending"]["roll"]}"' in page
    assert {"type": "move_to", "to": kid["pos"]} in sent(page)  # staying put is offered
    x, y = kid["pos"]
    ring = re.search(r'<circle class="was-roll-ring" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', page)
    assert (float(ring.group(1)), SIZE - float(ring.group(2)), float(ring.group(3))) == pytest.approx((x, y, s["pending"]["roll"]), abs=1e-3)
    for viewer in (1 - seat, None):
        other = render(s, viewer)
        assert 'id="was-allowed"' not in other
        assert not [a for a in sent(other) if a["type"] == "move_to"]
        assert "was-roll-ring" in other and f'{kid["name"]} is moving up to' in other


def test_the_dice_tray_says_what_each_die_is_for_and_offers_every_legal_spend(tray_state):
    s = tray_state
    activation = s["activation"]
    kid = s["kids"][activation["kid"]]
    seat = kid["seat"]
    page = render(s, seat)
    faces = R.view(s, seat)["kids"][activation["kid"]]["sheet"]["faces"]
    tray = re.search(r'<div class="was-dice" aria-label="Dice rolled">(.*?)</div>', page, re.DOTALL).group(1)
    shown = re.findall(r'<b>(\d)</b><small>([^<]*)</small>', tray)
    assert sorted(int(v) for v, _ in shown) == sorted(activation["tray"])
    assert all(means == faces[v] for v, means in shown)
    legal = R.legal_actions(s, seat)
    buttons = sent(page)
    for action in buttons:
        assert action in legal, f"a button sends {action}, which is not legal"
    for action in legal:
        if action["type"] not in ("surrender", "set_never_ask"):
            assert action in buttons, f"no button for {action}"
    # a throw shows the line of fire: the target's distance, the number needed and each modifier
    line = next(l for l in R.view(s, seat)["lines_of_fire"] if l["visible"])
    target = s["kids"][line["to"]]["name"]
    assert re.search(rf"THROW at <b>{target}</b>: {line['gap']:.1f}\" away", page)
    if not line["too_close"]:
        assert f"needs {line['needs']} on 2D6" in page
        for modifier in line["modifiers_without_size"]:
            assert html.escape(modifier["label"]) in page
    assert f'data-to="{line["to"]}"' in page and "was-lof is-visible" in page
    for viewer in (seat, 1 - seat, None):  # the dice left in the tray, not the Kid's own Command Dice
        status = re.search(r'<span class="was-step">(.*?)</span>\s*<span class="was-teams-key">', render(s, viewer),
                           re.DOTALL).group(1)
        left = len(activation["tray"])
        assert f"is activating: {left} of the dice rolled left to spend" in re.sub(r"\s+", " ", status)
        assert f"{kid['command_dice']} Command Di" not in status
    for viewer in (1 - seat, None):
        other = render(s, viewer)
        assert not [a for a in sent(other) if a["type"] not in ("surrender", "set_never_ask")]
        assert f"{kid['name']} is activating" in other and "data-was-tray" not in other


def test_kids_show_their_dice_snowballs_aims_and_knocked_down_state(tray_state):
    s = json.loads(json.dumps(tray_state))
    kid_id = s["activation"]["kid"]
    s["kids"][kid_id].update(snowballs=[1, 1, 3], aims=2, command_dice=4, down=True)
    page = render(s, None)
    base = re.search(rf'<g class="was-kid[^"]*" data-kid="{kid_id}".*?</g>\s*</g>|<g class="was-kid[^"]*" data-kid="{kid_id}".*?\n</g>', page, re.DOTALL).group(0)
    assert "is-down" in base and "(down)" in base and "was-down-mark" in base
    assert "Size 1, Size 1, Size 3" in base and "AIM +2" in base and "4 Command Dice" in base
    assert "×2" in base  # two Size 1 snowballs drawn as one badge
    assert "knocked down" in page


def test_the_end_shows_each_teams_score_with_the_books_bonuses(over_state):
    s = over_state
    outcome = R.outcome(s)
    for seat in (0, None):
        page = render(s, seat)
        assert "Game over" in page
        for row in outcome["teams"]:
            assert f'<td class="was-score-total">{row["score"]}</td>' in page
            for part in row["breakdown"]:
                assert f'{part["label"]}: {part["points"]}' in page
        winners = " ".join(("Red", "Blue")[t] for t in outcome["winning_teams"])
        assert f"{winners} win" in page
        assert not [a for a in sent(page) if a["type"] not in ("surrender", "set_never_ask")]


def test_the_log_and_the_hand_show_a_seats_cards_to_that_seat_only():
    state = new(seed=5, options={"ability_cards": "method2"})
    records, seq = [], 0
    for _ in range(400):
        if state["phase"] == "play":
            break
        seat = min(R.to_act(state))
        state, events = R.apply(state, seat, R.bot_action(state, seat))
        seq += 1
        records.append({"seq": seq, "events": events})
    log = selectors.log_records(list(reversed(records)), NAMES)
    hand0 = R.view(state, 0)["hand"]
    assert hand0
    titles = [R.view(state, 0)["cards"][c]["title"] for c in hand0]
    for viewer in (0, 1, None):
        lines = [line["text"] for line in selectors.game_log(log, viewer)]
        page = render_to_string("games/live.html", {
            "payload": {"status": "active", "players": [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bob"}],
                        "waiting_for": [], "log": selectors.game_log(log, viewer), "outcome": None},
            "view": R.view(state, viewer), "seat": viewer, "legal": [], "prompt": None, "names": NAMES, "version": 9,
            "board_template": "games/what-a-snowball/board.html",
        })
        own_draw = f"You draw {', '.join(titles)}."
        if viewer == 0:
            assert own_draw in lines and html.escape(own_draw) in page
            assert 'aria-label="Your ability cards"' in page
        else:
            assert not any(line.startswith("You draw") and "{p0}" not in line and line == own_draw for line in lines)
            assert html.escape(own_draw) not in page
            # seat 1 sees its own hand, a spectator none
            assert ('aria-label="Your ability cards"' in page) == (viewer == 1)


@pytest.mark.parametrize("seed, players, options", [
    (3, 4, {"special_players": True, "ability_cards": "method2", "village": "random"}),
    (8, 3, {"ability_cards": "method1", "village": "high_street"}),
])
def test_every_button_on_every_page_of_a_random_game_sends_a_legal_action(seed, players, options):
    """Random legal play with 3-4 teams, special players and cards: at every sampled moment each
    seat's and a spectator's page render, every button sends one of that seat's legal actions,
    the asked seat has a control for every legal action, and no seat placeholder is left."""
    rng = random.Random(seed)
    state = new(seed=seed, players=players, options=options)
    names = [f"P{i}" for i in range(players)]
    for step in range(700):
        to_act = R.to_act(state)
        if step % 9 == 0 or any(p.kind == "reaction" for p in to_act.values()):
            for viewer in [*range(players), None]:
                page = render(state, viewer, names)
                assert "{p" not in page
                legal = R.legal_actions(state, viewer) if viewer in to_act else []
                for action in sent(page):
                    assert viewer is not None, f"a spectator's page sends {action}"
                    if action["type"] == "move_to":  # a point of the region: the engine must take it
                        R.apply(state, viewer, action)
                    else:
                        assert action in R.legal_actions(state, viewer), action
                for action in legal:
                    if action["type"] in ("place", "move_to"):
                        assert 'id="was-allowed"' in page
                    else:
                        assert action in sent(page), f"no button for {action}"
        if not to_act:
            break
        seat = min(to_act)
        state, _ = R.apply(state, seat, random_action(R.view(state, seat), rng))


def test_a_throw_waiting_for_a_reaction_shows_everyone_what_the_roll_will_count():
    state = play_until(new(seed=3, players=4, options={"special_players": True, "ability_cards": "method2",
                                                        "village": "random"}),
                       lambda s: s["throw"] is not None and (s["pending"] or {}).get("kind") == "reaction")
    throw = state["throw"]
    asked = state["pending"]["seat"]
    for viewer in (0, 1, 2, 3, None):
        page = render(state, viewer)
        assert "data-was-throw" in page
        assert f'{state["kids"][throw["thrower"]]["name"]}</span> throws a Size {throw["size"]}' in page
        if not throw["too_close"]:
            assert f"needing {throw['needs']}" in page
            for modifier in throw["modifiers"]:
                assert f'{modifier["value"]:+d} {html.escape(modifier["label"])}' in page
        # only the asked seat gets the reaction's buttons
        assert ("was-reaction" in page) == (viewer == asked)


def test_a_dash_against_a_throw_names_the_dashing_kid_not_the_thrower():
    """"Dashing through the snow!" moves the target during the thrower's activation: the panel,
    its stay button and the drawn area name the Kid who dashes."""
    def dash_offered(s):
        pending = s["pending"] or {}
        return pending.get("kind") == "reaction" and {"type": "play_card", "card": "dash"} in R.legal_actions(s, pending["seat"])
    state = play_until(new(seed=1, players=4, options={"ability_cards": "method2"}), dash_offered)
    state, _ = R.apply(state, state["pending"]["seat"], {"type": "play_card", "card": "dash"})
    dasher = state["kids"][state["pending"]["kid"]]["name"]
    thrower = state["kids"][state["activation"]["kid"]]["name"]
    assert dasher != thrower
    page = render(state, state["pending"]["seat"], names=["Ana", "Ben", "Cy", "Di"])
    panel = re.search(r"<section class=\"was-panel was-do\" data-was-move>.*?</section>", page, re.S).group(0)
    assert f'<h3>{dasher} moves up to {state["pending"]["roll"]}"</h3>' in panel
    assert f"Stay where {dasher} is" in panel and thrower not in panel
    assert f"<title>Where {dasher} can move:" in page


def test_every_team_is_told_apart_by_a_shape_on_the_bases_the_track_and_the_sheets():
    """Not by colour alone: each Kid's base, its activation-order chip, its sheet row and its team's chip
    carry its team's shape (Red a circle, Blue a square, Green a triangle, Gold a diamond)."""
    s = play_until(new(seed=7, players=4), lambda s: s["phase"] == "play" and s["order"])
    page = render(s, 0, names=["Ana", "Ben", "Cy", "Dee"])
    shape_of = {"red": "circle", "blue": "square", "green": "triangle", "gold": "diamond"}
    bases = re.findall(r'<g class="was-kid was-c-(\w+)[^"]*" data-kid="(\w+)".*?<path class="was-team-mark" data-mark="([\w-]*)" d="M[^"]+"',
                       page, re.DOTALL)
    assert len(bases) == sum(1 for k in s["kids"].values() if k["pos"] is not None and k["home"] is None) == 8
    assert all(mark == shape_of[colour] for colour, _, mark in bases)
    chips = re.findall(r'<li class="was-track-item [^"]*was-c-(\w+)[^"]*" data-kid="\w+"><svg class="team-mark" data-mark="([\w-]+)"',
                       page)
    assert len(chips) == len(s["order"]) and all(mark == shape_of[colour] for colour, mark in chips)
    for colour, shape in shape_of.items():
        sheet = re.search(rf'<section class="was-sheet was-c-{colour}.*?</section>', page, re.DOTALL).group(0)
        assert sheet.count(f'data-mark="{shape}"') == 1 + 2  # the team's chip and each of its two Kids' rows
        assert re.search(rf'<span class="was-chip was-c-{colour}[^"]*"><svg class="team-mark" data-mark="{shape}"', page)


def test_a_reaction_prompt_lists_the_asked_seats_cards_in_its_own_view_only():
    """A THROW waits for the target's player to answer "Missed me, dork!" or another reaction card:
    the asked seat sees the question with a button per card, while the other seats and a spectator
    see only that it is deciding, on the engine's view and on the rendered page, the same as if the
    asked seat held other cards."""
    names = ["Ana", "Ben", "Cy", "Dee"]
    state = play_until(new(seed=3, players=4, options={"ability_cards": "method2"}),
                       lambda s: (s["pending"] or {}).get("kind") == "reaction" and len(s["pending"]["cards"]) < 4)
    asked, cards = state["pending"]["seat"], state["pending"]["cards"]
    titles = [K.CARDS[c]["title"] for c in cards]
    swap = next(c for c in K.REACTION_CARDS if c not in cards)
    other = json.loads(json.dumps(state))
    other["pending"]["cards"] = [swap]
    other["hands"][asked] = [swap] * len(state["hands"][asked])

    own = render(state, asked, names)
    assert R.view(state, asked)["prompt"]["extra"]["cards"] == cards
    panel = re.search(r'<section class="was-panel was-reaction".*?</section>', own, re.S).group(0)
    assert all(f"Play “{html.escape(title)}”" in panel for title in titles)
    assert f"Waiting for {names[asked]}" not in own and "Your answer" in own  # not told to wait for itself
    for viewer in [seat for seat in range(4) if seat != asked] + [None]:
        seen = R.view(state, viewer)
        assert seen == R.view(other, viewer), f"seat {asked}'s reaction cards change what {viewer} sees"
        assert seen["prompt"] is None and seen["pending"]["seat"] == asked
        page = render(state, viewer, names)
        assert page == render(other, viewer, names)
        assert "was-reaction" not in page and f"Waiting for {names[asked]}" in page
        held = {K.CARDS[c]["title"] for c in state["hands"][viewer]} if viewer is not None else set()
        assert not [t for t in titles if t not in held and html.escape(t) in page], (viewer, titles)


def test_a_seat_asked_with_no_card_to_play_gets_one_clear_button_and_the_others_cannot_tell():
    """A seat is asked at the start of its Kid's activation and when a throw is declared at its Kid
    whenever it holds any card. Holding none it may play then, its panel says so and has one button
    ("Roll ..." or "Go on"); holding one, a button per card. The other seat's page and a spectator's
    are the same either way."""
    from tests.engines.what_a_snowball_scenes import scene

    def asked_at_start(hand):
        s = scene([{"team": 1, "pos": [18, 12]}, {"team": 0, "pos": [6, 12], "snowballs": [1]}], tray=[3],
                  terrain=[], cards="method1", hands={0: hand})
        return R.apply(s, 1, {"type": "end_activation"})[0]

    def asked_to_react(hand):
        s = scene([{"team": 1, "pos": [12, 12], "snowballs": [1]}, {"team": 0, "pos": [6, 12]}], tray=[4],
                  terrain=[], cards="method1", hands={0: hand})
        return R.apply(s, 1, {"type": "throw", "die": 4, "target": "k0", "snowball": 1})[0]

    for asked, holding, lacking in ((asked_at_start, ["not_done"], ["ice"]), (asked_to_react, ["dork"], ["ice"])):
        with_card, without = asked(holding), asked(lacking)
        assert R.to_act(with_card).keys() == R.to_act(without).keys() == {0}
        for viewer in (1, None):
            assert render(with_card, viewer) == render(without, viewer)
        mine = render(without, 0)
        choices = [a for a in sent(mine) if a["type"] not in ("surrender", "set_never_ask")]
        assert len(choices) == 1 and "You have no card to play now" in html.unescape(mine)
        assert "Play “" not in html.unescape(mine)
        if asked is asked_at_start:
            assert choices == [{"type": "roll"}] and re.search(r">Roll \d Command Dice</button>", mine)
            assert [a for a in sent(render(with_card, 0)) if a["type"] == "play_card"] == [
                {"type": "play_card", "card": "not_done"}]
        else:
            assert choices == [{"type": "decline"}] and re.search(r"data-decline[^>]*>Go on</button>", mine)
            panel = re.search(r'<section class="was-panel was-reaction".*?</section>', render(with_card, 0), re.S)
            assert "Play “Missed me, dork!”" in html.unescape(panel.group(0)) and ">No card</button>" in panel.group(0)
        settings = re.search(r'<details class="was-settings">.*?</details>', mine, re.S).group(0)
        assert {"type": "set_never_ask", "card": "not_done", "on": True} in sent(settings)


def test_a_die_that_cannot_be_spent_says_why_beside_it():
    """Holly holds a snowball but the house hides Noel, and she stands on the gritted road: her THROW
    and GATHER dice each say why, in the engine's words, under that die; the MOVE die has buttons."""
    from tests.engines.what_a_snowball_scenes import piece, rect, scene

    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [1], "name": "Holly"},
               {"team": 1, "pos": [18, 12], "name": "Noel"}], tray=[1, 2, 4],
              terrain=[piece("house", "house", rect(10, 8, 14, 16)), piece("road", "road", rect(0, 10, 9, 14))])
    page = render(s, 0)
    dice = dict(re.findall(r'<div class="was-spend[^"]*" data-die="(\d)">(.*?)</div>\s*(?=<div class="was-spend|<div class="was-btnrow was-endrow)',
                           page, re.S))
    assert sorted(dice) == ["1", "2", "4"]
    assert "Cannot be spent: no enemy Kid in sight: the house hides Noel." in dice["4"]
    assert "Cannot be spent: Holly stands on the gritted road: no snow to gather there." in dice["2"]
    assert "data-why-not" not in dice["1"] and "MOVE: roll 1D6" in dice["1"]
    assert not [a for a in sent(page) if a.get("die") in (2, 4)]


_quarters = st.integers(-8, 40).map(lambda q: q / 4)  # on a grid, so edges often touch exactly


@st.composite
def _boxes(draw, corners=_quarters, quarters_wide=(1, 16), quarters_high=(1, 16)):
    """A box of the quarter-inch grid: its top left corner from ``corners``, its size in quarters."""
    left, top = draw(corners), draw(corners)
    return left, top, left + draw(st.integers(*quarters_wide)) / 4, top + draw(st.integers(*quarters_high)) / 4


@st.composite
def _inside(draw, area):
    """A box of the grid inside ``area``, reaching its edges as often as not."""
    quarters_wide, quarters_high = round((area[2] - area[0]) * 4), round((area[3] - area[1]) * 4)
    left, top = draw(st.integers(0, quarters_wide - 1)), draw(st.integers(0, quarters_high - 1))
    right, bottom = draw(st.integers(left + 1, quarters_wide)), draw(st.integers(top + 1, quarters_high))
    return area[0] + left / 4, area[1] + top / 4, area[0] + right / 4, area[1] + bottom / 4


@st.composite
def _near(draw, area):
    """A box of the grid whose edges lie within a few quarters of ``area``'s, in or out."""
    step = st.integers(-3, 3).map(lambda q: q / 4)
    left, top = area[0] + draw(step), area[1] + draw(step)
    return left, top, max(left + 0.25, area[2] + draw(step)), max(top + 0.25, area[3] + draw(step))


@settings(max_examples=examples(400), deadline=None)
@given(area_and_label=_boxes().flatmap(lambda area: st.tuples(st.just(area), _inside(area))),
       others=st.lists(_boxes(), max_size=4), data=st.data(),
       circle=st.tuples(_quarters, _quarters, st.integers(1, 12).map(lambda q: q / 4)))
def test_a_label_inside_an_area_is_charged_nothing_by_what_the_placement_leaves_out(area_and_label, others, data,
                                                                                    circle):
    """Names and line-of-fire labels are weighed only against the boxes, circles and lines whose
    bounds meet the area their spots cover: what is left out must cost any spot inside it nothing,
    edges touching included, so the boards are placed as if everything were weighed."""
    from games.templatetags.what_a_snowball_board import _boxes_meeting, _circle_cost, _meets, _overlap

    area, label = area_and_label
    others = others + data.draw(st.lists(_near(area), max_size=4))
    kept = _boxes_meeting(others, area)
    assert kept == [b for b in others if b in kept]
    for box_ in others:
        if box_ not in kept:
            assert _overlap(label, box_) == 0
    cx, cy, r = circle
    if not _meets((cx - r, cy - r, cx + r, cy + r), area):
        assert _circle_cost(label, circle) == 0


def _least_covering_spot(a, b, text, boxes, circles, other_lines, size):
    """A line-of-fire label's spot as its rule says, every obstacle weighed at every spot: the first
    spot of least cost (the boxes and circles it covers, what lies outside the drawing, and for a
    spot off the line the other lines it crosses and how far off it is)."""
    from shapely.geometry import LineString, box

    from games.templatetags import what_a_snowball_board as board

    width = len(text) * board.FIRE_LABEL_PHONE_CHAR
    margin = board.VIEW_MARGIN
    best = None
    for (cx, cy), off, on, needs_leader in board._fire_label_spots(a, b, width):
        area = (cx - width / 2, cy - board.FIRE_LABEL_HEIGHT / 2, cx + width / 2, cy + board.FIRE_LABEL_HEIGHT / 2)
        inside = board._overlap(area, (-margin, -margin, size + margin, size + margin))
        cost = 10 * (sum(board._overlap(area, o) for o in boxes) + sum(board._circle_cost(area, c) for c in circles)
                     + width * board.FIRE_LABEL_HEIGHT - inside)
        if off:
            cost += 0.1 * (sum(line.intersection(box(*area)).length + 10 * line.intersects(LineString([(cx, cy), on]))
                               for line in other_lines) + off)
        if best is None or cost < best[0] - 1e-9:
            best = (cost, area, on if needs_leader else None)
        if cost == 0:
            break
    return best[1], best[2]


_inches = st.integers(32, 64).map(lambda q: q / 4)  # a crowded middle of the village: labels must often move off



@settings(max_examples=examples(800), deadline=None)
@given(a=st.tuples(_inches, _inches), b=st.tuples(_inches, _inches), text=st.text("ab", min_size=3, max_size=24),
       boxes=st.lists(_boxes(_inches, (2, 16), (1, 6)), max_size=16),
       circles=st.lists(st.tuples(_inches, _inches, st.integers(2, 8).map(lambda q: q / 4)), max_size=10),
       lines=st.lists(st.tuples(st.tuples(_inches, _inches), st.tuples(_inches, _inches)), max_size=5))
@example(a=(8.0, 10.0), b=(8.5, 9.75), text="aaa", boxes=[], circles=[(8.0, 8.0, 2.0), (8.0, 12.5, 2.0)],
         lines=[])  # between two bases: the label must move off its line, and a later spot off it wins
def test_a_line_of_fire_label_goes_to_the_first_spot_of_least_cost(a, b, text, boxes, circles, lines):
    """The label's placement, which leaves out what cannot touch its spots and the spots that cannot
    beat the best so far, lands where weighing everything at every spot would put it."""
    from shapely.geometry import LineString

    from games.templatetags.what_a_snowball_board import _place_fire_label

    assume(a != b)
    other_lines = [LineString(ends) for ends in lines if ends[0] != ends[1]]
    assert (_place_fire_label(a, b, text, boxes, circles, other_lines, 24.0)
            == _least_covering_spot(a, b, text, boxes, circles, other_lines, 24.0))


def test_the_terrain_a_board_keeps_labels_off_is_its_own_village_s_however_often_it_is_drawn():
    import copy

    from games.templatetags import what_a_snowball_board as board

    state = play_until(new(seed=7), lambda s: s["phase"] == "play")
    view = R.view(state, None)
    size = float(view["village"]["size"][1])
    moved = copy.deepcopy(view)  # another village: its first piece a yard east
    moved["village"]["terrain"][0]["points"] = [[x + 3, y] for x, y in moved["village"]["terrain"][0]["points"]]
    for seat in (None, 0, 1):  # boards drawn from the remembered rows first
        render(state, seat)
    assert board._terrain_rows_of(view, size) == board._terrain_rows(view, size)
    assert board._terrain_rows_of(moved, size) == board._terrain_rows(moved, size) != board._terrain_rows(view, size)


@pytest.mark.parametrize(("winning", "heading"), [([0], "wins!"), ([0, 1], "share the victory!"), ([], "Game over")])
def test_the_result_heading_names_one_winner_or_the_teams_that_share_the_victory(winning, heading):
    state = play_until(new(seed=3), lambda s: s["phase"] == "over", limit=6000)
    state = {**state, "result": {**state["result"], "winning_teams": winning}}
    names = [t["name"] for t in R.view(state, None)["teams"]]
    title = re.search(r'<section class="was-panel was-over"[^>]*>\s*<h3>([^<]*)</h3>', render(state, 0)).group(1)
    expected = {1: f"{names[0]} wins!", 2: f"{names[0]} and {names[1]} share the victory!", 0: "Game over"}
    assert title == expected[len(winning)] and title.endswith(heading)


def test_a_game_ended_in_the_middle_of_an_activation_marks_no_kid_as_acting_now():
    """A resignation ends a game whoever is acting: its finished page shows no Kid "now"."""
    from games.selectors.snapshots import settled_view

    state = play_until(new(seed=3), lambda s: s["activation"] is not None, limit=6000)
    to_act = R.to_act(state)
    seat = next(iter(to_act))
    playing = render_to_string("games/what-a-snowball/board.html", {
        "view": R.view(state, seat), "seat": seat, "legal": R.legal_actions(state, seat), "prompt": to_act[seat].as_dict(),
        "names": NAMES, "version": 5, "payload": {"outcome": None}})
    over = render_to_string("games/what-a-snowball/board.html", {
        "view": settled_view(R.view(state, seat), outcome={"reason": "Alice resigned"}), "seat": seat, "legal": [],
        "prompt": None, "names": NAMES, "version": 6, "payload": {"outcome": {"reason": "Alice resigned"}}})
    assert 'class="was-track-now"' in playing and 'class="was-track-now"' not in over


def _own_corner_names(s, seat) -> list[str]:
    from games.engines.what_a_snowball import villages
    return [villages.CORNER_NAMES[c] for c in s["corners"][str(s["seat_team"][seat])]]


def test_with_two_teams_setting_up_names_both_of_the_teams_corners(corners_state, deploy_state):
    """With two teams each team has two corners: the player placing Kids is told "one of your
    corners" and which two, in the prompt, the panel and the shaded area's title (it said
    "your corner", as if there were one); the others read "one of their team's corners"."""
    s = deploy_state
    seat = next(iter(R.to_act(s)))
    first, second = _own_corner_names(s, seat)
    where = f"one of your corners ({first} or {second})"
    assert R.to_act(s)[seat].as_dict()["text"] == f'Place your Kids within 6" of {where}.'
    page = html.unescape(render(s, seat))
    assert f"inside the shaded area: within 6 inches of {where}, on free ground." in page
    assert f"<title>Your Kid's centre goes in here: within 6 inches of {where}, on free ground</title>" in page
    assert f'data-was-where="{where}"' in page
    assert "of your corner," not in page and "of your corner)" not in page
    for viewer in (1 - seat, None):
        other = html.unescape(render(s, viewer))
        assert "Within 6 inches of one of their team's corners, team by team" in other
        assert "their corner" not in other and "team's corner," not in other
    picking = html.unescape(render(corners_state, next(iter(R.to_act(corners_state)))))
    assert "With two teams, each picks two corners: your Kids set up within 6 inches of either of yours." in picking


def test_with_four_teams_setting_up_names_the_teams_one_corner():
    s = play_until(new(seed=7, players=4), lambda s: s["phase"] == "deploy")
    seat = next(iter(R.to_act(s)))
    (corner,) = _own_corner_names(s, seat)
    assert R.to_act(s)[seat].as_dict()["text"] == f'Place your Kids within 6" of your corner ({corner}).'
    names = ["Alice", "Bob", "Cy", "Dee"]
    page = html.unescape(render(s, seat, names))
    assert f"inside the shaded area: within 6 inches of your corner ({corner}), on free ground." in page
    assert "of your corners" not in page and "either of yours" not in page
    assert "Within 6 inches of their team's corner, team by team" in html.unescape(render(s, None, names))


def test_each_viewer_sees_only_its_own_kids_and_team_marked_whoever_is_drawn_first():
    """A version's Kids, sheets and team chips are drawn once for every viewer who sees them alike, yet
    each player's own Kids, its team's sheet and its team's chip are marked as its own, nobody else's,
    and a spectator's page marks none, whichever viewer's page is drawn first."""
    from games.templatetags.games_tags import RENDERED_ONCE
    from games.templatetags.what_a_snowball_board import SHARED_ROWS

    s = play_until(R.new_game(players=4, options={}, seed=7, teams=[0, 0, 1, 1]),
                   lambda s: s["phase"] == "play" and s["order"])
    names = ["Ana", "Ben", "Cy", "Dee"]
    colour_of_seat = {seat: t["colour"] for t in R.view(s, None)["teams"] for seat in t["seats"]}
    drawn = []
    for order in ([None, 0, 1, 2, 3], [3, 1, None, 2, 0]):
        RENDERED_ONCE.clear()
        SHARED_ROWS.clear()
        pages = {seat: render(s, seat, names=names) for seat in order}
        for seat, page in pages.items():
            own_kids = {k for k, kid in s["kids"].items()
                        if kid["seat"] == seat and kid["pos"] is not None and kid["home"] is None}
            own_colour = [] if seat is None else [colour_of_seat[seat]]
            assert own_kids or seat is None
            assert set(re.findall(r'<g class="was-kid [^"]*is-mine[^"]*" data-kid="(\w+)"', page)) == own_kids
            assert re.findall(r'<section class="was-sheet was-c-(\w+) is-mine"', page) == own_colour
            assert re.findall(r'<span class="was-chip was-c-(\w+) is-mine">', page) == own_colour
        drawn.append(pages)
    assert drawn[0] == drawn[1]


def test_a_game_ended_in_the_middle_of_a_move_draws_no_kid_acting_or_moving():
    """A resignation while a Kid's MOVE is being placed: the finished page rings no Kid as the
    one acting, marks no sheet row, and draws no "moves up to" ring round it."""
    from games.selectors.snapshots import settled_view

    state = play_until(new(seed=3), lambda s: (s["pending"] or {}).get("kind") == "move_to", limit=6000)
    seat = state["pending"]["seat"]
    playing = render(state, 1 - seat)
    over = render_to_string("games/what-a-snowball/board.html", {
        "view": settled_view(R.view(state, 1 - seat), outcome={"reason": "Alice resigned"}), "seat": 1 - seat,
        "legal": [], "prompt": None, "names": NAMES, "version": 6, "payload": {"outcome": {"reason": "Alice resigned"}}})
    drawn = ('class="was-active-ring"', 'class="was-roll-ring"', '<tr class="is-active"', "moves up to")
    assert all(mark in playing for mark in drawn)
    assert [mark for mark in drawn if mark in over] == []


def test_the_typed_coordinates_say_where_they_run_from(deploy_state, move_state):
    """The x and y boxes for placing and moving a Kid say where 0 is and which way they grow, as the
    engine reads them: a legal placement typed as the words say lies in the zone drawn for it."""
    for state in (deploy_state, move_state):
        seat = min(R.to_act(state))
        page = html.unescape(render(state, seat))
        assert ("in inches: x from the west (left) edge, 0, to the east, 24; "
                "y from the south (bottom) edge, 0, to the north, 24") in page
    seat = min(R.to_act(deploy_state))
    place = next(a for a in R.legal_actions(deploy_state, seat) if a["type"] == "place")
    assert inside_drawn(drawn_area(render(deploy_state, seat)), place["example"]["to"])



def test_a_kid_named_after_its_player_is_not_named_twice_on_its_base_or_its_sheet():
    """Holly, played by "holly", is "Holly (team red)" on its base and has no player line on its
    team's sheet; Ivy, holly's other Kid, still says whose it is, on both."""
    s = play_until(R.new_game(players=4, options={}, seed=7, teams=[0, 0, 1, 1]),
                   lambda s: s["phase"] == "play" and s["order"])
    page = html.unescape(render(s, 1, names=["holly", "Ben", "Cy", "Dee"]))
    titles = dict(re.findall(r'data-name="(\w+)"[^>]*>\s*<title>([^:]*):', page))
    assert (titles["Holly"], titles["Ivy"], titles["Noel"]) == ("Holly (team red)", "Ivy (team red, holly)", "Noel (team red, Ben)")
    rows = dict(re.findall(r'data-kid="\w+">\s*<th scope="row">.*?</svg>(\w+)(.*?)</th>', page, re.DOTALL))
    assert rows["Holly"] == ""
    assert (rows["Ivy"], rows["Noel"]) == ('<br><small class="muted">holly</small>', '<br><small class="muted">Ben</small>')


def test_every_piece_of_the_green_but_the_gritted_path_is_labelled_on_the_map_the_fountain_too(corners_state):
    """The village green's frozen fountain, too small across for its words, is labelled "fountain"
    over it like the pieces round it, and named in full in its tooltip."""
    page = render(corners_state, 0)
    pieces = re.findall(r'<g class="was-t was-t-(\w+)[^"]*" data-id="\w+"><title>([^<]*)</title><polygon[^>]*/>'
                        r'(?:<text class="was-t-label"[^>]*>([^<]*)</text>)?</g>', page)
    assert len(pieces) == len(corners_state["terrain"]) == 12
    assert [kind for kind, _, label in pieces if not label] == ["path"]
    assert [(title, label) for kind, title, label in pieces if kind == "fountain"] == [
        ("Frozen fountain: blocks movement, vaultable", "fountain")]
