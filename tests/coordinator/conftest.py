"""Fixtures that build coordinators of both backends for the contract tests.

The Redis backend uses ``REDIS_URL`` (default ``redis://127.0.0.1:6379/15``), a
key prefix unique to each test, and deletes that prefix's keys afterwards.
Unreachable Redis skips its tests, unless ``SNOWBALL_REQUIRE_REDIS`` is set
(to anything but "" or "0"), as CI does: then it fails them.
"""
from __future__ import annotations

import functools
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from games.coordinator import Coordinator, MemoryCoordinator, RedisCoordinator

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"

MakeCoordinator = Callable[..., Coordinator]


class FakeClock:
    """A settable clock, shared by every coordinator a test makes."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now
        self._guard = threading.Lock()

    def __call__(self) -> float:
        with self._guard:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._guard:
            self.now += seconds


def redis_required() -> bool:
    return os.environ.get("SNOWBALL_REQUIRE_REDIS", "") not in ("", "0")


@functools.cache
def redis_problem() -> str | None:
    """Why Redis at ``REDIS_URL`` cannot be used, or None; asked once per test run."""
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as error:
        return f"Redis at {REDIS_URL} is unreachable ({error})"
    return None


def require_redis() -> None:
    """Skip, or fail when ``SNOWBALL_REQUIRE_REDIS`` is set, unless Redis answers."""
    problem = redis_problem()
    if problem is None:
        return
    if redis_required():
        pytest.fail(f"{problem}, and SNOWBALL_REQUIRE_REDIS is set")
    pytest.skip(f"{problem}; set SNOWBALL_REQUIRE_REDIS=1 to make this a failure")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        require_redis()
    return str(request.param)


@pytest.fixture
def make(backend: str, clock: FakeClock) -> Iterator[MakeCoordinator]:
    """Build coordinators of the test's backend on the fake clock.

    Redis coordinators made in one test share a prefix, like worker processes of
    one site; in-process ones share nothing, like separate processes.
    """
    prefix = f"snowball-test-{uuid.uuid4().hex}"
    made: list[Coordinator] = []

    def factory(**options: Any) -> Coordinator:
        options.setdefault("clock", clock)
        if backend == "redis":
            coordinator: Coordinator = RedisCoordinator(REDIS_URL, prefix=prefix, **options)
        else:
            coordinator = MemoryCoordinator(**options)
        made.append(coordinator)
        return coordinator

    yield factory

    for coordinator in made:
        coordinator.close()
    if backend == "redis":
        client = redis.Redis.from_url(REDIS_URL)
        try:
            leftovers = list(client.scan_iter(match=f"{prefix}:*", count=500))
            if leftovers:
                client.delete(*leftovers)
        finally:
            client.close()


@pytest.fixture
def coordinator(make: MakeCoordinator) -> Coordinator:
    return make()
