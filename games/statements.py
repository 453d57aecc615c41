"""The statements every move runs, with their SQL built once per database instead of per call.

A move runs the same three statements: the read of the game (with whether the player's seat
already logged this ``action_id``), the inserts into its log, the update of its row (on
PostgreSQL the last two are one statement: a round trip costs the worker and the server
more than the rows do).
Django's ORM builds a query's SQL each time it runs, and for these that costs several times
what the move's own work does (measured: docs/where-code-runs.md). These helpers build that
SQL from the models' own metadata once per database, in the driver's own placeholder style,
and run it on the driver's cursor (Django's error translation kept, its per-statement wrappers
and SQLite's placeholder rewrite not). Values go through each field's own ``pre_save`` and
``get_db_prep_save`` (and back through its converters), except JSON, which is written with
orjson (the same JSON; the standard library's encoder took a tenth of a move's time), and
numbers and text that preparation would hand on unchanged, so what is stored and read is what
the ORM would store and read. Everything else uses the ORM.

The write is guarded: it changes the game's row only if the stored log is still as long as
the move found it, so a move computed from a row that another writer has changed since (a
lock that expired mid-move) fails whole (``ConcurrentWrite``) inside its transaction, which
then rolls back, instead of overwriting that writer's work.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from functools import cache
from typing import Callable
from weakref import WeakKeyDictionary

import orjson
from django.conf import settings
from django.db import DatabaseError, IntegrityError, connections, models, router

from games.models import ActionRecord, ApiToken, Game, Seat


class ConcurrentWrite(DatabaseError):
    """Another writer changed the game since this move read it, or the game is gone."""


def read_game(game_id: int, *, action_id: str | None = None, user=None, token_id: int | None = None) -> Game | None:
    """The game's row without its state column, locked for update where the database can
    (call inside a transaction); None when there is no such game.

    With ``action_id``, ``game.logged_already`` says whether ``user``'s seat already logged
    that action as a player's (False for a user without a seat). With ``token_id``,
    ``game.token_live`` says whether that API token still exists (True without one).
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    with_action_check = action_id is not None
    with_token_check = token_id is not None
    params = [action_id, getattr(user, "pk", None)] if with_action_check else []
    params += [token_id] if with_token_check else []
    params.append(game_id)
    row = _run(connection, _read_sql(alias, connection.vendor, with_action_check, with_token_check), params,
               fetch=True)
    if row is None:
        return None
    converters = _read_converters(connection)
    values = [value if value is None or convert is None else convert(value) for convert, value in zip(converters, row)]
    game = Game.from_db(alias, _read_attnames(), values[:len(converters)])
    extra = row[len(converters):]
    game.logged_already = bool(extra[0]) if with_action_check else False
    game.token_live = bool(extra[-1]) if with_token_check else True
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
    chunks = [records[start:start + INSERT_ROWS_AT_MOST] for start in range(0, len(records), INSERT_ROWS_AT_MOST)]
    with_the_update = chunks.pop() if chunks and connection.vendor == "postgresql" else []
    update_params = [*_update_params(connection, game, columns), game.pk, found_length]
    try:
        for chunk in chunks:
            _run(connection, _insert_sql(alias, len(chunk)), _flat_insert_params(connection, chunk))
        if with_the_update:  # PostgreSQL: the last entries and the row in one statement, one round trip
            updated = _run(connection, _insert_and_update_sql(alias, len(with_the_update), tuple(sorted(columns))),
                           [*_flat_insert_params(connection, with_the_update), *update_params])
        else:
            updated = _run(connection, _update_sql(alias, tuple(sorted(columns))), update_params)
    except IntegrityError as exc:
        raise ConcurrentWrite(f"game {game.pk}: its log already holds entry {records[0].seq} ({exc})") from exc
    if updated != 1:
        raise ConcurrentWrite(f"game {game.pk} is gone, or its log is no longer {found_length} entries long")


