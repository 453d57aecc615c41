"""The game page's "N watching" counts the people who have no seat at the game: a player who
resigned and watches on is still one of its players, not one more watcher."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, resign, script_errors_of, sit_down
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _watching(page, count: str) -> None:
    """The page says ``count`` watching, and still does a moment later (after the sockets
    opened and closed around it have been announced)."""
    expect(page.locator("#connection")).to_contain_text("Connected")
    expect(page.locator("#spectator-count")).to_have_text(count)
    page.wait_for_timeout(1500)
    expect(page.locator("#spectator-count")).to_have_text(count, timeout=100)


def test_a_player_who_resigned_is_not_counted_as_watching(browser, table_server, shot):
    ana, ben, eve = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(3))
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)
    as_guest(ana, table_server.url + "/", "Ana")
    game_url = create_table(ana, TABLE.slug, num_seats="3")
    sit_down(ben, game_url, "Ben", host=ana, seat=1)
    ana.locator(".seat-row[data-seat='2'] button:has-text('Add computer player')").click()
    expect(ana.locator("#start-game")).to_be_enabled()
    ana.click("#start-game")
    eve.goto(game_url)
    expect(eve.locator(".spectating")).to_have_text("You are watching")
    for page in (ana, ben, eve):
        _watching(page, "1")

    resign(ana)
    expect(ana.locator(".spectating")).to_have_text("You resigned: you are watching")
    for page in (ana, ben, eve):
        _watching(page, "1")
    shot(ana, "watching-01-after-resigning")

    ana.reload()  # her page's socket opens again, as hers, not a watcher's
    expect(ana.locator(".spectating")).to_have_text("You resigned: you are watching")
    for page in (ana, ben, eve):
        _watching(page, "1")
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()
