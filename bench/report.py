"""Print the headline table of docs/performance.md from the reference runs in bench/results/.

    python -m bench.report                 the table (Markdown) and where each row comes from
    python -m bench.report --results DIR   read the reference runs from another directory

Each row is a figure from one reference run, beside the floor measured in the same run
(the step test's floor is a run of its own: ``python -m bench.step --floor``) and the
ratio of the two. After rerunning a benchmark with ``--out bench/results/<file>``, run
this again and paste its output over the table in docs/performance.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import RESULTS
from bench.engines import table_label

ENGINES = "engines.json"
LIVE_MEMORY = "live-memory-250g.json"
LIVE_REDIS = "live-redis-2workers-250g.json"
STEP_MEMORY = "step-memory.json"
STEP_REDIS = "step-redis-2workers.json"
STEP_FLOOR = "step-floor.json"
REFERENCE_FILES = (ENGINES, LIVE_MEMORY, LIVE_REDIS, STEP_MEMORY, STEP_REDIS, STEP_FLOOR)
LIVE_MIX = "live-memory-mix.json"
EACH_TABLE = "live-memory-each-table.json"
LIVE_REDIS_4 = "live-redis-4workers.json"
LIVE_REDIS_MIX = "live-redis-2workers-mix.json"
MIX_FILES = (LIVE_MIX, LIVE_REDIS_MIX, EACH_TABLE, LIVE_REDIS_4)
"""The real site's mix, its tables one by one, and four workers: printed when present."""

COMMANDS = {
    ENGINES: "make bench-engines",
    LIVE_MEMORY: "make bench-live",
    LIVE_REDIS: "make bench-live-redis",
    STEP_MEMORY: "python -m bench.step --mode memory",
    STEP_REDIS: "python -m bench.step --mode redis --workers 2",
    STEP_FLOOR: "python -m bench.step --floor",
}


@dataclass(frozen=True)
class Table:
    """One block of the headline: a title naming its command and reference run, then rows."""

    title: str
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]

    def markdown(self) -> str:
        lines = [self.title, "", "| " + " | ".join(self.header) + " |", "|" + " --- |" * len(self.header)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)


def ratio(ours: float | None, floor: float | None) -> str:
    if ours is None or not floor:
        return "-"
    value = ours / floor
    return f"{value:.2f}x" if value < 1 else f"{value:.1f}x" if value < 10 else f"{value:,.0f}x"


def ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f} ms" if value < 10 else f"{value:,.0f} ms"


def commit_of(result: dict[str, Any]) -> str:
    """The commit the measured server (or engine) ran: ``server_app_commit``, else the checkout's."""
    if result.get("server_app_commit"):
        return str(result["server_app_commit"]).split()[0]
    commit = result["machine"].get("git_commit") or "?"
    return commit + (" with uncommitted changes" if result["machine"].get("git_dirty_app_files") else "")


def command_of(name: str, result: dict[str, Any]) -> str:
    """The command that made a live run, from its own arguments; a step test's with its steps; the make target otherwise."""
    args = result.get("args") or {}
    if name.startswith("step-") and args.get("games_list"):
        return f"{COMMANDS[name]} --games-list {args['games_list']} --refine {args.get('refine', 2)}"
    if not name.startswith("live-") or "mode" not in args:
        return COMMANDS[name]
    words = ["python -m bench.live", f"--mode {args['mode']}"]
    if args.get("workers", 1) > 1:
        words.append(f"--workers {args['workers']}")
    words.append(f"--games {args['games']} --rate {args['rate']:g} --duration {args['duration']:g}")
    if args.get("each_table"):
        words.append("--each-table")
    elif args.get("mix"):
        words.append("--mix")
    elif args.get("game_type", "snowball-fight") != "snowball-fight":
        words.append(f"--game-type {args['game_type']}")
    if args.get("socket") not in (None, "json") and not args.get("each_table") and not (
            args.get("mix") and args["socket"] == "mix"):
        words.append(f"--socket {args['socket']}")
    if args.get("warmup", 10) != 10:
        words.append(f"--warmup {args['warmup']:g}")
    if args.get("no_floor"):
        words.append("--no-floor")
    if args.get("channels_floor"):
        words.append("--channels-floor")
    return " ".join(words)


