"""Reviewing a game in the browser: two players step it back and forth mid-game (a
spectator's eyes only, their hands hidden) and after the end (each from its own seat, its
hand shown), share a step's link, and check the dice against the commitment shown at the start."""
from __future__ import annotations

import hashlib
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DECISIVE_JS, as_guest, create_table, script_errors_of, sit_down

pytestmark = [pytest.mark.browser, pytest.mark.live]

DESK = {"width": 1280, "height": 900}


def _step_of(page) -> int:
    return int(page.locator("#review").get_attribute("data-step"))


def _expect_at(page, step: int, seat: int | None) -> None:
    """The page shows ``step`` from ``seat``'s eyes, and its address says so (a link to share)."""
    expect(page.locator("#review")).to_have_attribute("data-step", str(step))
    expect(page.locator("#review")).to_have_attribute("data-seat", "" if seat is None else str(seat))
    query = parse_qs(urlparse(page.url).query)
    assert query.get("step") == [str(step)] and query.get("seat", ["spectator"]) in ([str(seat)], ["spectator"])


def test_two_players_review_a_game_in_play_and_after_its_end(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana, ben, eve = (browser.new_context(viewport=DESK).new_page() for _ in range(3))
    errors = script_errors_of(ana, ben, eve, timeout_ms=15000)

    as_guest(ana, base + "/", "Ana")
    game_url = create_table(ana, "snowball-fight")
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)
    sit_down(ben, game_url, "Ben", host=ana)
    ben.click("#start-game")
    commitment = ana.locator("#dice-commitment code").get_attribute("data-commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert ben.locator("#dice-commitment code").get_attribute("data-commitment") == commitment

    for _ in range(400):  # play until a few cards have been revealed
        if ana.locator("#log-lines").inner_text().count("reveal") >= 2 or len(ana.locator("#log-lines li").all()) > 20:
            break
        moved = [page.evaluate(DECISIVE_JS) for page in (ana, ben)]
        ana.wait_for_timeout(120 if any(moved) else 250)
    expect(ana.locator(".sbf-me")).to_be_visible()

    # mid-game: a review is a spectator's, whoever opens it; no hand, no seed
    review = ana.context.new_page()
    review.goto(f"{base}/games/{game_id}/review/")
    expect(review.locator(".review-in-play")).to_be_visible()
    expect(review.locator("#review-seat")).to_be_disabled()
    last = _step_of(review)
    assert last > 3
    expect(review.locator(".review-board .sbf-me")).to_have_count(0)
    expect(review.locator(".review-board .sbf-bottom")).to_have_attribute("aria-label", "Player")
    assert "Your hand" not in review.locator(".review-board").inner_text()
    expect(review.locator("#dice-commitment")).to_have_text(commitment)
    expect(review.locator("#dice-seed")).to_have_count(0)
    review.click("#review-prev")
    _expect_at(review, last - 1, None)
    review.keyboard.press("ArrowLeft")
    _expect_at(review, last - 2, None)
    review.goto(f"{base}/games/{game_id}/review/?step=2&seat=0")  # a seat's eyes are refused in play
    expect(review.locator(".flash-error")).to_contain_text("once the game is over")
    shot(review, "review-01-in-play")

    ben.once("dialog", lambda dialog: dialog.accept())
    ben.click("#resign")
    expect(ana.locator(".result")).to_be_visible()
    published = ana.locator("#dice-published")
    expect(published).to_contain_text("Seed")
    published.locator("a").click()

    # after the end: each player from its own seat, stepping back and forth
    expect(ana.locator("#dice-verdict")).to_have_class("verified")
    expect(ana.locator("#dice-verdict")).to_contain_text("replays from this seed")
    seed = ana.locator("#dice-seed").inner_text()
    salt = ana.locator("#dice-salt").inner_text()
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == commitment
    shot(ana, "review-02-verified")

    middle = last - 2
    ana.select_option("#review-seat", label="Ana (you)")
    expect(ana).to_have_url(re.compile(r"seat=0"))
    ana.goto(f"{base}/games/{game_id}/review/?step={middle}&seat=0")
    ben.goto(f"{base}/games/{game_id}/review/?step={middle}")
    ben.select_option("#review-seat", label="Ben (you)")
    _expect_at(ben, middle, 1)
    for page, name in ((ana, "Ana"), (ben, "Ben")):
        expect(page.locator(".review-board .sbf-me")).to_be_visible()
        expect(page.locator(".review-board .sbf-bottom")).to_have_attribute("aria-label", "You")
    ana_hand = ana.locator(".review-board .sbf-me").text_content()
    ben_hand = ben.locator(".review-board .sbf-me").text_content()
    assert ana_hand != ben_hand
    shot(ana, "review-03-ana-mid-game")
    shot(ben, "review-04-ben-mid-game")

    ana.click("#review-next")
    _expect_at(ana, middle + 1, 0)
    ana.keyboard.press("ArrowLeft")
    _expect_at(ana, middle, 0)
    assert ana.locator(".review-board .sbf-me").text_content() == ana_hand
    if ana.locator("#review-reveal").count():
        first_reveal = ana.locator("#review-reveal option").nth(1).get_attribute("value")
        ana.select_option("#review-reveal", first_reveal)
        _expect_at(ana, int(first_reveal), 0)
    ana.select_option("#review-turn", index=0)
    _expect_at(ana, 0, 0)

    # the link to a step, opened by someone else, shows that step from that seat
    ben.goto(f"{base}/games/{game_id}/review/?step={middle}&seat=1")
    link = ben.locator("#review-link").get_attribute("href")
    eve.goto(base + link)
    assert _step_of(eve) == middle
    assert eve.locator(".review-board .sbf-me").text_content() == ben_hand
    eve.goto(base + "/")
    expect(eve.locator("#finished-games")).to_contain_text(f"#{game_id}")
    assert errors == []
