"""The rules pages of Snowball Fighting and What a Snowball! on a desktop and on a phone: the
picture of the board is drawn and in view, every table fits the screen, nothing scrolls sideways,
and the text is large enough to read. Screenshots go to test-results/rules-<slug>-<width>.png."""
from __future__ import annotations

import pytest

from tests.browser.conftest import script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

SIZES = [(1280, 800), (390, 844)]

LAYOUT_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const board = document.querySelector('#rules-board .sf-map, #rules-board .was-village');
  const box = board ? board.getBoundingClientRect() : null;
  const text = '.rules-page > p, .rules-page section > p, .rules-table th, .rules-table td, .rules-table caption';
  const fonts = [...document.querySelectorAll(text)]
    .map(e => parseFloat(getComputedStyle(e).fontSize));
  return {
    width,
    scrollWidth: document.documentElement.scrollWidth,
    board: box && {left: box.left, right: box.right, width: box.width, height: box.height},
    boardShapes: board ? board.querySelectorAll('polygon').length : 0,
    tablesTooWide: [...document.querySelectorAll('.rules-table')]
      .filter(t => t.getBoundingClientRect().right > width + 0.5 || t.scrollWidth > t.clientWidth + 1).map(t => t.id),
    smallestFont: Math.min(...fonts),
    tables: document.querySelectorAll('.rules-table').length,
  };
}
"""


@pytest.mark.parametrize("slug", ["snowball-fighting", "what-a-snowball"])
def test_a_rules_page_shows_the_board_and_tables_that_fit_a_desktop_and_a_phone(browser, live_server_proc, shot,
                                                                                  slug):
    for width, height in SIZES:
        phone = width < 600
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        page = context.new_page()
        errors = script_errors_of(page, timeout_ms=8000)
        page.goto(f"{live_server_proc.url}/rules/{slug}/", wait_until="load")
        layout = page.evaluate(LAYOUT_JS)
        shot(page, f"rules-{slug}-{width}")
        assert layout["scrollWidth"] <= layout["width"], layout
        assert layout["tables"] >= 4 and layout["tablesTooWide"] == [], layout
        board = layout["board"]
        assert board is not None and layout["boardShapes"] >= 10, layout
        assert board["left"] >= 0 and board["right"] <= layout["width"] + 0.5, layout
        assert board["width"] >= min(300, 0.6 * width) and board["height"] >= 300, layout
        assert layout["smallestFont"] >= 13, layout
        page.locator("#rules-board").scroll_into_view_if_needed()
        assert page.locator("#rules-board .sf-map, #rules-board .was-village").is_visible()
        assert not errors, errors
        context.close()
