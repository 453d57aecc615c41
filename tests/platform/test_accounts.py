"""Accounts: sign-up with or without an e-mail address, a forgotten password reset by e-mail,
changing the password and the address, and where the site's e-mail goes."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "snow-ball-1234x"
NEW_PASSWORD = "fresh-powder-5678"


def _sign_up(client: Client, username: str, email: str = ""):
    return client.post("/accounts/signup/", {"username": username, "email": email,
                                             "password1": PASSWORD, "password2": PASSWORD})


def _logs_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


def test_sign_up_without_an_email_address_still_works():
    reply = _sign_up(Client(), "ana")
    assert reply.status_code == 302
    assert User.objects.get(username="ana").email == ""
    assert _logs_in("ana", PASSWORD)


def test_sign_up_asks_for_an_optional_email_address_and_keeps_it():
    page = Client().get("/accounts/signup/").content.decode()
    assert 'type="email" name="email"' in page
    assert "Optional, but recommended" in page
    assert _sign_up(Client(), "ben", "Ben@Example.COM").status_code == 302
    assert User.objects.get(username="ben").email == "Ben@example.com"


def test_an_email_address_another_account_uses_is_refused_in_any_case():
    _sign_up(Client(), "ben", "ben@example.com")
    reply = _sign_up(Client(), "benjamin", "BEN@example.com")
    assert reply.status_code == 200
    assert "Another account already uses this e-mail address." in reply.content.decode()
    assert not User.objects.filter(username="benjamin").exists()


def test_an_invalid_email_address_is_refused():
    reply = _sign_up(Client(), "cat", "not-an-address")
    assert reply.status_code == 200
    assert "Enter a valid email address." in reply.content.decode()
    assert not User.objects.filter(username="cat").exists()


def test_a_guest_who_registers_keeps_the_address_it_gave_in_its_settings():
    client = Client()
    client.post("/guest/", {"display_name": "Gus"})
    client.post("/me/settings/", {"email": "gus@example.com"})
    page = client.get("/accounts/signup/").content.decode()
    assert 'value="gus@example.com"' in page
    assert _sign_up(client, "gus", "gus@example.com").status_code == 302
    user = User.objects.get(username="gus")
    assert (user.email, user.profile.is_guest) == ("gus@example.com", False)


def test_a_guest_who_registers_with_a_new_address_keeps_the_new_one():
    """The address given when signing up is the account's, even if the guest had given
    another one in its settings before."""
    client = Client()
    client.post("/guest/", {"display_name": "Gia"})
    client.post("/me/settings/", {"email": "old@example.com"})
    assert _sign_up(client, "gia", "new@example.com").status_code == 302
    assert User.objects.get(username="gia").email == "new@example.com"


def test_the_log_in_page_links_to_the_password_reset():
    page = Client().get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password_reset/">Forgot your password?</a>' in page


def test_a_forgotten_password_is_reset_through_the_link_in_the_email(mailoutbox, settings):
    settings.SNOWBALL_SITE_URL = "https://snowball.example"
    _sign_up(Client(), "dora", "dora@example.com")
    client = Client()
    reply = client.post("/accounts/password_reset/", {"email": "DORA@example.com"})
    assert reply["Location"] == "/accounts/password_reset/done/"
    assert "Check your e-mail" in client.get(reply["Location"]).content.decode()

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert (mail.to, mail.subject, mail.from_email) == (["dora@example.com"], "Reset your Snowball password",
                                                        settings.DEFAULT_FROM_EMAIL)
    link = re.search(r"https://snowball\.example(/accounts/reset/\S+/\S+/)", mail.body).group(1)

    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    reply = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert reply["Location"] == "/accounts/reset/done/"
    assert "Your new password is set" in client.get(reply["Location"]).content.decode()

    assert _logs_in("dora", NEW_PASSWORD)
    assert not _logs_in("dora", PASSWORD)
    assert "This link no longer works" in Client().get(link, follow=True).content.decode()


def test_an_unknown_address_shows_the_same_page_and_sends_nothing(mailoutbox, make_user):
    make_user("Eve")
    client = Client()
    reply = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})
    assert reply["Location"] == "/accounts/password_reset/done/"
    assert mailoutbox == []


def test_one_address_is_sent_at_most_three_reset_emails_an_hour(mailoutbox):
    from django.core.cache import cache

    cache.clear()
    _sign_up(Client(), "hal", "hal@example.com")
    replies = [Client().post("/accounts/password_reset/", {"email": "Hal@example.com"}) for _ in range(5)]
    assert [r["Location"] for r in replies] == ["/accounts/password_reset/done/"] * 5
    assert len(mailoutbox) == 3
    cache.clear()
    Client().post("/accounts/password_reset/", {"email": "hal@example.com"})
    assert len(mailoutbox) == 4


@pytest.mark.redis
def test_with_redis_every_worker_counts_the_same_three_reset_emails(mailoutbox, settings):
    """Two workers each kept their own count, so an address behind docker compose's nginx got
    three e-mails an hour from each; with REDIS_URL the count is in Redis, where another
    worker's cache (a client of its own) reads it."""
    from django.core.cache.backends.redis import RedisCache

    from tests.conftest import REDIS_TEST_URL, require_redis

    require_redis()
    prefix = f"sbtest-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": REDIS_TEST_URL, "KEY_PREFIX": prefix}}
    _sign_up(Client(), "jo", "jo@example.com")
    for _ in range(2):
        Client().post("/accounts/password_reset/", {"email": "jo@example.com"})
    other_worker = RedisCache(REDIS_TEST_URL, {"KEY_PREFIX": prefix})
    other_worker.incr("password-reset:jo@example.com")  # its one request
    for _ in range(2):
        Client().post("/accounts/password_reset/", {"email": "jo@example.com"})
    other_worker.delete("password-reset:jo@example.com")
    assert len(mailoutbox) == 2


