"""Play: a player's move, computer players and timeouts, applied once and committed before
anyone hears of them."""
from __future__ import annotations

import copy
import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone

from games import pacing, selectors, statements, tables
from games.engines.base import BadAction, GameError, Ruleset, action_seen_only_by
from games.auth import token_is_live
from games.errors import BadRequest, Conflict, Forbidden, NotFound, NotSeated, StaleVersion, TokenRevoked
from games.models import ActionRecord, Game, Seat
from games.selectors import fill_names, seat_names, viewer_version
from games.selectors.games import counted_restricted
from games.services import broadcast as broadcasting
from games.services.locking import (GAME_BUSY, WriterTaken, game_lock, held_write, locked_game, release_lock,
                                    ruleset_of, sqlite_writer_taken)
from games.services import ratings, turn_mail
from games.services.reveal import Arrival, note_sealed_lock, tell_the_barrier, tell_the_barrier_soon
from games.state_cache import STATE_CACHE

log = logging.getLogger(__name__)

MAX_AUTOMATIC_STEPS = 500


@dataclass(frozen=True)
class ActionResult:
    """What became of a submitted action: the game's ``version`` after it, and the same as its
    player counts it (``viewer_version``), which is what the player is told."""

    version: int
    viewer_version: int
    duplicate: bool = False
    revealed: bool = False


def submit_action(*, game_id: int, user, action: Any, action_id: str, version: Any,
                  token_id: int | None = None, try_held: bool = True) -> ActionResult:
    """Apply one player's action exactly once, if it was based on a current view.

    A resent ``action_id`` is a no-op that reports the current version. An action
    whose ``version`` predates the seat's current prompt is refused as stale. With
    ``token_id`` (the API token the player's socket acts with), a revoked token is refused
    before anything else (``TokenRevoked``), checked in the move's own read. Without
    ``try_held`` (``submit_held_action`` just tried and left it), the move goes straight to
    the row read under its lock, instead of being worked out on the held row a second time.
    """
    try:
        _check_submission(action=action, action_id=action_id, version=version)
        held = _play_held(game_id=game_id, user=user, action=action, action_id=action_id, version=version,
                          token_id=token_id) if try_held else None
        if held is not None:
            return held
        with locked_game(game_id, action_id=action_id, user=user, token_id=token_id) as game:
            if not game.token_live:
                raise TokenRevoked("the API token of this connection was revoked")
            result, write = _play(game, user=user, action=action, action_id=action_id, version=version)
            if write is not None:
                _commit(write)
            return result
    except (BadRequest, NotFound):
        if token_id is not None and not token_is_live(token_id):
            raise TokenRevoked("the API token of this connection was revoked") from None
        raise


def submit_held_action(*, game_id: int, user, action: Any, action_id: Any, version: Any,
                       token_id: int | None = None) -> ActionResult | None:
    """``submit_action`` for a caller that must not wait (the event loop, ``calls.on_the_loop``):
    the move made on the game this process holds, when nothing it needs is taken by another
    thread now (the game's lock, this process's turn to write, SQLite's lock) and the move
    asks nothing that waits (a game by the day mails its players). None otherwise, with
    nothing written: ``submit_action`` makes the move, and answers whatever this could not;
    ``WriterTaken`` when only this process's turn to write was taken (a database thread is
    writing): the caller awaits it (``locking.sqlite_writer_free``) and tries again."""
    if not _may_play_held_now(game_id=game_id, action=action, action_id=action_id, version=version):
        return None
    return _play_held(game_id=game_id, user=user, action=action, action_id=action_id, version=version,
                      token_id=token_id, wait=False)


def _may_play_held_now(*, game_id: int, action: Any, action_id: Any, version: Any) -> bool:
    """Whether a move from a caller that must not wait may be tried on the held row: a frame of
    the right shape (``submit_action`` says what is wrong with any other), on a game this
    process holds that asks nothing that waits (a game by the day mails its players)."""
    try:
        _check_submission(action=action, action_id=action_id, version=version)
    except BadRequest:
        return False
    snap = _held(game_id)
    return snap is not None and snap.game.pace != pacing.DAILY


