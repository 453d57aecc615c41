"""The Snowball Fighting board, rendered for real engine states from a player's and a spectator's view.

What a player notices: the garden's 150 hexes with their references and features, every
combatant with its name, HP, VPs and snowballs, its own orders with their MF and hit chances,
the turn's report with every d100 roll, the final standings. And what no one may notice: a
page that is not a seat's own never changes when that seat writes orders.
"""
from __future__ import annotations

import copy
import html
import json
import random
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games import rendering
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import bot
from games.templatetags.snowball_fighting import describe_order

NAMES = ["Ana", "Ben", "Cy"]
WS_BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"')


def render(state, seat, *, version: int = 7) -> str:
    to_act = R.to_act(state)
    return render_to_string("games/snowball-fighting/board.html", {
        "view": R.view(state, seat),
        "seat": seat,
        "legal": R.legal_actions(state, seat) if seat in to_act else [],
        "prompt": None,
        "names": NAMES[:state["players"]],
        "version": version,
        "game": SimpleNamespace(pk=1, game_type=R.slug),
        "payload": {"outcome": R.outcome(state), "status": "active",
                    "players": [{"seat": i, "name": n} for i, n in enumerate(NAMES[:state["players"]])]},
    })


def text_of(page: str) -> str:
    """The page's words as a reader sees them (tags dropped, entities decoded, spaces folded)."""
    inline = re.sub(r"</?(?:b|i|em|strong|small|span)\b[^>]*>", "", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def setup_done(players: int = 2, seed: int = 3, names=("Avalanche Annie", "Blizzard Ben", "Cold Cy"),
               starts=(["W9"], ["C1"], ["A7"]), options=None):
    s = R.new_game(players=players, options=options or {}, seed=seed)
    for x in range(players):
        s, _ = R.apply(s, x, {"type": "setup", "name": names[x], "starts": list(starts[x]), "ready": True})
    return s


def play_turn(state, rng):
    for x in sorted(R.to_act(state)):
        action = bot.random_orders(state, x, rng)
        action["ready"] = True
        state, _ = R.apply(state, x, action)
    return state


def test_setup_page_shows_the_garden_and_asks_for_a_name_and_start_hexes():
    s = R.new_game(players=2, options={}, seed=1)
    page = render(s, 0)
    hexes = re.findall(r'<g class="sf-hex[^"]*" data-hex="([A-W]\d+)"', page)
    assert len(hexes) == 150 and {"A1", "K7", "W13", "W11", "B12"} <= set(hexes)
    for ref in ("A1", "K7", "W13"):
        assert '<text class="sf-ref" x="' in page and f">{ref}</text>" in page
    assert re.search(r'<g class="sf-hex[^"]*is-shed[^"]*" data-hex="K7"[^>]*aria-label="K7: the shed[^"]*"><polygon', page)
    # every hex is a button in the keyboard's reach, labelled with its reference and what it is
    assert re.search(r'data-hex="L6"[^>]*role="button" tabindex="-1"[^>]*aria-label="L6: [^"]*safe from avalanches', page)
    assert re.search(r'data-hex="E13"[^>]*aria-label="E13: a conifer"', page)
    assert re.search(r'data-hex="A7"[^>]*aria-label="A7: [^"]*a start hex', page)
    assert len(re.findall(r'class="sf-start[^"]*" data-start="', page)) == 6
    assert len(re.findall(r'class="sf-conifer[" ]', page)) == 3
    assert "data-sf-setup" in page and 'id="sf-name"' in page
    spectator = render(s, None)
    assert "data-sf-setup" not in spectator and 'id="sf-you"' not in spectator
    assert "choosing their noms de guerre" in text_of(spectator)


def test_a_saved_setup_shows_its_preferences_in_order_to_its_owner_only():
    s = R.new_game(players=2, options={}, seed=1)
    s, _ = R.apply(s, 0, {"type": "setup", "name": "Frosty", "starts": ["W5", "A7"]})
    mine = render(s, 0)
    assert 'value="Frosty"' in mine and 'data-saved="W5,A7"' in mine
    ranks = dict(re.findall(r'data-start="([A-W]\d+)"[^>]*><path [^>]*/><text class="sf-rank" y="3">(\d)</text>', mine))
    assert ranks == {"W5": "1", "A7": "2"}
    for other in (render(s, 1), render(s, None)):
        assert "Frosty" not in other and "W5,A7" not in other


def test_combatants_are_drawn_with_name_hp_vps_and_snowballs():
    rng = random.Random(4)
    s = play_turn(setup_done(3), rng)
    view = R.view(s, None)
    page = render(s, None)
    words = text_of(page)
    for c in view["combatants"]:
        token = re.search(rf'<g class="sf-token[^"]*" data-token-seat="{c["seat"]}" data-hex="([^"]+)"(.*?)</g>\s*</g>', page, re.S)
        assert token and token.group(1) == c["hex"]
        assert f'{c["hp"]}♥ {c["vp"]}★' in token.group(2)
        assert c["name"] in words
        row = re.search(rf'data-roster-seat="{c["seat"]}">(.*?)</tr>', page, re.S).group(1)
        assert f'<td class="sf-vp">{c["vp"]}</td>' in row and f"{c['ss']} ●" in row


def test_own_orders_show_mf_and_hit_chances_to_their_owner():
    s = setup_done(2, starts=(["W9"], ["S1"]))
    # W9 to the path and up it: the last step, path to path, costs half
    orders = [{"type": "move", "route": ["V10", "W11", "U11"]},
              {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end", "route": ["T12"]},
              {"type": "rattlesnake", "target": 1}]
    s, _ = R.apply(s, 0, {"type": "orders", "segments": orders})
    words = text_of(render(s, 0))
    assert "Move V10 → W11 → U11" in words
    assert "3 steps (1 along the path at ½ MF): 2.5 MF" in words and "2.5 of 4 MF used, 1.5 MF left" in words
    assert "Move T12, then collect 1 simple snowball" in words and "collecting: 2 MF" in words
    chance = R.view(s, 0)["you"]["preview"][2][0]
    assert f"Blizzard Ben: {chance['percent']}% to hit" in words
    for m in chance["modifiers"]:
        assert m["label"] in words
    assert f"= {chance['adjusted']}%" in words


@pytest.mark.parametrize(("target_at", "shown"), [("W7", "= 100%; a d100 of 01-05 always hits and 96-00 always misses, so 95%"),
                                                   ("T8", "= 90%")])
def test_a_chance_past_95_says_why_it_is_shown_as_95(target_at, shown):
    """A throw whose modifiers add up past 95% is one in which 96-00 still misses: the sum and the
    95% on the line above it are told apart, not left to contradict each other."""
    s = setup_done(2, starts=(["W9"], ["S1"]))
    s["combatants"][1]["hex"] = target_at
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "rattlesnake", "target": 1}, None, None]})
    math = text_of(re.search(r'<div class="sf-math">(.*?)</div>', render(s, 0), re.S).group(1))
    assert math.endswith(shown), math


