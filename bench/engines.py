"""Engines alone: full random games, legal actions chosen with a seeded generator.

    python -m bench.engines                       every registered ruleset
    python -m bench.engines --discover            also unregistered packages under games/engines/
    python -m bench.engines --module games.engines.jingle_bells   a ruleset by module path (its RULESET)
    python -m bench.engines --slug snowball-fight --games 500 --runs 7
    python -m bench.engines --slug snowball-fight --players 6              six seats, each for themselves
    python -m bench.engines --slug snowball-fight --players 6 --teams 2    three against three

For each ruleset, ``--runs`` runs of ``--games`` games each (seeds fixed, so every run
plays the same games). A game starts with ``new_game`` and loops: ``to_act``; one of the
asked seats chosen by the generator; ``legal_actions`` for it; one action chosen by the
generator; ``apply``; until ``outcome`` is not None. Reported per run, then as the median
and spread (min, max) over the runs:

- games per second and milliseconds per game, counting the engine's calls only
  (``to_act``, ``legal_actions``, ``apply``, ``outcome``); the chooser's time is given apart;
- microseconds per ``apply`` (mean), and per-apply p50/p99 over every run;
- actions per game;
- what a player waits for: ``--action-games`` of each run's games (default 20) are played again as
  the server plays a move (``play_served``): after each ``apply``, ``outcome``, ``to_act``,
  ``legal_actions`` for every asked seat and ``view`` for every seat and one spectator. Each
  action's time (that bundle, and ``apply`` alone) is given as p50, p99 and the slowest, in ms and
  in floors (the action over the floor timed beside it), with the slowest actions named.

``--players`` seats every game at that many seats (default: each game's smallest table, or its
``SETUPS`` entry, and Snowball Fight also at six seats and three against three:
``EXTRA_TABLES``); ``--teams k`` splits them into k teams, seat i on team i mod k.

Targets: every action of every game and table under 5 ms at the 99th percentile and the
slowest under 25 ms (``ACTION_TARGET_MS``); a two-player Snowball Fight game in under 2 ms, any
other game (six-player Snowball Fight included) in under 20 ms, but What a Snowball!, whose
whole game is given as information only (a player waits for one action, not for a game);
What a Snowball!'s reachable area under 5 ms at the median (the report gives the 90th
percentile, the slowest and how many took longer). They are times on a machine whose floor
(below) takes ``REFERENCE_FLOOR_MS``, 3.2 ms, and are judged as ratios to the floor: a figure
meets a target of T ms when it is under T / 3.2 floors.

Most games start with ``min_players`` and default options; a game listed in ``SETUPS`` starts
as that entry says (What a Snowball!: twelve seats of one Kid in four teams, special players,
ability cards and the village drawn from the seed; Snowball Fighting: six players, every
optional rule on). Some calls are also reported on their own (``SPOTLIGHT``): What a
Snowball!'s ``legal_actions`` while a seat chooses where to MOVE (the reachable area), and
Snowball Fighting's ``apply`` that resolves a turn (its target: under 2 ms for six players).

The floor: every run also times a fixed piece of Python and shapely work (``floor_task``),
and for the slow games (``SLOW_GAMES``) again just before each game; figures are given
beside it as ratios (a game's time over the floor measured next to it, the median of the
games), so runs on a busy or slower machine compare. ``--cpu`` times everything with the
process's CPU clock instead of the wall clock.

Choosing an action: ``rng.choice(legal_actions)``. Where an engine lists a region
instead of concrete actions (continuous moves), a chooser for that slug turns the
description into a concrete action (Jingle Bells: its own ``bot.random_action``).
If a chosen action is refused, the chooser tries again (counted as ``refused``), and
after 5 refusals the prompt's default is played.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import random
import sys
import time
from typing import Any, Callable

from bench.common import fmt, machine, median_spread, write_result
from snowball_site.tuning import tune_the_interpreter

TARGET_MS = {("snowball-fight", 2): 2.0}
DEFAULT_TARGET_MS = 20.0
NO_GAME_TARGET = {"what-a-snowball"}
"""Games whose whole game has no target (its time is given as information): a player waits for one
action, not for a game of a hundred Kids' turns."""
REGION_TARGET_MS = {"what-a-snowball": 5.0, "snowball-fighting": 2.0}
ACTION_TARGET_MS = {"p99": 5.0, "max": 25.0}
"""What a player waits for after sending an action: the server's engine work for it (``play_served``),
at the 99th percentile and the slowest, for every game and table."""
REFERENCE_FLOOR_MS = 3.2
"""``floor_task``'s time on the machine the targets were set on (its six-player and three-against-three
Snowball Fight runs, on an idle host, read 3.1-3.2 ms): a figure meets its target of T ms when its ratio to the floor
measured beside it is under T / 3.2, however fast the machine running the bench is."""
FLOOR_REPEATS = 15
CLOCK = [time.perf_counter_ns]
"""The bench's clock: wall time, or the process's CPU time with ``--cpu``."""
SLOW_GAMES = {"what-a-snowball": (20, 2)}
"""Games per run and warm-up games where the usual 200 and 20 would take minutes."""
MAX_STEPS = 20_000
EXTRA_TABLES = (("snowball-fight", 6, 0), ("snowball-fight", 6, 2))
"""Tables played besides each game's own, when no ``--players`` is given: six players each for
themselves, and three against three."""

