"""Snowball Fighting's page as a person meets it: it holds still while others write their orders,
a move is written by clicking where to go, a refused nom de guerre is told beside its field and a
refused order beside the orders.

Sizes: a desktop window (1280x800) and a phone (390x844).
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, SHOTS, SCREENSHOT_TIMEOUT_MS, as_guest, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _wait_new_version(page, old: str) -> None:
    page.wait_for_function(f"document.getElementById('live').dataset.version !== '{old}'")


def _ready_setup(page, name: str, starts: tuple[str, ...] = ()) -> None:
    expect(page.locator("#sf-board")).to_have_attribute("data-phase", "setup")
    page.fill("#sf-name", name)
    for ref in starts:
        page.locator(f'#sf-map .sf-start[data-start="{ref}"]').click(force=True)
    old = live_version(page)
    page.click("[data-sf-setup-ready]")
    _wait_new_version(page, old)


def _against_a_computer(browser, size: dict, page=None):
    """A page at ``size`` (or ``page``) in a new two-seat game against a computer player, at its setup."""
    page = page or browser.new_context(**size).new_page()
    as_guest(page, _against_a_computer.base + "/", "Ana")
    page.goto(_against_a_computer.base + "/games/new/snowball-fighting/")
    press_create(page)
    page.locator("button:has-text('Add computer player')").first.click()
    expect(page.locator(".waiting-room .tag:has-text('computer')")).to_have_count(1)
    page.click("#start-game")
    expect(page.locator("#sf-board")).to_have_attribute("data-phase", "setup")
    return page


def _scroll_to_middle(page) -> int:
    """Scroll the window to 40% of the way down, as a reader part-way down the page; the position."""
    page.evaluate("window.scrollTo(0, Math.round((document.documentElement.scrollHeight - innerHeight) * 0.4))")
    page.wait_for_timeout(100)
    y = page.evaluate("window.scrollY")
    assert y > 100, "the page is too short to scroll"
    return y


def _in_view(page, selector: str) -> bool:
    return page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }")


def test_the_page_holds_still_while_the_others_write_their_orders(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = browser.new_context(**DESKTOP).new_page()
    ben = browser.new_context(**PHONE).new_page()
    eve = browser.new_context(**PHONE).new_page()
    errors = script_errors_of(ana, ben, eve, timeout_ms=6000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    press_create(ana)
    game_url = ana.url
    as_guest(ben, game_url, "Ben")
    ben.click("button:has-text('Sit here')")
    ben.click("#start-game")
    eve.goto(game_url)
    _ready_setup(ana, "Avalanche Annie")
    _ready_setup(ben, "Blizzard Ben")
    for page in (ana, ben, eve):
        expect(page.locator("#sf-board")).to_have_attribute("data-phase", "orders")

    # an order edit reaches only its writer; sealing the orders redraws every page (a "ready" tag,
    # or the turn's report once both are sealed), and no page moves under that redraw
    moved = []
    for who, viewer, writer in (("player, desktop", ana, ben), ("player, phone", ben, ana),
                                ("spectator, phone", eve, ana), ("spectator, phone", eve, ben)):
        y = _scroll_to_middle(viewer)
        old = live_version(viewer)
        mine = live_version(writer)
        writer.locator('[data-sf-tool="stand"]').click()
        _wait_new_version(writer, mine)
        viewer.wait_for_timeout(300)
        assert live_version(viewer) == old, f"{who} was sent a frame for another seat's order edit"
        writer.locator("#sf-ready").click()
        _wait_new_version(viewer, old)
        viewer.wait_for_timeout(200)
        if viewer.evaluate("window.scrollY") != y:
            moved.append((who, y, viewer.evaluate("window.scrollY")))
    assert not moved, f"the page moved under a redraw (who, scrollY before, after): {moved}"
    expect(eve.locator("#sf-routes")).to_have_count(0)  # where a seat's orders leave it is its own

    # on a phone the garden stays at the top while a segment is written: the hex to go to, the
    # route's MF and the segment's buttons are on the screen together, before and after the redraw
    ben.locator('[data-sf-tool="move"]').scroll_into_view_if_needed()
    ben.locator('[data-sf-tool="move"]').click()
    expect(ben.locator("[data-sf-hint]")).to_contain_text("Click where to go")
    ben.locator('[data-sf-card="1"]').evaluate("e => e.scrollIntoView({block: 'start'})")  # swiped up to the card
    here = ben.locator("#sf-map .sf-token.is-me").get_attribute("data-hex")
    goal = ben.evaluate("""Object.entries(JSON.parse(document.getElementById('sf-routes').textContent)[0])
        .filter(([h, r]) => r.mf === 2 && h !== 'KITCHEN').map(([h]) => h)[0]""")
    hexes = f'#sf-map .sf-hex[data-hex="{goal}"]'
    assert _in_view(ben, hexes) and _in_view(ben, "[data-sf-hint]") and _in_view(ben, "[data-sf-done]")
    y = ben.evaluate("window.scrollY")
    old = live_version(ben)
    ben.locator(f"{hexes} polygon").click(force=True)
    _wait_new_version(ben, old)
    expect(ben.locator('[data-sf-card="1"] [data-sf-order-text]')).to_contain_text(f"{goal}")
    expect(ben.locator("[data-sf-hint]")).to_contain_text(f"Route {here} →")
    assert ben.evaluate("window.scrollY") == y
    ben.screenshot(path=str(SHOTS / "sf-page-phone-writing-screen.png"), timeout=SCREENSHOT_TIMEOUT_MS)
    for selector in (hexes, "[data-sf-hint]", "[data-sf-undo]", "[data-sf-done]", '[data-sf-card="1"] [data-sf-mf]'):
        assert _in_view(ben, selector), selector
    shot(ben, "sf-page-phone-writing")
    shot(ana, "sf-page-desktop")
    assert not errors, errors
    for page in (ana, ben, eve):
        page.context.close()


REDRAW_AS_THE_SOCKET_DOES_JS = """
() => {
  const live = document.getElementById('live');
  live.setAttribute('hx-swap-oob', 'true');
  const html = live.outerHTML;
  htmx.swap(document.body, html, {swapStyle: 'none'});
  htmx.trigger(document.querySelector('[ws-connect]'), 'htmx:wsAfterMessage', {message: html});
}
"""


def test_the_other_games_pages_hold_still_under_a_redraw(browser, live_server_proc):
    """A cheap check: each other game against computer players, redrawn as the socket redraws it."""
    page = browser.new_context(**DESKTOP).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", "Ana")
    moved = []
    for slug in ("snowball-fight", "what-a-snowball", "jingle-bells"):
        page.goto(f"{live_server_proc.url}/games/new/{slug}/")
        press_create(page)
        while page.locator("button:has-text('Add computer player')").count():
            before = page.locator(".waiting-room .tag:has-text('computer')").count()
            page.locator("button:has-text('Add computer player')").first.click()
            expect(page.locator(".waiting-room .tag:has-text('computer')")).to_have_count(before + 1)
        page.click("#start-game")
        expect(page.locator(".board-wrap")).to_be_visible()
        page.wait_for_timeout(500)
        y = _scroll_to_middle(page)
        page.evaluate(REDRAW_AS_THE_SOCKET_DOES_JS)
        page.wait_for_timeout(200)
        if page.evaluate("window.scrollY") != y:
            moved.append((slug, y, page.evaluate("window.scrollY")))
    assert not moved, f"the page moved under a redraw (game, scrollY before, after): {moved}"
    assert not errors, errors
    page.context.close()


def test_a_move_is_written_by_clicking_where_to_go(browser, live_server_proc, shot):
    _against_a_computer.base = live_server_proc.url
    ana = _against_a_computer(browser, DESKTOP)
    errors = script_errors_of(ana, timeout_ms=6000)
    _ready_setup(ana, "Avalanche Annie", ("W9",))
    expect(ana.locator("#sf-map .sf-token.is-me")).to_have_attribute("data-hex", "W9")
    card = ana.locator('[data-sf-card="1"]')
    ana.click('[data-sf-tool="move"]')
    assert ana.locator("#sf-map .sf-hex.is-reach").count() > 20
    expect(ana.locator('#sf-map .sf-hex[data-hex="M11"]')).to_have_class(__import__("re").compile("is-reach"))

    def click(ref: str) -> None:
        old = live_version(ana)
        ana.locator(f'#sf-map .sf-hex[data-hex="{ref}"] polygon').click(force=True)
        _wait_new_version(ana, old)

    # M11 is six hexes away, but the path halves four of them: the cheapest route is 4 MF,
    # shown dashed while the pointer is over it, drawn once clicked
    ana.locator('#sf-map .sf-hex[data-hex="M11"] polygon').hover(force=True)
    expect(ana.locator("#sf-map .sf-preview")).to_be_visible()
    expect(ana.locator("#sf-map .sf-preview-mf")).to_have_text("4 MF")
    assert ana.locator("#sf-map .sf-preview-line").get_attribute("points").count(" ") == 6
    ana.locator("#sf-mapscroll").screenshot(path=str(SHOTS / "sf-page-route-preview-map.png"),
                                                timeout=SCREENSHOT_TIMEOUT_MS)
    click("M11")
    expect(card.locator("[data-sf-order-text]")).to_have_text("Move V10 → U11 → S11 → Q11 → O11 → M11")
    expect(card.locator("[data-sf-mf]")).to_contain_text("6 steps (4 along the path at ½ MF): 4 MF")
    expect(ana.locator("[data-sf-hint]")).to_contain_text("Route W9 → V10 → U11 → S11 → Q11 → O11 → M11: 4 of 4 MF")
    assert ana.locator('#sf-map .sf-myroute').get_attribute("points").count(" ") == 6
    shot(ana, "sf-page-route-drawn")
    # a click on the route stops the move there; one on the hex next to its end adds a step
    click("S11")
    expect(card.locator("[data-sf-order-text]")).to_have_text("Move V10 → U11 → S11")
    expect(card.locator("[data-sf-mf]")).to_contain_text("2.5 MF")
    click("R12")
    expect(card.locator("[data-sf-order-text]")).to_have_text("Move V10 → U11 → S11 → R12")
    expect(card.locator("[data-sf-mf]")).to_contain_text("3.5 of 4 MF used")
    old = live_version(ana)
    ana.click("[data-sf-undo]")
    _wait_new_version(ana, old)
    expect(card.locator("[data-sf-order-text]")).to_have_text("Move V10 → U11 → S11")
    # a hex beyond 4 MF is refused beside the orders, and the route stays
    old = live_version(ana)
    ana.locator('#sf-map .sf-hex[data-hex="A1"] polygon').click(force=True)
    expect(ana.locator("[data-sf-hint]")).to_contain_text("A1 is out of reach this segment")
    assert live_version(ana) == old
    expect(card.locator("[data-sf-order-text]")).to_have_text("Move V10 → U11 → S11")
    # collecting first leaves 2 MF: the same click now finds the cheapest route within them
    ana.click('[data-sf-tool="collect_move"]')
    click("S9")
    expect(card.locator("[data-sf-order-text]")).to_have_text("Collect 1 simple snowball, then move U9 → S9")
    # one order a segment: writing another kind over the move says what it replaced
    expect(ana.locator("[data-sf-hint]")).to_contain_text(
        "This replaced segment 1's order (Move V10 → U11 → S11): one order a segment.")
    ana.locator('#sf-map .sf-hex[data-hex="Q9"] polygon').click(force=True)
    expect(ana.locator("[data-sf-hint]")).to_contain_text("Q9 is out of reach this segment: the cheapest route there costs more than the 2 MF")
    assert not errors, errors
    ana.context.close()


def test_a_refused_nom_de_guerre_is_told_beside_its_field_until_it_is_fixed(browser, live_server_proc, shot):
    _against_a_computer.base = live_server_proc.url
    ana = _against_a_computer(browser, PHONE)
    errors = script_errors_of(ana, timeout_ms=6000)
    ana.locator("#sf-name").scroll_into_view_if_needed()
    ana.fill("#sf-name", "<Frost>")
    ana.click("[data-sf-setup-ready]")
    error = ana.locator("#sf-name-error")
    expect(error).to_contain_text("an angle bracket")
    expect(ana.locator("#sf-name")).to_have_attribute("aria-invalid", "true")
    assert _in_view(ana, "#sf-name-error") and _in_view(ana, "[data-sf-setup-ready]")
    shot(ana, "sf-page-setup-refused-phone")
    expect(ana.locator("#flash")).to_be_empty(timeout=8000)  # the message at the top goes after 6 s
    expect(error).to_be_visible()
    expect(error).to_contain_text("an angle bracket")
    old = live_version(ana)
    ana.fill("#sf-name", "Jack Frost")
    ana.click("[data-sf-setup-ready]")
    _wait_new_version(ana, old)
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    expect(ana.locator(".sf-roster")).to_contain_text("Jack Frost")
    assert not errors, errors
    ana.context.close()


def test_a_refused_order_is_told_beside_the_orders_and_a_head_is_offered_only_on_a_snowman(browser, live_server_proc, shot):
    _against_a_computer.base = live_server_proc.url
    ana = _against_a_computer(browser, DESKTOP)
    errors = script_errors_of(ana, timeout_ms=6000)
    _ready_setup(ana, "Avalanche Annie", ("S1",))
    hint = ana.locator("[data-sf-hint]")
    # S1 is no snowman's hex: its head is not offered, and a note says where it can be taken
    ana.click('[data-sf-tool="collect"]')
    expect(ana.locator("[data-sf-collect*=head]")).to_be_hidden()
    expect(ana.locator('[data-sf-collect-note="head"]')).to_have_text(
        "A snowman's head is taken standing on its snowman (B12 or Q3).")
    # an order the server refuses anyway (a head first, then a move) is told by the orders, as well as at the top
    ana.click('[data-sf-tool="collect_move"]')
    ana.select_option("[data-sf-cm-what]", "head")
    old = live_version(ana)
    ana.locator('#sf-map .sf-hex[data-hex="R2"] polygon').click(force=True)
    refusal = "segment 1: a snowman's head can be taken only on the snowman's hex (B12 or Q3), not S1"
    expect(hint).to_have_text(refusal)
    expect(hint).to_have_class(re.compile("is-refusal"))
    expect(ana.locator("#flash")).to_have_text(refusal)
    assert live_version(ana) == old
    near = ana.locator('[data-sf-tool="collect_move"]').bounding_box()
    told = hint.bounding_box()
    assert 0 < told["y"] - near["y"] < 150, (near, told)  # right under the buttons just pressed
    expect(ana.locator('[data-sf-card="1"] [data-sf-order-text]')).to_have_text("Not written (stands still)")
    expect(ana.locator("[data-sf-refusal]")).to_have_text("Not saved, the cards show the orders that stand: " + refusal)
    shot(ana, "sf-page-refused-beside-the-orders")
    # the message at the top goes 6 s after it came, however often the page is redrawn meanwhile
    ana.evaluate("window.redraws = setInterval(() => document.dispatchEvent(new Event('htmx:wsAfterMessage')), 700)")
    expect(ana.locator("#flash")).to_be_empty(timeout=8000)
    ana.evaluate("clearInterval(window.redraws)")
    expect(hint).to_have_text(refusal)  # the one by the orders stays until the player writes again
    # on Q3, a snowman's hex, the next segment offers its head
    ana.click('[data-sf-tool="move"]')
    expect(hint).not_to_have_class(re.compile("is-refusal"))
    expect(ana.locator("[data-sf-refusal]")).to_contain_text(refusal)  # above Ready it stays until the next write
    ana.locator('#sf-map .sf-hex[data-hex="Q3"] polygon').click(force=True)
    _wait_new_version(ana, old)
    expect(ana.locator('[data-sf-card="1"] [data-sf-order-text]')).to_have_text("Move R2 → Q3")
    ana.click('[data-sf-edit="2"]')
    ana.click('[data-sf-tool="collect"]')
    expect(ana.locator('[data-sf-collect-note="head"]')).to_be_hidden()
    old = live_version(ana)
    ana.click("[data-sf-collect*=head]")
    _wait_new_version(ana, old)
    expect(ana.locator('[data-sf-card="2"] [data-sf-order-text]')).to_have_text("Collect the snowman's head")
    assert not errors, errors
    ana.context.close()


def _token_in_the_garden_box(page) -> dict:
    """Where the viewer's own token is in the garden's scrolling box, and how far the box is scrolled."""
    return page.evaluate("""() => {
        const box = document.getElementById('sf-mapscroll'), o = box.getBoundingClientRect();
        const me = document.querySelector('#sf-map .sf-token.is-me .sf-body').getBoundingClientRect();
        const x = me.left + me.width / 2 - o.left, y = me.top + me.height / 2 - o.top;
        return {x, y, inside: x >= 0 && x <= box.clientWidth && y >= 0 && y <= box.clientHeight,
                scrolls: box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight,
                left: box.scrollLeft, top: box.scrollTop}; }""")


def test_a_phone_opens_the_garden_on_your_own_combatant(browser, live_server_proc):
    """The phone's garden scrolls in its own box; when the orders begin, your combatant is in it,
    however the box was scrolled to pick a start hex, and after a reload too. A desktop's does not scroll."""
    _against_a_computer.base = live_server_proc.url
    ana = _against_a_computer(browser, PHONE)
    errors = script_errors_of(ana, timeout_ms=6000)
    _ready_setup(ana, "Avalanche Annie", ("W9",))  # the south-east star: the box scrolls sideways to it
    expect(ana.locator("#sf-board")).to_have_attribute("data-editing", "1")
    where = _token_in_the_garden_box(ana)
    assert where["scrolls"] and where["inside"] and where["top"] > 0, where
    ana.locator("#sf-mapscroll").screenshot(path=str(SHOTS / "sf-page-phone-garden-on-you.png"),
                                            timeout=SCREENSHOT_TIMEOUT_MS)
    ana.reload()
    expect(ana.locator("#sf-board")).to_have_attribute("data-editing", "1")
    ana.wait_for_timeout(300)
    assert _token_in_the_garden_box(ana)["inside"]
    desk = ana.context.browser.new_context(**DESKTOP).new_page()
    desk.context.add_cookies(ana.context.cookies())
    desk.goto(ana.url)
    expect(desk.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    desk.wait_for_timeout(300)
    at_desk = _token_in_the_garden_box(desk)
    assert not at_desk["scrolls"] and at_desk["left"] == at_desk["top"] == 0 and at_desk["inside"], at_desk
    assert not errors, errors
    for page in (ana, desk):
        page.context.close()


def _stale_ready(sent: list[dict]):
    """A stand between the page and the server: each frame the page sends is kept in ``sent``, and
    a Ready goes out as if the game had moved on before it arrived (an old version), so the server
    refuses it with its own words; all else passes as it is."""
    def route(ws) -> None:
        server = ws.connect_to_server()

        def out(message):
            frame = json.loads(message) if isinstance(message, str) and message.startswith("{") else {}
            sent.append(frame)
            if (frame.get("action") or {}).get("type") == "ready":
                message = json.dumps({**frame, "version": 1})
            server.send(message)

        ws.on_message(out)
    return route


def test_collecting_on_the_path_is_never_written_and_refusals_are_told_by_the_ready_button(browser, live_server_proc, shot):
    """The order writer applies the engine's "no snow on the path" before writing a collect
    (plain, or before or after a move), and says why beside the tools; it warns when what is
    collected is more than can be carried; and a refused order or seal is told above the Ready
    button, where it stays after the segment is closed and the message at the top has gone."""
    _against_a_computer.base = live_server_proc.url
    page = browser.new_context(**DESKTOP).new_page()
    sent: list[dict] = []
    page.route_web_socket(re.compile(r"/ws/games/"), _stale_ready(sent))
    ana = _against_a_computer(browser, DESKTOP, page=page)
    errors = script_errors_of(ana, timeout_ms=6000)
    _ready_setup(ana, "Avalanche Annie", ("W9",))
    expect(ana.locator("#sf-map .sf-token.is-me")).to_have_attribute("data-hex", "W9")
    hint, warn, spot = ana.locator("[data-sf-hint]"), ana.locator("[data-sf-collect-warn]"), ana.locator("[data-sf-refusal]")

    def click(ref: str) -> None:
        old = live_version(ana)
        ana.locator(f'#sf-map .sf-hex[data-hex="{ref}"] polygon').click(force=True)
        _wait_new_version(ana, old)

    def orders_sent() -> list:
        return [f["action"]["segments"] for f in sent if (f.get("action") or {}).get("type") == "orders"]

    # segment 1, from W9 (off the path): collecting after a move that ends on the path (U11) is not
    # offered: its hex is not amber-edged, and a click on it writes nothing and says why
    ana.click('[data-sf-tool="collect_move"]')
    ana.select_option("[data-sf-cm-at]", "end")
    expect(ana.locator('#sf-map .sf-hex[data-hex="V10"]')).to_have_class(re.compile("is-reach"))
    expect(ana.locator('#sf-map .sf-hex[data-hex="U11"]')).not_to_have_class(re.compile("is-reach"))
    old = live_version(ana)
    ana.locator('#sf-map .sf-hex[data-hex="U11"] polygon').click(force=True)
    expect(hint).to_have_text("You cannot collect after moving to U11: snowballs cannot be collected on the path (U11). "
                              "End the route on a hex off the path, or collect first, then move.")
    expect(hint).to_have_class(re.compile("is-refusal"))
    ana.wait_for_timeout(500)
    assert live_version(ana) == old and orders_sent() == [], orders_sent()
    expect(ana.locator('[data-sf-card="1"] [data-sf-order-text]')).to_have_text("Not written (stands still)")
    # the choice of "after moving" outlives a redraw of the board
    ana.evaluate("document.dispatchEvent(new Event('htmx:wsAfterMessage'))")
    expect(ana.locator("[data-sf-cm-at]")).to_have_value("end")
    expect(hint).to_contain_text("You cannot collect after moving to U11")
    # a plain move onto the path is fine
    ana.click('[data-sf-tool="move"]')
    click("U11")
    expect(ana.locator('[data-sf-card="1"] [data-sf-order-text]')).to_have_text("Move V10 → U11")

    # segment 2 starts on the path: plain collecting is not offered, nor collecting first
    ana.click('[data-sf-edit="2"]')
    ana.click('[data-sf-tool="collect"]')
    for button in ana.locator("[data-sf-collect]:visible").all():
        expect(button).to_be_disabled()
    expect(warn).to_have_text("You cannot collect in segment 2: you stand on U11, and snowballs cannot be collected on the "
                              "path (U11). Move off it first, or choose Collect and move and collect after moving.")
    ana.click('[data-sf-tool="collect_move"]')
    expect(ana.locator('[data-sf-cm-at] option[value="start"]')).to_be_disabled()
    expect(ana.locator("[data-sf-cm-at]")).to_have_value("end")
    expect(warn).to_contain_text("You start segment 2 on U11, and snowballs cannot be collected on the path (U11): "
                                 "collect after moving, on a hex off the path.")
    ana.locator("[data-sf-tools]").screenshot(path=str(SHOTS / "sf-page-no-collecting-on-the-path.png"),
                                              timeout=SCREENSHOT_TIMEOUT_MS)
    # collecting after a step off the path is written; holding 2 already, it warns of the third
    click("T10")
    expect(ana.locator('[data-sf-card="2"] [data-sf-order-text]')).to_have_text("Move T10, then collect 1 simple snowball")
    expect(warn).to_contain_text("Collecting 1 simple snowball leaves you holding 3 simple snowballs, but a mover carries only "
                                 "2 simple snowballs or 1 Dirigible: when you next move, 1 simple snowball stays behind and is trampled")
    assert all(not (o and o["type"] == "collect_move" and (o["collect_at"] == "start" or o["route"][-1] == "U11"))
               for segments in orders_sent() for o in segments), orders_sent()
    # segment 3, on T10 holding 3: any more collected is more than can be carried
    ana.click('[data-sf-edit="3"]')
    ana.click('[data-sf-tool="collect"]')
    expect(warn).to_have_text("You will hold 3 simple snowballs here, more than a mover carries (2 simple snowballs or 1 Dirigible): "
                              "what you collect stays behind and is trampled when you next move, unless you throw it first.")
    two = ana.locator("[data-sf-collect*='\"count\":2']")
    expect(two).to_be_enabled()  # the rules allow it: a stash is kept on its hex
    old = live_version(ana)
    two.click()
    _wait_new_version(ana, old)
    expect(warn).to_contain_text("Collecting 2 simple snowballs leaves you holding 5 simple snowballs, but a mover carries only "
                                 "2 simple snowballs or 1 Dirigible: when you next move, 3 simple snowballs stay behind and are trampled")
    ana.locator("[data-sf-tools]").screenshot(path=str(SHOTS / "sf-page-carry-warning.png"), timeout=SCREENSHOT_TIMEOUT_MS)

    # the seal is refused (the game moved on before it arrived): told right above the Ready button,
    # though a segment is open for writing, and it stays after the message at the top has gone
    ready = ana.locator("#sf-ready")
    ready.click()
    expect(spot).to_be_visible()
    expect(spot).to_contain_text("Your orders were not sealed: the game moved on before your move arrived")
    assert _in_view(ana, "[data-sf-refusal]") and _in_view(ana, "#sf-ready")
    near, told = ready.bounding_box(), spot.bounding_box()
    assert 0 < near["y"] - (told["y"] + told["height"]) < 60, (near, told)
    shot(ana, "sf-page-seal-refused")
    ana.click("[data-sf-done]")
    expect(ana.locator("#flash")).to_be_empty(timeout=8000)  # the message at the top goes after 6 s
    expect(spot).to_contain_text("Your orders were not sealed")
    assert not errors, errors
    ana.context.close()


def test_on_a_phone_the_pinned_garden_leaves_room_to_read_the_orders(browser, live_server_proc, shot):
    """While a segment is written on a phone the garden stays at the top of the screen (to click
    in), but in a box of at most a third of the screen: the segment's order buttons, scrolled to,
    stand under it, readable. A desktop's garden is not pinned, nor cut short."""
    _against_a_computer.base = live_server_proc.url
    ana = _against_a_computer(browser, PHONE)
    errors = script_errors_of(ana, timeout_ms=6000)
    _ready_setup(ana, "Avalanche Annie", ("W9",))
    expect(ana.locator("#sf-board")).to_have_attribute("data-editing", "1")
    ana.wait_for_timeout(300)
    ana.locator('[data-sf-tool="move"]').evaluate("b => b.scrollIntoView({block: 'start'})")  # as the page's own
    ana.wait_for_timeout(200)
    where = ana.evaluate("""() => {
        const wrap = document.querySelector('.sf-mapwrap').getBoundingClientRect();
        const tools = [...document.querySelectorAll('[data-sf-tool]')].filter(b => b.offsetParent)
            .map(b => b.getBoundingClientRect());
        return {pinned: getComputedStyle(document.querySelector('.sf-mapwrap')).position,
                top: wrap.top, bottom: wrap.bottom, height: wrap.height, screen: innerHeight,
                scrolled: scrollY, tools: tools.map(r => [r.top, r.bottom])};
    }""")
    assert where["pinned"] == "sticky", where
    assert where["height"] <= where["screen"] / 3 + 1, where
    shown = [t for t in where["tools"] if t[0] >= where["bottom"] - 1 and t[1] <= where["screen"]]
    assert len(shown) >= 3, where  # the segment's order buttons are in sight below the garden, not under it
    ana.screenshot(path=str(SHOTS / "sf-page-phone-orders-viewport.png"), timeout=SCREENSHOT_TIMEOUT_MS)
    shot(ana, "sf-page-phone-orders-under-the-garden")
    desk = ana.context.browser.new_context(**DESKTOP).new_page()
    desk.context.add_cookies(ana.context.cookies())
    desk.goto(ana.url)
    expect(desk.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    at_desk = desk.evaluate("""() => { const w = document.querySelector('.sf-mapwrap');
        return {pinned: getComputedStyle(w).position, box: getComputedStyle(document.getElementById('sf-mapscroll')).maxHeight}; }""")
    assert at_desk == {"pinned": "static", "box": "none"}, at_desk
    desk.screenshot(path=str(SHOTS / "sf-page-desktop-orders.png"), timeout=SCREENSHOT_TIMEOUT_MS)
    assert not errors, errors
    for page in (ana, desk):
        page.context.close()


def test_a_bolero_is_written_only_with_two_different_opponents(browser, live_server_proc, shot):
    """A Bowen Bolero names two opponents. With one picked, "Done with this segment" keeps the
    segment open and says a second is missing (it used to close it, the order silently gone); the
    same opponent twice is told, not taken; and with a single opponent the Bolero cannot be picked."""
    base = live_server_proc.url
    ana = browser.new_context(**DESKTOP).new_page()
    errors = script_errors_of(ana, timeout_ms=6000)
    as_guest(ana, base + "/", "Ana")
    ana.goto(base + "/games/new/snowball-fighting/")
    ana.select_option("select[name=num_seats]", "3")
    press_create(ana)
    for added in (1, 2):
        ana.locator("button:has-text('Add computer player')").first.click()
        expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(added)
    ana.click("#start-game")
    _ready_setup(ana, "Avalanche Annie", ("W9",))
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    card, hint = ana.locator('[data-sf-card="1"]'), ana.locator("[data-sf-hint]")
    ana.click('[data-sf-tool="bolero"]')
    first, second = (ana.locator(f'#sf-map .sf-token[data-token-seat="{seat}"]') for seat in (1, 2))
    first.click(force=True)
    expect(hint).to_have_text("Now click the second target.")
    ana.click("[data-sf-done]")
    expect(hint).to_have_text("This Bolero has one target: click a second opponent, or choose another order.")
    expect(ana.locator('[data-sf-tool="bolero"]')).to_be_visible()  # the segment is still being written
    first.click(force=True)
    expect(hint).to_have_text("A Bolero needs two different opponents: click another one.")
    shot(ana, "sf-page-bolero-one-target")
    old = live_version(ana)
    second.click(force=True)
    _wait_new_version(ana, old)
    expect(card.locator("[data-sf-order-text]")).to_contain_text("Bowen Bolero")
    assert not errors, errors
    ana.context.close()

    _against_a_computer.base = base
    ben = _against_a_computer(browser, DESKTOP)
    _ready_setup(ben, "Blizzard Ben", ("W9",))
    expect(ben.locator('[data-sf-tool="bolero"]')).to_be_disabled()
    expect(ben.locator('[data-sf-tool="bolero"]')).to_have_attribute("title", "A Bowen Bolero needs two opponents to aim at")
    ben.context.close()
