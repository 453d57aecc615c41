"""How a Snowball Fight card reads on the page: its level and its points."""
from __future__ import annotations

import re

from django.template.loader import render_to_string

from games.engines.snowball_fight.cards import NO_EFFECT, card_dict


def _band_and_label(card_id: str) -> tuple[str, str]:
    html = render_to_string("games/snowball-fight/card.html", {"card": card_dict(card_id)})
    band = re.search(r'<div class="sbf-band">(.*?)</div>', html).group(1)
    label = re.search(r'aria-label="([^"]*)"', html).group(1)
    return re.sub(r"<[^>]+>", " ", band).split(), label


def test_a_no_effect_card_shows_its_points_and_no_level():
    band, label = _band_and_label(NO_EFFECT[0])
    assert band == ["0", "pts", NO_EFFECT[0]]
    assert label == "No Effect / No Effect, 0 points"
    assert "none" not in label.lower()


def test_a_card_with_a_level_shows_it_before_its_points():
    band, label = _band_and_label("c07")
    assert band == ["Advanced", "2", "pts", "c07"]
    assert label == "Slushball Attack / Dodge, advanced, 2 points"
