"""Websockets: thin consumers that parse, authenticate, call the service and send views.

Two flavours share one base: ``GameHtmlConsumer`` speaks to the htmx page and sends
server-rendered HTML; ``GameApiConsumer`` speaks JSON to bots and scripts (see
docs/api.md). Both receive the same frames and send the same per-viewer views.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import Counter
from typing import Any
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils.functional import LazyObject, empty

from games import inputs, jsontext, rendering, selectors, services, version_watch
from games.auth import token_for_key, token_from_header, token_group, token_is_live
from games.calls import coordinator_call, db_call, loop_awaits_writes, loop_may_write, on_the_loop
from games.channel_layers import Inbox
from games.coordinator import Presence, get_coordinator
from games.engines.base import GameError
from games.errors import NotFound, ServiceError, StaleVersion, TokenRevoked
from games.models import Game
from games.presence import keep_alive, note_absence_later, stop_keeping_alive
from games.selectors import chat
from games.services.locking import WriterTaken, sqlite_writer_free

log = logging.getLogger(__name__)

CLOSE_BAD_TOKEN = 4001
CLOSE_NOT_FOUND = 4004
CLOSE_TOO_FAST = 4008
CLOSE_TOO_MANY_SOCKETS = 4029
# A server's close code is 1000 or from 3000-4999: daphne's websocket library (autobahn) raises on any
# other, so "try again later" is 4013, not the protocol's 1013.
CLOSE_TRY_AGAIN_LATER = 4013

TALK_ANSWER_WAIT_SECONDS = 30.0
TIMER_RETRY_SECONDS = 1.0
TIMER_RETRY_MAX_SECONDS = 30.0
LOOP_MOVE_TRIES = 20


def _said(exc: BaseException) -> str:
    """An exception in one line, for a log line that says what degraded without a traceback."""
    return f"{type(exc).__name__}: {exc}"


class TokenBucket:
    """Allows ``rate`` frames a second with bursts of ``burst``."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


OPEN_SOCKETS: Counter[str] = Counter()


class FloodCooldown:
    """Who was closed for flooding (4008), until when: their next sockets are closed at once.

    A flooder that connects again as soon as it is closed made every new socket pay the whole
    connect (token, access, presence, the first view) and every closed one the whole
    disconnect, some 15 database and Redis calls each, over and over. Keyed by what the
    socket presented: its API token, else its session, else its client address. A ban lasts
    the cooldown, twice as long as the last one when it comes before the last one's length
    has passed again since it ended, up to ``MAX_DOUBLINGS`` doublings. A socket that comes
    during a ban starts it again (``knock``): a client that keeps knocking stays out, and
    one that waits the ban out is let in.
    """

    MAX_DOUBLINGS = 5

    def __init__(self) -> None:
        self.bans: dict[str, tuple[float, float]] = {}  # who -> (barred until, for how long)

    def bar(self, who: str, now: float, seconds: float) -> None:
        if len(self.bans) >= 10_000:
            self.bans = {k: (until, length) for k, (until, length) in self.bans.items() if now < until + length}
        until, length = self.bans.get(who, (0.0, 0.0))
        if now < until + length:
            seconds = min(2 * length, seconds * 2**self.MAX_DOUBLINGS)
        self.bans[who] = (now + seconds, seconds)

    def barred(self, who: str, now: float) -> bool:
        ban = self.bans.get(who)
        return ban is not None and now < ban[0]

    def knock(self, who: str, now: float) -> bool:
        """Whether a new socket of ``who`` is barred now; if it is, its ban starts again."""
        if not self.barred(who, now):
            return False
        length = self.bans[who][1]
        self.bans[who] = (now + length, length)
        return True


FLOOD_COOLDOWN = FloodCooldown()


def who_connects(scope: dict[str, Any]) -> str:
    """What a socket presented: its API token (header or query), else its session, else its address.
    A token is named by its key as the socket's authentication reads it, however the header
    writes it ("Token", "Bearer", any case, any spaces), so one token is one flooder."""
    cookie = b""
    header: str | None = None
    for name, value in scope.get("headers", []):
        if name == b"authorization" and header is None:
            header = value.decode("latin1")
        elif name == b"cookie":
            cookie = value
    if header is not None:
        key = token_from_header(header)
        return "token:" + _hashed(f"key {key}" if key is not None else f"header {header}")
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    if query.get("token"):
        return "token:" + _hashed(f"key {query['token'][0]}")
    session = parse_cookie(cookie.decode("latin1")).get(settings.SESSION_COOKIE_NAME) if cookie else None
    if session:
        return "session:" + _hashed(session)
    return "address:" + client_address(scope)


def _hashed(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=16).hexdigest()


def refuse_flooders(application):
    """Sockets of someone closed for flooding are accepted and closed with 4008 here, before
    the session, the user and the consumer are looked up (``FloodCooldown``)."""

    async def app(scope, receive, send):
        who = who_connects(scope) if scope["type"] == "websocket" else ""
        if who and FLOOD_COOLDOWN.knock(who, ArrivalControlMixin.clock()):
            told = None
            if scope.get("path", "").startswith("/ws/api/"):  # the page's socket reads HTML, not error frames
                told = {"type": "error", "code": "too_fast", "version": 0, "message": (
                    f"closed for sending too many messages a moment ago: wait {FLOOD_COOLDOWN.bans[who][1]:g} s "
                    f"without connecting, then connect (each socket opened before then starts the wait again)")}
            await ArrivalControlMixin._accept_and_close(receive, send, CLOSE_TOO_FAST, told=told)
            return
        await application(scope, receive, send)

    return app