Chooser = Callable[[Any, dict, int, list, random.Random], dict]


def _uniform(ruleset, state, seat, legal, rng):
    return rng.choice(legal)


def _jingle_bells(ruleset, state, seat, legal, rng):
    from games.engines.jingle_bells import bot

    return bot.random_action(legal, state["pieces"], state["obstructions"], rng, forward=0.5)


def _what_a_snowball(ruleset, state, seat, legal, rng):
    from games.engines.what_a_snowball import bot

    kids = {k: {"id": k, "team": kid["team"], "pos": kid["pos"], "radius": kid["radius"], "home": kid["home"]}
            for k, kid in state["kids"].items()}
    return bot.random_action({"legal_actions": legal, "kids": kids, "village": {"terrain": state["terrain"]}}, rng)


def _snowball_fighting(ruleset, state, seat, legal, rng):
    from games.engines.snowball_fighting import bot

    if state["phase"] == "setup":
        return dict(legal[0]["example"])
    return bot.random_orders(state, seat, rng)


CHOOSERS: dict[str, Chooser] = {"jingle-bells": _jingle_bells, "what-a-snowball": _what_a_snowball,
                                "snowball-fighting": _snowball_fighting}


def _what_a_snowball_table(seed: int) -> dict[str, Any]:
    """Twelve seats of one Kid each in four teams, any type, optional rules on (bench.tables)."""
    from bench.tables import what_a_snowball_options

    return {"players": 12, "teams": [seat // 3 for seat in range(12)],
            "options": what_a_snowball_options(12, random.Random(seed))}


def _snowball_fighting_table(seed: int) -> dict[str, Any]:
    """Six players, every optional rule on."""
    return {"players": 6, "options": {"rule12": True, "rule13": True, "rule14": True}}


SETUPS: dict[str, Callable[[int], dict[str, Any]]] = {"what-a-snowball": _what_a_snowball_table,
                                                      "snowball-fighting": _snowball_fighting_table}


def _moving(state: dict) -> bool:
    pending = state.get("pending")
    return isinstance(pending, dict) and pending.get("kind") == "move_to"


REGIONS: dict[str, Callable[[dict], bool]] = {"what-a-snowball": _moving}


def _resolved(events: list) -> bool:
    return any(e.get("type") == "report" for e in events)


RESOLVING: dict[str, Callable[[list], bool]] = {"snowball-fighting": _resolved}
"""Slugs whose ``apply`` calls that resolve a turn (the events say so) are reported apart."""
SPOTLIGHT = {"what-a-snowball": "a MOVE's reachable area (legal_actions)",
             "snowball-fighting": "a turn resolved (the last seat's apply)"}


def floor_task() -> None:
    """A fixed piece of work in the engines' usual mix: Python loops, a heap, numpy, shapely."""
    import heapq
    import math

    import shapely

    rng = random.Random(7)
    points = [(rng.uniform(0, 24), rng.uniform(0, 24)) for _ in range(60)]
    queue = [(math.hypot(x - 12, y - 12), (x, y)) for x, y in points for _ in range(20)]
    heapq.heapify(queue)
    while queue:
        heapq.heappop(queue)
    discs = shapely.buffer(shapely.points(points), 1.5, quad_segs=16)
    shapely.union_all(discs).difference(shapely.box(6, 6, 18, 18))


def measure_floor(repeats: int = FLOOR_REPEATS) -> float:
    """Milliseconds for one ``floor_task`` on the bench's clock (the median of ``repeats``)."""
    floor_task()
    times = []
    for _ in range(repeats):
        t0 = CLOCK[0]()
        floor_task()
        times.append(CLOCK[0]() - t0)
    return sorted(times)[len(times) // 2] / 1e6


def load_rulesets(slugs: list[str], modules: list[str], discover: bool) -> list[Any]:
    from games import engines

    found: dict[str, Any] = {r.slug: r for r in engines.all_rulesets()}
    if discover:
        import games.engines as pkg

        for info in pkgutil.iter_modules(pkg.__path__):
            if info.ispkg:
                modules.append(f"games.engines.{info.name}")
    for path in modules:
        module = importlib.import_module(path)
        ruleset = getattr(module, "RULESET", None)
        if ruleset is None:
            print(f"note: {path} has no RULESET; skipped", file=sys.stderr)
            continue
        found.setdefault(ruleset.slug, ruleset)
    registered = {r.slug for r in engines.all_rulesets()}
    chosen = [found[s] for s in sorted(found) if not slugs or s in slugs]
    missing = set(slugs) - set(found)
    if missing:
        raise SystemExit(f"unknown slug(s) {', '.join(sorted(missing))}; known: {', '.join(sorted(found))}")
    for r in chosen:
        r._bench_registered = r.slug in registered  # type: ignore[attr-defined]
    return chosen


def play_one(ruleset, seed: int, rng: random.Random, chooser: Chooser, apply_ns: list[int],
             region_ns: list[int] | None = None, players: int | None = None, teams: int = 0) -> dict[str, int]:
    """Play one random game; return the time spent in engine calls and in the chooser (ns).

    ``players``/``teams`` seat the table so (seat i on team i mod ``teams``) instead of the
    game's ``SETUPS`` entry or its smallest table."""
    perf = CLOCK[0]
    setup = table_setup(ruleset, seed, players, teams)
    is_region = REGIONS.get(ruleset.slug)
    is_resolving = RESOLVING.get(ruleset.slug)
    t0 = perf()
    state = ruleset.new_game(seed=seed, **setup)
    engine_ns = perf() - t0
    choose_ns = 0
    steps = refused = defaults = 0
    to_act, legal_actions, apply, outcome = ruleset.to_act, ruleset.legal_actions, ruleset.apply, ruleset.outcome
    while steps < MAX_STEPS:
        t0 = perf()
        if outcome(state) is not None:
            engine_ns += perf() - t0
            break
        asked = to_act(state)
        seats = sorted(asked)
        t1 = perf()
        engine_ns += t1 - t0
        seat = rng.choice(seats) if len(seats) > 1 else seats[0]
        t0 = perf()
        legal = legal_actions(state, seat)
        t1 = perf()
        engine_ns += t1 - t0
        if region_ns is not None and is_region is not None and is_region(state):
            region_ns.append(t1 - t0)
        for attempt in range(6):
            t0 = perf()
            action = chooser(ruleset, state, seat, legal, rng) if attempt < 5 else asked[seat].default
            t1 = perf()
            choose_ns += t1 - t0
            try:
                new_state, _events = apply(state, seat, action)
            except Exception as exc:  # GameError, or a chooser's bad guess
                t2 = perf()
                engine_ns += t2 - t1
                if attempt == 5:
                    raise RuntimeError(f"{ruleset.slug} seed {seed}: even the default was refused: {exc}") from exc
                refused += 1
                continue
            t2 = perf()
            engine_ns += t2 - t1
            apply_ns.append(t2 - t1)
            if region_ns is not None and is_resolving is not None and is_resolving(_events):
                region_ns.append(t2 - t1)
            defaults += attempt == 5
            state = new_state
            break
        steps += 1
    return {"engine_ns": engine_ns, "choose_ns": choose_ns, "steps": steps, "refused": refused,
            "defaults": defaults, "finished": int(outcome(state) is not None)}


def table_setup(ruleset, seed: int, players: int | None = None, teams: int = 0) -> dict[str, Any]:
    """``new_game``'s table: ``players``/``teams`` (seat i on team i mod ``teams``), else the game's
    ``SETUPS`` entry, else its smallest table with default options."""
    if players:
        setup: dict[str, Any] = {"players": players, "options": {}}
        if teams:
            setup["teams"] = [seat % teams for seat in range(players)]
        return setup
    return SETUPS[ruleset.slug](seed) if ruleset.slug in SETUPS else {"players": ruleset.min_players, "options": {}}


def action_label(action: dict) -> str:
    """An action's type, and ``+slide`` for a Penguin's slide: what the slowest actions are listed by."""
    return str(action.get("type")) + ("+slide" if action.get("slide") else "")


def play_served(ruleset, seed: int, rng: random.Random, chooser: Chooser, actions: list[tuple[int, int, str]],
                players: int | None = None, teams: int = 0) -> None:
    """Play one random game as the server plays it, timing each action as a player waits for it.

    After every ``apply`` the server works out ``outcome``, ``to_act``, ``legal_actions`` for every
    asked seat (each asked seat's prompt is remembered with a digest of them) and ``view`` for every
    viewer (each seat, and one for all spectators): that bundle, ``apply`` included, is one action's
    time. Appends ``(bundle ns, apply ns, label)`` to ``actions`` (the label: the action's type and its
    number in the game, ``move #57``); the game is the one ``play_one``
    plays for the same seed and generator when the chooser draws the same numbers."""
    perf = CLOCK[0]
    setup = table_setup(ruleset, seed, players, teams)
    viewers = [*range(setup["players"]), None]
    to_act, legal_actions, apply, outcome, view = (ruleset.to_act, ruleset.legal_actions, ruleset.apply,
                                                  ruleset.outcome, ruleset.view)
    state = ruleset.new_game(seed=seed, **setup)

    def after(state: dict) -> tuple[dict, dict]:
        if outcome(state) is not None:
            asked, legal = {}, {}
        else:
            asked = to_act(state)
            legal = {seat: legal_actions(state, seat) for seat in sorted(asked)}
        for viewer in viewers:
            view(state, viewer)
        return asked, legal

    asked, legal = after(state)
    first = len(actions)
    for _ in range(MAX_STEPS):
        if not asked:
            break
        seats = sorted(asked)
        seat = rng.choice(seats) if len(seats) > 1 else seats[0]
        for attempt in range(6):
            action = chooser(ruleset, state, seat, legal[seat], rng) if attempt < 5 else asked[seat].default
            t0 = perf()
            try:
                new_state, _events = apply(state, seat, action)
            except Exception as exc:  # GameError, or a chooser's bad guess
                if attempt == 5:
                    raise RuntimeError(f"{ruleset.slug} seed {seed}: even the default was refused: {exc}") from exc
                continue
            t1 = perf()
            asked, legal = after(new_state)
            t2 = perf()
            actions.append((t2 - t0, t1 - t0, f"{action_label(action)} #{len(actions) - first}"))
            state = new_state
            break


def _percentile(ordered: list[float], pct: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * pct / 100))]


