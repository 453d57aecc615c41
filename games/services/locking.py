"""The game lock and transaction every write works under, and what writes share."""
from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, connections, router, transaction
from psycopg_pool import PoolTimeout

from games import engines, statements
from games.coordinator import LockTimeout, MemoryCoordinator, get_coordinator
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
    """The game's lock, then a transaction and its row (for update) to work on.

    The lock is this process's (``game_lock``); on SQLite the transaction also waits for this
    process's turn to write (``sqlite_writer``).

    With ``action_id`` and ``user``, the same query says whether that user's seat has
    already logged that action (``game.logged_already``); with ``token_id``, whether that API
    token still exists (``game.token_live``).

    A database that cannot answer now (SQLite's write lock held past its timeout, no
    connection free in the pool) makes the call ``busy``: nothing was written. Once the
    block is done (committed, or failed), a failure to release the lock is logged and never
    changes the outcome: the lock expires by itself.
    """
    lock = game_lock(game_id)
    try:
        lock.__enter__()
    except LockTimeout as exc:
        raise Busy(GAME_BUSY) from exc
    try:
        try:
            with sqlite_writer(), transaction.atomic():
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


_PROCESS_LOCKS = MemoryCoordinator()


def game_lock(game_id: int, *, wait: bool = True):
    """The game's lock: this process's own, unless ``SNOWBALL_GAME_LOCK_IN_REDIS``. Without
    ``wait``, taken only if it is free now (``LockTimeout`` otherwise).

    Two processes may then work on one game at once (an HTTP move on one worker while the
    game's sockets are on another). The database orders them: PostgreSQL's row lock (the
    read is ``FOR UPDATE``, waiting at most ``lock_timeout``), SQLite's one writer; and the
    write is conditional on the log's length (``statements.write_move``), so a move computed
    from a row that changed since is refused whole, never written over another.
    """
    seconds = 2 * settings.SNOWBALL_GAME_LOCK_SECONDS if wait else 0.0
    if settings.SNOWBALL_GAME_LOCK_IN_REDIS:
        return get_coordinator().lock(game_id, timeout=settings.SNOWBALL_GAME_LOCK_SECONDS, wait=seconds)
    coordinator = get_coordinator()
    locks = coordinator if isinstance(coordinator, MemoryCoordinator) else _PROCESS_LOCKS
    return locks.lock(game_id, wait=seconds)


class WriterTaken(Busy):
    """Another thread of this process is writing on SQLite (``sqlite_writer`` without ``wait``)."""


class _WriterTurns:
    """This process's turn to write on SQLite (``sqlite_writer``): a lock its threads take,
    whose release an event loop can also await (``sqlite_writer_free``)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._guard = threading.Lock()
        self._taken = 0  # acquisitions not yet released, by any thread
        self._waiters: list[asyncio.Future] = []

    def acquire(self, *, timeout: float) -> bool:
        if not self._lock.acquire(timeout=timeout):
            return False
        with self._guard:
            self._taken += 1
        return True

    def release(self) -> None:
        with self._guard:
            self._taken -= 1
            waiters, self._waiters = (self._waiters, []) if self._taken == 0 else ([], self._waiters)
        self._lock.release()
        for future in waiters:
            future.get_loop().call_soon_threadsafe(_resolve, future)

    @property
    def taken(self) -> bool:
        return self._taken > 0

    async def free(self, *, timeout: float) -> None:
        if not self.taken:
            return
        future = asyncio.get_running_loop().create_future()
        with self._guard:
            if not self.taken:
                return
            self._waiters.append(future)
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            pass


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


_SQLITE_WRITER = _WriterTurns()


@contextmanager
def sqlite_writer(*, wait: bool = True) -> Iterator[None]:
    """On SQLite, this process's threads take turns to write a game here, each woken as soon
    as the one before is done, instead of each polling SQLite's lock (its busy handler sleeps
    up to 100 ms between tries, however soon the lock is free). Without ``wait``, ``Busy`` at
    once when another thread is writing. Other databases, and a transaction already open on
    this thread (which holds SQLite's lock from its start, ``transaction_mode: IMMEDIATE``):
    nothing."""
    connection = connections[router.db_for_write(Game)]
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    if not _SQLITE_WRITER.acquire(timeout=2 * settings.SNOWBALL_GAME_LOCK_SECONDS if wait else 0):
        raise WriterTaken(GAME_BUSY)
    try:
        yield
    finally:
        _SQLITE_WRITER.release()


def sqlite_writer_taken() -> bool:
    """Whether a thread of this process holds the turn to write on SQLite now: a hint, read
    without the lock (``sqlite_writer`` decides), that spares working out a move the loop
    could not write."""
    return _SQLITE_WRITER.taken


async def sqlite_writer_free() -> None:
    """For the event loop, before a move it makes itself (``calls.on_the_loop``): returns once
    no thread of this process is writing on SQLite, at once when none is, and after twice a
    game lock's seconds in any case. A thread may take the turn again before the loop's move
    runs (``WriterTaken``): the loop then waits again.

    A move the loop hands to a thread instead waits there for the same turn and holds it in
    its turn, so the loop's next moves find it taken too and go the same way: with the
    deadline sweep and new games written on threads at 300 moves a second, every move went
    that way within seconds, each dearer (the row read under its lock, two hand-offs), and
    stayed so."""
    await _SQLITE_WRITER.free(timeout=2 * settings.SNOWBALL_GAME_LOCK_SECONDS)


@contextmanager
def held_write(*, wait: bool = True, with_django: bool = False) -> Iterator[None]:
    """Where a move on a held row is written (``statements.write_held_move``), committed when
    the block ends and rolled back when it fails: on PostgreSQL outside a transaction, nothing
    (its one statement is its own transaction); on SQLite outside a transaction, this
    process's turn to write and a transaction on the driver's connection (``_sqlite_transaction``);
    inside a transaction already open, a savepoint. ``with_django``: a transaction of
    Django's (``transaction.atomic``) in every case, for a write that also goes through the
    ORM (a game's end and its rating). Without ``wait``, ``Busy`` when another thread of this
    process is writing on SQLite.

    What follows the commit (``transaction.on_commit``) is for the caller to ask once the
    block is done: inside an open transaction it then waits for that one's commit."""
    connection = connections[router.db_for_write(Game)]
    if connection.in_atomic_block or (with_django and connection.vendor != "sqlite"):
        with transaction.atomic():
            yield
    elif with_django:
        with sqlite_writer(wait=wait), transaction.atomic():
            yield
    elif connection.vendor == "postgresql":
        yield
    elif connection.vendor == "sqlite":
        with sqlite_writer(wait=wait), _sqlite_transaction(connection):
            yield
    else:
        with transaction.atomic():
            yield


@contextmanager
def _sqlite_transaction(connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` on SQLite's own connection, ``ROLLBACK`` when the block
    or the commit fails: a move's write without Django's bookkeeping of a transaction
    (autocommit switched off and on again, savepoint ids, commit hooks), which cost a held
    move more than its two statements did. Django sees the connection in autocommit all
    along, as it is before and after."""
    connection.ensure_connection()
    driver = connection.connection
    with connection.wrap_database_errors:
        driver.execute("BEGIN IMMEDIATE")
    try:
        yield
        with connection.wrap_database_errors:
            driver.execute("COMMIT")
    except BaseException:
        if driver.in_transaction:
            try:
                driver.execute("ROLLBACK")
            except Exception:
                log.exception("rolling back a move's write on SQLite failed; the connection is closed")
                connection.close()
        raise


def release_lock(lock, game_id: int) -> None:
    """Release a game's lock taken with ``lock.__enter__()`` after work that went well."""
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
