"""A forgotten password, reset in the browser with the link the site e-mails (printed on the
server's console, as in development), and the page's background down to the window's bottom."""
from __future__ import annotations

import re
import struct
import time
import zlib

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import script_errors_of
from tests.live.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.live]

PASSWORD = "snow-ball-1234x"
NEW_PASSWORD = "fresh-powder-5678"
PAGE_BACKGROUND = (0xFA, 0xFC, 0xFF)  # the end of body's gradient in site.css


@pytest.fixture
def console_server(tmp_path):
    """A live server whose console (where development e-mails go) is kept in a file."""
    server = LiveServer(tmp_path / "live.sqlite3", stdout_path=tmp_path / "console.txt")
    server.env["SNOWBALL_SITE_URL"] = server.url
    server.start()
    yield server
    server.stop()


def _reset_link(server: LiveServer, timeout: float = 10.0) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = re.search(re.escape(server.url) + r"/accounts/reset/\S+/", server.stdout_path.read_text())
        if found:
            return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no reset link on the console:\n{server.stdout_path.read_text()}")


def _pixel(page, x: int, y: int) -> tuple[int, int, int]:
    """The colour the page shows at (x, y) of the window: a one-pixel screenshot, whose single
    row's filter leaves its first pixel as it is."""
    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    chunks, at = {}, 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunks[kind] = chunks.get(kind, b"") + png[at + 8:at + 8 + length]
        at += 12 + length
    return tuple(zlib.decompress(chunks[b"IDAT"])[1:4])


def test_a_player_who_forgot_the_password_resets_it_from_the_log_in_page(browser, console_server, shot):
    page = browser.new_context(viewport={"width": 1100, "height": 1400}).new_page()
    errors = script_errors_of(page, timeout_ms=8000)
    url = console_server.url
    page.goto(url + "/accounts/signup/")
    page.fill("input[name=username]", "zoe")
    page.fill("input[name=email]", "zoe@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.click(".topbar button:has-text('Log out')")

    page.goto(url + "/accounts/login/")
    below_content = page.evaluate("document.documentElement.getBoundingClientRect().bottom") + 20
    assert below_content < 1300
    assert _pixel(page, 1000, below_content) == _pixel(page, 1000, 1390) == PAGE_BACKGROUND
    page.click("text=Forgot your password?")
    expect(page.locator("h1")).to_have_text("Forgot your password?")
    shot(page, "password-reset-form")
    page.fill("input[name=email]", "ZOE@example.com")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Check your e-mail")
    shot(page, "password-reset-sent")

    page.goto(_reset_link(console_server))
    expect(page.locator("h1")).to_have_text("Choose a new password")
    page.fill("input[name=new_password1]", NEW_PASSWORD)
    page.fill("input[name=new_password2]", NEW_PASSWORD)
    shot(page, "password-reset-choose")
    page.click("main button[type=submit]")
    expect(page.locator("h1")).to_have_text("Your new password is set")
    shot(page, "password-reset-done")

    page.click("main a:has-text('Log in')")
    page.fill("input[name=username]", "zoe")
    page.fill("input[name=password]", NEW_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator(".topbar .who")).to_have_text("zoe")
    assert not errors, errors
    page.context.close()
