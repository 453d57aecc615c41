"""The Jingle Bells page's layout in Chromium, on a board rendered from a real state (no server)."""
from __future__ import annotations

import pytest

from tests.browser.test_jingle_bells_board_labels import page_for
from tests.engines.test_jingle_bells_engine import battle

pytestmark = [pytest.mark.browser]

WHERE_JS = """
() => { const wrap = document.querySelector('.jb-tablewrap');
        return {position: getComputedStyle(wrap).position, bottom: wrap.getBoundingClientRect().bottom}; }
"""


def test_on_a_phone_the_table_scrolls_away_with_the_page_and_on_a_desktop_it_stays_beside_the_panel(browser):
    """On one column the table is not pinned over the panel the player scrolls to (it hid a third of
    a phone's screen and the panel's heading); beside the panel, on a desktop, it stays in view."""
    s = battle({"Paul": [5], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})
    page = page_for(browser, s, 0)
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    phone = page.evaluate(WHERE_JS)
    page.set_viewport_size({"width": 1280, "height": 800})
    desktop = page.evaluate(WHERE_JS)
    page.close()
    assert phone["position"] == "static" and phone["bottom"] < 0, phone
    assert desktop["position"] == "sticky", desktop


SIZES_JS = """
() => { const box = document.getElementById('jb-tablescroll');
        const letters = [...document.querySelectorAll('#jb-table .jb-pieces text')].map(t => t.getBoundingClientRect().height)
                                                                               .filter(h => h > 0);
        return {smallest_letter: Math.min(...letters), scroll_left: box.scrollLeft,
                scroll_room: box.scrollWidth - box.clientWidth, page_width: document.documentElement.scrollWidth,
                table_width: document.getElementById('jb-table').getBoundingClientRect().width,
                box_width: box.clientWidth}; }
"""


@pytest.mark.parametrize("seat", [0, 1])
def test_on_a_phone_the_table_is_drawn_readable_and_scrolls_sideways_from_your_own_edge(browser, seat):
    """At 390 px the whole 50 cm table made its pieces' letters 5-6 px tall. It is drawn wider than
    the screen, in a box of its own that scrolls sideways (the page does not), showing the
    player's own edge first; "Show the whole table" fits it again, and the choice survives a redraw."""
    s = battle({"Paul": [5], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})
    page = page_for(browser, s, seat)
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.JingleBells.refresh()")
    zoomed = page.evaluate(SIZES_JS)
    page.click("[data-jb-fit]")
    page.evaluate("() => window.JingleBells.refresh()")  # as after the next version's redraw
    whole = page.evaluate(SIZES_JS)
    pressed = page.get_attribute("[data-jb-fit]", "aria-pressed")
    page.close()
    assert zoomed["smallest_letter"] >= 11, zoomed
    assert zoomed["page_width"] <= 390 and zoomed["scroll_room"] > 300, zoomed
    assert zoomed["scroll_left"] == (zoomed["scroll_room"] if seat == 1 else 0), zoomed
    assert whole["table_width"] <= whole["box_width"] and whole["scroll_room"] == 0 and pressed == "true", whole


def test_on_a_phone_a_move_button_brings_the_ring_to_click_in_into_sight(browser):
    """The Move buttons sit under the table on a phone, a screen or two below it: pressing one
    scrolls the table back to the purple ring the player is told to click in."""
    s = battle({"Paul": [1], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})  # a 1 moves
    page = page_for(browser, s, 0)
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => window.JingleBells.refresh()")
    button = page.locator("#jb-board [data-jb-move]").first
    button.scroll_into_view_if_needed()
    assert page.locator("#jb-board .jb-ring-move").first.bounding_box()["y"] < 0  # the table is above the screen
    button.click()
    page.wait_for_function("""() => { const r = document.querySelector('#jb-board .jb-ring-move.is-active')
                                                    .getBoundingClientRect();
                                      return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }""",
                           timeout=3000)
    page.close()


def test_on_a_touch_screen_the_first_tap_shows_where_a_character_would_go_and_a_second_tap_there_moves_it(browser):
    """A finger has no pointer for the marker to follow, so a tap that moved at once moved blind:
    the first tap puts the marker down and says how far, a tap elsewhere moves the marker, and
    a tap on the marker sends the move."""
    s = battle({"Paul": [1], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})  # a 1 moves
    page = page_for(browser, s, 0, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.evaluate("() => { window.sent = []; window.Snowball = {send: a => window.sent.push(a) > 0}; }")
    page.locator("#jb-board [data-jb-move]").first.tap()
    move = page.evaluate("() => JingleBells.state().move.action")
    centre = move["center"]

    def tap(dx: float) -> None:
        point = page.evaluate(f"JingleBells.toScreen({centre[0] + dx}, {centre[1]})")
        page.touchscreen.tap(point["x"], point["y"])

    tap(-2)
    first = page.locator("#jb-board [data-jb-feedback]").first.inner_text()
    ghosts = page.locator("#jb-over .jb-ghost").count()
    tap(-4)
    moved_marker = page.evaluate("() => JingleBells.state().move.ghost")
    sent_before = page.evaluate("() => window.sent")
    tap(-4)
    sent = page.evaluate("() => window.sent")
    page.close()
    assert sent_before == [] and ghosts == 1, (sent_before, ghosts)
    assert "can go there (2.0 cm)" in first and "Tap the marker again" in first, first
    assert abs(moved_marker[0] - (centre[0] - 4)) < 0.2, moved_marker
    assert len(sent) == 1 and sent[0]["type"] == "move" and sent[0]["character"] == move["character"], sent
    assert abs(sent[0]["to"][0] - (centre[0] - 4)) < 0.2 and abs(sent[0]["to"][1] - centre[1]) < 0.2, sent


@pytest.mark.parametrize(("phase", "rings"), [("actions", 1), ("over", 0)])
def test_a_piece_picked_shows_its_reach_in_play_and_not_once_the_game_is_over(browser, phase, rings):
    s = battle({"Paul": [1], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})
    s["phase"] = phase
    page = page_for(browser, s, 0)
    page.locator('#jb-table .jb-piece[data-id="Bianca"]').dispatch_event("click")
    page.evaluate("() => window.JingleBells.refresh()")
    count = page.locator('#jb-board circle.jb-ring-move[r="8.9"]').count()  # not the legend's icon
    page.close()
    assert count == rings
