"""Table talk in five browser contexts: four players in two teams (one on a phone's width) and
a spectator. Each message shows up on exactly the pages of those who may read it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (as_guest, create_table, play_the_pile_to_its_end, press_create,
                                    script_errors_of, sit_down)
from tests.engines.table_engine import PAIRS_TABLE, TABLE

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}



def _tab(page, key: str):
    return page.locator(f".talk-tab[data-key='{key}']")


def _say(page, key: str, text: str) -> None:
    _tab(page, key).click()
    page.fill("#talk-text", text)
    page.press("#talk-text", "Enter")
    expect(page.locator("#talk-text")).to_have_value("")


def _talk_text(page) -> str:
    """Everything in the page's talk, the hidden channels' too."""
    return page.locator("#talk-channels").text_content()


def test_table_team_and_pair_messages_appear_exactly_where_they_should(browser, table_server, shot):
    base = table_server.url
    names = ("ana", "ben", "cy", "dee", "eve")
    pages = {name: browser.new_context(viewport=PHONE if name == "dee" else DESK).new_page() for name in names}
    errors = script_errors_of(*pages.values(), timeout_ms=15000)
    ana, ben, cy, dee, eve = pages.values()

    as_guest(ana, base + "/", "Ana")
    ana.click(f"a.game-type[href$='/new/{PAIRS_TABLE.slug}/']")
    expect(ana.locator("input[name=spectators_read_only]")).not_to_be_checked()
    ana.select_option("select[name=num_seats]", "4")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url = ana.url
    for seat, (page, name) in enumerate(((ben, "Ben"), (cy, "Cy"), (dee, "Dee")), start=1):
        as_guest(page, game_url, name)
        page.locator(f".seat-row[data-seat='{seat}'] button:has-text('Sit here')").click()
        expect(page.locator(f".seat-row[data-seat='{seat}']")).to_contain_text(f"{name} (you)")
    as_guest(eve, game_url, "Eve")
    expect(ana.locator("#seated-count")).to_have_text("4/4 seated")  # Red: Ana, Cy; Blue: Ben, Dee

    _say(ana, "table", "hello from the waiting room")
    for page in pages.values():
        expect(page.locator("#chat-table-lines")).to_contain_text("hello from the waiting room")
        expect(page.locator(".talk-tab")).to_have_count(1)  # only the table before the start
    shot(eve, "talk-01-waiting-room")

    ana.click("#start-game")
    for page in (ana, ben, cy, dee):
        expect(page.locator(".pile-board")).to_be_visible()
        expect(page.locator(".talk-tab")).to_have_count(5)  # table, team, three others
    expect(_tab(cy, "team:0")).to_have_text("Red team")
    expect(_tab(dee, "team:1")).to_have_text("Blue team")
    expect(eve.locator(".talk-tab")).to_have_count(1)

    _say(ana, "team:0", "red plan: take two")
    _say(ben, "pair:1-2", "psst Cy, from Ben")
    _say(dee, "pair:0-3", "Dee whispers to Ana")
    _say(eve, "table", "go Blue! <b>cheers</b>")
    readers = {
        "hello from the waiting room": set(names),
        "red plan: take two": {"ana", "cy"},
        "psst Cy, from Ben": {"ben", "cy"},
        "Dee whispers to Ana": {"ana", "dee"},
        "go Blue! <b>cheers</b>": set(names),
    }
    for name, page in pages.items():  # the last message is everyone's: what came before it has come
        expect(page.locator("#chat-table-lines")).to_contain_text("go Blue! <b>cheers</b>")
        talk, html = _talk_text(page), page.content()
        for text, who in readers.items():
            assert (text in talk) == (name in who), (name, text)
            if name not in who:
                assert text.split(":")[0] not in html, (name, text)
        assert page.locator("#talk b").count() == 0  # the spectator's markup is text, not HTML

    unread = cy.locator(".talk-tab[data-key='pair:1-2'] .unread")
    expect(unread).to_have_text("1")
    expect(cy.locator(".talk-tab[data-key='team:0'] .unread")).to_have_text("1")
    shot(cy, "talk-02-unread")
    cy.reload()  # a reload keeps the badges of the messages still unread
    expect(cy.locator("#connection")).to_contain_text("Connected")
    expect(unread).to_have_text("1")
    expect(cy.locator(".talk-tab[data-key='team:0'] .unread")).to_have_text("1")
    expect(cy.locator(".talk-tab[data-key='table'] .unread")).to_be_hidden()
    _tab(cy, "pair:1-2").click()
    expect(unread).to_be_hidden()
    expect(cy.locator("#chat-pair-1-2-lines")).to_be_visible()
    expect(cy.locator("#chat-pair-1-2-lines")).to_contain_text("psst Cy, from Ben")
    _say(cy, "pair:1-2", "thanks Ben")
    expect(ben.locator("#chat-pair-1-2-lines")).to_contain_text("thanks Ben")  # his open tab: nothing unread
    expect(ben.locator(".talk-tab[data-key='pair:1-2'] .unread")).to_be_hidden()
    expect(ana.locator(".talk-tab[data-key='pair:1-2']")).to_have_count(0)
    shot(cy, "talk-03-pair")

    _tab(dee, "pair:0-3").click()
    box = dee.locator("#talk").bounding_box()
    assert box["width"] <= PHONE["width"]
    assert dee.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(dee.locator("#talk-text")).to_have_attribute("placeholder", "Say something to Ana")
    shot(dee, "talk-04-phone")

    play_the_pile_to_its_end(ana, ben, cy, dee)
    for page in (ana, dee, eve):
        expect(page.locator(".result")).to_be_visible()
    _tab(ana, "pair:0-3").click()
    expect(ana.locator("#talk-text")).to_be_disabled()
    expect(ana.locator("#talk-closed")).to_have_text("the game is over: talk at the table")
    ana.locator("#chat-pair-0-3 button:has-text('Agree to publish')").click()
    expect(ana.locator("#chat-pair-0-3")).to_contain_text("You agreed to publish it")
    expect(eve.locator(".talk-tab")).to_have_count(1)
    _tab(dee, "pair:0-3").click()
    expect(dee.locator("#chat-pair-0-3")).to_contain_text("Ana agreed to publish it.")
    shot(dee, "talk-05-publish")
    dee.locator("#chat-pair-0-3 button:has-text('Agree to publish')").click()
    expect(_tab(eve, "pair:0-3")).to_have_text("Ana & Dee")
    expect(eve.locator(".talk-tab")).to_have_count(2)
    _tab(eve, "pair:0-3").click()
    expect(eve.locator("#chat-pair-0-3-lines")).to_contain_text("Dee whispers to Ana")
    assert "psst Cy" not in eve.content() and "red plan" not in eve.content()
    shot(eve, "talk-06-spectator-reads-a-published-pair")
    assert errors == []
    for page in pages.values():
        page.context.close()


def test_a_private_conversation_stays_with_both_players_after_one_resigns_and_is_published_after_the_end(
        browser, table_server, shot):
    """Ana and Ben (and a computer player) talk privately; Ben resigns. Both still read their
    conversation, also after a reload, closed for writing, with no offer to publish while the
    game goes on; Ben talks at the table as a spectator; after the end both agree and it is
    published."""
    ana, ben = (browser.new_context(viewport=DESK).new_page() for _ in range(2))
    errors = script_errors_of(ana, ben, timeout_ms=15000)
    as_guest(ana, table_server.url + "/", "Ana")
    game_url = create_table(ana, TABLE.slug, num_seats="3")
    sit_down(ben, game_url, "Ben", host=ana, seat=1)
    ana.locator(".seat-row[data-seat='2'] button:has-text('Add computer player')").click()
    ana.click("#start-game")
    for page in (ana, ben):
        expect(page.locator(".pile-board")).to_be_visible()
        expect(_tab(page, "pair:0-1")).to_have_count(1)
    _say(ana, "pair:0-1", "Ben, shall we share the pile?")
    expect(ben.locator("#chat-pair-0-1-lines")).to_contain_text("shall we share the pile?")
    _say(ben, "pair:0-1", "deal, Ana")
    expect(ana.locator("#chat-pair-0-1-lines")).to_contain_text("deal, Ana")

    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    expect(ana.locator("#log-lines")).to_contain_text("Ben resigns; a computer player takes their seat")
    for page, note in ((ana, "a computer player has Ben's seat"), (ben, "a computer player has your seat")):
        page.reload()
        expect(page.locator(".pile-board")).to_be_visible()
        _tab(page, "pair:0-1").click()
        expect(page.locator("#chat-pair-0-1-lines")).to_contain_text("shall we share the pile?")
        expect(page.locator("#chat-pair-0-1-lines")).to_contain_text("deal, Ana")
        expect(page.locator("#talk-text")).to_be_disabled()
        expect(page.locator("#talk-closed")).to_contain_text(note)
        expect(page.locator("#chat-pair-0-1 button:has-text('Agree to publish')")).to_have_count(0)
    expect(ben.locator(".talk-tab")).to_have_count(2)  # the table and Ana: no channel of the seat's computer player
    shot(ana, "talk-07-after-a-resign")
    _say(ben, "table", "watching from here on")
    expect(ana.locator("#chat-table-lines")).to_contain_text("watching from here on")
    expect(ana.locator("#chat-table-lines .talk-line", has_text="watching from here on")).to_contain_text("watching")

    play_the_pile_to_its_end(ana)
    expect(ana.locator(".result")).to_be_visible()
    ben.reload()
    _tab(ben, "pair:0-1").click()
    ben.locator("#chat-pair-0-1 button:has-text('Agree to publish')").click()
    expect(ben.locator("#chat-pair-0-1")).to_contain_text("You agreed to publish it")
    _tab(ana, "pair:0-1").click()
    expect(ana.locator("#chat-pair-0-1")).to_contain_text("Ben agreed to publish it.")
    ana.locator("#chat-pair-0-1 button:has-text('Agree to publish')").click()
    for page in (ana, ben):
        expect(page.locator("#chat-pair-0-1")).to_contain_text("Published: everyone who watches this game can read")
    shot(ben, "talk-08-published-after-a-resign")
    assert errors == []
    for page in (ana, ben):
        page.context.close()
