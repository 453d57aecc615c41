"""The Snowball Fight board's layout in Chromium, on a board rendered from a real state (no server)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.engines.snowball_fight import RULESET
from tests.engines.test_snowball_fight_helpers import answer, asked, reveal, table

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


def page_for(browser, state, seat, width, height=900):
    board = render_to_string("games/snowball-fight/board.html", {
        "view": RULESET.view(state, seat), "seat": seat, "legal": RULESET.legal_actions(state, seat) if seat is not None else [],
        "prompt": None, "names": ["Ana", "Ben"], "version": 1})
    css = (ROOT / "static/css/site.css").read_text() + (ROOT / "static/css/snowball-fight.css").read_text()
    page = browser.new_page(viewport={"width": width, "height": height})
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


# Each draft option's card and its Keep now / Mark buttons, as [left, right] of each.
DRAFT_BOXES_JS = """
() => [...document.querySelectorAll('.sbf-playable > .sbf-actions')].map(actions => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.right]; };
  return {card: box(actions.parentElement.querySelector('.sbf-card')), buttons: [...actions.querySelectorAll('button')].map(box)};
})
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_draft_cards_buttons_are_as_wide_as_the_card(browser, width):
    """Keep now and Mark stood out past their card on a desktop (a hand's 200 px column of sides)."""
    state = RULESET.new_game(players=2, options=None, seed=1)
    page = page_for(browser, state, 0, width)
    options = page.evaluate(DRAFT_BOXES_JS)
    page.close()
    assert len(options) == 4
    for o in options:
        (card_left, card_right) = o["card"]
        for left, right in o["buttons"]:
            assert abs(left - card_left) <= 1 and abs(right - card_right) <= 1, f"a draft button is not its card's width at {width} px"


# Where the last reveal shows: [left, top, right, bottom] of each part, None when not drawn.
REVEAL_BOXES_JS = """
() => {
  const box = q => { const el = document.querySelector(q); if (!el) return null;
    const r = el.getBoundingClientRect(); return r.width ? [r.left, r.top + scrollY, r.right, r.bottom + scrollY] : null; };
  return {brief: box('.sbf-reveal-brief'), lines: box('.sbf-reveal > .sbf-lines'),
          cards: [...document.querySelectorAll('.sbf-choose .sbf-playable')].map(el => {
            const r = el.getBoundingClientRect(); return [r.left, r.top + scrollY, r.right, r.bottom + scrollY]; }),
          brief_text: (document.querySelector('.sbf-reveal-brief') || {}).innerText || ''};
}
"""


def test_on_a_phone_the_last_reveal_is_told_in_short_just_above_the_hand_and_the_desktop_is_unchanged(browser):
    """On a 390 x 844 phone the full reveal is far up the page; what the opponent played and what
    it did is repeated just above the hand, whose two cards sit side by side."""
    s = table(hands=(["c05", "c03"], ["c12", "c04"]), discard=(["c01", "c07"], ["c02"]))
    s, _ = reveal(s, ("c05", "bottom"), ("c12", "top"))
    s, _ = answer(s, 0, **RULESET.to_act(s)[0].default)
    assert s["step"] == "choose"
    page = page_for(browser, s, 0, 390, 844)
    phone = page.evaluate(REVEAL_BOXES_JS)
    page.close()
    assert phone["brief"] is not None and phone["lines"] is None  # its lines moved down to the brief
    assert "you: Upgrade" in phone["brief_text"] and "Ben: Sneak Attack" in phone["brief_text"]
    assert "Ana was hit by Sneak Attack, so their Upgrade does nothing" in phone["brief_text"]
    first, second = phone["cards"]
    assert abs(first[1] - second[1]) <= 1 and second[0] >= first[2], "the hand's two cards are not side by side"
    assert 0 <= first[1] - phone["brief"][3] <= 250, "the brief is not just above the hand"
    assert first[1] - phone["brief"][1] <= 844 / 2, "the brief and the top of the hand are not on one screen"
    desk = page_for(browser, s, 0, 1280)
    wide = desk.evaluate(REVEAL_BOXES_JS)
    desk.close()
    assert wide["brief"] is None and wide["lines"] is not None
    watcher = page_for(browser, s, None, 390, 844)  # a spectator has no hand: the reveal keeps its lines
    spectator = watcher.evaluate(REVEAL_BOXES_JS)
    watcher.close()
    assert spectator["brief"] is None and spectator["lines"] is not None
