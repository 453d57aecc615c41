"""The What a Snowball! board's script in Chromium, on a board rendered from a real state.

No server: the page is the rendered board with its CSS and script, and window.Snowball.send
records what a click would send. The engine then judges each recorded action.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from shapely.geometry import Point, Polygon

from games.engines.what_a_snowball import RULESET as R
from tests.platform.was_states import new, play_until

pytestmark = [pytest.mark.browser]
ROOT = Path(__file__).resolve().parents[2]


def page_for(browser, state, seat, **context):
    """The board of ``state`` for ``seat``, alone in a page (in a context of its own with ``context``)."""
    to_act = R.to_act(state)
    board = render_to_string("games/what-a-snowball/board.html", {
        "view": R.view(state, seat), "seat": seat, "legal": R.legal_actions(state, seat) if seat in to_act else [],
        "prompt": to_act[seat].as_dict() if seat in to_act else None, "names": ["Ana", "Ben"], "version": 4,
        "payload": {"outcome": None}})
    board = board.replace("<script>window.WhatASnowball", "<script>void window.WhatASnowball")
    css = (ROOT / "static/css/site.css").read_text() + (ROOT / "static/css/what-a-snowball.css").read_text()
    script = (ROOT / "static/js/what-a-snowball.js").read_text()
    page = browser.new_context(**context).new_page() if context else browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_content(f"<html><head><style>{css}</style></head><body><main><div id='live' data-version='4'>{board}"
                     f"</div></main><script>window.sent=[];window.Snowball={{send:a=>{{sent.push(a);return true;}}}};"
                     f"</script><script>{script}</script></body></html>")
    return page


def click_village(page, x, y):
    point = page.evaluate("([x, y]) => WhatASnowball.toScreen(x, y)", [x, y])
    page.mouse.click(point["x"], point["y"])


@pytest.fixture(scope="module")
def shove_state():
    """A MOVE bought with a die, with an enemy Kid standing 2 inches from the mover in the open
    (east, west, north or south, the first side where base contact is reachable ground)."""
    def ready(s):
        pending = s["pending"] or {}
        if pending.get("kind") != "move_to" or pending.get("source") != "move" or pending["roll"] < 3:
            return False
        x, y = s["kids"][pending["kid"]]["pos"]
        return 3 < x < 20 and 3 < y < 21
    base = play_until(new(seed=21), ready)
    for dx, dy in ((2.0, 0.0), (-2.0, 0.0), (0.0, 2.0), (0.0, -2.0)):
        s = json.loads(json.dumps(base))
        mover = s["kids"][s["pending"]["kid"]]
        enemy = next(k for k in s["kids"].values() if k["team"] != mover["team"] and k["home"] is None)
        enemy.update(pos=[mover["pos"][0] + dx, mover["pos"][1] + dy], down=False)
        legal = next(a for a in R.legal_actions(s, s["pending"]["seat"]) if a["type"] == "move_to")
        region = [Polygon(p["outer"], p["holes"]) for p in legal["region"]]
        contact = Point(enemy["pos"][0] - dx / 2 * 1.0015, enemy["pos"][1] - dy / 2 * 1.0015)
        if enemy["id"] in legal["shove"] and any(r.contains(contact) for r in region):
            return s, enemy["id"], (-dx / 2, -dy / 2)
    pytest.skip("no side of the mover leaves room for a shove in this game")


def test_a_click_beside_a_shoveable_enemy_asks_then_sends_a_shove_the_engine_accepts(browser, shove_state):
    state, enemy, (ux, uy) = shove_state
    seat = state["pending"]["seat"]
    page = page_for(browser, state, seat)
    ex, ey = state["kids"][enemy]["pos"]
    click_village(page, ex + ux * 1.1, ey + uy * 1.1)  # a tenth of an inch short of base contact
    confirm = page.locator("[data-was-confirm]")
    assert confirm.is_visible() and "Shove" in confirm.inner_text()
    assert page.evaluate("sent") == []
    page.click("[data-was-shove]")
    sent = page.evaluate("sent")
    assert len(sent) == 1 and sent[0]["shove"] == enemy
    after, events = R.apply(state, seat, sent[0])
    assert after["kids"][enemy]["down"] is True
    assert any("parents" in e["text"].lower() or "knock" in e["text"].lower() for e in events)
    page.close()


def test_a_click_outside_the_drawn_area_explains_and_sends_nothing(browser, shove_state):
    state, _, _ = shove_state
    seat = state["pending"]["seat"]
    page = page_for(browser, state, seat)
    x, y = state["kids"][state["pending"]["kid"]]["pos"]
    far = [min(23.5, x + state["pending"]["roll"] + 3), y] if x < 12 else [max(0.5, x - state["pending"]["roll"] - 3), y]
    click_village(page, *far)
    assert page.evaluate("sent") == []
    assert "Out of reach" in page.locator("[data-was-feedback]").inner_text()
    near = [x + 0.4 if x < 12 else x - 0.4, y + 0.6]
    click_village(page, *near)
    sent = page.evaluate("sent")
    assert len(sent) == 1 and sent[0]["type"] == "move_to" and "shove" not in sent[0]
    R.apply(state, seat, sent[0])
    page.close()


def test_on_a_touch_screen_a_first_tap_shows_where_the_kid_would_go_and_a_second_tap_there_moves_it(browser, shove_state):
    """At a phone's 13 px an inch a tap that moved at once moved blind: the first tap puts the
    marker down (and fills in x and y), a tap elsewhere moves it, a tap on it sends the MOVE."""
    state, _, _ = shove_state
    seat = state["pending"]["seat"]
    page = page_for(browser, state, seat, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    x, y = state["kids"][state["pending"]["kid"]]["pos"]
    first, second = [x + 0.4 if x < 12 else x - 0.4, y + 0.6], [x - 0.6 if x < 12 else x + 0.6, y + 1.2]

    def tap(p):
        point = page.evaluate("([x, y]) => WhatASnowball.toScreen(x, y)", p)
        page.touchscreen.tap(point["x"], point["y"])

    tap(first)
    told = page.locator("[data-was-feedback]").first.inner_text()
    marked = page.locator("#was-over .was-ghost").count()
    tap(second)
    typed = [float(page.input_value("[data-was-x]")), float(page.input_value("[data-was-y]"))]
    before = page.evaluate("sent")
    nearly = page.evaluate("([x, y]) => WhatASnowball.toScreen(x, y)", second)
    page.touchscreen.tap(nearly["x"] + 12, nearly["y"] - 6)  # a fingertip off the marker
    sent = page.evaluate("sent")
    page.close()
    assert before == [] and marked == 1 and "Tap the marker again" in told, (before, marked, told)
    assert abs(typed[0] - second[0]) < 0.15 and abs(typed[1] - second[1]) < 0.15, typed
    assert len(sent) == 1 and sent[0]["type"] == "move_to", sent
    assert abs(sent[0]["to"][0] - second[0]) < 0.15 and abs(sent[0]["to"][1] - second[1]) < 0.15, sent
    R.apply(state, seat, sent[0])


def test_snowball_sizes_and_aims_can_be_read_on_a_phone(browser):
    """At 390 px wide the badges beside a Kid (snowball sizes, AIMs) stay big enough to read, and the
    legend's snowball and AIM keys look like the badges they explain."""
    state = play_until(new(seed=11), lambda s: s["phase"] == "play" and any(
        k["snowballs"] and k["aims"] and k["pos"] and k["home"] is None for k in s["kids"].values()))
    page = page_for(browser, state, 0)
    page.set_viewport_size({"width": 390, "height": 844})
    heights = page.evaluate("""() => ['.was-kid .was-ball-size', '.was-kid .was-aim text', '.was-kid .was-ball']
        .map(sel => document.querySelector(sel).getBoundingClientRect().height)""")
    assert min(heights) >= 9, heights
    ball_key = page.locator(".was-legend .was-ball")
    assert float(ball_key.evaluate("e => parseFloat(getComputedStyle(e).strokeWidth)")) >= 0.8
    assert page.locator(".was-legend .was-aim circle").bounding_box()["height"] >= 6
    page.close()


