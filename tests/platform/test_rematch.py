"""A rematch of a finished game, in every game: offered, accepted or declined by its players
(computer players accept at once), started with the same table one seat round, over the
services, the HTTP API, the JSON socket and the page."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from games import services
from games.errors import Conflict, NotSeated
from games.models import ApiToken, Game

pytestmark = pytest.mark.django_db

# game: (seats, teams, options); each table is finished by all but one side resigning.
TABLES = {
    "snowball-fight": (3, 0, {}),
    "snowball-fighting": (3, 0, {}),
    "what-a-snowball": (4, 2, {}),
    "jingle-bells": (2, 0, {"layout": "garden"}),
}
NAMES = ("Ana", "Ben", "Cy", "Dee")


def _finished(make_user, game_type: str, *, pace: str = "live", is_public: bool = True):
    """A finished table of ``game_type`` with people in every seat (teams 0, 1, 0, 1), ended
    by the resignation of every side but the last seat's."""
    seats, teams, options = TABLES[game_type]
    users = [make_user(name) for name in NAMES[:seats]]
    game = services.create_game(creator=users[0], game_type=game_type, num_seats=seats, num_teams=teams or None,
                                options=options, pace=pace, is_public=is_public)
    for seat in range(1, seats):
        services.join_seat(game_id=game.pk, user=users[seat], number=seat, team=seat % 2 if teams else None)
    services.start_game(game_id=game.pk, user=users[0])
    last_side = {seats - 1} | ({s for s in range(seats) if s % 2 == (seats - 1) % 2} if teams else set())
    for seat in range(seats):
        if seat not in last_side and Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
            services.resign(game_id=game.pk, user=users[seat])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, users


@pytest.mark.parametrize("game_type", sorted(TABLES))
def test_when_everyone_accepts_the_same_table_starts_one_seat_round(make_user, game_type):
    game, users = _finished(make_user, game_type, pace="daily", is_public=False)
    old_seats = {s.number: (s.user_id, s.team) for s in game.seats.all()}
    services.offer_rematch(game_id=game.pk, user=users[1])
    for user in users[2:] + users[:1]:
        assert Game.objects.count() == 1, "the rematch started before everyone accepted"
        services.accept_rematch(game_id=game.pk, user=user)
    game.refresh_from_db()
    new = Game.objects.get(pk=game.rematch["game"])
    assert new.status == Game.Status.ACTIVE
    assert (new.game_type, new.options, new.num_seats, new.num_teams, new.pace, new.decision_seconds,
            new.is_public) == (game.game_type, game.options, game.num_seats, game.num_teams, game.pace,
                               game.decision_seconds, game.is_public)
    assert new.seed != game.seed
    seats = game.num_seats
    new_seats = {s.number: (s.user_id, s.team) for s in new.seats.all()}
    assert new_seats == {(n - 1) % seats: held for n, held in old_seats.items()}
    assert new_seats[0][0] == users[1].pk, "the second player of the last game goes first"
    assert not new.seats.filter(is_bot=True).exists(), "players who resigned play again"
    if "first_picker" in game.state:  # a first player drawn from the seed goes to the other player
        assert old_seats[game.state["first_picker"]][0] != new_seats[new.state["first_picker"]][0]


def test_computer_players_accept_at_once(make_user):
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type="jingle-bells", num_seats=2, options={"layout": "garden"})
    services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    services.resign(game_id=game.pk, user=ana)
    services.offer_rematch(game_id=game.pk, user=ana)
    game.refresh_from_db()
    assert game.rematch["accepted"] == [0, 1]
    new = Game.objects.get(pk=game.rematch["game"])
    assert new.status == Game.Status.ACTIVE
    assert [(s.user_id, s.is_bot) for s in new.seats.all()] == [(None, True), (ana.pk, False)]


def test_a_finished_game_holding_an_option_its_game_does_not_list_is_played_again_without_it(make_user):
    """A game saved with a name its game does not list (Jingle Bells and What a Snowball! kept
    one as it was sent) is played again with only the options the game lists."""
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type="jingle-bells", num_seats=2, options={"layout": "garden"})
    Game.objects.filter(pk=game.pk).update(options={"layout": "garden", "colour": "red"})
    services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    services.resign(game_id=game.pk, user=ana)
    services.offer_rematch(game_id=game.pk, user=ana)
    game.refresh_from_db()
    new = Game.objects.get(pk=game.rematch["game"])
    assert new.status == Game.Status.ACTIVE and new.options == {"layout": "garden"}


def test_a_decline_ends_the_offer_for_everyone(make_user):
    game, (ana, ben, cy) = _finished(make_user, "snowball-fight")
    services.offer_rematch(game_id=game.pk, user=ana)
    services.accept_rematch(game_id=game.pk, user=ben)
    services.decline_rematch(game_id=game.pk, user=cy)
    with pytest.raises(Conflict, match="declined"):
        services.accept_rematch(game_id=game.pk, user=ben)
    game.refresh_from_db()
    assert game.rematch == {"by": 0, "accepted": [0, 1], "declined": 2, "game": None}
    assert Game.objects.count() == 1
    services.offer_rematch(game_id=game.pk, user=cy)  # a new offer may follow
    game.refresh_from_db()
    assert game.rematch == {"by": 2, "accepted": [2], "declined": None, "game": None}


def test_refusals_change_nothing(make_user):
    ana, ben, eve = make_user("Ana"), make_user("Ben"), make_user("Eve")
    game = services.create_game(creator=ana, game_type="jingle-bells", num_seats=2, options={"layout": "garden"})
    services.join_seat(game_id=game.pk, user=ben)
    with pytest.raises(Conflict, match="not started"):
        services.offer_rematch(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    with pytest.raises(Conflict, match="still in play"):
        services.offer_rematch(game_id=game.pk, user=ana)
    services.resign(game_id=game.pk, user=ben)
    with pytest.raises(Conflict, match="no rematch is offered"):
        services.accept_rematch(game_id=game.pk, user=ana)
    with pytest.raises(NotSeated):
        services.offer_rematch(game_id=game.pk, user=eve)
    services.offer_rematch(game_id=game.pk, user=ana)
    game.refresh_from_db()
    version = game.version
    with pytest.raises(Conflict, match="already offered"):
        services.offer_rematch(game_id=game.pk, user=ben)
    with pytest.raises(Conflict, match="already accepted"):
        services.accept_rematch(game_id=game.pk, user=ana)
    with pytest.raises(NotSeated):
        services.decline_rematch(game_id=game.pk, user=eve)
    game.refresh_from_db()
    assert (game.version, game.rematch) == (version, {"by": 0, "accepted": [0], "declined": None, "game": None})
    services.accept_rematch(game_id=game.pk, user=ben)
    with pytest.raises(Conflict, match="already started"):
        services.offer_rematch(game_id=game.pk, user=ben)
    assert Game.objects.count() == 2


def _api(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def _post(client: Client, url: str):
    return client.post(url, data=json.dumps({}), content_type="application/json")


def test_the_http_api_offers_answers_and_refuses(make_user):
    game, (ana, ben, cy) = _finished(make_user, "snowball-fight")
    eve = make_user("Eve")
    base = f"/api/games/{game.pk}/rematch/"
    refused = _post(_api(eve), base)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_seated"
    offered = _post(_api(ana), base)
    assert offered.status_code == 200
    assert offered.json()["rematch"] == {"status": "offered", "offered_by": 0, "accepted": [0],
                                         "waiting_for": [1, 2], "declined_by": None, "game_id": None}
    twice = _post(_api(ben), base)
    assert twice.status_code == 409 and "already offered" in twice.json()["error"]["message"]
    assert _post(_api(ben), base + "maybe/").status_code == 404
    assert _post(_api(ben), base + "accept/").json()["rematch"]["accepted"] == [0, 1]
    detail = _api(cy).get(f"/api/games/{game.pk}/").json()
    assert detail["rematch"]["waiting_for"] == [2]
    started = _post(_api(cy), base + "accept/").json()["rematch"]
    assert started["status"] == "started" and Game.objects.filter(pk=started["game_id"], status="active").exists()


def test_the_http_api_refuses_a_rematch_of_a_game_in_play(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="snowball-fight", num_seats=2)
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ana)
    answer = _post(_api(ana), f"/api/games/{game.pk}/rematch/")
    assert answer.status_code == 409 and "still in play" in answer.json()["error"]["message"]
    assert Game.objects.get(pk=game.pk).rematch is None


def test_the_page_offers_and_asks(make_user):
    game, (ana, ben, cy) = _finished(make_user, "snowball-fight")
    page = Client()
    page.force_login(ana)  # resigned: still asked
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert 'id="rematch-offer"' in html
    spectator = Client()
    spectator.force_login(make_user("Eve"))
    assert 'id="rematch-offer"' not in spectator.get(f"/games/{game.pk}/").content.decode()
    page.post(f"/games/{game.pk}/rematch/", HTTP_HX_REQUEST="true")
    ben_page = Client()
    ben_page.force_login(ben)
    html = ben_page.get(f"/games/{game.pk}/").content.decode()
    assert "Ana offered a rematch." in html and 'id="rematch-accept"' in html and 'id="rematch-decline"' in html
    asked = " ".join(html.split("Waiting for ")[1].split(".")[0].split())
    assert "you" in asked.split(", ") and "Ben" not in asked  # the one asked reads "you", not its own name
    assert "Ben" in " ".join(page.get(f"/games/{game.pk}/").content.decode().split("Waiting for ")[1].split(".")[0].split())
    ben_page.post(f"/games/{game.pk}/rematch-decline/", HTTP_HX_REQUEST="true")
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert "Ben declined." in html and 'id="rematch-accept"' not in html
    # an offer its player withdraws says so, not that the player accepted and declined it
    page.post(f"/games/{game.pk}/rematch/", HTTP_HX_REQUEST="true")
    page.post(f"/games/{game.pk}/rematch-decline/", HTTP_HX_REQUEST="true")
    html = " ".join(ben_page.get(f"/games/{game.pk}/").content.decode().split())
    assert "Ana offered a rematch, then withdrew the offer." in html
    assert "Accepted: Ana" not in html and "Ana declined" not in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_json_socket_sends_a_rematch_frame_with_the_new_game(make_user):
    from channels.db import database_sync_to_async

    from tests.platform.test_consumers import api_socket, next_of

    game, (ana, ben, cy) = await database_sync_to_async(_finished)(make_user, "snowball-fight")
    key = await database_sync_to_async(lambda: ApiToken.issue(user=ben, name="bot")[1])()
    socket = await api_socket(game.pk, key)
    try:
        assert (await next_of(socket, "view"))["rematch"] is None
        await database_sync_to_async(services.offer_rematch)(game_id=game.pk, user=cy)
        offered = await next_of(socket, "rematch")
        assert (offered["status"], offered["offered_by"], offered["waiting_for"]) == ("offered", 2, [0, 1])
        for user in (ana, ben):
            await database_sync_to_async(services.accept_rematch)(game_id=game.pk, user=user)
        frame = await next_of(socket, "rematch")
        while frame["status"] != "started":
            frame = await next_of(socket, "rematch")
        new = await database_sync_to_async(Game.objects.get)(pk=frame["game_id"])
        assert new.status == Game.Status.ACTIVE
    finally:
        await socket.disconnect()


def test_a_resigned_player_is_asked_on_the_socket_and_a_spectator_is_not(make_user):
    """The live region a socket sends: spectators share one rendering per version; a player
    who resigned (a spectator of the play) gets its own, with its buttons."""
    from games import rendering, selectors

    game, (ana, ben, cy) = _finished(make_user, "snowball-fight")
    eve = make_user("Eve")
    services.offer_rematch(game_id=game.pk, user=cy)
    game.refresh_from_db()
    for order in ((eve, ana), (ana, eve)):
        rendering.VIEW_HTML.clear()
        html = {}
        for user in order:
            html[user.pk] = rendering.live_html(game, selectors.viewer_payload(game, None), user)
        assert 'id="rematch-accept"' in html[ana.pk]
        assert 'id="rematch-accept"' not in html[eve.pk]


def test_the_first_pick_of_jingle_bells_goes_to_the_other_player_game_after_game(make_user):
    """Jingle Bells draws its first picker from the seed: six rematches in a row alternate it
    (by chance alone, one time in 64)."""
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type="jingle-bells", num_seats=2, options={"layout": "garden"})
    services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    first_was_ana = []
    for _ in range(7):
        game.refresh_from_db()
        first_was_ana.append(game.seats.get(number=game.state["first_picker"]).user_id == ana.pk)
        services.resign(game_id=game.pk, user=ana)
        services.offer_rematch(game_id=game.pk, user=ana)
        game = Game.objects.get(pk=Game.objects.get(pk=game.pk).rematch["game"])
    assert all(a != b for a, b in zip(first_was_ana, first_was_ana[1:])), first_was_ana


def test_pages_of_a_private_game_lead_its_players_to_the_rematch_and_not_its_spectators(make_user):
    game, (ana, ben) = _finished(make_user, "jingle-bells", is_public=False)
    services.offer_rematch(game_id=game.pk, user=ana)
    services.accept_rematch(game_id=game.pk, user=ben)
    new_id = Game.objects.get(pk=game.pk).rematch["game"]
    player, invited = Client(), Client()
    player.force_login(ben)
    invited.force_login(make_user("Eve"))
    html = player.get(f"/games/{game.pk}/").content.decode()
    assert f'data-follow-to="/games/{new_id}/"' in html
    assert player.get(f"/games/{new_id}/").status_code == 200
    html = invited.get(f"/games/{game.pk}/?invite={game.invite_code}").content.decode()
    assert "The rematch has started at a private table." in html and "data-follow-to" not in html
