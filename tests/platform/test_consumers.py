"""The game websockets, driven with Channels' WebsocketCommunicator on both backends."""
from __future__ import annotations

import asyncio
import json
import random
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.coordinator import Presence
from games.models import ApiToken, Game
from snowball_site.asgi import application
from tests.conftest import REDIS_TEST_URL
from tests.platform.helpers import started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")


async def api_socket(game_id: int, key: str | None = None, *, origin: bytes | None = b"http://localhost") -> WebsocketCommunicator:
    headers = [(b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin))
    if key:
        headers.append((b"authorization", f"Token {key}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert connected, f"refused with {code}"
    return comm


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 5.0) -> dict:
    """The next frame of type ``kind``, skipping others (presence, acks); fails when none has
    come within ``timeout`` seconds in all, however many other frames came meanwhile."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    skipped: list[str] = []
    while (left := deadline - loop.time()) > 0:
        try:
            frame = json.loads(await comm.receive_from(timeout=left))
        except asyncio.TimeoutError:
            break
        if frame["type"] == kind:
            return frame
        skipped.append(frame["type"])
    raise AssertionError(f"no {kind!r} frame within {timeout} s (got only {skipped})")


async def latest_view(comm: WebsocketCommunicator, timeout: float = 0.3) -> dict | None:
    """Drain the socket and return the newest view in it, or None.

    (``receive_nothing`` waits without cancelling the application, unlike a timed-out receive.)
    """
    newest = None
    for _ in range(1000):
        if await comm.receive_nothing(timeout=timeout):
            return newest
        frame = json.loads(await comm.receive_from())
        if frame["type"] == "view" and (newest is None or frame["version"] >= newest["version"]):
            newest = frame
    raise AssertionError("the socket never fell quiet: 1000 frames without a pause")


class Progress:
    """Fails a loop that drives a game once no new version has come for ``patience`` seconds,
    instead of letting it spin through every round it was allowed."""

    def __init__(self, patience: float = 10.0):
        self.patience = patience
        self.version = -1
        self.since = time.monotonic()

    def saw(self, *views: dict) -> None:
        newest = max(view["version"] for view in views)
        if newest > self.version:
            self.version, self.since = newest, time.monotonic()
        assert time.monotonic() - self.since < self.patience, \
            f"the game made no progress for {self.patience} s (stuck at version {self.version})"


def choose(legal: list[dict], rng: random.Random) -> dict:
    decisive = [a for a in legal if a["type"] != "choose"]
    return rng.choice(decisive or legal)


@database_sync_to_async
def _setup_game(make_user, bots: int = 0):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, *([] if bots else [ben]), bots=bots)
    _, ana_key = ApiToken.issue(user=ana, name="t")
    _, ben_key = ApiToken.issue(user=ben, name="t")
    return game, ana_key, ben_key


async def test_full_game_two_players_and_a_spectator(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    ben = await api_socket(game.pk, ben_key)
    spy = await api_socket(game.pk, None)
    views = {0: await next_of(ana, "view"), 1: await next_of(ben, "view")}
    spectator = await next_of(spy, "view")
    assert views[0]["seat"] == 0 and views[1]["seat"] == 1 and spectator["seat"] is None
    assert spectator["legal_actions"] == [] and spectator["prompt"] is None
    rng = random.Random(7)
    sockets = {0: ana, 1: ben}
    seen_spectator_versions = [spectator["version"]]
    progress = Progress()
    for _ in range(2000):
        if all(v["status"] == "finished" for v in views.values()):
            break
        progress.saw(*views.values())
        acted = False
        for seat, view in views.items():
            if view["legal_actions"]:
                action = choose(view["legal_actions"], rng)
                await sockets[seat].send_json_to({"type": "action", "action": action,
                                                  "action_id": f"{seat}-{view['version']}-{rng.random()}",
                                                  "version": view["version"]})
                acted = True
        for seat in (0, 1):
            fresh = await latest_view(sockets[seat], timeout=0.05 if acted else 0.5)
            if fresh is not None:
                views[seat] = fresh
        fresh = await latest_view(spy, timeout=0.01)
        if fresh is not None:
            seen_spectator_versions.append(fresh["version"])
            assert fresh["legal_actions"] == [] and fresh["prompt"] is None
    final = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert final.status == Game.Status.FINISHED
    spectator_final = await latest_view(spy, timeout=0.5)
    assert (spectator_final or {"version": seen_spectator_versions[-1]})["version"] <= final.version
    assert seen_spectator_versions == sorted(seen_spectator_versions)
    assert views[0]["outcome"]["scores"] == final.outcome["scores"]
    assert views[1]["outcome"]["winners"] == final.outcome["winners"]
    for comm in (ana, ben, spy):
        await comm.disconnect()


async def test_reconnect_gets_the_same_view_back(site_backend, make_user):
    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    first = await next_of(ana, "view")
    await ana.send_json_to({"type": "action", "action": choose(first["legal_actions"], random.Random(1)),
                            "action_id": "r1", "version": first["version"]})
    ack = await next_of(ana, "ack")
    mid = await next_of(ana, "view")
    assert ack["version"] == mid["version"]
    await ana.disconnect()
    again = await api_socket(game.pk, ana_key)
    back = await next_of(again, "view")
    assert back == mid
    await again.disconnect()


async def test_duplicate_stale_stranger_and_malformed_frames(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    stranger = await database_sync_to_async(make_user)("Eve")
    _, eve_key = await database_sync_to_async(ApiToken.issue)(user=stranger, name="t")
    ana = await api_socket(game.pk, ana_key)
    view = await next_of(ana, "view")
    action = choose(view["legal_actions"], random.Random(2))

    frame = {"type": "action", "action": action, "action_id": "dup-1", "version": view["version"]}
    await ana.send_json_to(frame)
    assert (await next_of(ana, "ack"))["duplicate"] is False
    await ana.send_json_to(frame)
    dup = await next_of(ana, "ack")
    assert dup["duplicate"] is True

    eve = await api_socket(game.pk, eve_key)
    await next_of(eve, "view")
    await eve.send_json_to({"type": "action", "action": action, "action_id": "e1", "version": view["version"]})
    error = await next_of(eve, "error")
    assert error["code"] == "not_seated" and "spectator" in error["message"]

    await ana.send_to(text_data="{not json")
    error = await next_of(ana, "error")
    assert error["code"] == "malformed" and "JSON" in error["message"]
    await ana.send_json_to(["a", "list"])
    assert (await next_of(ana, "error"))["code"] == "malformed"
    await ana.send_json_to({"type": "dance"})
    assert '"type" must be one of "action", "refresh", "ping"' in (await next_of(ana, "error"))["message"]
    await ana.send_to(text_data="x" * 5000)
    assert (await next_of(ana, "error"))["code"] == "frame_too_large"

    recorded = await database_sync_to_async(lambda: list(Game.objects.get(pk=game.pk).actions.values_list("action_id", flat=True)))()
    assert recorded == ["dup-1"]
    for comm in (ana, eve):
        await comm.disconnect()


async def test_stale_version_is_refused_with_the_current_view(site_backend, make_user):
    game, ana_key, ben_key = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    ben = await api_socket(game.pk, ben_key)
    old = await next_of(ana, "view")
    bview = await next_of(ben, "view")
    rng = random.Random(3)
    # Play until Ana's prompt has changed since `old`.
    versions = {0: old, 1: bview}
    for _ in range(30):
        for seat, comm in ((0, ana), (1, ben)):
            v = versions[seat]
            if v["legal_actions"]:
                await comm.send_json_to({"type": "action", "action": choose(v["legal_actions"], rng),
                                         "action_id": f"s{seat}-{v['version']}", "version": v["version"]})
        for seat, comm in ((0, ana), (1, ben)):
            versions[seat] = await latest_view(comm, timeout=0.2) or versions[seat]
        if versions[0]["version"] > old["version"] + 2 and versions[0]["legal_actions"]:
            break
    await ana.send_json_to({"type": "action", "action": versions[0]["legal_actions"][0],
                            "action_id": "stale-1", "version": old["version"]})
    error = await next_of(ana, "error")
    assert error["code"] == "stale_version"
    current = await next_of(ana, "view")
    assert current["version"] == versions[0]["version"] == error["current_version"], "as over HTTP"
    for comm in (ana, ben):
        await comm.disconnect()


@database_sync_to_async
def _fighting_game(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type="snowball-fighting")
    return game, ApiToken.issue(user=ana, name="t")[1]


async def test_a_deadline_frame_from_a_player_is_refused_and_changes_nothing(site_backend, make_user):
    """Snowball Fighting's default at a deadline is the server's to play: not offered, and refused
    from a player's socket with an error frame, the seat still asked."""
    game, ana_key = await _fighting_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    view = await next_of(ana, "view")
    assert view["prompt"]["default"] == {"type": "deadline"}
    assert "deadline" not in {a["type"] for a in view["legal_actions"]}
    await ana.send_json_to({"type": "action", "action": {"type": "deadline"}, "action_id": "d1",
                            "version": view["version"]})
    error = await next_of(ana, "error")
    assert (error["code"], error["action_id"]) == ("bad_action", "d1") and "'deadline'" in error["message"]
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert game.version == view["version"] and game.state["ready"] == [False, False]
    await ana.disconnect()


async def test_spectator_count_is_shown_to_everyone(site_backend, make_user):
    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    await next_of(ana, "view")
    watchers = [await api_socket(game.pk) for _ in range(2)]
    for _ in range(5):
        presence = await next_of(ana, "presence")
        if presence["spectators"] == 2:
            break
    assert presence["spectators"] == 2 and presence["seats_connected"] == [0]
    await watchers[0].disconnect()
    for _ in range(5):
        presence = await next_of(ana, "presence")
        if presence["spectators"] == 1:
            break
    assert presence["spectators"] == 1
    for comm in (ana, watchers[1]):
        await comm.disconnect()


def _new_coordinator(*, presence_ttl: float):
    """Replace the process's coordinator by one that knows no connection and forgets them
    after ``presence_ttl`` seconds unseen, on the test's backend (as a Redis that lost its
    data would be)."""
    from games import coordinator

    current = coordinator.get_coordinator()
    if isinstance(current, coordinator.RedisCoordinator):
        fresh = coordinator.RedisCoordinator(REDIS_TEST_URL, prefix=f"{current.prefix}-{uuid.uuid4().hex[:6]}",
                                             presence_ttl=presence_ttl)
    else:
        fresh = coordinator.MemoryCoordinator(presence_ttl=presence_ttl)
    coordinator.reset_coordinator()
    coordinator._instance = fresh
    return fresh


async def drain(comm: WebsocketCommunicator) -> None:
    while not await comm.receive_nothing(timeout=0.2):
        await comm.receive_from()


async def test_sockets_stay_present_by_heartbeat_and_are_seen_again_after_presence_was_lost(
        site_backend, make_user, settings):
    settings.SNOWBALL_PRESENCE_HEARTBEAT = 0.1
    first = _new_coordinator(presence_ttl=1.0)  # ten heartbeats: a loaded machine runs some late
    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    watcher = await api_socket(game.pk)

    await drain(ana)

    # three lifetimes, in which the heartbeats keep both present: nobody seems to leave or come back
    assert await ana.receive_nothing(timeout=3.0)
    assert first.presence(game.pk) == Presence(frozenset({0}), 1, 2)
    second = _new_coordinator(presence_ttl=1.0)
    assert second.presence(game.pk).connections == 0
    frame = await next_of(ana, "presence", timeout=2)
    while frame["spectators"] != 1 or frame["seats_connected"] != [0]:  # both rejoin, in either order
        frame = await next_of(ana, "presence", timeout=2)
    # the frame was sent at once; read the coordinator within a heartbeat or two of it, as a busy
    # machine may run the next heartbeat late and let an entry lapse for a moment
    for _ in range(20):
        if second.presence(game.pk) == Presence(frozenset({0}), 1, 2):
            break
        await asyncio.sleep(0.1)
    assert second.presence(game.pk) == Presence(frozenset({0}), 1, 2)
    for comm in (ana, watcher):
        await comm.disconnect()


async def test_flooding_socket_is_throttled_then_closed(site_backend, make_user, settings):
    settings.SNOWBALL_SOCKET_BURST = 3
    settings.SNOWBALL_SOCKET_RATE = 1
    settings.SNOWBALL_SOCKET_STRIKES = 5
    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    await next_of(ana, "view")
    for _ in range(12):
        await ana.send_json_to({"type": "ping"})
    codes = []
    while True:
        out = await ana.receive_output(timeout=2)
        if out["type"] == "websocket.close":
            assert out["code"] == 4008
            break
        frame = json.loads(out["text"])
        codes.append(frame.get("code") or frame["type"])
    assert "too_fast" in codes


async def test_foreign_origin_is_refused_for_browser_and_bot_sockets(make_user):
    game, ana_key, _ = await _setup_game(make_user)
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game.pk}/",
                                 headers=[(b"origin", b"http://evil.example"), (b"authorization", f"Token {ana_key}".encode())])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
    bot = await api_socket(game.pk, ana_key, origin=None)
    assert (await next_of(bot, "view"))["seat"] == 0
    await bot.disconnect()


