"""The play service alone: milliseconds per move through ``games.services.submit_action``.

    python -m bench.submit [--games 50] [--moves 3000] [--profile out.prof]
    python -m bench.submit --on-the-loop --views

With ``--on-the-loop`` the move is made as one process makes it (``calls.on_the_loop``
around ``submit_held_action``, on the event loop's own thread, a database thread only for
what that leaves); with ``--views``, each move is followed by what its sockets build from the
new version, timed apart: the JSON view frame (and digest) of each player and of a spectator
(``selectors.view_digest``, ``view_frame``), twice for the spectator as two spectators ask.

No sockets: the cost a move puts on the thread that runs it (coordinator lock, transaction,
locking read, engine, action log, snapshot, commit, after-commit work), called from an event
loop through ``games.calls.db_call`` as the server's consumers call it: on a database thread. The live
benchmark's server pays this once per action on top of the frames and the views. Uses the
database the environment names (a throwaway SQLite file by default), with fresh guest players
in two-player Snowball Fight games, each dealt from a seed of a seeded generator (the same games
every run); moves are random legal actions from another, chosen outside the timed call.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.submit", description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--game-type", default="snowball-fight")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write a cProfile of the timed calls here")
    parser.add_argument("--on-the-loop", action="store_true",
                        help="make each move on the event loop, as one process does (calls.on_the_loop)")
    parser.add_argument("--views", action="store_true",
                        help="also time each viewer's JSON view of the version after each move")
    args = parser.parse_args(argv)

    if "DATABASE_URL" not in os.environ:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-submit-')}/db.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")  # as the server runs: no query log
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-submit-only")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games import engines, selectors, services
    from games.calls import db_call, on_the_loop
    from games.models import Game
    from games.state_cache import STATE_CACHE
    from snowball_site.tuning import tune_the_interpreter

    tune_the_interpreter()
    ruleset = engines.get(args.game_type)
    rng = random.Random(args.seed)

    deals = random.Random(args.seed + 1)

    def new_game() -> dict:
        users = [services.create_guest(display_name=f"Bench {seat}") for seat in range(2)]
        game = services.create_game(creator=users[0], game_type=args.game_type, num_seats=2, take_seat=True)
        Game.objects.filter(pk=game.pk).update(seed=deals.getrandbits(62))  # the same deals every run
        services.join_seat(game_id=game.pk, user=users[1], number=1)
        game = services.start_game(game_id=game.pk, user=users[0])
        return {"id": game.pk, "users": users, "version": game.version}

    games = [new_game() for _ in range(args.games)]
    timings: list[float] = []
    view_timings: list[float] = []
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()

    def timed(call, into: list[float], *, none_is_no_move: bool = False):
        """``call``, timed (and profiled) on the thread that runs it; with ``none_is_no_move``, a
        call that answers None (the move left to a database thread) is not counted."""
        def run(*args, **kwargs):
            started = time.perf_counter()
            if profiler:
                profiler.enable()
            try:
                result = call(*args, **kwargs)
            finally:
                if profiler:
                    profiler.disable()
            if result is not None or not none_is_no_move:
                into.append((time.perf_counter() - started) * 1000)
            return result
        return run

    def views_of(snap) -> None:
        for seat in (0, 1, None, None):
            selectors.view_digest(snap, seat, keep_frame=True)
            selectors.view_frame(snap, seat)

    held_here = on_the_loop(timed(services.submit_held_action, timings, none_is_no_move=True))
    timed_views = timed(views_of, view_timings)

    def after_move(game_id: int, version: int) -> None:
        """What the server's sockets do next: read the new snapshot (the committer's copy)."""
        selectors.snapshot(game_id, version=version)

    async def play() -> int:
        submit, follow = db_call(timed(services.submit_action, timings)), db_call(after_move)
        finished = 0
        while len(timings) < args.moves:
            entry = rng.choice(games)
            state = STATE_CACHE.get(entry["id"], entry["version"])
            if state is None or ruleset.outcome(state) is not None:
                games[games.index(entry)] = await db_call(new_game)()
                finished += 1
                continue
            seat = rng.choice(sorted(ruleset.to_act(state)))
            action = rng.choice(ruleset.legal_actions(state, seat))
            snap = selectors.SNAPSHOTS.get(entry["id"])  # the seat's own count (another's revision is not in it)
            version = selectors.viewer_version(snap.game, seat) if snap and snap.version == entry["version"] else \
                entry["version"]
            move = {"game_id": entry["id"], "user": entry["users"][seat], "action": action,
                    "action_id": uuid.uuid4().hex, "version": version}
            result = held_here(**move) if args.on_the_loop else None
            if result is None:
                result = await submit(**move)
            entry["version"] = result.version
            await follow(entry["id"], result.version)
            if args.views:
                timed_views(selectors.SNAPSHOTS.get(entry["id"]))
            await asyncio.sleep(0)  # let the broadcast the move handed to this loop go out
        return finished

    cpu_started = time.process_time()
    finished = asyncio.run(play())
    cpu_ms = (time.process_time() - cpu_started) * 1000
    if profiler:
        profiler.dump_stats(args.profile)
    timings.sort()
    report = {
        "moves": len(timings), "games_finished": finished,
        "ms_per_move": {"mean": round(statistics.fmean(timings), 3),
                        "p50": round(timings[len(timings) // 2], 3),
                        "p99": round(timings[int(len(timings) * 0.99)], 3)},
        "process_cpu_ms_per_move": round(cpu_ms / len(timings), 3),
        **({"views_ms_per_move": {"mean": round(statistics.fmean(view_timings), 3),
                                  "p50": round(sorted(view_timings)[len(view_timings) // 2], 3)}}
           if view_timings else {}),
        "database": django.conf.settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
