"""The game lock and transaction every write works under, and what writes share."""
from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, transaction
from psycopg_pool import PoolTimeout

from games import engines, statements
from games.coordinator import LockTimeout, get_coordinator
from games.engines.base import Ruleset
from games.errors import BadRequest, Busy, NotFound
from games.models import Game
from games.services.broadcast import broadcast_after_commit

log = logging.getLogger(__name__)

GAME_BUSY = "the game is busy; try again in a moment"
GAME_CHANGED = "the game changed while your move was being made; please send it again"



@contextmanager
def locked_game(game_id: int, *, action_id: str | None = None, user=None,
                token_id: int | None = None) -> Iterator[Game]:
    """The game's coordinator lock, then a transaction and its row (for update) to work on.

    With ``action_id`` and ``user``, the same query says whether that user's seat has
    already logged that action (``game.logged_already``); with ``token_id``, whether that API
    token still exists (``game.token_live``).

    A database that cannot answer now (SQLite's write lock held past its timeout, no
    connection free in the pool) makes the call ``busy``: nothing was written. Once the
    block is done (committed, or failed), a failure to release the lock is logged and never
    changes the outcome: the lock expires by itself.
    """
    coordinator = get_coordinator()
    lock = coordinator.lock(game_id, timeout=settings.SNOWBALL_GAME_LOCK_SECONDS,
                            wait=2 * settings.SNOWBALL_GAME_LOCK_SECONDS)
    try:
        lock.__enter__()
    except LockTimeout as exc:
        raise Busy(GAME_BUSY) from exc
    try:
        try:
            with transaction.atomic():
                game = statements.read_game(game_id, action_id=action_id, user=user, token_id=token_id)
                with _refused_if_overtaken(game_id, game):
                    yield game
        except (OperationalError, PoolTimeout) as exc:
            log.warning("game %s: the database could not answer (%s)", game_id, exc)
            raise Busy(GAME_BUSY) from exc
    except BaseException:
        _release(lock, game_id, *sys.exc_info())
        raise
    _release(lock, game_id, None, None, None)


def _release(lock, game_id: int, *exc_info) -> None:
    try:
        lock.__exit__(*exc_info)
    except Exception as exc:
        if exc is exc_info[1]:
            return
        log.error("game %s: releasing its lock failed; what was done under it stands", game_id, exc_info=True)


@contextmanager
def _refused_if_overtaken(game_id: int, game: Game | None) -> Iterator[None]:
    """Around the work on a game just read: NotFound if it was not there, and ``busy`` for a
    write that another writer overtook (``statements.ConcurrentWrite``)."""
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    try:
        yield
    except statements.ConcurrentWrite as exc:
        log.warning("game %s: %s", game_id, exc)
        raise Busy(GAME_CHANGED) from exc


def ruleset_of(game_type: str) -> Ruleset:
    try:
        return engines.get(game_type)
    except KeyError as exc:
        raise BadRequest(str(exc.args[0])) from exc


def bump(game: Game) -> Game:
    game.version += 1
    game.save(update_fields=["version"])
    broadcast_after_commit(game.pk, game.version, lobby=game.is_public)
    return game
