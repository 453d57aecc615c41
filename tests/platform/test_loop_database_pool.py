"""The event loop's PostgreSQL pool (games/loop_database.py) closes with its loop."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.conf import settings
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
            pool = loop_database._POOLS[runner.get_loop()].pool
            pool.run_task(_Busy())
            runner.run(asyncio.sleep(0.1))  # a worker takes it
            runner.run(loop_database.close_pool())
            assert pool.closed and runner.get_loop() not in loop_database._POOLS
        closed.set()

    threading.Thread(target=run_a_loop, daemon=True).start()
    assert closed.wait(15), "the loop did not finish closing"


def test_a_kept_connection_the_server_dropped_fails_one_statement_and_the_next_runs_on_a_new_one():
    """The loop keeps the connection of its last statement for the next one: when PostgreSQL
    drops it meanwhile (a restart, an administrator), the next statement fails with
    ``LoopDatabaseError`` (its move is made on a database thread) and the one after runs on
    another connection, the dropped one given back to the pool."""
    with asyncio.Runner() as runner:
        try:
            assert runner.run(loop_database.execute("SELECT 1", [])) == 1
            entry = loop_database._POOLS[runner.get_loop()]
            [(kept, _)] = entry.kept
            dropped = kept.info.backend_pid
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [dropped])
            with pytest.raises(loop_database.LoopDatabaseError):
                runner.run(loop_database.execute("SELECT 1", []))
            assert runner.run(loop_database.execute("SELECT 1", [])) == 1
            assert [c.info.backend_pid != dropped for c, _ in entry.kept] == [True]
        finally:
            runner.run(loop_database.close_pool())


def test_a_connection_kept_too_long_goes_back_to_the_pool(monkeypatch):
    """A kept connection serves ``KEEP_SECONDS`` at most; then the pool has it back (its checks
    and lifetimes apply again) and the statement runs on one the pool hands out."""
    with asyncio.Runner() as runner:
        try:
            runner.run(loop_database.execute("SELECT 1", []))
            entry = loop_database._POOLS[runner.get_loop()]
            [(first, _)] = entry.kept
            given_back = []
            real_putconn = entry.pool.putconn

            async def putconn(conn):
                given_back.append(conn)
                await real_putconn(conn)

            monkeypatch.setattr(entry.pool, "putconn", putconn)
            runner.run(loop_database.execute("SELECT 1", []))
            assert given_back == [], "a connection kept a moment is used again"
            monkeypatch.setattr(loop_database, "KEEP_SECONDS", 0.0)
            runner.run(loop_database.execute("SELECT 1", []))
            assert given_back == [first]
        finally:
            runner.run(loop_database.close_pool())


def test_statements_past_the_pools_size_wait_for_a_connection_not_for_the_timeout():
    """More statements at once than the loop's pool has connections: each one past the size
    waits for a connection another finishes with (kept connections go back to whoever waits),
    not for ``POOL_WAIT_SECONDS`` and a failure."""
    size = settings.SNOWBALL_LOOP_DB_CONNECTIONS
    with asyncio.Runner() as runner:
        try:
            runner.run(loop_database.execute("SELECT 1", []))

            async def together() -> list[int]:
                return await asyncio.gather(*(loop_database.execute("SELECT pg_sleep(0.2)", [])
                                              for _ in range(3 * size)))

            started = time.monotonic()
            assert runner.run(together()) == [1] * (3 * size)
            assert time.monotonic() - started < loop_database.POOL_WAIT_SECONDS
        finally:
            runner.run(loop_database.close_pool())
