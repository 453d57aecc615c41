"""Probe: 20 bot games for minutes on one worker, its resident memory over time.

    python -m bench.probes.soak [--games 20] [--minutes 10] [--after 60] [--tracemalloc] [--save]

Bots play ``--games`` games on worker 1 directly (a finished game is replaced by a new one
over the HTTP API, so the load stays steady) for ``--minutes``; the worker's RSS is sampled
every ``--every`` seconds, and for ``--after`` seconds more once play has stopped. Reported:
the samples, the slope of the last half of play (MB a minute, least squares; goal: flat,
under 1 MB a minute) and what was given back after play stopped. ``--tracemalloc`` runs the
worker with bench/probes/tracemalloc_hook (what grew, by traceback, into the log folder,
kept).
"""
from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import psutil

from bench.probes.clients import BotTable
from bench.probes.cluster import Cluster, add_cluster_arguments, verify_acked, worker_env
from bench.probes.common import finish

SLOPE_GOAL_MB_PER_MIN = 1.0
HOOK = Path(__file__).resolve().parent / "tracemalloc_hook"


def slope_mb_per_min(samples: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, MB) samples, in MB a minute."""
    if len(samples) < 2:
        return None
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    var = sum((t - mean_t) ** 2 for t, _ in samples)
    return 60 * sum((t - mean_t) * (m - mean_m) for t, m in samples) / var if var else None


async def soak(cluster: Cluster, args: argparse.Namespace) -> dict:
    games = cluster.create_games(args.games)
    worker = psutil.Process(cluster.worker_pid(0))

    pg_port = int(cluster.db_url.rsplit(":", 1)[1].split("/")[0])
    redis_port = cluster.redis.port

    def rss() -> float:
        return round(worker.memory_info().rss / 2**20, 1)

    def held() -> dict[str, int]:
        conns = worker.net_connections(kind="tcp")
        return {"threads": worker.num_threads(), "fds": worker.num_fds(),
                "postgres": sum(1 for c in conns if c.raddr and c.raddr.port == pg_port),
                "redis": sum(1 for c in conns if c.raddr and c.raddr.port == redis_port)}

    idle_rss = rss()
    resources = [(0.0, held())]
    table = BotTable(games=games, ws_url=cluster.worker_ws_url(0), http_url=cluster.worker_http_url(0), seed=args.seed)
    t0 = time.monotonic()
    table.start()
    playing: list[tuple[float, float]] = []
    end = t0 + args.minutes * 60
    while time.monotonic() < end:
        await asyncio.sleep(min(args.every, max(0.0, end - time.monotonic())))
        playing.append((round(time.monotonic() - t0, 1), rss()))
        resources.append((playing[-1][0], held()))
    await table.stop()
    stopped: list[tuple[float, float]] = []
    t_stop = time.monotonic()
    while time.monotonic() < t_stop + args.after:
        await asyncio.sleep(args.every)
        stopped.append((round(time.monotonic() - t0, 1), rss()))
    resources.append((stopped[-1][0] if stopped else 0.0, held()))
    late = [s for s in playing if s[0] >= args.minutes * 30]
    slope = slope_mb_per_min(late)
    verified = verify_acked(cluster, table.stats.acked)
    return {
        "games": args.games,
        "minutes": args.minutes,
        "worker": cluster.worker_ports[0],
        "rss_mb_idle": idle_rss,
        "rss_mb_playing": playing,
        "rss_mb_after_stop": stopped,
        "held_over_time": resources[::max(1, len(resources) // 8)] + resources[-1:],
        "rss_mb_first_last": [playing[0][1] if playing else None, playing[-1][1] if playing else None],
        "slope_last_half_mb_per_min": round(slope, 2) if slope is not None else None,
        "given_back_mb": round(playing[-1][1] - stopped[-1][1], 1) if playing and stopped else None,
        "goal_mb_per_min": SLOPE_GOAL_MB_PER_MIN,
        "passed": slope is not None and slope < SLOPE_GOAL_MB_PER_MIN,
        "moves_acked": table.stats.count["acks"],
        "games_finished": table.stats.count["games_finished"],
        "acked_moves_lost": verified["acked_moves_lost"],
        "bots": {"errors": dict(table.stats.errors), "closes": dict(table.stats.closes)},
        "log_marks": cluster.log_marks(),
        "tracemalloc_out": str(cluster.workdir) if args.tracemalloc or args.full_collections else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between RSS samples")
    parser.add_argument("--after", type=float, default=60.0, help="seconds sampled after play stops")
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--full-collections", type=float, default=None, metavar="SECONDS",
                        help="a full gc.collect() in the worker this often (is the growth garbage waiting for it?)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    cluster = Cluster(base_port=args.base_port, database_url=args.database_url,
                      keep_logs=args.keep_logs or args.tracemalloc, worker_env=worker_env(args))
    if args.full_collections:
        cluster.keep_logs = True
        cluster.worker_env |= {"PYTHONPATH": str(HOOK), "SNOWBALL_PROBE_COLLECT_EVERY": str(args.full_collections),
                               "SNOWBALL_TRACEMALLOC_OUT": str(cluster.workdir / "tracemalloc")}
    if args.tracemalloc:
        cluster.worker_env |= {"SNOWBALL_TRACEMALLOC": "1", "PYTHONPATH": str(HOOK),
                              "SNOWBALL_TRACEMALLOC_OUT": str(cluster.workdir / "tracemalloc"),
                              "SNOWBALL_TRACEMALLOC_FIRST": str(max(30.0, args.minutes * 15)),
                              "SNOWBALL_TRACEMALLOC_EVERY": str(max(20.0, args.minutes * 15))}
    with cluster:
        summary = asyncio.run(soak(cluster, args))
    summary["options"] = vars(args)
    finish("soak", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