async def test_private_game_needs_the_invite(make_user):
    @database_sync_to_async
    def setup():
        ana, ben = make_user("Ana"), make_user("Ben")
        return started_game(ana, ben, is_public=False)

    game = await setup()
    refusals = []
    for game_id in (game.pk, game.pk + 1000):  # private, and missing: a stranger cannot tell them apart
        comm = WebsocketCommunicator(application, f"/ws/api/games/{game_id}/", headers=[ORIGIN, HOST])
        connected, _ = await comm.connect(timeout=5)
        assert connected
        error = await next_of(comm, "error")
        refusals.append((error["code"], error["message"].replace(str(game_id), "N"),
                         await comm.receive_output(timeout=5)))
    assert refusals[0] == refusals[1] == (
        "not_found", "there is no game N, or it is private and the query has no valid invite",
        {"type": "websocket.close", "code": 4004})
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game.pk}/?invite={game.invite_code}", headers=[ORIGIN, HOST])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert (await next_of(comm, "view"))["seat"] is None
    await comm.disconnect()


@database_sync_to_async
def _private_game_and_keys(make_user):
    """A private game of Ana and Ben, with the API keys of Eve (a stranger) and of Ben."""
    ana, ben, eve = make_user("Ana"), make_user("Ben"), make_user("Eve")
    game = started_game(ana, ben, is_public=False)
    return game, ApiToken.issue(user=eve, name="t")[1], ApiToken.issue(user=ben, name="t")[1]


