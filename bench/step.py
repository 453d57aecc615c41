"""Step test: raise the number of games until p99 passes the threshold; report the largest load held.

    python -m bench.step --mode memory
    python -m bench.step --mode redis --games-list 5,10,20,40,80 --duration 30
    python -m bench.step --mode memory --floor          # the floor's own step test, same steps

Each step is a full bench.live run (fresh database and server, the same load shape) with
``games`` games at ``--per-game-rate`` actions per second each (default 1.2, the target's
300 actions/s over 250 games). Steps go up geometrically from ``--start`` by ``--factor``
(or follow ``--games-list``) until a step fails: p99 above ``--threshold-ms`` (default 100),
any lost or out-of-order message, or fewer than 95% of the slots where a player had something
to do ending in an acknowledged action (players waiting for the server skip their slots). Then
``--refine`` bisection steps between the last step held and the first failed. Steps where
the generator was the bottleneck are reported and do not count as held.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from bench.common import fmt, machine, write_result
from bench.live import add_load_arguments, print_run, run_floor, run_site


def held(result: dict[str, Any], threshold_ms: float, rate: float) -> tuple[bool, str]:
    p99 = result["latency_ms"]["p99"]
    if result["generator_bound"]:
        return False, "generator-bound: " + "; ".join(result["generator_notes"])
    if p99 is None:
        return False, "no latency measured"
    if p99 > threshold_ms:
        return False, f"p99 {p99:.1f} ms > {threshold_ms:.0f} ms"
    if result["lost"] or result["out_of_order"]:
        return False, f"lost {result['lost']}, out of order {result['out_of_order']}"
    if result["served_fraction"] < 0.95:
        return False, (f"only {result['served_fraction']:.0%} of the slots with something to do were served "
                       f"(sustained {result['sustained_actions_per_s']:.1f} of {rate:.1f} actions/s)")
    return True, f"p99 {p99:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.step", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("memory", "redis"), default="memory")
    parser.add_argument("--floor", action="store_true", help="step the bare websockets floor instead")
    add_load_arguments(parser)
    parser.set_defaults(duration=30.0, warmup=5.0, drain=10.0)
    parser.add_argument("--per-game-rate", type=float, default=1.2, help="actions/s per game (default 1.2)")
    parser.add_argument("--start", type=int, default=5, help="games in the first step (default 5)")
    parser.add_argument("--factor", type=float, default=2.0, help="growth per step (default 2)")
    parser.add_argument("--max-games", type=int, default=2000)
    parser.add_argument("--games-list", default="", help="explicit steps, e.g. 10,20,40,80")
    parser.add_argument("--refine", type=int, default=2, help="bisection steps after the first failure")
    parser.add_argument("--threshold-ms", type=float, default=100.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pool", type=int, default=0)
    parser.add_argument("--game-type", default="snowball-fight")
    parser.add_argument("--socket-rate", type=float, default=0.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--app-dir", default=None)
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    args.profile = "none"

    def run(games: int) -> dict[str, Any]:
        rate = games * args.per_game_rate
        if args.floor:
            return run_floor(args, games=games, rate=rate, pad_player=9000, pad_spectator=4000, game_lengths=[])
        return run_site(args, mode=args.mode, games=games, rate=rate)

    if args.games_list:
        plan = [int(x) for x in args.games_list.split(",") if x.strip()]
    else:
        plan, g = [], float(args.start)
        while g <= args.max_games:
            plan.append(int(round(g)))
            g *= args.factor
    info = machine()
    label = "floor" if args.floor else args.mode + (f"-{args.workers}workers" if getattr(args, "workers", 1) > 1 else "")
    steps: list[dict[str, Any]] = []
    best: dict[str, Any] | None = None
    first_fail: int | None = None

    def do(games: int) -> bool:
        nonlocal best
        rate = games * args.per_game_rate
        result = run(games)
        ok, why = held(result, args.threshold_ms, rate)
        print_run(f"step {label}: {games} games at {rate:.0f} actions/s", result)
        print(f"   -> {'HELD' if ok else 'NOT HELD'} ({why})", flush=True)
        result.pop("server_log_tail", None)
        steps.append({"games": games, "rate": rate, "held": ok, "why": why, "result": result})
        if ok and (best is None or games > best["games"]):
            best = {"games": games, "rate": rate, "p99_ms": result["latency_ms"]["p99"],
                    "p50_ms": result["latency_ms"]["p50"], "sustained": result["sustained_actions_per_s"]}
        return ok

    for games in plan:
        if not do(games):
            first_fail = games
            break
    if first_fail is not None:
        low = best["games"] if best else 0
        high = first_fail
        for _ in range(args.refine):
            mid = (low + high) // 2
            if mid <= low or mid >= high:
                break
            if do(mid):
                low = mid
            else:
                high = mid
    info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print("== step test", label, "threshold p99", args.threshold_ms, "ms")
    for s in sorted(steps, key=lambda s: s["games"]):
        r = s["result"]
        print(f"   {s['games']:>5} games {s['rate']:>7.1f}/s: p50 {fmt(r['latency_ms']['p50'], 1)} ms, "
              f"p99 {fmt(r['latency_ms']['p99'], 1)} ms, sustained {r['sustained_actions_per_s']:.1f}/s, "
              f"server CPU {r['cpu_cores']['server'] * 100:.0f}% -> {'held' if s['held'] else 'not held'} ({s['why']})")
    if best:
        print(f"== largest load held: {best['games']} games ({best['games'] * 4} sockets), "
              f"{best['rate']:.0f} actions/s, p99 {best['p99_ms']:.1f} ms")
    else:
        print("== no step held")
    path = write_result(f"step-{label}", {"machine": info, "args": vars(args), "steps": steps, "largest_held": best},
                        args.out)
    print(f"load average {info['loadavg_at_start']} -> {info['loadavg_at_end']}; written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
