"""A form's errors stand out from its help text: sign-up, log-in."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

BAD = "rgb(179, 38, 30)"  # --bad in site.css


def test_a_newcomer_sees_the_sign_up_and_log_in_errors_in_the_error_colour(browser, live_server_proc):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(page, timeout_ms=6000)
    page.goto(live_server_proc.url + "/accounts/signup/")
    page.fill("input[name=username]", "zoe")
    page.fill("input[name=password1]", "snow-ball-1234")
    page.fill("input[name=password2]", "snow-ball-9999")
    page.click("button[type=submit]")
    mismatch = page.locator(".errorlist", has_text="didn’t match")
    expect(mismatch).to_be_visible()
    assert mismatch.evaluate("e => getComputedStyle(e).color") == BAD
    help_text = page.locator("li", has_text="at least 8 characters")
    assert help_text.evaluate("e => getComputedStyle(e).color") != BAD

    page.goto(live_server_proc.url + "/accounts/login/")
    page.fill("input[name=username]", "zoe")
    page.fill("input[name=password]", "wrong")
    page.click("button[type=submit]")
    refused = page.locator(".errorlist", has_text="correct username and password")
    expect(refused).to_be_visible()
    assert refused.evaluate("e => getComputedStyle(e).color") == BAD
    assert not errors, errors
    page.context.close()