def action_figures(actions: list[tuple[int, int, str, float, int]]) -> dict[str, Any]:
    """p50, p99 and the slowest of the actions' times (the bundle, and ``apply`` alone), in ms and in
    floors (each action over the floor timed beside it), judged against ``ACTION_TARGET_MS``; and the
    slowest actions by name. ``actions``: (bundle ns, apply ns, label, floor ms, game seed)."""
    out: dict[str, Any] = {"count": len(actions), "target_ms": dict(ACTION_TARGET_MS),
                           "target_floors": {k: v / REFERENCE_FLOOR_MS for k, v in ACTION_TARGET_MS.items()}}
    for name, index in (("action", 0), ("apply", 1)):
        ms = sorted(a[index] / 1e6 for a in actions)
        floors = sorted(a[index] / 1e6 / a[3] for a in actions)
        out[name] = {"p50_ms": _percentile(ms, 50), "p99_ms": _percentile(ms, 99), "max_ms": ms[-1],
                     "mean_ms": sum(ms) / len(ms), "p50_floors": _percentile(floors, 50),
                     "p99_floors": _percentile(floors, 99), "max_floors": floors[-1]}
    figures = out["action"]
    out["meets"] = {"p99": figures["p99_floors"] < out["target_floors"]["p99"],
                    "max": figures["max_floors"] < out["target_floors"]["max"]}
    out["over_p99_target"] = sum(a[0] / 1e6 / a[3] >= out["target_floors"]["p99"] for a in actions)
    slowest = sorted(actions, key=lambda a: a[0] / a[3], reverse=True)[:8]
    out["slowest"] = [{"label": a[2], "ms": a[0] / 1e6, "apply_ms": a[1] / 1e6, "floors": a[0] / 1e6 / a[3],
                       "seed": a[4]} for a in slowest]
    by_label: dict[str, list[float]] = {}
    for a in actions:
        by_label.setdefault(a[2].split(" #")[0], []).append(a[0] / 1e6 / a[3])
    out["by_label_max_floors"] = {label: max(v) for label, v in sorted(by_label.items())}
    return out


