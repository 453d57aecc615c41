"""Where signing up comes back to (a private game's invite included), the game page's
"E-mail me when it is my turn" box, and the lobby's button on a full table."""
from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game, Profile

pytestmark = pytest.mark.django_db

PASSWORD = "snow-ball-1234x"


def _sign_up(client: Client, username: str, *, next_path: str | None = None, email: str = ""):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    if next_path is not None:
        data["next"] = next_path
    return client.post("/accounts/signup/", data)


def _private_game(make_user) -> Game:
    return services.create_game(creator=make_user("Ana"), game_type="snowball-fight", options={}, is_public=False)


def test_signing_up_from_a_private_games_invite_comes_back_to_the_game(make_user):
    game = _private_game(make_user)
    invite_path = f"/games/{game.pk}/invite/{game.invite_code}/"
    friend = Client()
    assert friend.get(invite_path).status_code == 302
    page = friend.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/accounts/signup/?next={invite_path}"' in page
    assert f'href="/accounts/login/?next={invite_path}"' in page
    signup_page = friend.get(f"/accounts/signup/?next={invite_path}").content.decode()
    assert f'name="next" value="{invite_path}"' in signup_page
    reply = _sign_up(friend, "ben", next_path=invite_path)
    assert reply.status_code == 302 and reply["Location"] == invite_path
    assert friend.get(invite_path)["Location"] == f"/games/{game.pk}/"
    assert friend.get(f"/games/{game.pk}/").status_code == 200


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/", "/\\evil.example/", "\\\\evil.example", "http:/evil.example",
    "javascript:alert(1)", "/games/\x00", "", "evil.example",
])
def test_a_next_off_this_site_signs_up_into_the_lobby(target):
    reply = _sign_up(Client(), "cy", next_path=target)
    assert reply.status_code == 302 and reply["Location"] == "/"


def test_a_signed_in_player_sent_to_sign_up_goes_on_to_next(make_user):
    client = Client()
    _sign_up(client, "dan")
    assert client.get("/accounts/signup/?next=/me/games/")["Location"] == "/me/games/"
    assert client.get("/accounts/signup/?next=https://evil.example/")["Location"] == "/"


def _daily_game(host, *others) -> Game:
    game = services.create_game(creator=host, game_type="snowball-fight", options={}, is_public=True,
                                pace="daily", decision_seconds=86400)
    for user in others:
        services.join_seat(game_id=game.pk, user=user)
    return game


def test_the_game_page_offers_the_turn_email_to_a_player_with_an_address(make_user):
    ana = make_user("Ana")
    services.update_settings(user=ana, email="ana@example.com")
    game = _daily_game(ana)
    client = Client()
    client.force_login(ana)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="email_on_turn"' in page and "E-mail me when it is my turn" in page

    reply = client.post("/me/settings/email-on-turn/", {"email_on_turn": "1", "next": f"/games/{game.pk}/"},
                        HTTP_HX_REQUEST="true")
    assert "Saved: e-mails go to ana@example.com." in reply.content.decode()
    assert Profile.objects.get(user=ana).email_on_turn
    assert 'value="1" checked' in client.get(f"/games/{game.pk}/").content.decode()
    reply = client.post("/me/settings/email-on-turn/", {"next": f"/games/{game.pk}/"})
    assert reply["Location"] == f"/games/{game.pk}/"
    assert not Profile.objects.get(user=ana).email_on_turn


@pytest.mark.parametrize(("guest", "says"), [
    (True, "register with your e-mail address"), (False, "add your e-mail address in Settings")])
def test_a_player_without_an_address_is_told_how_to_get_turn_emails(make_user, guest, says):
    ben = make_user("Ben", guest=guest)
    game = _daily_game(make_user("Ana"), ben)
    client = Client()
    client.force_login(ben)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert says in page and 'name="email_on_turn"' not in page
    reply = client.post("/me/settings/email-on-turn/", {"email_on_turn": "1"}, HTTP_HX_REQUEST="true")
    assert "Give an e-mail address to be sent e-mails." in reply.content.decode()
    assert not Profile.objects.get(user=ben).email_on_turn


def test_nobody_signed_in_cannot_choose_turn_emails():
    reply = Client().post("/me/settings/email-on-turn/", {"email_on_turn": "1"})
    assert reply.status_code == 403 and b"Log in" in reply.content


def test_a_live_game_and_a_spectator_get_no_turn_email_box(make_user):
    ana = make_user("Ana")
    services.update_settings(user=ana, email="ana@example.com")
    live = services.create_game(creator=ana, game_type="snowball-fight", options={}, is_public=True)
    client = Client()
    client.force_login(ana)
    assert "email-on-turn" not in client.get(f"/games/{live.pk}/").content.decode()
    daily = _daily_game(make_user("Cy"))
    assert "email-on-turn" not in client.get(f"/games/{daily.pk}/").content.decode()


def test_a_full_table_in_the_lobby_is_watched_not_joined(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    full = services.create_game(creator=ana, game_type="snowball-fight", options={}, is_public=True)
    services.join_seat(game_id=full.pk, user=ben)
    half = services.create_game(creator=make_user("Cy"), game_type="snowball-fight", options={}, is_public=True)
    page = Client().get("/").content.decode()
    rows = {pk: page.split(f'href="/games/{pk}/"', 1)[1].split("</li>", 1)[0] for pk in (full.pk, half.pk)}
    assert ">Watch</a>" in rows[full.pk] and "Join" not in rows[full.pk]
    assert ">Join</a>" in rows[half.pk]


def test_a_live_game_in_the_lobby_is_played_by_its_players_and_watched_by_the_others(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="snowball-fight", options={}, is_public=True)
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ana)
    for user, button in ((ana, "Play"), (make_user("Eve"), "Watch"), (None, "Watch")):
        client = Client()
        if user is not None:
            client.force_login(user)
        live = client.get("/").content.decode().split('id="live-count"', 1)[1]
        row = live.split(f'href="/games/{game.pk}/"', 1)[1].split("</li>", 1)[0]
        assert f">{button}</a>" in row, (user, row)
