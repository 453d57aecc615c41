"""What drawing one version's boards costs: every viewer's page board against its JSON view.

A move on a page socket renders the game's board once for each seat and once for the
spectators; on the JSON socket it encodes each viewer's view. This plays a table of
``bench.tables`` with its computer players to a moment, then times both for every viewer
of that one version, in this process:

    python -m bench.boards                       (What a Snowball!, twelve Kids, four teams)
    python -m bench.boards --game-type snowball-fighting --steps 10 40

The floor, timed in the same run, is encoding the same views as JSON (what the JSON
socket sends); the figure is the board's time as a ratio to it. The first pass over a
version fills the per-version memos (games/templatetags/what_a_snowball_board.py), as
the first seat's socket does live; ``--repeat`` passes are timed after it.
"""
from __future__ import annotations

import argparse
import json
import os
import time


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    import django

    django.setup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.boards", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game-type", default="what-a-snowball", help="a shape of bench/tables.py")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--steps", type=int, nargs="+", default=[20, 150],
                        help="computer players' actions before each timed version")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    _setup()
    from django.template.loader import render_to_string

    from bench.tables import shape
    from games import engines

    table = shape(args.game_type)
    ruleset = engines.get(table.slug)
    teams = {"teams": [table.team_of(seat) for seat in range(table.seats)]} if table.teams else {}
    state = ruleset.new_game(players=table.seats, options=table.options_for(args.seed), seed=args.seed, **teams)
    names = [f"Player {seat + 1}" for seat in range(table.seats)]
    viewers = [None, *range(table.seats)]
    render_to_string(f"games/{table.slug}/board.html", {  # templates loaded before anything is timed
        "view": ruleset.view(state, None), "seat": None, "names": names, "version": 0, "legal": [],
        "prompt": None, "payload": {"outcome": None}})
    played = 0
    print(f"{args.game_type}: {table.seats} seats, {len(viewers)} viewers a version (ms for all of them)")
    print("| actions played | board, first pass | board, again | JSON views (floor) | board / floor |")
    print("| --- | --- | --- | --- | --- |")
    for steps in sorted(args.steps):
        while played < steps and ruleset.to_act(state):
            seat = min(ruleset.to_act(state))
            state, _ = ruleset.apply(state, seat, ruleset.bot_action(state, seat))
            played += 1
        asked = ruleset.to_act(state)
        contexts = [{"view": ruleset.view(state, seat), "seat": seat, "names": names, "version": played,
                     "legal": ruleset.legal_actions(state, seat) if seat in asked else [],
                     "prompt": asked[seat].as_dict() if seat in asked else None,
                     "payload": {"outcome": ruleset.outcome(state)}} for seat in viewers]
        template = f"games/{table.slug}/board.html"

        def boards() -> float:
            started = time.perf_counter()
            for context in contexts:
                render_to_string(template, context)
            return (time.perf_counter() - started) * 1000

        def floor() -> float:
            started = time.perf_counter()
            for context in contexts:
                json.dumps({"view": context["view"], "legal_actions": context["legal"]})
            return (time.perf_counter() - started) * 1000

        first = boards()
        again = min(boards() for _ in range(args.repeat))
        encode = min(floor() for _ in range(args.repeat))
        print(f"| {played} | {first:.1f} | {again:.1f} | {encode:.2f} | {first / encode:.0f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
