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
