"""The one-process mode runs database calls on the event loop's thread, on one connection."""
from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection

from games.consumers import db_call
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
