"""Database calls run on the event loop's thread, on one connection, and never wait there for a lock."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.db import connection, connections

from games.consumers import db_call
from games.coordinator import get_coordinator
from games.loop_database import on_the_loop


def _where_and_which() -> tuple[int, int]:
    connection.ensure_connection()
    return threading.get_ident(), id(connection.connection)


@pytest.mark.django_db(transaction=True)
async def test_calls_from_many_socket_tasks_share_the_loop_thread_and_one_connection(settings):
    settings.SNOWBALL_DB_ON_LOOP = True
    answers = await asyncio.gather(*(asyncio.create_task(db_call(_where_and_which)()) for _ in range(20)))
    assert {thread for thread, _ in answers} == {threading.get_ident()}
    assert len({conn for _, conn in answers}) == 1


@pytest.mark.django_db(transaction=True)
async def test_with_a_server_database_calls_leave_the_loop_thread(settings):
    settings.SNOWBALL_DB_ON_LOOP = False
    thread, _ = await db_call(_where_and_which)()
    assert thread != threading.get_ident()


@pytest.mark.django_db(transaction=True)  # the call may first close the loop's expired connection
async def test_a_call_runs_to_its_end_before_any_other_task_runs():
    seen: list[str] = []

    def slow_write(name: str) -> None:
        seen.append(f"{name} begins")
        seen.append(f"{name} ends")

    async def other() -> None:
        seen.append("other task")

    task = asyncio.create_task(other())
    await on_the_loop(slow_write)("move")
    await task
    assert seen[:2] == ["move begins", "move ends"]


@pytest.mark.django_db(transaction=True)
async def test_a_call_that_meets_a_held_game_lock_moves_to_a_thread_and_the_loop_keeps_serving(settings):
    settings.SNOWBALL_DB_ON_LOOP = True
    coordinator = get_coordinator()
    holder_has_it, let_go = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        with coordinator.lock(41):
            holder_has_it.set()
            let_go.wait(5)

    def move() -> int:
        with coordinator.lock(41):
            return threading.get_ident()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert holder_has_it.wait(5)
    ticks = 0

    async def other_sockets() -> None:
        nonlocal ticks
        while not let_go.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    ticking = asyncio.create_task(other_sockets())
    asyncio.get_running_loop().call_later(0.2, let_go.set)
    moved_on = await db_call(move)()
    await ticking
    holder.join()

    assert moved_on != threading.get_ident()
    assert ticks >= 10  # the loop ran other work for the 0.2 s the lock was held


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trouble", ["the database dropped it", "it outlived CONN_MAX_AGE"])
async def test_a_connection_that_broke_or_expired_is_closed_before_the_next_call(settings, monkeypatch, trouble):
    """Nothing else would close it: a connection kept for the loop sees no request begin or end."""
    settings.SNOWBALL_DB_ON_LOOP = True
    await db_call(connection.ensure_connection)()
    loops_connection = await db_call(lambda: connections["default"])()
    closed: list[bool] = []
    if trouble == "the database dropped it":
        monkeypatch.setattr(loops_connection, "errors_occurred", True)
        monkeypatch.setattr(loops_connection, "is_usable", lambda: False)
    else:
        monkeypatch.setattr(loops_connection, "close_at", time.monotonic() - 1)
    monkeypatch.setattr(loops_connection, "close", lambda: closed.append(True))

    assert await db_call(lambda: "ran")() == "ran"
    assert closed == [True]
