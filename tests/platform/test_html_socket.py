"""The browser page's socket: session auth, out-of-band HTML, htmx-shaped frames."""
from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import engines, selectors
from snowball_site.asgi import application
from tests.platform.helpers import started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def _html_socket(game_id: int, cookie: bytes | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    return comm


async def _next_live(comm: WebsocketCommunicator, timeout: float = 5.0) -> str:
    """The next live-region swap, skipping others (presence, flashes); fails after ``timeout`` s in all."""
    return await _next_html(comm, 'id="live"', timeout)


async def _next_html(comm: WebsocketCommunicator, marker: str, timeout: float = 5.0) -> str:
    """The next frame containing ``marker``; fails when none has come within ``timeout`` s in all."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (left := deadline - loop.time()) > 0:
        try:
            html = await comm.receive_from(timeout=left)
        except asyncio.TimeoutError:
            break
        if marker in html:
            return html
    raise AssertionError(f"no frame with {marker!r} within {timeout} s")


async def test_player_gets_html_and_can_act_with_an_htmx_frame(site_backend, make_user):
    @database_sync_to_async
    def setup():
        ana, ben = make_user("Ana"), make_user("Ben")
        game = started_game(ana, ben)
        return game, _session_cookie(ana), _session_cookie(ben)

    game, ana_cookie, _ = await setup()
    comm = await _html_socket(game.pk, ana_cookie)
    html = await _next_live(comm)
    assert 'hx-swap-oob="true"' in html
    version = int(re.search(r'data-version="(\d+)"', html).group(1))
    assert re.search(r'data-seat="0"', html)

    @database_sync_to_async
    def suggested():
        game.refresh_from_db()
        return engines.get(game.game_type).bot_action(selectors.game_state(game), 0)

    action = await suggested()
    await comm.send_json_to({"action": json.dumps(action), "action_id": "h1", "version": version,
                             "HEADERS": {"HX-Request": "true"}})
    html = await _next_live(comm)
    assert int(re.search(r'data-version="(\d+)"', html).group(1)) > version

    await comm.send_json_to({"action": "{broken", "action_id": "h2", "version": version})
    error = await _next_html(comm, 'id="flash"')
    assert "flash-error" in error
    await comm.disconnect()


async def test_anonymous_spectator_gets_read_only_html(site_backend, make_user):
    @database_sync_to_async
    def setup():
        return started_game(make_user("Ana"), make_user("Ben"))

    game = await setup()
    comm = await _html_socket(game.pk, None)
    html = await _next_live(comm)
    assert "You are watching" in html
    assert "ws-send" not in html
    await comm.send_json_to({"action": json.dumps({"type": "lock"}), "action_id": "s1", "version": 1})
    error = await _next_html(comm, 'id="flash"')
    assert "read-only" in error
    await comm.disconnect()

