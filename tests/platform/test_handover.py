"""The table hands the seat of a player who left a live game, and did not come back in time,
to a computer player: the votes, their refusals, the hand-over, as the players and a
spectator see them through the JSON API, the page and both kinds of socket."""
from __future__ import annotations

import time

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import engines, services
from games.errors import Conflict
from games.models import ActionRecord, ApiToken, Game, Seat
from tests.engines.table_engine import TEMPLATES_DIR, registered_table_engines
from tests.platform.test_pace import ResigningTable, TimedTable, _client, _error, _post, _table, _take, _view

pytestmark = pytest.mark.django_db

TIMED = TimedTable(slug="timed-handover-test", team_counts=())
RESIGNING = ResigningTable(slug="resigning-table-test", team_counts=())  # has a board for the page
GRACE = 60.0  # SNOWBALL_ABSENCE_GRACE


@pytest.fixture(autouse=True)
def boards_of_the_test_engines(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES_DIR]}]
    settings.SNOWBALL_ABSENCE_GRACE = GRACE


@pytest.fixture(scope="module", autouse=True)
def test_engines():
    with registered_table_engines():
        engines.register(TIMED)
        engines.register(RESIGNING)
        yield


def _three(make_user, game_type: str = TIMED.slug):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    return ana, ben, cy, _table(ana, ben, cy, game_type=game_type, pace="live", seconds=300)


def _handover(user, game_id: int, seat=1):
    return _post(_client(user), f"/api/games/{game_id}/handover/", {"seat": seat})


def _unchanged(game: Game) -> None:
    now = Game.objects.get(pk=game.pk)
    assert now.version == game.version and not (now.prompts.get("handover") or {}).get("1")
    assert not Seat.objects.get(game=game, number=1).is_bot


def test_the_votes_open_when_the_grace_ends_and_the_last_one_hands_the_seat_over(make_user):
    ana, ben, cy, game = _three(make_user)
    left_at = time.time() - 1000
    services.note_away(game_id=game.pk, seat=1, now=left_at)
    game.refresh_from_db()
    with pytest.raises(Conflict, match="Ben may still come back"):
        services.vote_handover(game_id=game.pk, user=ana, seat=1, now=left_at + GRACE - 0.001)
    _unchanged(game)

    services.vote_handover(game_id=game.pk, user=ana, seat=1, now=left_at + GRACE)
    [notice] = _view(cy, game.pk)["away"]
    assert (notice["handover_votes"], notice["handover_needs"]) == ([0], 2)
    version = Game.objects.get(pk=game.pk).version
    services.vote_handover(game_id=game.pk, user=ana, seat=1, now=left_at + GRACE)  # again: nothing new
    assert Game.objects.get(pk=game.pk).version == version
    assert not Seat.objects.get(game=game, number=1).is_bot

    services.vote_handover(game_id=game.pk, user=cy, seat=1, now=left_at + GRACE)
    view = _view(ana, game.pk)
    assert view["handed"] == [1] and view["away"] == [] and view["resigned"] == []
    assert view["players"][1]["is_bot"] and view["players"][1]["name"] == "Ben"
    assert "the table hands Ben's seat to a computer player" in [line["text"] for line in view["log"]]


def test_two_players_away_at_once_do_not_wait_for_each_other(make_user):
    ana, ben, cy, game = _three(make_user)
    left_at = time.time() - 1000
    services.note_away(game_id=game.pk, seat=1, now=left_at)
    services.note_away(game_id=game.pk, seat=2, now=left_at)
    [ben_away, cy_away] = _view(ana, game.pk)["away"]
    assert ben_away["handover_needs"] == cy_away["handover_needs"] == 1

    services.vote_handover(game_id=game.pk, user=ana, seat=1, now=left_at + GRACE)
    services.vote_handover(game_id=game.pk, user=ana, seat=2, now=left_at + GRACE)
    assert _view(ana, game.pk)["handed"] == [1, 2]