def _play_held(*, game_id: int, user, action: dict, action_id: str, version: int,
               token_id: int | None, wait: bool = True) -> ActionResult | None:
    """The move computed on the row and state this process holds for the game (the snapshot its
    last move here or its sockets' last read left), written without reading the row first, in
    one statement on PostgreSQL, guarded on the row's version and the API token
    (``statements.write_held_move``); a move that ends the game is rated in the same
    transaction, a Django one. None when the move must be made on a row read under its
    lock instead (``locked_game``): nothing held, the move refused for any reason (that path
    answers it, a resent action as a duplicate first), or a row that moved on since; without
    ``wait``, also when the game's lock is taken; ``WriterTaken`` when this process's turn to
    write is, found before the move is worked out when it can be. Nothing is written then."""
    if not settings.SNOWBALL_HELD_MOVES or _held(game_id) is None:
        return None
    if not wait and sqlite_writer_taken():
        raise WriterTaken(GAME_BUSY)
    held = _work_out_held(game_id=game_id, user=user, action=action, action_id=action_id, version=version,
                          wait=wait, may_finish=True)
    if held is None:
        return None
    try:
        write = held.write
        finishes = "outcome" in write.columns
        try:
            with held_write(wait=wait, with_django=finishes):
                statements.write_held_move(write.game, write.logged, write.columns, held_version=held.held_version,
                                           token_id=token_id)
                if finishes:
                    ratings.rate_when_finished(game=write.game)
        except statements.ConcurrentWrite:
            return None
        except Exception as exc:
            if not wait and isinstance(exc, WriterTaken):
                raise
            if not wait and isinstance(exc, OperationalError):
                return None  # another process has SQLite now: the caller waits for it on a database thread
            log.warning("game %s: a move on the held row failed; it is made on the row read instead", game_id,
                        exc_info=True)
            return None
        _after_commit_of_held(held)
        return held.result
    finally:
        release_lock(held.lock, game_id)


async def submit_held_action_awaited(*, game_id: int, user, action: Any, action_id: Any, version: Any,
                                    token_id: int | None = None) -> tuple[ActionResult | None, bool]:
    """``submit_held_action`` on an event loop whose database is PostgreSQL: the move worked
    out on the loop (the game's lock only if it is free now), its one statement
    (``statements.held_move_statement``) awaited on the loop's own connection
    (games/loop_database.py), what follows the commit done on the loop but the reveal
    barrier, told from a coordinator thread. With the result (None: the caller makes the move
    on a database thread, and nothing was written), whether the write was tried: then the
    held row no longer serves (another writer moved the game on, the action was resent) or the
    connection failed, and the thread reads the row."""
    from games import loop_database
    from games.calls import on_the_loop_for_a_moment

    if not settings.SNOWBALL_HELD_MOVES or not _may_play_held_now(game_id=game_id, action=action,
                                                                  action_id=action_id, version=version):
        return None, False
    with on_the_loop_for_a_moment():
        held = _work_out_held(game_id=game_id, user=user, action=action, action_id=action_id, version=version,
                              wait=False)
    if held is None:
        return None, False
    try:
        write = held.write
        try:
            sql, params = statements.held_move_statement(write.game, write.logged, write.columns,
                                                         held_version=held.held_version, token_id=token_id)
            written = await loop_database.execute(sql, params)
            statements.check_held_move_written(write.game, write.logged, written, held_version=held.held_version)
        except (statements.ConcurrentWrite, loop_database.IntegrityError):
            return None, True
        except loop_database.LoopDatabaseError as exc:
            log.warning("game %s: a move's write on the event loop's connection failed (%s); a database thread "
                        "makes it", game_id, exc)
            return None, True
        except Exception:
            log.warning("game %s: a move on the held row failed; it is made on the row read instead", game_id,
                        exc_info=True)
            return None, True
        with on_the_loop_for_a_moment():
            _after_commit_of_held(held, with_the_barrier=False)
        if write.arrivals:
            tell_the_barrier_soon(game_id, list(write.arrivals))
        return held.result, True
    finally:
        release_lock(held.lock, game_id)


@dataclass
class _HeldMove:
    """A move worked out on the row a process holds, under the game's lock (``lock``, taken
    with ``__enter__``), and not yet written: what to answer, what to write, and the version
    the write is guarded on."""

    result: ActionResult
    write: _Write
    held_version: int
    lock: Any