def test_the_mf_shown_at_the_limit_of_a_segment():
    s = setup_done(2, starts=(["W9"], ["S1"]))
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": ["U9", "S9", "Q9", "O9"]}, None, None]})
    assert "4 steps: 4 MF" in text_of(render(s, 0)) and "4 of 4 MF used, 0 MF left" in text_of(render(s, 0))
    s2, _ = R.apply(s, 0, {"type": "orders", "segments": [
        {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end", "route": ["U9", "S9"]}, None, None]})
    words = text_of(render(s2, 0))
    assert "2 steps: 2 MF" in words and "collecting: 2 MF" in words and "4 of 4 MF used, 0 MF left" in words


def test_the_ready_button_sends_a_legal_action_once_orders_are_written():
    s = setup_done(2)
    nothing_written = [json.loads(json.loads(html.unescape(v))["action"]) for v in WS_BUTTON.findall(render(s, 0))]
    assert nothing_written == [{"type": "orders", "segments": [{"type": "stand"}] * 3, "ready": True}]  # no Ready yet
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "stand"}, None, None]})
    sent = [json.loads(json.loads(html.unescape(v))["action"]) for v in WS_BUTTON.findall(render(s, 0))]
    assert sent == [{"type": "ready"}]
    assert {"type": "ready"} in R.legal_actions(s, 0)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 3), turns=st.integers(0, 2), ready=st.booleans())
