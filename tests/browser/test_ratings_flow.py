"""Two signed-in players play two rated games in the browser (each ended by a resignation);
then a player's page shows both games, a win and a loss and a rating, and the game's
leaderboard lists both players."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

PASSWORD = "snow-ball-1234x"


def _sign_up(page, url: str, username: str) -> None:
    page.goto(url + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.fill("input[name=display_name]", username.capitalize())
    with page.expect_navigation(wait_until="load"):
        page.click("main button[type=submit]")


def _play_and_resign(host, guest, url: str, resigner) -> None:
    """``host`` opens a Snowball Fight table, ``guest`` sits down, and ``resigner`` resigns."""
    host.goto(url + "/games/new/snowball-fight/")
    expect(host.locator("#rated-help")).to_contain_text("every seat is a signed-in player is rated")
    press_create(host)
    expect(host.locator("#rated-note")).to_contain_text("will be rated")
    guest.goto(host.url)
    guest.locator(".seat-row[data-seat='1'] button:has-text('Sit here')").click()
    expect(host.locator(".seat-row[data-seat='1']")).to_contain_text("Ben")
    expect(host.locator("#rated-note")).to_contain_text("will be rated")
    host.click("#start-game")
    expect(resigner.locator("#resign")).to_be_visible()
    resigner.once("dialog", lambda dialog: dialog.accept())
    resigner.click("#resign")
    expect(host.locator("#live")).to_contain_text("resigned")
    for page in (host, guest):
        expect(page.locator("#rating-changes .rating-change-row")).to_have_count(2)
        expect(page.locator("#rating-changes")).to_contain_text("Ana")


def test_a_players_page_and_the_leaderboard_after_two_rated_games(browser, live_server_proc, shot):
    url = live_server_proc.url
    ana, ben = (browser.new_context(viewport={"width": 1100, "height": 900}).new_page() for _ in range(2))
    errors = script_errors_of(ana, ben, timeout_ms=10000)
    _sign_up(ana, url, "ana")
    _sign_up(ben, url, "ben")

    _play_and_resign(ana, ben, url, resigner=ben)
    _play_and_resign(ana, ben, url, resigner=ana)
    shot(ben, "ratings-00-result")

    ana.click(".topbar a:has-text('My page')")
    expect(ana.locator("h1")).to_have_text("Ana")
    row = ana.locator("#player-games tr[data-game-type='snowball-fight']")
    expect(row.locator(".played")).to_have_text("2")
    expect(row.locator(".wins")).to_have_text("1")
    expect(row.locator(".losses")).to_have_text("1")
    expect(row.locator(".rating")).to_contain_text(re.compile(r"-?\d+\.\d \(2 rated\)"))
    recent = ana.locator("#recent-games li")
    expect(recent).to_have_count(2)
    expect(recent.nth(0)).to_contain_text("lost")
    expect(recent.nth(1)).to_contain_text("won")
    href = recent.nth(0).locator("a").get_attribute("href")
    assert re.fullmatch(r"/games/\d+/(review/)?", href), href
    shot(ana, "ratings-01-player-page")

    row.locator("a").click()
    expect(ana.locator("h1")).to_contain_text("Snowball Fight")
    board = ana.locator("#leaderboard tbody tr")
    expect(board).to_have_count(2)
    expect(board.locator(".played")).to_have_text(["2", "2"])
    expect(ana.locator("#leaderboard")).to_contain_text("Ana")
    expect(ana.locator("#leaderboard")).to_contain_text("Ben")
    shot(ana, "ratings-02-leaderboard")
    board.filter(has_text="Ben").locator("a").click()
    expect(ana.locator("h1")).to_have_text("Ben")
    expect(ana.locator("#player-games tr[data-game-type='snowball-fight'] .wins")).to_have_text("1")
    assert errors == []