def _work_out_held(*, game_id: int, user, action: dict, action_id: str, version: int,
                   wait: bool, may_finish: bool = False) -> _HeldMove | None:
    """The move on the held row, under the game's lock (without ``wait``, only if it is free
    now), nothing written; None, with the lock released, for a move ``_play_held`` leaves to
    the row read under its lock, and, unless ``may_finish``, for a move that ends the game
    (rated in the transaction that writes it, which needs Django's own)."""
    try:
        lock = game_lock(game_id, wait=wait)
        lock.__enter__()
    except Exception:
        return None
    try:
        snap = _held(game_id)  # again, now that no other move of this process can change it
        if snap is None:
            raise _NotHeld
        game = _row_copy(snap.game)
        game.logged_already, game.token_live = False, True
        try:
            result, write = _play(game, user=user, action=action, action_id=action_id, version=version)
        except Exception:
            raise _NotHeld from None
        if (write is None or ("outcome" in write.columns and not may_finish)
                or len(write.logged) > statements.INSERT_ROWS_AT_MOST):
            raise _NotHeld
        return _HeldMove(result=result, write=write, held_version=snap.version, lock=lock)
    except _NotHeld:
        release_lock(lock, game_id)
        return None
    except BaseException:
        release_lock(lock, game_id)
        raise


class _NotHeld(Exception):
    """The move is not one to make on the held row."""


def _after_commit_of_held(held: _HeldMove, *, with_the_barrier: bool = True) -> None:
    try:
        _after_commit(held.write, committed=True, with_the_barrier=with_the_barrier)
    except Exception:  # the move stands: what follows a commit never undoes it
        log.exception("game %s: the move was committed; what follows its commit failed", held.write.game.pk)


def _row_copy(game: Game) -> Game:
    """A copy of a held row for one move to change, as ``copy.copy`` makes it (its fields, and
    Django's state with a cache of its own) without a round through pickling's hooks."""
    row = Game.__new__(Game)
    row.__dict__.update(game.__dict__)
    row._state = copy.copy(game._state)
    row._state.fields_cache = game._state.fields_cache.copy()
    return row


def _held(game_id: int) -> selectors.GameSnapshot | None:
    """The snapshot of a game in play this process holds, when it holds its state at the same
    version too (``_load_state`` takes it from there)."""
    snap = selectors.SNAPSHOTS.get(game_id)
    if snap is None or snap.game.status != Game.Status.ACTIVE:
        return None
    return snap if STATE_CACHE.get(game_id, snap.version) is not None else None


def _check_submission(*, action: Any, action_id: Any, version: Any) -> None:
    if not isinstance(action_id, str) or not 1 <= len(action_id) <= 64:
        raise BadRequest("action_id must be a string of 1 to 64 characters")
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadRequest(f"version must be an integer, got {version!r}")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest('action must be an object with a "type"')


def _play(game: Game, *, user, action: dict, action_id: str, version: int) -> tuple[ActionResult, _Write | None]:
    """The move itself, on a game whose lock is held: what to answer, and what to write."""
    seat = _seat_of(game, user)
    if game.logged_already:
        _check_resent(game, seat=seat, action=action, action_id=action_id)
        return ActionResult(version=game.version, viewer_version=viewer_version(game, seat), duplicate=True), None
    check_current(game, seat=seat, version=version)
    ruleset = ruleset_of(game.game_type)
    refuse_server_action(ruleset, action)
    state = _load_state(game, ruleset)
    asked_before = ruleset.to_act(state)
    logged: list[ActionRecord] = []
    try:
        state = _apply(game, ruleset, state, seat, action, action_id=action_id, source=ActionRecord.Source.PLAYER,
                       logged=logged)
    except GameError as exc:  # engines name players {p0}, {p1}...: say their names instead
        raise type(exc)(fill_names(str(exc), seat_names(game))) from exc
    arrivals: list[Arrival] = []
    revealed = note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
    state = run_automatic(game, ruleset, state, logged, arrivals)
    write = _prepare_write(game, ruleset, state, logged, arrivals=arrivals)
    return ActionResult(version=game.version, viewer_version=viewer_version(game, seat), revealed=revealed), write