def client_address(scope: dict[str, Any]) -> str:
    """Who opened a socket: the peer's address, or, when ``SNOWBALL_TRUST_X_FORWARDED_FOR`` says a
    proxy in front of us appends it, the last address of ``X-Forwarded-For``."""
    if settings.SNOWBALL_TRUST_X_FORWARDED_FOR:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                last = value.decode("latin1").rsplit(",", 1)[-1].strip()
                if last:
                    return last
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class ArrivalControlMixin:
    """Counts a socket's frames as they arrive, not as they are handled, and handles everything
    a consumer gets from one queue (its inbox).

    A task reads the ASGI messages eagerly and applies the token bucket to each frame on
    arrival; the frames it lets through wait for the handler in the inbox, at most a burst of
    them at a time. A socket that keeps sending after its refusals, or has a burst waiting
    already, is closed with 4008 at once, however slowly its frames are handled; for
    ``SNOWBALL_FLOOD_COOLDOWN_SECONDS`` after that, a socket with the same token (or session,
    or address) is accepted and closed with 4008 before any other work (``refuse_flooders``,
    around every socket route). A client address may hold at most
    ``SNOWBALL_MAX_SOCKETS_PER_CLIENT`` sockets in this process; one more is accepted and
    closed with 4029.

    The channel layer puts the consumer's messages in the same inbox (``attach_inbox``,
    games/channel_layers.py), so the consumer handles its frames and its groups' messages one
    at a time, in the order they came, without Channels' ``await_many_dispatch``: that waits
    on both sources with ``asyncio.wait`` and starts a task for every message it takes, which
    cost more than the rest of handing a message over (docs/where-code-runs.md).
    """

    clock = staticmethod(time.monotonic)
    socket_gone = False
    flood_closing = False
    frames_waiting = 0  # the client's frames in the inbox, not yet handled

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        """Send, unless the client is gone: a reply that races the socket's end is dropped."""
        if self.socket_gone:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            self.socket_gone = True

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        if self.socket_gone:
            return
        try:
            await super().close(code=code, reason=reason)
        except Disconnected:
            pass
        self.socket_gone = True

    async def __call__(self, scope, receive, send) -> None:
        self.flooder_key = who_connects(scope)
        address = client_address(scope)
        if OPEN_SOCKETS[address] >= settings.SNOWBALL_MAX_SOCKETS_PER_CLIENT:
            await self._accept_and_close(receive, send, CLOSE_TOO_MANY_SOCKETS)
            return
        OPEN_SOCKETS[address] += 1
        inbox = Inbox()
        reader = asyncio.create_task(self._read_arrivals(receive, inbox))
        try:
            await self._serve(scope, send, inbox)
        finally:
            reader.cancel()
            OPEN_SOCKETS[address] -= 1
            if OPEN_SOCKETS[address] <= 0:
                del OPEN_SOCKETS[address]

    async def _serve(self, scope, send, inbox: Inbox) -> None:
        """Channels' ``AsyncConsumer.__call__``, with the layer's messages and the client's frames
        in one inbox: the layer is one of games/channel_layers.py's, which fill it themselves."""
        self.scope = scope
        self.base_send = send
        layer = self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await layer.new_channel()
        layer.attach_inbox(self.channel_name, inbox)
        try:
            while True:
                message = await inbox.get()
                if message["type"] == "websocket.receive":
                    self.frames_waiting -= 1
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            layer.detach_inbox(self.channel_name)

    @staticmethod
    async def _accept_and_close(receive, send, code: int, told: dict[str, Any] | None = None) -> None:
        """Accept, send the frame ``told`` if any, then close with ``code``: a refusal at the
        handshake would show only HTTP 403."""
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            if told is not None:
                await send({"type": "websocket.send", "text": jsontext.dumps(told)})
            await send({"type": "websocket.close", "code": code})

    async def _read_arrivals(self, receive, inbox: Inbox) -> None:
        try:
            await self._admit_arrivals(receive, inbox)
        except Exception:
            log.exception("socket %s: reading its frames failed; it is closed", getattr(self, "channel_name", "?"))
            inbox.put_nowait({"type": "websocket.disconnect", "code": 1011})

    async def _admit_arrivals(self, receive, inbox: Inbox) -> None:
        bucket = TokenBucket(settings.SNOWBALL_SOCKET_RATE, settings.SNOWBALL_SOCKET_BURST, clock=self.clock)
        strikes, flooded = 0, False
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                inbox.put_nowait(message)
                if message["type"] == "websocket.disconnect":
                    return
                continue
            if flooded:
                continue
            if bucket.take():
                if self.frames_waiting < settings.SNOWBALL_SOCKET_BURST:
                    self.frames_waiting += 1
                    inbox.put_nowait(message)
                    continue
                flooded = True
            else:
                strikes += 1
                flooded = strikes >= settings.SNOWBALL_SOCKET_STRIKES
                if not flooded:
                    await self.send_error("too_fast", f"too many messages (at most {settings.SNOWBALL_SOCKET_RATE:g} a "
                                          "second); this one was dropped unread: wait a moment and send it again (an "
                                          "action with the same action_id, so that it is applied once)")
                    continue
            await self._close_the_flood(inbox)

    async def answer_before_closing(self) -> None:
        """Wait until the frame being handled, if it must be, is answered (nothing here)."""

    async def _close_the_flood(self, inbox: Inbox) -> None:
        """Drop what is still waiting, close with 4008, bar who sent the frames for a while, and
        let the consumer end."""
        self.flood_closing = True
        while not inbox.empty():
            inbox.get_nowait()
        self.frames_waiting = 0
        FLOOD_COOLDOWN.bar(self.flooder_key, self.clock(), settings.SNOWBALL_FLOOD_COOLDOWN_SECONDS)
        await self.answer_before_closing()
        await self.send_error("too_fast", "too many messages; the connection is closed")
        await self.close(code=CLOSE_TOO_FAST)
        inbox.put_nowait({"type": "websocket.disconnect", "code": CLOSE_TOO_FAST})


