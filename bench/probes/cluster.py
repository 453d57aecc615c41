"""The compose shape on this machine, for the probes: docker/run_local_cluster.sh (two daphne
workers behind nginx) on a Redis and a PostgreSQL of the probes' own.

The probes kill Redis and exhaust PostgreSQL's connections on purpose, so neither is the
machine's shared server: Redis is a ``redis-server`` started here (no persistence, as an
empty restart is the worst case), and PostgreSQL a private instance (``initdb`` once into
``/tmp/snowball-probe-pg``, then started and stopped with each probe) unless
``--database-url`` names another. Every run starts from a fresh database ``snowball_probe``.

Ports (``--base-port``, default 18400): nginx on base, the workers on base+1 and base+2,
PostgreSQL on base+32, Redis on base+79.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psutil

from bench.servers import PY, stop_process, wait_for_port
from bench.common import REPO

PG_BIN = Path("/usr/lib/postgresql")
PG_DATA = Path(tempfile.gettempdir()) / "snowball-probe-pg"
DATABASE = "snowball_probe"
SECRET_KEY = "probe-only-" + "k" * 40
CRASH_MARK = "Exception inside application"
HTTP_500_MARK = "Internal Server Error:"


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-port", type=int, default=18400,
                        help="nginx on this port, workers on +1 and +2, PostgreSQL on +32, Redis on +79")
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL server to use instead of the private one (its database "
                             f"{DATABASE} is dropped and created)")
    parser.add_argument("--save", action="store_true", help="write the JSON summary under bench/results/")
    parser.add_argument("--keep-logs", action="store_true", help="keep the cluster's log folder")
    parser.add_argument("--worker-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the workers (repeatable), to try a setting")


def worker_env(args: argparse.Namespace) -> dict[str, str]:
    return dict(item.split("=", 1) for item in args.worker_env)


def _pg_tool(name: str) -> str:
    found = sorted(PG_BIN.glob(f"*/bin/{name}"))
    if not found:
        raise SystemExit(f"{name} not found under {PG_BIN}: install postgresql or pass --database-url")
    return str(found[-1])


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@dataclass
class PrivatePostgres:
    """A PostgreSQL instance of the probes' own, on loopback, trust authentication."""

    port: int
    started: bool = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> None:
        if not (PG_DATA / "PG_VERSION").exists():
            PG_DATA.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(PG_DATA, "postgres", "postgres")
            subprocess.run(_as_postgres([_pg_tool("initdb"), "-D", str(PG_DATA), "-A", "trust", "-U", "postgres",
                                         "--no-sync"]), check=True, capture_output=True)
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={PG_DATA} "
                   "-c max_connections=300 -c shared_buffers=64MB")
        subprocess.run(_as_postgres([_pg_tool("pg_ctl"), "-D", str(PG_DATA), "-o", options,
                                     "-l", str(PG_DATA / "server.log"), "-w", "start"]), check=True,
                       capture_output=True)
        self.started = True

    def stop(self) -> None:
        if self.started:
            subprocess.run(_as_postgres([_pg_tool("pg_ctl"), "-D", str(PG_DATA), "-m", "fast", "-w", "stop"]),
                           capture_output=True)
            self.started = False


