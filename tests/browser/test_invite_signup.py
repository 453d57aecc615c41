"""A friend given a private game's invite link makes an account from the game page (or logs
in to one) and is back in the game, able to sit down."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import press_create, as_guest, script_errors_of

pytestmark = [pytest.mark.browser, pytest.mark.live]

PASSWORD = "snow-ball-1234x"


def test_an_invited_friend_signs_up_or_logs_in_and_is_back_in_the_private_game(browser, live_server_proc):
    url = live_server_proc.url
    live_server_proc.manage("shell", "-c", f"from games import services; services.register_user("
                                           f"username='cy', password='{PASSWORD}')")
    ana, ben, cy = (browser.new_context(viewport={"width": 1280, "height": 900}).new_page() for _ in range(3))
    errors = script_errors_of(ana, ben, cy, timeout_ms=8000)
    as_guest(ana, url + "/", "Ana")
    ana.click("a.game-type[href$='/snowball-fight/']")
    ana.uncheck("input[name=is_public]")
    press_create(ana)
    expect(ana.locator(".waiting-room")).to_be_visible()
    game_url, invite_url = ana.url, ana.locator("#copy-invite").get_attribute("data-invite-url")

    ben.goto(invite_url)
    ben.click(".guest-form a:has-text('sign up')")
    expect(ben.locator("h1")).to_have_text("Sign up")
    ben.fill("input[name=username]", "ben")
    ben.fill("input[name=password1]", PASSWORD)
    ben.fill("input[name=password2]", PASSWORD)
    with ben.expect_navigation(wait_until="load"):
        ben.click("main button[type=submit]")
    expect(ben.locator("#messages")).to_contain_text("Your account is ready.")
    assert ben.url == game_url
    ben.locator(".seat-row[data-seat='1'] button:has-text('Sit here')").click()
    expect(ana.locator(".seat-row[data-seat='1']")).to_contain_text("ben")

    cy.goto(invite_url)
    cy.click(".guest-form a:has-text('log in')")
    cy.fill("input[name=username]", "cy")
    cy.fill("input[name=password]", PASSWORD)
    with cy.expect_navigation(wait_until="load"):
        cy.click("main button[type=submit]")
    expect(cy.locator(".waiting-room")).to_be_visible()
    assert cy.url == game_url
    expect(cy.locator(".topbar .who")).to_have_text("cy")
    assert errors == []
    for page in (ana, ben, cy):
        page.context.close()