def error_details(exc: Exception) -> dict[str, Any]:
    """What a refusal carries beside its code and message, as the HTTP API adds it to its error
    (a ``stale_version``'s ``current_version``, the ``seat`` an error is about): its plain values."""
    details = getattr(exc, "details", None) or {}
    return {k: v for k, v in details.items()
            if k not in ERROR_FRAME_KEYS and isinstance(v, (str, int, float, bool))}


ERROR_FRAME_KEYS = frozenset({"type", "code", "message", "version", "action_id", "about"})


def _resolved(user):
    """The user itself, not Channels' lazy stand-in for it (resolved before the consumer runs):
    every attribute read through the stand-in costs a call, and a socket reads them on
    every version it is sent."""
    if isinstance(user, LazyObject) and user._wrapped is not empty:
        return user._wrapped
    return user


class DispatchWithoutDatabaseHop:
    """Channels' dispatch without its per-message hop to Channels' database thread.

    ``AsyncConsumer.dispatch`` awaits ``aclose_old_connections`` (a call on Channels' one
    database thread) before every message a socket gets; that hop costs more CPU than the
    rest of a delivery (docs/where-code-runs.md). These consumers touch the database only
    through ``db_call``, which gives its connection back itself, so the hop has nothing to do.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)


class BaseGameConsumer(ArrivalControlMixin, DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    """One viewer's live connection to one game."""

    game_id: int
    seat: int | None
    present_as: int | None = None  # the seat counted in presence: held, even once a computer player has it
    sent_version: int = 0  # the viewer's version of the newest view sent: what this socket's frames report
    known_version: int = 0  # the newest version handled, sent or unchanged for this viewer
    sent_digest: tuple[int, ...] | None = None  # what the last view sent showed (selectors.view_digest)
    timer_deadline: float | None = None
    timer_wakeup: asyncio.TimerHandle | None = None  # the loop's call at the deadline, until it comes
    token_id: int | None = None
    page_frames = False
    chat_talk: chat.Talk | None = None
    chat_players: list[dict[str, Any]] | None = None  # the snapshot's players chat_talk was worked out from
    chat_inputs: tuple | None = None
    opened_talk: tuple[selectors.GameSnapshot, chat.Talk, dict[str, list[dict[str, Any]]]] | None = None
    chat_cursor: int = 0
    talk_answered: asyncio.Event | None = None

    async def connect(self) -> None:
        self.timer: asyncio.Task | None = None
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        query = self._query()
        try:
            self.user = _resolved(await self.authenticate(query))
        except inputs.InputError as exc:
            message = str(exc) if exc.field == "Authorization" else "the API token is unknown or revoked"
            await self._refuse("bad_token", message, CLOSE_BAD_TOKEN)
            return
        if not inputs.is_valid(inputs.GAME_ID, self.game_id):
            await self._refuse("not_found", f"there is no game {self.game_id}", CLOSE_NOT_FOUND)
            return
        invite = query.get("invite")
        access, first = await db_call(self._open)(invite if inputs.is_valid(inputs.INVITE_CODE, invite) else None)
        if access != "ok":  # a private game without its invite is answered as one that does not exist
            await self._refuse("not_found", f"there is no game {self.game_id}, or it is private and the query "
                               "has no valid invite", CLOSE_NOT_FOUND)
            return
        group = services.game_group(self.game_id)
        try:
            if self.token_id is not None:
                await self.channel_layer.group_add(token_group(self.token_id), self.channel_name)
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as exc:
            log.warning("game %s: a socket was refused with %s, its game's broadcasts unreachable (%s)",
                        self.game_id, CLOSE_TRY_AGAIN_LATER, _said(exc))
            await self._leave_groups(group)
            await self._refuse("unavailable", "the server cannot reach its message broker just now; "
                               "connect again in a moment", CLOSE_TRY_AGAIN_LATER)
            return
        self.group = group
        await self.accept()
        await self.be_seen()
        await self.send_current(first=first)
        keep_alive(self.game_id, self.channel_name, rejoin=self.be_seen)
        version_watch.watch(self.game_id, self.channel_name, self.channel_layer, lambda: self.known_version)

    async def disconnect(self, code: int) -> None:
        self._cancel_timer()
        if not hasattr(self, "group"):
            return
        stop_keeping_alive(self.game_id, self.channel_name)
        version_watch.unwatch(self.game_id, self.channel_name)
        await self._leave_groups(self.group)
        try:
            await coordinator_call(get_coordinator().leave)(self.game_id, self.channel_name)
        except Exception as exc:  # its presence entry expires by itself
            log.warning("game %s: a closed socket's presence was left to expire (%s)", self.game_id, _said(exc))
        presence = await self.announce_presence()
        if presence is not None and self.seat is not None and self.seat not in presence.seats_connected:
            note_absence_later(self.game_id, self.seat)

    async def _leave_groups(self, group: str) -> None:
        """Leave the game's (and the token's) group; a layer that fails is logged in one line."""
        groups = [group] if self.token_id is None else [token_group(self.token_id), group]
        for name in groups:
            try:
                await self.channel_layer.group_discard(name, self.channel_name)
            except Exception as exc:
                log.warning("game %s: a socket could not leave group %s (%s)", self.game_id, name, _said(exc))

    async def authenticate(self, query: dict[str, str]):
        """The user this socket acts for; raises ``InputError`` for a token that opens nothing."""
        return self.scope.get("user")

    def _query(self, *, blank: bool = False) -> dict[str, str]:
        """The handshake's query parameters, the first value of each (``blank``: empty ones too)."""
        text = self.scope.get("query_string", b"").decode("latin1")
        return {name: values[0] for name, values in parse_qs(text, keep_blank_values=blank).items()}

    async def _refuse(self, code: str, message: str, close_code: int) -> None:
        """Accept, say why in an error frame, and close with ``close_code``, so a client can tell
        a game it may not open (4004) from a bad token (4001) and the rest."""
        await self.accept()
        await self.send_error(code, message)
        await self.close(code=close_code)

    async def token_revoked(self, message: dict[str, Any]) -> None:
        """This socket's token was revoked on the tokens page: it may act no more."""
        await self.send_error("token_revoked", "the API token of this connection was revoked")
        await self.close(code=CLOSE_BAD_TOKEN)

    def _open(self, invite: str | None) -> tuple[str, selectors.GameSnapshot | None]:
        """Whether this socket may watch the game ("ok", "missing", "forbidden"), its seat, and
        the game's snapshot for its first view, from one read of the game's row, or of its
        version alone when this process holds the game's snapshot at that version."""
        first = selectors.held_if_current(self.game_id)
        if first is not None:
            if not first.watchable_by(self.user, invite):
                return "forbidden", None
            self.seat, self.present_as = first.seat_of(self.user), first.seat_held_by(self.user)
        else:
            try:
                game = selectors.get_game(self.game_id, with_state=False)
            except NotFound:
                return "missing", None
            if not selectors.can_watch(game, self.user, invite):
                return "forbidden", None
            self.seat, self.present_as = selectors.seat_played_and_held(game, self.user)
            first = selectors.snapshot_of(game)
        self._first_talk(first)
        return "ok", first

    def _user_key(self) -> str:
        return f"user:{self.user.pk}" if self.user is not None and self.user.is_authenticated else f"anon:{self.channel_name}"

    # ------------------------------------------------------------ from the client

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One frame that passed the arrival check: parsed against its declared shape, then handled."""
        size = len(text_data.encode("utf-8", "surrogatepass")) if text_data is not None else len(bytes_data or b"")
        if size > settings.SNOWBALL_MAX_FRAME_BYTES:
            await self.send_error("frame_too_large", f"a frame may be at most {settings.SNOWBALL_MAX_FRAME_BYTES} bytes; this one was {size}",
                                  about=inputs.talk_frame_type(text_data if text_data is not None else bytes_data or b""))
            return
        if text_data is None:
            await self.send_error("malformed", "frames must be JSON text, not binary", about=inputs.talk_frame_type(bytes_data or b""))
            return
        try:
            frame = inputs.frame(text_data, page=self.page_frames)
        except inputs.InputError as exc:
            await self.send_error(exc.code, exc.message, action_id=exc.action_id, about=exc.about)
            return
        kind = frame["type"]
        if kind == "action":
            await self.handle_action(frame)  # checks the token in the move's own database call
        elif kind in inputs.TALK_FRAME_TYPES:
            await self.handle_talk(frame)
        elif kind == "refresh":
            await self.send_current(force=True)
        else:
            await self.send_json({"type": "pong", "version": self.sent_version})

    async def handle_action(self, frame: dict[str, Any]) -> None:
        """Answer the action frame exactly once: an ack of what was committed, or an error.

        The service reports nothing that happens after its commit as a failure; an unexpected
        failure before it is answered ``server_error`` (nothing was saved; the same frame may
        be sent again). The socket stays open either way.
        """
        action_id = frame.get("action_id")
        if self.seat is None and (self.chat_talk is None or not self.chat_talk.left):  # a former player is told why
            await self.send_error("not_seated", "spectators cannot act; this connection is read-only", action_id=action_id)
            return
        try:
            tried_here = loop_may_write()
            result = await self._move_on_the_loop(frame) if tried_here else None
            if result is None and not tried_here and loop_awaits_writes():
                result, tried_here = await services.submit_held_action_awaited(
                    game_id=self.game_id, user=self.user, action=frame.get("action"),
                    action_id=frame.get("action_id"), version=frame.get("version"), token_id=self.token_id)
            if result is None:
                result = await db_call(self._submit)(frame, try_held=not tried_here)
        except TokenRevoked:
            await self.token_revoked({})
            return
        except StaleVersion as exc:
            await self.send_error(exc.code, exc.message, action_id=action_id, **error_details(exc))
            await self.send_current(force=True)
            return
        except (ServiceError, GameError) as exc:
            await self.send_error(getattr(exc, "code", "error"), getattr(exc, "message", str(exc)), action_id=action_id,
                                  **error_details(exc))
            return
        except Exception:
            log.exception("game %s: an action of seat %s failed", self.game_id, self.seat)
            await self.send_error("server_error", "the server failed before your action was saved; send it again "
                                  "with the same action_id", action_id=action_id)
            return
        await self.on_ack(action_id, result)
        try:
            await self.send_current(version=result.version, even_if_unchanged=True)
        except Exception:  # the ack is sent; the version watch brings the view
            log.exception("game %s: the view after version %s could not be sent", self.game_id, result.version)

    async def _move_on_the_loop(self, frame: dict[str, Any]) -> services.ActionResult | None:
        """The move made on the event loop (``_submit_held``), once no database thread of this
        process is writing, however often one takes the turn first; None (after
        ``LOOP_MOVE_TRIES`` turns taken, or for any other reason) leaves it to a thread."""
        for _ in range(LOOP_MOVE_TRIES):
            await sqlite_writer_free()
            try:
                return self._submit_held(frame)
            except WriterTaken:
                continue
        return None

    @on_the_loop
    def _submit_held(self, frame: dict[str, Any]) -> services.ActionResult | None:
        """On the event loop: the move on the game this process holds, if it needs no wait."""
        return services.submit_held_action(game_id=self.game_id, user=self.user, action=frame.get("action"),
                                           action_id=frame.get("action_id"), version=frame.get("version"),
                                           token_id=self.token_id)

    def _submit(self, frame: dict[str, Any], *, try_held: bool = True) -> services.ActionResult:
        """On a database thread: the move, refused if the socket's token was revoked (checked
        in the move's own read)."""
        return services.submit_action(game_id=self.game_id, user=self.user, action=frame.get("action"),
                                      action_id=frame.get("action_id"), version=frame.get("version"),
                                      token_id=self.token_id, try_held=try_held)

    async def on_ack(self, action_id: str, result: services.ActionResult) -> None:
        pass

    async def handle_talk(self, frame: dict[str, Any]) -> None:
        """Answer a chat or chat_publish frame exactly once: its ack, or an error that says why
        nothing was stored. A posted message then reaches this socket like any other."""
        if self.flood_closing:  # not begun before the flood's close: dropped, nothing stored
            return
        self.talk_answered = asyncio.Event()
        try:
            if self.token_id is not None and not await db_call(token_is_live)(self.token_id):
                await self.token_revoked({})
                return
            await self._handle_talk(frame)
        finally:
            self.talk_answered.set()

    async def answer_before_closing(self) -> None:
        """A chat frame being handled when a flood closes the socket may be stored: its answer
        goes out before the close (a message is never stored without its ack)."""
        if self.talk_answered is not None and not self.talk_answered.is_set():
            try:
                await asyncio.wait_for(self.talk_answered.wait(), timeout=TALK_ANSWER_WAIT_SECONDS)
            except asyncio.TimeoutError:
                log.warning("game %s: a chat frame was still being handled when its flooding socket closed", self.game_id)

    async def _handle_talk(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        try:
            if kind == "chat":
                answer = await db_call(services.post_message)(
                    game_id=self.game_id, user=self.user, channel=frame["channel"], to=frame["to"], text=frame["text"])
            else:
                answer = await db_call(services.consent_to_publish)(
                    game_id=self.game_id, user=self.user, with_seat=frame["with"])
        except ServiceError as exc:
            await self.send_error(exc.code, exc.message, about=kind, seat=exc.details.get("seat"))
            return
        except Exception:
            log.exception("game %s: a %s frame of seat %s failed", self.game_id, kind, self.seat)
            await self.send_error("server_error", "the server failed before your message was saved; send it again",
                                  about=kind)
            return
        await self.on_talk_ack(kind, answer)
        if kind == "chat":
            await self.send_new_talk()
        else:
            await self.chat_changed({})

    async def on_talk_ack(self, kind: str, answer: dict[str, Any]) -> None:
        pass

    # ------------------------------------------------------------ table talk

    async def sync_talk(self, snap: selectors.GameSnapshot) -> None:
        """Bring this viewer's channels up to date with ``snap``; when they changed (the first
        view, the start, a seat taken or left, the end, a pair published), send each one's
        recent history. Channels and history are this viewer's only."""
        inputs_now = self._talk_inputs(snap)
        if (snap.game.status != Game.Status.FINISHED and snap.players is self.chat_players
                and inputs_now == self.chat_inputs):
            return  # what talk_for answers from: unchanged since the last version (no consents before the end)
        opened, self.opened_talk = self.opened_talk, None
        if opened is not None and opened[0] is snap:
            talk, history = opened[1], opened[2]
        else:
            consents = await db_call(chat.pair_consents)(self.game_id) if snap.game.status == Game.Status.FINISHED else {}
            talk, history = self._talk_of(snap, consents), None
        if talk == self.chat_talk:
            self.chat_players, self.chat_inputs = snap.players, inputs_now
            return
        if history is None:
            history = await db_call(chat.history)(self.game_id, talk)
        self.chat_talk = talk
        self.chat_players, self.chat_inputs = snap.players, inputs_now
        self.chat_cursor = max((m["id"] for messages in history.values() for m in messages), default=0)
        await self.send_talk_history(talk, history)

    def _talk_inputs(self, snap: selectors.GameSnapshot) -> tuple:
        """What this viewer's channels depend on, but the players and the pairs' consents."""
        game = snap.game
        signed_in = self.user is not None and self.user.is_authenticated
        return game.status, game.num_teams, game.spectators_read_only, snap.seat_held_by(self.user), signed_in

    def _talk_of(self, snap: selectors.GameSnapshot, consents: dict) -> chat.Talk:
        """The channels this viewer reads and writes at ``snap``."""
        game = snap.game
        _, _, _, seat, signed_in = self._talk_inputs(snap)
        return chat.talk_for(status=game.status, num_teams=game.num_teams,
                             spectators_read_only=game.spectators_read_only, players=snap.players,
                             seat=seat, signed_in=signed_in, consents=consents,
                             spectators_see_hidden=chat.spectators_see_hidden(game))

    def _first_talk(self, snap: selectors.GameSnapshot) -> None:
        """On a database thread, with the first view's read: the channels and their history
        the first ``sync_talk`` sends, so that it needs no database call of its own."""
        consents = chat.pair_consents(self.game_id) if snap.game.status == Game.Status.FINISHED else {}
        talk = self._talk_of(snap, consents)
        self.opened_talk = (snap, talk, chat.history(self.game_id, talk))

    async def send_new_talk(self) -> None:
        """Send the messages of this viewer's channels committed since the last one sent."""
        if self.chat_talk is None:
            return
        while True:
            messages = await db_call(chat.messages_after)(self.game_id, self.chat_talk.readable, self.chat_cursor)
            if not messages:
                return
            self.chat_cursor = messages[-1]["id"]
            await self.send_talk(messages)
            if len(messages) < chat.NEW_MESSAGES_AT_MOST:
                return

    async def chat_posted(self, message: dict[str, Any]) -> None:
        """A message was committed: read it only if this viewer reads its channel."""
        talk = self.chat_talk
        if talk is not None and message["key"] in talk.readable and message["id"] > self.chat_cursor:
            await self.send_new_talk()

    async def chat_changed(self, message: dict[str, Any]) -> None:
        """A pair's consents changed: the channels may have (a conversation published)."""
        snap = selectors.SNAPSHOTS.get(self.game_id) or await db_call(selectors.snapshot)(self.game_id)
        await self.sync_talk(snap)

    async def send_talk_history(self, talk: chat.Talk, history: dict[str, list[dict[str, Any]]]) -> None:
        raise NotImplementedError

    async def send_talk(self, messages: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ from the group

    async def game_changed(self, message: dict[str, Any]) -> None:
        if message["version"] > self.known_version:
            await self.send_current(version=message["version"])

    async def presence_changed(self, message: dict[str, Any]) -> None:
        await self.send_presence(message["presence"])

    async def group_resync(self, message: dict[str, Any]) -> None:
        """The layer may have missed this group's messages (games.channel_layers.RESYNC)."""
        await self.send_current()
        await self.send_new_talk()

    # ------------------------------------------------------------ to the client

    async def send_current(self, force: bool = False, version: int | None = None,
                           even_if_unchanged: bool = False, first: selectors.GameSnapshot | None = None) -> None:
        """Send this viewer's view of the game's newest version, unless it already has it, or
        unless nothing this viewer sees changed since the view it was last sent (another
        player revised a sealed choice): then the socket counts the version as handled
        (``known_version``), sends nothing, and its frames go on reporting the version of the
        view it has (``sent_version``). ``force`` (a refresh, a refused action) always sends;
        ``even_if_unchanged`` (the answer to this socket's own action) sends a newer version.

        After a broadcast (``version`` given) the snapshot usually comes from this process's
        cache, so a hundred sockets of one game cost one database read, not a hundred. A new
        socket's ``first`` snapshot was read with its access; one committed since in this
        process is newer and sent instead (another process's, by the broadcast or
        ``version_watch``).
        """
        snap = selectors.SNAPSHOTS.get(self.game_id)
        if first is not None:
            snap = snap if snap is not None and snap.version > first.version else first
        elif snap is None or version is None or snap.version < version:
            snap = await db_call(selectors.snapshot)(self.game_id, version=version)
        self.seat = snap.seat_of(self.user)
        present_before, self.present_as = self.present_as, snap.seat_held_by(self.user)
        if self.present_as != present_before:  # took or left a seat in the waiting room
            await self.be_seen()
        if self.seat is not None and str(self.seat) in (snap.game.prompts.get("away") or {}):
            await self._note_back()
        if snap.version <= self.known_version and not force:
            return
        self.known_version = max(self.known_version, snap.version)
        try:
            digest = self.view_digest(snap)
        except Exception:
            digest = None  # drawing it again below reports the failure
        sending = force or even_if_unchanged or digest is None or digest != self.sent_digest
        if sending:
            self.sent_version = max(self.sent_version, selectors.viewer_version(snap.game, self.counted_as(snap)))
        try:
            await self.sync_talk(snap)
        except Exception:
            log.exception("game %s: the table talk of seat %s could not be sent", self.game_id, self.seat)
        if not sending:
            self._arm_timer(snap.game)
            return
        try:
            self.sent_digest = None
            digest = digest if digest is not None else self.view_digest(snap)
            await self.send_view(snap)
            self.sent_digest = digest
        except Exception:
            log.exception("game %s: could not send version %s to seat %s", self.game_id, snap.version, self.seat)
            await self.send_error("server_error", "this view could not be drawn; please reload the page")
        self._arm_timer(snap.game)

    def counted_as(self, snap: selectors.GameSnapshot) -> int | None:
        """The seat whose count of versions this viewer is told (``selectors.viewer_version``):
        the one it holds, or held until a computer player took it over."""
        return snap.seat_held_by(self.user)

    def view_digest(self, snap: selectors.GameSnapshot) -> tuple[int, ...]:
        """Whether this viewer's view of ``snap`` changed: equal digests, same view."""
        return selectors.view_digest(snap, self.seat)

    async def send_view(self, snap: selectors.GameSnapshot) -> None:
        """Send this viewer's view of ``snap`` in the socket's own format."""
        raise NotImplementedError

    async def send_presence(self, presence: dict[str, Any]) -> None:
        raise NotImplementedError

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        raise NotImplementedError

    async def send_json(self, data: dict[str, Any]) -> None:
        await self.send(text_data=jsontext.dumps(data))

    async def be_seen(self) -> None:
        """Register this connection in the game's presence, and tell the game: as its seat's,
        even once a computer player took the seat over (a player who resigned is no spectator).

        Presence is not play: when the coordinator cannot be reached, the socket goes on
        without it, and the heartbeat has it join again once it answers (games/presence.py).
        """
        try:
            await coordinator_call(get_coordinator().join)(
                self.game_id, self.channel_name, seat=self.present_as, user_key=self._user_key())
        except Exception as exc:
            log.warning("game %s: a socket goes on without presence until the coordinator answers (%s)",
                        self.game_id, _said(exc))
            return
        await self.announce_presence()

    async def announce_presence(self) -> Presence | None:
        """Tell the game's sockets who is connected; None (logged in one line) when the
        coordinator or the layer cannot be reached: the next change announces it again."""
        try:
            presence = await coordinator_call(get_coordinator().presence)(self.game_id)
            data = {"seats_connected": sorted(presence.seats_connected), "spectators": presence.spectators}
            await self.channel_layer.group_send(self.group, {"type": "presence.changed", "presence": data})
        except Exception as exc:
            log.warning("game %s: presence was not announced (%s)", self.game_id, _said(exc))
            return None
        return presence

    async def _note_back(self) -> None:
        """This seat's player, counted away, is connected again (``services.note_back``); a
        failure is logged, the socket goes on."""
        try:
            await db_call(services.note_back)(game_id=self.game_id, seat=self.seat)
        except Exception:
            log.exception("game %s: the return of seat %s could not be noted", self.game_id, self.seat)

    # ------------------------------------------------------------ timers

    def _arm_timer(self, game) -> None:
        """Seated sockets wake at the next prompt deadline to apply its default answer.

        Most moves move a deadline: the wake-up is a call the loop makes at that time, and the
        task that applies the defaults is made only once it comes, not made and cancelled on
        every move."""
        deadline = services.next_deadline(game) if self.seat is not None else None
        if deadline == self.timer_deadline and (self.timer_wakeup is not None
                                                or (self.timer is not None and not self.timer.done())):
            return
        self._cancel_timer()
        self.timer_deadline = deadline
        if deadline is not None:
            self.timer_wakeup = asyncio.get_running_loop().call_later(
                max(0.0, deadline - time.time()) + 0.05, self._deadline_came)

    def _deadline_came(self) -> None:
        self.timer_wakeup = None
        self.timer = asyncio.create_task(self._apply_overdue_defaults())

    def _cancel_timer(self) -> None:
        if self.timer_wakeup is not None:
            self.timer_wakeup.cancel()
            self.timer_wakeup = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    async def _apply_overdue_defaults(self) -> None:
        """Apply the overdue prompts' defaults; on any failure, log it and try again later."""
        retry_in = TIMER_RETRY_SECONDS
        while True:
            try:
                await db_call(services.apply_timeouts)(game_id=self.game_id)
                return
            except ServiceError as exc:
                log.info("timeouts of game %s deferred (%s)", self.game_id, exc.message)
            except Exception:
                log.exception("timeouts of game %s failed; retrying in %g s", self.game_id, retry_in)
            await asyncio.sleep(retry_in)
            retry_in = min(retry_in * 2, TIMER_RETRY_MAX_SECONDS)


class GameHtmlConsumer(BaseGameConsumer):
    """The browser page's socket: htmx sends its form values as JSON (``inputs.frame``'s page
    form), we answer with out-of-band HTML swaps."""

    page_frames = True

    async def send_view(self, snap: selectors.GameSnapshot) -> None:
        payload = selectors.payload_for(snap, self.seat, counted_as=self.counted_as(snap))
        html = rendering.shared_live_html(snap.game, payload, self.user)
        if html is None:
            html = await db_call(rendering.live_html)(snap.game, payload, self.user)
        await self.send(text_data=html)

    async def send_presence(self, presence: dict[str, Any]) -> None:
        await self.send(text_data=rendering.presence_html(presence, viewer_seat=self.seat))

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send(text_data=rendering.error_html(code, message))

    async def send_talk_history(self, talk: chat.Talk, history: dict[str, list[dict[str, Any]]]) -> None:
        await self.send(text_data=rendering.talk_html(talk, history, viewer_seat=talk.seat, oob=True))

    async def send_talk(self, messages: list[dict[str, Any]]) -> None:
        seat = self.chat_talk.seat if self.chat_talk is not None else None
        await self.send(text_data=rendering.talk_lines_html(messages, viewer_seat=seat))


class GameApiConsumer(BaseGameConsumer):
    """The JSON socket for bots and scripts; authenticated by an API token or the session."""

    async def authenticate(self, query: dict[str, str]):
        """The token's user (``Authorization: Token``, or ``?token=``), else the session's."""
        header = next((value.decode("latin1") for name, value in self.scope.get("headers", [])
                       if name == b"authorization"), None)
        key = token_from_header(header)
        if header is not None and key is None:
            raise inputs.InputError('the Authorization header must be "Token <key>" (or "Bearer <key>")', field="Authorization")
        if key is None:
            key = query.get("token")
        if key is None and "token" in self._query(blank=True):
            raise inputs.InputError('"token" is empty: give your API token, or leave "token" out to watch',
                                    field="token")
        if not key:
            return self.scope.get("user")
        inputs.TOKEN_KEY.clean(key, "token")
        token = await db_call(token_for_key)(key)
        if token is None:
            raise inputs.InputError("the API token is unknown or revoked")
        self.token_id = token.pk
        return token.user

    sent_rematch: dict[str, Any] | None = None

    def view_digest(self, snap: selectors.GameSnapshot) -> tuple[int, ...]:
        return selectors.view_digest(snap, self.seat, keep_frame=True)  # the frame goes out next

    async def send_view(self, snap: selectors.GameSnapshot) -> None:
        await self.send(text_data=selectors.view_frame(snap, self.seat, counted_as=self.counted_as(snap)))
        rematch = selectors.rematch_summary(snap.game)
        if rematch is not None and rematch != self.sent_rematch:
            self.sent_rematch = rematch
            await self.send_json({"type": "rematch", "version": selectors.viewer_version(snap.game, self.counted_as(snap)),
                                  **rematch})

    async def send_presence(self, presence: dict[str, Any]) -> None:
        await self.send_json({"type": "presence", "version": self.sent_version, **presence})

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message,
                              "version": self.sent_version, **{k: v for k, v in extra.items() if v is not None}})

    async def on_ack(self, action_id: str, result: services.ActionResult) -> None:
        await self.send_json({"type": "ack", "action_id": action_id, "version": result.viewer_version,
                              "duplicate": result.duplicate})

    async def on_talk_ack(self, kind: str, answer: dict[str, Any]) -> None:
        if kind == "chat":
            await self.send_json({"type": "chat_ack", "id": answer["id"], "key": answer["key"],
                                  "version": self.sent_version})
        else:
            await self.send_json({"type": "chat_publish_ack", "channel": answer, "version": self.sent_version})

    async def send_talk_history(self, talk: chat.Talk, history: dict[str, list[dict[str, Any]]]) -> None:
        await self.send_json({"type": "chat_history", "version": self.sent_version, "channels": [
            {**channel.as_dict(), "messages": history.get(channel.key, [])} for channel in talk.channels]})

    async def send_talk(self, messages: list[dict[str, Any]]) -> None:
        await self.send_json({"type": "chat", "version": self.sent_version, "messages": messages})