def source_of(name: str, result: dict[str, Any]) -> str:
    machine = result["machine"]
    load = machine.get("loadavg_at_start")
    return (f"`{command_of(name, result)}`; bench/results/{name}, commit {commit_of(result)}, {machine['when'][:16]}"
            + (f", load average {load[0]:g} at the start" if load else ""))


def engines_table(name: str, result: dict[str, Any]) -> Table:
    """A row a game and table: its time against the floor timed beside it, and its target; a row for its
    actions as the server works each out (p50, p99, slowest, against the action targets); then a row for
    each spotlit call (What a Snowball!'s reachable area, Snowball Fighting's resolved turn)."""
    rows = []
    for engine in sorted(result["results"], key=lambda r: (r["slug"], r.get("players", 2), r.get("teams") or 0)):
        summary = engine["summary"]
        per_game = summary["ms_per_game"]
        target = engine["target_ms_per_game"]
        floor, to_floor = summary.get("floor_ms", {}).get("median"), summary.get("game_to_floor", {}).get("median")
        rows.append((table_label(engine), "a random game", f"{per_game['median']:.2f} ms (spread {per_game['spread_pct']:.0f}%)",
                     ms(floor) if floor else "-", f"{to_floor:.1f}x" if to_floor else "-",
                     _target(target, engine) if target else "- (information)",
                     "" if engine["meets_target"] is None else "met" if engine["meets_target"] else "missed"))
        actions = engine.get("actions")
        if actions:
            act, targets = actions["action"], actions["target_ms"]
            slowest = actions["slowest"][0]["label"]
            rows.append((table_label(engine), "an action (what a player waits for): p50, p99, slowest",
                         f"{act['p50_ms']:.2f}, {act['p99_ms']:.2f}, {act['max_ms']:.2f} ms of {actions['count']:,}",
                         ms(floor) if floor else "-",
                         f"{act['p50_floors']:.2f}x, {act['p99_floors']:.2f}x, {act['max_floors']:.2f}x",
                         f"p99 {_target(targets['p99'], engine)}, slowest {_target(targets['max'], engine)}",
                         f"p99 {'met' if actions['meets']['p99'] else 'missed'}, slowest "
                         f"{'met' if actions['meets']['max'] else 'missed'} ({slowest})"))
        spot = engine.get("regions")
        if spot:
            spot_floor = summary.get("region_to_floor", {}).get("median")
            over = spot.get("over_target")
            rows.append((table_label(engine), "its spotlit call: median, 90th percentile, slowest",
                         f"{spot['p50_ms']:.2f}, {spot['p90_ms']:.2f}, {spot['max_ms']:.2f} ms of {spot['count']:,}",
                         ms(floor) if floor else "-", f"{spot_floor:.2f}x" if spot_floor else "-",
                         _target(spot["target_ms"], engine) + " (median)" if spot.get("target_ms") else "-",
                         ("met" if spot["meets_target"] else "missed")
                         + (f"; {over:,} over it" if over else "")))
    return Table(f"**Engines alone** (`{engines_command(result)}`; bench/results/{name}, commit {commit_of(result)}, "
                 f"{result['machine']['when'][:10]}, {result['machine'].get('clock', 'wall time')}, load average "
                 f"{result['machine']['loadavg_at_start'][0]:g} -> {result['machine']['loadavg_at_end'][0]:g})",
                 ("engine", "what", "time", "floor", "x floor", "target", ""), rows)


def engines_command(result: dict[str, Any]) -> str:
    """The ``bench.engines`` command line the run was made with (its arguments that differ from the defaults)."""
    args = result.get("args", {})
    words = ["python -m bench.engines"]
    words += ["--cpu"] if args.get("cpu") else []
    words += [f"--runs {args['runs']}"] if args.get("runs", 5) != 5 else []
    words += [f"--games {args['games']}"] if args.get("games") else []
    words += [f"--action-games {args['action_games']}"] if args.get("action_games", 20) != 20 else []
    return " ".join(words + ["--out bench/results/engines.json"])


