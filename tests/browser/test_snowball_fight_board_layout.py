"""The Snowball Fight board's layout in Chromium, on a board rendered from a real state (no server)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.engines.snowball_fight import RULESET
from tests.engines.test_snowball_fight_helpers import asked, reveal, table

pytestmark = [pytest.mark.browser]
ROOT = Path(__file__).resolve().parents[2]

# Each prompt option's card and button, as [left, right, bottom] of each.
OPTION_BOXES_JS = """
() => [...document.querySelectorAll('.sbf-prompt .sbf-option')].map(o => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.right, r.bottom]; };
  return {card: box(o.querySelector('.sbf-card')), button: box(o.querySelector('button')),
          label: o.querySelector('button').textContent};
})
"""


def page_for(browser, state, seat, width):
    board = render_to_string("games/snowball-fight/board.html", {
        "view": RULESET.view(state, seat), "seat": seat, "legal": RULESET.legal_actions(state, seat),
        "prompt": None, "names": ["Ana", "Ben"], "version": 1})
    css = (ROOT / "static/css/site.css").read_text() + (ROOT / "static/css/snowball-fight.css").read_text()
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_content(f"<html><head><meta name='viewport' content='width=device-width'><style>{css}</style></head>"
                     f"<body><main><div id='live' data-version='1'>{board}</div></main></body></html>")
    return page


@pytest.mark.parametrize("width", [1280, 390])
def test_each_upgrade_button_sits_under_its_own_card(browser, width):
    s = table(hands=(["c05", "c03"], ["c15", "c04"]), arsenal=(["c01", "c16"], ["c02", "c18"]))
    s, _ = reveal(s, ("c05", "bottom"), ("c04", "bottom"))
    assert asked(s) == (0, "upgrade")
    page = page_for(browser, s, 0, width)
    options = page.evaluate(OPTION_BOXES_JS)
    page.close()
    assert len(options) == 2 and all(o["label"].startswith("Take ") for o in options)
    for o in options:
        (card_left, card_right, _), (left, right, _) = o["card"], o["button"]
        assert card_left - 1 <= left and right <= card_right + 1, f"{o['label']} sticks out of its card at {width} px"
        assert abs((left + right) / 2 - (card_left + card_right) / 2) <= 1, o["label"]
    first, second = options
    if second["card"][0] > first["card"][1]:
        assert abs(first["button"][2] - second["button"][2]) <= 1, "the buttons of one row do not line up"
