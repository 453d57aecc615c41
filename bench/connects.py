"""What a socket's opening and closing cost the server, against the Channels floor's.

    python -m bench.connects [--games 150] [--rounds 3] [--app-dir DIR] [--save]

When a game ends, its players and spectators close their sockets and open new ones on their
next game; in the live benchmark 250 games end within a minute of each other, and what the
sockets' openings cost then is load on top of the moves. This measures it alone, on an idle
server in one process (``make run``'s shape): for ``--games`` started two-player Snowball
Fight games (bench.setup_games), the 2 players (API tokens) and 2 spectators of each game
connect one after another, each waiting for its first view, as the live benchmark's do; then
every socket closes.
The server's CPU (its process, read with psutil) over the openings and over the closings,
divided by the sockets, is set beside the same count of sockets opened and closed on the
Channels floor (bench.channels_floor: daphne and Channels, no database, no game), run by
turns with it ``--rounds`` times; the medians are reported with their ratio.

``--save`` writes the result to bench/results/connects.json (the reference run's file).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psutil

from bench.loadgen import Sock, socket_request
from bench.servers import REPO, FloorServer, Site

RESULTS = REPO / "bench" / "results"
ROLES = ("p0", "p1", "s0", "s1")


async def _open_and_close(base: str, games: list[dict[str, Any]], pid: int) -> tuple[float, float]:
    """Server CPU seconds over opening every game's sockets (each up to its first frame), then
    over closing them all."""
    import websockets

    process = psutil.Process(pid)

    def cpu() -> float:
        times = process.cpu_times()
        return times.user + times.system

    async def one(game: dict[str, Any], role: str):
        url, headers, origin = socket_request(base, game, Sock(role, "json"))
        ws = await websockets.connect(url, additional_headers=headers, origin=origin, compression=None,
                                      ping_interval=None, max_size=2**22)
        await ws.recv()
        return ws

    before = cpu()
    opened = [[await one(game, role) for role in ROLES] for game in games]
    after_opening = cpu()
    for sockets in opened:
        await asyncio.gather(*(ws.close() for ws in sockets))
    await asyncio.sleep(1.0)  # the server's side of the closings finishes after the client's
    return after_opening - before, cpu() - after_opening


def _round(kind: str, games: int, app_dir: Path) -> tuple[float, float]:
    """One round on a fresh server: CPU milliseconds a socket to open, and to close."""
    sockets = games * len(ROLES)
    if kind == "snowball":
        site = Site(mode="memory", workers=1, extra_env={}, app_dir=app_dir)
        try:
            site.prepare()
            made = site.create_games(games + 1, "snowball-fight")
            site.start()
            base = f"ws://127.0.0.1:{site.ports[0]}"
            asyncio.run(_open_and_close(base, made[:1], site.pids()[0]))  # warm: the first socket's imports
            opening, closing = asyncio.run(_open_and_close(base, made[1:], site.pids()[0]))
        finally:
            site.cleanup()
    else:
        floor = FloorServer(kind="channels", game_lengths=[10_000])
        try:
            floor.start()
            base = f"ws://127.0.0.1:{floor.ports[0]}"
            made = [{"id": i + 1, "shape": "snowball-fight", "tokens": ["floor", "floor"]} for i in range(games + 1)]
            asyncio.run(_open_and_close(base, made[:1], floor.pids()[0]))
            opening, closing = asyncio.run(_open_and_close(base, made[1:], floor.pids()[0]))
        finally:
            floor.cleanup()
    return 1e3 * opening / sockets, 1e3 * closing / sockets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.connects", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=150, help="games a round, 4 sockets each (default 150)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each server, by turns (default 3)")
    parser.add_argument("--app-dir", default=None, help="serve Snowball from this copy of the repository")
    parser.add_argument("--save", action="store_true", help="write bench/results/connects.json")
    args = parser.parse_args(argv)
    app_dir = Path(args.app_dir).resolve() if args.app_dir else REPO
    load_before = list(psutil.getloadavg())
    runs: dict[str, list[tuple[float, float]]] = {"snowball": [], "floor": []}
    for n in range(args.rounds):
        for kind in ("snowball", "floor"):
            runs[kind].append(_round(kind, args.games, app_dir))
            opening, closing = runs[kind][-1]
            print(f"round {n + 1} {kind:8}: open {opening:.2f} ms, close {closing:.2f} ms of server CPU a socket",
                  flush=True)
    result: dict[str, Any] = {"games": args.games, "sockets_a_round": args.games * len(ROLES), "rounds": args.rounds,
                              "app_dir": str(app_dir), "load_average": [load_before, list(psutil.getloadavg())],
                              "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    for kind, rounds in runs.items():
        result[kind] = {"open_ms": statistics.median(r[0] for r in rounds),
                        "close_ms": statistics.median(r[1] for r in rounds),
                        "rounds": [{"open_ms": round(o, 3), "close_ms": round(c, 3)} for o, c in rounds]}
    ours, floor = result["snowball"], result["floor"]
    result["ratio"] = {"open": ours["open_ms"] / floor["open_ms"], "close": ours["close_ms"] / floor["close_ms"]}
    print(f"median: opening {ours['open_ms']:.2f} ms against the floor's {floor['open_ms']:.2f} "
          f"({result['ratio']['open']:.1f}x); closing {ours['close_ms']:.2f} against {floor['close_ms']:.2f} ms "
          f"({result['ratio']['close']:.1f}x)")
    if args.save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "connects.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
