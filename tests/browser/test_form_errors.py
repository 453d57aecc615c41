"""A form's errors stand out from its help text: sign-up, log-in."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

BAD = "rgb(179, 38, 30)"  # --bad in site.css


def _submit(page, url: str, fields: dict[str, str], error: str):
    """Fill a form's fields, submit it and return its visible error list holding ``error``."""
    page.goto(url)
    for name, value in fields.items():
        page.fill(f"input[name={name}]", value)
    page.click("button[type=submit]")
    found = page.locator(".errorlist", has_text=error)
    expect(found).to_be_visible()
    return found


def test_a_newcomer_sees_the_sign_up_and_log_in_errors_in_the_error_colour(browser, live_server_proc):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    mismatch = _submit(page, live_server_proc.url + "/accounts/signup/",
                       {"username": "zoe", "password1": "snow-ball-1234", "password2": "snow-ball-9999"},
                       "didn’t match")
    expect(mismatch).to_have_css("color", BAD)  # waits for the stylesheet, which a loaded machine serves late
    help_text = page.locator("li", has_text="at least 8 characters")
    assert help_text.evaluate("e => getComputedStyle(e).color") != BAD

    refused = _submit(page, live_server_proc.url + "/accounts/login/", {"username": "zoe", "password": "wrong"},
                      "correct username and password")
    expect(refused).to_have_css("color", BAD)
    assert not errors, errors
    page.context.close()
