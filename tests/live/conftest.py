"""A real server for end-to-end tests: daphne in a child process on a file SQLite database.

``LiveServer.kill()`` is kill -9; ``start()`` again resumes on the same database, as
an operator restarting a crashed worker would.
"""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
# A loaded 2-core machine (two test processes, each with its browser) can take over 30 s to start one.
START_SECONDS = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_MIGRATED: dict[str, Path] = {}


def _migrated_database(env: dict[str, str]) -> Path:
    """A freshly migrated SQLite file for these settings, made once per test process: each
    server starts on a copy of it instead of migrating its own."""
    settings_module = env.get("DJANGO_SETTINGS_MODULE", "")
    if settings_module not in _MIGRATED:
        folder = tempfile.mkdtemp(prefix="snowball-migrated-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = Path(folder) / "migrated.sqlite3"
        out = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                             env={**env, "DATABASE_URL": f"sqlite:///{path}"}, capture_output=True, text=True,
                             timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"manage.py migrate failed:\n{out.stderr}")
        _MIGRATED[settings_module] = path
    return _MIGRATED[settings_module]


class LiveServer:
    def __init__(self, db_path: Path, extra_env: dict[str, str] | None = None,
                 application: str = "snowball_site.asgi:application", stdout_path: Path | None = None):
        self.application = application
        self.stdout_path = stdout_path
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        inherited = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "REDIS_URL"}}
        self.env = {**inherited, "DATABASE_URL": f"sqlite:///{db_path}", "DJANGO_DEBUG": "1",
                    "PYTHONUNBUFFERED": "1", **(extra_env or {})}
        self.proc: subprocess.Popen | None = None
        if self.env["DATABASE_URL"] == f"sqlite:///{db_path}" and not db_path.exists():
            shutil.copyfile(_migrated_database(self.env), db_path)
        else:
            self.manage("migrate", "--noinput", "-v", "0")

    def manage(self, *args: str) -> str:
        out = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env,
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stderr}")
        return out.stdout

    def start(self) -> None:
        """Serve; what the server prints (the console's e-mails) goes to ``stdout_path`` if given."""
        stdout = open(self.stdout_path, "ab") if self.stdout_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.application],
            cwd=ROOT, env=self.env, stdout=stdout, stderr=subprocess.PIPE)
        if self.stdout_path:
            stdout.close()
        deadline = time.time() + START_SECONDS
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                if requests.get(self.url + "/api/game-types/", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                time.sleep(0.2)
        raise RuntimeError(f"daphne did not come up in {START_SECONDS} s")

    def kill(self) -> None:
        """kill -9: no shutdown hooks, no flushing."""
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


@pytest.fixture
def live_server_proc(tmp_path):
    server = LiveServer(tmp_path / "live.sqlite3")
    server.start()
    yield server
    server.stop()
