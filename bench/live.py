"""Live play under load, over loopback, against a real server; then the floor, same load shape.

    python -m bench.live --mode memory --games 250 --rate 300 --duration 60
    python -m bench.live --mode redis  --games 250 --rate 300 --duration 60 [--workers 2]
    python -m bench.live --mode memory --games 100 --rate 120 --duration 30 --profile py-spy

One run:

1. a fresh database (SQLite file; or PostgreSQL ``snowball_bench`` plus a flushed Redis
   database in redis mode), migrated; ``--games`` started games plus a pool of spares
   (bench.setup_games: two guest users with API tokens per game);
2. the server started as ``make run`` (memory) or docker compose (redis) start it
   (bench.servers), with ``DJANGO_DEBUG=0``;
3. the load generator (bench.loadgen, ``--procs`` processes) connects 2 players and 2
   spectators per game to the JSON websocket and waits for every first view; the server's
   resident memory is measured before and after (``memory per idle socket``);
4. ``--warmup`` seconds of load, then ``--duration`` seconds measured: latency from send to
   the moment the last viewer of the game has the new version (p50, p99, max, HdrHistogram),
   actions per second offered and sustained, lost and out-of-order messages, CPU of the
   server, Redis, PostgreSQL, the generator and everything else on the machine (psutil);
5. a drain: late deliveries are awaited until none arrived for ``--drain`` seconds (at most
   300 s); what is still missing then is lost;
6. unless ``--no-floor``: the same again against bench.floor (a bare ``websockets``
   broadcast server), with its views padded to the sizes the real server sent and games
   ending after as many actions as the real ones did; our figures as ratios to it.

A run is flagged ``DISCARD`` when the generator may have been the bottleneck: a generator
process above 90% of a core, or slots firing more than 20 ms (p99) behind their schedule --
unless the machine was at least 90% busy with the server using three times the generator's
CPU: then the late slots are the saturated server starving the generator, and a note says so.

``--profile py-spy`` records the (first) server process during the measured window with
``py-spy record --nonblocking --format raw`` and prints where the time goes; profiled runs
are slower and are for finding hot spots, not for figures.
"""
from __future__ import annotations

import argparse
import asyncio
import math
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import REPO, RESULTS, fmt, machine, write_result
from bench.loadgen import Config, LoadGenerator

GENERATOR_CPU_LIMIT = 0.90
GENERATOR_LAG_P99_MS = 20.0
TARGETS = {"p99_ms": 50.0, "floor_ratio": 3.0, "idle_socket_kb": 100.0}


def run_kind(args: argparse.Namespace) -> str:
    """The result file's name without .json: ``live-redis-2workers-250g``, ``live-memory-250g-snowball-fighting``,
    ``live-memory-250g-jingle-bells-page``, ``live-memory-250g-mix``."""
    workers = f"-{args.workers}workers" if getattr(args, "workers", 1) > 1 else ""
    if getattr(args, "each_table", False):
        game = "-each-table"
    elif getattr(args, "mix", False):
        game = "-mix" + (f"-{args.socket}" if args.socket != "mix" else "")
    else:
        game = f"-{args.game_type}" if getattr(args, "game_type", "snowball-fight") != "snowball-fight" else ""
        game += f"-{args.socket}" if getattr(args, "socket", "json") != "json" else ""
    return f"live-{args.mode}{workers}-{args.games}g{game}"


def slot_tables(args: argparse.Namespace, games: int) -> list[str]:
    """The table of each of ``games`` slots: the mix's tables dealt in turn, or ``--game-type`` for every one."""
    from bench.tables import MIX

    if getattr(args, "mix", False):
        return [MIX[i % len(MIX)] for i in range(games)]
    return [getattr(args, "game_type", "snowball-fight")] * games


def make_pool(site, args: argparse.Namespace, games: int, rate: float) -> list[dict[str, Any]]:
    """The run's games: one per slot (in slot order), then the spares, every table's interleaved."""
    tables = slot_tables(args, games)
    spare_total = (args.pool - games) if args.pool else pool_size(games, rate, args.warmup + args.duration) - games
    names = sorted(set(tables), key=tables.index)
    made: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        share = tables.count(name)
        spares = max(2, math.ceil(spare_total * share / games))
        made[name] = site.create_games(share + spares, name, aged=share, age_up_to=args.age_up_to)
    pool = [made[name].pop(0) for name in tables]
    while any(made.values()):
        pool += [made[name].pop(0) for name in names if made[name]]
    return pool


