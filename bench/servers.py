"""Starting the servers under test the way `make run` and docker compose start them.

- ``memory``: one daphne process, SQLite file database, in-memory channel layer and
  in-process coordinator (``make run``: ``daphne -b HOST -p PORT snowball_site.asgi:application``).
- ``redis``: daphne worker(s) with ``REDIS_URL`` (channel layer and coordinator in Redis) and
  ``DATABASE_URL`` on PostgreSQL, started with docker compose's command line
  (``daphne --bind ... --port ... --proxy-headers snowball_site.asgi:application``). The load
  generator talks to the workers directly over loopback (no nginx), sending each game's
  sockets to the worker docker/nginx would pick (``--routing``).
- ``floor``: ``python -m bench.floor --serve``, a bare ``websockets`` fan-out server; or
  (``kind="channels"``) ``daphne bench.channels_floor:application``, the same fan-out on
  daphne and Channels with no game.

Every run gets a fresh database (a temporary SQLite file, or ``DROP/CREATE DATABASE`` on
PostgreSQL) and a flushed Redis database; settings come from the environment as in
production (``DJANGO_DEBUG=0``, a secret key, ``DJANGO_ALLOWED_HOSTS``).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from bench.common import REPO

PY = sys.executable
DAPHNE = str(Path(PY).with_name("daphne"))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/snowball_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/8"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen | None, timeout: float = 60.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout:.0f} s")


def stop_process(proc: subprocess.Popen, grace: float = 10.0) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@dataclass
class Site:
    """One configured Snowball deployment: its environment, database and worker processes."""

    mode: str  # "memory" | "redis"
    workers: int = 1
    database_url: str = DEFAULT_PG
    redis_url: str = DEFAULT_REDIS
    extra_env: dict[str, str] = field(default_factory=dict)
    app_dir: Path = REPO  # the project tree the server runs from (a scratch copy for experiments)
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="snowball-bench-")))
    procs: list[subprocess.Popen] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in {"REDIS_URL", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}}
        env.update({
            "DJANGO_SETTINGS_MODULE": "snowball_site.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(self.app_dir),
            "SNOWBALL_MAX_SOCKETS_PER_CLIENT": "1000000",  # the load generator is one client with every socket
        })
        if self.mode == "memory":
            env["DATABASE_URL"] = f"sqlite:///{self.workdir / 'db.sqlite3'}"
        else:
            env["DATABASE_URL"] = self.database_url
            env["REDIS_URL"] = self.redis_url
        env.update(self.extra_env)
        return env

    # -------------------------------------------------------------- preparation

    def prepare(self) -> None:
        """A fresh, migrated database (and an empty Redis database in redis mode)."""
        if self.mode == "redis":
            self._fresh_postgres()
            import redis

            redis.Redis.from_url(self.redis_url).flushdb()
        self.manage("migrate", "--noinput", "-v", "0")

    def _fresh_postgres(self) -> None:
        import psycopg

        url = urlparse(self.database_url)
        name = url.path.lstrip("/")
        if not name.startswith("snowball_bench"):
            raise SystemExit(f"refusing to drop {name!r}: bench databases must be named snowball_bench*")
        admin = url._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')

    def manage(self, *args: str) -> str:
        out = subprocess.run([PY, "manage.py", *args], cwd=self.app_dir, env=self.env, capture_output=True,
                             text=True, timeout=600)
        if out.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stderr[-3000:]}")
        return out.stdout

    def create_games(self, count: int, game_type: str, *, aged: int = 0, age_up_to: int = 0) -> list[dict[str, Any]]:
        """``count`` started games of the table ``game_type`` (bench.tables), every seat a player
        with an API token and a signed-in session (bench.setup_games); the first ``aged`` of them
        played forward by up to ``age_up_to`` moves first."""
        out = self.workdir / f"games-{game_type}.json"
        script = REPO / "bench" / "setup_games.py"
        env = {**self.env, "PYTHONPATH": f"{self.app_dir}{os.pathsep}{REPO}"}
        aging = ["--aged", str(aged), "--age-up-to", str(age_up_to)] if aged and age_up_to else []
        proc = subprocess.run([PY, str(script), "--games", str(count), "--game-type", game_type, "--out", str(out),
                               *aging], cwd=self.app_dir, env=env, capture_output=True, text=True, timeout=3600)
        if proc.returncode != 0:
            raise RuntimeError(f"bench.setup_games failed:\n{proc.stderr[-3000:]}")
        return json.loads(out.read_text())

    # -------------------------------------------------------------- processes

    def start(self) -> None:
        for i in range(self.workers if self.mode == "redis" else 1):
            port = free_port()
            log = self.workdir / f"daphne-{i}.log"
            if self.mode == "redis":  # docker-compose.yml's worker command, bound to loopback
                cmd = [DAPHNE, "--bind", "127.0.0.1", "--port", str(port), "--proxy-headers",
                       "snowball_site.asgi:application"]
            else:  # the Makefile's `make run`
                cmd = [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "snowball_site.asgi:application"]
            proc = subprocess.Popen(cmd, cwd=self.app_dir, env=self.env, stdout=log.open("w"),
                                    stderr=subprocess.STDOUT)
            self.procs.append(proc)
            self.ports.append(port)
            self.logs.append(log)
        for proc, port in zip(self.procs, self.ports):
            wait_for_port(port, proc)

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        for proc in self.procs:
            stop_process(proc)
        self.procs.clear()
        self.ports.clear()

    def log_tail(self, lines: int = 30) -> str:
        out = []
        for log in self.logs:
            try:
                out.append(f"--- {log.name}\n" + "\n".join(log.read_text().splitlines()[-lines:]))
            except OSError:
                pass
        return "\n".join(out)

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


@dataclass
class FloorServer:
    """A floor server in its own process: bare websockets (bench.floor) or daphne and Channels
    (bench.channels_floor)."""

    kind: str = "bare"
    pad_player: int = 0
    pad_spectator: int = 0
    game_lengths: list[int] = field(default_factory=list)
    procs: list[subprocess.Popen] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="snowball-floor-")))

    def start(self) -> None:
        port = free_port()
        log = self.workdir / "floor.log"
        env = dict(os.environ)
        if self.kind == "channels":
            cmd = [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "bench.channels_floor:application"]
            env.pop("DJANGO_SETTINGS_MODULE", None)
            env.update(FLOOR_PAD_PLAYER=str(self.pad_player), FLOOR_PAD_SPECTATOR=str(self.pad_spectator),
                       FLOOR_GAME_LENGTHS=",".join(map(str, self.game_lengths)))
        else:
            cmd = [PY, "-m", "bench.floor", "--serve", "--port", str(port), "--pad-player", str(self.pad_player),
                   "--pad-spectator", str(self.pad_spectator), "--game-lengths", ",".join(map(str, self.game_lengths))]
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
        self.procs.append(proc)
        self.ports.append(port)
        wait_for_port(port, proc)

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        for proc in self.procs:
            stop_process(proc)
        self.procs.clear()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


def redis_pid(url: str) -> int | None:
    """The pid of the Redis server behind ``url`` (from INFO), to measure its CPU."""
    try:
        import redis

        return int(redis.Redis.from_url(url).info("server")["process_id"])
    except Exception:
        return None


def redis_used_memory(url: str) -> int | None:
    try:
        import redis

        return int(redis.Redis.from_url(url).info("memory")["used_memory"])
    except Exception:
        return None


def redis_command_calls(url: str) -> dict[str, int]:
    """Calls so far per Redis command (``INFO commandstats``), to count a run's round trips."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return {name.removeprefix("cmdstat_"): int(row["calls"]) for name, row in stats.items()}


def postgres_counters(url: str) -> dict[str, int]:
    """The bench database's statement and row counters so far (``pg_stat_database``).

    Each statement outside a transaction counts as one transaction there, so on PostgreSQL
    the move's statements show up one by one. Backends report at most once a second, so a
    window's counts are good to about a second's worth.
    """
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated, tup_fetched "
            "FROM pg_stat_database WHERE datname = %s", [name]).fetchone()
    return dict(zip(("transactions", "rows_inserted", "rows_updated", "rows_fetched"), map(int, row)))


def per_action(before: dict[str, int], after: dict[str, int], actions: float) -> dict[str, float]:
    """What each counter grew by over a window, per action, largest first; zeros left out."""
    grown = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    return {k: round(v / actions, 2) for k, v in sorted(grown.items(), key=lambda kv: -kv[1]) if v / actions >= 0.005}
