"""What only the in-process backend promises: it cleans up after itself."""
from __future__ import annotations

import gc

import pytest

from games.coordinator import MemoryCoordinator

from .conftest import FakeClock


@pytest.fixture
def coordinator(clock: FakeClock) -> MemoryCoordinator:
    return MemoryCoordinator(clock=clock)


def test_locks_of_finished_games_are_not_kept(coordinator: MemoryCoordinator) -> None:
    for game_id in range(100):
        with coordinator.lock(game_id):
            pass
    gc.collect()

    assert len(coordinator._locks) == 0


def test_a_lock_in_use_is_kept(coordinator: MemoryCoordinator) -> None:
    with coordinator.lock(1):
        gc.collect()
        assert list(coordinator._locks) == [1]


def test_expired_connections_and_empty_games_are_dropped(
    coordinator: MemoryCoordinator, clock: FakeClock
) -> None:
    coordinator.join(1, "tab", seat=0, user_key="ann")
    coordinator.join(2, "tab", seat=0, user_key="ann")
    coordinator.leave(2, "tab")
    clock.advance(coordinator.presence_ttl)

    coordinator.presence(1)

    assert coordinator._connections == {}


def test_rounds_are_forgotten_a_day_after_their_last_arrival(
    coordinator: MemoryCoordinator, clock: FakeClock
) -> None:
    seats = frozenset({0, 1})
    coordinator.barrier_arrive(1, "r", 0, seats)
    clock.advance(coordinator.barrier_ttl - 1)
    assert coordinator.barrier_state(1, "r") == {0}
    coordinator.barrier_arrive(1, "r", 0, seats)
    clock.advance(coordinator.barrier_ttl - 1)
    assert coordinator.barrier_state(1, "r") == {0}

    clock.advance(1)

    assert coordinator.barrier_state(1, "r") == frozenset()
    assert coordinator._rounds == {}


def test_a_completed_round_is_forgotten_a_minute_after_its_completion_and_counts_once_till_then(
    coordinator: MemoryCoordinator, clock: FakeClock
) -> None:
    seats = frozenset({0, 1})
    coordinator.barrier_arrive(1, "r", 0, seats)
    assert coordinator.barrier_arrive(1, "r", 1, seats)
    clock.advance(coordinator.completed_round_ttl - 1)
    assert not coordinator.barrier_arrive(1, "r", 1, seats)  # a late repeat: neither counts nor extends
    assert coordinator.barrier_state(1, "r") == seats

    clock.advance(1)

    assert coordinator.barrier_state(1, "r") == frozenset()
    assert coordinator._rounds == {}


def test_expired_rounds_are_swept_by_other_games_arrivals_and_unseen_before_that(
    coordinator: MemoryCoordinator, clock: FakeClock
) -> None:
    seats = frozenset({0, 1})
    for game_id in range(1000):
        coordinator.barrier_arrive(game_id, "r", 0, seats)
        coordinator.barrier_arrive(game_id, "r", 1, seats)
    clock.advance(coordinator.completed_round_ttl - 0.5)
    coordinator.barrier_arrive(5000, "r", 0, seats)  # a sweep: nothing has expired yet
    clock.advance(0.5)

    assert coordinator.barrier_state(7, "r") == frozenset(), "an expired round is still seen"
    assert coordinator.barrier_arrive(7, "r", 0, seats) is False, "an expired round counted"

    clock.advance(1)
    coordinator.barrier_arrive(6000, "r", 0, seats)

    assert set(coordinator._rounds) == {(5000, "r"), (7, "r"), (6000, "r")}


@pytest.mark.parametrize("option", ["presence_ttl", "barrier_ttl", "completed_round_ttl"])
def test_ttls_must_be_positive(option: str) -> None:
    with pytest.raises(ValueError, match=option):
        MemoryCoordinator(**{option: 0.0})  # type: ignore[arg-type]
