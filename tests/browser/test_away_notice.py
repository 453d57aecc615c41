"""A player who leaves a live game: the others are told how long they have to come back, then,
once that time is up, that their default choices are played now (the countdown's words go)."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, script_errors_of, sit_down
from tests.engines.table_engine import TABLE
from tests.live.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.fixture
def table_server(tmp_path):
    server = LiveServer(tmp_path / "away.sqlite3", extra_env={
        "DJANGO_SETTINGS_MODULE": "tests.browser.table_settings",
        "SNOWBALL_ABSENCE_GRACE": "4", "SNOWBALL_ABSENCE_NOTICE_DELAY": "0.5"})
    server.start()
    yield server
    server.stop()


def _ben_leaves(browser, table_server, ana):
    """Ana starts a table with Ben, whose only page then closes: the notice of him on Ana's page."""
    ben_context = browser.new_context(viewport={"width": 1280, "height": 900})
    ben = ben_context.new_page()
    as_guest(ana, table_server.url + "/", "Ana")
    game_url = create_table(ana, TABLE.slug)
    sit_down(ben, game_url, "Ben", host=ana, seat=1)
    ana.click("#start-game")
    expect(ben.locator("#live")).to_have_attribute("data-status", "active")
    ben_context.close()
    return ana.locator(".away-notice[data-seat='1']")


def test_the_notice_of_a_player_who_left_counts_down_then_says_what_happens(browser, table_server, shot):
    ana = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone: the notice wraps
    errors = script_errors_of(ana, timeout_ms=15000)
    notice = _ben_leaves(browser, table_server, ana)
    expect(notice).to_contain_text("Ben left - 4 s to come back", timeout=10000)
    expect(notice.locator(".countdown")).to_be_visible()
    shot(ana, "away-01-counting")
    expect(notice).to_contain_text("Ben did not come back in time: their default choices are played now",
                                   timeout=10000)
    expect(notice.get_by_text("to come back")).to_be_hidden()
    box = notice.bounding_box()
    assert box is not None and box["width"] <= 390
    shot(ana, "away-02-time-up")
    assert errors == []


SLOW_BY_SECONDS = 90


def test_a_page_whose_clock_is_slow_still_says_the_time_to_come_back_is_up(browser, table_server, shot):
    """Ana's computer's clock is a minute and a half slow: once the server's time to come back
    is up, her page says so, not "Ben left - 4 s to come back" for a minute and a half more."""
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ana.clock.install(time=time.time() - SLOW_BY_SECONDS)
    errors = script_errors_of(ana, timeout_ms=15000)
    notice = _ben_leaves(browser, table_server, ana)
    expect(notice).to_contain_text("Ben left - 4 s to come back", timeout=10000)
    expect(notice.locator(".countdown")).to_contain_text(re.compile(r"^[1-4]s left$"))
    expect(notice).to_contain_text("Ben did not come back in time: their default choices are played now",
                                   timeout=10000)
    expect(notice.get_by_text("to come back")).to_be_hidden()
    shot(ana, "away-03-slow-clock-time-up")
    assert errors == []