def _target(target_ms: float, engine: dict[str, Any]) -> str:
    """``< 50 ms (15.6x)``: the target, and the ratio to the floor it stands for."""
    reference = engine.get("reference_floor_ms")
    return f"< {target_ms:g} ms" + (f" ({target_ms / reference:.1f}x)" if reference else "")


def live_table(name: str, result: dict[str, Any], shape: str) -> Table:
    ours, bare, channels = result["ours"], result["floor"], result["channels_floor"]
    title = f"**Live play, {shape}** ({source_of(name, result)})"
    if ours.get("generator_bound"):
        title += "; flagged DISCARD: " + "; ".join(ours.get("generator_notes", []))

    def memory(run: dict[str, Any]) -> str:
        text = f"{run['memory']['per_idle_socket_kb']:.1f} KB"
        in_redis = run["memory"].get("redis_per_idle_socket_bytes")
        return text + (f" + {in_redis / 1000:.1f} KB in Redis" if in_redis else "")

    def row(what: str, pick, show) -> tuple[str, ...]:
        value, bare_value, channels_value = pick(ours), pick(bare), pick(channels)
        return (what, show(value), show(bare_value), ratio(value, bare_value),
                show(channels_value), ratio(value, channels_value))

    rows = [
        row(f"actions/s sustained (of {ours['nominal_actions_per_s']:.0f} offered)",
            lambda r: r["sustained_actions_per_s"], lambda v: f"{v:.0f}"),
        row("p50", lambda r: r["latency_ms"]["p50"], ms),
        row("p99", lambda r: r["latency_ms"]["p99"], ms),
        ("lost / out of order", f"{ours['lost']} / {ours['out_of_order']}", f"{bare['lost']} / {bare['out_of_order']}",
         "-", f"{channels['lost']} / {channels['out_of_order']}", "-"),
        row("server CPU per action", lambda r: r["server_cpu_ms_per_action"], lambda v: f"{v:.2f} ms"),
        ("memory per idle socket", memory(ours), memory(bare),
         ratio(ours["memory"]["per_idle_socket_kb"], bare["memory"]["per_idle_socket_kb"]), memory(channels),
         ratio(ours["memory"]["per_idle_socket_kb"], channels["memory"]["per_idle_socket_kb"])),
    ]
    return Table(title, (f"{ours['games']} games, {ours['sockets']:,} sockets", "Snowball", "bare floor", "ratio",
                         "daphne + Channels floor", "ratio"), rows)


def step_table(runs: dict[str, dict[str, Any]]) -> Table:
    floor = runs[STEP_FLOOR]

    def held(run: dict[str, Any]) -> str:
        best = run["largest_held"]
        if not best:
            return "none held"
        return f"{best['games']} games, {best['rate']:,.0f} actions/s (p99 {ms(best['p99_ms'])})"

    def games(run: dict[str, Any]) -> int | None:
        return (run["largest_held"] or {}).get("games")

    rows = [(shape, held(runs[name]), ratio(games(runs[name]), games(floor)), source_of(name, runs[name]))
            for shape, name in (("one process", STEP_MEMORY), ("two workers", STEP_REDIS))]
    return Table(f"**Step test**: the largest load held with p99 under 100 ms, at 1.2 actions/s per game. "
                 f"The bare floor's own step test ({source_of(STEP_FLOOR, floor)}) held {held(floor)}.",
                 ("shape", "largest load held", "ratio to the floor's", "command; reference run"), rows)


