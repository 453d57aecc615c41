"""A game by the day's page header: the connection badge reads as a connection, the deadline
shows when it falls in the player's own time zone, the "E-mail me when it is my turn" box
(or what to do to get one), and no turn alerts once the game is over. And the lobby's Join
seats a signed-in player and takes them to the table, and it offers to watch a full table,
not to join it."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, script_errors_of
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]

ZONE = "Asia/Tokyo"  # nine hours from the server's UTC, all year



def _sign_up(page, url: str, username: str, email: str) -> None:
    page.goto(url + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", "snow-ball-1234x")
    page.fill("input[name=password2]", "snow-ball-1234x")
    page.click("main button[type=submit]")


def test_a_game_by_the_day_shows_its_deadline_locally_and_offers_turn_emails(browser, table_server, shot):
    ana = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id=ZONE, locale="en-GB").new_page()
    ben, eve = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(2))
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)

    _sign_up(ana, table_server.url, "ana", "ana@example.com")
    game_url = create_table(ana, TABLE.slug, pace="daily:86400")
    as_guest(ben, game_url, "Ben")  # signed in as a guest, then Join from the lobby: seated at the table
    ben.goto(table_server.url + "/")
    with ben.expect_navigation(url=game_url, wait_until="load"):
        ben.locator("#lobby-lists li", has_text="Ana").locator("button", has_text="Join").click()
    expect(ana.locator(".seat-row[data-seat='1']")).to_contain_text("Ben")
    eve.goto(table_server.url + "/")
    full_table = eve.locator("#lobby-lists li", has_text="Ana")
    expect(full_table).to_contain_text("2/2 seated")
    expect(full_table.locator("a.button")).to_have_text("Watch")
    expect(full_table.locator("a.button", has_text="Join")).to_have_count(0)

    ana.click("#start-game")
    ben.reload()
    expect(ana.locator("#pace")).to_have_text("By the day · 1 day a turn")
    expect(ana.locator("#connection")).to_have_text("● Connected")
    countdown = ana.locator(".prompt-bar .countdown")
    expect(countdown).to_contain_text("h 59 min left · until")
    due = datetime.fromtimestamp(float(countdown.get_attribute("data-deadline")), ZoneInfo(ZONE))
    utc = datetime.fromtimestamp(float(countdown.get_attribute("data-deadline")), ZoneInfo("UTC"))
    shown = countdown.inner_text()
    assert f"{due:%H:%M}" in shown and f"{due.day} {due:%b}" in shown and "GMT+9" in shown, shown
    assert f"{utc:%H:%M}" not in shown, shown

    box = ana.locator("#email-on-turn input[name=email_on_turn]")
    expect(box).not_to_be_checked()
    box.check()
    expect(ana.locator("#email-on-turn [role=status]")).to_have_text("Saved: e-mails go to ana@example.com.")
    expect(ben.locator("#email-on-turn")).to_contain_text("To be e-mailed when it is your turn, register with your e-mail address")
    expect(ben.locator("#email-on-turn a")).to_have_attribute("href", "/accounts/signup/?next=" + game_url.split(table_server.url, 1)[1])
    for page in (ana, ben):
        expect(page.locator("#notify-me")).to_be_visible()
    shot(ana, "turn-alerts-01-by-the-day")
    ana.reload()
    expect(ana.locator("#email-on-turn input[name=email_on_turn]")).to_be_checked()

    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    for page in (ana, ben):
        expect(page.locator(".result")).to_be_visible()
        expect(page.locator("#notify-me")).to_be_hidden()
        expect(page.locator("#email-on-turn")).to_be_hidden()
    expect(ana.locator("#connection")).to_have_text("Game over")
    shot(ana, "turn-alerts-02-over")
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()
