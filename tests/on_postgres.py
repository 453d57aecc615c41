"""Run the tests that talk to the database again, on PostgreSQL: ``make test``'s second pass.

docker compose's workers run on PostgreSQL, with its row locks and a connection pool where
SQLite has neither, so those tests run on both. With no PostgreSQL at ``SNOWBALL_TEST_POSTGRES_URL`` the pass is skipped
with a note, or fails where ``SNOWBALL_REQUIRE_POSTGRES`` is set (as in CI).

    python -m tests.on_postgres [pytest arguments]   (default: DATABASE_TESTS)

``SNOWBALL_TEST_WORKERS=N`` runs them in N processes (pytest-xdist), as ``make test`` does.
"""
from __future__ import annotations

import os
import subprocess
import sys

DEFAULT_URL = "postgres://postgres:postgres@127.0.0.1:5432/snowball"

DATABASE_TESTS = [
    "tests/platform/test_services.py",
    "tests/platform/test_statements.py",
    "tests/platform/test_jingle_bells_services.py",
    "tests/platform/test_consumers.py",
    "tests/platform/test_hidden_information.py",
    "tests/platform/test_move_rules.py",
    "tests/platform/test_http_api.py",
    "tests/platform/test_boundary.py",
    "tests/platform/test_fuzz.py",
    "tests/platform/test_connection_pool.py",
    "tests/platform/test_move_path.py",
    "tests/platform/test_held_moves.py",
    "tests/platform/test_moves_awaited_on_the_loop.py",
    "tests/platform/test_loop_database_pool.py",
    "tests/platform/test_view_frame_payload.py",
    "tests/platform/test_socket_answers.py",
    "tests/platform/test_tables.py",
    "tests/platform/test_tables_api.py",
    "tests/platform/test_ratings.py",
    "tests/platform/test_move_locks.py",
    "tests/platform/test_chat.py",
    "tests/platform/test_rematch.py",
    "tests/platform/test_handover.py",
    "tests/platform/test_private_versions.py",
]


def _unreachable(url: str) -> str | None:
    """Why the server at ``url`` cannot be used, or None. Its database need not exist:
    pytest-django creates ``test_<name>`` from the server's ``postgres`` database."""
    import psycopg

    try:
        psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at {url} is unreachable ({str(exc).strip()})"
    return None


def main(args: list[str]) -> int:
    url = os.environ.get("SNOWBALL_TEST_POSTGRES_URL", DEFAULT_URL)
    problem = _unreachable(url)
    if problem:
        if os.environ.get("SNOWBALL_REQUIRE_POSTGRES", "") not in ("", "0"):
            print(f"{problem}, and SNOWBALL_REQUIRE_POSTGRES is set", file=sys.stderr)
            return 1
        print(f"note: {problem}; the PostgreSQL pass is skipped (set SNOWBALL_REQUIRE_POSTGRES=1 to fail instead)")
        return 0
    print(f"The database tests again, on PostgreSQL ({url.rsplit('@', 1)[-1]}):", flush=True)
    env = {**os.environ, "DATABASE_URL": url}
    workers = os.environ.get("SNOWBALL_TEST_WORKERS", "")
    parallel = ["-n", workers] if workers not in ("", "0", "1") else []
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *parallel, *(args or DATABASE_TESTS)]
    return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
