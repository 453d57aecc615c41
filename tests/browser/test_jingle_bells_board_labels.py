"""The Jingle Bells table's labels in Chromium, on a board rendered from a real state (no server)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.engines.jingle_bells import RULESET as R
from tests.engines.test_jingle_bells_engine import act, battle

pytestmark = [pytest.mark.browser]
ROOT = Path(__file__).resolve().parents[2]

# Each drawn label that covers a base on the table, as "label text over piece name".
COVERED_JS = """
() => {
  const labels = [...document.querySelectorAll('#jb-over text')];
  const out = [];
  for (const piece of document.querySelectorAll('#jb-table .jb-piece')) {
    const base = piece.querySelector('.jb-base').getBoundingClientRect();
    const cx = (base.left + base.right) / 2, cy = (base.top + base.bottom) / 2, r = base.width / 2;
    for (const label of labels) {
      const box = label.getBoundingClientRect();
      const nx = Math.max(box.left, Math.min(cx, box.right)), ny = Math.max(box.top, Math.min(cy, box.bottom));
      if (Math.hypot(nx - cx, ny - cy) < r - 1) out.push(label.textContent + ' over ' + piece.dataset.name);
    }
  }
  return out;
}
"""


def page_for(browser, state, seat, **context):
    """The board of ``state`` for ``seat``, alone in a page (in a context of its own with ``context``)."""
    to_act = R.to_act(state)
    board = render_to_string("games/jingle-bells/board.html", {
        "view": R.view(state, seat), "seat": seat, "legal": R.legal_actions(state, seat) if seat in to_act else [],
        "prompt": to_act[seat].as_dict() if seat in to_act else None, "names": ["Ana", "Ben"], "version": 4,
        "payload": {"outcome": None}})
    board = re.sub(r"<script>window\.JingleBells\|\|.*?</script>", "", board)
    css = (ROOT / "static/css/site.css").read_text() + (ROOT / "static/css/jingle-bells.css").read_text()
    script = (ROOT / "static/js/jingle-bells.js").read_text()
    page = browser.new_context(**context).new_page() if context else browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_content(f"<html><head><style>{css}</style></head><body><main><div id='live' data-version='4'>{board}"
                     f"</div></main><script>{script}</script></body></html>")
    return page


@pytest.mark.parametrize("seat", [0, 1])
def test_a_throw_among_close_pieces_labels_no_base(browser, seat):
    """Paul throws at Bianca 4.5 cm away, with Robert, Natasha and Emily within 3 cm of them."""
    s = battle({"Paul": [5], "Bianca": [3, 5], "Natasha": [2]},
               {"Paul": [20.0, 15.0], "Bianca": [24.5, 15.5], "Natasha": [23.3, 18.2], "Robert": [21.6, 12.6],
                "Emily": [26.0, 13.2]})
    s, _ = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    page = page_for(browser, s, seat)
    assert page.locator("#jb-over .jb-los.is-flying").count() == 1
    assert page.locator("#jb-over .jb-los-label").text_content() == "snowball in the air"
    assert page.locator("#jb-over .jb-name").count() >= 2
    covered = page.evaluate(COVERED_JS)
    page.close()
    assert covered == []


def test_a_throw_in_the_open_keeps_its_labels_by_the_line_and_the_pieces(browser):
    s = battle({"Paul": [5], "Bianca": [3, 5]}, {"Paul": [18.0, 15.0], "Bianca": [32.0, 15.0]})
    s, _ = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    page = page_for(browser, s, 0)
    label = page.locator("#jb-over .jb-los-label")
    assert (label.get_attribute("x"), label.get_attribute("y")) == ("25", "14.5")
    assert page.locator("#jb-over .jb-leader").count() == 0
    assert page.evaluate(COVERED_JS) == []
    page.close()


OVERLAPS_JS = """
(selector) => {
  const out = [];
  const boxes = [...document.querySelectorAll('#jb-table .jb-obs-label')].map(l => [l.textContent, l.getBoundingClientRect()]);
  for (const label of document.querySelectorAll(selector)) {
    const a = label.getBoundingClientRect();
    for (const [name, b] of boxes) {
      if (Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top))
        out.push(label.textContent + ' over ' + name);
    }
  }
  return out;
}
"""


def test_a_selected_characters_ring_labels_keep_off_the_obstructions_labels(browser):
    """Paul stands one Move below a bird bath: the Move ring's label, at the ring's top, would
    sit on the bird bath's own label."""
    bath = {"id": "t0", "label": "bird bath", "points": [[18.5, 3.5], [21.5, 3.5], [21.5, 6.5], [18.5, 6.5]]}
    s = battle({"Paul": [5]}, {"Paul": [20.0, 14.3]}, obstructions=[bath])
    page = page_for(browser, s, 0)
    page.locator('#jb-board .jb-row[data-select="Paul"], #jb-board [data-select="Paul"]').first.click()
    assert page.locator("#jb-over .jb-ring-label.m").count() == 1
    assert page.evaluate(OVERLAPS_JS, "#jb-over .jb-ring-label") == []
    page.close()
