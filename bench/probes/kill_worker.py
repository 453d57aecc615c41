"""Probe: kill -9 of a worker while bots play through the JSON API.

    python -m bench.probes.kill_worker [--games 20] [--kills 2] [--http-moves 0.2] [--save]

Bots play ``--games`` games through nginx (two seats each, a random legal action whenever
asked, reconnecting and resending as docs/api.md says; a share ``--http-moves`` of the
actions goes over HTTP, which nginx may hand to the other worker than the game's sockets).
After ``--before`` seconds worker 1 gets SIGKILL; its sockets reconnect through nginx to the
other worker. ``--after`` seconds later it is started again, and killed again, ``--kills``
times in all. Reported: acked moves lost (every game rebuilt from seed + log and compared
with its stored state; every acked action looked up in the log; goal 0) and the time until
play resumes (for each game, from a kill to the first ack of an action sent after it; goal:
the slowest under 2 s, over every kill).
"""
from __future__ import annotations

import argparse
import asyncio
import time

from bench.probes.clients import BotTable
from bench.probes.cluster import Cluster, add_cluster_arguments, describe_games, worker_env, verify_acked
from bench.probes.common import finish

RESUME_GOAL_S = 2.0


async def play_and_kill(cluster: Cluster, args: argparse.Namespace) -> dict:
    games = cluster.create_games(args.games)
    table = BotTable(games=games, ws_url=cluster.ws_url, http_url=cluster.http_url, seed=args.seed,
                     http_moves=args.http_moves)
    table.start()
    await asyncio.sleep(args.before)
    kills = []
    loop = asyncio.get_running_loop()
    for k in range(args.kills):
        if k:
            await loop.run_in_executor(None, cluster.restart_worker, 1)
            await asyncio.sleep(args.after)
        t_kill = time.monotonic()
        pid = cluster.kill_worker(1)
        await asyncio.sleep(args.after)
        kills.append({"pid": pid, "resume": table.resume_times(t_kill),
                      "games_whose_sockets_dropped": len({slot for t, slot in table.stats.drops
                                                          if t_kill <= t < t_kill + args.after})})
    await table.stop()
    verified = verify_acked(cluster, table.stats.acked)
    waits = [kill["resume"]["max_s"] for kill in kills]
    slowest = None if None in waits else max(waits)
    return {
        "games": args.games,
        "kills": kills,
        "resume_slowest_s": slowest,
        "acked_moves": verified["acked"],
        "acked_moves_lost": verified["acked_moves_lost"],
        "games_checked": verified["games"],
        "replay_mismatches": len(verified["replay_mismatches"]),
        "resume_goal_s": RESUME_GOAL_S,
        "passed": (verified["acked_moves_lost"] == 0 and not verified["replay_mismatches"]
                   and slowest is not None and slowest < RESUME_GOAL_S),
        "bots": {"count": dict(table.stats.count), "errors": dict(table.stats.errors),
                 "closes": dict(table.stats.closes)},
        "log_marks": cluster.log_marks(),
        "games_not_resumed": describe_games(cluster, [g for kill in kills for g in kill["resume"]["games_not_resumed"] if g]),
        "lost_sample": verified["acked_lost"][:5] + verified["acked_wrong_version"][:5],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.kill_worker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--before", type=float, default=15.0, help="seconds of play before the kill")
    parser.add_argument("--after", type=float, default=20.0, help="seconds of play after a kill (and after a restart)")
    parser.add_argument("--kills", type=int, default=2, help="kills of worker 1, started again between them")
    parser.add_argument("--http-moves", type=float, default=0.2, help="share of the actions sent over HTTP")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with Cluster(base_port=args.base_port, database_url=args.database_url, keep_logs=args.keep_logs,
                 worker_env=worker_env(args)) as cluster:
        summary = asyncio.run(play_and_kill(cluster, args))
    summary["options"] = vars(args)
    finish("kill-worker", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