@dataclass
class PrivateRedis:
    """A redis-server of the probes' own, which they may kill and start again."""

    port: int
    workdir: Path
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no", "--dir", str(self.workdir)],
                                     stdout=(self.workdir / "redis.log").open("a"), stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.proc, timeout=20)

    def kill(self) -> None:
        """SIGKILL: what a crash or an out-of-memory kill does (nothing saved)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)
            self.proc = None


@dataclass
class Cluster:
    """docker/run_local_cluster.sh with its own ports, Redis and database."""

    base_port: int = 18400
    database_url: str | None = None
    worker_env: dict[str, str] = field(default_factory=dict)
    keep_logs: bool = False
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="snowball-probe-")))
    script: subprocess.Popen | None = None
    run_dir: Path | None = None
    postgres: PrivatePostgres | None = None
    redis: PrivateRedis | None = None
    restarted: dict[int, subprocess.Popen] = field(default_factory=dict)  # worker index -> its new process

    @property
    def nginx_port(self) -> int:
        return self.base_port

    @property
    def worker_ports(self) -> list[int]:
        return [self.base_port + 1, self.base_port + 2]

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.nginx_port}"

    def worker_http_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.worker_ports[index]}"

    def worker_ws_url(self, index: int) -> str:
        return f"ws://127.0.0.1:{self.worker_ports[index]}"

    @property
    def env(self) -> dict[str, str]:
        """The environment of the workers and of the Django scripts that share their database."""
        env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
        env.update({
            "DATABASE_URL": self.db_url,
            "REDIS_URL": self.redis.url if self.redis else "",
            "DJANGO_SETTINGS_MODULE": "snowball_site.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": SECRET_KEY,
            "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
            "PYTHON": PY,
            "PYTHONUNBUFFERED": "1",
            # every client of a probe connects from 127.0.0.1, players and attackers alike:
            # the per-address socket limit would count them as one
            "SNOWBALL_MAX_SOCKETS_PER_CLIENT": "100000",
            "SNOWBALL_CLUSTER_PORT": str(self.nginx_port),
            "SNOWBALL_WORKER_PORTS": " ".join(map(str, self.worker_ports)),
        })
        env.update(self.worker_env)
        return env

    @property
    def db_url(self) -> str:
        if self.database_url:
            return urlparse(self.database_url)._replace(path=f"/{DATABASE}").geturl()
        assert self.postgres is not None
        return self.postgres.url

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        if self.database_url is None:
            self.postgres = PrivatePostgres(port=self.base_port + 32)
            self.postgres.start()
        self.redis = PrivateRedis(port=self.base_port + 79, workdir=self.workdir)
        self.redis.start()
        self._fresh_database()
        log = self.workdir / "cluster.log"
        self.script = subprocess.Popen(["bash", str(REPO / "docker" / "run_local_cluster.sh")], cwd=REPO, env=self.env,
                                       stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 180
        while time.time() < deadline:
            text = log.read_text()
            match = re.search(r"logs in (\S+)\)", text)
            if match:
                self.run_dir = Path(match.group(1))
                break
            if self.script.poll() is not None:
                raise RuntimeError(f"docker/run_local_cluster.sh exited:\n{text[-3000:]}")
            time.sleep(0.2)
        else:
            raise RuntimeError("the cluster did not come up within 180 s")

    def _fresh_database(self) -> None:
        import psycopg

        admin = urlparse(self.db_url)._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{DATABASE}"')

    def stop(self) -> None:
        for proc in self.restarted.values():
            stop_process(proc)
        if self.script is not None and self.script.poll() is None:
            os.killpg(self.script.pid, signal.SIGTERM)
            try:
                self.script.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.script.pid, signal.SIGKILL)
                self.script.wait(timeout=10)
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
        if not self.keep_logs:
            shutil.rmtree(self.workdir, ignore_errors=True)
            if self.run_dir is not None:
                shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ------------------------------------------------------------------ the workers

    def worker_pid(self, index: int) -> int:
        """The pid of the daphne process listening on worker ``index``'s port."""
        if index in self.restarted and self.restarted[index].poll() is None:
            return self.restarted[index].pid
        port = str(self.worker_ports[index])
        for proc in psutil.Process(self.script.pid).children(recursive=True):
            try:
                cmd = proc.cmdline()
            except psutil.Error:
                continue
            if any("daphne" in part for part in cmd[:2]) and port in cmd:
                return proc.pid
        raise RuntimeError(f"no worker on port {port}")

    def kill_worker(self, index: int) -> int:
        pid = self.worker_pid(index)
        os.kill(pid, signal.SIGKILL)
        return pid

    def restart_worker(self, index: int) -> None:
        """A new worker on a killed worker's port, started as docker/run_local_cluster.sh starts one."""
        port = self.worker_ports[index]
        log = (self.run_dir / f"worker-{port}.log").open("a")
        daphne = str(Path(PY).with_name("daphne"))
        self.restarted[index] = subprocess.Popen(
            [daphne, "--bind", "127.0.0.1", "--port", str(port), "--proxy-headers",
             "--access-log", str(self.run_dir / f"worker-{port}.access.log"), "snowball_site.asgi:application"],
            cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        wait_for_port(port, self.restarted[index], timeout=60)

    def worker_logs(self) -> list[Path]:
        assert self.run_dir is not None
        return [self.run_dir / f"worker-{port}.log" for port in self.worker_ports]

    def log_marks(self) -> dict[str, int]:
        """How often the workers' logs say a socket handler crashed, or a request answered 500."""
        crashes = errors = 0
        for path in self.worker_logs():
            try:
                text = path.read_text(errors="replace")
            except OSError:
                continue
            crashes += text.count(CRASH_MARK)
            errors += text.count(HTTP_500_MARK)
        return {"socket_handler_crashes": crashes, "http_500_logged": errors}

    def crash_samples(self, limit: int = 8) -> list[str]:
        """What crashed: the final exception line of the first distinct tracebacks in the logs."""
        samples: list[str] = []
        for path in self.worker_logs():
            try:
                lines = path.read_text(errors="replace").splitlines()
            except OSError:
                continue
            for i, line in enumerate(lines):
                if CRASH_MARK not in line and HTTP_500_MARK not in line:
                    continue
                last = None
                previous_indented = False
                for j in range(i + 1, min(i + 400, len(lines))):
                    text = lines[j]
                    indented = text.startswith((" ", "\t"))
                    if not indented and text and previous_indented:
                        last = text[:200]  # an exception line: the traceback's frames came before it
                    elif not indented and text and last is not None and not text.startswith(
                            ("Traceback", "During handling", "The above")):
                        break  # the next log record
                    previous_indented = indented
                if last and last not in samples:
                    samples.append(last)
                if len(samples) >= limit:
                    return samples
        return samples

    # ------------------------------------------------------------------ games

    def create_games(self, count: int, *, game_type: str = "snowball-fight", sessions: bool = False) -> list[dict]:
        """``count`` started two-player games with API tokens (bench/setup_games.py); with
        ``sessions``, also a signed-in session key for each game's seat 0 (the page socket)."""
        out = self.workdir / f"games-{time.monotonic_ns()}.json"
        proc = subprocess.run([PY, "-m", "bench.setup_games", "--games", str(count), "--game-type", game_type,
                               "--out", str(out)], cwd=REPO, env=self.env, capture_output=True, text=True,
                              timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"bench.setup_games failed:\n{proc.stderr[-3000:]}")
        games = json.loads(out.read_text())
        if sessions:
            keys = self.django(SESSIONS_SCRIPT, json.dumps([g["id"] for g in games]))
            for game, key in zip(games, json.loads(keys)):
                game["session"] = key
        return games

    def django(self, code: str, *args: str) -> str:
        """Run ``code`` with Django set up on the cluster's database; its stdout."""
        proc = subprocess.run([PY, "-c", DJANGO_PRELUDE + code, *args], cwd=REPO, env=self.env, capture_output=True,
                              text=True, timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"a Django script failed:\n{proc.stderr[-3000:]}")
        return proc.stdout


DJANGO_PRELUDE = "import django, sys, json\ndjango.setup()\n"

SESSIONS_SCRIPT = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from games.models import Seat
keys = []
for game_id in json.loads(sys.argv[1]):
    user = Seat.objects.get(game_id=game_id, number=0).user
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    keys.append(store.session_key)
print(json.dumps(keys))
"""

VERIFY_SCRIPT = """
from games import services
from games.models import ActionRecord, Game
from games.selectors.review import versions_told
acked = json.load(open(sys.argv[1]))
report = {"games": 0, "replay_mismatches": [], "acked": 0, "acked_lost": [], "acked_wrong_version": []}
for game_id, acks in acked.items():
    game = Game.objects.get(pk=int(game_id))
    report["games"] += 1
    if game.state is not None and services.replay(game=game) != game.state:
        report["replay_mismatches"].append(int(game_id))
    told = versions_told(game)  # the acting seat's own count (docs/api.md), not the game's
    logged = {action_id: told[seq] for action_id, seq in ActionRecord.objects.filter(game=game).values_list("action_id", "seq")}
    for action_id, version, duplicate in acks:
        report["acked"] += 1
        if action_id not in logged:
            report["acked_lost"].append([int(game_id), action_id])
        elif (logged[action_id] > version) if duplicate else (logged[action_id] != version):
            report["acked_wrong_version"].append([int(game_id), action_id, version, logged[action_id]])
print(json.dumps(report))
"""


def verify_acked(cluster: Cluster, acked: dict[int, list[tuple[str, int, bool]]]) -> dict[str, Any]:
    """Every game rebuilt from seed + log against its stored state, and every acked action
    looked up in the log (an ack whose action is not there, or at another version, is lost; a
    ``duplicate`` ack reports the game's version when it was resent, so its action may be
    logged at that version or earlier)."""
    path = cluster.workdir / "acked.json"
    path.write_text(json.dumps({str(k): v for k, v in acked.items()}))
    report = json.loads(cluster.django(VERIFY_SCRIPT, str(path)))
    report["acked_moves_lost"] = len(report["acked_lost"]) + len(report["acked_wrong_version"])
    return report


STUCK_SCRIPT = """
from games.models import Game
out = []
for game_id in json.loads(sys.argv[1]):
    game = Game.objects.get(pk=game_id)
    out.append({"game": game_id, "status": game.status, "version": game.version, "log_length": game.log_length,
                "prompts": game.prompts})
print(json.dumps(out))
"""


def describe_games(cluster: Cluster, game_ids: list[int]) -> list[dict[str, Any]]:
    """Status, version and open prompts of some games (those that did not resume)."""
    if not game_ids:
        return []
    return json.loads(cluster.django(STUCK_SCRIPT, json.dumps(game_ids)))
