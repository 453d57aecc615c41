"""A worker that dies between a move's commit and its broadcast: the other worker's sockets
still get the version within about two seconds, and the dead worker's game lock stops
blocking within a few seconds (two daphne workers, PostgreSQL, Redis)."""
from __future__ import annotations

import json
import time

import pytest

from tests.conftest import REDIS_TEST_URL, require_redis
from tests.live.conftest import LiveServer
from tests.live.test_two_workers import MAKE_GAME, postgres_database  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.live, pytest.mark.redis]


def _next(ws, kind: str, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == kind or frame["type"] == "error":
            return frame


def test_a_commit_whose_worker_died_before_broadcasting_reaches_the_other_workers_sockets(
        tmp_path, postgres_database):  # noqa: F811
    from websockets.sync.client import connect

    require_redis()
    env = {"DATABASE_URL": postgres_database, "REDIS_URL": REDIS_TEST_URL, "SNOWBALL_GAME_LOCK_SECONDS": "3"}
    dying = LiveServer(tmp_path / "unused.sqlite3", extra_env=env, application="tests.live.dies_before_broadcast:application")
    surviving = LiveServer(tmp_path / "unused.sqlite3", extra_env=env)
    for worker in (dying, surviving):
        worker.start()
    try:
        line = next(l for l in surviving.manage("shell", "-c", MAKE_GAME).splitlines() if l.startswith("GAME"))
        _, game_id, ana_key, ben_key = line.split()

        def socket(worker: LiveServer, key: str | None):
            headers = {"Authorization": f"Token {key}"} if key else {}
            return connect(f"ws://127.0.0.1:{worker.port}/ws/api/games/{game_id}/", additional_headers=headers)

        with socket(dying, ana_key) as ana, socket(surviving, ben_key) as ben, socket(surviving, None) as spectator:
            ana_view, ben_view = _next(ana, "view", 10), _next(ben, "view", 10)
            _next(spectator, "view", 10)
            choice = ana_view["legal_actions"][0]
            ana.send(json.dumps({"type": "action", "action": choice, "action_id": "ana-1",
                                 "version": ana_view["version"]}))
            sent = time.monotonic()
            dying.proc.wait(timeout=10)  # committed, then gone without a word
            seen_by_ben = _next(ben, "view", 5)
            seen_by_spectator = _next(spectator, "view", 5)
            assert time.monotonic() - sent < 2.5
            assert seen_by_ben["version"] == seen_by_spectator["version"] == ben_view["version"] + 1

            ben.send(json.dumps({"type": "action", "action": seen_by_ben["legal_actions"][0], "action_id": "ben-1",
                                 "version": seen_by_ben["version"]}))
            answer = _next(ben, "ack", 10)
            assert answer["type"] == "ack" and not answer["duplicate"]
            assert time.monotonic() - sent < 6  # the dead worker's lock lived 3 s at most

        with socket(surviving, ana_key) as ana_again:  # Ana reconnects and resends: it was committed
            view = _next(ana_again, "view", 10)
            ana_again.send(json.dumps({"type": "action", "action": choice, "action_id": "ana-1",
                                       "version": ana_view["version"]}))
            answer = _next(ana_again, "ack", 10)
            assert answer["type"] == "ack" and answer["duplicate"] is True and answer["version"] == view["version"]
    finally:
        for worker in (dying, surviving):
            worker.stop()
