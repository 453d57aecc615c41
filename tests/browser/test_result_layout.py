"""The result panel's layout in Chromium, rendered for a finished six-seat table (no server)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.engines.snowball_fighting import RULESET as R

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
ROOT = Path(__file__).resolve().parents[2]


def test_six_players_scores_wrap_to_a_second_line_without_a_blank_band(browser, make_user):
    """Six scores at 1366 px fill more than one line; the second line follows the first as closely
    as the lines of a paragraph do (it stood two lines' height below, as if a row were missing)."""
    from tests.platform.helpers import started_game

    ana = make_user("Ana")
    game = started_game(ana, game_type=R.slug, bots=5)
    names = ["Ana", "Computer 2", "Computer 3", "Computer 4", "Computer 5", "Computer 6"]
    payload = {"outcome": {"winners": [4], "scores": [7, 12, 14, 10, 15, 14], "reason": "Slush Puppy reached 15 VPs"},
               "players": [{"seat": i, "name": n} for i, n in enumerate(names)], "dice": {}}
    html = render_to_string("games/result.html", {"payload": payload, "game": game, "ruleset": R, "user": ana})
    css = (ROOT / "static/css/site.css").read_text()
    page = browser.new_page(viewport={"width": 1366, "height": 800})
    page.set_content(f"<html><head><style>{css}</style></head><body><main>{html}</main></body></html>")
    tops = page.evaluate("[...document.querySelectorAll('.score-col h3')].map(h => h.getBoundingClientRect().top)")
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.score-col h3')).lineHeight) || "
                         "document.querySelector('.score-col h3').getBoundingClientRect().height")
    page.close()
    rows = sorted(set(round(top) for top in tops))
    assert len(rows) == 2, tops
    assert rows[1] - rows[0] <= 2 * line, (rows, line)