async def test_a_signed_in_stranger_cannot_watch_a_private_game_but_its_players_can(make_user):
    """Being signed in is not an invitation: a token of someone neither seated nor the creator
    is refused as if there were no such game, while a player's token opens the same private game."""
    game, eve_key, ben_key = await _private_game_and_keys(make_user)
    eve = await api_socket(game.pk, eve_key)
    assert (await next_of(eve, "error"))["code"] == "not_found"
    assert (await eve.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4004}
    ben = await api_socket(game.pk, ben_key)
    assert (await next_of(ben, "view"))["seat"] == 1
    await ben.disconnect()


async def test_a_private_game_open_on_a_players_socket_still_refuses_strangers(make_user):
    """Once a player's socket is watching a private game (its snapshot held by the process,
    which later sockets are answered from), a stranger's token, a socket without a token and
    a wrong invite are refused as before; the invite still opens it."""
    game, eve_key, ben_key = await _private_game_and_keys(make_user)
    ben = await api_socket(game.pk, ben_key)
    assert (await next_of(ben, "view"))["seat"] == 1

    async def opened(query: str, key: str | None) -> WebsocketCommunicator:
        headers = [ORIGIN, HOST] + ([(b"authorization", f"Token {key}".encode())] if key else [])
        comm = WebsocketCommunicator(application, f"/ws/api/games/{game.pk}/{query}", headers=headers)
        assert (await comm.connect(timeout=5))[0]
        return comm

    for query, key in (("", eve_key), ("", None), ("?invite=" + "x" * len(game.invite_code), None)):
        comm = await opened(query, key)
        assert (await next_of(comm, "error"))["code"] == "not_found", (query, key)
        assert (await comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4004}
    guest = await opened(f"?invite={game.invite_code}", None)
    assert (await next_of(guest, "view"))["seat"] is None
    for comm in (ben, guest):
        await comm.disconnect()


