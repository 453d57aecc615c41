"""Snowball Fighting in three browser contexts: two players and a spectator, setup and turns by clicking the map.

Both players are driven only through what the page offers: the nom de guerre field, the six
start hexes clicked on the map in order, the segment cards, the order buttons, hexes clicked
one by one along a route, opponents clicked on the map as targets, and the Ready button. The spectator
only watches; nobody may ever see another seat's orders before the turn resolves.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import press_create, FULL_GAME_FLOWS, SHOTS, SCREENSHOT_TIMEOUT_MS, as_guest, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]



def _wait_new_version(page, old: str, timeout: float = 5000) -> None:
    page.wait_for_function(f"document.getElementById('live').dataset.version !== '{old}'", timeout=timeout)


def _click_hex(page, ref: str) -> None:
    """Click a hex of the garden where a player would: its centre on the screen."""
    old = live_version(page)
    page.locator(f'#sf-map .sf-hex[data-hex="{ref}"] polygon').click(force=True)
    try:
        _wait_new_version(page, old)
    except PlaywrightError:
        raise AssertionError(f"clicking {ref} changed nothing; flash: {page.locator('#flash').inner_text()!r}, "
                             f"tool: {page.evaluate('JSON.stringify(SnowballFighting.state())')}") from None


def _my_hex(page) -> str:
    return page.locator("#sf-map .sf-token.is-me").get_attribute("data-hex")


def _write_turn(page, seat: int, turn: int) -> dict:
    """Segment 1: move two hexes by clicking; segment 2: collect; segment 3: a Rattlesnake at
    the other player, clicked on the map. Returns what the page showed while writing."""
    seen = {}
    expect(page.locator("[data-sf-orders]")).to_be_visible()
    here = _my_hex(page)
    # segment 1 is open for writing at once
    expect(page.locator('[data-sf-card="1"]')).to_have_class(re.compile("is-editing"))
    page.click('[data-sf-tool="move"]')
    # off the path, where snow can be collected next segment
    off_path = "h => h !== 'KITCHEN' && !document.querySelector(`#sf-map .sf-hex.is-path[data-hex=\"${h}\"]`)"
    first = page.evaluate(f"SnowballFighting.neighbours('{here}').filter({off_path})")[0]
    _click_hex(page, first)
    expect(page.locator('[data-sf-card="1"] [data-sf-order-text]')).to_contain_text(f"Move {first}")
    second = [h for h in page.evaluate(f"SnowballFighting.neighbours('{first}').filter({off_path})") if h != here][0]
    _click_hex(page, second)
    card = page.locator('[data-sf-card="1"]')
    expect(card.locator("[data-sf-order-text]")).to_contain_text(f"Move {first} → {second}")
    expect(card.locator("[data-sf-mf]")).to_contain_text("MF left")
    seen["mf"] = card.locator("[data-sf-mf]").inner_text()
    seen["move"] = f"Move {first} → {second}"
    seen["route_json"] = f'"route": ["{first}", "{second}"]'
    if turn == 1 and seat == 0:
        # a hex out of reach is refused beside the orders, with the reason, and nothing changes
        old = live_version(page)
        page.locator('#sf-map .sf-hex[data-hex="K13"] polygon').click(force=True)
        expect(page.locator("[data-sf-hint]")).to_contain_text("K13 is out of reach this segment")
        seen["refusal"] = page.locator("[data-sf-hint]").inner_text()
        assert live_version(page) == old
        expect(card.locator("[data-sf-order-text]")).to_contain_text(f"Move {first} → {second}")
    page.click('[data-sf-edit="2"]')
    page.click('[data-sf-tool="collect"]')
    old = live_version(page)
    page.click('[data-sf-collect*=\'"count":2\']')
    _wait_new_version(page, old)
    expect(page.locator('[data-sf-card="2"] [data-sf-order-text]')).to_contain_text("Collect 2 simple snowballs")
    page.click('[data-sf-edit="3"]')
    other = 1 - seat
    if seat == 1 and turn == 1:
        _storm_and_avalanche(page)
    if seat == 1 and turn == 2:
        return {**seen, **_baker_bounce(page, other)}
    page.click('[data-sf-tool="rattlesnake"]')
    expect(page.locator(f'#sf-map [data-token-seat="{other}"]')).to_have_class(re.compile("is-aimable"))
    old = live_version(page)
    page.locator(f'#sf-map [data-token-seat="{other}"] .sf-body').click(force=True)
    _wait_new_version(page, old)
    chance = page.locator('[data-sf-card="3"] [data-sf-chance]')
    expect(chance).to_contain_text("% to hit")
    expect(chance).to_contain_text("base 80%")
    seen["chance"] = chance.inner_text()
    if turn == 2 and seat == 0:
        _make_third_segment_conditional(page, seen)
    return seen


def _storm_and_avalanche(page) -> None:
    """A conifer clicked for the Storm; the shed roof clicked for an Avalanche, refused without a Dirigible."""
    card = page.locator('[data-sf-card="3"]')
    page.click('[data-sf-tool="storm"]')
    _click_hex(page, "E13")
    expect(card.locator("[data-sf-order-text]")).to_have_text("Conifer Storm on the conifer at E13")
    expect(card.locator("[data-sf-chance]")).to_contain_text("the conifer at E13")
    page.click('[data-sf-tool="avalanche"]')
    expect(page.locator("#sf-map .sf-roof-N")).to_have_class(re.compile("is-aimable"))
    old = live_version(page)
    page.locator("#sf-map .sf-roof-N").click(force=True)
    expect(page.locator("#flash")).to_contain_text("segment 3: a Shed Avalanche needs a Doubleday Dirigible")
    assert live_version(page) == old
    expect(card.locator("[data-sf-order-text]")).to_have_text("Conifer Storm on the conifer at E13")


def _baker_bounce(page, other: int) -> dict:
    """A Baker Bounce: the target clicked on the map, then the hex to bounce to."""
    card = page.locator('[data-sf-card="3"]')
    page.click('[data-sf-tool="baker"]')
    old = live_version(page)
    page.locator(f'#sf-map [data-token-seat="{other}"] .sf-body').click(force=True)
    _wait_new_version(page, old)
    expect(card.locator("[data-sf-order-text]")).to_contain_text("bouncing on the spot")
    expect(page.locator('[data-sf-opts="bounce"]')).to_be_visible()
    start = page.evaluate("SnowballFighting.startOf(3)")
    bounce = page.evaluate(f"SnowballFighting.neighbours('{start}').filter(h => h !== 'KITCHEN')")[0]
    _click_hex(page, bounce)
    expect(card.locator("[data-sf-order-text]")).to_contain_text(f"bouncing to {bounce}")
    chance = card.locator("[data-sf-chance]")
    expect(chance).to_contain_text("base 60%")
    return {"chance": chance.inner_text()}


def _make_third_segment_conditional(page, seen: dict) -> None:
    """Rule 13: the Rattlesnake only if Ana has at most 9 HP; otherwise a one-hex move, clicked on the map."""
    card = page.locator('[data-sf-card="3"]')
    old = live_version(page)
    page.click("[data-sf-make-cond]")
    _wait_new_version(page, old)
    expect(card.locator("[data-sf-order-text]")).to_contain_text("Conditional: case 1: Rogerson Rattlesnake at")
    old = live_version(page)
    card.locator('[data-sf-case="0"] [data-sf-when]').select_option("hp_at_most")
    _wait_new_version(page, old)
    old = live_version(page)
    card.locator('[data-sf-case="0"] [data-sf-when-value]').fill("9")
    card.locator('[data-sf-case="0"] [data-sf-when-value]').press("Tab")
    _wait_new_version(page, old)
    expect(card.locator('[data-sf-case="0"]')).to_contain_text("then: Rogerson Rattlesnake at")
    page.click('[data-sf-branch="otherwise"]')
    page.click('[data-sf-tool="move"]')
    start = page.evaluate("SnowballFighting.startOf(3)")
    step = page.evaluate(f"SnowballFighting.neighbours('{start}').filter(h => h !== 'KITCHEN')")[0]
    _click_hex(page, step)
    expect(card.locator("[data-sf-order-text]")).to_contain_text(f"otherwise: Move {step}")
    expect(card.locator("[data-sf-chance]").first).to_contain_text("Conditional order (optional rule 13) -10")
    seen["conditional"] = card.locator("[data-sf-order-text]").inner_text()


def test_two_players_and_a_spectator_play_snowball_fighting(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ben = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(ana, ben, eve, timeout_ms=6000)

    as_guest(ana, base + "/", "Ana")
    expect(ana.locator(".who")).to_contain_text("Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    ana.select_option("select[name=num_seats]", "2")
    ana.check("input[name=opt_rule13]")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    expect(ana.locator(".waiting-room")).to_contain_text("Ben")
    ben.click("#start-game")
    eve.goto(game_url)
    for page in (ana, ben, eve):
        expect(page.locator("#connection")).to_contain_text("Connected")
        expect(page.locator("#sf-board")).to_have_attribute("data-phase", "setup")
    expect(eve.locator(".spectating")).to_be_visible()
    expect(eve.locator("[data-sf-setup]")).to_have_count(0)
    assert ana.locator("#sf-map .sf-hex").count() == 150
    for ref in ("A1", "K7", "W13", "W11"):
        expect(ana.locator(f'#sf-map .sf-hex[data-hex="{ref}"] .sf-ref')).to_have_text(ref)

    # Ready with no name yet: Ben's page asks for one by the field and sends nothing
    old = live_version(ben)
    ben.click("[data-sf-setup-ready]")
    expect(ben.locator("#sf-name-error")).to_have_text("Write your nom de guerre first, e.g. Jack Frost.")
    ben.wait_for_timeout(300)
    assert live_version(ben) == old

    # Ben saving a draft of his setup changes only his own view: Ana's page gets nothing
    ana_before = live_version(ana)
    ben.fill("#sf-name", "Blizzard")
    ben.click("[data-sf-setup-save]")
    _wait_new_version(ben, old)
    expect(ben.locator("#sf-name-error")).to_be_hidden()
    ana.wait_for_timeout(300)
    assert live_version(ana) == ana_before

    # what Ana types survives her page being redrawn when Ben seals his setup
    ana.fill("#sf-name", "Avalanche")
    seats = {"Blizzard Ben": int(ben.locator("#sf-board").get_attribute("data-seat"))}
    ben.fill("#sf-name", "Blizzard Ben")
    for ref in ("W9", "C1", "S1"):
        ben.locator(f'#sf-map .sf-start[data-start="{ref}"]').click(force=True)
    expect(ben.locator("#sf-starts")).to_have_text("W9, C1, S1")
    old = live_version(ana)
    ben.click("[data-sf-setup-ready]")
    _wait_new_version(ana, old)
    expect(ana.locator("#sf-name")).to_have_value("Avalanche")
    assert "Blizzard" not in ana.content() and "Blizzard" not in eve.content()

    # setup: a name, and start hexes clicked on the map in order
    page, name, prefs = ana, "Avalanche Annie", ["W9", "A7"]
    seats[name] = int(page.locator("#sf-board").get_attribute("data-seat"))
    page.fill("#sf-name", name)
    for ref in prefs:
        page.locator(f'#sf-map .sf-start[data-start="{ref}"]').click(force=True)
    expect(page.locator("#sf-starts")).to_have_text(", ".join(prefs))
    expect(page.locator(f'#sf-map .sf-start[data-start="{prefs[0]}"] .sf-rank')).to_have_text("1")
    shot(ana, "sf-01-setup-player")
    shot(eve, "sf-01-setup-spectator")
    old = live_version(page)
    page.click("[data-sf-setup-ready]")
    _wait_new_version(page, old)
    for page in (ana, ben, eve):
        expect(page.locator("#sf-board")).to_have_attribute("data-phase", "orders")
        expect(page.locator(".sf-roster")).to_contain_text("Avalanche Annie")
        expect(page.locator(".sf-roster")).to_contain_text("Blizzard Ben")
    starts = {n: (ana if n == "Avalanche Annie" else ana).locator(f'#sf-map [data-token-seat="{s}"]').get_attribute("data-hex")
              for n, s in seats.items()}
    assert starts["Blizzard Ben"] in ("W9", "C1") and starts["Avalanche Annie"] in ("W9", "A7")
    assert starts["Blizzard Ben"] != starts["Avalanche Annie"]

    reports = 0
    for turn in (1, 2):
        for page in (ana, ben):
            expect(page.locator("#sf-board")).to_have_attribute("data-turn", str(turn))
        seen_a = _write_turn(ana, seats["Avalanche Annie"], turn)
        if turn == 1:
            assert "MF you have for moving" in seen_a["refusal"], seen_a
            shot(ana, "sf-02-orders-player")
            shot(eve, "sf-02-orders-spectator")
        # Ana's orders are written but not sealed: Ben and the spectator see none of them
        for page in (ben, eve):
            expect(page.locator('#sf-map .sf-myroute, #sf-map .sf-myaim')).to_have_count(0)
            html = page.content()
            assert seen_a["move"] not in html and seen_a["route_json"].replace('"', "&quot;") not in html
            assert seen_a["route_json"] not in html
            assert "Collect 2 simple snowballs" not in html
        if turn == 2:
            assert "hp_at_most" not in eve.content() and seen_a["conditional"] not in eve.content()
            shot(ana, "sf-05-conditional-player")
        old = live_version(ana)
        ana.click("#sf-ready")
        _wait_new_version(ana, old)
        expect(ana.locator("[data-sf-sealed]")).to_contain_text("Rogerson Rattlesnake at Blizzard Ben")
        expect(ana.locator("[data-sf-sealed]")).to_contain_text(seen_a["move"])
        expect(eve.locator(".sf-roster")).to_contain_text("ready")
        for page in (ben, eve):
            assert seen_a["move"] not in page.content() and "Collect 2 simple snowballs" not in page.content()
        seen_b = _write_turn(ben, seats["Blizzard Ben"], turn)
        if turn == 1:
            shot(ben, "sf-02-orders-phone")
            ben.locator("#sf-mapscroll").screenshot(path=str(SHOTS / "sf-02-orders-phone-map.png"),
                                                        timeout=SCREENSHOT_TIMEOUT_MS)
        for page in (ana, eve):
            assert seen_b["move"] not in page.content() and seen_a["move"] not in eve.content()
        old = live_version(ben)
        ben.click("#sf-ready")
        _wait_new_version(ben, old)
        for page in (ana, ben, eve):
            expect(page.locator("[data-sf-report]")).to_contain_text(f"Report on turn {turn}")
            expect(page.locator("[data-sf-report] .sf-roll").first).to_contain_text("d100")
            expect(page.locator("[data-sf-report]")).to_contain_text("Segment 3")
        reports += 1
        assert seen_b["chance"]
        # the segment picker shows one segment of the report on the map
        eve.click('[data-sf-seg="1"]')
        expect(eve.locator("#sf-board")).to_have_attribute("data-show-seg", "1")
        expect(eve.locator('.sf-segreport[data-seg="2"]')).to_be_hidden()
        if turn == 1:
            shot(eve, "sf-03-report-spectator-seg1")
        eve.click('[data-sf-seg="all"]')
        if page.locator("[data-sf-result]").count():
            break
    shot(ana, "sf-04-after-turn-player")
    shot(ben, "sf-04-after-turn-phone")
    shot(eve, "sf-04-after-turn-spectator")
    assert reports == 2
    roster = eve.locator(".sf-roster").inner_text()
    assert "Avalanche Annie" in roster and "Blizzard Ben" in roster
    assert not errors, errors
    for page in (ana, ben, eve):
        page.context.close()


def test_three_seats_a_bolero_at_two_clicked_targets_and_the_nearest_opponent(browser, live_server_proc, shot):
    """With two computer players: a Rattlesnake at the nearest opponent, a collect, then a Bowen Bolero
    aimed by clicking two tokens; the computer players seal theirs and the turn resolves."""
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ana.set_default_timeout(6000)
    errors: list[str] = []
    ana.on("pageerror", lambda exc: errors.append(str(exc)))
    as_guest(ana, base + "/", "Ana")
    expect(ana.locator(".who")).to_contain_text("Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    ana.select_option("select[name=num_seats]", "3")
    press_create(ana)
    for _ in range(2):
        before = ana.locator(".waiting-room .tag:has-text('computer')").count()
        ana.locator("button:has-text('Add computer player')").first.click()
        expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(before + 1)
    ana.click("#start-game")
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "setup")
    ana.fill("#sf-name", "Avalanche Annie")
    old = live_version(ana)
    ana.click("[data-sf-setup-ready]")
    _wait_new_version(ana, old)
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    me = int(ana.locator("#sf-board").get_attribute("data-seat"))
    others = sorted(int(t) for t in ana.evaluate("[...document.querySelectorAll('#sf-map [data-token-seat]')].map(t => t.dataset.tokenSeat)") if int(t) != me)
    names = {s: ana.locator(f'[data-roster-seat="{s}"] .sf-cname').inner_text() for s in others}

    ana.click('[data-sf-tool="rattlesnake"]')
    old = live_version(ana)
    ana.click('[data-sf-target="nearest"]')
    _wait_new_version(ana, old)
    card = ana.locator('[data-sf-card="1"]')
    expect(card.locator("[data-sf-order-text]")).to_have_text("Rogerson Rattlesnake at the nearest opponent")
    expect(card.locator("[data-sf-chance]").first).to_contain_text("nearest opponent now:")
    expect(card.locator("[data-sf-chance]").first).to_contain_text('Aimed at "nearest opponent" -10')

    ana.click('[data-sf-edit="2"]')
    ana.click('[data-sf-tool="collect"]')
    old = live_version(ana)
    ana.click('[data-sf-collect*=\'"count":2\']')
    _wait_new_version(ana, old)

    ana.click('[data-sf-edit="3"]')
    ana.click('[data-sf-tool="bolero"]')
    ana.locator(f'#sf-map [data-token-seat="{others[0]}"] .sf-body').click(force=True)
    expect(ana.locator(f'#sf-map [data-token-seat="{others[0]}"]')).to_have_class(re.compile("is-picked-target"))
    expect(ana.locator("[data-sf-hint]")).to_have_text("Now click the second target.")
    old = live_version(ana)
    ana.locator(f'#sf-map [data-token-seat="{others[1]}"] .sf-body').click(force=True)
    _wait_new_version(ana, old)
    card = ana.locator('[data-sf-card="3"]')
    expect(card.locator("[data-sf-order-text]")).to_have_text(f"Bowen Bolero at {names[others[0]]} and {names[others[1]]}")
    expect(card.locator("[data-sf-chance]")).to_have_count(2)
    expect(card.locator("[data-sf-chance]").first).to_contain_text("base 50%")
    shot(ana, "sf-06-three-seats-orders")
    old = live_version(ana)
    ana.click("#sf-ready")
    _wait_new_version(ana, old)
    expect(ana.locator("[data-sf-report]")).to_contain_text("Report on turn 1", timeout=10000)
    expect(ana.locator("[data-sf-report]")).to_contain_text("Bowen Bolero")
    shot(ana, "sf-06-three-seats-report")
    assert not errors, errors
    ana.context.close()


def _focused_hex(page) -> str | None:
    return page.evaluate("(document.activeElement && document.activeElement.dataset) ? document.activeElement.dataset.hex || null : null")


def _tab_into_garden(page) -> None:
    """Shift+Tab from the side panel's first control: the garden is the stop before it. Again if
    a redraw (the computer player's move arriving) replaced that control between the two steps."""
    for _ in range(3):
        page.locator(".sf-side").locator("button:visible, input:visible, select:visible").first.focus()
        page.keyboard.press("Shift+Tab")
        if _focused_hex(page):
            return


def _arrow_to(page, ref: str) -> None:
    """Walk the keyboard focus over the garden to ``ref`` with the arrow keys only."""
    for _ in range(40):
        here = _focused_hex(page)
        if here == ref:
            return
        (r, c), (tr, tc) = (ord(here[0]) - 65, int(here[1:])), (ord(ref[0]) - 65, int(ref[1:]))
        page.keyboard.press("ArrowLeft" if tc < c else "ArrowRight" if tc > c else "ArrowUp" if tr < r else "ArrowDown")
        assert _focused_hex(page) != here, f"the arrow keys are stuck at {here} on the way to {ref}"
    raise AssertionError(f"never reached {ref}")


def test_the_garden_is_played_from_the_keyboard(browser, live_server_proc, shot):
    """Tab into the garden, arrow keys from hex to hex, Enter or Space to choose: start hexes at setup,
    a route in the orders; every hex names itself and what is on it, and the focus is seen and kept."""
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(ana, timeout_ms=6000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    press_create(ana)
    ana.locator("button:has-text('Add computer player')").first.click()
    expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(1)
    ana.click("#start-game")
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "setup")

    # the garden is one stop in the Tab order, just before the side panel
    _tab_into_garden(ana)
    first = _focused_hex(ana)
    assert first and ana.locator('#sf-map .sf-hex[tabindex="0"]').count() == 1
    label = ana.locator(f'#sf-map .sf-hex[data-hex="{first}"]').get_attribute("aria-label")
    assert label.startswith(f"{first}: ") and "a start hex" in label and "nobody on it" in label
    expect(ana.locator("#sf-map .sf-kbring")).to_be_visible()
    assert ana.evaluate("document.activeElement.matches(':focus-visible')")
    assert ana.locator("#sf-map").get_attribute("aria-describedby") == "sf-map-keys"
    expect(ana.locator("#sf-map-keys")).to_contain_text("arrow keys")

    # the arrows walk the garden; Enter and Space pick start hexes in order
    _arrow_to(ana, "W9")
    ana.keyboard.press("Enter")
    expect(ana.locator("#sf-starts")).to_have_text("W9")
    assert "your start choice 1" in ana.locator('#sf-map .sf-hex[data-hex="W9"]').get_attribute("aria-label")
    _arrow_to(ana, "S1")
    ana.keyboard.press(" ")
    expect(ana.locator("#sf-starts")).to_have_text("W9, S1")
    shot(ana, "sf-kb-01-setup-focus")
    ana.fill("#sf-name", "Avalanche Annie")
    old = live_version(ana)
    ana.click("[data-sf-setup-ready]")
    _wait_new_version(ana, old)
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    me = int(ana.locator("#sf-board").get_attribute("data-seat"))
    here = _my_hex(ana)
    assert here == "W9"
    other = next(t for t in ana.evaluate("[...document.querySelectorAll('#sf-map [data-token-seat]')].map(t => t.dataset.tokenSeat)")
                 if int(t) != me)
    their_hex = ana.locator(f'#sf-map [data-token-seat="{other}"]').get_attribute("data-hex")
    their_name = ana.locator(f'[data-roster-seat="{other}"] .sf-cname').inner_text()
    their_label = ana.locator(f'#sf-map .sf-hex[data-hex="{their_hex}"]').get_attribute("aria-label")
    assert their_name in their_label and "10 HP" in their_label and "2 snowballs" in their_label
    assert "Avalanche Annie (you): 10 HP, 0 VPs, 2 snowballs" in ana.locator(
        '#sf-map .sf-hex[data-hex="W9"]').get_attribute("aria-label")

    # a move written from the keyboard: the tool by Enter on its button, the route by the arrows and Enter
    ana.focus('[data-sf-tool="move"]')
    ana.keyboard.press("Enter")
    _tab_into_garden(ana)
    assert _focused_hex(ana) == here  # the garden's Tab stop is now your own combatant
    nexts = ana.evaluate("[...document.querySelectorAll('#sf-map .sf-hex.is-next')].map(h => h.dataset.hex)")
    step = next(h for h in nexts if h[1:] == here[1:] or abs(int(h[1:]) - int(here[1:])) == 1)
    assert "can be the next hex of your route" in ana.locator(f'#sf-map .sf-hex[data-hex="{step}"]').get_attribute("aria-label")
    _arrow_to(ana, step)
    old = live_version(ana)
    ana.keyboard.press("Enter")
    _wait_new_version(ana, old)
    expect(ana.locator('[data-sf-card="1"] [data-sf-order-text]')).to_contain_text(f"Move {step}")
    ana.wait_for_function(f"document.activeElement && document.activeElement.dataset.hex === '{step}'")
    expect(ana.locator("#sf-map .sf-kbring")).to_be_visible()
    expect(ana.locator("[data-sf-hint]")).to_contain_text(f"Route {here} → {step}")
    shot(ana, "sf-kb-02-route-focus")
    ana.locator("#sf-mapscroll").screenshot(path=str(SHOTS / "sf-kb-02-route-focus-map.png"),
                                                timeout=SCREENSHOT_TIMEOUT_MS)

    # a mouse click does not leave a keyboard focus ring behind
    ana.locator('#sf-map .sf-hex[data-hex="A1"] polygon').click(force=True)
    expect(ana.locator("#sf-map .sf-kbring")).to_be_hidden()
    assert not errors, errors
    ana.context.close()


def _save_or_refused(page, locator) -> None:
    """Click an order's button; wait for the saved orders, or for the engine's refusal."""
    old = live_version(page)
    page.evaluate("document.getElementById('flash') && document.getElementById('flash').classList.remove('flash-error')")
    locator.click()
    page.wait_for_function(f"document.getElementById('live').dataset.version !== '{old}' || "
                           "!!document.querySelector('#flash.flash-error')")


def _throw_collect_throw(page) -> None:
    """A quick turn through the page: a Rattlesnake at the nearest opponent, collect two (where the
    page offers it: not on a hex with no snow), another Rattlesnake (an order the engine refuses,
    e.g. with no snowball left, stays unwritten); Ready."""
    if not page.locator("[data-sf-orders]").count():
        return  # out of the fight for now (running to the kitchen or drying socks)
    first = int(page.locator("[data-sf-orders]").get_attribute("data-first") or 1)
    for seg in range(first, 4):
        if seg != first:
            page.click(f'[data-sf-edit="{seg}"]')
        if seg == 2:
            page.click('[data-sf-tool="collect"]')
            collect = page.locator("[data-sf-collect*='\"count\":2']:enabled")  # none where there is no snow
            if collect.count():
                _save_or_refused(page, collect.first)
            continue
        page.click('[data-sf-tool="rattlesnake"]')
        _save_or_refused(page, page.locator('[data-sf-target="nearest"]'))
    if not page.locator("#sf-ready").count():  # every order refused: stand still
        if page.evaluate("SnowballFighting.state().seg") != first:
            page.click(f'[data-sf-edit="{first}"]')
        _save_or_refused(page, page.locator('[data-sf-tool="stand"]'))
    old = live_version(page)
    page.click("#sf-ready")
    _wait_new_version(page, old)


@pytest.mark.skipif(not FULL_GAME_FLOWS, reason="a whole game to its result: make test-full-games; make test "
                    "plays the same pages in test_two_players_and_a_spectator_play_snowball_fighting")
def test_two_people_and_a_computer_play_to_the_result(browser, live_server_proc, shot):
    """Three seats, one a computer player: turn after turn through the page until someone has 15 VPs
    (or the turn limit), then the result with VPs and damage dealt and taken, the same for everyone."""
    base = live_server_proc.url
    contexts = [browser.new_context(viewport=size) for size in ({"width": 1280, "height": 900}, {"width": 375, "height": 812})]
    ana, ben = (c.new_page() for c in contexts)
    errors = script_errors_of(ana, ben, timeout_ms=10000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    ana.select_option("select[name=num_seats]", "3")
    press_create(ana)
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    expect(ana.locator(".waiting-room")).to_contain_text("Ben")
    ana.locator("button:has-text('Add computer player')").first.click()
    expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(1)
    ana.click("#start-game")
    for page, name in ((ana, "Avalanche Annie"), (ben, "Blizzard Ben")):
        expect(page.locator("#sf-board")).to_have_attribute("data-phase", "setup")
        page.fill("#sf-name", name)
        old = live_version(page)
        page.click("[data-sf-setup-ready]")
        _wait_new_version(page, old)
    turns = 0
    while not ana.locator("[data-sf-result]").count():
        turns += 1
        assert turns <= 60, "no result after 60 turns"
        turn = ana.locator("#sf-board").get_attribute("data-turn")
        for page in (ana, ben):
            if page.locator("#sf-board").get_attribute("data-asked"):
                _throw_collect_throw(page)
        ana.wait_for_function(f"document.getElementById('sf-board').dataset.turn !== '{turn}' || "
                              "!!document.querySelector('[data-sf-result]')", timeout=15000)
    for page in (ana, ben):
        result = page.locator("[data-sf-result]")
        expect(result).to_contain_text(re.compile(r"wins|Shared victory|No winner"))
        expect(result.locator("thead")).to_contain_text("Damage dealt")
        expect(result.locator("thead")).to_contain_text("Damage taken")
        expect(result.locator("[data-final-seat]")).to_have_count(3)
    scores = [int(ana.locator(f'[data-final-seat="{s}"] td').nth(1).inner_text()) for s in range(3)]
    reason = ana.locator("[data-sf-result] p").inner_text()
    assert max(scores) >= 15 or "turn" in reason, (scores, reason)
    assert ana.locator("[data-sf-result]").inner_text() == ben.locator("[data-sf-result]").inner_text()
    shot(ana, "sf-07-result-player")
    shot(ben, "sf-07-result-phone")
    assert not errors, errors
    for context in contexts:
        context.close()
