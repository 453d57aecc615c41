"""What a Snowball!'s reachable areas, this checkout's geometry against another revision's.

    python -m bench.areas --base 18cd496 [--games 20] [--rounds 5] [--slowest 60]

Plays ``--games`` of the engine benchmark's random 12-Kid games (the same seeds every time) and
records every MOVE's walker (village, bases, mover) and roll. Then both versions of
``games/engines/what_a_snowball/geometry.py`` (this checkout's, and ``--base``'s from git) work
out every recorded area and its JSON rings, area by area, by turns (which version goes first
alternates), ``--rounds`` times over. Interleaving this finely is what lets a change of a few
per cent show on a shared machine whose speed drifts by more than that from one minute to the
next. Prints the mean time of each and their ratio, and how many areas' rings are identical.
``--slowest N`` compares only the N areas this checkout takes longest over (timed once each).
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GEOMETRY = "games/engines/what_a_snowball/geometry.py"


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_moves(games: int, seed: int = 42) -> list[tuple[Any, ...]]:
    """(terrain pieces, bases, mover, start, radius, extra, extra radius, roll) of every MOVE area
    the benchmark's random games ask for."""
    from bench import engines as bench
    from games.engines import get
    from games.engines.what_a_snowball import geometry

    recorded: list[tuple[Any, ...]] = []
    walker_init, walker_region = geometry.Walker.__init__, geometry.Walker.region

    def init(self, terrain, bases, mover, start, radius, extra=(), extra_radius=None):
        walker_init(self, terrain, bases, mover, start, radius, extra, extra_radius)
        self._recorded = (terrain.pieces, bases, mover, start, radius, extra, extra_radius)

    def region(self, limit):
        recorded.append((*self._recorded, limit))
        return walker_region(self, limit)

    geometry.Walker.__init__, geometry.Walker.region = init, region
    try:
        ruleset = get("what-a-snowball")
        for game in range(games):
            bench.play_one(ruleset, seed + game, random.Random(seed * 7919 + game), bench.CHOOSERS[ruleset.slug], [])
    finally:
        geometry.Walker.__init__, geometry.Walker.region = walker_init, walker_region
    return recorded


def _area(module: ModuleType, move: tuple[Any, ...]) -> tuple[float, list]:
    pieces, bases, mover, start, radius, extra, extra_radius, roll = move
    began = time.perf_counter()
    walker = module.Walker(module.terrain_for(pieces), bases, mover, start, radius, extra, extra_radius)
    rings = module.region_rings(walker.region(roll))
    return time.perf_counter() - began, rings


def compare(base: ModuleType, now: ModuleType, moves: list[tuple[Any, ...]], rounds: int) -> dict[str, float]:
    for move in moves:  # once each untimed: the villages' shapes are built and cached
        _area(base, move)
        _area(now, move)
    base_s = now_s = 0.0
    identical = 0
    for round_ in range(rounds):
        for index, move in enumerate(moves):
            if (index + round_) % 2:
                spent_base, rings_base = _area(base, move)
                spent_now, rings_now = _area(now, move)
            else:
                spent_now, rings_now = _area(now, move)
                spent_base, rings_base = _area(base, move)
            base_s += spent_base
            now_s += spent_now
            identical += round_ == 0 and rings_base == rings_now
    count = rounds * len(moves)
    return {"areas": len(moves), "base_ms": base_s / count * 1e3, "now_ms": now_s / count * 1e3,
            "ratio": now_s / base_s, "identical": identical}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.areas", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="a git revision whose geometry.py to compare with")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slowest", type=int, default=0, help="compare only this many of the slowest areas")
    args = parser.parse_args(argv)
    source = subprocess.run(["git", "show", f"{args.base}:{GEOMETRY}"], cwd=ROOT, capture_output=True, text=True)
    if source.returncode:
        raise SystemExit(f"git cannot show {GEOMETRY} at {args.base!r}: {source.stderr.strip()}")
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as folder:
        base_path = Path(folder) / "geometry_base.py"
        base_path.write_text(source.stdout)
        base = _load(base_path, "geometry_base")
        now = _load(ROOT / GEOMETRY, "geometry_now")
        moves = record_moves(args.games)
        if args.slowest:
            for move in moves:
                _area(now, move)
            spent = [_area(now, move)[0] for move in moves]
            moves = [moves[i] for i in sorted(range(len(moves)), key=spent.__getitem__)[-args.slowest:]]
        found = compare(base, now, moves, args.rounds)
    which = f"the {found['areas']} slowest" if args.slowest else str(found["areas"])
    print(f"{which} MOVE areas from {args.games} games, {args.rounds} rounds by turns: "
          f"{args.base} {found['base_ms']:.3f} ms, this checkout {found['now_ms']:.3f} ms an area "
          f"(ratio {found['ratio']:.3f}); rings identical for {found['identical']} of {found['areas']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
