"""What a worker keeps of a game once nobody on it watches: nothing (issue: memory that grew
with every game played, 8 MB a minute with twenty bot games)."""
from __future__ import annotations

import random
import uuid

import pytest
from channels.db import database_sync_to_async

from games import presence, selectors, services
from games.rendering import VIEW_HTML
from games.state_cache import STATE_CACHE
from tests.platform.test_consumers import _setup_game, api_socket, choose, latest_view, next_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def cached_for(game_id: int) -> list[str]:
    """The caches of this process that still hold something of the game."""
    held = []
    if selectors.SNAPSHOTS.get(game_id) is not None:
        held.append("snapshot")
    if any(selectors.PAYLOADS.get((game_id, seat)) is not None for seat in (None, 0, 1)):
        held.append("views")
    if STATE_CACHE._lru.get(game_id) is not None:
        held.append("state")
    if any(key[0] == game_id for key in list(VIEW_HTML._data)):
        held.append("spectator html")
    return held


async def _play_some(game_id: int, sockets: dict[int, object], moves: int, rng: random.Random) -> dict:
    views = {seat: await next_of(comm, "view") for seat, comm in sockets.items()}
    for _ in range(moves):
        seat = next((s for s, v in views.items() if v["legal_actions"]), None)
        if seat is None:
            break
        await sockets[seat].send_json_to({"type": "action", "action": choose(views[seat]["legal_actions"], rng),
                                          "action_id": uuid.uuid4().hex, "version": views[seat]["version"]})
        await next_of(sockets[seat], "ack")
        for s, comm in sockets.items():
            views[s] = await latest_view(comm) or views[s]
    return views


async def test_games_leave_nothing_cached_once_their_last_socket_closes(site_backend, make_user):
    rng = random.Random(3)
    played = []
    for _ in range(3):
        game, ana_key, ben_key = await _setup_game(make_user)
        sockets = {0: await api_socket(game.pk, ana_key), 1: await api_socket(game.pk, ben_key)}
        spectator = await api_socket(game.pk, None)
        await next_of(spectator, "view")
        await _play_some(game.pk, sockets, 3, rng)
        assert "snapshot" in cached_for(game.pk)
        for comm in (*sockets.values(), spectator):
            await comm.disconnect()
        played.append(game.pk)
    assert {game_id: cached_for(game_id) for game_id in played} == {game_id: [] for game_id in played}
    assert len(selectors.SNAPSHOTS) == 0 and len(selectors.PAYLOADS) == 0 and len(STATE_CACHE) == 0
    assert all(presence.sockets_watching(game_id) == 0 for game_id in played)


async def test_a_game_stays_cached_while_one_socket_still_watches_it(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    ana, ben = await api_socket(game.pk, ana_key), await api_socket(game.pk, ben_key)
    await _play_some(game.pk, {0: ana, 1: ben}, 2, random.Random(1))
    await ben.disconnect()
    assert presence.sockets_watching(game.pk) == 1
    assert "snapshot" in cached_for(game.pk)
    await ana.disconnect()
    assert cached_for(game.pk) == []


async def test_a_forgotten_game_is_played_on_from_the_database(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    ana, ben = await api_socket(game.pk, ana_key), await api_socket(game.pk, ben_key)
    views = await _play_some(game.pk, {0: ana, 1: ben}, 4, random.Random(5))
    version = max(v["version"] for v in views.values())
    await ana.disconnect()
    await ben.disconnect()
    assert cached_for(game.pk) == []

    ana, ben = await api_socket(game.pk, ana_key), await api_socket(game.pk, ben_key)
    views = await _play_some(game.pk, {0: ana, 1: ben}, 4, random.Random(6))
    assert min(v["version"] for v in views.values()) >= version
    await ana.disconnect()
    await ben.disconnect()
    stored = await database_sync_to_async(selectors.get_game)(game.pk)
    assert services.replay(game=stored) == stored.state
