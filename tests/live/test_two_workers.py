"""Two daphne workers on one PostgreSQL and one Redis: players on different workers play a game.

This is the docker compose topology without Docker or nginx: each player talks to its own
worker directly, so every action crosses workers through the Redis lock, groups and barrier.
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import uuid

import pytest

from tests.conftest import REDIS_TEST_URL, require_redis
from tests.live.conftest import LiveServer

pytestmark = [pytest.mark.live, pytest.mark.redis]

POSTGRES_URL = os.environ.get("SNOWBALL_TEST_POSTGRES_URL", "postgres://postgres:postgres@127.0.0.1:5432/postgres")

MAKE_GAME = (
    "from games import services; from games.models import ApiToken\n"
    "ana = services.register_user(username='ana', password='snow-ball-1234', display_name='Ana')\n"
    "ben = services.register_user(username='ben', password='snow-ball-1234', display_name='Ben')\n"
    "game = services.create_game(creator=ana, game_type='snowball-fight')\n"
    "services.join_seat(game_id=game.pk, user=ben)\n"
    "services.start_game(game_id=game.pk, user=ana)\n"
    "print('GAME', game.pk, ApiToken.issue(user=ana, name='t')[1], ApiToken.issue(user=ben, name='t')[1])\n"
)


@pytest.fixture
def postgres_database():
    import psycopg

    name = f"snowball_test_{uuid.uuid4().hex[:10]}"
    try:
        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if any(os.environ.get(name, "") not in ("", "0") for name in ("SNOWBALL_REQUIRE_POSTGRES", "SNOWBALL_REQUIRE_REDIS")):
            pytest.fail(f"PostgreSQL at {POSTGRES_URL} is unreachable: {exc}")
        pytest.skip(f"PostgreSQL at {POSTGRES_URL} is unreachable: {exc}")
    admin.execute(f'CREATE DATABASE "{name}"')
    yield POSTGRES_URL.rsplit("/", 1)[0] + "/" + name
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


def test_a_game_works_whichever_worker_each_player_lands_on(tmp_path, postgres_database):
    from websockets.sync.client import connect

    require_redis()
    env = {"DATABASE_URL": postgres_database, "REDIS_URL": REDIS_TEST_URL}
    workers = [LiveServer(tmp_path / "unused.sqlite3", extra_env=env) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        line = next(l for l in workers[0].manage("shell", "-c", MAKE_GAME).splitlines() if l.startswith("GAME"))
        _, game_id, ana_key, ben_key = line.split()
        opened = contextlib.ExitStack()
        sockets = {
            0: opened.enter_context(connect(f"ws://127.0.0.1:{workers[0].port}/ws/api/games/{game_id}/",
                                            additional_headers={"Authorization": f"Token {ana_key}"})),
            1: opened.enter_context(connect(f"ws://127.0.0.1:{workers[1].port}/ws/api/games/{game_id}/",
                                            additional_headers={"Authorization": f"Token {ben_key}"})),
        }
        spectator = opened.enter_context(connect(f"ws://127.0.0.1:{workers[1].port}/ws/api/games/{game_id}/"))
        rng = random.Random(11)
        views: dict[int, dict] = {}
        spectator_versions: list[int] = []
        for _ in range(4000):
            for seat, ws in sockets.items():
                while True:
                    try:
                        frame = json.loads(ws.recv(timeout=0.02))
                    except TimeoutError:
                        break
                    if frame["type"] == "view" and frame["version"] >= views.get(seat, {"version": 0})["version"]:
                        views[seat] = frame
            while True:
                try:
                    frame = json.loads(spectator.recv(timeout=0.001))
                except TimeoutError:
                    break
                if frame["type"] == "view":
                    spectator_versions.append(frame["version"])
            if len(views) == 2 and all(v["status"] == "finished" for v in views.values()):
                break
            for seat, view in views.items():
                if view["legal_actions"] and not view.get("sent"):
                    decisive = [a for a in view["legal_actions"] if a["type"] != "choose"] or view["legal_actions"]
                    sockets[seat].send(json.dumps({"type": "action", "action": rng.choice(decisive),
                                                   "action_id": uuid.uuid4().hex, "version": view["version"]}))
                    view["sent"] = True
        assert all(v["status"] == "finished" for v in views.values()), "the game did not finish"
        assert views[0]["outcome"] == views[1]["outcome"]
        assert spectator_versions == sorted(spectator_versions)
        opened.close()
    finally:
        for worker in workers:
            worker.stop()