def refuse_server_action(ruleset: Ruleset, action: dict) -> None:
    """Refuse an action of a type only the server plays (``Ruleset.server_actions``: Snowball
    Fighting's ``deadline``, the default it plays when a seat's time runs out) sent by a player."""
    kind = action.get("type")
    if kind in getattr(ruleset, "server_actions", ()):
        raise BadAction(f"{kind!r} is what the server plays for a seat whose time runs out; a player cannot "
                        f"send it (wait for the deadline, or send one of your legal_actions)")


def check_current(game: Game, *, seat: int, version: int) -> None:
    """Refuse a move on a game not in play, or based on a ``version`` ahead of the game or older
    than the seat's current prompt (``stale_version``)."""
    if game.status != Game.Status.ACTIVE:
        raise Conflict("the game is not in play" if game.status == Game.Status.OPEN else "the game is over")
    current = viewer_version(game, seat)
    if version > current:
        raise BadRequest(f"version {version} is ahead of the game (at {current})")
    prompt = _seat_prompts(game).get(str(seat))
    if prompt is None:  # a seat not asked (a shout while ready): nothing it is asked can have changed
        return
    if version < prompt.get("seen_since", prompt.get("since", current)):
        raise StaleVersion(
            f"the game moved on before your move arrived (you saw version {version}, it is at "
            f"{current}); choose again from the current view", current_version=current)


def apply_timeouts(*, game_id: int, now: float | None = None) -> int | None:
    """Answer every overdue prompt with the engine's default; the new version, or None."""
    now = time.time() if now is None else now
    game = Game.objects.filter(pk=game_id).only("status", "prompts").first()
    if game is None or game.status != Game.Status.ACTIVE or not _overdue(game, now):
        return None
    with locked_game(game_id) as game:
        if game.status != Game.Status.ACTIVE:
            return None
        overdue = _overdue(game, now)
        if not overdue:
            return None
        ruleset = ruleset_of(game.game_type)
        state = _load_state(game, ruleset)
        logged: list[ActionRecord] = []
        arrivals: list[Arrival] = []
        for seat in overdue:
            prompt = ruleset.to_act(state).get(seat)
            if prompt is None or prompt.default is None or ruleset.outcome(state) is not None:
                continue
            overdue_prompt = _seat_prompts(game)[str(seat)]
            if not _still_asked(overdue_prompt, prompt, ruleset.legal_actions(state, seat),
                                revealed=_reveals(ruleset, logged)):
                continue  # an earlier default gave this seat a new question, with its own time
            asked_before = ruleset.to_act(state)
            state = _apply(game, ruleset, state, seat, prompt.default,
                           action_id=f"timeout-{game.version}-{seat}", source=ActionRecord.Source.TIMEOUT, logged=logged)
            note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
        state = run_automatic(game, ruleset, state, logged, arrivals)
        save_state(game, ruleset, state, logged, arrivals=arrivals)
        return game.version


def _reveals(ruleset: Ruleset, logged: list[ActionRecord]) -> bool:
    """Whether one of these log entries revealed a round of sealed choices."""
    return any(event["type"] in ruleset.reveal_events for record in logged for event in record.events)


def _still_asked(entry: dict[str, Any], prompt, legal: list[dict], *, revealed: bool) -> bool:
    """Whether ``entry``, a seat's prompt on the game's books, is the question ``prompt`` asks
    now. A sealed choice is one question until its round reveals, however its legal actions
    change as it is revised (a first draft adds "ready"), as ``_prepare_write`` keeps it; any
    other is the same question while its digest is."""
    if entry.get("sealed") and prompt.kind == "sealed" and not revealed:
        return True
    return _asks_the_same(entry["digest"], prompt, legal)


def next_deadline(game: Game) -> float | None:
    """The epoch second of the earliest prompt deadline, for a socket to wake up at."""
    deadlines = [p["deadline"] for p in _seat_prompts(game).values() if p.get("deadline")]
    return min(deadlines) if deadlines else None


def replay(*, game: Game) -> dict[str, Any]:
    """Rebuild the state from the seed and the action log alone."""
    ruleset = ruleset_of(game.game_type)
    state = ruleset.new_game(**game_arguments(game))
    for record in game.actions.order_by("seq"):
        if record.source == ActionRecord.Source.RESIGN:
            if record.action.get("type") != "handover":  # a seat handed over plays on as it is
                state, _ = resigned_state(ruleset, state, record.seat)
        else:
            state, _ = ruleset.apply(state, record.seat, record.action)
    return state