def write_held_move(game: Game, records: list[ActionRecord], columns: list[str], *, held_version: int,
                    token_id: int | None = None) -> None:
    """Append ``records`` and write ``columns`` of the game's row, computed from a row this
    process holds instead of one it read, provided the stored row is still at ``held_version``
    (every writer of a game in play moves its version) and, with ``token_id``, that API token
    still exists. ``ConcurrentWrite`` when the guard fails or the log already holds one of
    ``records``' entries or action ids (a resent action).

    On PostgreSQL, outside a transaction, it is one statement (the row's guarded update, and
    the log's insert only for the row it updated): one round trip, no ``BEGIN`` or ``COMMIT``,
    and nothing written when it fails. Elsewhere, call it inside a transaction, which must
    roll back when it fails. At most ``INSERT_ROWS_AT_MOST`` records.
    """
    alias = router.db_for_write(Game)
    connection = connections[alias]
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        sql, params = held_move_statement(game, records, columns, held_version=held_version, token_id=token_id)
        try:
            written = _run(connection, sql, params)
        except IntegrityError as exc:
            raise held_move_overtaken(game, records, exc) from exc
        check_held_move_written(game, records, written, held_version=held_version)
        return
    _check_held_rows(records)
    key = tuple(sorted(columns))
    guard = [game.pk, held_version] + ([token_id] if token_id is not None else [])
    try:
        _run(connection, _insert_sql(alias, len(records)), _flat_insert_params(connection, records))
        updated = _run(connection, _update_sql(alias, key, "version", token_id is not None),
                       [*_update_params(connection, game, columns), *guard])
    except IntegrityError as exc:
        raise held_move_overtaken(game, records, exc) from exc
    check_held_move_written(game, records, len(records) if updated == 1 else 0, held_version=held_version)


def held_move_statement(game: Game, records: list[ActionRecord], columns: list[str], *, held_version: int,
                        token_id: int | None = None) -> tuple[str, list]:
    """PostgreSQL's one statement for ``write_held_move`` and its parameters, for whichever
    connection runs it (a database thread's, or the event loop's: games/loop_database.py). It
    counts the log entries it inserted: all of ``records``, or none when the guard failed
    (``check_held_move_written``); a resent action fails it with an integrity error
    (``held_move_overtaken``)."""
    alias = router.db_for_write(Game)
    connection = connections[alias]
    _check_held_rows(records)
    guard = [game.pk, held_version] + ([token_id] if token_id is not None else [])
    sql = _held_write_sql(alias, len(records), tuple(sorted(columns)), token_id is not None)
    return sql, [*_update_params(connection, game, columns), *guard, *_flat_insert_params(connection, records)]


def check_held_move_written(game: Game, records: list[ActionRecord], written: int, *, held_version: int) -> None:
    """``ConcurrentWrite`` unless a held move's write inserted every one of its log entries."""
    if written != len(records):
        raise ConcurrentWrite(f"game {game.pk} is no longer at version {held_version}, or is gone, or the API "
                              "token is revoked")


def held_move_overtaken(game: Game, records: list[ActionRecord], error: Exception) -> ConcurrentWrite:
    """What a held move's integrity error means: the log already holds its entry or its action."""
    return ConcurrentWrite(f"game {game.pk}: its log already holds entry {records[0].seq} or action "
                           f"{records[0].action_id!r} ({error})")


def _check_held_rows(records: list[ActionRecord]) -> None:
    if not 1 <= len(records) <= INSERT_ROWS_AT_MOST:
        raise ValueError(f"a held move writes 1 to {INSERT_ROWS_AT_MOST} log entries, not {len(records)}")


def _run(connection, sql: str, params, *, fetch: bool = False):
    """One statement on the driver's own cursor, its errors as Django's: the first row
    (``fetch``), else the rows it changed."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = connection.connection.cursor()
        try:
            cursor.execute(sql, params)
            return cursor.fetchone() if fetch else cursor.rowcount
        finally:
            cursor.close()


def dumps(value) -> str:
    """JSON text as the ORM stores it (integer keys as strings), with orjson; the standard
    library for what orjson does not take (integers past 64 bits)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


def _loads(value):
    if not isinstance(value, (str, bytes)):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:  # what only the standard library reads (NaN), else as the ORM does
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value


def _flat_insert_params(connection, records: list[ActionRecord]) -> list:
    """The parameters of ``records``' rows, one row after another."""
    preps = _preps(connection, "insert", _insert_fields)
    return [prep(field.pre_save(record, add=True)) for record in records for field, prep in preps]


def _update_params(connection, game: Game, columns: list[str]) -> list:
    names = tuple(sorted(columns))
    preps = _preps(connection, names, lambda: tuple(Game._meta.get_field(name) for name in names))
    return [prep(field.pre_save(game, add=False)) for field, prep in preps]


_PREPS: WeakKeyDictionary = WeakKeyDictionary()


def _preps(connection, key: str | tuple[str, ...], fields: Callable[[], tuple]) -> list:
    """Per field, what turns its value into the statement's parameter on this connection: for
    the insert (``key`` "insert") or the update of the named columns, worked out once."""
    per_connection = _PREPS.get(connection)
    if per_connection is None:
        per_connection = _PREPS[connection] = {}
    preps = per_connection.get(key)
    if preps is None:
        preps = per_connection[key] = [(field, _prep_of(connection, field)) for field in fields()]
    return preps


# Small JSON columns that are looked up by exact value (``ActionRecord.objects.filter(action=...)``):
# on SQLite such a lookup compares the ORM's own text, so they are written as the ORM writes them.
ORM_TEXT_FIELDS = frozenset({"action"})


def _prep_of(connection, field):
    if isinstance(field, models.JSONField) and field.encoder is None:
        if connection.vendor == "postgresql":
            from games.models import OrderedJSONField
            from psycopg.types.json import Json, Jsonb

            wrap = Json if isinstance(field, OrderedJSONField) else Jsonb
            return lambda value: None if value is None else wrap(value, dumps=dumps)
        if connection.vendor in ("sqlite", "mysql") and field.name not in ORM_TEXT_FIELDS:
            return lambda value: None if value is None else dumps(value)

    def prep(value):
        return field.get_db_prep_save(value, connection)

    if (isinstance(field, models.DateTimeField) and connection.vendor == "sqlite" and settings.USE_TZ
            and connection.timezone is timezone.utc):
        # what SQLite's adaptation makes of an instant in UTC (a log entry's ``created_at``): its
        # naive text, at a third of the cost of the field's preparation and the backend's checks
        return lambda value: str(value.replace(tzinfo=None)) if (type(value) is datetime and
                                                                 value.tzinfo is timezone.utc) else prep(value)
    if isinstance(field, models.CharField):  # its preparation hands any str (a choice too) on as it is
        return lambda value: value if isinstance(value, str) else prep(value)
    target = field.target_field if field.is_relation else field
    plain = next((kind for base, kind in _PLAIN_TYPES if isinstance(target, base)), None)
    if plain is None or type(prep(plain(1))) is not plain:  # on PostgreSQL a number is wrapped in its column's type
        return prep
    return lambda value: value if type(value) is plain else prep(value)  # as ``int(3)`` gives it back


# Number fields whose preparation may give a value of exactly this type back as it is.
_PLAIN_TYPES = ((models.IntegerField, int), (models.FloatField, float))


def _placeholders(alias: str, sql: str) -> str:
    """``sql`` in the driver's placeholder style: SQLite's ``?`` for Django's ``%s``."""
    if connections[alias].vendor == "sqlite":
        return sql.replace("%s", "?")
    return sql


@cache
def _read_sql(alias: str, vendor: str, with_action_check: bool, with_token_check: bool = False) -> str:
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
    if with_token_check:
        columns.append(f"{_token_exists_sql(alias)} AS token_live")
    sql = f"SELECT {', '.join(columns)} FROM {qn(table)} WHERE {game_pk} = %s"
    if connection.features.has_select_for_update:
        of = (qn(table),) if connection.features.has_select_for_update_of else ()
        sql += " " + connection.ops.for_update_sql(of=of)
    return _placeholders(alias, sql)


@cache
def _read_fields() -> list:
    """The game's columns a move reads: all but the state, which the process usually holds."""
    return [f for f in Game._meta.concrete_fields if f.name != "state"]


@cache
def _read_attnames() -> list[str]:
    return [f.attname for f in _read_fields()]


_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


