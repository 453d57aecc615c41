"""Tables and teams on the pages: the new-game form, the waiting room, the lobby."""
from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game
from games.templatetags.games_tags import time_ago
from tests.engines.table_engine import (MAYBE_PAIRS_TABLE, PAIRS_TABLE, TEAM_TABLE, TEMPLATES_DIR,
                                       registered_table_engines)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def table_engines():
    with registered_table_engines():
        yield


@pytest.fixture(autouse=True)
def test_engine_boards(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES_DIR]}]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _seat_rows(html: str) -> dict[int, str]:
    """Each waiting-room seat's row, by seat number."""
    return {int(n): row for n, row in re.findall(r'<li class="seat-row[^"]*" data-seat="(\d+)">(.*?)</li>', html, re.S)}


def _buttons(row: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]*>", "", text).split()) for text in re.findall(r"<button[^>]*>(.*?)</button>", row, re.S)]


def test_the_creator_picks_seats_and_teams_on_the_new_game_form(make_user):
    ana = _client(make_user("Ana"))
    form = ana.get(f"/games/new/{TEAM_TABLE.slug}/").content.decode()
    assert re.findall(r'<option value="(\d+)"', form.split('name="num_seats"')[1].split("</select>")[0]) == [
        str(n) for n in range(2, 13)]
    assert re.findall(r'<option value="(\d+)"[^>]*>(\d) teams', form) == [("2", "2"), ("3", "3"), ("4", "4")]
    assert "Played in 2, 3 or 4 teams" in form
    pairs_form = ana.get(f"/games/new/{PAIRS_TABLE.slug}/").content.decode()
    assert 'name="num_teams"' not in pairs_form and "Played in 2 teams" in pairs_form
    assert "teams" not in ana.get("/games/new/jingle-bells/").content.decode()
    fight_form = ana.get("/games/new/snowball-fight/").content.decode()
    assert re.findall(r'<option value="(\d+)"', fight_form.split('name="num_seats"')[1].split("</select>")[0]) == [
        str(n) for n in range(2, 7)]
    assert "Played each for themselves or in 2 teams" in fight_form
    maybe_form = ana.get(f"/games/new/{MAYBE_PAIRS_TABLE.slug}/").content.decode()
    assert re.findall(r'<option value="(\d+)"[^>]*>(No teams|2 teams)', maybe_form) == [("0", "No teams"), ("2", "2 teams")]
    assert "Played each for themselves or in 2 teams" in maybe_form

    refused = ana.post(f"/games/new/{TEAM_TABLE.slug}/", {"is_public": "on", "num_seats": "3", "num_teams": "4"})
    assert refused.status_code == 200 and "4 teams need at least 4 seats" in refused.content.decode()
    assert not Game.objects.exists()
    created = ana.post(f"/games/new/{TEAM_TABLE.slug}/", {"is_public": "on", "num_seats": "5", "num_teams": "3"})
    assert created.status_code == 302, created.content
    game = Game.objects.get()
    assert (game.num_seats, game.num_teams) == (5, 3)