def test_writing_orders_changes_no_one_elses_page(seed, players, turns, ready):
    rng = random.Random(seed)
    s = setup_done(players, seed=seed)
    for _ in range(turns):
        assume(R.outcome(s) is None)
        s = play_turn(s, rng)
    assume(R.outcome(s) is None and 0 in R.to_act(s))
    before = {seat: render(s, seat) for seat in [None, *range(1, players)]}
    action = bot.random_orders(s, 0, rng)
    action["ready"] = False
    after, _ = R.apply(s, 0, action)
    for seat, page in before.items():
        assert render(after, seat) == page, f"seat {seat}'s page changed when seat 0 wrote its orders"
    if ready:  # sealing shows only that seat 0 is ready, never what it wrote
        sealed, _ = R.apply(after, 0, {"type": "ready"})
        combatants = R.view(s, None)["combatants"]
        for seat in before:
            page = render(sealed, seat)
            assert "sf-myroute" not in page and "data-sf-sealed" not in page
            for order in action["segments"]:
                if order and "route" in order:
                    assert describe_order(order, combatants, NAMES) not in text_of(page)
        assert "data-sf-sealed" in render(sealed, 0)


def test_the_report_lists_every_roll_with_its_target_number_and_modifiers():
    rng = random.Random(11)
    s = setup_done(3, seed=11)
    for _ in range(3):
        s = play_turn(s, rng)
    view = R.view(s, 1)
    rolls = [e for seg in view["report"]["segments"] for e in seg["events"] if e["type"] == "roll"]
    assert rolls, "this seed's turn throws snowballs"
    for seat in (1, None):
        page = render(s, seat)
        words = text_of(page)
        assert f"Report on turn {view['report']['turn']}" in words
        assert [f"Segment {k}" in words for k in (1, 2, 3)] == [True] * 3
        assert page.count('class="sf-roll ') == len(rolls)
        for e in rolls:
            roll = "00" if e["roll"] == 100 else f"{e['roll']:02d}"
            assert f"d100: {roll} against {e['needed']}" in words
            mods = "".join(f", {m['label']} {'+' if m['value'] > 0 else ''}{m['value']}" for m in e["modifiers"])
            assert f"base {e['base']}%{mods} = {e['adjusted']}%" in words
        for seg in view["report"]["segments"]:
            layer = re.search(rf'<g class="sf-seg" data-seg="{seg["segment"]}">(.*?)</g>\s*(?=<g class="sf-seg"|</g>)', page, re.S).group(1)
            assert layer.count("<polyline") == len(seg["moves"])
            aimed = [t for t in seg["throws"] if t["action"] != "maniac"]
            assert layer.count('class="sf-thrown') == len(aimed)


def test_game_over_shows_vps_and_damage_dealt_and_taken():
    s = setup_done(2, seed=5, starts=(["W5"], ["W9"]))
    for _ in range(80):
        if R.outcome(s) is not None:
            break
        for x in sorted(R.to_act(s)):
            s, _ = R.apply(s, x, R.bot_action(s, x))
    outcome = R.outcome(s)
    assert outcome is not None
    for seat in (0, None):
        page = render(s, seat)
        rows = re.findall(r'data-final-seat="(\d)">(.*?)</tr>', page, re.S)
        assert len(rows) == 2
        for x, row in rows:
            x = int(x)
            cells = re.findall(r"<td>(\d+)</td>", row)
            assert cells == [str(outcome["scores"][x]), str(outcome["damage_dealt"][x]), str(outcome["damage_taken"][x])]
        winner = NAMES[outcome["winners"][0]]  # the seat's name, its nom de guerre after it
        assert winner in text_of(page).split("Damage taken")[0]


def test_the_live_region_renders_through_the_site_for_a_registered_game():
    s = setup_done(2)
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "stand"}, None, None]})
    game = SimpleNamespace(pk=41, game_type=R.slug, version=9)
    for seat in (0, None):
        payload = {"status": "active", "version": 9, "seat": seat, "players": [{"seat": 0, "name": "Ana", "is_bot": False},
                   {"seat": 1, "name": "Ben", "is_bot": False}], "view": R.view(s, seat), "legal_actions":
                   R.legal_actions(s, seat) if seat is not None else [], "prompt": None, "waiting_for": [0, 1],
                   "outcome": None, "log": []}
        page = rendering.live_html(game, payload, None)
        assert 'id="sf-board"' in page and 'hx-swap-oob="true"' in page
        assert ("Stand still" in text_of(page.split('id="sf-board"')[1].split("data-sf-tools")[0])) == (seat == 0)


