"""The statements every move runs, with their SQL built once per database instead of per call.

Django's ORM compiles a query's SQL each time it runs (about 0.3 ms a statement here, several
times what SQLite or PostgreSQL then take to execute it), and a move runs the same three: the
read of the game, the inserts into its log, the update of its row (the last two one
statement on PostgreSQL). These helpers build
that SQL from the models' own metadata once per database and column list, and pass every
value through the field's own ``pre_save`` and ``get_db_prep_save``, so what is stored is
exactly what ``Model.save()`` would store. Everything else uses the ORM.

Every write is conditional on the log being as long as the move found it: a move computed
from a row that another writer has since changed fails whole (``ConcurrentWrite``) instead
of overwriting that writer's work. On PostgreSQL, where the write is one statement, that
lets a move run without a transaction (``moves_in_one_statement``), and a move made on the
event loop send its two statements through an asynchronous connection (``read_game_async``,
``write_move_async``).
"""
from __future__ import annotations

from functools import cache, lru_cache
from weakref import WeakKeyDictionary

import psycopg
from django.db import DatabaseError, IntegrityError, connections, router

from games import async_database
from games.models import ActionRecord, Game


class ConcurrentWrite(DatabaseError):
    """Another writer changed the game since this move read it, or the game is gone."""


def moves_in_one_statement() -> bool:
    """Whether a move's whole write is one statement here, so needs no transaction of its own."""
    return connections[router.db_for_write(Game)].vendor == "postgresql"


def locked_game(game_id: int, *, action_id: str | None = None, for_update: bool = True) -> Game | None:
    """The game's row, without its state column; locked for update where the database can,
    unless ``for_update`` is False.

    With ``action_id``, ``game.logged_already`` says whether the game's log already holds it.
    Call inside a transaction to lock; None when there is no such game.
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(*_read_statement(alias, game_id, action_id, for_update))
        row = cursor.fetchone()
    return _game_from_row(alias, row, action_id)


async def read_game_async(game_id: int, *, action_id: str | None = None) -> Game | None:
    """:func:`locked_game` without the row lock, through this event loop's own connection
    (:func:`games.async_database.connection`), so the loop goes on while PostgreSQL answers."""
    alias = router.db_for_write(Game)
    async with async_database.connection() as conn:
        cursor = conn.cursor()
        await cursor.execute(*_read_statement(alias, game_id, action_id, False))
        row = await cursor.fetchone()
    return _game_from_row(alias, row, action_id)


def _read_statement(alias: str, game_id: int, action_id: str | None, for_update: bool) -> tuple[str, list]:
    params = [action_id, game_id] if action_id is not None else [game_id]
    return _locked_game_sql(alias, connections[alias].vendor, action_id is not None, for_update), params


def _game_from_row(alias: str, row: tuple | None, action_id: str | None) -> Game | None:
    if row is None:
        return None
    connection = connections[alias]
    fields = _read_fields()
    values = [_from_db(connection, field, value) for field, value in zip(fields, row)]
    game = Game.from_db(alias, [f.attname for f in fields], values)
    if action_id is not None:
        game.logged_already = bool(row[-1])
    return game


def write_move(game: Game, records: list[ActionRecord], columns: list[str]) -> None:
    """Append ``records`` to the game's log and write ``columns`` of its row, as
    ``record.save()`` and ``game.save(update_fields=columns)`` would, provided the stored log
    is still as long as it was before ``records`` (``game.log_length`` counts them).

    On PostgreSQL that is one statement (the inserts in a ``WITH`` clause), so one round
    trip; elsewhere one statement for the log and one for the row. Raises
    ``ConcurrentWrite`` when the log has moved on or the game is gone, having written nothing
    on PostgreSQL (every writer keeps ``log_length`` equal to the log's entries, so a log that
    moved on already holds this write's first entry number, which is unique, and the statement
    fails whole); elsewhere the caller's transaction must roll back.
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    with connection.cursor() as cursor:
        try:
            if records and connection.vendor == "postgresql":
                cursor.execute(*_one_statement_write(alias, game, records, columns))
            else:
                insert_params = _insert_params(connection, records)
                if insert_params:
                    cursor.executemany(_insert_sql(alias, 1), insert_params)
                cursor.execute(_update_sql(alias, tuple(sorted(columns))),
                               [*_update_params(connection, game, columns), *_where(game, records)])
        except IntegrityError as exc:
            raise _already_logged(game, records, exc) from exc
        _check_written(game, records, cursor.rowcount)


