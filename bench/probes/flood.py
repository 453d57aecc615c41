"""Probe: sockets that send 1,000 move frames a second, and what they do to other games.

    python -m bench.probes.flood [--flooders 20] [--frame-rate 1000] [--window 30] [--save]

First 20 well-behaved games (bench/loadgen.py) are measured alone for ``--window`` seconds.
Then one flooder (seated, on the JSON socket through nginx, on a game of its own) sends
``--frame-rate`` action frames a second until the server closes it, ``--single-runs`` times.
Then ``--flooders`` such sockets flood at once for ``--window`` seconds while the same
well-behaved load is measured again; a flooder the server closes connects again and floods
on, as an attacker would (a socket the server closes before its first frame is counted as
``closed_on_arrival``). Reported: the time from a flooder's first frame until the server
closes it (goal under 1 s; a socket still open at the end after flooding longer than that
counts as "never closed"), and the other games' p99 against the same run's baseline (goal at most 2x).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import time

from bench.probes.clients import RawSocket
from bench.probes.cluster import Cluster, add_cluster_arguments, worker_env
from bench.probes.common import finish, well_behaved_load

CLOSE_GOAL_S = 1.0
P99_GOAL_RATIO = 2.0


class Flooder:
    """One attacker on one game: floods a socket until it is closed, then (``reconnect``) another."""

    def __init__(self, cluster: Cluster, game: dict, *, rate: float, reconnect: bool) -> None:
        self.cluster, self.game, self.rate, self.reconnect = cluster, game, rate, reconnect
        self.close_times: list[float] = []
        self.close_codes: list[int | None] = []
        self.open_for: list[float] = []  # sockets still open when the flood stopped: how long they flooded
        self.sent = 0
        self.refused = 0
        self.closed_on_arrival = 0
        self.stopping = False

    def frame(self, n: int) -> bytes:
        return json.dumps({"type": "action", "action": {"type": "play", "card": "c01", "side": "top"},
                           "action_id": f"flood-{id(self) % 100000}-{n}", "version": 2}).encode()

    async def run(self) -> None:
        path = f"/ws/api/games/{self.game['id']}/"
        headers = {"Authorization": f"Token {self.game['tokens'][0]}"}
        tick = 0.01
        while not self.stopping:
            sock = RawSocket()
            try:
                if not await sock.connect(self.cluster.nginx_port, path, headers=headers):
                    self.refused += 1
                    await asyncio.sleep(0.2)
                    continue
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                self.refused += 1
                await asyncio.sleep(0.2)
                continue
            await asyncio.sleep(0.2)  # the first view arrives; flooding starts after it
            if not sock.open:  # closed before it sent anything (a flooder's cooldown)
                self.closed_on_arrival += 1
                await sock.close()
                continue
            t_first = time.monotonic()
            due = 0.0
            try:
                while not self.stopping and sock.open:
                    due += self.rate * tick
                    while due >= 1:
                        sock.send(self.frame(self.sent))
                        self.sent += 1
                        due -= 1
                    await sock.drain()
                    await asyncio.sleep(tick)
            except (ConnectionError, OSError):
                await asyncio.sleep(0.05)
            if sock.closed_at is not None:
                self.close_times.append(sock.closed_at - t_first)
                self.close_codes.append(sock.close_code)
            else:
                self.open_for.append(time.monotonic() - t_first)
            await sock.close()
            if not self.reconnect:
                return


def _close_summary(flooders: list[Flooder], seconds: float) -> dict:
    closes = sorted(t for f in flooders for t in f.close_times)
    never = [t for f in flooders for t in f.open_for]
    codes: dict[str, int] = {}
    for f in flooders:
        for code in f.close_codes:
            codes[str(code)] = codes.get(str(code), 0) + 1
    sent = sum(f.sent for f in flooders)
    overdue = [t for t in never if t >= CLOSE_GOAL_S]
    return {"sockets_closed": len(closes), "open_at_the_end": len(never),
            "never_closed": len(overdue),  # still open at the end after flooding longer than the goal
            "never_closed_flooded_s": round(max(overdue), 1) if overdue else None,
            "close_s_p50": round(closes[len(closes) // 2], 2) if closes else None,
            "close_s_max": round(closes[-1], 2) if closes else None,
            "close_codes": codes, "frames_sent": sent, "frames_per_s": round(sent / seconds) if seconds else None,
            "refused_handshakes": sum(f.refused for f in flooders),
            "closed_on_arrival": sum(f.closed_on_arrival for f in flooders)}


async def flood(cluster: Cluster, args: argparse.Namespace) -> dict:
    attackers = cluster.create_games(args.flooders + args.single_runs)
    pools = [cluster.create_games(args.games * 2) for _ in range(2)]
    loop = asyncio.get_running_loop()

    def load(pool: list[dict], seed: int) -> dict:
        return well_behaved_load(ws_url=cluster.ws_url, http_url=cluster.http_url, pool=pool, games=args.games,
                                 rate=args.rate, duration=args.window, seed=seed)

    baseline = await loop.run_in_executor(None, load, pools[0], 7)

    singles = []
    for game in attackers[args.flooders:]:
        one = Flooder(cluster, game, rate=args.frame_rate, reconnect=False)
        task = loop.create_task(one.run())
        done, _ = await asyncio.wait([task], timeout=args.single_timeout)
        one.stopping = True
        await asyncio.wait_for(task, 10)
        singles.append(one)
    single = _close_summary(singles, sum(one.close_times[0] if one.close_times else args.single_timeout for one in singles))
    single["close_s_each"] = [round(one.close_times[0], 2) if one.close_times else None for one in singles]

    flooders = [Flooder(cluster, game, rate=args.frame_rate, reconnect=True) for game in attackers[:args.flooders]]
    under_attack_task = loop.run_in_executor(None, load, pools[1], 8)
    t0 = time.monotonic()
    flood_tasks = [loop.create_task(f.run()) for f in flooders]
    under_attack = await under_attack_task
    for f in flooders:
        f.stopping = True
    await asyncio.wait(flood_tasks, timeout=30)
    many = _close_summary(flooders, time.monotonic() - t0)
    await asyncio.sleep(1.0)

    ratio = (under_attack["p99_ms"] / baseline["p99_ms"]) if baseline["p99_ms"] and under_attack["p99_ms"] else None
    single_ok = single["never_closed"] == 0 and single["close_s_max"] is not None and single["close_s_max"] < CLOSE_GOAL_S
    many_ok = many["never_closed"] == 0 and many["close_s_max"] is not None and many["close_s_max"] < CLOSE_GOAL_S
    return {
        "frame_rate_per_flooder": args.frame_rate,
        "one_flooder": single,
        "many_flooders": {"flooders": args.flooders, **many},
        "other_games": {"baseline": baseline, "under_flood": under_attack,
                        "p99_ratio": round(ratio, 2) if ratio else None},
        "goals": {"close_s": CLOSE_GOAL_S, "p99_ratio": P99_GOAL_RATIO},
        "passed": single_ok and many_ok and ratio is not None and ratio <= P99_GOAL_RATIO,
        "log_marks": cluster.log_marks(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.flood", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--flooders", type=int, default=20)
    parser.add_argument("--frame-rate", type=float, default=1000.0, help="frames a second per flooder")
    parser.add_argument("--single-runs", type=int, default=3, help="lone flooders, one after the other")
    parser.add_argument("--single-timeout", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=20, help="well-behaved games measured")
    parser.add_argument("--rate", type=float, default=20.0, help="their actions a second, all games together")
    parser.add_argument("--window", type=float, default=30.0, help="seconds measured, with and without the flood")
    args = parser.parse_args(argv)
    with Cluster(base_port=args.base_port, database_url=args.database_url, keep_logs=args.keep_logs,
                 worker_env=worker_env(args)) as cluster:
        summary = asyncio.run(flood(cluster, args))
    summary["options"] = vars(args)
    finish("flood", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
