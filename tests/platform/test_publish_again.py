"""Agreeing again to publish a pair channel over HTTP: answered as the first time, with the
channel as it is, and nothing changes or is announced again (docs/api.md, Table talk)."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import ApiToken, Game, PairPublication
from tests.platform.helpers import play_to_end, started_game

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def test_publishing_a_pair_again_answers_the_channel_as_it_is_and_changes_nothing(
        make_user, django_capture_on_commit_callbacks):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, options={"draft": "quick"})
    assert play_to_end(game.pk, {0: ana, 1: ben}).status == Game.Status.FINISHED
    url = f"/api/games/{game.pk}/chat/publish/"

    def publish(user, seat: int) -> tuple[dict, int]:
        with django_capture_on_commit_callbacks(execute=False) as announced:
            answer = _client(user).post(url, data=json.dumps({"with": seat}), content_type="application/json")
        assert answer.status_code == 200, answer.content
        return answer.json()["channel"], len(announced)

    first, told = publish(ana, 1)
    assert (first["published"], first["consents"], told) == (False, [0], 1)
    assert publish(ana, 1) == (first, 0)  # before Ben agrees
    both, told = publish(ben, 0)
    assert (both["published"], both["consents"], told) == (True, [0, 1], 1)
    again, told = publish(ana, 1)  # after the pair is published
    assert (again["published"], again["consents"], told) == (True, [0, 1], 0)
    assert PairPublication.objects.filter(game=game).count() == 2