def bench_ruleset(ruleset, *, games: int, runs: int, seed: int, warmup: int, players: int | None = None,
                  teams: int = 0, action_games: int = 20) -> dict[str, Any]:
    from hdrh.histogram import HdrHistogram

    chooser = CHOOSERS.get(ruleset.slug, _uniform)
    seats = players or (SETUPS[ruleset.slug](seed)["players"] if ruleset.slug in SETUPS else ruleset.min_players)
    for i in range(warmup):
        play_one(ruleset, seed - 1 - i, random.Random(-1 - i), chooser, [], None, players, teams)
    per_run = []
    apply_hist = HdrHistogram(1, 10_000_000_000, 3)  # ns
    game_hist = HdrHistogram(1, 100_000_000_000, 3)  # ns per game, engine calls only
    totals = {"refused": 0, "defaults": 0, "unfinished": 0}
    region_all: list[int] = []
    actions_all: list[tuple[int, int, str, float, int]] = []
    slow = ruleset.slug in SLOW_GAMES
    for run in range(runs):
        floor_ms = measure_floor()
        apply_ns: list[int] = []
        region_ns: list[int] = []
        engine_ns = choose_ns = steps = 0
        game_ratios: list[float] = []
        wall0 = time.perf_counter()
        for g in range(games):
            near_floor = measure_floor(3) if slow else floor_ms
            r = play_one(ruleset, seed + g, random.Random(seed * 7919 + g), chooser, apply_ns, region_ns, players,
                         teams)
            game_ratios.append(r["engine_ns"] / 1e6 / near_floor)
            engine_ns += r["engine_ns"]
            choose_ns += r["choose_ns"]
            steps += r["steps"]
            game_hist.record_value(max(1, r["engine_ns"]))
            if run == 0:
                totals["refused"] += r["refused"]
                totals["defaults"] += r["defaults"]
                totals["unfinished"] += 1 - r["finished"]
        wall = time.perf_counter() - wall0
        for g in range(min(games, action_games)):
            near_floor = measure_floor(3) if slow else floor_ms
            served: list[tuple[int, int, str]] = []
            play_served(ruleset, seed + g, random.Random(seed * 7919 + g), chooser, served, players, teams)
            actions_all += [(*a, near_floor, seed + g) for a in served]
        for ns in apply_ns:
            apply_hist.record_value(max(1, ns))
        region_all += region_ns
        per_run.append({
            "games_per_s": games / (engine_ns / 1e9),
            "ms_per_game": engine_ns / 1e6 / games,
            "floor_ms": floor_ms,
            "game_to_floor": sorted(game_ratios)[len(game_ratios) // 2] if slow else engine_ns / 1e6 / games / floor_ms,
            "us_per_apply": sum(apply_ns) / 1e3 / len(apply_ns),
            "chooser_ms_per_game": choose_ns / 1e6 / games,
            "wall_games_per_s": games / wall,
            "applies_per_game": steps / games,
        })
        if region_ns:
            ordered = sorted(region_ns)
            per_run[-1]["region_ms_p50"] = ordered[len(ordered) // 2] / 1e6
            per_run[-1]["region_to_floor"] = per_run[-1]["region_ms_p50"] / floor_ms
    target = (None if ruleset.slug in NO_GAME_TARGET
              else TARGET_MS.get((ruleset.slug, seats), TARGET_MS.get(ruleset.slug, DEFAULT_TARGET_MS)))
    summary = {key: median_spread([r[key] for r in per_run]) for key in per_run[0]}
    regions = None
    if region_all:
        ordered = sorted(region_all)
        region_target = REGION_TARGET_MS.get(ruleset.slug)
        # the target in ms on this run's machine: scaled by its floor against the reference floor
        region_here_ns = region_target / REFERENCE_FLOOR_MS * summary["floor_ms"]["median"] * 1e6 if region_target else 0
        regions = {"count": len(ordered), "p50_ms": ordered[len(ordered) // 2] / 1e6,
                   "p90_ms": ordered[int(len(ordered) * 0.9)] / 1e6, "max_ms": ordered[-1] / 1e6,
                   "mean_ms": sum(ordered) / len(ordered) / 1e6, "target_ms": region_target,
                   "over_target": sum(ns >= region_here_ns for ns in ordered) if region_target else 0,
                   "meets_target": region_target is None
                   or summary["region_to_floor"]["median"] < region_target / REFERENCE_FLOOR_MS}
    return {
        "slug": ruleset.slug,
        "players": seats,
        "teams": teams,
        "name": ruleset.name,
        "registered": getattr(ruleset, "_bench_registered", True),
        "chooser": "rng.choice(legal_actions)" if chooser is _uniform else f"{chooser.__name__} (region -> concrete action)",
        "games_per_run": games,
        "action_games_per_run": min(games, action_games),
        "runs": runs,
        "per_run": per_run,
        "summary": summary,
        "apply_us": {"p50": apply_hist.get_value_at_percentile(50) / 1e3,
                     "p99": apply_hist.get_value_at_percentile(99) / 1e3,
                     "max": apply_hist.get_max_value() / 1e3},
        "game_ms": {"p50": game_hist.get_value_at_percentile(50) / 1e6,
                    "p99": game_hist.get_value_at_percentile(99) / 1e6,
                    "max": game_hist.get_max_value() / 1e6},
        "refused_actions_run0": totals["refused"],
        "defaults_played_run0": totals["defaults"],
        "unfinished_games_run0": totals["unfinished"],
        "target_ms_per_game": target,
        "setup": "SETUPS" if ruleset.slug in SETUPS else "min_players, default options",
        "regions": regions,
        "reference_floor_ms": REFERENCE_FLOOR_MS,
        "meets_target": None if target is None else summary["game_to_floor"]["median"] < target / REFERENCE_FLOOR_MS,
        "actions": action_figures(actions_all),
    }


def table_label(result: dict[str, Any]) -> str:
    """``snowball-fight``, ``snowball-fight@6``, ``snowball-fight@6/2t``: the game and its table."""
    players, teams = result.get("players", 2), result.get("teams")
    return result["slug"] + (f"@{players}" if players != 2 else "") + (f"/{teams}t" if teams else "")


def _verdict(met: bool | None) -> str:
    return "-" if met is None else "OK" if met else "SHORT"


def print_report(results: list[dict[str, Any]]) -> None:
    head = (f"{'game':<20} {'games/s':>14} {'ms/game':>16} {'target':>7} {'us/apply':>16} "
            f"{'apply p50/p99':>14} {'applies/game':>12} {'chooser ms':>10}")
    print(head)
    print("-" * len(head))
    for r in results:
        s = r["summary"]
        gps, ms, us = s["games_per_s"], s["ms_per_game"], s["us_per_apply"]
        print(f"{table_label(r):<20} {fmt(gps['median'], 0):>7} ±{gps['spread_pct']:4.1f}% "
              f"{ms['median']:>8.3f} ±{ms['spread_pct']:4.1f}% "
              f"{('<' + fmt(r['target_ms_per_game'], 0)) if r['target_ms_per_game'] else '-':>7} "
              f"{us['median']:>8.1f} ±{us['spread_pct']:4.1f}% "
              f"{r['apply_us']['p50']:>6.1f}/{r['apply_us']['p99']:<7.1f} {s['applies_per_game']['median']:>12.1f} "
              f"{s['chooser_ms_per_game']['median']:>10.3f}"
              f"  {_verdict(r['meets_target'])}{'' if r['registered'] else ' (not registered)'}")
    print("(median over runs; ± is the spread max-min as a % of the median; engine calls only)")
    print()
    print(f"{'game':<20} {'floor ms':>9} {'ms/game':>9} {'x floor':>9} {'spot p50 ms':>12} {'x floor':>9} "
          f"{'spot p90 ms':>12} {'spot max ms':>12} {'spots':>7}")
    for r in results:
        s = r["summary"]
        line = (f"{table_label(r):<20} {s['floor_ms']['median']:>9.3f} {s['ms_per_game']['median']:>9.3f} "
                f"{s['game_to_floor']['median']:>9.2f}")
        if r["regions"]:
            g = r["regions"]
            line += (f" {s['region_ms_p50']['median']:>12.3f} {s['region_to_floor']['median']:>9.2f} "
                     f"{g['p90_ms']:>12.3f} {g['max_ms']:>12.3f} {g['count']:>7}  "
                     f"{'OK' if g['meets_target'] else 'SHORT'} (median <{g['target_ms']:g} ms; "
                     f"{g['over_target']} over it): {SPOTLIGHT[r['slug']]}")
        print(line)
    print("(floor: the fixed floor_task in ms, median per run; x floor: the figure over the floor measured beside it; "
          "spot: the calls named on the line, timed apart)")
    print(f"(a target of T ms holds when x floor is under T / {REFERENCE_FLOOR_MS:g}, the floor on the machine the "
          "targets were set on; the count over it scales T by this run's floor)")
    print()
    p99_target, max_target = ACTION_TARGET_MS["p99"], ACTION_TARGET_MS["max"]
    print(f"{'game':<20} {'actions':>8} {'action p50/p99/max ms':>22} {'x floor p50/p99/max':>20} "
          f"{'apply p50/p99/max ms':>21} {'x floor':>17}  targets p99 <{p99_target:g} ms, max <{max_target:g} ms")
    for r in results:
        a = r["actions"]
        act, app = a["action"], a["apply"]
        verdict = " ".join(f"{k} {'OK' if ok else 'SHORT'}" for k, ok in a["meets"].items())
        slowest = a["slowest"][0]
        print(f"{table_label(r):<20} {a['count']:>8} "
              f"{act['p50_ms']:>6.2f}/{act['p99_ms']:>6.2f}/{act['max_ms']:>7.2f}  "
              f"{act['p50_floors']:>5.2f}/{act['p99_floors']:>5.2f}/{act['max_floors']:>6.2f}  "
              f"{app['p50_ms']:>6.2f}/{app['p99_ms']:>6.2f}/{app['max_ms']:>7.2f} "
              f"{app['p50_floors']:>5.2f}/{app['p99_floors']:>5.2f}/{app['max_floors']:>5.2f}  {verdict}; "
              f"slowest: {slowest['label']} (seed {slowest['seed']})")
    print("(an action: apply, then outcome, to_act, legal_actions for every asked seat and view for every seat and "
          "a spectator, as the server works them out for a move; x floor: each action over the floor timed beside "
          f"it; a target of T ms holds when x floor is under T / {REFERENCE_FLOOR_MS:g})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slug", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--module", action="append", default=[],
                        help="also bench the RULESET of this module, e.g. games.engines.jingle_bells")
    parser.add_argument("--discover", action="store_true",
                        help="also bench every package under games/engines/ that has a RULESET")
    parser.add_argument("--players", type=int, help="seats at every table (default: each game's smallest)")
    parser.add_argument("--teams", type=int, default=0, help="teams at every table (default 0: none)")
    parser.add_argument("--games", type=int, help="games per run (default 200; What a Snowball! 20)")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--action-games", type=int, default=20,
                        help="of each run's games, how many are played again as the server plays them, timing each "
                             "action (default 20)")
    parser.add_argument("--warmup", type=int, help="games played before timing (default 20; What a Snowball! 2)")
    parser.add_argument("--seed", type=int, default=20251224)
    parser.add_argument("--cpu", action="store_true",
                        help="time with the process's CPU clock instead of the wall clock (steadier on a busy machine)")
    parser.add_argument("--out", help="JSON result file (default bench/results/engines.json, written over)")
    args = parser.parse_args(argv)

    info = machine()
    if args.cpu:
        CLOCK[0] = time.process_time_ns
    info["clock"] = "process CPU time" if args.cpu else "wall time"
    rulesets = load_rulesets(args.slug, list(args.module), args.discover)
    # the collector as the server sets it: what start-up built frozen, the youngest generation
    # collected every 100,000 allocations. Left at the interpreter's defaults, the harness's own
    # full collections (35-56 ms on the Xeon host) landed inside single actions and were
    # reported as the slowest of them.
    tune_the_interpreter()
    info["collector"] = "snowball_site.tuning.tune_the_interpreter"
    results = []
    for ruleset in rulesets:
        games, warmup = SLOW_GAMES.get(ruleset.slug, (200, 20))
        games = args.games or games
        warmup = warmup if args.warmup is None else args.warmup
        print(f"{ruleset.slug}: {args.runs} runs x {games} games ...", file=sys.stderr, flush=True)
        results.append(bench_ruleset(ruleset, games=games, runs=args.runs, seed=args.seed, warmup=warmup,
                                     players=args.players, teams=args.teams, action_games=args.action_games))
        if args.players is None:
            for slug, players, teams in EXTRA_TABLES:
                if slug == ruleset.slug:
                    print(f"{slug} at {players} seats{f' in {teams} teams' if teams else ''}: {args.runs} runs x "
                          f"{games} games ...", file=sys.stderr, flush=True)
                    results.append(bench_ruleset(ruleset, games=games, runs=args.runs, seed=args.seed, warmup=warmup,
                                                 players=players, teams=teams, action_games=args.action_games))
    info["loadavg_at_end"] = [round(x, 2) for x in __import__("os").getloadavg()]
    print_report(results)
    path = write_result("engines", {"machine": info, "args": vars(args), "results": results}, args.out)
    print(f"load average {info['loadavg_at_start']} -> {info['loadavg_at_end']}; written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
