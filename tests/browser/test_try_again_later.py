"""A game page whose socket is closed with 4013 (the server could not reach its message broker,
docs/api.md) says so and loads itself again, where a socket closed otherwise shows it is
reconnecting. The socket is answered by the browser's own route, as the server answers it."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

GAME_SOCKET = re.compile(r"/ws/games/\d+/")


def _game_page(page, base: str) -> str:
    as_guest(page, base + "/", "Ana")
    page.click("a.game-type[href$='/snowball-fight/']")
    press_create(page)
    expect(page.locator("#connection")).to_have_text(re.compile("Connected"))
    return page.url


def test_a_socket_closed_with_4013_loads_the_page_again(browser, live_server_proc):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=8000)
    url = _game_page(page, live_server_proc.url)
    refused: list[str] = []
    passed: list[str] = []

    def refuse_twice(ws):
        if len(refused) < 2:
            refused.append(ws.url)
            ws.close(code=4013, reason="try again later")
        else:
            passed.append(ws.url)
            ws.connect_to_server()

    page.route_web_socket(GAME_SOCKET, refuse_twice)
    page.reload()
    expect(page.locator("#connection")).to_have_text(re.compile(r"The server is busy, trying again in [12] s"))
    page.screenshot(path="test-results/try-again-later.png")
    expect(page.locator("#connection")).to_have_text(re.compile(r"The server is busy, trying again in [2-3] s"),
                                                     timeout=5000)  # loaded again, refused again: a longer pause
    expect(page.locator("#connection")).to_have_text(re.compile("Connected"), timeout=10000)
    assert page.url == url
    assert len(refused) == 2 and len(passed) == 1
    assert page.evaluate("sessionStorage.getItem('snowball-try-again-later')") is None
    assert not errors, errors
    context.close()


def test_a_socket_closed_otherwise_shows_it_is_reconnecting(browser, live_server_proc):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=8000)
    _game_page(page, live_server_proc.url)
    page.route_web_socket(GAME_SOCKET, lambda ws: ws.close(code=4004, reason="no such game"))
    page.reload()
    expect(page.locator("#connection")).to_have_text("Reconnecting…")
    page.wait_for_timeout(1500)
    expect(page.locator("#connection")).to_have_text("Reconnecting…")  # no reload for other codes
    assert not errors, errors
    context.close()
