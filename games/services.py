"""Every write to a game goes through here: lock, load, engine, commit, then broadcast.

Views and consumers only parse and authenticate; they call these functions, which
take keyword-only arguments and raise :mod:`games.errors` (or an engine's GameError)
with a message for the player. Nothing is broadcast before the move is committed.
"""
from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
import os
import secrets
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from psycopg_pool import PoolTimeout

from games import engines, selectors, statements
from games.coordinator import LockTimeout, get_coordinator
from games.engines.base import GameError, Ruleset
from games.errors import BadRequest, Busy, Conflict, Forbidden, NotFound, NotSeated, StaleVersion
from games.models import ActionRecord, Game, Profile, Seat
from games.selectors import fill_names, seat_names
from games.state_cache import STATE_CACHE

log = logging.getLogger(__name__)
User = get_user_model()

MAX_AUTOMATIC_STEPS = 500
LOBBY_GROUP = "lobby"
GAME_BUSY = "the game is busy; try again in a moment"
GAME_CHANGED = "the game changed while your move was being made; please send it again"


def game_group(game_id: int) -> str:
    """The channel-layer group every socket watching this game belongs to."""
    return f"game.{game_id}"


@dataclass(frozen=True)
class ActionResult:
    """What became of a submitted action."""

    version: int
    duplicate: bool = False
    revealed: bool = False


# ---------------------------------------------------------------- accounts


def create_guest(*, display_name: str) -> Any:
    """A user that plays under a display name only; it can register later and keep its games."""
    display_name = _clean_display_name(display_name)
    username = f"guest-{secrets.token_hex(6)}"
    user = User.objects.create_user(username=username)
    user.set_unusable_password()
    user.save(update_fields=["password"])
    Profile.objects.create(user=user, display_name=display_name, is_guest=True)
    return user


def register_user(*, username: str, password: str, display_name: str | None = None, guest=None) -> Any:
    """Create an account, or turn ``guest`` into one so it keeps its games."""
    if User.objects.filter(username__iexact=username).exclude(pk=getattr(guest, "pk", None)).exists():
        raise Conflict(f"the username {username!r} is taken")
    if guest is not None and getattr(guest, "profile", None) and guest.profile.is_guest:
        user = guest
        user.username = username
        user.set_password(password)
        user.save(update_fields=["username", "password"])
        profile = user.profile
        profile.is_guest = False
        if display_name:
            profile.display_name = _clean_display_name(display_name)
        profile.save()
        return user
    user = User.objects.create_user(username=username, password=password)
    Profile.objects.create(user=user, display_name=_clean_display_name(display_name or username))
    return user


def ensure_profile(user) -> Profile:
    """The user's profile, created from its username if missing (e.g. a superuser)."""
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        profile = Profile.objects.create(user=user, display_name=user.get_username()[:40])
    return profile


def _clean_display_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise BadRequest("a display name is required")
    if len(name) > 40:
        raise BadRequest(f"a display name has at most 40 characters, got {len(name)}")
    return name


# ---------------------------------------------------------------- the waiting room


def create_game(*, creator, game_type: str, options: dict[str, Any] | None = None, is_public: bool = True,
                num_seats: int | None = None, take_seat: bool = True) -> Game:
    """Open a new table; the options are checked by the engine before anything is saved."""
    ruleset = _ruleset(game_type)
    options = dict(options or {})
    seats = num_seats or ruleset.min_players
    if not ruleset.min_players <= seats <= ruleset.max_players:
        raise BadRequest(f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} players, got {seats}")
    seed = secrets.randbits(62)
    try:
        ruleset.new_game(players=seats, options=options, seed=seed)
    except GameError as exc:
        raise BadRequest(f"bad options: {exc}") from exc
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type, options=options, seed=seed, num_seats=seats, is_public=is_public,
            invite_code=Game.new_invite_code(), created_by=creator,
        )
        Seat.objects.bulk_create([Seat(game=game, number=n) for n in range(seats)])
        if take_seat:
            Seat.objects.filter(game=game, number=0).update(user=creator)
        _after_commit_broadcast(game.pk, game.version, lobby=game.is_public)
    return game


