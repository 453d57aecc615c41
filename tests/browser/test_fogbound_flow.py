"""Snowball Fighting's Fogbound variant in the browser: a three-seat game played to its end, one
player and two computer players, watched by a spectator.

The player picks "Fogbound" on the new-game form; the lobby line, the waiting room and the game's
header say so. In the garden the player sees only the hexes around it (the rest is drawn as fog),
writes a provisional move ("look before I leap"), shouts through the table-talk box (the shout
is listed among its sounds, not in the table talk) and stands still turn after turn until the
game ends by 12 VPs or after turn 10. The spectator sees fog over the whole garden and no
combatant while the game runs, and the whole garden with everyone on it once it is over.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import as_guest, create_table, live_version, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

HEXES = 180


def _wait_new_version(page, old: str, timeout: float = 8000) -> None:
    page.wait_for_function(f"document.getElementById('live').dataset.version !== '{old}'", timeout=timeout)


def _saved(page, click) -> None:
    """Do ``click`` and wait for the orders it saves to come back in a new version."""
    old = live_version(page)
    click()
    _wait_new_version(page, old)


def _provisional_move(page) -> None:
    """Segment 1: a step out of the corner, then ticked to stand still if it meets a hazard."""
    page.click('[data-sf-tool="move"]')
    here = page.locator("#sf-map .sf-token.is-me").get_attribute("data-hex")
    step = page.evaluate(f"SnowballFighting.neighbours('{here}').filter(h => h !== 'KITCHEN')")[0]
    _saved(page, lambda: page.locator(f'#sf-map .sf-hex[data-hex="{step}"] polygon').click(force=True))
    card = page.locator('[data-sf-card="1"]')
    box = card.locator("[data-sf-if-hazard]")
    expect(box).not_to_be_checked()
    _saved(page, box.check)
    expect(card.locator("[data-sf-if-hazard]")).to_be_checked()
    expect(card.locator("[data-sf-order-text]")).to_contain_text("stand still instead if the first step meets the pond")


def _stand_and_seal(page) -> None:
    if not page.locator("[data-sf-orders]").count():
        return  # running to the kitchen or drying socks: nothing to write
    first = page.locator("[data-sf-orders]").get_attribute("data-first") or "1"
    if not page.locator("#sf-ready").count():
        if page.evaluate("SnowballFighting.state().seg") != int(first):
            page.click(f'[data-sf-edit="{first}"]')
        _saved(page, lambda: page.click('[data-sf-tool="stand"]'))
    _saved(page, lambda: page.click("#sf-ready"))


def test_a_fogbound_game_with_two_computer_players_and_a_spectator_to_its_end(browser, live_server_proc, shot):
    base = live_server_proc.url
    contexts = [browser.new_context(viewport=size) for size in ({"width": 1280, "height": 900}, {"width": 390, "height": 844})]
    ana, sam = (c.new_page() for c in contexts)
    errors = script_errors_of(ana, sam, timeout_ms=10000)

    as_guest(ana, base + "/", "Ana")
    game_url = create_table(ana, "snowball-fighting", num_seats="3", opt_map="fogbound")
    expect(ana.locator("h1")).to_contain_text("Snowball Fighting: Fogbound")
    expect(ana.locator(".waiting-room")).to_contain_text("Fogbound")
    for bots in (1, 2):
        ana.locator("button:has-text('Add computer player')").first.click()
        expect(ana.locator(".waiting-room .tag:has-text('computer')")).to_have_count(bots)
    ana.goto(base + "/")
    expect(ana.locator("#lobby-lists")).to_contain_text("Snowball Fighting: Fogbound")
    ana.goto(game_url)
    ana.click("#start-game")

    as_guest(sam, game_url, "Sam")
    expect(sam.locator("#sf-board")).to_be_visible()

    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "setup")
    ana.fill("#sf-name", "Pea Souper")
    _saved(ana, lambda: ana.click("[data-sf-setup-ready]"))

    # turn 1: Ana sees the hexes around her and fog over the rest; the opening offers no throws
    expect(ana.locator("#sf-board")).to_have_attribute("data-phase", "orders")
    expect(ana.locator(".sf-fogtag")).to_contain_text("you see 2 hexes around you")
    fogged = ana.locator("#sf-map .sf-fog-hex").count()
    assert HEXES - 19 <= fogged <= HEXES - 6, fogged  # at most 19 hexes lie within 2 of hers, fewer in a corner
    expect(ana.locator("#sf-map .sf-token.is-me")).to_have_count(1)
    expect(ana.locator('#sf-map .sf-hex[data-hex="A1"]')).to_have_attribute("aria-label", re.compile("in the fog"))
    expect(ana.locator('[data-sf-card="1"]')).to_have_class(re.compile("is-editing"))
    expect(ana.locator("[data-sf-opening]")).to_contain_text("no snow is thrown yet")
    expect(ana.locator('[data-sf-tool="rattlesnake"]')).to_have_count(0)
    _provisional_move(ana)

    # the spectator sees fog over every hex and nobody in the garden
    expect(sam.locator(".sf-fogtag")).to_contain_text("spectators see only the garden")
    expect(sam.locator("#sf-map .sf-fog-hex")).to_have_count(HEXES)
    expect(sam.locator("#sf-map .sf-token")).to_have_count(0)
    expect(sam.locator("#talk-shout")).to_have_count(0)

    # a shout goes to the garden, not to the table talk
    ana.check("#talk-shout input")
    expect(ana.locator("#talk-text")).to_have_attribute("placeholder", re.compile("Shout in the garden"))
    old = live_version(ana)
    ana.fill("#talk-text", "Anyone out there?")
    ana.press("#talk-text", "Enter")
    _wait_new_version(ana, old)
    expect(ana.locator("[data-sf-sounds]")).to_contain_text("You shouted: “Anyone out there?”")
    expect(ana.locator("#talk")).not_to_contain_text("Anyone out there?")
    expect(sam.locator("#talk")).not_to_contain_text("Anyone out there?")
    expect(sam.locator("[data-sf-sounds]")).not_to_contain_text("Anyone out there?")
    ana.uncheck("#talk-shout input")
    shot(ana, "fog-01-turn1-player")
    shot(sam, "fog-02-turn1-spectator-phone")

    _saved(ana, lambda: ana.click("#sf-ready"))
    turns = 1
    while not ana.locator("[data-sf-result]").count():
        turns += 1
        assert turns <= 11, "no result after turn 10"
        turn = ana.locator("#sf-board").get_attribute("data-turn")
        if ana.locator("#sf-board").get_attribute("data-asked"):
            _stand_and_seal(ana)
        ana.wait_for_function(f"document.getElementById('sf-board').dataset.turn !== '{turn}' || "
                              "!!document.querySelector('[data-sf-result]')", timeout=15000)
        if turns == 4:
            expect(ana.locator("[data-sf-report]")).to_be_visible()
            shot(ana, "fog-03-turn4-player")

    for page in (ana, sam):
        result = page.locator("[data-sf-result]")
        expect(result).to_contain_text(re.compile(r"wins|Shared victory|No winner"))
        expect(result.locator("[data-final-seat]")).to_have_count(3)
        expect(page.locator(".sf-fogtag")).to_contain_text("the fog has lifted")
        expect(page.locator("#sf-map .sf-fog-hex")).to_have_count(0)
    scores = [int(ana.locator(f'[data-final-seat="{s}"] td').nth(1).inner_text()) for s in range(3)]
    reason = ana.locator("[data-sf-result] p").inner_text()
    assert max(scores) >= 12 or "turn" in reason, (scores, reason)
    expect(sam.locator("#sf-map .sf-token")).to_have_count(3)
    assert ana.locator("[data-sf-result]").inner_text() == sam.locator("[data-sf-result]").inner_text()
    shot(ana, "fog-04-result-player")
    shot(sam, "fog-05-result-spectator-phone")
    assert not errors, errors
    for context in contexts:
        context.close()