async def test_a_watcher_sees_each_new_version_once_and_in_order(site_backend, make_user):
    """However the version pings reach a socket (straight from the sender or through its queue),
    a spectator that reads nothing until the end finds one view per change, oldest first."""
    game, ana_key, ben_key = await _setup_game(make_user)
    ana, ben = await api_socket(game.pk, ana_key), await api_socket(game.pk, ben_key)
    spy = await api_socket(game.pk, None)
    views = {0: await next_of(ana, "view"), 1: await next_of(ben, "view")}
    sockets, rng = {0: ana, 1: ben}, random.Random(11)
    for _ in range(40):
        for seat, view in views.items():
            if view["legal_actions"]:
                await sockets[seat].send_json_to({"type": "action", "action": choose(view["legal_actions"], rng),
                                                  "action_id": f"{seat}-{view['version']}", "version": view["version"]})
        for seat in (0, 1):
            views[seat] = await latest_view(sockets[seat], timeout=0.05) or views[seat]
    seen = []
    while not await spy.receive_nothing(timeout=0.3):
        frame = json.loads(await spy.receive_from())
        if frame["type"] == "view":
            seen.append(frame["version"])
    # read once the spy has heard nothing for 0.3 s: the last round's actions may still have been
    # on their way when the loop ended
    final = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert len(seen) > 10
    assert seen == sorted(set(seen))  # no view twice, none older than one before it
    assert seen[-1] == final.version
    for comm in (ana, ben, spy):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_survives_a_quiet_spell_longer_than_the_redis_read_timeout(site_backend, make_user):
    """redis-py 8 cuts a read after 5 s; channels_redis' receive blocked for 5 s and died."""
    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    first = await next_of(ana, "view")
    await asyncio.sleep(6.5)
    await ana.send_json_to({"type": "ping"})
    assert await next_of(ana, "pong") == {"type": "pong", "version": first["version"]}
    await ana.disconnect()


