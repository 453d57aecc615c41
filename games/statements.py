"""The statements every move runs, with their SQL built once per database instead of per call.

A move runs the same three statements: the read of the game (with whether the player's seat
already logged this ``action_id``), the inserts into its log, the update of its row.
Django's ORM builds a query's SQL each time it runs, and for these that costs several times
what the move's own work does (measured: docs/where-code-runs.md). These helpers build that
SQL from the models' own metadata once per database, and pass every value through the
field's own ``pre_save`` and ``get_db_prep_save`` (and back through its converters), so what
is stored and read is exactly what the ORM would store and read. Everything else uses the ORM.

The write is guarded: it changes the game's row only if the stored log is still as long as
the move found it, so a move computed from a row that another writer has changed since (a
lock that expired mid-move) fails whole (``ConcurrentWrite``) inside its transaction, which
then rolls back, instead of overwriting that writer's work.
"""
from __future__ import annotations

from functools import cache
from weakref import WeakKeyDictionary

from django.db import DatabaseError, IntegrityError, connections, router

from games.models import ActionRecord, Game, Seat


class ConcurrentWrite(DatabaseError):
    """Another writer changed the game since this move read it, or the game is gone."""


def read_game(game_id: int, *, action_id: str | None = None, user=None) -> Game | None:
    """The game's row without its state column, locked for update where the database can
    (call inside a transaction); None when there is no such game.

    With ``action_id``, ``game.logged_already`` says whether ``user``'s seat already logged
    that action as a player's (False for a user without a seat).
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    with_action_check = action_id is not None
    params = [action_id, getattr(user, "pk", None), game_id] if with_action_check else [game_id]
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(alias, connection.vendor, with_action_check), params)
        row = cursor.fetchone()
    if row is None:
        return None
    fields = _read_fields()
    values = [_from_db(connection, field, value) for field, value in zip(fields, row)]
    game = Game.from_db(alias, [f.attname for f in fields], values)
    game.logged_already = bool(row[-1]) if with_action_check else False
    return game


def write_move(game: Game, records: list[ActionRecord], columns: list[str]) -> None:
    """Append ``records`` to the game's log and write ``columns`` of its row, as
    ``record.save()`` and ``game.save(update_fields=columns)`` would, provided the stored log
    is still as long as it was before ``records`` (``game.log_length`` counts them). Call
    inside a transaction: on ``ConcurrentWrite`` it must roll back.

    Every writer keeps ``log_length`` equal to the log's entries, so a log that moved on
    already holds this write's first entry number, which is unique.
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    found_length = game.log_length - len(records)
    with connection.cursor() as cursor:
        try:
            if records:
                cursor.executemany(_insert_sql(alias), _insert_params(connection, records))
            cursor.execute(_update_sql(alias, tuple(sorted(columns))),
                           [*_update_params(connection, game, columns), game.pk, found_length])
        except IntegrityError as exc:
            raise ConcurrentWrite(f"game {game.pk}: its log already holds entry {records[0].seq} ({exc})") from exc
        if cursor.rowcount != 1:
            raise ConcurrentWrite(f"game {game.pk} is gone, or its log is no longer {found_length} entries long")


def _insert_params(connection, records: list[ActionRecord]) -> list[list]:
    fields = _insert_fields()
    return [[field.get_db_prep_save(field.pre_save(record, add=True), connection) for field in fields]
            for record in records]


def _update_params(connection, game: Game, columns: list[str]) -> list:
    fields = [Game._meta.get_field(name) for name in sorted(columns)]
    return [field.get_db_prep_save(field.pre_save(game, add=False), connection) for field in fields]


@cache
def _read_sql(alias: str, vendor: str, with_action_check: bool) -> str:
    connection = connections[alias]
    qn = connection.ops.quote_name
    table = Game._meta.db_table
    game_pk = f"{qn(table)}.{qn(Game._meta.pk.column)}"
    columns = [f"{qn(table)}.{qn(f.column)}" for f in _read_fields()]
    if with_action_check:
        log, seats = ActionRecord._meta, Seat._meta
        seat_of_user = (f"SELECT {qn(seats.get_field('number').column)} FROM {qn(seats.db_table)} "
                        f"WHERE {qn(seats.get_field('game').column)} = {game_pk} "
                        f"AND {qn(seats.get_field('user').column)} = %s")
        columns.append(
            f"EXISTS (SELECT 1 FROM {qn(log.db_table)} WHERE {qn(log.get_field('game').column)} = {game_pk} "
            f"AND {qn(log.get_field('action_id').column)} = %s "
            f"AND {qn(log.get_field('source').column)} = '{ActionRecord.Source.PLAYER.value}' "
            f"AND {qn(log.get_field('seat').column)} = ({seat_of_user})) AS logged_already")
    sql = f"SELECT {', '.join(columns)} FROM {qn(table)} WHERE {game_pk} = %s"
    if connection.features.has_select_for_update:
        of = (qn(table),) if connection.features.has_select_for_update_of else ()
        sql += " " + connection.ops.for_update_sql(of=of)
    return sql


@cache
def _read_fields() -> list:
    """The game's columns a move reads: all but the state, which the process usually holds."""
    return [f for f in Game._meta.concrete_fields if f.name != "state"]


_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


def _from_db(connection, field, value):
    """``value`` as the ORM would hand it over: the backend's and the field's converters applied."""
    if value is None:
        return None
    per_field = _CONVERTERS.get(connection)
    if per_field is None:
        per_field = _CONVERTERS[connection] = {}
    converters = per_field.get(field)
    if converters is None:
        column = field.get_col(Game._meta.db_table)
        converters = per_field[field] = (
            [(c, column) for c in connection.ops.get_db_converters(column)]
            + [(c, column) for c in field.get_db_converters(connection)])
    for convert, column in converters:
        value = convert(value, column, connection)
    return value


@cache
def _insert_fields() -> list:
    return [f for f in ActionRecord._meta.concrete_fields if not f.primary_key]


@cache
def _insert_sql(alias: str) -> str:
    """``INSERT`` of one log entry, for ``executemany``."""
    qn = connections[alias].ops.quote_name
    fields = _insert_fields()
    one_row = f"({', '.join(['%s'] * len(fields))})"
    return (f"INSERT INTO {qn(ActionRecord._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
            f"VALUES {one_row}")


@cache
def _update_sql(alias: str, columns: tuple[str, ...]) -> str:
    qn = connections[alias].ops.quote_name
    assignments = ", ".join(f"{qn(Game._meta.get_field(name).column)} = %s" for name in columns)
    return (f"UPDATE {qn(Game._meta.db_table)} SET {assignments} "
            f"WHERE {qn(Game._meta.pk.column)} = %s AND {qn(Game._meta.get_field('log_length').column)} = %s")
