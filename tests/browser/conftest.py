"""Playwright on Debian's Chromium (never a downloaded browser), against a live daphne."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.live.conftest import LiveServer, live_server_proc  # noqa: F401  (fixture)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SHOTS = Path(__file__).resolve().parents[2] / "test-results"
SCREENSHOT_TIMEOUT_MS = 60_000


# ``make test-full-games``: the flows that play a whole game play it to its natural end; in
# ``make test`` they play a few rounds through the same pages, then a player resigns.
FULL_GAME_FLOWS = os.environ.get("SNOWBALL_FULL_GAME_FLOWS", "") not in ("", "0")


def resign(page) -> None:
    """Resign from the game on ``page``, accepting the page's confirmation."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("SNOWBALL_REQUIRE_BROWSER", "") not in ("", "0"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def table_server(tmp_path):
    """A server of its own for a test that seats players at tables of any size
    (tests.browser.table_settings)."""
    server = LiveServer(tmp_path / "tables.sqlite3", extra_env={"DJANGO_SETTINGS_MODULE": "tests.browser.table_settings"})
    server.start()
    yield server
    server.stop()


@pytest.fixture
def shot():
    SHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> None:
        """A full-page screenshot with CSS animations run to their end (a reveal's cards
        flip in over 0.6 s), so the picture shows what a player sees once they settle.

        A picture is a record for a person to look at, not a check of the page's speed: it
        has its own generous wait, not the flow's (a long page drawn at a phone's width took
        over 6 s on a slow, loaded host)."""
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled",
                        timeout=SCREENSHOT_TIMEOUT_MS)

    return take


# A phone's screen, as a browser context's options; the password of the users the phone tests sign in as.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PHONE_TEST_PASSWORD = "snow-ball-1234x"


def log_in(page, url: str, name: str, password: str) -> None:
    """Sign in on the site at ``url`` as ``name`` and wait for the page it leads to."""
    page.goto(url + "/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    with page.expect_navigation(wait_until="load"):
        page.click("form.stacked button[type=submit]")


def open_game(page, url: str) -> None:
    """Open a game's page, wait for its socket to be live, and show its top."""
    page.goto(url)
    expect(page.locator("#connection")).to_have_class(re.compile(r"\bconn-live\b"))
    page.evaluate("() => window.scrollTo(0, 0)")


def as_guest(page, url: str, name: str) -> None:
    """Open ``url`` and come in as a guest called ``name`` (the page asks for a name first), and
    wait for the page it leads to to load (its style sheet laid out, so a click lands where a
    player would see the button)."""
    page.goto(url)
    page.fill("input[name=display_name]", name)
    with page.expect_navigation(wait_until="load"):
        page.click(".guest-form button[type=submit]")


def create_table(page, slug: str, **choices: str) -> str:
    """From the home page: open ``slug``'s creation form by its link, choose ``choices``
    (select name -> value), create the table and wait for its waiting room; its URL."""
    page.click(f"a.game-type[href$='/new/{slug}/']")
    for name, value in choices.items():
        page.select_option(f"select[name={name}]", value)
    press_create(page)
    expect(page.locator(".waiting-room")).to_be_visible()
    return page.url


def press_create(page) -> None:
    """Press a creation form's Create game and wait until the page it leads to has loaded: its
    buttons are wired (htmx), so the next click is heard, as a person's would be."""
    with page.expect_navigation(wait_until="load"):
        page.click("button:has-text('Create game')")


def sit_down(page, game_url: str, name: str, *, host, seat: int | None = None) -> None:
    """Come to the table at ``game_url`` as the guest ``name`` and take ``seat`` (the first
    free one when None), then wait until the ``host``'s waiting room shows it."""
    as_guest(page, game_url, name)
    row = "" if seat is None else f".seat-row[data-seat='{seat}'] "
    page.locator(f"{row}button:has-text('Sit here')").first.click()
    expect(host.locator(".waiting-room" if seat is None else f".seat-row[data-seat='{seat}']")).to_contain_text(name)


# Presses the first button the page offers that is not a plain choice (a game moves on fastest).
DECISIVE_JS = """
() => {
  const buttons = [...document.querySelectorAll('#live [ws-send]:not([disabled])')];
  const kind = b => { try { return JSON.parse(JSON.parse(b.getAttribute('hx-vals')).action).type } catch (e) { return '' } };
  const pick = buttons.find(b => kind(b) !== 'choose') || buttons[0];
  if (!pick) return null;
  pick.click();
  return kind(pick);
}
"""


# Presses the first button that sends an action (the pile game's "take"); false when none shows.
TAKE_JS = """
() => {
  const button = document.querySelector('#live [ws-send]:not([disabled])');
  if (!button) return false;
  button.click();
  return true;
}
"""


def play_the_pile_to_its_end(*pages, seconds: float = 120) -> None:
    """Take snowballs on every page, at a player's pace, until each page shows the result.

    However slow a loaded machine makes the game, this waits by the clock, not by a count of
    clicks: a click on a button whose new view has not come yet is refused as stale, and a
    button clicked as fast as the page answers sent frames past the socket's flood limit."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(page.locator(".result").count() for page in pages):
            return
        for page in pages:
            page.evaluate(TAKE_JS)
        pages[0].wait_for_timeout(100)


def live_version(page) -> str:
    """The game version the page shows now."""
    return page.locator("#live").get_attribute("data-version")


def script_errors_of(*pages, timeout_ms: int) -> list[str]:
    """The list every script error of ``pages`` is added to (a flow asserts it stays empty),
    after giving each page ``timeout_ms`` as the default wait of its actions."""
    errors: list[str] = []
    for page in pages:
        page.set_default_timeout(timeout_ms)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors
