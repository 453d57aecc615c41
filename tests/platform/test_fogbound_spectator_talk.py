"""Where Fogbound's spectators see the whole garden, they (and a player who resigned and
watches with them) may only read the table talk while the game is in play: they would
otherwise tell the players what the fog hides."""
from __future__ import annotations

import pytest

from games import services
from games.errors import Forbidden
from games.models import Game
from games.selectors import chat
from tests.platform.test_fogbound_privacy import _start

pytestmark = pytest.mark.django_db(transaction=True)

MUTED = "spectators see what the players do not in this game"


def _says(game_id: int, user, text: str) -> dict:
    return services.post_message(game_id=game_id, user=user, channel="table", text=text)


def test_spectators_who_see_the_whole_garden_only_read_the_table_until_the_end(make_user):
    game_id, users = _start(make_user, 3, True)
    dee = make_user("Dee")
    with pytest.raises(Forbidden, match=MUTED):
        _says(game_id, dee, "Ben is at AB12")
    table = chat.talk_of(Game.objects.get(pk=game_id), dee).channel("table")
    assert not table.writable and MUTED in table.closed_because
    assert _says(game_id, users[1], "good luck")["text"] == "good luck"  # the players talk on

    services.resign(game_id=game_id, user=users[0])
    with pytest.raises(Forbidden, match=MUTED):
        _says(game_id, users[0], "Ben is at AB12")
    assert _says(game_id, users[2], "one less")["text"] == "one less"

    Game.objects.filter(pk=game_id).update(status=Game.Status.FINISHED)
    assert _says(game_id, dee, "well played")["text"] == "well played"
    assert _says(game_id, users[0], "well played")["text"] == "well played"


def test_spectators_in_the_fog_with_the_players_may_talk(make_user):
    game_id, users = _start(make_user, 3, False)
    assert _says(game_id, make_user("Dee"), "go Ana!")["text"] == "go Ana!"


def test_an_anonymous_visitor_is_not_told_that_a_name_would_let_them_talk_where_spectators_only_read(make_user):
    from django.test import Client

    muted, users = _start(make_user, 3, True)
    open_game, _ = _start(make_user, 4, False)
    assert "Pick a guest name above to talk." in Client().get(f"/games/{open_game}/").content.decode()
    page = Client().get(f"/games/{muted}/").content.decode()
    assert "Spectators of this game may only read the table talk." in page
    assert "Pick a guest name above to talk." not in page
    table = chat.talk_of(Game.objects.get(pk=muted), None).channel("table")
    assert MUTED in table.closed_because