def join_seat(*, game_id: int, user, number: int | None = None) -> Game:
    """Sit ``user`` in seat ``number`` (or the first empty one) before the game starts."""
    with _locked_game(game_id) as game:
        _require_open(game)
        if game.seats.filter(user=user).exists():
            raise Conflict("you already have a seat at this game")
        seat = _empty_seat(game, number)
        seat.user = user
        try:
            seat.save(update_fields=["user"])
        except IntegrityError as exc:
            raise Conflict("you already have a seat at this game") from exc
        return _bump(game)


def leave_seat(*, game_id: int, user) -> Game:
    """Give up ``user``'s seat before the game starts."""
    with _locked_game(game_id) as game:
        _require_open(game)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotSeated("you have no seat at this game")
        seat.user = None
        seat.save(update_fields=["user"])
        return _bump(game)


def add_bot(*, game_id: int, user, number: int | None = None) -> Game:
    """Put a computer player in an empty seat; only seated players or the creator may."""
    with _locked_game(game_id) as game:
        _require_open(game)
        _require_host_or_seated(game, user)
        seat = _empty_seat(game, number)
        seat.is_bot = True
        seat.save(update_fields=["is_bot"])
        return _bump(game)


def remove_bot(*, game_id: int, user, number: int) -> Game:
    """Take a computer player out of its seat before the start."""
    with _locked_game(game_id) as game:
        _require_open(game)
        _require_host_or_seated(game, user)
        seat = game.seats.filter(number=number, is_bot=True).first()
        if seat is None:
            raise BadRequest(f"seat {number + 1} has no computer player")
        seat.is_bot = False
        seat.save(update_fields=["is_bot"])
        return _bump(game)


def start_game(*, game_id: int, user) -> Game:
    """Deal and begin once every seat is filled; any seated player may start."""
    with _locked_game(game_id) as game:
        _require_open(game)
        if not game.seats.filter(user=user).exists():
            raise NotSeated("only a seated player can start the game")
        empty = [s.number + 1 for s in game.seats.all() if s.is_empty]
        if empty:
            raise Conflict(f"seats {', '.join(map(str, empty))} are still empty")
        ruleset = _ruleset(game.game_type)
        state = ruleset.new_game(players=game.num_seats, options=game.options, seed=game.seed)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        game.version += 1
        logged: list[ActionRecord] = []
        state = _run_automatic(game, ruleset, state, logged, [])
        _save_state(game, ruleset, state, logged, started=True)
        return game


# ---------------------------------------------------------------- play


def submit_action(*, game_id: int, user, action: Any, action_id: str, version: Any) -> ActionResult:
    """Apply one player's action exactly once, if it was based on a current view.

    A resent ``action_id`` is a no-op that reports the current version. An action
    whose ``version`` predates the seat's current prompt is refused as stale.
    """
    _check_submission(action=action, action_id=action_id, version=version)
    with _locked_game(game_id, action_id=action_id, user=user) as game:
        result, write = _play(game, user=user, action=action, action_id=action_id, version=version)
        if write is not None:
            _commit(write)
        return result


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
        return ActionResult(version=game.version, duplicate=True), None
    if game.status != Game.Status.ACTIVE:
        raise Conflict("the game is not in play" if game.status == Game.Status.OPEN else "the game is over")
    if version > game.version:
        raise BadRequest(f"version {version} is ahead of the game (at {game.version})")
    prompt_since = _seat_prompts(game).get(str(seat), {}).get("since", game.version)
    if version < prompt_since:
        raise StaleVersion(
            f"the game moved on before your move arrived (you saw version {version}, it is at "
            f"{game.version}); here is the current view, please choose again", current_version=game.version)
    ruleset = _ruleset(game.game_type)
    state = _load_state(game, ruleset)
    asked_before = ruleset.to_act(state)
    logged: list[ActionRecord] = []
    try:
        state = _apply(game, ruleset, state, seat, action, action_id=action_id, source=ActionRecord.Source.PLAYER,
                       logged=logged)
    except GameError as exc:  # engines name players {p0}, {p1}...: say their names instead
        raise type(exc)(fill_names(str(exc), seat_names(game))) from exc
    arrivals: list[_Arrival] = []
    revealed = _note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
    state = _run_automatic(game, ruleset, state, logged, arrivals)
    write = _prepare_write(game, ruleset, state, logged, arrivals=arrivals)
    return ActionResult(version=game.version, revealed=revealed), write


