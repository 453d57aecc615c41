"""The waiting room's empty seats, as a player seated there sees them: filling them (the invite
link, a computer player) stands out, and taking one for yourself says it is a switch."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, script_errors_of, sit_down
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _row(page, seat: int):
    return page.locator(f".seat-row[data-seat='{seat}']")


def test_a_seated_player_is_offered_to_fill_the_empty_seats_and_to_switch_to_one(browser, table_server, shot):
    ana_context = browser.new_context(viewport={"width": 1280, "height": 900})
    ana_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=table_server.url)
    ana = ana_context.new_page()
    ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(ana, ben, timeout_ms=10000)
    as_guest(ana, table_server.url + "/", "Ana")
    create_table(ana, TABLE.slug, num_seats="3")

    fill = ana.locator("#fill-seats")
    expect(fill).to_contain_text("2 seats still empty: send friends the invite link, or add a computer player")
    expect(ana.locator(".waiting-room")).not_to_contain_text("Move here")
    for seat in (1, 2):
        add, switch = (_row(ana, seat).locator(f"button:has-text('{text}')")
                       for text in ("Add computer player", "Switch to this seat"))
        expect(add).not_to_have_class(re.compile(r"\bsecondary\b"))  # the way to fill the seat stands out
        expect(switch).to_have_class(re.compile(r"\bsecondary\b"))
    shot(ana, "waiting-room-01-empty-seats")

    fill.locator("button:has-text('Copy invite link')").click()
    expect(fill.locator("button.copy-invite")).to_have_text("Link copied")
    invite_url = ana.locator("#copy-invite").get_attribute("data-invite-url")
    assert "/invite/" in invite_url and ana.evaluate("navigator.clipboard.readText()") == invite_url

    _row(ana, 2).locator("button:has-text('Switch to this seat')").click()
    expect(_row(ana, 2)).to_contain_text("Ana (you)")
    expect(_row(ana, 0)).to_contain_text("empty")

    sit_down(ben, invite_url, "Ben", host=ana, seat=1)
    expect(fill).to_contain_text("1 seat still empty")
    _row(ana, 0).locator("button:has-text('Add computer player')").click()
    expect(_row(ana, 0)).to_contain_text("computer")
    expect(ana.locator("#fill-seats")).to_have_count(0)
    expect(ana.locator("#start-game")).to_be_enabled()
    assert errors == []
    for page in (ana, ben):
        page.context.close()
