"""get_coordinator picks the backend from settings.REDIS_URL, once per process."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from games.coordinator import (
    MemoryCoordinator,
    RedisCoordinator,
    get_coordinator,
    reset_coordinator,
)


@pytest.fixture(autouse=True)
def fresh_coordinator() -> Iterator[None]:
    reset_coordinator()
    yield
    reset_coordinator()


@pytest.mark.parametrize("url", [None, ""])
def test_no_redis_url_gives_the_in_process_backend(url: str | None) -> None:
    with override_settings(REDIS_URL=url):
        assert isinstance(get_coordinator(), MemoryCoordinator)


def test_a_redis_url_gives_the_redis_backend() -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:6379/15"):
        coordinator = get_coordinator()

    assert isinstance(coordinator, RedisCoordinator)
    assert coordinator.prefix == "snowball"


def test_one_instance_per_process_until_reset() -> None:
    with override_settings(REDIS_URL=None):
        first = get_coordinator()

        assert get_coordinator() is first
        reset_coordinator()
        assert get_coordinator() is not first