def test_a_conditional_third_segment_shows_its_cases_and_their_chances_to_its_owner():
    s = setup_done(2, starts=(["W9"], ["S1"]), options={"rule13": True})
    third = {"type": "conditional", "cases": [{"when": {"if": "hp_at_most", "value": 6}, "then": {"type": "rattlesnake", "target": 1}}],
             "otherwise": {"type": "move", "route": ["U9"]}}
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [None, None, third]})
    page = render(s, 0)
    words = text_of(page)
    assert "Conditional: case 1: Rogerson Rattlesnake at Blizzard Ben; otherwise: Move U9" in words
    assert '<option value="hp_at_most" selected>' in page and 'data-sf-when-value value="6"' in page
    assert "Conditional order (optional rule 13) -10" in words
    for seat in (1, None):
        other = render(s, seat)
        assert "hp_at_most\" selected" not in other and "Conditional: case 1" not in text_of(other)
    plain = setup_done(2, starts=(["W9"], ["S1"]))
    assert "data-sf-make-cond" not in render(plain, 0) and "data-sf-make-cond" in render(setup_done(2, options={"rule13": True}), 0)


def test_a_seat_that_sent_no_orders_is_marked_in_the_list_of_combatants():
    s = setup_done(2)
    s, _ = R.apply(s, 0, {"type": "deadline"})
    s, _ = R.apply(s, 1, {"type": "orders", "segments": [{"type": "stand"}] * 3, "ready": True})
    assert R.view(s, None)["combatants"][0]["nmr_streak"] == 1
    page = render(s, None)
    rows = dict(re.findall(r'data-roster-seat="(\d)">(.*?)</tr>', page, re.S))
    assert "no orders last turn" in rows["0"] and "no orders last turn" not in rows["1"]


def test_every_order_button_says_what_it_costs_before_it_is_chosen():
    """A player who never read the rules sees the MF of each order and each throw's chance, range and ammunition."""
    page = render(setup_done(2), 0)
    buttons = dict(re.findall(r'<button[^>]*data-sf-tool="(\w+)"[^>]*>(.*?)</button>', page, re.S))
    costs = {key: text_of(label) for key, label in buttons.items()}
    assert costs["stand"] == "Stand still0 MF" and costs["move"] == "Moveup to 4 MF"
    assert costs["collect"] == "Collect2 MF a snowball" and costs["collect_move"] == "Collect and move2 MF + 2 MF moving"
    assert costs["rattlesnake"] == "Rattlesnake80%, range 6, uses 1 snowball"
    assert costs["bolero"] == "Bolero50% each, range 4, uses 2 snowballs"
    assert costs["avalanche"] == "Shed Avalanche80%, then 80% your side, range 2 to the shed, uses 1 Dirigible"
    # the Mendham Maniac scoops up snow as it goes: the engine takes no snowball for it (book: "Ammo: None")
    assert costs["maniac"] == "Maniac25% each, everyone within 2, no snowball needed"
    title = re.search(r'<button[^>]*data-sf-tool="maniac"[^>]*title="([^"]*)"', page).group(1)
    assert title == "everyone within 2; 25% each; 1 HP, no VPs; no snowball needed"
    assert "a throw costs no MF, only the snowballs it uses" in text_of(page)


def _last_turn_line(page: str) -> str:
    return text_of(re.sub(r"</?a\b[^>]*>", "", re.search(r"<p [^>]*data-sf-lastturn>(.*?)</p>", page, re.S).group(1)))


def test_after_a_turn_each_seat_reads_what_it_did_to_them_and_where_the_report_is():
    rng = random.Random(11)
    s = play_turn(setup_done(3, seed=11), rng)
    view = R.view(s, None)
    events = [e for seg in view["report"]["segments"] for e in seg["events"]]
    for seat in range(3):
        me = view["combatants"][seat]
        lost = sum(e["hp"] for e in events if e["type"] == "damage" and e["seat"] == seat)
        dealt = sum(e["hp"] for e in events if e["type"] == "damage" and e.get("thrower") == seat and e["seat"] != seat)
        line = _last_turn_line(render(s, seat))
        assert line.startswith(f"Turn {view['report']['turn']} resolved.")
        assert (f"ou lost {lost} HP ({me['hp']} left)" if lost else "obody hurt you") in line
        assert (f"you hit for {dealt} HP" if dealt else "you hit nobody") in line
        assert "write your orders for turn 2 below" in line
    assert any(e["type"] == "damage" for e in events), "this seed's turn hurts someone"
    spectator = render(s, None)
    assert _last_turn_line(spectator) == "Turn 1 resolved. Read what happened, segment by segment."
    assert 'href="#sf-report"' in spectator and 'id="sf-report"' in spectator


