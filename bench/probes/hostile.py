"""Probe: hostile websocket frames and malformed HTTP requests, and what they do to other games.

    python -m bench.probes.hostile [--sockets 60] [--frame-rate 15] [--requests 3000] [--window 30] [--save]

Hostile sockets (half on the JSON socket with an API token, half on the page socket with a
signed-in session, each seated in a game of its own) send frames from
bench/probes/hostile_inputs.py at ``--frame-rate`` a second each (under the flood limit, so
that the frames reach the handlers); a socket the server closes connects again. Meanwhile
``--requests`` malformed HTTP requests go to every endpoint through nginx, ``--http-concurrency``
at a time. Reported: frames and requests sent, socket handler crashes ("Exception inside
application" in the workers' logs), HTTP answers 5xx (goal 0 and 0), close codes, and the
p99 of 20 well-behaved games (bench/loadgen.py) during the attack against their p99 in the
same run without it.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter

from bench.probes import hostile_inputs
from bench.probes.clients import RawSocket, raw_http
from bench.probes.cluster import Cluster, add_cluster_arguments, worker_env
from bench.probes.common import finish, well_behaved_load


class SocketAttack:
    """Hostile sockets sending frames until told to stop."""

    def __init__(self, cluster: Cluster, games: list[dict], *, sockets: int, rate: float, seed: int) -> None:
        self.cluster, self.games, self.sockets, self.rate, self.seed = cluster, games, sockets, rate, seed
        self.sent: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.refused_handshakes: Counter[str] = Counter()
        self.error_frames: Counter[str] = Counter()
        self.stopping = False

    async def run(self) -> None:
        await asyncio.gather(*(self._one(i) for i in range(self.sockets)))

    async def _one(self, index: int) -> None:
        rng = random.Random(self.seed * 7919 + index)
        game = self.games[index]
        page = index % 2 == 1
        if page:
            path = f"/ws/games/{game['id']}/"
            headers = {"Cookie": f"sessionid={game['session']}", "Origin": self.cluster.http_url}
        else:
            path = f"/ws/api/games/{game['id']}/"
            headers = {"Authorization": f"Token {game['tokens'][0]}"}
        source = hostile_inputs.frames(rng, page)
        tick = 0.2
        per_tick = max(1, round(self.rate * tick))
        while not self.stopping:
            sock = RawSocket()
            try:
                if not await sock.connect(self.cluster.nginx_port, path, headers=headers):
                    self.refused_handshakes[str(sock.status)] += 1
                    await asyncio.sleep(0.5)
                    continue
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as exc:
                self.refused_handshakes[type(exc).__name__] += 1
                await asyncio.sleep(0.5)
                continue
            try:
                while not self.stopping and sock.open:
                    for _ in range(per_tick):
                        kind, payload, opcode = next(source)
                        sock.send(payload, opcode)
                        self.sent[kind] += 1
                    await sock.drain()
                    await asyncio.sleep(tick)
            except (ConnectionError, OSError):
                pass
            await asyncio.sleep(0.05)
            if not sock.open:
                self.closes[str(sock.close_code)] += 1
                await asyncio.sleep(0.1)
            self.error_frames.update(sock.error_codes)
            await sock.close()


async def http_attack(cluster: Cluster, games: list[dict], *, requests: int, concurrency: int,
                      seed: int) -> dict:
    rng = random.Random(seed)
    game = games[0]
    invite = cluster.django("from games.models import Game; print(Game.objects.get(pk=int(sys.argv[1])).invite_code)",
                            str(game["id"])).strip()
    source = hostile_inputs.http_requests(rng, port=cluster.nginx_port, game_ids=[g["id"] for g in games[:4]],
                                          token=game["tokens"][0], session=game["session"], invite=invite)
    statuses: Counter[str] = Counter()
    five_hundreds: list[str] = []
    queue: asyncio.Queue = asyncio.Queue()
    for _ in range(requests):
        queue.put_nowait(next(source))

    async def worker() -> None:
        while not queue.empty():
            kind, request = queue.get_nowait()
            status = await raw_http(cluster.nginx_port, request)
            statuses[str(status)] += 1
            if status is not None and status >= 500 and len(five_hundreds) < 12:
                five_hundreds.append(request[:160].decode("latin-1"))

    t0 = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    answered_5xx = sum(n for s, n in statuses.items() if s != "None" and int(s) >= 500)
    return {"sent": requests, "seconds": round(time.monotonic() - t0, 1), "answers": dict(sorted(statuses.items())),
            "answered_5xx": answered_5xx, "no_answer": statuses.get("None", 0), "samples_5xx": five_hundreds}


async def attack(cluster: Cluster, args: argparse.Namespace) -> dict:
    attackers = cluster.create_games(args.sockets, sessions=True)
    pools = [cluster.create_games(args.games * 2) for _ in range(2)]
    loop = asyncio.get_running_loop()

    def load(pool: list[dict], seed: int) -> dict:
        return well_behaved_load(ws_url=cluster.ws_url, http_url=cluster.http_url, pool=pool, games=args.games,
                                 rate=args.rate, duration=args.window, seed=seed)

    baseline = await loop.run_in_executor(None, load, pools[0], 7)
    marks_before = cluster.log_marks()
    sockets = SocketAttack(cluster, attackers, sockets=args.sockets, rate=args.frame_rate, seed=args.seed)
    t0 = time.monotonic()
    socket_task = loop.create_task(sockets.run())
    under_attack_task = loop.run_in_executor(None, load, pools[1], 8)
    http = await http_attack(cluster, attackers, requests=args.requests, concurrency=args.http_concurrency,
                             seed=args.seed)
    under_attack = await under_attack_task
    sockets.stopping = True
    await asyncio.wait_for(socket_task, 30)
    attack_s = time.monotonic() - t0
    await asyncio.sleep(1.0)
    marks = cluster.log_marks()
    crashes = marks["socket_handler_crashes"] - marks_before["socket_handler_crashes"]
    frames_sent = sum(sockets.sent.values())
    ratio = (under_attack["p99_ms"] / baseline["p99_ms"]) if baseline["p99_ms"] and under_attack["p99_ms"] else None
    return {
        "frames": {"sent": frames_sent, "per_s": round(frames_sent / attack_s), "by_kind": dict(sockets.sent),
                   "sockets": args.sockets, "closes_by_code": dict(sockets.closes),
                   "refused_handshakes": dict(sockets.refused_handshakes),
                   "error_frames_by_code": dict(sockets.error_frames)},
        "socket_handler_crashes": crashes,
        "http": http,
        "http_500_logged": marks["http_500_logged"] - marks_before["http_500_logged"],
        "crash_samples": cluster.crash_samples(),
        "other_games": {"baseline": baseline, "under_attack": under_attack,
                        "p99_ratio": round(ratio, 2) if ratio else None},
        "passed": crashes == 0 and http["answered_5xx"] == 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.probes.hostile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_cluster_arguments(parser)
    parser.add_argument("--sockets", type=int, default=60, help="hostile sockets (half JSON, half page)")
    parser.add_argument("--frame-rate", type=float, default=15.0, help="frames a second per hostile socket")
    parser.add_argument("--requests", type=int, default=3000, help="malformed HTTP requests")
    parser.add_argument("--http-concurrency", type=int, default=6)
    parser.add_argument("--games", type=int, default=20, help="well-behaved games measured")
    parser.add_argument("--rate", type=float, default=20.0, help="their actions a second, all games together")
    parser.add_argument("--window", type=float, default=30.0, help="seconds measured, with and without the attack")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with Cluster(base_port=args.base_port, database_url=args.database_url, keep_logs=args.keep_logs,
                 worker_env=worker_env(args)) as cluster:
        summary = asyncio.run(attack(cluster, args))
    summary["options"] = vars(args)
    finish("hostile", summary, save=args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
