"""A player's name leads to its page wherever a game names its players (the lobby, the players
bar, the result, the review), except a guest's and a computer player's; whether a game is rated
is in every viewer's payload and the JSON API and in the game page's header; a Learn game runs
no clock against its player."""
from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from games import selectors, services
from games.models import Game
from games.services.learn import start_learn_game
from tests.platform.helpers import play_to_end, started_game

pytestmark = pytest.mark.django_db


def links(html: str) -> dict[str, str]:
    """Player-page links in ``html``: name -> username."""
    return {name: user for user, name in re.findall(r'<a class="player-link" href="/players/([^/"]+)/">([^<]+)</a>', html)}


def test_names_of_signed_in_players_link_their_pages_in_the_players_bar_lobby_result_and_review(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    client = Client()
    client.force_login(ana)
    bar = client.get(f"/games/{game.pk}/").content.decode()
    assert links(bar.split('class="players"')[1].split("</div>")[0]) == {"Ana": ana.username, "Ben": ben.username}
    assert links(client.get("/").content.decode()) == {"Ana": ana.username, "Ben": ben.username}

    play_to_end(game.pk, {0: ana, 1: ben})
    page = client.get(f"/games/{game.pk}/").content.decode()
    result = page.split('aria-label="Result"')[1].split("</section>")[0]
    assert set(links(result)) <= {"Ana", "Ben"} and links(result)
    review = client.get(f"/games/{game.pk}/review/").content.decode()
    assert links(review.split('id="review-players"')[1].split("</p>")[0]) == {"Ana": ana.username, "Ben": ben.username}
    lobby = client.get("/").content.decode()
    assert links(lobby.split('id="finished-games"')[1]) == {"Ana": ana.username, "Ben": ben.username}
    assert client.get(f"/players/{ana.username}/").status_code == 200


def test_a_guest_and_a_computer_player_are_named_without_a_link(make_user):
    guest = make_user("Gus", guest=True)
    game = started_game(guest, bots=1)
    client = Client()
    client.force_login(guest)
    html = client.get(f"/games/{game.pk}/").content.decode()
    bar = html.split('class="players"')[1].split("</div>")[0]
    assert "Gus" in bar and "Computer 2" in bar and links(bar) == {}
    players = selectors.viewer_payload(game, 0)["players"]
    assert [p["username"] for p in players] == [None, None]
    assert links(client.get("/").content.decode()) == {}


def test_whether_a_game_is_rated_is_in_the_payload_the_api_and_the_game_header(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    client = Client()
    client.force_login(ana)

    def header(game: Game) -> str:
        html = client.get(f"/games/{game.pk}/").content.decode()
        return re.search(r'id="rated-tag"[^>]*data-rated="(\w+)"[^>]*>([^<]+)<', html.split('class="game-head"')[1]).groups()

    rated = started_game(ana, ben)
    assert selectors.viewer_payload(rated, 0)["rated"] is True
    assert selectors.viewer_payload(rated, None)["rated"] is True
    assert client.get(f"/api/games/{rated.pk}/").json()["rated"] is True
    assert header(rated) == ("true", "Rated")

    unrated = started_game(ana, bots=1)
    assert selectors.viewer_payload(unrated, 0)["rated"] is False
    assert client.get(f"/api/games/{unrated.pk}/").json()["rated"] is False
    assert header(unrated) == ("false", "Unrated")

    chosen = services.create_game(creator=ana, game_type="snowball-fight", rated=True)
    waiting = services.create_game(creator=ana, game_type="snowball-fight")
    assert selectors.viewer_payload(chosen, 0)["rated"] is True
    assert selectors.viewer_payload(waiting, 0)["rated"] is None
    assert header(waiting)[0] == "undecided"


def test_an_open_table_with_a_guest_or_a_computer_player_is_unrated_in_the_header_as_in_the_waiting_room(make_user):
    ana, ben, gus = make_user("Ana"), make_user("Ben"), make_user("Gus", guest=True)
    client = Client()
    client.force_login(ana)

    def page(game: Game) -> tuple[tuple[str, str], str]:
        html = client.get(f"/games/{game.pk}/").content.decode()
        tag = re.search(r'id="rated-tag"[^>]*data-rated="(\w+)"[^>]*>([^<]+)<', html).groups()
        return tag, re.search(r'id="rated-note">([^<]+)<', html).group(1)

    with_bot = services.create_game(creator=ana, game_type="snowball-fight", num_seats=3)
    services.join_seat(game_id=with_bot.pk, user=ben, number=1)
    assert page(with_bot) == (("undecided", "Rated if all seats sign in"),
                              "This game will be rated, as long as every seat goes to a signed-in player.")
    services.add_bot(game_id=with_bot.pk, user=ana, number=2)
    assert page(with_bot) == (("false", "Unrated"),
                              "This game will not be rated: a guest or a computer player sits at the table.")
    assert selectors.viewer_payload(with_bot, 0)["rated"] is None  # the API's value: the seat may change
    services.remove_bot(game_id=with_bot.pk, user=ana, number=2)
    assert page(with_bot)[0] == ("undecided", "Rated if all seats sign in")

    with_guest = services.create_game(creator=ana, game_type="snowball-fight")
    services.join_seat(game_id=with_guest.pk, user=gus, number=1)
    assert page(with_guest)[0] == ("false", "Unrated")
    made_rated = services.create_game(creator=ana, game_type="snowball-fight", rated=True)
    services.join_seat(game_id=made_rated.pk, user=gus, number=1)
    assert page(made_rated)[0] == ("true", "Rated")


def test_a_learn_game_sets_no_deadline_says_so_and_never_hands_the_learner_a_default(make_user):
    user = make_user("Ana", guest=True)
    game = start_learn_game(user=user, game_type="snowball-fighting")
    game.refresh_from_db()
    payload = selectors.viewer_payload(game, 0)
    assert payload["prompt"] is not None and payload["prompt"]["deadline"] is payload["prompt"]["timeout"] is None
    assert game.next_deadline is None and payload["next_deadline"] is None
    assert payload["pace_text"] == "No clock · take your time" and payload["learn"] is True
    client = Client()
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "No clock" in html and 'class="countdown"' not in html.split('class="prompt-bar')[1].split("</div>")[0]

    assert services.note_away(game_id=game.pk, seat=0, now=time.time() - 3600) is False
    game.refresh_from_db()
    assert game.next_deadline is None and not game.prompts.get("away")
    assert services.sweep_deadlines(now=time.time() + 10 * 86400) == {}
    assert "Learn to play" in client.get("/learn/snowball-fighting/").content.decode()
    assert "No clock runs" in client.get("/learn/snowball-fighting/").content.decode()


def test_a_rematch_of_a_learn_game_is_a_learn_game_again(make_user):
    user = make_user("Ana")
    game = start_learn_game(user=user, game_type="jingle-bells")
    services.resign(game_id=game.pk, user=user)
    offered = services.offer_rematch(game_id=game.pk, user=user)
    new = Game.objects.get(pk=offered.rematch["game"])
    assert new.is_learn and new.status == Game.Status.ACTIVE and new.next_deadline is None
    assert selectors.viewer_payload(new, new.seats.get(user=user).number)["pace_text"] == "No clock · take your time"


def test_a_guests_page_is_only_its_own_my_page_and_no_game_shows_its_address(make_user):
    """As the README says: a guest's name is never linked, and its page (its own "My page",
    marked guest and unrated, offering to register) is at an address no page shows another player."""
    ana, gus = make_user("Ana"), make_user("Gus", guest=True)
    game = services.create_game(creator=ana, game_type="snowball-fight", rated=True)
    services.join_seat(game_id=game.pk, user=gus, number=1)
    services.start_game(game_id=game.pk, user=ana)
    game = play_to_end(game.pk, {0: ana, 1: gus})
    assert game.status == Game.Status.FINISHED and game.rated is True
    address = f"/players/{gus.get_username()}/"

    own = Client()
    own.force_login(gus)
    top_bar = own.get("/").content.decode().split('class="topbar"')[1].split("</header>")[0]
    assert f'href="{address}">My page</a>' in top_bar
    page = own.get(address).content.decode()
    assert 'class="tag">guest</span>' in page and "Guests play unrated." in page and "/accounts/signup/?next=" in page
    offer = "Register</a> to choose a password and keep your games and this page."
    assert offer in page.split('class="topbar"')[1].split("</header>")[1]  # in the page itself, not only the top bar

    other = Client()
    other.force_login(ana)
    assert offer not in other.get(address).content.decode()
    for url in ("/", "/me/games/", f"/games/{game.pk}/", f"/games/{game.pk}/review/", f"/games/{game.pk}/review/?seat=1",
                f"/players/{ana.get_username()}/", "/leaderboard/snowball-fight/", f"/api/games/{game.pk}/"):
        html = other.get(url).content.decode()
        assert "Gus" in html or url.startswith(("/players/", "/leaderboard/", "/me/")), url
        assert gus.get_username() not in html, f"{url} shows the guest's address"
        assert "Gus" not in links(html), url