def _routes_on(page: str) -> list:
    found = re.search(r'<script id="sf-routes" type="application/json">(.*?)</script>', page)
    return json.loads(found.group(1)) if found else None


def test_each_segment_offers_the_cheapest_moves_from_where_the_earlier_orders_leave_you():
    s = setup_done(2, starts=(["W9"], ["S1"]))
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [{"type": "move", "route": ["U9", "S9"]}, None, None]})
    first, second, third = _routes_on(render(s, 0))
    assert "W9" not in first and first["S9"] == {"route": ["U9", "S9"], "mf": 2.0}
    assert second["W9"] == {"route": ["U9", "W9"], "mf": 2.0} and "S9" not in second
    assert third == second and "K7" not in second  # never into the shed
    assert max(r["mf"] for r in first.values()) == 4.0
    assert _routes_on(render(s, 1)) != first and _routes_on(render(s, None)) is None


def test_each_seat_sees_only_its_own_token_marked_whoever_drew_the_map_first():
    state = setup_done(players=3)
    tokens = re.compile(r'<g class="sf-token([^"]*)" data-token-seat="(\d)"')
    for order in ((None, 0, 1, 2), (2, 1, 0, None)):  # the tokens drawn for the others first
        for seat in order:
            marked = [int(s) for classes, s in tokens.findall(render(state, seat)) if "is-me" in classes.split()]
            assert marked == ([] if seat is None else [seat]), f"seat {seat}"


def test_the_baker_bounce_choice_says_what_each_bounce_does_by_the_book():
    """On the spot: throws at the bouncer are at -25% (book 5.5); to a hex next to it: a free move once the
    throws have landed, with no line of its own in the hit-chance table."""
    page = render(setup_done(2), 0)
    bounce = re.search(r'<div class="sf-opts" data-sf-opts="bounce" hidden>(.*?)</div>', page, re.S).group(1)
    bounce = text_of(re.sub(r"</?button\b[^>]*>", "", bounce))
    assert bounce == ("Bounce on the spot: throws at you this segment are at -25%; or click a free hex next to you "
                      "to bounce there once all the throws have landed (a free move, which changes no one's chances)")
    assert "+10%" not in bounce


def _played_out(options: dict, seed: int) -> dict:
    """The outcome of a two-seat game played by the computer player to its end."""
    state = R.new_game(players=2, options=options, seed=seed)
    while R.outcome(state) is None:
        seat = min(R.to_act(state))
        state, _ = R.apply(state, seat, R.bot_action(state, seat))
    return R.outcome(state)


def test_a_fogbound_game_ended_after_ten_turns_is_not_said_to_end_by_a_house_ruling(make_user):
    """Fogbound 6: "The game will end either when someone reaches 12 VP or after 10 turns": the book's own
    end, so the result neither calls it the house ruling "Turn limit" (60 turns) nor links to it."""
    from games import rendering, rules, selectors
    from tests.platform.helpers import play_to_end, started_game

    ana = make_user("Ana")
    game = play_to_end(started_game(ana, game_type=R.slug, options={"map": "fogbound"}, bots=1).pk, {0: ana})
    assert game.status == game.Status.FINISHED
    game.outcome = _played_out({"map": "fogbound"}, seed=2)
    assert game.outcome["code"] == "fogbound_turns"
    game.save(update_fields=["outcome"])
    html = rendering.live_html(game, selectors.viewer_payload(game, 0), ana)
    result = text_of(html[html.index('aria-label="Result"'):html.index("</section>", html.index('aria-label="Result"'))])
    assert "10 turns have been played, the end of a Fogbound game by the rule book" in result
    assert "house ruling" not in result and "#turn-limit" not in html
    # the snowy garden's 60 turns are the house ruling, and its result links to it
    ruling = rules.result_context(R, {"code": "turn_limit"})["outcome_ruling"]
    assert ruling["url"] == "/rules/snowball-fighting/#turn-limit"
    assert rules.result_context(R, game.outcome)["outcome_ruling"] is None