def _read_converters(connection) -> list:
    """Per column read, None or what turns the driver's value into the ORM's: the backend's
    and the field's converters, in that order."""
    converters = _CONVERTERS.get(connection)
    if converters is None:
        converters = _CONVERTERS[connection] = [_converter_of(connection, field) for field in _read_fields()]
    return converters


def _converter_of(connection, field):
    if isinstance(field, models.JSONField) and field.decoder is None:
        return _loads  # the text the ORM would decode with the standard library (jsonb comes as text too)
    column = field.get_col(Game._meta.db_table)
    steps = [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]
    if not steps:
        return None

    def convert(value):
        for step in steps:
            value = step(value, column, connection)
        return value

    return convert


@cache
def _insert_fields() -> tuple:
    return tuple(f for f in ActionRecord._meta.concrete_fields if not f.primary_key)


# Log entries one ``INSERT`` takes: a move by a player who plays against computer players logs
# their answers too, and one statement per entry costs more than the rows do (``executemany``,
# which psycopg runs in its pipeline mode even for one row, took 0.14 ms of the worker's CPU
# where one ``execute`` takes 0.11). The cap keeps a statement's parameters within every
# backend's limit.
INSERT_ROWS_AT_MOST = 100


@cache
def _insert_sql(alias: str, rows: int) -> str:
    """``INSERT`` of ``rows`` log entries in one statement."""
    qn = connections[alias].ops.quote_name
    fields = _insert_fields()
    one_row = f"({', '.join(['%s'] * len(fields))})"
    return _placeholders(alias, f"INSERT INTO {qn(ActionRecord._meta.db_table)} "
                                f"({', '.join(qn(f.column) for f in fields)}) VALUES {', '.join([one_row] * rows)}")


@cache
def _insert_and_update_sql(alias: str, rows: int, columns: tuple[str, ...]) -> str:
    """PostgreSQL's ``WITH ... INSERT`` of ``rows`` log entries around the row's ``UPDATE``:
    one statement, whose count is the update's (the insert is undone with the transaction
    when the update finds the log moved on)."""
    return f"WITH logged AS ({_insert_sql(alias, rows)}) {_update_sql(alias, columns)}"


@cache
def _update_sql(alias: str, columns: tuple[str, ...], guard: str = "log_length", with_token_check: bool = False) -> str:
    """The row's update of ``columns``, only where its ``guard`` column still has the value
    given after the game's id (and, ``with_token_check``, the API token given after it exists)."""
    qn = connections[alias].ops.quote_name
    assignments = ", ".join(f"{qn(Game._meta.get_field(name).column)} = %s" for name in columns)
    sql = (f"UPDATE {qn(Game._meta.db_table)} SET {assignments} WHERE {qn(Game._meta.pk.column)} = %s "
           f"AND {qn(Game._meta.get_field(guard).column)} = %s")
    if with_token_check:
        sql += f" AND {_token_exists_sql(alias)}"
    return _placeholders(alias, sql)


def _token_exists_sql(alias: str) -> str:
    """Whether the API token whose id is the parameter exists."""
    qn = connections[alias].ops.quote_name
    return f"EXISTS (SELECT 1 FROM {qn(ApiToken._meta.db_table)} WHERE {qn(ApiToken._meta.pk.column)} = %s)"


@cache
def _held_write_sql(alias: str, rows: int, columns: tuple[str, ...], with_token_check: bool) -> str:
    """PostgreSQL: the guarded update, and the log's ``rows`` entries inserted only if it updated
    the row, in one statement whose count is the entries inserted (0: nothing written)."""
    connection = connections[alias]
    qn = connection.ops.quote_name
    fields = _insert_fields()
    typed = ", ".join(f"CAST(%s AS {field.db_type(connection)})" for field in fields)
    names = ", ".join(qn(f.column) for f in fields)
    values = ", ".join([f"({typed})"] * rows)
    return (f"WITH moved AS ({_update_sql(alias, columns, 'version', with_token_check)} "
            f"RETURNING {qn(Game._meta.pk.column)}) "
            f"INSERT INTO {qn(ActionRecord._meta.db_table)} ({names}) "
            f"SELECT entries.* FROM moved, (VALUES {values}) AS entries ({names})")