def apply_timeouts(*, game_id: int, now: float | None = None) -> int | None:
    """Answer every overdue prompt with the engine's default; the new version, or None."""
    now = time.time() if now is None else now
    game = Game.objects.filter(pk=game_id).only("status", "prompts").first()
    if game is None or game.status != Game.Status.ACTIVE or not _overdue(game, now):
        return None
    with _locked_game(game_id) as game:
        if game.status != Game.Status.ACTIVE:
            return None
        overdue = _overdue(game, now)
        if not overdue:
            return None
        ruleset = _ruleset(game.game_type)
        state = _load_state(game, ruleset)
        logged: list[ActionRecord] = []
        arrivals: list[_Arrival] = []
        for seat in overdue:
            prompt = ruleset.to_act(state).get(seat)
            if prompt is None or prompt.default is None or ruleset.outcome(state) is not None:
                continue
            overdue_prompt = _seat_prompts(game)[str(seat)]
            if _prompt_digest(prompt, ruleset.legal_actions(state, seat)) != overdue_prompt["digest"]:
                continue  # an earlier default gave this seat a new question, with its own time
            since = overdue_prompt["since"]
            asked_before = ruleset.to_act(state)
            state = _apply(game, ruleset, state, seat, prompt.default,
                           action_id=f"timeout-{since}-{seat}", source=ActionRecord.Source.TIMEOUT, logged=logged)
            _note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
        state = _run_automatic(game, ruleset, state, logged, arrivals)
        _save_state(game, ruleset, state, logged, arrivals=arrivals)
        return game.version


def next_deadline(game: Game) -> float | None:
    """The epoch second of the earliest prompt deadline, for a socket to wake up at."""
    deadlines = [p["deadline"] for p in _seat_prompts(game).values() if p.get("deadline")]
    return min(deadlines) if deadlines else None


def replay(*, game: Game) -> dict[str, Any]:
    """Rebuild the state from the seed and the action log alone."""
    ruleset = _ruleset(game.game_type)
    state = ruleset.new_game(players=game.num_seats, options=game.options, seed=game.seed)
    for record in game.actions.order_by("seq"):
        state, _ = ruleset.apply(state, record.seat, record.action)
    return state


# ---------------------------------------------------------------- internals


@contextmanager
def _locked_game(game_id: int, *, action_id: str | None = None, user=None) -> Iterator[Game]:
    """The game's coordinator lock, then a transaction and its row (for update) to work on.

    With ``action_id`` and ``user``, the same query says whether that user's seat has
    already logged that action (``game.logged_already``).

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
                game = statements.read_game(game_id, action_id=action_id, user=user)
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


def _ruleset(game_type: str) -> Ruleset:
    try:
        return engines.get(game_type)
    except KeyError as exc:
        raise BadRequest(str(exc.args[0])) from exc


def _require_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict("the game has already started" if game.status == Game.Status.ACTIVE else "the game is over")


def _require_host_or_seated(game: Game, user) -> None:
    if game.created_by_id != user.pk and not game.seats.filter(user=user).exists():
        raise Forbidden("only the game's creator or a seated player can do that")


def _empty_seat(game: Game, number: int | None) -> Seat:
    seats = list(game.seats.select_for_update())
    if number is None:
        for seat in seats:
            if seat.is_empty:
                return seat
        raise Conflict("every seat is taken")
    if not isinstance(number, int) or not 0 <= number < len(seats):
        raise BadRequest(f"seat must be 0 to {len(seats) - 1}, got {number!r}")
    seat = seats[number]
    if not seat.is_empty:
        raise Conflict(f"seat {number + 1} is taken")
    return seat


def _started_players(game: Game) -> list[dict[str, Any]] | None:
    """A started game's seats from this process's snapshot (they cannot change after the start)."""
    snap = selectors.SNAPSHOTS.get(game.pk)
    if (snap is None or game.status == Game.Status.OPEN or snap.game.status == Game.Status.OPEN
            or snap.game.started_at != game.started_at):
        return None
    return snap.players


def _seat_of(game: Game, user) -> int:
    if user is None or not user.is_authenticated:
        raise NotSeated("spectators cannot act; sign in and take a seat to play")
    players = _started_players(game)
    if players is not None:
        seat = next((p["seat"] for p in players if p["user_id"] == user.pk), None)
    else:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    if seat is None:
        raise NotSeated("you are not seated at this game; spectators cannot act")
    return seat


def _bump(game: Game) -> Game:
    game.version += 1
    game.save(update_fields=["version"])
    _after_commit_broadcast(game.pk, game.version, lobby=game.is_public)
    return game


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
    ``_save_state`` writes."""
    new_state, events = ruleset.apply(state, seat, action)
    game.version += 1
    game.log_length += 1
    logged.append(ActionRecord(game=game, seq=game.log_length, seat=seat, action=action, action_id=action_id,
                               source=source, events=events, version=game.version))
    return new_state


