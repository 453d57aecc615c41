"""What only the Redis backend promises: it outlives workers and is shared by them."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import games
from games.coordinator import LockLost, LockTimeout, Presence, RedisCoordinator

from .conftest import REDIS_URL, MakeCoordinator, require_redis

pytestmark = pytest.mark.redis

REPO_ROOT = Path(games.__file__).resolve().parent.parent


@pytest.fixture
def backend() -> str:
    require_redis()
    return "redis"


def test_a_killed_holders_lock_expires(make: MakeCoordinator) -> None:
    coordinator = make()
    assert isinstance(coordinator, RedisCoordinator)
    prefix = coordinator.prefix
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import time
                from games.coordinator import RedisCoordinator
                coordinator = RedisCoordinator({REDIS_URL!r}, prefix={prefix!r})
                with coordinator.lock(9, timeout=1.0):
                    print("held", flush=True)
                    time.sleep(60)
                """
            ),
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        holder.kill()
        holder.wait(5)
        killed_at = time.monotonic()

        survivor = make()
        with pytest.raises(LockTimeout):
            with survivor.lock(9, wait=0):
                pass
        with survivor.lock(9, wait=5):
            waited = time.monotonic() - killed_at
        assert waited < 2.0
    finally:
        holder.kill()
        holder.wait(5)


def test_outliving_the_lock_timeout_raises_lock_lost(make: MakeCoordinator) -> None:
    slow, fast = make(), make()
    taken_meanwhile = threading.Event()

    def take_after_expiry() -> None:
        with fast.lock(2, wait=5):
            taken_meanwhile.set()

    with pytest.raises(LockLost, match="game 2"):
        with slow.lock(2, timeout=0.2):
            thread = threading.Thread(target=take_after_expiry)
            thread.start()
            thread.join(5)
    assert taken_meanwhile.is_set()


def test_an_error_inside_an_expired_lock_is_not_masked(make: MakeCoordinator) -> None:
    coordinator = make()
    with pytest.raises(RuntimeError, match="the real error"):
        with coordinator.lock(2, timeout=0.05):
            time.sleep(0.15)
            raise RuntimeError("the real error")


