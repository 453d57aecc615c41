"""What a held move's one statement costs PostgreSQL, against the cheapest statement there is.

    python -m bench.statement [--moves 4000] [--games 100] [--prepare-after 5|never]

A worker on PostgreSQL writes a move on a game it holds with one statement (the guarded
update of the game's row and the log's insert, ``statements.held_move_statement``), on a
connection of its event loop's pool (games/loop_database.py). This runs that statement for
``--moves`` moves over ``--games`` started two-player Snowball Fight games (made as the live benchmark makes
its games, bench.setup_games), on one connection
made as the loop's are (prepared after ``--prepare-after`` runs, ``never`` as Django's own
connections are), and then ``SELECT 1`` as many times on the same connection: the floor, a
round trip with nothing to plan or write. For both: the PostgreSQL backend's CPU a statement
(its process, read with psutil, so PostgreSQL must run on this machine), this process's CPU a
statement (psycopg, and our building of the statement's values) and the wall time a statement,
with the ratio to the floor.

It uses a database of its own, ``snowball_bench_statement`` on the server ``--database-url``
names (made afresh and migrated), so nothing else's rows are touched. No sockets, no event
loop: the live benchmark (bench.live) measures a move whole; this isolates what the move asks
of PostgreSQL, which a live run on two cores cannot tell apart from its noise.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

DATABASE = "snowball_bench_statement"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.statement", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("SNOWBALL_BENCH_POSTGRES_URL",
                                                                 "postgres://postgres@127.0.0.1:5432/postgres"),
                        help="a PostgreSQL server (any database on it; the benchmark makes its own)")
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--prepare-after", default="loop",
                        help="runs before a statement is prepared: a number, 'never' (as Django's "
                             "connections), or 'loop' (as the event loop's pool, the default)")
    args = parser.parse_args(argv)

    import psutil
    import psycopg

    server = args.database_url.rsplit("/", 1)[0]
    with psycopg.connect(server + "/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {DATABASE}")
    os.environ["DATABASE_URL"] = f"{server}/{DATABASE}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-statement-only")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.common import machine
    from bench.setup_games import make_game
    from bench.tables import shape
    from games import loop_database, statements
    from games.models import ActionRecord, Game

    if args.prepare_after == "loop":
        prepare_after = loop_database.PREPARE_AFTER_RUNS
    elif args.prepare_after == "never":
        prepare_after = None
    else:
        prepare_after = int(args.prepare_after)

    two_players = shape("snowball-fight")
    games = [Game.objects.get(pk=make_game(two_players, number)["id"]) for number in range(args.games)]
    columns = ["version", "log_length", "prompts", "state", "next_deadline"]

    connection = psycopg.connect(**{**loop_database._connection_params(), "prepare_threshold": prepare_after})
    backend = psutil.Process(connection.execute("SELECT pg_backend_pid()").fetchone()[0])

    def held_move(index: int) -> tuple[str, list]:
        game = games[index % len(games)]
        held_version = game.version
        game.version += 1
        game.log_length += 1
        record = ActionRecord(game=game, seq=game.log_length, seat=0, action={"type": "play", "card": "bench"},
                              action_id=f"bench-{game.pk}-{game.log_length}", source=ActionRecord.Source.PLAYER,
                              events=[{"type": "played", "seat": 0}], version=game.version)
        return statements.held_move_statement(game, [record], columns, held_version=held_version)

    def timed(statement) -> dict:
        cpu = backend.cpu_times()
        backend_before, client_before, wall_before = cpu.user + cpu.system, time.process_time(), time.perf_counter()
        for index in range(args.moves):
            sql, params = statement(index)
            written = connection.execute(sql, params).rowcount
            if written < 1:
                raise SystemExit(f"statement {index} wrote nothing ({written}): {sql[:80]}...")
        cpu = backend.cpu_times()
        return {"postgres_cpu_ms": round((cpu.user + cpu.system - backend_before) * 1000 / args.moves, 4),
                "client_cpu_ms": round((time.process_time() - client_before) * 1000 / args.moves, 4),
                "wall_ms": round((time.perf_counter() - wall_before) * 1000 / args.moves, 4)}

    machine_at_start = machine()
    move = timed(held_move)
    floor = timed(lambda index: ("SELECT 1", []))
    connection.close()
    report = {
        "moves": args.moves, "games": args.games, "prepare_after": prepare_after,
        "held_move_statement": move, "floor_select_1": floor,
        "ratio_to_floor": {key: round(move[key] / floor[key], 2) if floor[key] else None for key in move},
        "machine": {**machine_at_start, "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]},
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
