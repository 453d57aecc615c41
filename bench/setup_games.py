"""Create started games for a load run, straight through Django and the play service.

    DATABASE_URL=... python -m bench.setup_games --games 500 --out games.json
    DATABASE_URL=... python -m bench.setup_games --games 30 --game-type what-a-snowball --out games.json

Each game is a table of ``--game-type`` (a shape of bench.tables: its game, seats and teams)
with a fresh guest user in every seat, each holding an API token (for the JSON socket) and a
signed-in session (for the page's socket). Seat 0 creates the game, the others join (on their
team), seat 0 starts it, all through ``games.services``, as the HTTP API would. The output is
a JSON list of ``{"id", "shape", "tokens": [key per seat], "sessions": [session key per
seat]}``. Run it with the same environment as the server (bench.servers does).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time


def session_for(user) -> str:
    """A saved, signed-in session of ``user``: the cookie a browser holds after signing in."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


# Seconds a decision may take in the run's games: the longest a live game's creator may pick
# (games/pacing.py). A run starts its spares with the others, long before their players
# connect; with the games' own timers (Snowball Fight's 40-90 s) every idle spare's clock ran out during a 60 s
# run, and the server made hundreds of computer moves for absent players (598 timeouts within
# 12 s of one run at 250 games), a load no real table's players leave behind.
DECISION_SECONDS = 300


def make_game(shape, index: int) -> dict:
    """One started game of ``shape``, every seat a guest with a token and a session, its
    decisions timed at ``DECISION_SECONDS``."""
    from games import services
    from games.models import ApiToken

    players, tokens, sessions = [], [], []
    for seat in range(shape.seats):
        user = services.create_guest(display_name=f"Bench {index}.{seat}")
        _token, key = ApiToken.issue(user=user, name="bench")
        players.append(user)
        tokens.append(key)
        sessions.append(session_for(user))
    game = services.create_game(creator=players[0], game_type=shape.slug, is_public=True, num_seats=shape.seats,
                                num_teams=shape.teams or None, take_seat=True,
                                options=shape.options_for(index), decision_seconds=DECISION_SECONDS)
    if shape.teams:
        services.choose_team(game_id=game.pk, user=players[0], team=shape.team_of(0))
    for seat in range(1, shape.seats):
        services.join_seat(game_id=game.pk, user=players[seat], number=seat, team=shape.team_of(seat))
    services.start_game(game_id=game.pk, user=players[0])
    return {"id": game.pk, "shape": shape.name, "tokens": tokens, "sessions": sessions}


def age_game(entry: dict, shape, actions: int, seed: int) -> int:
    """Play ``actions`` moves of a started game as the load generator's players would (a random
    legal action for the first seat asked, from that seat's own view), so that a run's games
    start at different ages and end at different times, as a real site's do; fewer when the
    game would end. The moves played."""
    import orjson

    from bench.choosers import json_action
    from games import selectors, services
    from games.models import Game

    users = {s.number: s.user for s in Game.objects.get(pk=entry["id"]).seats.all()}
    rng = random.Random(seed)
    for played in range(actions):
        snap = selectors.snapshot(entry["id"])
        if snap.game.status != Game.Status.ACTIVE:
            return played
        for seat in sorted(users):
            frame = orjson.loads(selectors.view_frame(snap, seat))
            action = json_action(shape.slug, frame, rng) if frame.get("legal_actions") else None
            if action is not None:
                break
        else:
            return played
        services.submit_action(game_id=entry["id"], user=users[seat], action=action, action_id=f"age-{seed}-{played}",
                               version=frame["version"])
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.setup_games", description=__doc__)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--game-type", default="snowball-fight",
                        help="a table of bench.tables.SHAPES (default snowball-fight: two players)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--aged", type=int, default=0, metavar="N",
                        help="play the first N games (the run's, not its spares) forward first (--age-up-to)")
    parser.add_argument("--age-up-to", type=int, default=0, metavar="K",
                        help="an aged game is played forward a random 0 to K-1 moves (default 0: none is)")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    import django

    django.setup()
    from bench.tables import shape

    table = shape(args.game_type)
    t0 = time.time()
    games = [make_game(table, i) for i in range(args.games)]
    aged = min(args.aged, len(games)) if args.age_up_to else 0
    ages = random.Random(args.games).choices(range(args.age_up_to), k=aged)
    for index, (entry, age) in enumerate(zip(games, ages)):
        entry["aged"] = age_game(entry, table, age, seed=index)
    with open(args.out, "w") as fh:
        json.dump(games, fh)
    print(f"{len(games)} games of {table.name} in {time.time() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