def add_load_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=250, help="games at once, 4 sockets each (default 250)")
    parser.add_argument("--rate", type=float, default=300.0, help="actions per second over all games (default 300)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds (default 60)")
    parser.add_argument("--age-up-to", type=int, default=0, metavar="K",
                        help="start the run's games at different ages, as a real site's are: each first played "
                             "forward a random 0 to K-1 moves (its spares start new; default 0: all start together)")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of load before measuring (default 10)")
    parser.add_argument("--drain", type=float, default=15.0,
                        help="after the load stops, wait for late deliveries until none arrived for this long (default 15 s)")
    parser.add_argument("--procs", type=int, default=2, help="load generator processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="JSON result file (default bench/results/...)")


# ---------------------------------------------------------------------- measuring processes


class CpuMeter:
    """CPU seconds of named groups of process trees, and of the whole machine, over a window.

    A group is a list of root pids; each counts with every descendant, including those that
    start or exit during the window (PostgreSQL forks a backend per connection: their time
    is found in the postmaster's reaped-children times or in the live backends).
    """

    def __init__(self, groups: dict[str, list[int]]):
        import psutil

        self.psutil = psutil
        self.groups = groups
        self.start: dict[str, dict[int, float]] = {}
        self.sys0 = None
        self.t0 = 0.0

    def _tree(self, roots: list[int]) -> dict[int, tuple[float, float]]:
        """CPU seconds (all, in the kernel) of each process under ``roots``."""
        ps = self.psutil
        out: dict[int, tuple[float, float]] = {}
        for root in roots:
            try:
                proc = ps.Process(root)
                t = proc.cpu_times()
                out[root] = (t.user + t.system + t.children_user + t.children_system, t.system + t.children_system)
                for child in proc.children(recursive=True):
                    try:
                        c = child.cpu_times()
                        out[child.pid] = (c.user + c.system, c.system)
                    except (ps.NoSuchProcess, ps.AccessDenied):
                        pass
            except (ps.NoSuchProcess, ps.AccessDenied):
                pass
        return out

    def begin(self) -> None:
        self.t0 = time.monotonic()
        self.sys0 = self.psutil.cpu_times()
        self.start = {name: self._tree(pids) for name, pids in self.groups.items()}

    def end(self) -> dict[str, Any]:
        wall = time.monotonic() - self.t0
        sys1 = self.psutil.cpu_times()
        busy = lambda t: t.user + t.nice + t.system + t.irq + t.softirq + getattr(t, "steal", 0)  # noqa: E731
        total_busy = busy(sys1) - busy(self.sys0)
        out: dict[str, Any] = {"wall_seconds": wall}
        accounted = 0.0
        for name, pids in self.groups.items():
            before = self.start.get(name, {})
            after = self._tree(pids)
            used = sum(c - before.get(pid, (0.0, 0.0))[0] for pid, (c, _) in after.items())
            in_kernel = sum(k - before.get(pid, (0.0, 0.0))[1] for pid, (_, k) in after.items())
            out[name] = used / wall
            out[f"{name}_in_kernel"] = in_kernel / wall
            accounted += used
        out["machine_busy_cores"] = total_busy / wall
        out["everything_else"] = max(0.0, (total_busy - accounted) / wall)
        out["cores"] = os.cpu_count()
        return out


def postgres_pids() -> list[int]:
    """The postmaster(s): the roots of PostgreSQL's process trees."""
    import psutil

    roots = []
    for p in psutil.process_iter(["name", "ppid"]):
        if p.info["name"] in ("postgres", "postmaster"):
            try:
                if psutil.Process(p.info["ppid"]).name() not in ("postgres", "postmaster"):
                    roots.append(p.pid)
            except psutil.NoSuchProcess:
                pass
    return roots


def rss(pids: list[int]) -> int:
    import psutil

    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


async def _touch(url: str) -> None:
    """One spectator connects, gets its view and leaves: imports and caches warm before measuring."""
    import websockets

    async with websockets.connect(url, compression=None, open_timeout=60) as ws:
        await asyncio.wait_for(ws.recv(), 60)


# ---------------------------------------------------------------------- profiling


def start_profiler(kind: str, pid: int, seconds: float, path: Path, rate: int = 100) -> subprocess.Popen | None:
    """py-spy on the server, ``rate`` samples a second: every thread's samples, without stopping
    the process (``py-spy``: wall time, waits in system calls included), or only the thread
    holding the interpreter's lock at each sample (``py-spy-gil``: where the process's Python CPU
    goes). The second stops the process for each sample: without that, py-spy's stacks of the
    lock's holder came back cut short, most of them without their outer frames."""
    if not kind.startswith("py-spy"):
        return None
    spy = Path(sys.executable).with_name("py-spy")
    cmd = [str(spy), "record", "--pid", str(pid), "--duration", str(int(math.ceil(seconds))), "--rate", str(rate),
           *(["--gil"] if kind == "py-spy-gil" else ["--nonblocking"]), "--format", "raw", "--output", str(path)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


AREAS = (  # (prefix of a frame's file, area), first match wins; checked from the leaf up
    ("games/engines/", "engine (games/engines)"),
    ("games/", "our code (games/)"),
    ("django/db/", "Django ORM and database driver"),
    ("sqlite3/", "Django ORM and database driver"),
    ("psycopg", "Django ORM and database driver"),
    ("django/template", "Django templates"),
    ("django/", "Django, other"),
    ("channels_redis/", "channels_redis"),
    ("redis/", "redis-py (coordinator)"),
    ("msgpack", "channels_redis"),
    ("channels/layers.py", "Channels in-memory layer"),
    ("channels/", "Channels (consumers, routing, auth)"),
    ("asgiref/", "asgiref sync/async bridges"),
    ("concurrent/futures/", "asgiref sync/async bridges"),
    ("threading.py", "asgiref sync/async bridges"),
    ("autobahn/", "daphne/twisted/autobahn websocket I/O"),
    ("twisted/", "daphne/twisted/autobahn websocket I/O"),
    ("daphne/", "daphne/twisted/autobahn websocket I/O"),
    ("json/", "json"),
    ("selectors.py", "event loop waiting (epoll)"),
    ("asyncio/", "asyncio event loop"),
)


def _frame(f: str) -> tuple[str, str]:
    """'func (path:line)' -> (func, path)."""
    if " (" not in f:
        return f, ""
    func, _, rest = f.partition(" (")
    return func, rest.rsplit(":", 1)[0]


def summarise_profile(path: Path, top: int = 25) -> dict[str, Any]:
    """From py-spy's collapsed stacks: where the server's samples were.

    ``entry``: the outermost frame of our code (games/) in the sample, or the area of
    the sample when our code is not on the stack; ``area``: the area of the innermost
    frame (the ORM, Channels, daphne's websocket I/O, our own code, ...); ``self``: the
    innermost frames.
    """
    entry: Counter[str] = Counter()
    area: Counter[str] = Counter()
    self_time: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        count = int(n)
        total += count
        frames = [_frame(f) for f in stack.split(";")]
        leaf_area = "other"
        for func, file in reversed(frames):
            hit = next((a for prefix, a in AREAS if file.startswith(prefix) or f"/{prefix}" in file), None)
            if hit:
                leaf_area = hit
                break
        area[leaf_area] += count
        ours = next((f"{func} ({file})" for func, file in frames if file.startswith("games/")), None)
        entry[ours or f"[{leaf_area}]"] += count
        func, file = frames[-1]
        self_time[f"{func} ({file})"] += count
    pct = lambda c: round(100.0 * c / total, 1) if total else 0.0  # noqa: E731
    return {
        "samples": total,
        "area_pct": [(name, pct(c)) for name, c in area.most_common()],
        "entry_pct": [(name, pct(c)) for name, c in entry.most_common(top)],
        "self_pct": [(name, pct(c)) for name, c in self_time.most_common(top)],
    }


# ---------------------------------------------------------------------- one run


def _measure(target: str, server_pids: list[int], cfg: Config, pool: list[dict[str, Any]], *,
             redis_url: str | None, warm_url: str, profile: str = "none", profile_rate: int = 100,
             database_url: str | None = None) -> dict[str, Any]:
    from bench.servers import per_action, postgres_counters, redis_command_calls, redis_pid, redis_used_memory

    asyncio.run(_touch(warm_url))
    time.sleep(1.0)
    base_rss = rss(server_pids)
    base_redis = redis_used_memory(redis_url) if redis_url else None
    gen = LoadGenerator(cfg, pool)
    connected = gen.connect()
    time.sleep(3.0)  # let the connections settle before reading memory
    idle_rss = rss(server_pids)
    idle_redis = redis_used_memory(redis_url) if redis_url else None
    sockets = connected["sockets"]
    groups = {"server": server_pids, "generator": gen.pids()}
    if redis_url:
        rp = redis_pid(redis_url)
        groups["redis"] = [rp] if rp else []
        groups["postgres"] = postgres_pids()
    meter = CpuMeter(groups)
    t_start = gen.go()
    time.sleep(max(0.0, t_start + cfg.warmup - time.monotonic()))
    meter.begin()
    window_start = time.time()
    redis_calls_before = redis_command_calls(redis_url) if redis_url else None
    postgres_before = postgres_counters(database_url) if database_url else None
    profiler = None
    profile_path = None
    if profile != "none" and server_pids:
        RESULTS.mkdir(parents=True, exist_ok=True)
        profile_path = RESULTS / f"profile-{target}.txt"
        profiler = start_profiler(profile, server_pids[0], cfg.duration, profile_path, rate=profile_rate)
    load_start = os.getloadavg()
    time.sleep(max(0.0, t_start + cfg.warmup + cfg.duration - time.monotonic()))
    cpu = meter.end()
    window_end = time.time()
    redis_calls_after = redis_command_calls(redis_url) if redis_url else None
    postgres_after = postgres_counters(database_url) if database_url else None
    peak_rss = rss(server_pids)
    result = gen.results()
    result.update({
        "target": target,
        "games": cfg.games,
        "sockets": sockets,
        "connect_seconds": connected["seconds"],
        "memory": {
            "server_rss_before_mb": base_rss / 2**20,
            "server_rss_idle_connected_mb": idle_rss / 2**20,
            "server_rss_end_mb": peak_rss / 2**20,
            "per_idle_socket_kb": (idle_rss - base_rss) / sockets / 1024 if sockets else None,
            "redis_per_idle_socket_bytes": ((idle_redis - base_redis) / sockets
                                            if idle_redis is not None and base_redis is not None else None),
        },
        "cpu_cores": cpu,
        "loadavg_during": [round(x, 2) for x in load_start],
        "measured_window_epoch": [window_start, window_end],
    })
    sustained = result["sustained_actions_per_s"]
    result["server_cpu_ms_per_action"] = 1000.0 * cpu["server"] / sustained if sustained else None
    actions = sustained * (window_end - window_start)
    if redis_calls_before is not None and actions:
        result["redis_commands_per_action"] = per_action(redis_calls_before, redis_calls_after, actions)
    if postgres_before is not None and actions:
        result["postgres_per_action"] = per_action(postgres_before, postgres_after, actions)
    gen_max = max((w["cpu_core_fraction"] or 0) for w in result["workers"])
    lag_p99 = result["schedule_lag_ms"]["p99"] or 0.0
    reasons = []
    if gen_max > GENERATOR_CPU_LIMIT:
        reasons.append(f"a generator process used {gen_max:.0%} of a core")
    notes = []
    if lag_p99 > GENERATOR_LAG_P99_MS:
        machine_busy, cores = cpu.get("machine_busy_cores") or 0.0, cpu.get("cores") or 1
        if not reasons and machine_busy >= 0.9 * cores and cpu["server"] >= 3 * cpu["generator"]:
            # the server is saturating the machine; the generator's slots are late because it
            # gets no CPU, and the server could not have served them on time anyway
            notes.append(f"slots fired {lag_p99:.0f} ms (p99) behind schedule with the machine "
                         f"{machine_busy:.2f} of {cores} cores busy, the server using {cpu['server']:.2f}: "
                         "contention from a saturated server, not a slow generator")
        else:
            reasons.append(f"slots fired {lag_p99:.0f} ms (p99) behind schedule")
    result["generator_bound"] = bool(reasons)
    result["generator_notes"] = reasons + notes
    if profiler is not None:
        _, err = profiler.communicate(timeout=cfg.duration + 120)
        if profile_path and profile_path.exists():
            result["profile"] = {"file": str(profile_path), **summarise_profile(profile_path)}
        else:
            result["profile"] = {"error": err.decode()[-2000:]}
    return result


def pool_size(games: int, rate: float, seconds: float, min_actions_per_game: int = 60) -> int:
    """Spare games for the slots whose games end during the run."""
    return games + int(rate * seconds / min_actions_per_game) + games // 10 + 10


def run_site(args: argparse.Namespace, *, mode: str, games: int, rate: float) -> dict[str, Any]:
    from bench.servers import Site

    extra_env = dict(item.split("=", 1) for item in getattr(args, "server_env", []) or [])
    if getattr(args, "socket_rate", None):
        extra_env["SNOWBALL_SOCKET_RATE"] = str(args.socket_rate)
        extra_env["SNOWBALL_SOCKET_BURST"] = str(max(20, int(args.socket_rate * 2)))
    app_dir = Path(args.app_dir).resolve() if getattr(args, "app_dir", None) else REPO
    site = Site(mode=mode, workers=getattr(args, "workers", 1), extra_env=extra_env, app_dir=app_dir,
                database_url=getattr(args, "database_url", None) or Site.database_url,
                redis_url=getattr(args, "redis_url", None) or Site.redis_url)
    pause_log = RESULTS / f"pauses-{mode}.jsonl"
    if getattr(args, "pauses", False):
        RESULTS.mkdir(parents=True, exist_ok=True)
        site.extra_env["SNOWBALL_PAUSE_LOG"] = str(pause_log)
    try:
        t0 = time.monotonic()
        site.prepare()
        pool = make_pool(site, args, games, rate)
        total = len(pool)
        setup_s = time.monotonic() - t0
        site.start()
        cfg = Config(ws_urls=[f"ws://127.0.0.1:{p}" for p in site.ports], http_url=f"http://127.0.0.1:{site.ports[0]}",
                     games=games, rate=rate, warmup=args.warmup, duration=args.duration, drain=args.drain,
                     seed=args.seed, procs=args.procs, game_type=args.game_type,
                     routing=getattr(args, "routing", "game"), socket=getattr(args, "socket", "json"))
        warm = f"ws://127.0.0.1:{site.ports[0]}/ws/api/games/{pool[-1]['id']}/"
        result = _measure(mode, site.pids(), cfg, pool, redis_url=site.redis_url if mode == "redis" else None,
                          warm_url=warm, profile=getattr(args, "profile", "none"),
                          profile_rate=getattr(args, "profile_rate", 100),
                          database_url=site.database_url if mode == "redis" else None)
        if getattr(args, "pauses", False):
            from snowball_site.pauses import summarise

            since, until = result["measured_window_epoch"]
            result["pauses"] = {"file": str(pause_log), **summarise(str(pause_log), since=since, until=until)}
        result.update({"mode": mode, "server_workers": len(site.ports), "routing": cfg.routing, "setup_seconds": setup_s,
                       "app_dir": str(app_dir),
                       "pool_games": total, "server_log_tail": site.log_tail(15)})
        return result
    finally:
        site.cleanup()


def run_floor(args: argparse.Namespace, *, games: int | None = None, rate: float | None = None,
              pad_player: int, pad_spectator: int, game_lengths: list[int], kind: str = "bare") -> dict[str, Any]:
    from bench.servers import FloorServer

    games = games or args.games
    rate = rate or args.rate
    floor = FloorServer(kind=kind, pad_player=pad_player, pad_spectator=pad_spectator, game_lengths=game_lengths)
    try:
        floor.start()
        url = f"ws://127.0.0.1:{floor.ports[0]}"
        from bench.tables import SHAPES

        pool = [{"id": i + 1, "shape": table, "tokens": ["floor"] * SHAPES[table].seats}
                for i, table in enumerate(slot_tables(args, games))]
        cfg = Config(ws_urls=[url], http_url=None, games=games, rate=rate, warmup=args.warmup,
                     duration=args.duration, drain=args.drain, seed=args.seed, procs=args.procs, floor=True,
                     game_type=getattr(args, "game_type", "snowball-fight"))
        result = _measure(f"floor-{kind}", floor.pids(), cfg, pool, redis_url=None, warm_url=f"{url}/ws/api/games/0/",
                          profile=getattr(args, "profile", "none"), profile_rate=getattr(args, "profile_rate", 100))
        result.update({"mode": "floor" if kind == "bare" else f"floor-{kind}", "pad_bytes": {"player": pad_player, "spectator": pad_spectator},
                       "game_lengths": game_lengths})
        return result
    finally:
        floor.cleanup()


# ---------------------------------------------------------------------- report


def ratios(ours: dict[str, Any], floor: dict[str, Any]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for key in ("p50", "p99", "max"):
        a, b = ours["latency_ms"][key], floor["latency_ms"][key]
        out[f"latency_{key}"] = a / b if a is not None and b else None
    a, b = ours["memory"]["per_idle_socket_kb"], floor["memory"]["per_idle_socket_kb"]
    out["memory_per_socket"] = a / b if a is not None and b else None
    a, b = ours["cpu_cores"]["server"], floor["cpu_cores"]["server"]
    out["server_cpu"] = a / b if b else None
    a, b = ours["sustained_actions_per_s"], floor["sustained_actions_per_s"]
    out["sustained_actions"] = a / b if b else None
    return out


def print_run(label: str, r: dict[str, Any]) -> None:
    lat = r["latency_ms"]
    cpu = r["cpu_cores"]
    mem = r["memory"]
    print(f"== {label}: {r['games']} games, {r['sockets']} sockets, connected in {r['connect_seconds']:.1f} s")
    print(f"   actions/s nominal {r['nominal_actions_per_s']:.0f}, offered {r['offered_actions_per_s']:.1f}, "
          f"sustained {r['sustained_actions_per_s']:.1f} ({r['served_fraction']:.0%} of the slots with something to do)")
    print(f"   send -> last viewer (ms): p50 {fmt(lat['p50'], 2)}  p90 {fmt(lat['p90'], 2)}  p99 {fmt(lat['p99'], 2)}"
          f"  max {fmt(lat['max'], 2)}  (n={lat['count']})")
    by_socket = r.get("latency_by_socket_ms") or {}
    if len(by_socket) > 1 or r.get("socket", "json") != "json":
        print("   to the last socket of each kind (ms): " + "; ".join(
            f"{kind}: p50 {fmt(h['p50'], 2)}  p99 {fmt(h['p99'], 2)}  (n={h['count']})" for kind, h in by_socket.items()))
    tables = r.get("by_table") or {}
    if len(tables) > 1 or len(by_socket) > 1:
        for name, t in tables.items():
            kinds = ", ".join(f"{kind} p99 {fmt(h['p99'], 1)}" for kind, h in t["latency_by_socket_ms"].items())
            print(f"      {name:20} {t['actions_per_s']:6.1f} actions/s, p50 {fmt(t['latency_ms']['p50'], 1)}, "
                  f"p99 {fmt(t['latency_ms']['p99'], 1)} ms ({kinds}); refused {t['refused']}, "
                  f"finished {t['finished_games']}")
    print(f"   lost {r['lost']} (drained {r['drain_seconds']:.1f} s after the load), out of order {r['out_of_order']}, refused {r['count'].get('refused', 0)} "
          f"{r['errors'] or ''}, skipped slots {r['skipped_slots'] or 0}")
    print(f"   games finished {r['finished_games']} (mean {fmt(r['mean_actions_per_finished_game'], 0)} actions), "
          f"view bytes {({k: round(v) for k, v in r['mean_view_bytes'].items() if v})}")
    redis_mem = mem.get("redis_per_idle_socket_bytes")
    print(f"   memory per idle socket: server {fmt(mem['per_idle_socket_kb'], 1)} KB"
          f"{'' if redis_mem is None else f', redis {redis_mem:,.0f} B'} "
          f"(server RSS {mem['server_rss_before_mb']:.0f} -> {mem['server_rss_idle_connected_mb']:.0f} -> "
          f"{mem['server_rss_end_mb']:.0f} MB)")
    parts = [f"{k} {cpu[k] * 100:.0f}%" for k in ("server", "redis", "postgres", "generator", "everything_else")
             if k in cpu]
    kernel = cpu.get("server_in_kernel")
    in_kernel = f" ({kernel / cpu['server'] * 100:.0f}% in the kernel)" if kernel is not None and cpu["server"] else ""
    print(f"   server CPU per action {fmt(r.get('server_cpu_ms_per_action'), 2)} ms{in_kernel}; "
          f"CPU (% of one core): {', '.join(parts)}; machine busy {cpu['machine_busy_cores']:.2f} of "
          f"{cpu['cores']} cores; load avg {r['loadavg_during']}")
    if "redis_commands_per_action" in r:
        calls = r["redis_commands_per_action"]
        print("   Redis commands per action, scripts' inner calls counted too: "
              + ", ".join(f"{name} {n:.2f}" for name, n in calls.items() if n >= 0.01))
    if "postgres_per_action" in r:
        print(f"   PostgreSQL per action: {', '.join(f'{k} {v:.2f}' for k, v in r['postgres_per_action'].items())}")
    workers = ", ".join(f"{(w['cpu_core_fraction'] or 0) * 100:.0f}%" for w in r["workers"])
    print(f"   generator: {len(r['workers'])} process(es) at {workers} of a core; schedule lag p99 "
          f"{fmt(r['schedule_lag_ms']['p99'], 2)} ms, max {fmt(r['schedule_lag_ms']['max'], 1)} ms -> "
          f"{'DISCARD: ' + '; '.join(r['generator_notes']) if r['generator_bound'] else 'valid'}"
          f"{'' if r['generator_bound'] or not r['generator_notes'] else ' (' + '; '.join(r['generator_notes']) + ')'}")
    if "pauses" in r:
        rows = [f"{name} {row['count']}x, max {row['max_ms']:.0f} ms, {row['total_ms']:.0f} ms in all"
                for name, row in sorted(r["pauses"].items()) if name != "file"]
        print(f"   pauses in the measured window: {'; '.join(rows) or 'none logged'} ({r['pauses']['file']})")
    if "profile" in r:
        p = r["profile"]
        if "error" in p:
            print(f"   profile failed: {p['error']}")
        else:
            print(f"   profile ({p['samples']} samples, {p['file']}); by area (innermost frame):")
            for name, pct in p["area_pct"][:14]:
                print(f"      {pct:5.1f}%  {name}")
            print("   by entry point (outermost frame of games/, else the area):")
            for name, pct in p["entry_pct"][:18]:
                print(f"      {pct:5.1f}%  {name}")
            print("   self time:")
            for name, pct in p["self_pct"][:10]:
                print(f"      {pct:5.1f}%  {name}")


def verdict(ours: dict[str, Any], floor: dict[str, Any] | None, rate: float) -> dict[str, Any]:
    lat = ours["latency_ms"]
    out = {
        "p99_under_50ms": lat["p99"] is not None and lat["p99"] < TARGETS["p99_ms"],
        "sustained_rate": ours["sustained_actions_per_s"] >= 0.98 * rate and ours["served_fraction"] >= 0.95,
        "no_loss_no_reorder": ours["lost"] == 0 and ours["out_of_order"] == 0,
        "idle_socket_under_100kb": (ours["memory"]["per_idle_socket_kb"] or 0) < TARGETS["idle_socket_kb"],
    }
    if floor is not None and floor["latency_ms"]["p99"]:
        out["p99_at_most_3x_floor"] = lat["p99"] is not None and lat["p99"] <= TARGETS["floor_ratio"] * floor["latency_ms"]["p99"]
    return out


def table_row(table: str, socket: str, run: dict[str, Any]) -> dict[str, Any]:
    """One table and socket kind's run, in brief: what bench.report prints of it."""
    return {"table": table, "socket": socket, "sustained_actions_per_s": run["sustained_actions_per_s"],
            "nominal_actions_per_s": run["nominal_actions_per_s"], "served_fraction": run["served_fraction"],
            "server_cpu_ms_per_action": run["server_cpu_ms_per_action"], "latency_ms": run["latency_ms"],
            "lost": run["lost"], "out_of_order": run["out_of_order"], "refused": run["count"].get("refused", 0),
            "sockets": run["sockets"], "memory_per_idle_socket_kb": run["memory"]["per_idle_socket_kb"],
            "mean_view_bytes": run["mean_view_bytes"], "finished_games": run["finished_games"],
            "generator_bound": run["generator_bound"], "generator_notes": run["generator_notes"],
            "cpu_cores": run["cpu_cores"], "count": run["count"], "errors": run["errors"],
            "skipped_slots": run["skipped_slots"]}


def run_each_table(args: argparse.Namespace, info: dict[str, Any]) -> int:
    """Every table of the mix alone, on each kind of socket, one short run after another: what a
    move of each costs the server (a mix run cannot tell its tables' CPU apart)."""
    from bench.tables import MIX

    rows = []
    for table in MIX:
        for socket in ("json", "page"):
            one = argparse.Namespace(**{**vars(args), "game_type": table, "socket": socket, "mix": False})
            run = run_site(one, mode=args.mode, games=args.games, rate=args.rate)
            rows.append(table_row(table, socket, run))
            lat = run["latency_ms"]
            print(f"{table:20} {socket:5} {run['sustained_actions_per_s']:6.1f} of {args.rate:g} actions/s, "
                  f"server CPU {fmt(run['server_cpu_ms_per_action'], 2)} ms a move, p50 {fmt(lat['p50'], 1)} "
                  f"p99 {fmt(lat['p99'], 1)} ms, lost {run['lost']}, refused {run['count'].get('refused', 0)}, "
                  f"{run['sockets']} sockets, views {({k: round(v) for k, v in run['mean_view_bytes'].items() if v})} B"
                  + (" DISCARD" if run["generator_bound"] else ""), flush=True)
    info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    path = write_result(run_kind(args), {"machine": info, "args": vars(args), "tables": rows}, args.out)
    print(f"load average {info['loadavg_at_start']} -> {info['loadavg_at_end']}; written to {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("memory", "redis"), default="memory")
    add_load_arguments(parser)
    parser.add_argument("--workers", type=int, default=1, help="daphne workers in redis mode (default 1)")
    parser.add_argument("--routing", choices=["game", "spread"], default="game",
                        help="with several workers: all sockets of a game on one worker, by game id, as "
                             "docker/nginx routes them (game, default), or each game's sockets dealt over "
                             "the workers (spread)")
    parser.add_argument("--no-floor", action="store_true", help="skip the floor run")
    parser.add_argument("--channels-floor", action="store_true",
                        help="also run the same fan-out on daphne and Channels with no game (bench.channels_floor)")
    parser.add_argument("--profile", choices=("none", "py-spy", "py-spy-gil"), default="none",
                        help="profile the server (and each floor run beside it) with py-spy over the measured window")
    parser.add_argument("--profile-rate", type=int, default=100, help="py-spy's samples a second (default 100)")
    parser.add_argument("--pauses", action="store_true",
                        help="log the server's collector pauses and event-loop stalls (snowball_site/pauses.py) "
                             "and report those in the measured window")
    parser.add_argument("--pool", type=int, default=0, help="games to create (default: enough for the run)")
    parser.add_argument("--game-type", default="snowball-fight",
                        help="the table every game is (bench.tables.SHAPES): snowball-fight (two players, the "
                             "default), snowball-fight-6, snowball-fight-3v3, jingle-bells, snowball-fighting "
                             "(six players), what-a-snowball (twelve Kids in four teams)")
    parser.add_argument("--mix", action="store_true",
                        help="the real site: every table of bench.tables.MIX at once, dealt to the games in turn, "
                             "both kinds of socket (unless --socket says one)")
    parser.add_argument("--each-table", action="store_true",
                        help="run every table of the mix alone, on each kind of socket in turn (no floor): "
                             "each one's server CPU per move, in one result file")
    parser.add_argument("--socket", choices=("json", "page", "mix"), default=None,
                        help="the sockets' kind: the JSON API's (json, the default), the game page's, which sends "
                             "rendered HTML (page), or both in every game (mix, the default with --mix)")
    parser.add_argument("--socket-rate", type=float, default=0.0,
                        help="SNOWBALL_SOCKET_RATE for the server (default: the site's own)")
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL for redis mode (db name snowball_bench*)")
    parser.add_argument("--redis-url", default=None, help="Redis URL for redis mode (default redis://127.0.0.1:6379/8)")
    parser.add_argument("--app-dir", default=None,
                        help="run the server from this copy of the project (to measure a change before making it)")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an extra environment variable for the server (repeatable)")
    args = parser.parse_args(argv)
    if args.socket is None:
        args.socket = "mix" if args.mix else "json"
    from bench.tables import shape

    shape(args.game_type)

    info = machine()
    if args.each_table:
        return run_each_table(args, info)
    ours = run_site(args, mode=args.mode, games=args.games, rate=args.rate)
    print_run(f"snowball ({args.mode})", ours)
    floor = None
    if not args.no_floor:
        vb = ours["mean_view_bytes"]
        floor = run_floor(args, pad_player=int(vb.get("player") or 2600), pad_spectator=int(vb.get("spectator") or 2200),
                          game_lengths=ours["game_lengths"])
        print_run("floor (bare websockets)", floor)
    channels_floor = None
    if args.channels_floor:
        vb = ours["mean_view_bytes"]
        channels_floor = run_floor(args, pad_player=int(vb.get("player") or 2600),
                                   pad_spectator=int(vb.get("spectator") or 2200),
                                   game_lengths=ours["game_lengths"], kind="channels")
        print_run("floor on daphne + Channels (no game)", channels_floor)
    data: dict[str, Any] = {"machine": info, "args": vars(args), "ours": ours, "floor": floor,
                            "channels_floor": channels_floor}
    if channels_floor is not None:
        data["ratio_to_channels_floor"] = ratios(ours, channels_floor)
    if floor is not None:
        data["ratio_to_floor"] = ratios(ours, floor)
        r = data["ratio_to_floor"]
        print(f"== ratio to the floor: latency p50 x{fmt(r['latency_p50'], 1)}, p99 x{fmt(r['latency_p99'], 1)}, "
              f"max x{fmt(r['latency_max'], 1)}; memory per socket x{fmt(r['memory_per_socket'], 1)}; "
              f"server CPU x{fmt(r['server_cpu'], 1)}; sustained actions x{fmt(r['sustained_actions'], 2)}")
    data["targets"] = verdict(ours, floor, args.rate)
    info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print("== targets:", ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in data["targets"].items()))
    path = write_result(run_kind(args), data, args.out)
    print(f"load average {info['loadavg_at_start']} -> {info['loadavg_at_end']}; written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