async def test_a_move_made_while_a_socket_opens_is_in_its_first_view(site_backend, make_user, monkeypatch):
    """A socket reads the game with its access, then joins the game's group: a move committed
    in between, whose broadcast it cannot have heard, is still the version it is first sent."""
    from games.consumers import BaseGameConsumer
    from tests.platform.helpers import play_one

    game, ana_key, _ = await _setup_game(make_user)
    ana_user, ben_user = await database_sync_to_async(
        lambda: [seat.user for seat in game.seats.order_by("number")])()
    opened = BaseGameConsumer._open

    def open_then_a_move(consumer, invite):
        answer = opened(consumer, invite)
        assert play_one(game.pk, {0: ana_user, 1: ben_user})
        return answer

    monkeypatch.setattr(BaseGameConsumer, "_open", open_then_a_move)
    spy = await api_socket(game.pk, None)
    first = await next_of(spy, "view")
    now = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert now.version > 0
    assert first["version"] == now.version
    await spy.disconnect()


async def test_a_socket_opening_after_another_process_moved_the_game_gets_the_new_version(make_user):
    """The snapshot a process holds is served to a new socket only while the row is still at
    its version: after a move this process did not make (here: its held snapshot put back as
    it was before the move), the new socket reads the row and is sent the move."""
    from games import selectors
    from tests.platform.helpers import play_one

    game, ana_key, _ = await _setup_game(make_user)
    ana = await api_socket(game.pk, ana_key)
    before = await next_of(ana, "view")
    held_before = selectors.SNAPSHOTS.get(game.pk)
    assert held_before is not None and held_before.version == before["version"]
    users = await database_sync_to_async(lambda: {s.number: s.user for s in game.seats.all()})()
    assert await database_sync_to_async(play_one)(game.pk, users)
    selectors.SNAPSHOTS.put(game.pk, held_before)
    now = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    spy = await api_socket(game.pk, None)
    assert (await next_of(spy, "view"))["version"] == now.version > held_before.version
    for comm in (ana, spy):
        await comm.disconnect()
