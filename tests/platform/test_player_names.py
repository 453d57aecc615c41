"""Names players choose, as every other viewer reads them: a name that reads like the log's place
for a seat's name (``{p1}``) is shown as written, never as another player's."""
from __future__ import annotations

import time

import pytest
from django.test import Client

from games import services
from games.models import ApiToken
from tests.platform.helpers import started_game

pytestmark = pytest.mark.django_db


def _view(user, game_id: int) -> dict:
    _, key = ApiToken.issue(user=user, name="bot")
    answer = Client(HTTP_AUTHORIZATION=f"Token {key}").get(f"/api/games/{game_id}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def _log(user, game_id: int) -> list[str]:
    return [line["text"] for line in _view(user, game_id)["log"]]


@pytest.mark.parametrize("name", ["{p1}", "{p0}", "{p2}", "{p1}{p0}"])
def test_a_player_named_like_a_place_for_a_name_resigns_under_that_name_not_the_opponents(make_user, name):
    impostor, ben = make_user(name, guest=True), make_user("Ben", guest=True)
    game = started_game(impostor, ben)
    services.resign(game_id=game.pk, user=impostor)
    for viewer in (impostor, ben):
        view = _view(viewer, game.pk)
        assert f"{name} resigns" in [line["text"] for line in view["log"]]
        assert not any(line["text"].startswith("Ben resign") for line in view["log"])
        assert view["outcome"]["reason"] == f"{name} resigned"


def test_the_table_hands_over_the_seat_of_the_player_it_names(make_user, settings):
    settings.SNOWBALL_ABSENCE_GRACE = 60.0
    ana, impostor, cy = make_user("Ana"), make_user("{p0}", guest=True), make_user("Cy")
    game = started_game(ana, impostor, cy, game_type="snowball-fighting")
    left_at = time.time() - 1000
    services.note_away(game_id=game.pk, seat=1, now=left_at)
    for voter in (ana, cy):
        services.vote_handover(game_id=game.pk, user=voter, seat=1, now=left_at + 60)
    assert "the table hands {p0}'s seat to a computer player" in _log(cy, game.pk)
    assert "the table hands Ana's seat to a computer player" not in _log(cy, game.pk)