SIX = ["Avalanche Annie", "Blizzard Ben", "Cold Cy", "Jack Frost", "Ice Maiden", "Slush Puppy"]
CLUSTERS = {  # each garden: six combatants a hex or two apart, around the first
    "garden": (["A7", "C1", "I13", "S1", "W5", "W9"], ["K9", "I9", "J10", "L10", "M11", "J8"]),
    "fogbound": (["AB2", "AC1", "AD2", "AB12", "AC11", "AD12"], ["T4", "R4", "S5", "U5", "V6", "S3"]),
}


def _drawn_boxes(page: str):
    """What the map draws of each combatant, as boxes: its body and badge, and its name's label."""
    num = float
    tokens = {}
    for seat, x, y, inner in re.findall(r'<g class="sf-token[^"]*" data-token-seat="(\d)" data-hex="[^"]+" '
                                        r'transform="translate\(([\d.]+) ([\d.]+)\)">(.*?)</g>\s*</g>', page, re.S):
        x, y = num(x), num(y)
        stat_y, rx, rw = re.search(r'<g class="sf-stat" transform="translate\(0 ([-\d.]+)\)"><rect x="([-\d.]+)" y="-4.5" '
                                   r'width="([\d.]+)"', inner).groups()
        tokens[int(seat)] = [(x - 9.5, y - 9.5, x + 9.5, y + 9.5),
                             (x + num(rx), y + num(stat_y) - 4.5, x + num(rx) + num(rw), y + num(stat_y) + 4.5)]
    labels = {}
    for seat, x, y, rx, rw, text in re.findall(r'<g class="sf-tag[^"]*" data-tag-seat="(\d)" transform="translate\(([\d.]+) '
                                               r'([\d.]+)\)"><rect x="([-\d.]+)" y="-4.5" width="([\d.]+)"[^>]*/>'
                                               r'<text class="sf-tagtext"[^>]*>([^<]*)</text>', page):
        x, y = num(x), num(y)
        labels[int(seat)] = ((x + num(rx), y - 4.5, x + num(rx) + num(rw), y + 4.5), html.unescape(text))
    return tokens, labels


def _overlap(a, b) -> float:
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@pytest.mark.parametrize("garden", sorted(CLUSTERS))
def test_names_of_combatants_a_hex_or_two_apart_cover_no_one_elses_token_badge_or_name(garden):
    starts, spots = CLUSTERS[garden]
    options = {"map": garden} if garden != "garden" else {}
    s = R.new_game(players=6, options=options, seed=5)
    for x in range(6):
        s, _ = R.apply(s, x, {"type": "setup", "name": SIX[x], "starts": [starts[x]], "ready": True})
    s = copy.deepcopy(s)
    for x, ref in enumerate(spots):
        s["combatants"][x].update(hex=ref, ss=(2, 0, 1, 2, 4, 0)[x], dd=(0, 1, 0, 0, 0, 0)[x])
    if garden == "fogbound":
        s["turn"], s["fog"]["vision"], s["fog"]["gnomes"] = 3, 4, []
    for seat in (0, 3):
        tokens, labels = _drawn_boxes(render(s, seat))
        assert sorted(tokens) == sorted(labels) == list(range(6))
        assert {text for _, text in labels.values()} == set(SIX)  # each name whole, room enough around them
        for seat_a, (box, text) in labels.items():
            for seat_b, drawn in tokens.items():
                if seat_b != seat_a:
                    assert not any(_overlap(box, part) for part in drawn), (text, SIX[seat_b])
            for seat_b, (other, _) in labels.items():
                if seat_b != seat_a:
                    assert not _overlap(box, other), (text, SIX[seat_b])


def _kitchen_box(page: str):
    x, y, w, h = (float(v) for v in re.search(r'<g class="sf-kitchen[^"]*"[^>]*>.*?<rect x="([-\d.]+)" y="([\d.]+)" '
                                               r'width="([\d.]+)" height="([\d.]+)"', page, re.S).groups())
    return x, y, x + w, y + h


LONG = ["Wilhelmina Mmmmm", "Maximilian Wwwww", "Bartholomew Moss", "Gwendolyn Marsh", "Montgomery Wolfe",
        "Wolfgang Mmmmmmm"]


@pytest.mark.parametrize("garden, names, drying", [
    ("garden", SIX, range(6)), ("garden", SIX, (0, 2, 3, 5)), ("garden", LONG, range(6)),
    ("fogbound", SIX, range(6)), ("fogbound", LONG, range(6))])