def test_the_waiting_room_shows_every_seat_with_the_buttons_each_viewer_may_use(make_user):
    host, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=host, game_type=TEAM_TABLE.slug, num_seats=5, num_teams=2)
    services.join_seat(game_id=game.pk, user=ben, number=2, team=1)
    services.add_bot(game_id=game.pk, user=host, number=4)

    as_ben = _client(ben).get(f"/games/{game.pk}/").content.decode()
    rows = _seat_rows(as_ben)
    assert sorted(rows) == [0, 1, 2, 3, 4]
    assert "1/5 seated" not in as_ben and "3/5 seated" in as_ben
    assert _buttons(rows[1]) == ["Add computer player", "Switch to this seat"]
    assert _buttons(rows[2]) == ["Red", "Blue", "Leave seat"]
    assert 'data-team="1" aria-pressed="true" disabled' in rows[2]
    assert _buttons(rows[4]) == ["Red", "Blue", "Remove"]  # a computer player's team is chosen for it
    assert _buttons(rows[0]) == []  # Ana's seat: hers to change
    assert "team-blue" in rows[2] and "Blue" in rows[2] and "team-red" in rows[0]
    assert "Not ready to start: Seats 2, 4 are still empty." in as_ben
    assert re.search(r'id="start-game"[^>]*disabled', as_ben)

    as_cy = _client(cy).get(f"/games/{game.pk}/").content.decode()
    rows = _seat_rows(as_cy)
    assert _buttons(rows[1]) == ["Sit here"] and _buttons(rows[4]) == [] and _buttons(rows[2]) == []
    assert 'id="start-game"' not in as_cy
    assert 'id="join-game"' in as_cy and "2 seats are free" in as_cy and 'id="join-offer"' not in as_ben
    assert 'id="fill-seats"' in as_ben and 'id="fill-seats"' not in as_cy
    as_nobody = Client().get(f"/games/{game.pk}/").content.decode()
    assert all(_buttons(row) == [] for row in _seat_rows(as_nobody).values())
    assert 'id="join-offer"' not in as_nobody and "To take a seat, give a guest name" in as_nobody


def test_the_waiting_room_buttons_move_choose_a_team_and_start(make_user):
    host, ben, cy, dee = (make_user(n) for n in ("Ana", "Ben", "Cy", "Dee"))
    game = services.create_game(creator=host, game_type=TEAM_TABLE.slug, num_seats=4, num_teams=2)
    ana = _client(host)
    as_ben = _client(ben)
    as_ben.post(f"/games/{game.pk}/join/", {"seat": "3"})
    as_ben.post(f"/games/{game.pk}/move/", {"seat": "1"})
    as_ben.post(f"/games/{game.pk}/team/", {"team": "0"})
    ana.post(f"/games/{game.pk}/add-bot/", {"seat": "2", "team": "1"})
    services.join_seat(game_id=game.pk, user=cy, number=3)
    seats = list(Game.objects.get(pk=game.pk).seats.values_list("user__username", "is_bot", "team"))
    assert [(bool(u), bot, team) for u, bot, team in seats] == [(True, False, 0), (True, False, 0),
                                                              (False, True, 1), (True, False, 1)]
    refused = as_ben.post(f"/games/{game.pk}/team/", {"team": "7"}, follow=True)
    assert "team must be 0 to 1, got 7" in refused.content.decode()
    htmx = as_ben.post(f"/games/{game.pk}/move/", {"seat": "2"}, HTTP_HX_REQUEST="true")
    assert 'data-code="conflict"' in htmx.content.decode() and "Seat 3 is taken" in htmx.content.decode()
    assert _client(dee).post(f"/games/{game.pk}/team/", {"team": "1"}, follow=True).content.decode().count(
        "you have no seat at this game") == 1

    services.choose_team(game_id=game.pk, user=cy, team=0)
    unbalanced = as_ben.get(f"/games/{game.pk}/").content.decode()
    assert "Not ready to start: teams may differ by one player at most: Red has 3, Blue has 1." in unbalanced
    assert re.search(r'id="start-game"[^>]*disabled', unbalanced)
    services.choose_team(game_id=game.pk, user=cy, team=1)
    ready = as_ben.get(f"/games/{game.pk}/").content.decode()
    assert "Not ready to start" not in ready and not re.search(r'id="start-game"[^>]*disabled', ready)

    as_ben.post(f"/games/{game.pk}/start/")
    started = Game.objects.get(pk=game.pk)
    assert started.status == Game.Status.ACTIVE and started.state["teams"] == [0, 0, 1, 1]
    page = ana.get(f"/games/{game.pk}/").content.decode()
    badges = re.findall(r'class="player[^"]*team-(\w+)" data-seat="(\d)" data-team="(\d)"', page)
    assert badges == [("red", "0", "0"), ("red", "1", "0"), ("blue", "2", "1"), ("blue", "3", "1")]


