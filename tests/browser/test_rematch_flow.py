"""A rematch in two browser contexts: Ben resigns, Ana offers the same table again, Ben
accepts in his page, and both pages move to the new game, where Ben now sits first."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, script_errors_of, sit_down

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_a_rematch_accepted_moves_both_pages_to_the_new_game_one_seat_round(browser, live_server_proc, shot):
    ana, ben = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(2))
    errors = script_errors_of(ana, ben, timeout_ms=15000)
    as_guest(ana, live_server_proc.url + "/", "Ana")
    game_url = create_table(ana, "snowball-fight")
    sit_down(ben, game_url, "Ben", host=ana, seat=1)
    ana.click("#start-game")
    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    for page in (ana, ben):
        expect(page.locator(".result")).to_be_visible()

    ana.click("#rematch-offer")
    expect(ana.locator(".rematch-state")).to_contain_text("Ana offered a rematch. Waiting for Ben.")
    expect(ben.locator(".rematch-state")).to_contain_text("Ana offered a rematch. Waiting for you.")
    expect(ana.locator("#rematch-accept")).to_have_count(0)
    shot(ben, "rematch-01-offered")
    ben.click("#rematch-accept")
    old_id = re.search(r"/games/(\d+)/", game_url).group(1)
    for page in (ana, ben):  # polled: a navigation the page replaces by another is no failure
        expect(page).to_have_url(re.compile(rf"/games/(?!{old_id}/)\d+/$"), timeout=10000)
        expect(page.locator("#live")).to_have_attribute("data-status", "active")
    new_url = ana.url
    assert ben.url == new_url and re.search(r"/games/\d+/$", new_url)
    expect(ana.locator("#live .player[data-seat='0']")).to_contain_text("Ben")
    expect(ana.locator("#live .player[data-seat='1']")).to_contain_text("Ana (you)")
    shot(ana, "rematch-02-new-game")

    ana.goto(game_url)  # the old game stays readable, with a link to the rematch
    expect(ana.locator("#rematch")).to_contain_text("The rematch has started")
    ana.wait_for_timeout(500)
    assert ana.url == game_url
    assert not errors, errors
    for page in (ana, ben):
        page.context.close()
