"""Create started games for a load run, straight through Django and the play service.

    DATABASE_URL=... python -m bench.setup_games --games 500 --out games.json

Each game gets two fresh guest users with API tokens (seat 0 creates, seat 1 joins, then
it starts) through ``games.services``, exactly as the HTTP API would. The output is a JSON
list of ``{"id": game_id, "tokens": [seat0_key, seat1_key]}``. Run it with the same
environment as the server (bench.servers does).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.setup_games", description=__doc__)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--game-type", default="snowball-fight")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    import django

    django.setup()
    from games import services
    from games.models import ApiToken

    t0 = time.time()
    games = []
    for i in range(args.games):
        players, tokens = [], []
        for seat in range(2):
            user = services.create_guest(display_name=f"Bench {i}.{seat}")
            _token, key = ApiToken.issue(user=user, name="bench")
            players.append(user)
            tokens.append(key)
        game = services.create_game(creator=players[0], game_type=args.game_type, is_public=True,
                                    num_seats=2, take_seat=True)
        services.join_seat(game_id=game.pk, user=players[1], number=1)
        services.start_game(game_id=game.pk, user=players[0])
        games.append({"id": game.pk, "tokens": tokens})
    with open(args.out, "w") as fh:
        json.dump(games, fh)
    print(f"{len(games)} games in {time.time() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
