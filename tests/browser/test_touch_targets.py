"""On a touch screen every control a player taps on a game's page is large enough for a fingertip:
at least 40 px high and wide (Resign, Send, the table talk's tabs, "Notify me on my turn", What a
Snowball!'s corner picks, a disclosure's summary...), and the page still fits the phone's width.

A phone context (``has_touch``, ``is_mobile``) makes the pointer coarse in Chromium, which is what
static/css/site.css sizes the controls by; a mouse keeps the denser layouts the layout tests hold."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, SCREENSHOT_TIMEOUT_MS, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALLEST = 40

# Every control shown in the page's main part (the boards' SVG drawings are not controls sized by
# CSS): its kind, label and size.
CONTROLS_JS = """
() => [...document.querySelectorAll(
    'main button, main .button, main [role=tab], main .tab, main select, main summary, main input[type=submit], main input[type=button]')]
  .filter(e => !e.closest('svg') && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => { const r = e.getBoundingClientRect();
    return {what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).trim().split(/\\s+/).join('.') : ''),
            label: (e.innerText || e.getAttribute('aria-label') || e.title || '').trim().slice(0, 40),
            width: r.width, height: r.height}; })
"""


@pytest.mark.parametrize("slug", ["snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball"])
def test_on_a_touch_screen_every_control_of_a_game_page_is_a_fingertip_high(browser, live_server_proc, slug):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=20000)
    page.goto(f"{live_server_proc.url}/learn/{slug}/")
    page.fill("input[name=display_name]", "Ana")
    with page.expect_navigation(wait_until="load"):
        page.click("text=Start learning")
    expect(page.locator(".prompt-bar")).to_be_visible()
    expect(page.locator("#resign")).to_be_visible()
    expect(page.locator("#talk-form button[type=submit]")).to_be_visible()
    expect(page.locator(".talk-tab").first).to_be_visible()
    assert page.evaluate("matchMedia('(pointer: coarse)').matches"), "the phone context has no coarse pointer"

    controls = page.evaluate(CONTROLS_JS)
    labels = {c["label"] for c in controls}
    assert {"Resign", "Send", "Table"} <= labels, labels
    if slug == "what-a-snowball":
        assert {"South-west", "South-east", "North-east", "North-west"} & labels, labels
    too_small = [f"{c['what']} {c['label']!r}: {c['width']:.0f} x {c['height']:.0f} px" for c in controls
                 if c["height"] < SMALLEST - 0.5 or c["width"] < SMALLEST - 0.5]
    # a picture of what a player sees (a full-page screenshot is drawn without the touch emulation)
    SHOTS.mkdir(exist_ok=True)
    page.locator("#talk").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"touch-targets-{slug}.png"), animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)
    assert not too_small, f"controls smaller than {SMALLEST} px on a touch screen:\n" + "\n".join(too_small)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page is wider than the phone"
    assert errors == []
    context.close()
