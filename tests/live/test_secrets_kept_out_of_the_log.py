"""An invite link's code (and an API key in a query string) never reaches the server's access log:
daphne writes every request's path there, and whoever reads the log must not be let into a
private game by it."""
from __future__ import annotations

import logging

import pytest
import requests

from snowball_site.access_log import HIDDEN, HideSecrets, redacted
from tests.live.conftest import LiveServer

pytestmark = pytest.mark.live

MAKE_PRIVATE_GAME = """
from games import services
ana = services.register_user(username='ana', password='snow-ball-1234x')
game = services.create_game(creator=ana, game_type='snowball-fight', is_public=False)
print(game.pk, game.invite_code)
"""


@pytest.fixture
def logged_server(tmp_path):
    """A live server whose console, where daphne writes its access log, is kept in a file."""
    server = LiveServer(tmp_path / "live.sqlite3", stdout_path=tmp_path / "console.txt")
    server.start()
    yield server
    server.stop()


def test_a_friend_opening_the_invite_link_leaves_no_code_in_the_access_log(logged_server):
    game_id, code = logged_server.manage("shell", "-c", MAKE_PRIVATE_GAME).split()[-2:]
    friend = requests.Session()
    friend.get(f"{logged_server.url}/", timeout=10)
    reply = friend.get(f"{logged_server.url}/games/{game_id}/invite/{code}/", timeout=10)
    assert reply.status_code == 200 and reply.url == f"{logged_server.url}/games/{game_id}/"  # let in
    assert requests.get(f"{logged_server.url}/api/games/{game_id}/?invite={code}", timeout=10).status_code == 200
    requests.get(f"{logged_server.url}/api/games/{game_id}/?token=sb_not-a-real-key&invite={code}", timeout=10)
    logged_server.stop()  # its output flushed

    log = logged_server.stdout_path.read_text()
    assert f'"GET /games/{game_id}/invite/{HIDDEN}/" 302' in log, log[-2000:]
    assert f'"GET /api/games/{game_id}/?invite={HIDDEN}" 200' in log, log[-2000:]
    assert code not in log and "sb_not-a-real-key" not in log, log[-2000:]
    assert f'"GET /games/{game_id}/" 200' in log  # the rest of the log is as it was


@pytest.mark.parametrize(("line", "shown"), [
    ("/games/7/invite/Ab-c_9/", f"/games/7/invite/{HIDDEN}/"),
    ("/games/7/invite/Ab-c_9", f"/games/7/invite/{HIDDEN}"),
    ("/api/games/7/?invite=Ab-c_9&x=1", f"/api/games/7/?invite={HIDDEN}&x=1"),
    ("/ws/api/games/7/?token=sb_k3y&invite=Ab", f"/ws/api/games/7/?token={HIDDEN}&invite={HIDDEN}"),
    ("/games/7/review/?step=3&seat=1", "/games/7/review/?step=3&seat=1"),
])
def test_only_the_secrets_of_a_path_are_hidden(line, shown):
    assert redacted(line) == shown


def test_djangos_own_log_lines_hide_an_invite_code_too():
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Not Found: %s",
                               ("/games/7/invite/Ab-c_9/",), None)
    assert HideSecrets().filter(record) and record.getMessage() == f"Not Found: /games/7/invite/{HIDDEN}/"
