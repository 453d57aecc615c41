"""What each socket is sent hides what the rules hide: first connect, mid-game, reconnect."""
from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async

from games.engines.snowball_fight.privacy import find_leaks
from games.models import Game
from games.selectors import fill_names, seat_names
from tests.platform.test_consumers import _setup_game, api_socket, choose, latest_view, next_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def _secrets(game_id: int):
    """The current state and, per viewer, the log lines that viewer must never be sent."""
    game = Game.objects.get(pk=game_id)
    names = seat_names(game)
    private: dict[int | None, set[str]] = {0: set(), 1: set(), None: set()}
    for record in game.actions.all():
        for event in record.events:
            if event.get("visible_to") is None:
                continue
            for viewer in private:
                if viewer not in event["visible_to"]:
                    private[viewer].add(fill_names(event["text"], names))
    return game.state, game.version, private


def _assert_clean(payload: dict, state: dict, private: dict) -> None:
    seat = payload["seat"]
    assert find_leaks(state, payload["view"], seat) == [], f"seat {seat} was sent hidden cards"
    public_texts = {line["text"] for line in payload["log"]}
    assert not (public_texts & private[seat]), f"seat {seat} was sent someone else's private log lines"
    assert "seed" not in json.dumps(payload["view"])


async def test_views_hide_hands_choices_and_draw_piles_on_connect_and_reconnect(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    keys = {0: ana_key, 1: ben_key}
    sockets = {seat: await api_socket(game.pk, key) for seat, key in keys.items()}
    views = {seat: await next_of(comm, "view") for seat, comm in sockets.items()}
    rng = random.Random(5)
    for _ in range(40):  # into the game, not to its end: hands, face-down discards, a sealed choice pending
        if min(view["version"] for view in views.values()) >= 16:
            break
        for seat, comm in sockets.items():
            if views[seat]["legal_actions"]:
                await comm.send_json_to({"type": "action", "action": choose(views[seat]["legal_actions"], rng),
                                         "action_id": f"{seat}-{views[seat]['version']}", "version": views[seat]["version"]})
        for seat, comm in sockets.items():
            views[seat] = await latest_view(comm, timeout=0.1) or views[seat]
    # Ana makes a tentative sealed choice that must stay hers alone.
    tentative = [a for a in views[0]["legal_actions"] if a["type"] == "choose"]
    if tentative:
        await sockets[0].send_json_to({"type": "action", "action": tentative[0], "action_id": "tentative",
                                       "version": views[0]["version"]})
        views[0] = await latest_view(sockets[0], timeout=0.3) or views[0]
    await latest_view(sockets[1], timeout=0.3)
    for comm in sockets.values():
        await comm.disconnect()

    state, version, private = await _secrets(game.pk)
    for seat, key in [(0, ana_key), (1, ben_key), (None, None)]:
        comm = await api_socket(game.pk, key)
        payload = await next_of(comm, "view")
        assert payload["version"] == version and payload["seat"] == seat
        assert payload["status"] == "active" and payload["view"]["phase"] == "play"
        _assert_clean(payload, state, private)
        if seat != 0 and tentative:
            assert tentative[0]["card"] not in json.dumps(payload["view"].get("you") or {})
        await comm.disconnect()
