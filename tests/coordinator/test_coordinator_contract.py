"""The behaviour every coordinator backend promises, run against each of them."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import pytest

from games.coordinator import Coordinator, LockTimeout, Presence

from .conftest import FakeClock, MakeCoordinator

T = TypeVar("T")


def run_together(calls: list[Callable[[], T]]) -> list[T]:
    """Run each call in its own thread, all released at the same moment."""
    start = threading.Barrier(len(calls))

    def released(call: Callable[[], T]) -> T:
        start.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(released, calls))


# The lock


def test_lock_keeps_threads_out_of_each_others_critical_section(coordinator: Coordinator) -> None:
    counter = 0
    inside = 0
    overlaps = 0

    def increment(times: int) -> None:
        nonlocal counter, inside, overlaps
        for _ in range(times):
            with coordinator.lock(7):
                inside += 1
                overlaps += inside > 1
                seen = counter
                time.sleep(0.002)
                counter = seen + 1
                inside -= 1

    threads = [threading.Thread(target=increment, args=(25,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert (counter, overlaps) == (50, 0)


def test_lock_times_out_while_another_thread_holds_it(coordinator: Coordinator) -> None:
    held = threading.Event()
    done = threading.Event()

    def holder() -> None:
        with coordinator.lock(3):
            held.set()
            done.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(5)
        started = time.monotonic()
        with pytest.raises(LockTimeout, match="game 3"):
            with coordinator.lock(3, wait=0.2):
                pytest.fail("took a lock that another thread holds")
        assert time.monotonic() - started >= 0.15
    finally:
        done.set()
        thread.join()


def test_lock_with_no_wait_fails_at_once_when_held(coordinator: Coordinator) -> None:
    with coordinator.lock(3):
        started = time.monotonic()
        with pytest.raises(LockTimeout) as caught:
            with coordinator.lock(3, wait=0):
                pass
        assert time.monotonic() - started < 0.5
    assert caught.value.game_id == 3


def test_lock_is_free_again_after_release_and_after_an_error(coordinator: Coordinator) -> None:
    with coordinator.lock(4):
        pass
    with pytest.raises(RuntimeError, match="boom"):
        with coordinator.lock(4):
            raise RuntimeError("boom")
    with coordinator.lock(4, wait=0):
        pass


def test_a_thread_waiting_for_the_lock_gets_it_when_the_holder_fails(coordinator: Coordinator) -> None:
    """A move that fails under the lock frees it for the move already waiting, not only for
    those that come after everyone let go."""
    holding = threading.Event()

    def failing_holder() -> str:
        with pytest.raises(RuntimeError, match="boom"):
            with coordinator.lock(6):
                holding.set()
                time.sleep(0.3)
                raise RuntimeError("boom")
        return "failed"

    def waiter() -> str:
        assert holding.wait(timeout=5)
        with coordinator.lock(6, wait=3):
            return "got it"

    assert run_together([failing_holder, waiter]) == ["failed", "got it"]


def test_locks_of_different_games_are_independent(coordinator: Coordinator) -> None:
    entered = []
    with coordinator.lock(1):
        with coordinator.lock(2, wait=0):  # raises LockTimeout if game 1's lock also held game 2
            entered.append(2)
    assert entered == [2]


# Presence


def test_presence_of_an_empty_game(coordinator: Coordinator) -> None:
    assert coordinator.presence(1) == Presence(frozenset(), 0, 0)


def test_presence_counts_seats_and_spectators(coordinator: Coordinator) -> None:
    coordinator.join(1, "tab-a", seat=0, user_key="ann")
    coordinator.join(1, "tab-b", seat=0, user_key="ann")
    coordinator.join(1, "tab-c", seat=2, user_key="bob")
    coordinator.join(1, "watch-1", seat=None, user_key="guest:1")
    coordinator.join(1, "watch-2", seat=None, user_key="guest:1")

    assert coordinator.presence(1) == Presence(
        seats_connected=frozenset({0, 2}), spectators=2, connections=5
    )


def test_a_seat_stays_connected_until_its_last_connection_leaves(coordinator: Coordinator) -> None:
    coordinator.join(1, "tab-a", seat=0, user_key="ann")
    coordinator.join(1, "tab-b", seat=0, user_key="ann")

    coordinator.leave(1, "tab-a")
    assert coordinator.presence(1).seats_connected == {0}

    coordinator.leave(1, "tab-b")
    assert coordinator.presence(1) == Presence(frozenset(), 0, 0)


def test_leaving_twice_or_unknown_is_harmless(coordinator: Coordinator) -> None:
    coordinator.join(1, "watch", seat=None, user_key="guest:1")
    coordinator.leave(1, "watch")
    coordinator.leave(1, "watch")
    coordinator.leave(1, "never-joined")
    coordinator.leave(99, "never-joined")
    assert coordinator.presence(1).connections == 0


def test_joining_again_updates_the_connection(coordinator: Coordinator) -> None:
    coordinator.join(1, "tab", seat=None, user_key="ann")
    coordinator.join(1, "tab", seat=3, user_key="ann")

    assert coordinator.presence(1) == Presence(frozenset({3}), 0, 1)


def test_presence_is_per_game(coordinator: Coordinator) -> None:
    coordinator.join(1, "tab", seat=0, user_key="ann")
    coordinator.join(2, "tab", seat=None, user_key="ann")

    assert coordinator.presence(1) == Presence(frozenset({0}), 0, 1)
    assert coordinator.presence(2) == Presence(frozenset(), 1, 1)


def test_connections_expire_unless_heartbeaten(make: MakeCoordinator, clock: FakeClock) -> None:
    coordinator = make(presence_ttl=30)
    coordinator.join(1, "player", seat=1, user_key="ann")
    coordinator.join(1, "spectator", seat=None, user_key="guest:1")

    clock.advance(29)
    assert coordinator.presence(1) == Presence(frozenset({1}), 1, 2)
    assert coordinator.heartbeat(1, "player")

    clock.advance(1)
    assert coordinator.presence(1) == Presence(frozenset({1}), 0, 1)
    assert not coordinator.heartbeat(1, "spectator"), "an expired connection came back"
    assert coordinator.presence(1).spectators == 0

    clock.advance(28)
    assert coordinator.presence(1).seats_connected == {1}
    clock.advance(1)
    assert coordinator.presence(1) == Presence(frozenset(), 0, 0)


def test_an_expired_connection_can_join_again(make: MakeCoordinator, clock: FakeClock) -> None:
    coordinator = make(presence_ttl=10)
    coordinator.join(1, "tab", seat=0, user_key="ann")
    clock.advance(11)
    assert not coordinator.heartbeat(1, "tab")

    coordinator.join(1, "tab", seat=0, user_key="ann")

    assert coordinator.heartbeat(1, "tab")
    assert coordinator.presence(1).seats_connected == {0}


def test_heartbeat_of_an_unknown_connection_is_false(coordinator: Coordinator) -> None:
    assert not coordinator.heartbeat(1, "nobody")
    assert coordinator.presence(1).connections == 0


def test_heartbeats_answer_for_each_connection_in_order(make: MakeCoordinator, clock: FakeClock) -> None:
    coordinator = make(presence_ttl=10)
    coordinator.join(1, "ann", seat=0, user_key="ann")
    coordinator.join(2, "ben", seat=None, user_key="ben")
    coordinator.join(2, "cid", seat=1, user_key="cid")
    clock.advance(6)
    coordinator.heartbeat(2, "ben")
    clock.advance(5)  # ann and cid expired; ben was seen 5 s ago

    alive = coordinator.heartbeats([(1, "ann"), (2, "ben"), (2, "nobody"), (1, "ben"), (2, "cid")])

    assert alive == [False, True, False, False, False]
    clock.advance(9)
    assert coordinator.presence(2) == Presence(frozenset(), 1, 1), "ben's beat was not renewed"


def test_heartbeats_keep_many_games_alive(make: MakeCoordinator, clock: FakeClock) -> None:
    coordinator = make(presence_ttl=10)
    connections = [(game_id, f"tab-{game_id}-{n}") for game_id in range(1, 6) for n in range(3)]
    for game_id, conn_id in connections:
        coordinator.join(game_id, conn_id, seat=None, user_key=conn_id)

    for _ in range(3):
        clock.advance(8)
        assert coordinator.heartbeats(connections) == [True] * len(connections)

    assert all(coordinator.presence(game_id).spectators == 3 for game_id in range(1, 6))
    assert coordinator.heartbeats([]) == []


# The reveal barrier

SEATS = frozenset({0, 1, 2})


def test_barrier_completes_on_the_last_expected_arrival(coordinator: Coordinator) -> None:
    assert not coordinator.barrier_arrive(1, "round-1", 2, SEATS)
    assert not coordinator.barrier_arrive(1, "round-1", 0, SEATS)
    assert coordinator.barrier_state(1, "round-1") == {0, 2}

    assert coordinator.barrier_arrive(1, "round-1", 1, SEATS)
    assert coordinator.barrier_state(1, "round-1") == SEATS


def test_barrier_counts_a_repeated_arrival_once(coordinator: Coordinator) -> None:
    assert not coordinator.barrier_arrive(1, "r", 0, SEATS)
    assert not coordinator.barrier_arrive(1, "r", 0, SEATS)
    assert not coordinator.barrier_arrive(1, "r", 1, SEATS)
    assert not coordinator.barrier_arrive(1, "r", 1, SEATS)
    assert coordinator.barrier_state(1, "r") == {0, 1}

    assert coordinator.barrier_arrive(1, "r", 2, SEATS)
    assert not coordinator.barrier_arrive(1, "r", 2, SEATS), "completed twice"
    assert not coordinator.barrier_arrive(1, "r", 0, SEATS), "completed twice"


def test_barrier_of_one_seat_completes_at_once(coordinator: Coordinator) -> None:
    assert coordinator.barrier_arrive(1, "solo", 4, frozenset({4}))


def test_barrier_refuses_a_seat_that_is_not_expected(coordinator: Coordinator) -> None:
    coordinator.barrier_arrive(1, "r", 0, SEATS)

    with pytest.raises(ValueError, match="seat 5"):
        coordinator.barrier_arrive(1, "r", 5, SEATS)

    assert coordinator.barrier_state(1, "r") == {0}


def test_barrier_clear_forgets_the_round(coordinator: Coordinator) -> None:
    for seat in SEATS:
        coordinator.barrier_arrive(1, "r", seat, SEATS)

    coordinator.barrier_clear(1, "r")
    coordinator.barrier_clear(1, "never-used")

    assert coordinator.barrier_state(1, "r") == frozenset()
    assert not coordinator.barrier_arrive(1, "r", 0, SEATS)
    assert not coordinator.barrier_arrive(1, "r", 1, SEATS)
    assert coordinator.barrier_arrive(1, "r", 2, SEATS)


def test_barriers_are_per_game_and_per_round(coordinator: Coordinator) -> None:
    pair = frozenset({0, 1})
    coordinator.barrier_arrive(1, "r1", 0, pair)
    coordinator.barrier_arrive(1, "r2", 1, pair)
    coordinator.barrier_arrive(2, "r1", 1, pair)

    assert coordinator.barrier_state(1, "r1") == {0}
    assert coordinator.barrier_state(1, "r2") == {1}
    assert coordinator.barrier_state(2, "r1") == {1}
    assert coordinator.barrier_state(3, "r1") == frozenset()


def test_concurrent_arrivals_complete_a_barrier_exactly_once(coordinator: Coordinator) -> None:
    seats = frozenset(range(8))
    for round_number in range(20):
        key = f"round-{round_number}"
        arrivals = [seat for seat in seats for _ in range(2)]

        results = run_together(
            [partial(coordinator.barrier_arrive, 5, key, seat, seats) for seat in arrivals]
        )

        assert results.count(True) == 1, f"{key}: {results.count(True)} callers saw completion"
        assert coordinator.barrier_state(5, key) == seats