def resigned_state(ruleset: Ruleset, state: dict, seat: int) -> tuple[dict, list[dict]]:
    """The engine's ``resign(state, seat)`` if it has one; otherwise the state goes on as it is."""
    hook = getattr(ruleset, "resign", None)
    if hook is None:
        return state, []
    return hook(state, seat)


def game_arguments(game: Game, seats: list[Seat] | None = None) -> dict[str, Any]:
    """``new_game``'s arguments for this table, with its seats' teams at a team table."""
    teams = leaders = None
    if game.num_teams:
        seats = seats if seats is not None else list(game.seats.all())
        teams = [s.team for s in seats]
        option = getattr(ruleset_of(game.game_type), "team_leader_option", None)
        if option:
            players = [{"seat": s.number, "team": s.team, "empty": s.is_empty, "chosen_leader": s.is_team_leader}
                       for s in seats]
            leaders = {option: tables.team_leaders(players, game.num_teams)}
    return tables.new_game_arguments(players=game.num_seats, options=game.options, seed=game.seed, teams=teams,
                                     leaders=leaders)



def started_players(game: Game) -> list[dict[str, Any]] | None:
    """A started game's seats from this process's snapshot (after the start they change hands only
    when a player resigns, which ``prompts["seats_changed"]`` records)."""
    snap = selectors.SNAPSHOTS.get(game.pk)
    if (snap is None or game.status == Game.Status.OPEN or snap.game.status == Game.Status.OPEN
            or snap.game.started_at != game.started_at
            or snap.game.prompts.get("seats_changed") != game.prompts.get("seats_changed")):
        return None
    return snap.players


def _seat_of(game: Game, user) -> int:
    if user is None or not user.is_authenticated:
        raise NotSeated("spectators cannot act; sign in and take a seat to play")
    players = started_players(game)
    if players is not None:
        seat = next((p["seat"] for p in players if p["user_id"] == user.pk), None)
    else:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    if seat is None:
        raise NotSeated("you are not seated at this game; spectators cannot act")
    if seat in (game.prompts.get("resigned") or ()):
        raise Forbidden("you resigned this game; a computer player has your seat")
    if seat in (game.prompts.get("handed") or ()):
        raise Forbidden("the table handed your seat to a computer player; it stays theirs")
    return seat


def _check_resent(game: Game, *, seat: int, action: dict, action_id: str) -> None:
    """A logged ``action_id`` sent again must carry the same action: a resend is answered as a
    duplicate, another action under a used id is refused (it would never be played)."""
    logged = (ActionRecord.objects.filter(game_id=game.pk, seat=seat, source=ActionRecord.Source.PLAYER,
                                          action_id=action_id).values_list("action", flat=True).first())
    if logged is not None and logged != action:
        raise BadRequest(f"action_id {action_id!r} already names another action of your seat "
                         f"({logged.get('type', '?')!r}, applied); send a new action with a new action_id",
                         field="action_id")


def _load_state(game: Game, ruleset: Ruleset) -> dict[str, Any]:
    cached = STATE_CACHE.get(game.pk, game.version)
    if cached is not None:
        return cached
    if game.state is None:
        raise Conflict("the game has no state yet")
    return game.state


def _apply(game: Game, ruleset: Ruleset, state: dict, seat: int, action: dict, *, action_id: str, source: str,
           logged: list[ActionRecord]) -> dict:
    """Apply one action and add its log entry to ``logged``, this write's list, which
    ``save_state`` writes."""
    new_state, events = ruleset.apply(state, seat, action)
    seen_by = action_seen_only_by(ruleset, state, new_state, seat, action, events)
    if seen_by is not None:
        game.prompts = counted_restricted(game, seen_by)
    game.version += 1
    game.log_length += 1
    record = ActionRecord.logged(game=game, seq=game.log_length, seat=seat, action=action, action_id=action_id,
                                 source=source, events=events, version=game.version)
    record.private = seen_by is not None  # ``_prepare_write``: such an action leaves its seat's question as it was
    logged.append(record)
    return new_state


