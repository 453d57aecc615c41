"""The waiting room's empty seats, as a player seated there sees them: filling them (the invite
link, a computer player) stands out, and taking one for yourself says it is a switch."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, press_create, script_errors_of, sit_down
from tests.engines.table_engine import TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]


ABOVE_THE_SEATS_JS = """() => document.getElementById('join-game').getBoundingClientRect().bottom
  <= document.querySelector('.seat-row').getBoundingClientRect().top"""


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


def test_a_friend_who_follows_the_invite_link_is_offered_to_join_the_game(browser, table_server, shot):
    """Ben, given the invite link of a private table with a seat free, comes in as a guest and
    is offered first of all to join; he watches until he presses it. Once the table is full,
    Cy, who came by the link too, is offered nothing to join."""
    ana, ben = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(2))
    cy = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone
    errors = script_errors_of(ana, ben, cy, timeout_ms=10000)
    as_guest(ana, table_server.url + "/", "Ana")
    ana.click(f"a.game-type[href$='/new/{TABLE.slug}/']")
    ana.select_option("select[name=num_seats]", "3")
    ana.uncheck("input[name=is_public]")
    press_create(ana)
    invite_url = ana.locator("#copy-invite").get_attribute("data-invite-url")
    expect(ana.locator("#join-offer")).to_have_count(0)  # she is seated

    as_guest(ben, invite_url, "Ben")
    offer = ben.locator("#join-offer")
    expect(offer).to_contain_text("2 seats are free: take the first one, or pick a seat below. Until then you are watching.")
    join = offer.locator("button:has-text('Join this game')")
    expect(join).not_to_have_class(re.compile(r"\bsecondary\b"))
    assert ben.evaluate(ABOVE_THE_SEATS_JS)  # in one step: the socket's first view may redraw the room
    ben.wait_for_timeout(500)
    expect(_row(ana, 1)).to_contain_text("empty")  # nobody is seated for having opened the link
    shot(ben, "waiting-room-02-join-offer")

    join.click()
    expect(_row(ben, 1)).to_contain_text("Ben (you)")
    expect(_row(ana, 1)).to_contain_text("Ben")
    expect(ben.locator("#join-offer")).to_have_count(0)

    as_guest(cy, invite_url, "Cy")
    expect(cy.locator("#join-offer")).to_contain_text("A seat is free: take it")
    shot(cy, "waiting-room-03-join-offer-phone")
    ana.locator(".seat-row[data-seat='2'] button:has-text('Add computer player')").click()
    expect(cy.locator("#seated-count")).to_have_text("3/3 seated")
    expect(cy.locator("#join-offer")).to_have_count(0)
    assert errors == []
    for page in (ana, ben, cy):
        page.context.close()
