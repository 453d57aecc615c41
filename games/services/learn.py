"""Learn to play: a private game against computer players, started at once, with hints on."""
from __future__ import annotations

from django.db import transaction

from games.models import Game
from games.services.locking import ruleset_of
from games.services.waiting_room import add_bot, create_game, start_game


def start_learn_game(*, user, game_type: str) -> Game:
    """Open the game's smallest table with its default options for ``user``, fill the other seats
    with computer players and start it, marked as a Learn game (the page shows hints)."""
    ruleset = ruleset_of(game_type)
    with transaction.atomic():
        game = create_game(creator=user, game_type=game_type, is_public=False,
                           options={option.name: option.default for option in ruleset.options})
        Game.objects.filter(pk=game.pk).update(is_learn=True)
        for number in range(1, game.num_seats):
            add_bot(game_id=game.pk, user=user, number=number)
        return start_game(game_id=game.pk, user=user)
