"""A game by the day, chosen on the create form: its pace in the lobby and on the page, the
title telling whose turn it is, and a player resigning after confirming."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]



def test_a_game_by_the_day_is_created_played_and_resigned(browser, table_server, shot):
    ana, ben, eve = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(3))
    errors = script_errors_of(ana, ben, eve, timeout_ms=10000)

    as_guest(ana, table_server.url + "/", "Ana")
    ana.click(f"a.game-type[href$='/new/{TABLE.slug}/']")
    ana.select_option("select[name=pace]", "daily:14400")
    shot(ana, "pace-01-create-form")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url

    as_guest(eve, table_server.url + "/", "Eve")
    expect(eve.locator("#lobby-lists li", has_text="Ana")).to_contain_text("By the day · 4 h a turn")

    as_guest(ben, game_url, "Ben")
    ben.locator(".seat-row[data-seat='1'] button:has-text('Sit here')").click()
    expect(ana.locator(".seat-row[data-seat='1']")).to_contain_text("Ben")
    ana.click("#start-game")
    for page in (ana, ben):
        expect(page.locator(".pile-board")).to_be_visible()
        expect(page.locator("#pace")).to_have_text("By the day · 4 h a turn")
    expect(ana).to_have_title(f"(Your turn) {TABLE.name} #{game_url.rstrip('/').rsplit('/', 1)[1]} · Snowball")
    assert not ben.title().startswith("(Your turn)")
    expect(ana.locator(".prompt-bar .countdown")).to_contain_text("h")  # hours left, not seconds
    expect(ben.locator(".prompt-bar.idle")).to_contain_text("Waiting for Ana")  # the others see her clock too
    expect(ben.locator(".prompt-bar.idle .countdown")).to_contain_text("h")
    shot(ben, "pace-02-waiting")
    shot(ana, "pace-02-your-turn")

    messages: list[str] = []
    ben.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.accept()))
    ben.click("#resign")
    for page in (ana, ben):
        expect(page.locator(".result")).to_be_visible()
    assert messages and "You lose it" in messages[0]
    expect(ana.locator(".result-line")).to_contain_text("Ana wins!")
    expect(ana.locator(".result-line")).to_contain_text("Ben resigned")
    expect(ana.locator("#log-lines li").first).to_have_text("Ben resigns")
    expect(ana.locator(".players .player[data-seat='1']")).not_to_contain_text("computer")
    expect(ana.locator("#resign")).to_have_count(0)
    assert not ana.title().startswith("(Your turn)")
    shot(ana, "pace-03-resigned")
    assert errors == []
    for page in (ana, ben, eve):
        page.context.close()