def test_the_computer_player_then_answers_the_seats_prompts_and_the_seat_stays_its(make_user):
    ana, ben, cy, game = _three(make_user, game_type=RESIGNING.slug)
    _take(game.pk, ana)  # Ben's turn
    services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
    for user in (ana, cy):
        assert _handover(user, game.pk).status_code == 200
    view = _view(cy, game.pk)
    assert view["view"]["taken"] == [1, 1, 0] and view["view"]["turn"] == 2  # the game's resign rule did not apply
    assert view["prompt"] is not None
    _take(game.pk, cy)
    _take(game.pk, ana)
    assert _view(ana, game.pk)["view"]["taken"] == [2, 2, 1]
    bot_moves = ActionRecord.objects.filter(game=game, seat=1, source=ActionRecord.Source.BOT).count()
    assert bot_moves == 2
    game = Game.objects.get(pk=game.pk)
    assert services.replay(game=game) == game.state

    assert _view(ben, game.pk)["prompt"] is None
    refused = _post(_client(ben), f"/api/games/{game.pk}/actions/",
                    {"action": {"type": "take", "count": 1}, "action_id": "mine", "version": game.version})
    assert "handed your seat" in _error(refused, 403, "forbidden")
    _error(_post(_client(ben), f"/api/games/{game.pk}/resign/"), 403, "forbidden")
    assert not services.note_back(game_id=game.pk, seat=1)  # connecting again does not reclaim it
    assert Game.objects.get(pk=game.pk).version == game.version


def test_votes_that_are_not_the_tables_to_give_are_refused_and_change_nothing(make_user):
    ana, ben, cy, game = _three(make_user)
    zoe = make_user("Zoe")
    _error(_handover(ana, game.pk), 409, "conflict")  # Ben is here
    services.note_away(game_id=game.pk, seat=1, now=time.time())
    game.refresh_from_db()
    early = _handover(ana, game.pk)
    assert "Ben may still come back" in _error(early, 409, "conflict")
    assert early.json()["error"]["back_by"] == game.prompts["away"]["1"] + GRACE
    _unchanged(game)

    Game.objects.filter(pk=game.pk).update(prompts={**game.prompts, "away": {"1": time.time() - GRACE}})
    game.refresh_from_db()
    _error(_handover(zoe, game.pk), 403, "not_seated")
    assert "own seat" in _error(_handover(ben, game.pk), 403, "forbidden")
    assert "not away" in _error(_handover(ana, game.pk, seat=2), 409, "conflict")
    assert "no seat 5" in _error(_handover(ana, game.pk, seat=5), 400, "bad_request")
    for body in ({}, {"seat": "1"}, {"seat": 64}, {"seat": -1}):
        _error(_post(_client(ana), f"/api/games/{game.pk}/handover/", body), 400, "bad_request")
    _unchanged(game)

    services.resign(game_id=game.pk, user=cy)
    game.refresh_from_db()
    assert "computer player has your seat" in _error(_handover(cy, game.pk), 403, "forbidden")
    _unchanged(game)


def test_coming_back_drops_the_votes(make_user):
    ana, ben, cy, game = _three(make_user)
    services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
    _handover(ana, game.pk)
    assert _view(cy, game.pk)["away"][0]["handover_votes"] == [0]
    assert services.note_back(game_id=game.pk, seat=1)
    assert _view(cy, game.pk)["away"] == []
    services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
    assert _view(cy, game.pk)["away"][0]["handover_votes"] == []
    _handover(cy, game.pk)  # Ana's vote before Ben came back no longer counts
    assert not Seat.objects.get(game=game, number=1).is_bot
    assert _view(ana, game.pk)["away"][0]["handover_votes"] == [2]


def test_a_resigned_player_no_longer_counts_and_agreeing_again_completes_it(make_user):
    ana, ben, cy, game = _three(make_user)
    services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
    _handover(ana, game.pk)
    services.resign(game_id=game.pk, user=cy)
    assert _view(ana, game.pk)["away"][0]["handover_needs"] == 1
    _handover(ana, game.pk)
    assert _view(ana, game.pk)["handed"] == [1]