def test_a_kids_badges_by_the_east_edge_stay_inside_the_drawing_on_a_phone(browser):
    """A Kid against the east edge with snowballs and AIMs: on a phone its badges, drawn larger, go
    west of its base rather than out of the picture."""
    state = play_until(new(seed=11), lambda s: s["phase"] == "play" and any(
        k["snowballs"] and k["aims"] and k["pos"] and k["home"] is None for k in s["kids"].values()))
    state = json.loads(json.dumps(state))
    kid = next(k for k in state["kids"].values() if k["snowballs"] and k["aims"] and k["pos"] and k["home"] is None)
    kid.update(pos=[23.5, 12.0], snowballs=[1, 1, 3], aims=2)
    page = page_for(browser, state, 0)
    page.set_viewport_size({"width": 390, "height": 844})
    svg = page.locator("#was-village").bounding_box()
    badges = page.locator(f'.was-kid[data-kid="{kid["id"]}"] .was-kid-badges').bounding_box()
    assert badges["x"] >= svg["x"] and badges["x"] + badges["width"] <= svg["x"] + svg["width"], (badges, svg)
    page.close()


def test_on_a_phone_each_kids_team_shape_is_readable_and_clear_of_names_and_badges(browser):
    """A name's box is taken without its descent (the room below the baseline), which only a g or a y reaches."""
    state = play_until(new(seed=7, players=4), lambda s: s["phase"] == "play" and s["turn"] >= 2
                       and sum(bool(k["snowballs"]) for k in s["kids"].values()) >= 3)
    page = page_for(browser, state, 0)
    page.set_viewport_size({"width": 390, "height": 844})
    found = page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const glyphs = e => { const [l, t, r, b] = box(e); return [l, t, r, b - 0.2 * (b - t)]; };
        const others = [...document.querySelectorAll('.was-kid-name')].map(glyphs)
            .concat([...document.querySelectorAll('.was-kid-badges > *')].map(box));
        return [...document.querySelectorAll('.was-kid .was-team-mark')].map(m => ({mark: box(m), others}));
    }""")
    assert len(found) == 8
    for kid in found:
        left, top, right, bottom = kid["mark"]
        assert right - left >= 6 and bottom - top >= 6, kid["mark"]
        assert not any(left < o[2] - 0.5 and o[0] < right - 0.5 and top < o[3] - 0.5 and o[1] < bottom - 0.5
                       for o in kid["others"]), kid["mark"]
    page.close()


@pytest.fixture(scope="module")
def crowded_fire_state():
    """Carol throws along two nearly parallel lines (to Noel and Ivy, on the east edge), past the
    old rectory, a market stall, a bench and two Kids near the lines' middles."""
    state = play_until(new(seed=11), lambda s: s["phase"] == "play" and (s["activation"] or {}).get("stage") == "turn"
                       and s["activation"]["kid"] == "k4")
    state = json.loads(json.dumps(state))
    spots = {"k4": [2.0, 4.2], "k1": [22.0, 7.0], "k2": [22.0, 7.9], "k0": [20.0, 2.0], "k3": [16.5, 4.7], "k5": [12.5, 7.6]}
    for kid, pos in spots.items():
        state["kids"][kid].update(pos=pos, home=None, down=False)
    assert [line["to"] for line in R.view(state, 1)["lines_of_fire"] if line["visible"]] == ["k1", "k2"]
    return state


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_each_fire_label_names_its_target_and_covers_no_kid_terrain_label_or_other_fire_label(
        browser, crowded_fire_state, width, height):
    page = page_for(browser, crowded_fire_state, 1)
    page.set_viewport_size({"width": width, "height": height})
    found = page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const labels = [...document.querySelectorAll('.was-lof-label')].map(label => ({
            text: label.textContent, box: box(label),
            target: document.querySelector(`.was-kid[data-kid="${label.closest('[data-to]').dataset.to}"]`).dataset.name}));
        const others = [...document.querySelectorAll(
            '.was-base, .was-team-mark, .was-kid-name, .was-kid-badges, .was-t-label')].map(box);
        return {labels, others};
    }""")
    assert len(found["labels"]) == 2
    for index, label in enumerate(found["labels"]):
        assert label["text"].startswith(label["target"] + ": needs "), label
        rest = found["others"] + [other["box"] for other in found["labels"][index + 1:]]
        assert not any(overlaps(label["box"], other) for other in rest), label
    page.close()


def overlaps(a, b) -> bool:
    """Whether two screen boxes (left, top, right, bottom) overlap by more than half a pixel."""
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_names_of_kids_standing_side_by_side_do_not_cover_each_other(browser, width, height):
    """Three Kids in base contact in a row, as a team stands at its corner: each name is placed
    clear of the others at the phone's larger lettering too (a name's box without its descent)."""
    state = play_until(new(seed=11), lambda s: s["phase"] == "play")
    state = json.loads(json.dumps(state))
    spots = {"k3": [20.6, 21.4], "k4": [21.6, 21.4], "k5": [22.6, 21.4]}
    for kid, pos in spots.items():
        state["kids"][kid].update(pos=pos, home=None, down=False, snowballs=[], aims=0)
    page = page_for(browser, state, 0)
    page.set_viewport_size({"width": width, "height": height})
    names = page.evaluate("""ids => ids.map(id => {
        const r = document.querySelector(`.was-kid[data-kid="${id}"] .was-kid-name`).getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom - 0.2 * (r.bottom - r.top)];
    })""", list(spots))
    for index, name in enumerate(names):
        assert not any(overlaps(name, other) for other in names[index + 1:]), names
    page.close()


BOXES = """() => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const all = sel => [...document.querySelectorAll(sel)];
    return {
        names: all('.was-kid-name').map(e => ({kid: e.closest('.was-kid').dataset.name, box: box(e)})),
        tokens: all('.was-kid').flatMap(k => [...k.querySelectorAll(
            '.was-base, .was-active-ring, .was-team-mark, .was-dice-num, .was-down-mark, .was-kid-badges')]
            .map(e => ({kid: k.dataset.name, part: e.getAttribute('class'), box: box(e)}))),
        others: all('.was-corner-name, .was-lof-label, .was-t-label').map(box),
        compass: box(document.querySelector('.was-compass')),
        village: box(document.querySelector('.was-snow')),
        drawing: box(document.querySelector('#was-village')),
    };
}"""


@pytest.fixture(scope="module")
def crowded_names_state():
    """Four teams in turn 2 with Robin activating, and a crowd: three Kids in base contact in a row, one
    knocked down (its name longer) beside them, Noel with snowballs and AIMs in the north-east corner
    under where a map's compass sits, Holly against the east edge."""
    state = play_until(new(seed=7, players=4), lambda s: s["phase"] == "play" and s["turn"] >= 2
                       and (s["activation"] or {}).get("stage") == "turn")
    state = json.loads(json.dumps(state))
    spots = {"k3": [3.0, 20.0], "k4": [4.0, 20.0], "k5": [5.0, 20.0], "k7": [4.0, 21.1],
             "k1": [23.5, 23.5], "k0": [23.5, 12.0]}
    for kid, pos in spots.items():
        state["kids"][kid].update(pos=pos, home=None)
    state["kids"]["k7"]["down"] = True
    state["kids"]["k1"].update(snowballs=[1, 3, 3], aims=2)
    return state


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_no_kids_name_covers_a_token_or_another_name_and_the_north_arrow_sits_in_a_free_corner(
        browser, shot, crowded_names_state, width, height):
    """Measured in the page: each name's whole box (with the room below its baseline) is clear of every
    Kid's base, active ring, team shape, dice count, down mark and badges and of the other names; the
    north arrow sits in a corner of the drawing outside the village, clear of everything drawn."""
    state = crowded_names_state
    page = page_for(browser, state, state["kids"][state["activation"]["kid"]]["seat"])
    page.set_viewport_size({"width": width, "height": height})
    shot(page, f"what-a-snowball-names-{width}")
    found = page.evaluate(BOXES)
    assert len(found["names"]) == 8
    for index, name in enumerate(found["names"]):
        covered = [t["kid"] + " " + t["part"] for t in found["tokens"] if overlaps(name["box"], t["box"])]
        covered += [other["kid"] for other in found["names"][index + 1:] if overlaps(name["box"], other["box"])]
        assert not covered, f"{name['kid']}'s name covers {covered}"
    compass, village, drawing = found["compass"], found["village"], found["drawing"]
    outside_x = compass[0] >= village[2] - 0.5 or compass[2] <= village[0] + 0.5
    outside_y = compass[3] <= village[1] + 0.5 or compass[1] >= village[3] - 0.5
    assert outside_x and outside_y, (compass, village)  # a corner of the margin, not beside an edge
    assert drawing[0] <= compass[0] and compass[2] <= drawing[2] and drawing[1] <= compass[1] and compass[3] <= drawing[3]
    assert compass[3] - compass[1] >= 8, compass
    clear = [n["box"] for n in found["names"]] + [t["box"] for t in found["tokens"]] + found["others"]
    assert not [b for b in clear if overlaps(compass, b)], compass
    page.close()