def run_automatic(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord],
                   arrivals: list[Arrival]) -> dict:
    """Let computer players answer whatever they are asked, until a human must act."""
    players = started_players(game)
    if players is not None:
        bots = {p["seat"] for p in players if p["is_bot"]}
    else:
        bots = set(game.seats.filter(is_bot=True).values_list("number", flat=True))
    for _ in range(MAX_AUTOMATIC_STEPS):
        if not bots or ruleset.outcome(state) is not None:
            break
        asked_before = ruleset.to_act(state)
        asked = [s for s in sorted(asked_before) if s in bots]
        if not asked:
            break
        seat = asked[0]
        action = ruleset.bot_action(state, seat)
        state = _apply(game, ruleset, state, seat, action,
                       action_id=f"bot-{game.version}-{seat}", source=ActionRecord.Source.BOT, logged=logged)
        note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
    return state



@dataclass
class _Write:
    """A move's write, made but not sent: the log entries and the row's changed columns, and
    what this process does once they are committed."""

    game: Game
    logged: list[ActionRecord]
    columns: list[str]
    state: dict[str, Any]
    version: int
    lobby: bool
    arrivals: list[Arrival] = field(default_factory=list)
    asked_anew: dict[int, float | None] = field(default_factory=dict)  # seats asked a new question, with its deadline

    def remember(self) -> None:
        """This process's sockets get the new snapshot from the move, without reading it back."""
        STATE_CACHE.put(self.game.pk, self.version, self.state)
        selectors.note_commit(self.game, self.state, self.logged)

    def broadcast(self) -> None:
        broadcasting.broadcast_version(game_id=self.game.pk, version=self.version, lobby=self.lobby)

    def tell_the_barrier(self) -> None:
        tell_the_barrier(self.game.pk, self.arrivals)


def save_state(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord], *,
                started: bool = False, arrivals: list[Arrival] | None = None) -> None:
    """Write the snapshot, the prompts' deadlines and the result; remember and broadcast after commit."""
    _commit(_prepare_write(game, ruleset, state, logged, started=started, arrivals=arrivals))


def _commit(write: _Write) -> None:
    """Write the move; once committed, remember it, broadcast it and tell the barrier. Those
    run after the commit and are robust: a failure is logged, the move stands (sockets that
    miss the broadcast catch up through games.version_watch)."""
    statements.write_move(write.game, write.logged, write.columns)
    if "outcome" in write.columns:
        ratings.rate_when_finished(game=write.game)
    _after_commit(write)


def _after_commit(write: _Write, *, committed: bool = False, with_the_barrier: bool = True) -> None:
    """Once ``write`` commits (at once outside a transaction, or when told it is ``committed``):
    remember it, broadcast it, tell the barrier (unless the caller does), mail the players it
    asks anew who want to be told. Each step on its own: one that fails is logged and the
    next still runs."""
    if write.asked_anew and write.game.status != Game.Status.FINISHED:
        turn_mail.after_commit(game_id=write.game.pk, pace=write.game.pace, deadlines=write.asked_anew)
    steps = [write.remember, write.broadcast] + ([write.tell_the_barrier] if write.arrivals and with_the_barrier
                                                  else [])
    for step in steps:
        if not committed:
            transaction.on_commit(step, robust=True)
            continue
        try:
            step()
        except Exception:
            log.exception("game %s: %s failed after the move committed", write.game.pk, step.__name__)