def test_names_of_combatants_drying_in_the_kitchen_cover_no_one_else_and_stay_inside_it(garden, names, drying):
    starts, spots = CLUSTERS[garden]
    options = {"map": garden, "spectators_see_all": True} if garden != "garden" else {}
    s = R.new_game(players=6, options=options, seed=5)
    for x in range(6):
        s, _ = R.apply(s, x, {"type": "setup", "name": names[x], "starts": [starts[x]], "ready": True})
    s = copy.deepcopy(s)
    for x, ref in enumerate(spots):
        s["combatants"][x].update(hex=ref, vp=(12, 3, 0, 7, 14, 1)[x])
    for x in drying:
        s["combatants"][x].update(hex="KITCHEN", status="drying", hp=0, ss=0, dd=0, dry_until=s["clock"] + 9)
    for seat in (0, None):
        page = render(s, seat)
        tokens, labels = _drawn_boxes(page)
        kitchen = _kitchen_box(page)
        words = re.search(r'<text x="([\d.]+)" y="([\d.]+)" dy="8" class="sf-tiny sf-kitchen-label">([^<]*)</text>', page)
        kx, ky = float(words.group(1)), float(words.group(2))
        half = len(words.group(3)) * 5.4 * 0.36  # the kitchen's own words, a little narrow for bold capitals
        kitchen_words = (kx - half, ky + 3, kx + half, ky + 9)
        cooks = [x for x in drying if x in labels]
        assert len(cooks) == (len(drying) if seat is None or garden == "garden" else 1)  # in the fog, only oneself
        for x in cooks:
            box, text = labels[x]
            assert names[x].startswith(text.rstrip("…")), text
            assert kitchen[0] <= box[0] and box[2] <= kitchen[2] and kitchen[1] <= box[1] and box[3] <= kitchen[3], (text, box, kitchen)
            assert not _overlap(box, kitchen_words), text
            for part in tokens[x]:
                assert kitchen[0] <= part[0] and part[2] <= kitchen[2], (names[x], part, kitchen)
                assert not _overlap(part, kitchen_words), names[x]
            for y in labels:
                if y != x:
                    assert not _overlap(box, labels[y][0]), (text, labels[y][1])
                    assert not any(_overlap(box, part) for part in tokens[y]), (text, names[y])
                    assert not any(_overlap(mine, theirs) for mine in tokens[x] for theirs in tokens[y]), (names[x], names[y])
        if names is SIX:  # names of ordinary length are written out whole
            assert cooks
            assert {labels[x][1] for x in cooks} == {SIX[x] for x in cooks}


def test_a_player_with_nothing_written_can_stand_still_all_turn_without_an_nmr():
    """The Ready button needs something written; standing still all turn is one button, sealed,
    and counts as orders sent: no +10% to be hit, no step towards a second NMR in a row."""
    s = setup_done(2, starts=(["W9"], ["S1"]))
    page = render(s, 0)
    button = re.search(r'<button[^>]*id="sf-stand-all"[^>]*hx-vals="([^"]*)"[^>]*>([^<]*)<', page)
    assert button and button.group(2) == "Stand still all turn, sealed"
    action = json.loads(json.loads(html.unescape(button.group(1)))["action"])
    s, _ = R.apply(s, 0, action)
    assert s["ready"][0] is True
    s, _ = R.apply(s, 1, {"type": "orders", "segments": [{"type": "stand"}] * 3, "ready": True})
    assert s["turn"] == 2 and s["combatants"][0]["nmr_streak"] == 0 and s["combatants"][0]["hex"] == "W9"
    assert 'id="sf-stand-all"' not in render(R.apply(s, 0, {"type": "orders", "segments": [
        {"type": "move", "route": ["V10"]}, None, None]})[0], 0)  # something written: Ready instead


def test_two_segments_throwing_down_one_line_show_both_chances_apart():
    s = setup_done(2, starts=(["W9"], ["S1"]))
    s["combatants"][1]["hex"] = "S9"
    throw = {"type": "rattlesnake", "target": 1}
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [throw, throw, None]})
    chips = re.findall(r'<text class="sf-pct" x="([^"]+)" y="([^"]+)"[^>]*>(\d): (\d+)%</text>', render(s, 0))
    assert [c[2] for c in chips] == ["1", "2"]
    (x1, y1, *_), (x2, y2, *_) = chips
    assert ((float(x1) - float(x2)) ** 2 + (float(y1) - float(y2)) ** 2) ** 0.5 >= 11  # a chip's height


