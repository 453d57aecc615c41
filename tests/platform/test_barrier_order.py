"""Every committed lock of a sealed round reaches the reveal barrier before the reveal that
ends the round, a computer player's lock made as the game starts too; otherwise the reveal
finds seats missing and logs a lost record. (A lock the event loop holds in its batch:
tests/platform/test_moves_awaited_on_the_loop.py.)"""
from __future__ import annotations

import logging

import pytest

from games import engines, selectors, services
from games.coordinator import get_coordinator
from tests.platform.helpers import started_game


def _told(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "games.services.reveal"]


def _round_key(game) -> str:
    game.refresh_from_db()
    return f"sealed-{game.prompts['sealed_round']}"


@pytest.mark.django_db(transaction=True)
def test_a_computer_players_lock_made_as_the_game_starts_reaches_the_barrier(make_user, caplog):
    ana = make_user("Ana")
    game = started_game(ana, bots=1)  # Snowball Fight: the computer player locks its first choice at once
    assert get_coordinator().barrier_state(game.pk, _round_key(game)) == {1}
    state = selectors.game_state(game)
    with caplog.at_level(logging.INFO, logger="games.services.reveal"):
        result = services.submit_action(game_id=game.pk, user=ana, action=engines.get(game.game_type).bot_action(state, 0),
                                         action_id="a1", version=game.version)
    assert result.revealed and _told(caplog) == []