def _prepare_write(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord], *,
                   started: bool = False, arrivals: list[Arrival] | None = None) -> _Write:
    """Set the game's snapshot, its prompts' deadlines and its result, and say what to write.

    The lobby hears of the game only when it starts or ends, not on every move.
    """
    now = time.time()
    seats: dict[str, Any] = {}
    outcome = ruleset.outcome(state)
    to_act = ruleset.to_act(state) if outcome is None else {}
    sealed_round, sealed_seats = game.prompts.get("sealed_round"), game.prompts.get("sealed_seats")
    if outcome is not None:
        sealed_round = sealed_seats = None
    old_seats = _seat_prompts(game)
    away = game.prompts.get("away") or {}
    grace = pacing.grace_seconds(game.pace, settings.SNOWBALL_ABSENCE_GRACE)
    asked_anew: list[int] = []
    # a seat that answered is asked a new question, even one worded as the last, with its own
    # time; a sealed choice stays one question, with one deadline, until its round reveals,
    # however often it is revised (a first draft adds "ready" to its legal actions: neither
    # the seat's clock nor what the others see may change with it); once it reveals, the next
    # round's sealed question is a new one for every seat, even worded as the last, so that a
    # move sent for the round before is stale, not played in this one
    # a private action (a setting switched, ``Ruleset.private_action``) answers nothing: its
    # seat's question keeps its time and its start, or the others would see the deadline move
    answered = {record.seat for record in logged if not getattr(record, "private", False)}
    only_private = {record.seat for record in logged} - answered
    revealed = _reveals(ruleset, logged)
    for seat, prompt in to_act.items():
        old = old_seats.get(str(seat))
        sealed = prompt.kind == "sealed"
        if old and sealed and old.get("sealed") and not revealed:
            seats[str(seat)] = old
            continue
        legal = ruleset.legal_actions(state, seat)
        digest = _prompt_digest(prompt, legal)
        if old and seat in only_private and not revealed:
            seats[str(seat)] = {**old, "digest": digest}
        elif (old and _asks_the_same(old["digest"], prompt, legal, digest=digest) and not (sealed and revealed)
              and (seat not in answered or sealed)):
            seats[str(seat)] = old
        else:
            due = pacing.due(game.pace, game.decision_seconds, prompt, now, learn=game.is_learn)
            seats[str(seat)] = {
                "since": game.version,
                "seen_since": viewer_version(game, seat),
                "digest": digest,
                "due": due,
                "has_default": prompt.default is not None,
                "sealed": sealed,
                "deadline": pacing.effective_deadline(due, away.get(str(seat)), grace or 0.0,
                                                      has_default=prompt.default is not None),
            }
            asked_anew.append(seat)
    game.prompts = {**game.prompts, "seats": seats, "sealed_round": sealed_round, "sealed_seats": sealed_seats}
    game.next_deadline = next_deadline(game) if outcome is None else None
    game.state = state
    changed = ["version", "log_length", "prompts", "state", "next_deadline"]
    if started:
        changed += ["status", "started_at"]
    lobby_changed = started or (outcome is not None and game.status != Game.Status.FINISHED)
    if outcome is not None and game.status != Game.Status.FINISHED:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.outcome = outcome
        changed += ["status", "finished_at", "outcome"]
    return _Write(game=game, logged=logged, columns=sorted(set(changed)), state=state, version=game.version,
                  lobby=lobby_changed and game.is_public, arrivals=list(arrivals or ()),
                  asked_anew={s: seats[str(s)]["deadline"] for s in asked_anew} if outcome is None else {})


PROMPT_DIGEST_PREFIX = "o"


def _prompt_digest(prompt, legal: list[dict]) -> str:
    """What a seat is asked, as a digest kept in the game's row (``prompts["seats"]``): equal
    digests, the same question (the seat keeps its time)."""
    question = [prompt.kind, prompt.text, legal]
    try:
        blob = orjson.dumps(question, default=str, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:  # what only the standard library writes (integers past 64 bits)
        blob = json.dumps(question, sort_keys=True, default=str).encode()
    return PROMPT_DIGEST_PREFIX + hashlib.sha1(blob).hexdigest()


def _asks_the_same(stored: str, prompt, legal: list[dict], *, digest: str | None = None) -> bool:
    """Whether ``stored``, a prompt's digest from the game's row, is of this question. A digest
    written before ``_prompt_digest`` used orjson (bare hexadecimal) is compared as it was made."""
    if stored.startswith(PROMPT_DIGEST_PREFIX):
        return stored == (digest if digest is not None else _prompt_digest(prompt, legal))
    blob = json.dumps([prompt.kind, prompt.text, legal], sort_keys=True, default=str)
    return stored == hashlib.sha1(blob.encode()).hexdigest()


def _seat_prompts(game: Game) -> dict[str, Any]:
    """Per seat: the version its current prompt began at, the prompt's digest, its deadline."""
    return game.prompts.get("seats", {})


def _overdue(game: Game, now: float) -> list[int]:
    return sorted(int(seat) for seat, p in _seat_prompts(game).items() if p.get("deadline") and p["deadline"] <= now)
