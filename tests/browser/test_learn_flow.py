"""Learn to play from a rules page: one click starts a game against a computer player whose page
shows hints for the player's prompt; "Show hints" switched off hides them, through the next
redraw and a reload, and on again shows them."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_a_learn_game_opened_from_the_rules_page_shows_hints_until_they_are_switched_off(browser, live_server_proc, shot):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(page, timeout_ms=15000)
    as_guest(page, live_server_proc.url + "/", "Ana")
    page.goto(live_server_proc.url + "/rules/snowball-fight/")
    with page.expect_navigation(wait_until="load"):
        page.click(".learn-button")

    expect(page.locator(".player.bot")).to_have_count(1)
    hints = page.locator("#hints")
    expect(hints).to_be_visible()
    prompt = page.locator(".prompt-bar strong").inner_text()
    expect(hints).to_contain_text(f"What you are asked: {prompt}")
    expect(hints.locator(".hints-options li[data-type='choose']")).to_contain_text("rules")
    href = hints.locator(".hints-options li[data-type='choose'] a").get_attribute("href")
    assert href == "/rules/snowball-fight/#hidden-cards"
    shot(page, "learn-01-hints")

    page.uncheck("#hints-on")
    expect(page.locator("#hints-body")).to_be_hidden()
    version = live_version(page)
    page.locator("#live [ws-send]:not([disabled])").first.click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)
    expect(page.locator("#hints-body")).to_be_hidden()
    page.reload()
    expect(page.locator("#hints-on")).not_to_be_checked()
    expect(page.locator("#hints-body")).to_be_hidden()
    shot(page, "learn-02-hints-off")

    page.check("#hints-on")
    expect(page.locator("#hints-body")).to_be_visible()
    assert errors == []
    page.context.close()


def test_on_a_phone_the_question_starts_in_the_top_half_of_the_first_screen(browser, live_server_proc, shot):
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    as_guest(page, live_server_proc.url + "/", "Ana")
    page.goto(live_server_proc.url + "/rules/what-a-snowball/")
    with page.expect_navigation(wait_until="load"):
        page.click(".learn-button")
    expect(page.locator(".prompt-bar")).to_be_visible()
    # read in one step: the socket's first view may redraw the bar between two of Playwright's
    top = page.wait_for_function("""() => { const bar = document.querySelector('.prompt-bar');
        const box = bar && bar.getBoundingClientRect(); return box && box.height ? box.top + scrollY : null; }""").json_value()
    shot(page, "learn-phone-first-screen")
    assert top < 844 / 2, f"the question starts {top:.0f} px down a 844 px screen"
    page.context.close()