class LobbyConsumer(ArrivalControlMixin, DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    """Keeps the lobby's lists of open and live games fresh without a reload."""

    async def connect(self) -> None:
        self.pending: asyncio.Task | None = None
        try:
            await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        except Exception as exc:
            log.warning("a lobby socket was refused with %s, the lobby's broadcasts unreachable (%s)", CLOSE_TRY_AGAIN_LATER,
                        _said(exc))
            await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN_LATER)
            return
        await self.accept()

    async def disconnect(self, code: int) -> None:
        try:
            await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)
        except Exception as exc:
            log.warning("a lobby socket could not leave its group (%s)", _said(exc))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send_error("read_only", "the lobby socket only sends")

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send(text_data=rendering.error_html(code, message))

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        """Coalesce bursts of changes into one refresh a quarter-second later."""
        if self.pending is None or self.pending.done():
            self.pending = asyncio.create_task(self._refresh())

    async def group_resync(self, message: dict[str, Any]) -> None:
        await self.lobby_changed(message)

    async def _refresh(self) -> None:
        await asyncio.sleep(0.25)
        html = await db_call(rendering.lobby_lists_html)(self.scope.get("user"))
        await self.send(text_data=html)


class NowhereConsumer(AsyncWebsocketConsumer):
    """A socket to a path that is no game's (``/ws/api/games/abc/``): accepted, told ``not_found``
    as a socket to no game is, and closed with 4004."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=jsontext.dumps({
            "type": "error", "code": "not_found", "version": 0,
            "message": f"there is no socket at {self.scope.get('path', '')!r}: a game's is /ws/api/games/<id>/"}))
        await self.close(code=CLOSE_NOT_FOUND)
