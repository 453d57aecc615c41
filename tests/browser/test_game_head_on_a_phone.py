"""On a phone a game page's header is a few short rows, so a player asked to act sees the question and
the top of the board on the first screen in every game. (The title, the badges, "N watching",
"Notify me on my turn", the sound alert, the dice commitment and "Copy invite link" took 210-260 px
of a 390x844 screen, and Jingle Bells' table started some 730 px down.) The seldom-used controls
fold under "Options" on a phone and still work from there; a desktop keeps them in the header's row."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, PHONE_TEST_PASSWORD, SHOTS, SCREENSHOT_TIMEOUT_MS, log_in, open_game, as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PASSWORD = PHONE_TEST_PASSWORD

# Each game against a computer player, played (the engine's own suggestions for Ana's seat) on to
# the part of the game a player spends most of it in, and stopped where Ana is asked to act.
MAKE_GAMES = """
from games import engines, selectors, services
from tests.platform.helpers import play_one, started_game
ana = services.register_user(username='ana', password='%s')
for slug, phase in (('snowball-fight', 'play'), ('jingle-bells', 'actions'), ('what-a-snowball', 'play'),
                    ('snowball-fighting', 'orders')):
    game = started_game(ana, game_type=slug, bots=1)
    ruleset = engines.get(slug)
    for _ in range(60):
        state = selectors.game_state(selectors.get_game(game.pk))
        if state.get('phase') == phase and 0 in ruleset.to_act(state):
            break
        play_one(game.pk, {0: ana})
    print('GAME', slug, game.pk)
""" % PASSWORD

# Each game's drawing: the table, the cards, the village, the garden.
DRAWING = {"snowball-fight": "#sbf-board", "jingle-bells": ".jb-tablewrap", "what-a-snowball": ".was-villagewrap",
           "snowball-fighting": "#sf-map"}

WHERE_JS = """
(drawing) => {
  const top = s => document.querySelector(s).getBoundingClientRect().top;
  return {scroll: scrollY, screen: innerHeight, head: document.querySelector('.game-head').getBoundingClientRect().height,
          prompt: top('.prompt-bar'), board: top('.board-wrap'), drawing: top(drawing)};
}
"""

HEAD_AT_MOST = 110  # px: the title (two lines for Jingle Bells' long name) and one line of badges with "Options"
BOARD_SHOWN = 200  # px of the game's drawing on the first screen, at least


def test_on_a_phone_the_question_and_the_board_start_on_the_first_screen_and_the_options_still_work(
        browser, live_server_proc):
    games = dict(line.split()[1:] for line in live_server_proc.manage("shell", "-c", MAKE_GAMES).splitlines()
                 if line.startswith("GAME "))
    context = browser.new_context(**PHONE)  # no permission granted: one granted denies the others, notifications too
    page = context.new_page()
    errors = script_errors_of(page, timeout_ms=20000)
    log_in(page, live_server_proc.url, "ana", PASSWORD)
    SHOTS.mkdir(exist_ok=True)
    where = {}
    for slug, game_id in games.items():
        open_game(page, f"{live_server_proc.url}/games/{game_id}/")
        expect(page.locator("#live")).to_have_attribute("data-your-turn", "1")
        where[slug] = page.evaluate(WHERE_JS, DRAWING[slug])
        page.screenshot(path=str(SHOTS / f"game-head-phone-{slug}.png"), animations="disabled",
                        timeout=SCREENSHOT_TIMEOUT_MS)
    for slug, w in where.items():
        assert w["scroll"] == 0, (slug, w)
        assert w["head"] <= HEAD_AT_MOST, f"{slug}: the header takes {w['head']:.0f} px: {w}"
        assert w["prompt"] < w["screen"] / 2, f"{slug}: the question starts {w['prompt']:.0f} px down: {w}"
        assert w["board"] < w["screen"], f"{slug}: the board starts below the first screen: {w}"
        assert w["drawing"] <= w["screen"] - BOARD_SHOWN, f"{slug}: the board's drawing starts {w['drawing']:.0f} px down: {w}"

    # The folded controls: shown by "Options", and each works from there.
    expect(page.locator("#copy-invite")).to_be_hidden()
    expect(page.locator("#dice-commitment")).to_be_hidden()
    toggle = page.locator("#game-options-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#notify-me")).to_be_visible()
    expect(page.locator("#notify-me")).to_have_text("Notify me on my turn")
    expect(page.locator("#dice-commitment")).to_be_visible()
    alert = page.locator("#turn-alert")
    expect(alert).to_be_checked()
    alert.click()
    expect(alert).not_to_be_checked()
    alert.click()
    expect(alert).to_be_checked()
    box = page.locator("#copy-invite").bounding_box()
    assert box["height"] >= 40 and box["y"] + box["height"] <= 844, box
    page.screenshot(path=str(SHOTS / "game-head-phone-options-open.png"), animations="disabled",
                    timeout=SCREENSHOT_TIMEOUT_MS)
    # the choice stays through the next game page the player opens in the tab
    open_game(page, f"{live_server_proc.url}/games/{games['snowball-fight']}/")
    expect(page.locator("#copy-invite")).to_be_visible()
    page.locator("#game-options-toggle").click()
    expect(page.locator("#copy-invite")).to_be_hidden()
    assert errors == []
    context.close()

    # "Copy invite link" under Options copies, for a player and for a spectator, who has no "Notify me".
    for who in ("ana", "Eve"):
        context = browser.new_context(**PHONE)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_proc.url)
        phone = context.new_page()
        errors = script_errors_of(phone, timeout_ms=20000)
        url = f"{live_server_proc.url}/games/{games['jingle-bells']}/"
        if who == "ana":
            log_in(phone, live_server_proc.url, "ana", PASSWORD)
            open_game(phone, url)
        else:
            as_guest(phone, url, who)
            expect(phone.locator(".spectating")).to_be_visible()
        phone.click("#game-options-toggle")
        expect(phone.locator("#copy-invite")).to_be_visible()
        if who == "Eve":
            expect(phone.locator("#notify-me")).to_be_hidden()
        invite_url = phone.locator("#copy-invite").get_attribute("data-invite-url")
        phone.locator("#copy-invite").click()
        expect(phone.locator("#copy-invite")).to_have_text("Link copied")
        assert phone.evaluate("navigator.clipboard.readText()") == invite_url and "/invite/" in invite_url, who
        assert errors == []
        context.close()

    # A desktop: no "Options", the controls in the header's row as before.
    desk = browser.new_context(**DESKTOP).new_page()
    log_in(desk, live_server_proc.url, "ana", PASSWORD)
    open_game(desk, f"{live_server_proc.url}/games/{games['jingle-bells']}/")
    expect(desk.locator("#game-options-toggle")).to_be_hidden()
    for control in ("#notify-me", "#turn-alert", "#dice-commitment", "#copy-invite"):
        expect(desk.locator(control)).to_be_visible()
    head = desk.locator(".game-head").bounding_box()
    assert head["height"] < 90, head  # the title's row and one row of badges and controls
    desk.context.close()