def _run_automatic(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord],
                   arrivals: list[_Arrival]) -> dict:
    """Let computer players answer whatever they are asked, until a human must act."""
    players = _started_players(game)
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
        _note_sealed_lock(game, ruleset, state, seat, asked_before, logged[-1].events, arrivals)
    return state


@dataclass(frozen=True)
class _Arrival:
    """A seat's lock of its sealed choice, to be told to the reveal barrier once committed."""

    key: str
    seat: int
    expected: frozenset[int]
    revealed: bool


def _note_sealed_lock(game: Game, ruleset: Ruleset, state: dict, seat: int, asked_before: dict[int, Any],
                      events: list[dict[str, Any]], arrivals: list[_Arrival]) -> bool:
    """Keep the open sealed round in ``game.prompts`` (written with the move), add a seat's
    lock to ``arrivals``; True when the engine revealed.

    A round opens with its first lock and waits for every seat that was being asked anything
    then (a seat still re-rolling is part of it); a seat has locked when it is no longer asked
    or the engine revealed. The round's key (the version of its first lock) and its seats are
    kept with the game's prompts, so every worker agrees on them; the round closes whenever
    the engine reveals (and when the game ends, ``_prepare_write``).
    """
    engine_revealed = any(event["type"] in ruleset.reveal_events for event in events)
    open_round = game.prompts.get("sealed_round")
    sealed_step = open_round or engine_revealed or any(p.kind == "sealed" for p in asked_before.values())
    locked = seat in asked_before and (engine_revealed or seat not in ruleset.to_act(state))
    if sealed_step and locked:
        if not open_round:
            game.prompts = {**game.prompts, "sealed_round": game.version, "sealed_seats": sorted(asked_before)}
        expected = frozenset(game.prompts.get("sealed_seats") or asked_before) | {seat}
        arrivals.append(_Arrival(key=f"sealed-{game.prompts['sealed_round']}", seat=seat, expected=expected,
                                 revealed=engine_revealed))
    if engine_revealed:
        game.prompts = {**game.prompts, "sealed_round": None, "sealed_seats": None}
    return engine_revealed


def _tell_the_barrier(game_id: int, arrivals: list[_Arrival]) -> None:
    """After the commit: record each committed lock at the reveal barrier.

    The engine decides when a round reveals; the barrier is the coordinator's shared record
    of which seats locked in which round, which every worker can read. Its answer is checked
    against the engine's, and a disagreement is logged (it would mean two workers wrote one
    round).
    """
    coordinator = get_coordinator()
    for arrival in arrivals:
        completed = coordinator.barrier_arrive(game_id, arrival.key, arrival.seat, arrival.expected)
        if completed != arrival.revealed:
            log.warning("game %s: barrier %s says %s but the engine says %s", game_id, arrival.key, completed,
                        arrival.revealed)


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
    arrivals: list[_Arrival] = field(default_factory=list)

    def remember(self) -> None:
        """This process's sockets get the new snapshot from the move, without reading it back."""
        STATE_CACHE.put(self.game.pk, self.version, self.state)
        selectors.note_commit(self.game, self.state, self.logged)

    def broadcast(self) -> None:
        broadcast_version(game_id=self.game.pk, version=self.version, lobby=self.lobby)

    def tell_the_barrier(self) -> None:
        _tell_the_barrier(self.game.pk, self.arrivals)


def _save_state(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord], *,
                started: bool = False, arrivals: list[_Arrival] | None = None) -> None:
    """Write the snapshot, the prompts' deadlines and the result; remember and broadcast after commit."""
    _commit(_prepare_write(game, ruleset, state, logged, started=started, arrivals=arrivals))