def test_the_settings_count_in_redis_when_the_site_runs_on_it():
    """``REDIS_URL`` puts the site's cache in Redis (docker compose's shape); without it the
    cache is the process's own (``make run``)."""
    code = "import django, os; django.setup(); from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    def backend(**env):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "DJANGO_SETTINGS_MODULE": "snowball_site.settings", **env})
        return run.stdout.strip()
    assert backend(REDIS_URL="redis://127.0.0.1:6379/15") == "django.core.cache.backends.redis.RedisCache"
    assert backend(REDIS_URL="") == "django.core.cache.backends.locmem.LocMemCache"


def test_writing_the_address_in_another_case_does_not_get_past_the_three_an_hour(mailoutbox):
    """The limit counts the address, not how it was typed: a fourth request in new capitals
    sends nothing either."""
    from django.core.cache import cache

    cache.clear()
    _sign_up(Client(), "ivy", "ivy@example.com")
    for typed in ("ivy@example.com", "IVY@example.com", "Ivy@Example.com", "iVy@EXAMPLE.COM"):
        Client().post("/accounts/password_reset/", {"email": typed})
    assert len(mailoutbox) == 3


def test_a_guest_with_an_address_gets_no_reset_email(mailoutbox):
    client = Client()
    client.post("/guest/", {"display_name": "Gil"})
    client.post("/me/settings/", {"email": "gil@example.com"})
    Client().post("/accounts/password_reset/", {"email": "gil@example.com"})
    assert mailoutbox == []


