"""Probe: how many PostgreSQL connections one worker holds under HTTP requests and sockets.

    python -m bench.probes.db_connections [--sequential 1000] [--concurrent 200] [--socket-games 50] [--save]

Straight to worker 1 (no nginx): ``--sequential`` requests ``GET /api/games/<id>/`` one after
another on one keep-alive connection, then ``--concurrent`` at once, then ``--socket-games``
games played by bots on that worker for ``--socket-seconds``. Every 0.1 s the worker's open
connections are counted in ``pg_stat_activity`` (the rows whose client port is one of the
worker's own sockets to PostgreSQL). Reported: the most it held in each phase and after
5 s idle, the HTTP answers, and the bound the configuration sets (the pool's ``max_size``,
``SNOWBALL_DB_POOL_SIZE``). Goal: never above that bound; with no pool configured there is none.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import threading
import time
from collections import Counter

import psutil
import psycopg

from bench.probes.clients import BotTable, raw_http
from bench.probes.cluster import Cluster, add_cluster_arguments, worker_env
from bench.probes.common import finish

BOUND_SCRIPT = """
from django.conf import settings
pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
print(json.dumps({"pool": pool if pool is None or isinstance(pool, (dict, bool)) else str(pool),
                  "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE")}))
"""


class ConnectionCounter(threading.Thread):
    """Counts one process's connections in pg_stat_activity, every ``interval`` seconds."""

    def __init__(self, *, pid: int, pg_port: int, admin_url: str, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.pg_port, self.admin_url, self.interval = pid, pg_port, admin_url, interval
        self.current = 0
        self.peak = 0
        self.stopping = False

    def reset_peak(self) -> None:
        self.peak = self.current

    def count(self, conn: psycopg.Connection) -> int:
        try:
            ports = [c.laddr.port for c in psutil.Process(self.pid).net_connections(kind="tcp")
                     if c.raddr and c.raddr.port == self.pg_port]
        except psutil.Error:
            return 0
        if not ports:
            return 0
        conn.execute("SELECT pg_stat_clear_snapshot()")
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE client_port = ANY(%s)", [ports]).fetchone()[0]

    def run(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while not self.stopping:
                self.current = self.count(conn)
                self.peak = max(self.peak, self.current)
                time.sleep(self.interval)


def _sequential(port: int, path: str, token: str, count: int) -> Counter[str]:
    statuses: Counter[str] = Counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(count):
        try:
            conn.request("GET", path, headers={"Authorization": f"Token {token}"})
            reply = conn.getresponse()
            reply.read()
            statuses[str(reply.status)] += 1
        except (OSError, http.client.HTTPException):
            statuses["None"] += 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.close()
    return statuses


async def probe(cluster: Cluster, args: argparse.Namespace) -> dict:
    games = cluster.create_games(max(args.socket_games, 1))
    bound_info = json.loads(cluster.django(BOUND_SCRIPT))
    pool = bound_info["pool"]
    if pool in (None, False):
        bound = None
    else:
        max_size = pool.get("max_size", pool.get("min_size", 4)) if isinstance(pool, dict) else 4
        bound = max_size
    port = cluster.worker_ports[0]
    pg_port = int(cluster.db_url.rsplit(":", 1)[1].split("/")[0])
    counter = ConnectionCounter(pid=cluster.worker_pid(0), pg_port=pg_port,
                                admin_url=cluster.db_url.rsplit("/", 1)[0] + "/postgres")
    counter.start()
    await asyncio.sleep(1.0)
    phases: dict[str, dict] = {"idle_before": {"held": counter.current}}
    game, token = games[0], games[0]["tokens"][0]
    path = f"/api/games/{game['id']}/"
    loop = asyncio.get_running_loop()

    counter.reset_peak()
    t0 = time.monotonic()
    statuses = await loop.run_in_executor(None, _sequential, port, path, token, args.sequential)
    phases["sequential"] = {"requests": args.sequential, "seconds": round(time.monotonic() - t0, 1),
                            "peak_held": counter.peak, "answers": dict(statuses)}

    counter.reset_peak()
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
               f"Authorization: Token {token}\r\n\r\n").encode()
    t0 = time.monotonic()
    answers = await asyncio.gather(*(raw_http(port, request, timeout=60) for _ in range(args.concurrent)))
    phases["concurrent"] = {"requests": args.concurrent, "seconds": round(time.monotonic() - t0, 1),
                            "peak_held": counter.peak, "answers": dict(Counter(str(a) for a in answers))}

    counter.reset_peak()
    table = BotTable(games=games[:args.socket_games], ws_url=cluster.worker_ws_url(0),
                     http_url=cluster.worker_http_url(0))
    table.start()
    await asyncio.sleep(args.socket_seconds)
    await table.stop()
    phases["sockets"] = {"sockets": 2 * args.socket_games, "seconds": args.socket_seconds, "peak_held": counter.peak,
                         "moves_acked": table.stats.count["acks"], "socket_errors": dict(table.stats.errors),
                         "closes": dict(table.stats.closes)}

    await asyncio.sleep(5.0)
    phases["idle_after"] = {"held": counter.current}
    counter.stopping = True
    counter.join(timeout=5)
    peak = max(p.get("peak_held", p.get("held", 0)) for p in phases.values())
    failures = sum(n for p in phases.values() for s, n in p.get("answers", {}).items() if s == "None" or int(s) >= 500)
    return {
        "worker": port,
        "configured": bound_info,
        "bound": bound,
        "peak_held": peak,
        "phases": phases,
        "http_failures": failures,
        "passed": bound is not None and peak <= bound and failures == 0,
        "log_marks": cluster.log_marks(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.db_connections", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--sequential", type=int, default=1000)
    parser.add_argument("--concurrent", type=int, default=200)
    parser.add_argument("--socket-games", type=int, default=50, help="games played on the worker (2 sockets each)")
    parser.add_argument("--socket-seconds", type=float, default=15.0)
    args = parser.parse_args(argv)
    with Cluster(base_port=args.base_port, database_url=args.database_url, keep_logs=args.keep_logs,
                 worker_env=worker_env(args)) as cluster:
        summary = asyncio.run(probe(cluster, args))
    summary["options"] = vars(args)
    finish("db-connections", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
