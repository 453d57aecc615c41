"""kill -9 the server mid-game: after a restart the game resumes exactly where it was."""
from __future__ import annotations

import uuid

import pytest
import requests

pytestmark = pytest.mark.live

MAKE_USERS = (
    "from games import services; from games.models import ApiToken\n"
    "for name in ('Ana', 'Ben'):\n"
    "    user = services.register_user(username=name.lower(), password='snow-ball-1234', display_name=name)\n"
    "    print(ApiToken.issue(user=user, name='t')[1])\n"
)


def _api(server, key):
    session = requests.Session()
    session.headers["Authorization"] = f"Token {key}"
    session.base = server.url
    return session


def _play_some(server, players, steps: int) -> int:
    """Each step, every asked player sends its first legal action; returns actions sent."""
    sent = 0
    for _ in range(steps):
        moved = False
        for session in players:
            view = session.get(f"{server.url}/api/games/{server.game_id}/").json()
            if view["status"] != "active":
                return sent
            if view["legal_actions"]:
                decisive = [a for a in view["legal_actions"] if a["type"] != "choose"] or view["legal_actions"]
                reply = session.post(f"{server.url}/api/games/{server.game_id}/actions/",
                                     json={"action": decisive[0], "action_id": uuid.uuid4().hex,
                                           "version": view["version"]})
                assert reply.status_code == 200, reply.text
                sent += 1
                moved = True
        if not moved:
            break
    return sent


def test_game_resumes_after_kill_9(live_server_proc):
    server = live_server_proc
    keys = [w for w in server.manage("shell", "-c", MAKE_USERS).split() if w.startswith("sb_")]
    ana, ben = _api(server, keys[0]), _api(server, keys[1])
    server.game_id = ana.post(f"{server.url}/api/games/", json={"game_type": "snowball-fight"}).json()["id"]
    ben.post(f"{server.url}/api/games/{server.game_id}/join/")
    ana.post(f"{server.url}/api/games/{server.game_id}/start/")
    assert _play_some(server, [ana, ben], 6) > 0
    before = {name: s.get(f"{server.url}/api/games/{server.game_id}/").json() for name, s in (("ana", ana), ("ben", ben))}

    server.kill()
    server.start()

    after = {name: s.get(f"{server.url}/api/games/{server.game_id}/").json() for name, s in (("ana", ana), ("ben", ben))}
    for name in before:
        for key in ("version", "view", "legal_actions", "status", "log"):
            assert after[name][key] == before[name][key], (name, key)
    _play_some(server, [ana, ben], 3000)
    final = ana.get(f"{server.url}/api/games/{server.game_id}/").json()
    assert final["status"] == "finished" and final["outcome"]["winners"]
    check = server.manage("shell", "-c",
                          "from games.models import Game; from games import services\n"
                          f"g = Game.objects.get(pk={server.game_id}); print(services.replay(game=g) == g.state)")
    assert check.split()[-1] == "True"
