"""A move's CPU instructions, this checkout's against another revision's: a count, not a time.

    python -m bench.instructions --base 4358252 [--moves 300,1200] [--game-type snowball-fight]

Runs the play service benchmark as one process makes its moves (``python -m bench.submit
--on-the-loop --views``: each move on the event loop, then every viewer's JSON view of the
new version) under valgrind's callgrind, which counts the instructions the process executes.
Each tree runs twice, with the two ``--moves`` counts and the same seed; the difference of the
two totals over the difference of the moves is what one move and its views cost, set-up and
imports cancelled out. This checkout and ``--base`` (checked out in a temporary git worktree,
with this checkout's ``bench/submit.py``: the same games, dealt from the same seeds, and the
same moves) run side by side, one valgrind to a core.

A count does not drift with the machine's speed or its neighbours as a time does: on a shared
two-core host the live benchmark's CPU a move varied by a fifth from one run to the next
(2.80-3.77 ms, 3 Dec), where the same tree's count varied by about one per cent (2.872 and
2.896 M): what is left is the database threads' share (a checkpoint, a move that finds the
writer's turn taken), which the threads' order decides. Every module is compiled first, so
that neither run of a pair compiles what the other loads. It measures only the Python
work of the move and its views on SQLite, not the sockets, daphne or the kernel's share: the
live benchmark (``bench.live``) remains the figure the goals are judged by. Needs valgrind
(``apt-get install valgrind``); each run takes a minute or two.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLLECTED = re.compile(r"Collected : (\d+)")


def count(tree: Path, moves: int, game_type: str, games: int) -> int:
    """Instructions callgrind counted for ``bench.submit`` run from ``tree`` with ``moves``."""
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as scratch:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/callgrind.out",
             sys.executable, "-m", "bench.submit", "--on-the-loop", "--views", "--moves", str(moves),
             "--games", str(games), "--game-type", game_type],
            cwd=tree, capture_output=True, text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    found = COLLECTED.search(run.stderr)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind of {tree} ({moves} moves) failed:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def per_move(tree: Path, low: int, high: int, game_type: str, games: int, pool: ThreadPoolExecutor):
    """Futures of the two counts of ``tree``."""
    return [pool.submit(count, tree, moves, game_type, games) for moves in (low, high)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the revision to count against (a commit, a tag, a branch)")
    parser.add_argument("--moves", default="300,1200", help="the two move counts, low and high (default 300,1200)")
    parser.add_argument("--game-type", default="snowball-fight")
    parser.add_argument("--games", type=int, default=20, help="games the moves are spread over (default 20)")
    args = parser.parse_args(argv)
    low, high = sorted(int(n) for n in args.moves.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-instructions-base-") as base_dir:
        base = Path(base_dir) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        shutil.copy(ROOT / "bench" / "submit.py", base / "bench" / "submit.py")  # the same moves, the same deals
        try:
            for tree in (base, ROOT):  # both runs load compiled modules, not one compiling what the other loads
                subprocess.run([sys.executable, "-m", "compileall", "-q", "games", "bench", "snowball_site"], cwd=tree,
                               check=True, capture_output=True)
            with ThreadPoolExecutor(max_workers=2) as pool:
                runs = {"base": per_move(base, low, high, args.game_type, args.games, pool),
                        "this": per_move(ROOT, low, high, args.game_type, args.games, pool)}
                totals = {name: [future.result() for future in futures] for name, futures in runs.items()}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    base_commit = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True,
                                 text=True).stdout.strip()
    each = {name: (high_total - low_total) / (high - low) for name, (low_total, high_total) in totals.items()}
    result = {"command": "python -m bench.instructions " + " ".join(argv if argv is not None else sys.argv[1:]),
              "game_type": args.game_type, "moves": [low, high], "base": base_commit, "this": commit,
              "totals": totals, "instructions_a_move": {name: round(value) for name, value in each.items()},
              "ratio": round(each["this"] / each["base"], 4)}
    print(json.dumps(result, indent=1))
    print(f"a move and its views: {each['this'] / 1e6:.3f} M instructions at {commit} against "
          f"{each['base'] / 1e6:.3f} M at {base_commit} ({result['ratio']:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
