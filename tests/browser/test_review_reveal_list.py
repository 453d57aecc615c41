"""The review's Reveal list names each reveal by its whole log line: on a desktop the line chosen
reads whole in the closed list, on a phone the list stays on the screen, and no line is cut short."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A finished two-player Snowball Fight between ana and ben: its reveals read "Reveal: ana plays
# Dodge (Sneak Attack / Dodge); ben plays Upgrade (Snowball Attack / Upgrade)", some 90 characters.
MAKE_GAME = """
from games import services
from tests.platform.helpers import started_game, play_to_end
ana = services.register_user(username='ana', password='snow-ball-1234x')
ben = services.register_user(username='ben', password='snow-ball-1234x')
print(play_to_end(started_game(ana, ben).pk, {0: ana, 1: ben}).pk)
"""

# How wide the chosen line is in the select's own font, and how wide the select's text box is.
FIT_JS = """
(select) => {
  const style = getComputedStyle(select);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = style.font;
  const text = select.options[select.selectedIndex].text;
  const box = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;  // 20: the arrow
  return {text, needs: ctx.measureText(text).width, box, right: select.getBoundingClientRect().right,
          page: document.documentElement.scrollWidth, screen: window.innerWidth};
}
"""


def test_the_reveal_list_shows_whole_lines_on_a_desktop_and_fits_a_phone(browser, live_server_proc, shot):
    game_id = int(live_server_proc.manage("shell", "-c", MAKE_GAME).split()[-1])
    for name, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})):
        page = browser.new_context(viewport=viewport).new_page()
        errors = script_errors_of(page, timeout_ms=15000)
        page.goto(f"{live_server_proc.url}/games/{game_id}/review/")
        reveal = page.locator("#review-reveal")
        options = reveal.locator("option")
        lines = [options.nth(i).inner_text() for i in range(1, options.count())]
        assert any("Reveal:" in line and len(line) > 70 for line in lines), lines[:5]
        for i, line in enumerate(lines, start=1):
            title = options.nth(i).get_attribute("title")
            assert line.endswith(title) and "…" not in line, f"a reveal's line is cut short: {line!r}"
        longest = max(range(len(lines)), key=lambda i: len(lines[i]) if "Reveal:" in lines[i] else 0) + 1
        with page.expect_navigation():
            reveal.select_option(options.nth(longest).get_attribute("value"))
        expect(page.locator("#review-reveal")).to_be_visible()
        fit = page.locator("#review-reveal").evaluate(FIT_JS)
        assert fit["right"] <= fit["screen"] and fit["page"] <= fit["screen"], f"{name}: the list runs off the screen: {fit}"
        if name == "desktop":
            assert fit["needs"] <= fit["box"], f"the chosen reveal is cut off on a desktop: {fit}"
        shot(page, f"review-reveal-list-{name}")
        assert not errors
        page.context.close()