def test_a_player_changes_the_password_from_the_settings_page():
    client = Client()
    _sign_up(client, "fay")
    assert '<a href="/accounts/password_change/">Change your password</a>' in client.get("/me/settings/").content.decode()
    wrong = client.post("/accounts/password_change/", {"old_password": "nope", "new_password1": NEW_PASSWORD,
                                                       "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200
    reply = client.post("/accounts/password_change/", {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                                       "new_password2": NEW_PASSWORD})
    assert reply["Location"] == "/accounts/password_change/done/"
    assert "Your password is changed" in client.get(reply["Location"]).content.decode()
    assert client.get("/me/settings/").status_code == 200  # still signed in
    assert _logs_in("fay", NEW_PASSWORD)
    assert not _logs_in("fay", PASSWORD)


def test_a_guest_has_no_password_to_change_and_is_sent_to_register():
    client = Client()
    client.post("/guest/", {"display_name": "Gwen"})
    assert "Change your password" not in client.get("/me/settings/").content.decode()
    assert client.get("/accounts/password_change/")["Location"] == "/accounts/signup/"


def test_the_settings_page_refuses_an_address_another_account_uses():
    _sign_up(Client(), "hal", "hal@example.com")
    client = Client()
    _sign_up(client, "ida", "ida@example.com")
    reply = client.post("/me/settings/", {"email": "HAL@example.com"})
    assert "Another account already uses this e-mail address." in reply.content.decode()
    assert User.objects.get(username="ida").email == "ida@example.com"
    assert client.post("/me/settings/", {"email": "IDA@example.com"}).status_code == 302
    assert User.objects.get(username="ida").email == "IDA@example.com"


def _email_settings(**env: str) -> dict:
    """The e-mail settings a server started with ``env`` (and no other e-mail variable) reads."""
    names = ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL",
             "SNOWBALL_SITE_URL")
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("EMAIL_") and k not in names and k not in ("HOST", "PORT")}
    code = ("import json; from snowball_site import settings as s; "
            f"print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}))")
    out = subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("env", [{}, {"EMAIL_HOST": "", "EMAIL_PORT": "587", "DEFAULT_FROM_EMAIL": "",
                                      "SNOWBALL_SITE_URL": ""}])
def test_without_an_smtp_host_emails_go_to_the_console(env):
    found = _email_settings(**env)
    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert found["DEFAULT_FROM_EMAIL"] == "Snowball <snowball@localhost>"
    assert found["SNOWBALL_SITE_URL"] == "http://127.0.0.1:8000"


def test_an_smtp_server_comes_from_the_environment():
    found = _email_settings(EMAIL_HOST="smtp.example.com", EMAIL_PORT="2525", EMAIL_HOST_USER="snow",
                            EMAIL_USE_TLS="0", DEFAULT_FROM_EMAIL="Snowball <no-reply@snowball.example>",
                            SNOWBALL_SITE_URL="https://snowball.example/")
    assert found == {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "smtp.example.com",
                     "EMAIL_PORT": 2525, "EMAIL_HOST_USER": "snow", "EMAIL_USE_TLS": False,
                     "DEFAULT_FROM_EMAIL": "Snowball <no-reply@snowball.example>",
                     "SNOWBALL_SITE_URL": "https://snowball.example"}


@pytest.mark.parametrize(("env", "site_url"), [
    ({"PORT": "8111"}, "http://127.0.0.1:8111"),
    ({"HOST": "localhost", "PORT": "8111"}, "http://localhost:8111"),
    ({"HOST": "0.0.0.0", "PORT": "9000"}, "http://127.0.0.1:9000"),
    ({"HOST": "localhost", "PORT": "8111", "SNOWBALL_SITE_URL": "https://snowball.example"}, "https://snowball.example"),
])
def test_the_site_address_in_emails_follows_the_host_and_port_it_is_served_on(env, site_url):
    assert _email_settings(**env)["SNOWBALL_SITE_URL"] == site_url


def test_make_run_hands_its_host_and_port_to_the_server():
    """``make run PORT=8111`` starts the server with PORT=8111 in its environment, which the
    settings read the site's address from (a password reset's link at port 8111, not 8000)."""
    out = subprocess.run(["make", "--dry-run", "--always-make", "run", "PORT=8111", "HOST=localhost"],
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2], check=True)
    serve = [line for line in out.stdout.splitlines() if "daphne" in line]
    assert len(serve) == 1 and serve[0].startswith("HOST=localhost PORT=8111 "), out.stdout


