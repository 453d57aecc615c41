"""Two signed-in players at one table: the header says the game will be rated, then that it is
once it starts (without a reload); each name in the players bar, the result and the review leads
to that player's page. A guest's Learn game of Snowball Fighting runs no clock and its hints name
the page's own buttons and say why throws are not offered."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of
from tests.browser.test_ratings_flow import _sign_up

pytestmark = [pytest.mark.browser, pytest.mark.live]


def both_widths(page, shot, name: str) -> None:
    """Screenshots at 1280 and at 390 px wide (a phone), back at 1280 after."""
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        shot(page, f"{name}-{width}")


def test_names_lead_to_players_pages_and_the_header_says_the_game_is_rated(browser, live_server_proc, shot):
    url, width = live_server_proc.url, 1280
    ana, ben = (browser.new_context(viewport={"width": width, "height": 900}).new_page() for _ in range(2))
    errors = script_errors_of(ana, ben, timeout_ms=10000)
    _sign_up(ana, url, f"ana{width}")
    _sign_up(ben, url, f"ben{width}")
    ana.goto(url + "/games/new/snowball-fight/")
    press_create(ana)
    expect(ana.locator("#rated-tag")).to_have_text("Rated if all seats sign in")
    ben.goto(ana.url)
    ben.locator(".seat-row[data-seat='1'] button:has-text('Sit here')").click()
    expect(ana.locator(".seat-row[data-seat='1']")).to_contain_text("Ben")
    ana.click("#start-game")
    expect(ana.locator("#rated-tag")).to_have_text("Rated")
    expect(ben.locator("#rated-tag")).to_have_text("Rated")
    bar = ana.locator(".players a.player-link")
    expect(bar).to_have_count(2)
    expect(bar.filter(has_text="Ben")).to_have_attribute("href", f"/players/ben{width}/")
    both_widths(ana, shot, "links-01-game")

    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    expect(ana.locator(".result a.player-link").filter(has_text="Ben")).to_have_count(1)
    expect(ana.locator(".result .score-col a.player-link")).to_have_count(2)
    both_widths(ana, shot, "links-02-result")
    ana.goto(ana.url.rstrip("/") + "/review/")
    expect(ana.locator("#review-players a.player-link")).to_have_count(2)
    both_widths(ana, shot, "links-03-review")
    with ana.expect_navigation(wait_until="load"):
        ana.locator("#review-players a.player-link", has_text="Ben").click()
    expect(ana.locator("h1")).to_have_text(f"Ben{width}")
    assert errors == []
    for page in (ana, ben):
        page.context.close()


def test_a_learn_game_runs_no_clock_and_its_hints_name_the_buttons(browser, live_server_proc, shot):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(page, timeout_ms=15000)
    as_guest(page, live_server_proc.url + "/learn/snowball-fighting/", "Ana")
    expect(page.locator("#hints")).to_be_visible()
    expect(page.locator("#pace")).to_have_text("No clock · take your time")
    expect(page.locator("#rated-tag")).to_have_text("Unrated")
    expect(page.locator(".prompt-bar .countdown")).to_have_count(0)
    expect(page.locator("#hints .hints-clock")).to_contain_text("No clock runs")
    expect(page.locator("#hints .hints-options li[data-type='setup'] .hint-label")).to_have_text("Save")
    expect(page.locator(".players a.player-link")).to_have_count(0)
    page.fill("#sf-name", "Jack Frost")
    page.locator("[data-sf-setup-ready]").click()
    missing = page.locator("#hints .hints-missing")
    expect(missing.locator("li[data-type='reach'] .hint-label")).to_have_text("Hexes out of reach")
    expect(missing.locator("li[data-type='dirigible']")).to_contain_text("needs a Doubleday Dirigible")
    label = missing.locator("li[data-type='dirigible'] .hint-label").inner_text()
    expect(page.locator("[data-sf-tool='dirigible']")).to_contain_text(label)
    expect(page.locator("#hints .hints-options li[data-type='orders'] .hint-label")).to_have_text("Write · Stand still all turn, sealed")
    expect(page.locator("[data-sf-edit='2']")).to_have_text("Write")
    both_widths(page, shot, "learn-sfg-hints")
    assert errors == []
    page.context.close()
