"""The site's top bar on a phone: it wraps between its links, never inside one."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Each part of the top bar that takes more than one line box (a link broken in two), by its text.
BROKEN_JS = """
() => [...document.querySelectorAll('.topbar .brand, .topbar nav > a, .topbar .who, .topbar .linklike')]
  .filter(e => new Set([...e.getClientRects()].map(r => Math.round(r.top))).size > 1)
  .map(e => e.textContent.trim())
"""


def test_a_guest_on_a_phone_sees_every_link_of_the_top_bar_whole(browser, live_server_proc):
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    as_guest(page, live_server_proc.url + "/", "Ana")
    expect(page.locator(".topbar")).to_contain_text("API tokens")
    assert page.evaluate(BROKEN_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    page.context.close()