def _result_parts(page: str) -> tuple[str, str, dict[int, str]]:
    """The game page's result line, the final standings' heading and each standings row's name cell."""
    start = page.index(">", page.index('class="result-line"')) + 1
    result = text_of(page[start:page.index("</p>", start)])
    standings = page[page.index("data-sf-result"):]
    heading = text_of(re.search(r"<h3>(.*?)</h3>", standings, re.S).group(1))
    rows = {int(x): text_of(cell) for x, cell in re.findall(r'data-final-seat="(\d)">\s*<td>(.*?)</td>', standings, re.S)}
    return result, heading, rows


@pytest.mark.django_db
def test_the_result_names_each_computer_player_as_the_table_does_with_its_nom_de_guerre_beside_it(make_user):
    """A computer player is "Computer 3" at the table: the result line said "Computer 3 wins! Winter Wolf
    reached 15 VPs" and the final standings under it "Winter Wolf wins", as if they were two. Now the
    reason and the standings name the seats as the result line does, each nom de guerre after its
    player's name in the standings ("Computer 3 as Winter Wolf")."""
    from games import rendering, selectors
    from tests.platform.helpers import play_to_end, started_game

    ana = make_user("Ana")
    game = play_to_end(started_game(ana, game_type=R.slug, bots=2).pk, {0: ana})
    assert game.status == game.Status.FINISHED
    state = selectors.game_state(game)
    noms = [c["name"] for c in state["combatants"]]
    assert noms[1:] == list(bot.BOT_NAMES[1:3])  # Jack Frost and Winter Wolf
    names = selectors.seat_names(game)
    assert names == ["Ana", "Computer 2", "Computer 3"]
    winners = game.outcome["winners"]
    for viewer in (0, None):
        result, heading, rows = _result_parts(rendering.live_html(game, selectors.viewer_payload(game, viewer), ana))
        said = " and ".join(names[w] for w in winners)
        assert result.startswith(f"Shared victory: {said}!" if len(winners) > 1 else f"{said} wins!"), result
        if game.outcome["code"] == "victory":  # "Computer 3 reached 15 VPs", not "Winter Wolf reached 15 VPs"
            assert f"! {said} reached " in result, result
        assert not any(noms[w] in result for w in winners), result
        assert heading == (f"Shared victory: {said}" if len(winners) > 1 else f"{said} wins"), heading
        assert rows == {x: f"{names[x]} as {noms[x]}" for x in range(3)}, rows


@pytest.mark.django_db
def test_a_game_resigned_before_anyone_chose_a_nom_de_guerre_names_its_players_in_the_standings(make_user):
    """Resigned during the setup, no nom de guerre was chosen: the standings said "None wins"."""
    from games import rendering, selectors, services
    from tests.platform.helpers import started_game

    ana = make_user("Ana")
    game = started_game(ana, game_type=R.slug, bots=1)
    services.resign(game_id=game.pk, user=ana)
    game = selectors.get_game(game.pk)
    result, heading, rows = _result_parts(rendering.live_html(game, selectors.viewer_payload(game, 0), ana))
    assert result.startswith("Computer 2 wins!") and heading == "Computer 2 wins", (result, heading)
    assert rows == {0: "Ana", 1: "Computer 2"}
    assert "None" not in heading + " ".join(rows.values())


def test_each_viewer_gets_its_own_labels_placed_first_however_often_the_map_is_drawn():
    """Labels are remembered by what they are placed from, yet a viewer's own label still takes the
    best spot from the token beside it on its own page, and the other's on the other's."""
    from games.templatetags.snowball_fighting import PLACED_LABELS, place_labels, placed_labels

    def combatant(seat, viewer):
        return {"seat": seat, "x": str(100 + 10 * seat), "y": "100", "me": seat == viewer,
                "name": f"Player Number {seat}", "stat_w": 30.0, "ball_xs": [], "dd": 0, "status": "ready",
                "colour": "#000"}

    PLACED_LABELS.clear()
    for viewer in (0, 1, None, 0, 1):
        drawn = [combatant(seat, viewer) for seat in (0, 1)]
        tags = placed_labels(drawn, 400.0, 400.0, [], frozenset())
        assert tags == place_labels(drawn, 400.0, 400.0)
        if viewer is not None:
            own = next(t for t in tags if t["seat"] == viewer)
            assert own["y"] == "115", "the viewer's own label goes below its token, the first choice"