@pytest.mark.parametrize("secure", [False, True])
def test_a_script_gets_a_guest_session_and_a_token_as_the_api_document_says(secure):
    """docs/api.md, "A token for a script with no browser": GET /, POST /guest/ with the CSRF
    cookie's token, then POST /api/tokens/ with the renewed one (and, over HTTPS, a Referer)."""
    site = Client(enforce_csrf_checks=True)
    referer = {"HTTP_REFERER": "https://testserver/"} if secure else {}
    site.get("/", secure=secure)
    first = site.cookies["csrftoken"].value
    signed_in = site.post("/guest/", {"display_name": "Robo"}, secure=secure, HTTP_X_CSRFTOKEN=first, **referer)
    assert signed_in.status_code == 302 and "sessionid" in site.cookies
    renewed = site.cookies["csrftoken"].value
    assert renewed != first, "signing in renews the CSRF cookie"
    stale = site.post("/api/tokens/", data=json.dumps({"name": "my-bot"}), content_type="application/json",
                      secure=secure, HTTP_X_CSRFTOKEN=first, **referer)
    assert (stale.status_code, stale.json()["error"]["code"]) == (403, "csrf")
    made = site.post("/api/tokens/", data=json.dumps({"name": "my-bot"}), content_type="application/json",
                     secure=secure, HTTP_X_CSRFTOKEN=renewed, **referer)
    assert made.status_code == 201, made.content
    token = made.json()["token"]
    bot = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert bot.get("/api/games/?mine=1").status_code == 200
    assert User.objects.get(profile__display_name="Robo").profile.is_guest
    if secure:
        without = Client(enforce_csrf_checks=True)
        without.get("/", secure=True)
        refused = without.post("/guest/", {"display_name": "Robo"}, secure=True,
                               HTTP_X_CSRFTOKEN=without.cookies["csrftoken"].value)
        assert refused.status_code == 403, "over HTTPS the POST needs the Referer"


@pytest.mark.parametrize("username", ["\u0430na", "an\u0430", "ana\u0301", "\u0391na", "\u00e0na"])
def test_a_username_that_could_pass_for_another_with_a_look_alike_letter_is_refused_saying_what_it_may_hold(username):
    reply = _sign_up(Client(), username)
    assert reply.status_code == 200
    page = reply.content.decode()
    assert "unaccented lowercase a-z and uppercase A-Z letters" in page
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["ana", "Ana_B", "ana.b+snow", "ana-42@home"])
def test_a_username_of_unaccented_letters_digits_and_marks_is_taken(username):
    assert _sign_up(Client(), username).status_code == 302
    assert User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("guest", [False, True])
def test_a_player_changes_their_display_name_in_the_settings(make_user, guest):
    from games import selectors
    from tests.platform.helpers import started_game

    ana = make_user("Ana", guest=guest)
    game = started_game(ana, make_user("Ben"))
    client = Client()
    client.force_login(ana)
    page = client.get("/me/settings/").content.decode()
    assert 'name="display_name"' in page and 'value="Ana"' in page
    assert ("reset a forgotten password" in page) is not guest
    client.post("/me/settings/", {"display_name": "  Avalanche   Annie "})
    ana.profile.refresh_from_db()
    assert ana.profile.display_name == "Avalanche Annie"
    assert selectors.seat_names(selectors.get_game(game.pk))[0] == "Avalanche Annie"  # read afresh, as a new page is
    refused = client.post("/me/settings/", {"display_name": "x" * 41}).content.decode()
    assert "a display name has at most 40 characters, got 41" in refused
    client.post("/me/settings/", {"display_name": ""})  # left empty: kept
    ana.profile.refresh_from_db()
    assert ana.profile.display_name == "Avalanche Annie"
