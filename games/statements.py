"""The two statements a move makes of its game: the read under the lock, and the write.

The write is guarded: it appends the move's log entries and updates the game's row only if
the stored log is still as long as the move found it. A move computed from a row that
another writer changed since (a lock that expired mid-move) fails whole with
``ConcurrentWrite`` inside its transaction, which then rolls back, instead of overwriting
that writer's work.
"""
from __future__ import annotations

from django.db import DatabaseError, IntegrityError
from django.db.models import Exists, OuterRef, Subquery

from games.models import ActionRecord, Game, Seat


class ConcurrentWrite(DatabaseError):
    """Another writer changed the game since this move read it, or the game is gone."""


def read_game(game_id: int, *, action_id: str | None = None, user=None) -> Game | None:
    """The game's row without its state column, locked for update where the database can
    (call inside a transaction); None when there is no such game.

    With ``action_id`` and a signed-in ``user``, ``game.logged_already`` says whether that
    user's seat already logged that action as a player's.
    """
    games = Game.objects.defer("state").select_for_update()
    user_id = getattr(user, "pk", None)
    if action_id is not None and user_id is not None:
        seat = Seat.objects.filter(game_id=game_id, user_id=user_id).values("number")[:1]
        games = games.annotate(logged_already=Exists(ActionRecord.objects.filter(
            game=OuterRef("pk"), seat=Subquery(seat), source=ActionRecord.Source.PLAYER, action_id=action_id)))
    game = next(iter(games.filter(pk=game_id).order_by()[:1]), None)
    if game is not None and not hasattr(game, "logged_already"):
        game.logged_already = False
    return game


def write_move(game: Game, records: list[ActionRecord], columns: list[str]) -> None:
    """Append ``records`` to the game's log and write ``columns`` of its row, provided the
    stored log is still as long as it was before ``records`` (``game.log_length`` counts
    them). Call inside a transaction: on ``ConcurrentWrite`` it must roll back.

    Every writer keeps ``log_length`` equal to the log's entries, so a log that moved on
    already holds this write's first entry number, which is unique.
    """
    found_length = game.log_length - len(records)
    try:
        if records:
            ActionRecord.objects.bulk_create(records)
        updated = Game.objects.filter(pk=game.pk, log_length=found_length).update(
            **{name: getattr(game, name) for name in columns})
    except IntegrityError as exc:
        raise ConcurrentWrite(f"game {game.pk}: its log already holds entry {records[0].seq} ({exc})") from exc
    if updated != 1:
        raise ConcurrentWrite(f"game {game.pk} is gone, or its log is no longer {found_length} entries long")
