"""The HTML pages: lobby, guest play, sign-up, creating and joining a game."""
from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import path

from games.models import Game

pytestmark = pytest.mark.django_db


def test_guest_creates_a_private_game_and_a_friend_joins_by_invite():
    host = Client()
    assert host.get("/").status_code == 200
    host.post("/guest/", {"display_name": "Ana", "next": "/"})
    page = host.post("/games/new/snowball-fight/", {"is_public": "", **_default_options()})
    assert page.status_code == 302, page.content
    game = Game.objects.get()
    assert not game.is_public
    assert "Ana" in host.get(page["Location"]).content.decode()

    friend = Client()
    assert friend.get(f"/games/{game.pk}/").status_code == 404
    friend.post("/guest/", {"display_name": "Ben"})
    friend.get(f"/games/{game.pk}/invite/{game.invite_code}/")
    assert friend.get(f"/games/{game.pk}/").status_code == 200
    friend.post(f"/games/{game.pk}/join/", {"seat": "1"})
    friend.post(f"/games/{game.pk}/start/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert "Game log" in friend.get(f"/games/{game.pk}/").content.decode()


def test_a_seat_actions_address_opened_in_a_browser_leads_to_the_game_and_an_unknown_one_is_not_found():
    from games.views import SEAT_ACTIONS

    host = Client()
    host.post("/guest/", {"display_name": "Ana"})
    host.post("/games/new/snowball-fight/", {"is_public": "on", **_default_options()})
    game = Game.objects.get()
    for what in sorted(SEAT_ACTIONS):
        reply = host.get(f"/games/{game.pk}/{what}/")
        assert (reply.status_code, reply["Location"]) == (302, f"/games/{game.pk}/"), what
    assert host.get(f"/games/{game.pk}/abc/").status_code == 404
    assert host.put(f"/games/{game.pk}/join/").status_code == 405
    assert host.post(f"/games/{game.pk}/abc/").status_code == 404
    assert Client().get(f"/games/{game.pk + 1}/join/").status_code == 404  # no such game
    host.post(f"/games/{game.pk}/add-bot/")  # every name the page posts is still served
    assert game.seats.filter(is_bot=True).count() == 1


def test_guest_registers_and_finds_its_games():
    client = Client()
    client.post("/guest/", {"display_name": "Gus"})
    client.post("/games/new/snowball-fight/", {"is_public": "on", **_default_options()})
    reply = client.post("/accounts/signup/", {"username": "gus", "password1": "snow-ball-1234x", "password2": "snow-ball-1234x"})
    assert reply.status_code == 302
    page = client.get("/me/games/").content.decode()
    assert f"#{Game.objects.get().pk}" in page


def test_a_guest_who_registers_from_its_own_page_lands_on_the_new_accounts_page():
    from django.contrib.auth import get_user_model

    client = Client()
    client.post("/guest/", {"display_name": "Gus"})
    own_page = f"/players/{get_user_model().objects.get().get_username()}/"
    assert client.get(own_page).status_code == 200
    register = client.get(own_page).content.decode()
    assert "/accounts/signup/?next=" in register  # the top bar's Register
    reply = client.post(f"/accounts/signup/?next={own_page}", {"username": "gus", "password1": "snow-ball-1234x",
                                                             "password2": "snow-ball-1234x"})
    assert (reply.status_code, reply["Location"]) == (302, "/players/gus/")
    assert client.get(reply["Location"]).status_code == 200


def test_finished_game_page_shows_the_result_to_players_and_spectators(make_user):
    from games import rendering, selectors
    from tests.platform.helpers import play_to_end, started_game

    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    for seat, user in ((0, ana), (None, None)):
        html = rendering.live_html(game, selectors.viewer_payload(game, seat), user)
        assert "Game over" in html
        for score in game.outcome["scores"]:
            assert f"{score} point{'' if score == 1 else 's'}</h3>" in html


@pytest.mark.parametrize(("slug", "score", "words"), [
    ("snowball-fight", 1, "1 point"), ("snowball-fight", 7, "7 points"), ("snowball-fight", 0, "0 points"),
    ("jingle-bells", 1, "1 cold token on the enemy snowman"), ("jingle-bells", 4, "4 cold tokens on the enemy snowman"),
])
def test_a_score_reads_in_the_games_own_words(slug, score, words):
    from games import engines
    from games.templatetags.games_tags import with_score_unit

    assert with_score_unit(score, engines.get(slug)) == words


def test_the_waiting_room_names_each_option_as_the_new_game_form_did(make_user):
    from games import services

    ana = make_user("Ana")
    client = Client()
    client.force_login(ana)

    def options_line(game) -> str:
        return client.get(f"/games/{game.pk}/").content.decode().split("Options: ")[1].split("</p>")[0]

    village = services.create_game(creator=ana, game_type="what-a-snowball", options={
        "village": "high_street", "special_players": True, "ability_cards": "method1", "kids": None})
    assert options_line(village) == (
        "Village: High street; Special players (optional rules): yes; "
        "Ability cards (optional rules): Method 1: drawn in play; "
        "Kids: chosen by the game.")
    fight = services.create_game(creator=ana, game_type="snowball-fight", options={"draft": "quick", "alternates": []})
    options = options_line(fight)
    assert options == "Advanced card draft: Quick start; Alternate Extreme cards: none."


def _default_options() -> dict[str, str]:
    from games import engines

    data = {}
    for option in engines.get("snowball-fight").options:
        if option.kind == "bool":
            if option.default:
                data[f"opt_{option.name}"] = "on"
        elif option.kind == "multichoice":
            continue
        else:
            data[f"opt_{option.name}"] = option.default
    return data


def test_a_page_that_is_not_there_says_why_in_the_sites_own_page_with_a_way_back():
    answer = Client().get("/games/987654/")
    page = answer.content.decode()
    assert answer.status_code == 404
    assert "No such game, or it is private." in page and 'href="/"' in page and "topbar" in page
    assert "URLconf" not in page


@pytest.mark.parametrize("address", ["/nonexistent/", "/join/zzzz/", "/games/abc/"])
def test_an_address_that_matches_no_page_says_so_in_words_not_the_name_of_an_exception(address):
    answer = Client().get(address)
    page = answer.content.decode()
    assert answer.status_code == 404
    assert "There is no page at this address." in page and "topbar" in page
    assert "Resolver404" not in page and "Http404" not in page


def test_a_form_sent_without_its_security_token_is_refused_on_the_sites_own_page_saying_what_to_do():
    answer = Client(enforce_csrf_checks=True).post("/guest/", {"display_name": "Ana"})
    page = answer.content.decode()
    assert answer.status_code == 403
    assert "security token" in page and "reload the page" in page and "topbar" in page
    assert "CSRF verification failed" not in page and "DEBUG" not in page


def _fails(request):
    raise RuntimeError("a view that fails")


urlpatterns = [path("fails/", _fails)]


@pytest.mark.urls("tests.platform.test_pages")
def test_a_server_failure_is_the_sites_own_page_that_says_nothing_played_is_lost():
    answer = Client(raise_request_exception=False).get("/fails/")
    page = answer.content.decode()
    assert answer.status_code == 500
    assert "Something went wrong" in page and "Nothing you played is lost" in page and 'href="/"' in page
    assert "RuntimeError" not in page and "Traceback" not in page


@pytest.mark.django_db
def test_a_player_who_resigned_is_told_so_and_still_finds_their_own_seat(make_user):
    from games import services
    from tests.platform.helpers import started_game

    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = started_game(ana, ben, cy, game_type="snowball-fighting")
    services.resign(game_id=game.pk, user=ben)
    page = Client()
    page.force_login(ben)
    html = " ".join(page.get(f"/games/{game.pk}/").content.decode().split())
    assert "You resigned: you are watching" in html
    assert 'class="player me bot' in html and "Ben</a> (you)" in html
    watcher = Client()
    watcher.force_login(make_user("Eve"))
    html = " ".join(watcher.get(f"/games/{game.pk}/").content.decode().split())
    assert "You are watching" in html and "(you)" not in html


@pytest.mark.django_db
def test_only_a_player_of_a_game_in_play_is_offered_alerts_on_their_turn(make_user):
    from tests.platform.helpers import started_game

    ana, eve = make_user("Ana"), make_user("Eve")
    game = started_game(ana, make_user("Ben"))
    for user, offered in ((ana, True), (eve, False)):
        page = Client()
        page.force_login(user)
        assert ('id="notify-me"' in page.get(f"/games/{game.pk}/").content.decode()) is offered, user


@pytest.mark.django_db
def test_the_invite_link_is_offered_only_while_someone_could_still_join_or_watch_live(make_user):
    from games.services.learn import start_learn_game
    from tests.platform.helpers import play_to_end, started_game

    ana = make_user("Ana")
    page = Client()
    page.force_login(ana)
    live = started_game(ana, make_user("Ben"))
    assert 'id="copy-invite"' in page.get(f"/games/{live.pk}/").content.decode()
    finished = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    assert 'id="copy-invite"' not in page.get(f"/games/{finished.pk}/").content.decode()
    learn = start_learn_game(user=ana, game_type="snowball-fight")  # alone against a computer player
    assert 'id="copy-invite"' not in page.get(f"/games/{learn.pk}/").content.decode()


# Words of the site's programming interface and its code, which a player creating a game should not meet.
API_JARGON = re.compile(r"\b(API|JSON|tokens?|slugs?|seed|payload|endpoint|enum|boolean|null|string|alternate:standard)\b",
                        re.IGNORECASE)


@pytest.mark.parametrize("slug", ["snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball"])
def test_the_new_game_form_speaks_to_players_not_to_programmers(slug, make_user):
    """Every label, choice and help text of a game's creation form, as a signed-in player reads
    it (the What a Snowball! roster's hint for a browser without scripts aside: it shows only there)."""
    client = Client()
    client.force_login(make_user("Ana"))
    page = client.get(f"/games/new/{slug}/").content.decode()
    form = page.split('<form method="post" class="stacked">', 1)[1].split("</form>", 1)[0]
    form = re.sub(r"<(script|style)\b.*?</\1>|<p data-roster-fallback.*?</p>|<textarea.*?</textarea>", " ", form, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", form))
    assert "Create game" in text
    assert not API_JARGON.findall(text), f"{slug}: {sorted(set(API_JARGON.findall(text)))} in {' '.join(text.split())[:2000]}"
