"""A socket gets a view only when what its viewer sees changed: a Snowball Fighting player who
revises their written orders is sent their own view, and the other players and the spectators
get nothing, so they cannot count an opponent's edits: neither from the frames nor from the
versions, which count no other seat's private actions (``selectors.viewer_version``)."""
from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import selectors, services
from games.models import ApiToken, Game
from snowball_site.asgi import application
from tests.platform.test_pace import _table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _socket(game_id: int, key: str | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if key:
        headers.append((b"authorization", f"Token {key}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/api/games/{game_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert connected, f"refused with {code}"
    return comm


async def _views(comm: WebsocketCommunicator, timeout: float = 1.0) -> list[dict]:
    """Every view frame the socket gets until it has been quiet for ``timeout`` seconds."""
    views = []
    while not await comm.receive_nothing(timeout=timeout):
        frame = json.loads(await comm.receive_from())
        if frame["type"] == "view":
            views.append(frame)
    return views


@database_sync_to_async
def _orders_phase(make_user) -> tuple[Game, list, list[str]]:
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fighting", pace="daily", seconds=86400)
    for seat, (user, name) in enumerate(((ana, "Ana"), (ben, "Ben"))):
        version = selectors.viewer_version(Game.objects.get(pk=game.pk), seat)
        services.submit_action(game_id=game.pk, user=user, action={"type": "setup", "name": name, "starts": []},
                               action_id=f"setup-{name}", version=version)
    for seat, user in enumerate((ana, ben)):
        services.mark_ready(game_id=game.pk, user=user, version=selectors.viewer_version(Game.objects.get(pk=game.pk), seat),
                            action_id=f"ready-{user.pk}")
    keys = [ApiToken.issue(user=user, name="t")[1] for user in (ana, ben)]
    return Game.objects.get(pk=game.pk), [ana, ben], keys


@database_sync_to_async
def _revise_orders(game_id: int, user, action_id: str, seat: int = 0) -> int:
    """The seat's orders written (again) from its own view; the version it is told."""
    game = Game.objects.get(pk=game_id)
    payload = selectors.viewer_payload(game, seat)
    orders = next(a for a in payload["legal_actions"] if a["type"] == "orders")
    return services.submit_action(game_id=game_id, user=user, action=orders["example"], action_id=action_id,
                                  version=payload["version"]).viewer_version


@database_sync_to_async
def _version_of(game_id: int, seat: int | None) -> int:
    return selectors.viewer_version(Game.objects.get(pk=game_id), seat)


async def test_revised_orders_reach_only_their_writer(site_backend, make_user):
    game, (ana, ben), keys = await _orders_phase(make_user)
    assert game.status == Game.Status.ACTIVE
    sockets = {"ana": await _socket(game.pk, keys[0]), "ben": await _socket(game.pk, keys[1]),
               "spectator": await _socket(game.pk, None)}
    first = {}
    for name, comm in sockets.items():
        views = await _views(comm)
        assert len(views) == 1  # the first view
        first[name] = views[0]["version"]  # each player's own setup draft counted for them alone
    assert first["spectator"] == first["ana"] - 1 == first["ben"] - 1

    for edit in range(3):
        version = await _revise_orders(game.pk, ana, f"edit-{edit}")
        assert version == first["ana"] + edit + 1  # her own edits count for her
        views = {name: await _views(comm, timeout=0.5) for name, comm in sockets.items()}
        # her first orders change her view; writing the same orders again changes nothing she sees
        assert [v["version"] for v in views["ana"]] == ([version] if edit == 0 else [])
        assert views["ben"] == [] and views["spectator"] == []
    assert await _version_of(game.pk, 1) == first["ben"] and await _version_of(game.pk, None) == first["spectator"]

    ack = await database_sync_to_async(services.mark_ready)(game_id=game.pk, user=ana, version=version,
                                                            action_id="ready-ana")
    assert ack.viewer_version == version + 1
    for name, comm in sockets.items():
        views = await _views(comm, timeout=0.5)
        # the others' next version follows their last one: nothing tells them she wrote three times
        assert [v["version"] for v in views] == [first[name] + (4 if name == "ana" else 1)], name
        assert views[0]["waiting_for"] == [1]

    await sockets["ben"].send_json_to({"type": "refresh"})
    assert [v["version"] for v in await _views(sockets["ben"])] == [first["ben"] + 1]
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_first_draft_after_the_other_sealed_changes_nothing_the_others_see(site_backend, make_user):
    """Ben seals his orders; Ana's first draft adds "ready" to her own actions, but her clock keeps
    its deadline and Ben and the spectator are sent nothing (not even a moved deadline)."""
    game, (ana, ben), keys = await _orders_phase(make_user)
    sockets = {"ana": await _socket(game.pk, keys[0]), "ben": await _socket(game.pk, keys[1]),
               "spectator": await _socket(game.pk, None)}
    for comm in sockets.values():
        await _views(comm)
    ben_version = await _revise_orders(game.pk, ben, "ben-draft", seat=1)
    await database_sync_to_async(services.mark_ready)(game_id=game.pk, user=ben, version=ben_version,
                                                      action_id="ready-ben")
    sealed = {name: await _views(comm, timeout=0.5) for name, comm in sockets.items()}
    deadline = sealed["ana"][-1]["prompt"]["deadline"]
    assert sealed["ben"][-1]["next_deadline"] == deadline

    version = await _revise_orders(game.pk, ana, "ana-first-draft")
    views = {name: await _views(comm, timeout=0.5) for name, comm in sockets.items()}
    assert [v["version"] for v in views["ana"]] == [version]
    assert views["ana"][0]["prompt"]["deadline"] == deadline
    assert views["ben"] == [] and views["spectator"] == []
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_player_who_resigns_is_sent_versions_that_go_on_from_hers(site_backend, make_user):
    """Resigned, Ana's socket shows a spectator's view, counted still as her seat: its version
    follows on from the last she was sent, not from the spectators' lower count."""
    game, (ana, ben), keys = await _orders_phase(make_user)
    sockets = {"ana": await _socket(game.pk, keys[0]), "spectator": await _socket(game.pk, None)}
    for comm in sockets.values():
        await _views(comm)
    mine = await _revise_orders(game.pk, ana, "edit")
    assert [v["version"] for v in await _views(sockets["ana"], timeout=0.5)] == [mine]
    await database_sync_to_async(services.resign)(game_id=game.pk, user=ana)
    views = {name: await _views(comm, timeout=0.5) for name, comm in sockets.items()}
    assert views["ana"][-1]["seat"] is None and views["ana"][-1]["view"] == views["spectator"][-1]["view"]
    assert views["ana"][-1]["version"] == mine + 1 > views["spectator"][-1]["version"]
    await sockets["ana"].send_json_to({"type": "ping"})
    pong = json.loads(await sockets["ana"].receive_from())
    assert pong == {"type": "pong", "version": mine + 1}
    for comm in sockets.values():
        await comm.disconnect()
