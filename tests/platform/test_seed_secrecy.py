"""The seed and its salt reach no one before the game is over: not a player, not a spectator,
on the JSON socket or the page's HTML socket, on first connect, after a move or on reconnect;
the commitment reaches all of them from the start; at the end the seed and salt are published."""
from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async

from games import engines, selectors, services
from games.models import ApiToken, Game
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_html_socket import _html_socket, _next_live, _session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _secrets_in(text: str, game: Game) -> list[str]:
    return [s for s in (str(game.seed), game.seed_salt) if s in text]


@database_sync_to_async
def _table(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="snowball-fight")
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ana)
    game.refresh_from_db()
    keys = {who: ApiToken.issue(user=user, name="t")[1] for who, user in (("ana", ana), ("ben", ben))}
    return game, ana, ben, keys, _session_cookie(ana)


@database_sync_to_async
def _ana_moves(game: Game, ana) -> None:
    game.refresh_from_db()
    ruleset = engines.get(game.game_type)
    state = selectors.game_state(game)
    services.submit_action(game_id=game.pk, user=ana, action=ruleset.bot_action(state, 0),
                           action_id=uuid.uuid4().hex, version=game.version)


async def _frames(game: Game, keys: dict, cookie: bytes) -> list[str]:
    """A first frame of each socket: Ana's and a spectator's, JSON and HTML."""
    texts = []
    for key in (keys["ana"], None):
        comm = await api_socket(game.pk, key)
        texts.append(str(await next_of(comm, "view")))
        await comm.disconnect()
    for session in (cookie, None):
        comm = await _html_socket(game.pk, session)
        texts.append(await _next_live(comm))
        await comm.disconnect()
    return texts


async def test_no_socket_carries_the_seed_before_the_end_and_every_one_after(make_user):
    game, ana, ben, keys, cookie = await _table(make_user)
    watchers = [await api_socket(game.pk, keys["ana"]), await api_socket(game.pk, None)]
    first = [await next_of(comm, "view") for comm in watchers]
    for view in first:
        assert view["dice"] == {"commitment": game.seed_commitment, "seed": None, "salt": None}
        assert _secrets_in(str(view), game) == []
    await _ana_moves(game, ana)
    for comm in watchers:
        assert _secrets_in(str(await next_of(comm, "view")), game) == []
        await comm.disconnect()
    for text in await _frames(game, keys, cookie):  # reconnecting
        assert _secrets_in(text, game) == []

    await database_sync_to_async(services.resign)(game_id=game.pk, user=ben)
    for text in await _frames(game, keys, cookie):
        assert _secrets_in(text, game) == [str(game.seed), game.seed_salt]