def test_the_page_offers_the_button_to_the_others_only(make_user):
    ana, ben, cy, game = _three(make_user, game_type=RESIGNING.slug)
    zoe = make_user("Zoe")
    services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
    pages = {}
    for name, user in (("ana", ana), ("ben", ben), ("cy", cy), ("zoe", zoe)):
        pages[name] = Client()
        pages[name].force_login(user)
    button = "Hand Ben's seat to a computer player (0 of 2 agreed)"
    assert button in pages["ana"].get(f"/games/{game.pk}/").content.decode()
    for name in ("ben", "zoe"):
        assert "seat to a computer player" not in pages[name].get(f"/games/{game.pk}/").content.decode()
    answer = pages["ana"].post(f"/games/{game.pk}/handover/", {"seat": "1"}, HTTP_HX_REQUEST="true")
    assert answer.content.decode() == '<div id="flash" role="alert"></div>'
    assert "You agreed to hand Ben's seat to a computer player (1 of 2 agreed)" in pages["ana"].get(
        f"/games/{game.pk}/").content.decode()
    assert "Hand Ben's seat to a computer player (1 of 2 agreed)" in pages["cy"].get(
        f"/games/{game.pk}/").content.decode()
    refused = pages["zoe"].post(f"/games/{game.pk}/handover/", {"seat": "1"}, HTTP_HX_REQUEST="true")
    assert "spectators cannot" in refused.content.decode()
    pages["cy"].post(f"/games/{game.pk}/handover/", {"seat": "1"}, HTTP_HX_REQUEST="true")
    page = pages["ana"].get(f"/games/{game.pk}/").content.decode()
    assert "handed over" in page and "the table hands Ben&#x27;s seat to a computer player" in page
    told = "The table handed your seat to a computer player: you are watching"
    assert told in pages["ben"].get(f"/games/{game.pk}/").content.decode()  # Ben, back, is told why he watches
    assert told not in page and told not in pages["zoe"].get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_both_sockets_see_the_votes_and_the_hand_over(make_user, site_backend, monkeypatch):
    from games import version_watch
    from tests.platform.test_consumers import api_socket, next_of
    from tests.platform.test_html_socket import _html_socket, _next_html, _session_cookie

    @database_sync_to_async
    def setup():
        ana, ben, cy, game = _three(make_user, game_type=RESIGNING.slug)
        services.note_away(game_id=game.pk, seat=1, now=time.time() - GRACE)
        return ana, cy, game, ApiToken.issue(user=ana, name="t")[1], _session_cookie(cy)

    monkeypatch.setattr(version_watch, "INTERVAL", 60.0)  # the broadcast alone must bring each view
    ana, cy, game, ana_key, cy_cookie = await setup()
    ana_socket = await api_socket(game.pk, ana_key)
    assert (await next_of(ana_socket, "view"))["away"][0]["handover_votes"] == []
    cy_page = await _html_socket(game.pk, cy_cookie)
    assert "(0 of 2 agreed)" in await _next_html(cy_page, 'id="live"')

    await database_sync_to_async(services.vote_handover)(game_id=game.pk, user=ana, seat=1)
    assert (await next_of(ana_socket, "view"))["away"][0]["handover_votes"] == [0]
    assert "Hand Ben's seat to a computer player (1 of 2 agreed)" in await _next_html(cy_page, 'id="live"')

    await database_sync_to_async(services.vote_handover)(game_id=game.pk, user=cy, seat=1)
    view = await next_of(ana_socket, "view")
    assert view["handed"] == [1] and view["away"] == []
    html = await _next_html(cy_page, 'id="live"')
    assert "handed over" in html and "agreed)" not in html
    await ana_socket.disconnect()
    await cy_page.disconnect()
