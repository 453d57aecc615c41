"""Every dropdown of a game's creation form shows its chosen answer whole, on a desktop and on a
phone: no answer (the Snowball Fight draft's, the Fogbound garden's) is cut off by the list's width."""
from __future__ import annotations

import pytest

from tests.browser.conftest import as_guest

pytestmark = [pytest.mark.browser, pytest.mark.live]

SLUGS = ("snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball")

# Each option of each select that is wider than the select's text box, in the select's own font.
CUT_OFF_JS = """
() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const select of document.querySelectorAll('main form.stacked select')) {
    if (!select.offsetParent) continue;  // hidden (the roster's rows are drawn by its script)
    const style = getComputedStyle(select);
    ctx.font = style.font;
    const box = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;  // 20: the arrow
    for (const option of select.options) {
      const needs = ctx.measureText(option.text).width;
      if (needs > box) cut.push(`${select.name}: "${option.text}" needs ${Math.ceil(needs)} px of ${Math.floor(box)}`);
    }
  }
  return {cut, page: document.documentElement.scrollWidth, screen: window.innerWidth};
}
"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_every_answer_of_a_new_game_dropdown_is_shown_whole(browser, live_server_proc, shot, viewport):
    page = browser.new_context(viewport=viewport).new_page()
    as_guest(page, live_server_proc.url + "/", "Ana")
    cut = []
    for slug in SLUGS:
        page.goto(f"{live_server_proc.url}/games/new/{slug}/")
        assert page.locator("main form.stacked select").count() >= 2
        found = page.evaluate(CUT_OFF_JS)
        assert found["page"] <= found["screen"], f"{slug}: the form is wider than the screen"
        cut += [f"{slug} {line}" for line in found["cut"]]
        if slug == "snowball-fight":
            shot(page, f"new-game-{slug}-{viewport['width']}")
    assert not cut, "\n".join(cut)
