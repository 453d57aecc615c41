"""The API document's pages in Chromium: they fit a phone, and a link to another document
opens it at the heading it names."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]


def test_the_api_document_fits_a_phone_and_its_links_lead_to_their_headings(browser, live_server_proc):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    widths = {}
    for path in ("/api/docs/", "/api/docs/games/engines/snowball_fighting/README.md"):
        page.goto(f"{live_server_proc.url}{path}", wait_until="load")
        widths[path] = page.evaluate("document.documentElement.scrollWidth")
    page.goto(f"{live_server_proc.url}/api/docs/", wait_until="load")
    page.locator('a[href^="/api/docs/docs/verifiable-dice.md"]').first.click()
    page.wait_for_load_state("load")
    landed = page.url
    heading = page.locator("h1").first.text_content()
    page.close()
    assert all(width <= 390 for width in widths.values()), widths
    assert landed.endswith("/api/docs/docs/verifiable-dice.md") and "dice" in heading.lower(), (landed, heading)