def _commit(write: _Write) -> None:
    """Write the move; once committed, remember it, broadcast it and tell the barrier. Those
    run after the commit and are robust: a failure is logged, the move stands (sockets that
    miss the broadcast catch up through games.version_watch)."""
    statements.write_move(write.game, write.logged, write.columns)
    transaction.on_commit(write.remember, robust=True)
    transaction.on_commit(write.broadcast, robust=True)
    if write.arrivals:
        transaction.on_commit(write.tell_the_barrier, robust=True)


def _prepare_write(game: Game, ruleset: Ruleset, state: dict, logged: list[ActionRecord], *,
                   started: bool = False, arrivals: list[_Arrival] | None = None) -> _Write:
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
    for seat, prompt in to_act.items():
        digest = _prompt_digest(prompt, ruleset.legal_actions(state, seat))
        old = old_seats.get(str(seat))
        if old and old["digest"] == digest:
            seats[str(seat)] = old
        else:
            seats[str(seat)] = {
                "since": game.version,
                "digest": digest,
                "deadline": now + prompt.timeout if prompt.timeout else None,
            }
    game.prompts = {"seats": seats, "sealed_round": sealed_round, "sealed_seats": sealed_seats}
    game.state = state
    changed = ["version", "log_length", "prompts", "state"]
    if started:
        changed += ["status", "started_at"]
    lobby_changed = started or (outcome is not None and game.status != Game.Status.FINISHED)
    if outcome is not None and game.status != Game.Status.FINISHED:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.outcome = outcome
        changed += ["status", "finished_at", "outcome"]
    return _Write(game=game, logged=logged, columns=sorted(set(changed)), state=state, version=game.version,
                  lobby=lobby_changed and game.is_public, arrivals=list(arrivals or ()))


def _prompt_digest(prompt, legal: list[dict]) -> str:
    blob = json.dumps([prompt.kind, prompt.text, legal], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()


def _seat_prompts(game: Game) -> dict[str, Any]:
    """Per seat: the version its current prompt began at, the prompt's digest, its deadline."""
    return game.prompts.get("seats", {})


def _overdue(game: Game, now: float) -> list[int]:
    return sorted(int(seat) for seat, p in _seat_prompts(game).items() if p.get("deadline") and p["deadline"] <= now)


def _after_commit_broadcast(game_id: int, version: int, *, lobby: bool) -> None:
    transaction.on_commit(lambda: broadcast_version(game_id=game_id, version=version, lobby=lobby), robust=True)


def broadcast_version(*, game_id: int, version: int, lobby: bool = False) -> None:
    """Tell every socket of the game that ``version`` exists (and the lobby that it changed).

    Runs after the commit. On a thread called from an event loop (a socket's database thread,
    an HTTP view) it is handed to that loop, without waiting for it to be sent, so the thread
    goes on; on an event loop it is started as a task of that loop; elsewhere (tests,
    management commands) it is sent before this returns.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    messages = [(game_group(game_id), {"type": "game.changed", "version": version})]
    if lobby:
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    if _on_an_event_loop():
        _start_background(_group_send_all(layer, messages))
        return
    loop = _serving_event_loop()
    if loop is None:
        async_to_sync(_group_send_all)(layer, messages)
    else:
        loop.call_soon_threadsafe(_start_background, _group_send_all(layer, messages))


async def _group_send_all(layer, messages: list[tuple[str, dict[str, Any]]]) -> None:
    try:
        for group, message in messages:
            await layer.group_send(group, message)
    except Exception:  # the version rule makes a lost ping harmless; the data is committed
        log.exception("broadcast %s failed", messages)


_BACKGROUND: set[asyncio.Task] = set()


def _start_background(coroutine) -> None:
    """Run ``coroutine`` as a task of its own, in an empty context: a broadcast started from a
    database thread must not inherit that call's context, in which asgiref marks the one
    database thread as busy (consumers it hands messages to may need that thread)."""
    task = asyncio.get_running_loop().create_task(coroutine, context=contextvars.Context())
    _BACKGROUND.add(task)  # the loop keeps only weak references to its tasks
    task.add_done_callback(_BACKGROUND.discard)


def _on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _serving_event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called this thread through ``sync_to_async``, if it still runs."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop
