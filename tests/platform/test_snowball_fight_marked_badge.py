"""A Snowball Fight card only marked (revisable until locked) is told to the others as marked, not
as a final choice: the board says "marked a card, not locked in" while the bar over it still asks the
player to act, then "locked in"; which card stays hidden, and the Learn hint says what the others see."""
from __future__ import annotations

import re

from django.template.loader import render_to_string

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight.hints import hints
from tests.engines.test_snowball_fight_helpers import table


def _head(state, viewer, seat=0) -> str:
    page = render_to_string("games/snowball-fight/board.html", {
        "view": RULESET.view(state, viewer), "seat": viewer, "legal": [], "prompt": None,
        "names": ["Ana", "Ben"], "version": 1})
    head = re.search(rf'<div class="sbf-seat" data-seat="{seat}">.*?</header>', page, re.S)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", head).split()), head


def test_the_others_see_a_marked_card_as_marked_not_chosen_and_then_locked_in():
    state = table(hands=(["c01", "c03"], ["c02", "c04"]))
    state, _ = RULESET.apply(state, 0, {"type": "choose", "card": "c01", "side": "top"})
    assert 0 in RULESET.to_act(state)  # still asked: the bar over the board says "to act"
    for viewer in (1, None):
        words, head = _head(state, viewer)
        assert "marked a card, not locked in" in words and "has chosen" not in words
        assert "c01" not in head
    assert "marked, not locked in" in _head(state, 0)[0]
    state, _ = RULESET.apply(state, 0, {"type": "lock"})
    for viewer in (1, None):
        words, _ = _head(state, viewer)
        assert "locked in" in words and "marked" not in words


def test_the_hint_for_marking_says_the_others_see_that_a_card_is_marked_never_which():
    state = table(hands=(["c01", "c03"], ["c02", "c04"]))
    found = hints(prompt=RULESET.to_act(state)[0].as_dict(), legal_actions=RULESET.legal_actions(state, 0),
                  state=state, seat=0)
    does = next(o["does"] for o in found["options"] if o["type"] == "choose")
    assert "Nobody sees it" not in does
    assert "The others see that you have marked a card, never which" in does