def mix_table(name: str, result: dict[str, Any], shape: str = "one process") -> Table:
    """The real site at once: each table's moves per second and p99 to the last socket of each
    kind, then the whole run's server CPU per move and p99 beside the Channels floor's."""
    ours, channels = result["ours"], result.get("channels_floor")
    rows = []
    for table, row in ours["by_table"].items():
        for kind, lat in row["latency_by_socket_ms"].items():
            rows.append((table, kind, f"{row['actions_per_s']:.1f}", ms(lat["p50"]), ms(lat["p99"]), "", ""))
    for kind, lat in ours.get("latency_by_socket_ms", {}).items():
        rows.append(("every table", kind, f"{ours['sustained_actions_per_s']:.1f}", ms(lat["p50"]), ms(lat["p99"]),
                     "", ""))
    floor_cpu = channels["server_cpu_ms_per_action"] if channels else None
    floor_p99 = channels["latency_ms"]["p99"] if channels else None
    rows.append(("every table", "every socket", f"{ours['sustained_actions_per_s']:.1f} of "
                 f"{ours['nominal_actions_per_s']:.0f}", ms(ours["latency_ms"]["p50"]),
                 f"{ms(ours['latency_ms']['p99'])} (floor {ms(floor_p99)}, {ratio(ours['latency_ms']['p99'], floor_p99)})",
                 f"{ours['server_cpu_ms_per_action']:.2f} ms" if ours["server_cpu_ms_per_action"] else "-",
                 f"{floor_cpu:.2f} ms ({ratio(ours['server_cpu_ms_per_action'], floor_cpu)})" if floor_cpu else "-"))
    title = (f"**The real site's mix, {shape}** ({source_of(name, result)}; {ours['sockets']:,} sockets, "
             f"lost {ours['lost']}, out of order {ours['out_of_order']}; other work kept "
             f"{ours['cpu_cores'].get('everything_else', 0):.2f} of the {ours['cpu_cores'].get('cores', '?')} cores busy)")
    if ours.get("generator_bound"):
        title += "; flagged DISCARD: " + "; ".join(ours.get("generator_notes", []))
    return Table(title, ("table", "socket", "moves/s", "latency p50", "p99 to the last socket of the kind",
                         "server CPU per move", "Channels floor's CPU per move"), rows)


def each_table_table(name: str, result: dict[str, Any]) -> Table:
    """Each table alone on each kind of socket: what a move costs the server."""
    rows = []
    for row in result["tables"]:
        views = row["mean_view_bytes"]
        rows.append((row["table"], row["socket"], f"{row['sustained_actions_per_s']:.1f} of {row['nominal_actions_per_s']:g}",
                     f"{row['server_cpu_ms_per_action']:.2f} ms" if row["server_cpu_ms_per_action"] else "-",
                     ms(row["latency_ms"]["p50"]), ms(row["latency_ms"]["p99"]),
                     f"{(views.get('player') or 0) / 1000:.1f} / {(views.get('spectator') or 0) / 1000:.1f} kB",
                     f"{row['lost']} / {row['refused']}" + (" DISCARD" if row["generator_bound"] else ""),
                     f"{row['cpu_cores'].get('everything_else', 0):.2f}"))
    return Table(f"**Each table alone** ({source_of(name, result)})",
                 ("table", "socket", "moves/s", "server CPU per move", "latency p50", "latency p99",
                  "a player's / spectator's view",
                  "lost / refused", "cores busy with other work"), rows)


def optional_tables(results_dir: Path = RESULTS) -> list[Table]:
    tables = []
    if (results_dir / LIVE_MIX).exists():
        tables.append(mix_table(LIVE_MIX, json.loads((results_dir / LIVE_MIX).read_text())))
    if (results_dir / LIVE_REDIS_MIX).exists():
        tables.append(mix_table(LIVE_REDIS_MIX, json.loads((results_dir / LIVE_REDIS_MIX).read_text()), "two workers"))
    if (results_dir / EACH_TABLE).exists():
        tables.append(each_table_table(EACH_TABLE, json.loads((results_dir / EACH_TABLE).read_text())))
    if (results_dir / LIVE_REDIS_4).exists():
        tables.append(live_table(LIVE_REDIS_4, json.loads((results_dir / LIVE_REDIS_4).read_text()), "four workers"))
    return tables


def headline(results_dir: Path = RESULTS) -> list[Table]:
    """The headline tables, read from the reference runs in ``results_dir``."""
    runs = {name: json.loads((results_dir / name).read_text()) for name in REFERENCE_FILES}
    return [
        engines_table(ENGINES, runs[ENGINES]),
        live_table(LIVE_MEMORY, runs[LIVE_MEMORY], "one process"),
        live_table(LIVE_REDIS, runs[LIVE_REDIS], "two workers"),
        step_table(runs),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=Path, default=RESULTS, help="directory of the reference runs")
    args = parser.parse_args(argv)
    print("\n\n".join(table.markdown() for table in headline(args.results) + optional_tables(args.results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
