"""Probe: Redis killed (SIGKILL) and started again, empty, while bots play.

    python -m bench.probes.redis_restart [--games 20] [--before 15] [--down 2] [--after 20] [--save]

The cluster's Redis (channel layer, game locks, presence, reveal barrier) is killed after
``--before`` seconds of play and started again ``--down`` seconds later with nothing in it.
Reported: the time until play resumes, for each game from the restart to the first ack of
an action sent after it (goal: the slowest under 5 s), and acked moves lost (every game
rebuilt from seed + log; goal 0).
"""
from __future__ import annotations

import argparse
import asyncio
import time

from bench.probes.clients import BotTable
from bench.probes.cluster import Cluster, add_cluster_arguments, describe_games, worker_env, verify_acked
from bench.probes.common import finish

RESUME_GOAL_S = 5.0


async def play_through_restart(cluster: Cluster, args: argparse.Namespace) -> dict:
    games = cluster.create_games(args.games)
    table = BotTable(games=games, ws_url=cluster.ws_url, http_url=cluster.http_url, seed=args.seed)
    table.start()
    await asyncio.sleep(args.before)
    t_kill = time.monotonic()
    cluster.redis.kill()
    await asyncio.sleep(args.down)
    await asyncio.get_running_loop().run_in_executor(None, cluster.redis.start)
    t_restart = time.monotonic()
    await asyncio.sleep(args.after)
    await table.stop()
    resume = table.resume_times(t_restart)
    verified = verify_acked(cluster, table.stats.acked)
    return {
        "games": args.games,
        "redis_down_s": round(t_restart - t_kill, 2),
        "resume_after_restart": resume,
        "resume_goal_s": RESUME_GOAL_S,
        "acked_moves": verified["acked"],
        "acked_moves_lost": verified["acked_moves_lost"],
        "replay_mismatches": len(verified["replay_mismatches"]),
        "passed": (verified["acked_moves_lost"] == 0 and not verified["replay_mismatches"]
                   and resume["max_s"] is not None and resume["max_s"] < RESUME_GOAL_S),
        "bots": {"count": dict(table.stats.count), "errors": dict(table.stats.errors),
                 "closes": dict(table.stats.closes)},
        "log_marks": cluster.log_marks(),
        "games_not_resumed": describe_games(cluster, [g for g in resume["games_not_resumed"] if g]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.redis_restart", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--before", type=float, default=15.0)
    parser.add_argument("--down", type=float, default=2.0, help="seconds Redis stays down")
    parser.add_argument("--after", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with Cluster(base_port=args.base_port, database_url=args.database_url, keep_logs=args.keep_logs,
                 worker_env=worker_env(args)) as cluster:
        summary = asyncio.run(play_through_restart(cluster, args))
    summary["options"] = vars(args)
    finish("redis-restart", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