def test_two_workers_share_the_lock(make: MakeCoordinator) -> None:
    worker_a, worker_b = make(), make()
    counter = 0
    overlaps = 0
    inside = 0

    def increment(worker: RedisCoordinator) -> None:
        nonlocal counter, inside, overlaps
        for _ in range(20):
            with worker.lock(1):
                inside += 1
                overlaps += inside > 1
                seen = counter
                time.sleep(0.002)
                counter = seen + 1
                inside -= 1

    threads = [threading.Thread(target=increment, args=(w,)) for w in (worker_a, worker_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert (counter, overlaps) == (40, 0)
    with worker_a.lock(1):
        with pytest.raises(LockTimeout):
            with worker_b.lock(1, wait=0.05):
                pass


def test_two_workers_share_presence(make: MakeCoordinator) -> None:
    worker_a, worker_b = make(), make()
    worker_a.join(1, "a.1", seat=0, user_key="ann")
    worker_b.join(1, "b.1", seat=0, user_key="ann")
    worker_b.join(1, "b.2", seat=None, user_key="guest:1")

    assert worker_a.presence(1) == worker_b.presence(1) == Presence(frozenset({0}), 1, 3)

    worker_a.leave(1, "a.1")
    assert worker_b.heartbeat(1, "b.1")
    assert not worker_b.heartbeat(1, "a.1")
    assert worker_a.presence(1) == Presence(frozenset({0}), 1, 2)


def test_heartbeats_survive_a_redis_that_forgot_its_scripts(make: MakeCoordinator) -> None:
    """A restarted Redis has none of the coordinator's scripts loaded: the beats load it again."""
    coordinator = make()
    assert isinstance(coordinator, RedisCoordinator)
    coordinator.join(1, "a.1", seat=0, user_key="ann")
    coordinator.join(2, "a.2", seat=None, user_key="guest:1")
    coordinator.redis.script_flush()

    assert coordinator.heartbeats([(1, "a.1"), (2, "a.2"), (2, "gone")]) == [True, True, False]
    coordinator.redis.script_flush()
    assert coordinator.heartbeat(1, "a.1")


def test_two_workers_share_the_barrier(make: MakeCoordinator) -> None:
    worker_a, worker_b = make(), make()
    seats = frozenset({0, 1, 2, 3})
    for round_number in range(10):
        key = f"round-{round_number}"
        arrivals = [(worker, seat) for seat in seats for worker in (worker_a, worker_b)]
        results: list[bool] = []
        start = threading.Barrier(len(arrivals))

        def arrive(worker: RedisCoordinator, seat: int) -> None:
            start.wait()
            results.append(worker.barrier_arrive(3, key, seat, seats))

        threads = [threading.Thread(target=arrive, args=a) for a in arrivals]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert results.count(True) == 1
        assert worker_a.barrier_state(3, key) == worker_b.barrier_state(3, key) == seats

    worker_b.barrier_clear(3, "round-0")
    assert worker_a.barrier_state(3, "round-0") == frozenset()


def test_keys_are_prefixed_and_expire(make: MakeCoordinator) -> None:
    coordinator = make(presence_ttl=30)
    assert isinstance(coordinator, RedisCoordinator)
    coordinator.join(4, "tab", seat=1, user_key="ann")
    coordinator.barrier_arrive(4, "r", 1, frozenset({1, 2}))

    client = coordinator.redis
    prefix = coordinator.prefix
    for key in (f"{prefix}:presence:game:4", f"{prefix}:presence:game:4:meta"):
        assert 0 < client.ttl(key) <= 60
    assert 86_000 < client.ttl(f"{prefix}:barrier:game:4:r") <= 86_400
    assert coordinator.barrier_arrive(4, "r", 2, frozenset({1, 2}))
    assert 0 < client.ttl(f"{prefix}:barrier:game:4:r") <= 60  # completed: gone in a minute
    assert not coordinator.barrier_arrive(4, "r", 2, frozenset({1, 2}))
    assert 0 < client.ttl(f"{prefix}:barrier:game:4:r") <= 60  # and a late repeat does not keep it

    with coordinator.lock(4, timeout=7):
        assert 0 < client.pttl(f"{prefix}:lock:game:4") <= 7_000


def test_many_threads_share_at_most_max_connections(make: MakeCoordinator) -> None:
    """32 threads asking at once: every one is answered, over at most 3 connections."""
    import psutil
    from urllib.parse import urlparse

    port = urlparse(REDIS_URL).port or 6379

    def mine() -> int:
        return sum(1 for c in psutil.Process().net_connections(kind="tcp")
                   if c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED)

    coordinator = make(max_connections=3)
    before = mine()
    answers: list[Presence] = []
    start = threading.Barrier(32)

    def ask() -> None:
        start.wait()
        for _ in range(20):
            answers.append(coordinator.presence(7))

    threads = [threading.Thread(target=ask) for _ in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 32 * 20
    assert mine() - before <= 3


def _holder(prefix: str, hold: str) -> subprocess.Popen:
    """A process that takes game 9's lock as the site takes a game's (3 s), says "held", and
    then ``hold``s (a Python statement)."""
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import time
            from games.coordinator import RedisCoordinator
            coordinator = RedisCoordinator({REDIS_URL!r}, prefix={prefix!r})
            with coordinator.lock(9, timeout=3.0):
                print("held", flush=True)
                {hold}
            """)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)


def test_a_worker_killed_holding_a_game_frees_it_within_its_lease(make: MakeCoordinator) -> None:
    """kill -9 of a worker in the middle of a move: another worker may move the game within
    the 1 s lease, not after the lock's whole 3 s."""
    survivor = make()
    holder = _holder(survivor.prefix, "time.sleep(60)")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        holder.kill()
        holder.wait(5)
        killed_at = time.monotonic()
        with survivor.lock(9, wait=5):
            waited = time.monotonic() - killed_at
        assert waited < 1.5
    finally:
        holder.kill()
        holder.wait(5)


def test_a_live_holder_keeps_its_lock_past_the_lease_until_its_timeout(make: MakeCoordinator) -> None:
    """A move that takes 2 s (a slow database) keeps its game's lock: its lease is renewed."""
    other = make()
    holder = _holder(other.prefix, "time.sleep(2.2); print('done', flush=True)")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        time.sleep(1.6)
        with pytest.raises(LockTimeout):
            with other.lock(9, wait=0):
                pass
        assert holder.stdout.readline().strip() == "done"
        with other.lock(9, wait=2):
            pass
    finally:
        holder.kill()
        holder.wait(5)