async def write_move_async(game: Game, records: list[ActionRecord], columns: list[str]) -> None:
    """:func:`write_move` on PostgreSQL through this event loop's own connection, so the loop
    goes on while the statement commits; ``records`` must not be empty."""
    alias = router.db_for_write(Game)
    async with async_database.connection() as conn:
        cursor = conn.cursor()
        try:
            await cursor.execute(*_one_statement_write(alias, game, records, columns))
        except psycopg.IntegrityError as exc:
            raise _already_logged(game, records, exc) from exc
        _check_written(game, records, cursor.rowcount)


def _one_statement_write(alias: str, game: Game, records: list[ActionRecord], columns: list[str]) -> tuple[str, list]:
    connection = connections[alias]
    params = [*(value for row in _insert_params(connection, records) for value in row),
              *_update_params(connection, game, columns), *_where(game, records)]
    return _insert_and_update_sql(alias, tuple(sorted(columns)), len(records)), params


def _insert_params(connection, records: list[ActionRecord]) -> list[list]:
    fields = _insert_fields()
    return [[field.get_db_prep_save(field.pre_save(record, add=True), connection) for field in fields]
            for record in records]


def _update_params(connection, game: Game, columns: list[str]) -> list:
    fields = [Game._meta.get_field(name) for name in sorted(columns)]
    return [field.get_db_prep_save(field.pre_save(game, add=False), connection) for field in fields]


def _where(game: Game, records: list[ActionRecord]) -> list:
    return [game.pk, game.log_length - len(records)]


def _already_logged(game: Game, records: list[ActionRecord], exc: Exception) -> ConcurrentWrite:
    return ConcurrentWrite(f"game {game.pk}: its log already holds entry {records[0].seq} "
                           f"or action {records[0].action_id!r} ({exc})")


def _check_written(game: Game, records: list[ActionRecord], rowcount: int) -> None:
    if rowcount != 1:
        raise ConcurrentWrite(f"game {game.pk} is gone, or its log is no longer {_where(game, records)[1]} entries long")


@cache
def _locked_game_sql(alias: str, vendor: str, with_action_check: bool, for_update: bool) -> str:
    connection = connections[alias]
    qn = connection.ops.quote_name
    table = Game._meta.db_table
    columns = [f"{qn(table)}.{qn(f.column)}" for f in _read_fields()]
    if with_action_check:
        log = ActionRecord._meta
        columns.append(
            f"EXISTS (SELECT 1 FROM {qn(log.db_table)} WHERE {qn(log.get_field('game').column)} = "
            f"{qn(table)}.{qn(Game._meta.pk.column)} AND {qn(log.get_field('action_id').column)} = %s) "
            f"AS logged_already")
    sql = f"SELECT {', '.join(columns)} FROM {qn(table)} WHERE {qn(table)}.{qn(Game._meta.pk.column)} = %s"
    if for_update and connection.features.has_select_for_update:
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
def _insert_sql(alias: str, rows: int) -> str:
    """``INSERT`` of ``rows`` log entries (``rows`` is 1 for ``executemany``)."""
    qn = connections[alias].ops.quote_name
    fields = _insert_fields()
    one_row = f"({', '.join(['%s'] * len(fields))})"
    return (f"INSERT INTO {qn(ActionRecord._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
            f"VALUES {', '.join([one_row] * rows)}")


@cache
def _update_sql(alias: str, columns: tuple[str, ...]) -> str:
    qn = connections[alias].ops.quote_name
    assignments = ", ".join(f"{qn(Game._meta.get_field(name).column)} = %s" for name in columns)
    return (f"UPDATE {qn(Game._meta.db_table)} SET {assignments} "
            f"WHERE {qn(Game._meta.pk.column)} = %s AND {qn(Game._meta.get_field('log_length').column)} = %s")


@lru_cache(maxsize=256)
def _insert_and_update_sql(alias: str, columns: tuple[str, ...], rows: int) -> str:
    """PostgreSQL: the log's inserts and the row's update as one statement."""
    return f"WITH logged AS ({_insert_sql(alias, rows)}) {_update_sql(alias, columns)}"