def test_the_lobby_shows_how_full_each_table_is_and_each_games_player_range_on_its_card(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    team_game = services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=5, num_teams=2)
    services.join_seat(game_id=team_game.pk, user=ben, number=3)
    services.add_bot(game_id=team_game.pk, user=ana)
    duel = services.create_game(creator=ben, game_type="jingle-bells")
    lobby = Client().get("/").content.decode()
    row = re.sub(r"<a class=\"player-link\"[^>]*>([^<]*)</a>", r"\1", lobby.split(f"#{team_game.pk}</a>")[1].split("</li>")[0])
    assert "3/5 seated" in row and "players" not in row  # the table's size, not the game's range of them
    assert "Ana, Computer 2 vs Ben · 2 open seats · 2 teams ·" in row
    card = lobby.split(f'href="/games/new/{TEAM_TABLE.slug}/"')[1].split("</a>")[0]
    assert "2–12 players, in 2, 3 or 4 teams" in card
    card = lobby.split(f'href="/games/new/{PAIRS_TABLE.slug}/"')[1].split("</a>")[0]
    assert "2–12 players, in 2 teams" in card
    assert "teams" not in lobby.split('href="/games/new/jingle-bells/"')[1].split("</a>")[0]
    assert "2–6 players, each for themselves or in 2 teams" in lobby.split('href="/games/new/snowball-fight/"')[1].split("</a>")[0]
    row = re.sub(r"<a class=\"player-link\"[^>]*>([^<]*)</a>", r"\1", lobby.split(f"#{duel.pk}</a>")[1].split("</li>")[0])
    assert "1/2 seated" in row and "players" not in row and "Ben vs open seat" in row


def test_the_waiting_room_shows_each_team_by_its_shape_as_well_as_its_colour(make_user):
    host, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=host, game_type=TEAM_TABLE.slug, num_seats=4, num_teams=3)
    services.join_seat(game_id=game.pk, user=ben, number=1, team=1)
    services.add_bot(game_id=game.pk, user=host, number=2, team=2)

    page = _client(host).get(f"/games/{game.pk}/").content.decode()
    summary = re.findall(r'<li class="team-chip team-(\w+)" data-team="\d"><strong><svg class="team-mark" data-mark="([\w-]+)"', page)
    assert summary == [("red", "circle"), ("blue", "square"), ("green", "triangle")]
    choices = re.findall(r'class="small team-choice team-(\w+)"[^>]*>\s*<svg class="team-mark" data-mark="([\w-]+)"', page)
    assert choices == [("red", "circle"), ("blue", "square"), ("green", "triangle")] * 2  # Ana's seat and the computer's
    rows = _seat_rows(page)
    assert re.search(r'<span class="team-badge team-blue"><svg class="team-mark" data-mark="square"', rows[1])


def test_join_in_the_lobby_seats_a_signed_in_player_and_takes_them_to_the_table(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    duel = services.create_game(creator=ana, game_type="jingle-bells")
    page = Client()
    page.force_login(ben)
    row = page.get("/").content.decode().split(f"#{duel.pk}</a>")[1].split("</li>")[0]
    assert f'hx-post="/games/{duel.pk}/join/"' in row and ">Join</button>" in row
    answer = page.post(f"/games/{duel.pk}/join/", {"from": "lobby"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer["HX-Redirect"] == f"/games/{duel.pk}/"
    assert [s.user for s in Game.objects.get(pk=duel.pk).seats.order_by("number")] == [ana, ben]
    row = page.get("/").content.decode().split(f"#{duel.pk}</a>")[1].split("</li>")[0]
    assert "hx-post" not in row and ">Open</a>" in row  # seated: the table, not a second seat
    late = Client()
    late.force_login(cy)  # the table filled meanwhile: sent to it, and told why there is no seat
    answer = late.post(f"/games/{duel.pk}/join/", {"from": "lobby"}, HTTP_HX_REQUEST="true")
    assert answer["HX-Redirect"] == f"/games/{duel.pk}/"
    assert "every seat is taken" in late.get(f"/games/{duel.pk}/").content.decode()


def test_the_lobby_says_just_now_for_a_game_finished_within_the_minute():
    now = timezone.now()
    assert time_ago(now) == "just now"
    assert time_ago(now - datetime.timedelta(minutes=3)) == "3\xa0minutes ago"
