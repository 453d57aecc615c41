"""The event loop's PostgreSQL pool (games/loop_database.py) closes with its loop."""
from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection

from games import loop_database

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the loop's pool is PostgreSQL's (tests.on_postgres runs these)"),
]

class _Busy:
    """A pool maintenance task that keeps its worker busy until it is cancelled."""

    async def run(self) -> None:
        await asyncio.sleep(3600)


def test_a_loop_closes_even_when_its_pool_has_a_worker_busy_once_the_pool_is_closed_first():
    """``asyncio.Runner`` cancels every task before it closes: a psycopg_pool worker cancelled
    mid-task carries on waiting for its next task, so a loop whose pool was still open would
    never finish closing (a test's teardown hung on it). ``close_pool`` first, and it closes."""
    closed = threading.Event()

    def run_a_loop() -> None:
        with asyncio.Runner() as runner:
            assert runner.run(loop_database.execute("SELECT 1", [])) == 1
            pool = loop_database._POOLS[runner.get_loop()][0]
            pool.run_task(_Busy())
            runner.run(asyncio.sleep(0.1))  # a worker takes it
            runner.run(loop_database.close_pool())
            assert pool.closed and runner.get_loop() not in loop_database._POOLS
        closed.set()

    threading.Thread(target=run_a_loop, daemon=True).start()
    assert closed.wait(15), "the loop did not finish closing"
