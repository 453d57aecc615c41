"""Websockets: thin consumers that parse, authenticate, call the service and send views.

Two flavours share one base: ``GameHtmlConsumer`` speaks to the htmx page and sends
server-rendered HTML; ``GameApiConsumer`` speaks JSON to bots and scripts (see
docs/api.md). Both receive the same frames and send the same per-viewer views.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games import jsontext, rendering, selectors, services, version_watch
from games.auth import user_for_token
from games.calls import coordinator_call, db_call
from games.coordinator import get_coordinator
from games.engines.base import GameError
from games.errors import NotFound, ServiceError, StaleVersion
from games.presence import keep_alive, stop_keeping_alive

log = logging.getLogger(__name__)

CLOSE_TOO_FAST = 4008
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004
TIMER_RETRY_SECONDS = 1.0
TIMER_RETRY_MAX_SECONDS = 30.0


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


class BaseGameConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    """One viewer's live connection to one game."""

    game_id: int
    seat: int | None
    sent_version: int = 0
    timer_deadline: float | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = await self.authenticate()
        self.bucket = TokenBucket(settings.SNOWBALL_SOCKET_RATE, settings.SNOWBALL_SOCKET_BURST)
        self.strikes = 0
        self.timer: asyncio.Task | None = None
        invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [None])[0]
        access = await db_call(self._access)(invite)
        if access == "missing":
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if access == "forbidden":
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = services.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.be_seen()
        await self.send_current()
        keep_alive(self.game_id, self.channel_name, rejoin=self.be_seen)
        version_watch.watch(self.game_id, self.channel_name, self.channel_layer, lambda: self.sent_version)

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if hasattr(self, "group"):
            stop_keeping_alive(self.game_id, self.channel_name)
            version_watch.unwatch(self.game_id, self.channel_name)
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await coordinator_call(get_coordinator().leave)(self.game_id, self.channel_name)
            await self.announce_presence()

    async def authenticate(self):
        return self.scope.get("user")

    def _access(self, invite: str | None) -> str:
        try:
            game = selectors.get_game(self.game_id)
        except NotFound:
            return "missing"
        if not selectors.can_watch(game, self.user, invite):
            return "forbidden"
        self.seat = selectors.seat_of(game, self.user)
        return "ok"

    def _user_key(self) -> str:
        return f"user:{self.user.pk}" if self.user is not None and self.user.is_authenticated else f"anon:{self.channel_name}"

    # ------------------------------------------------------------ from the client

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes >= settings.SNOWBALL_SOCKET_STRIKES:
                await self.send_error("too_fast", "too many messages; the connection is closed")
                await self.close(code=CLOSE_TOO_FAST)
            else:
                await self.send_error("too_fast", f"too many messages (at most {settings.SNOWBALL_SOCKET_RATE:g} a second); "
                                      "this one was dropped: wait a moment and resend it with the same action_id")
            return
        if size > settings.SNOWBALL_MAX_FRAME_BYTES:
            await self.send_error("frame_too_large", f"a frame may be at most {settings.SNOWBALL_MAX_FRAME_BYTES} bytes; this one was {size}")
            return
        if text_data is None:
            await self.send_error("malformed", "frames must be JSON text, not binary")
            return
        try:
            frame = json.loads(text_data)
        except ValueError as exc:
            await self.send_error("malformed", f"the frame is not valid JSON ({exc.msg} at position {exc.pos})")
            return
        if not isinstance(frame, dict):
            await self.send_error("malformed", "the frame must be a JSON object")
            return
        frame = self.normalise_frame(frame)
        kind = frame.get("type")
        if kind == "action":
            await self.handle_action(frame)
        elif kind == "refresh":
            await self.send_current(force=True)
        elif kind == "ping":
            await self.send_json({"type": "pong", "version": self.sent_version})
        else:
            await self.send_error("malformed", f'unknown frame type {kind!r}; expected "action", "refresh" or "ping"')

    def normalise_frame(self, frame: dict[str, Any]) -> dict[str, Any]:
        return frame

    async def handle_action(self, frame: dict[str, Any]) -> None:
        """Answer the action frame exactly once: an ack of what was committed, or an error.

        The service reports nothing that happens after its commit as a failure; an unexpected
        failure before it is answered ``server_error`` (nothing was saved; the same frame may
        be sent again). The socket stays open either way.
        """
        action_id = frame.get("action_id")
        if self.seat is None:
            await self.send_error("not_seated", "spectators cannot act; this connection is read-only", action_id=action_id)
            return
        try:
            result = await db_call(services.submit_action)(
                game_id=self.game_id, user=self.user, action=frame.get("action"), action_id=action_id,
                version=frame.get("version"))
        except StaleVersion as exc:
            await self.send_error(exc.code, exc.message, action_id=action_id)
            await self.send_current(force=True)
            return
        except (ServiceError, GameError) as exc:
            await self.send_error(getattr(exc, "code", "error"), getattr(exc, "message", str(exc)), action_id=action_id)
            return
        except Exception:
            log.exception("game %s: an action of seat %s failed", self.game_id, self.seat)
            await self.send_error("server_error", "the server failed before your action was saved; send it again "
                                  "with the same action_id", action_id=action_id)
            return
        await self.on_ack(action_id, result)
        try:
            await self.send_current(version=result.version)
        except Exception:  # the ack is sent; the version watch brings the view
            log.exception("game %s: the view after version %s could not be sent", self.game_id, result.version)

    async def on_ack(self, action_id: str, result: services.ActionResult) -> None:
        pass

    # ------------------------------------------------------------ from the group

    async def game_changed(self, message: dict[str, Any]) -> None:
        if message["version"] > self.sent_version:
            await self.send_current(version=message["version"])

    async def presence_changed(self, message: dict[str, Any]) -> None:
        await self.send_presence(message["presence"])

    async def group_resync(self, message: dict[str, Any]) -> None:
        """The layer may have missed this group's messages (games.channel_layers.RESYNC)."""
        await self.send_current()

    # ------------------------------------------------------------ to the client

    async def send_current(self, force: bool = False, version: int | None = None) -> None:
        """Send this viewer's view of the game's newest version, unless it already has it.

        After a broadcast (``version`` given) the snapshot usually comes from this process's
        cache, so a hundred sockets of one game cost one database read, not a hundred.
        """
        snap = selectors.SNAPSHOTS.get(self.game_id)
        if snap is None or version is None or snap.version < version:
            snap = await db_call(selectors.snapshot)(self.game_id, version=version)
        seat_before, self.seat = self.seat, snap.seat_of(self.user)
        if self.seat != seat_before:  # took or left a seat in the waiting room
            await self.be_seen()
        if snap.version <= self.sent_version and not force:
            return
        self.sent_version = max(self.sent_version, snap.version)
        try:
            await self.send_view(snap)
        except Exception:
            log.exception("game %s: could not send version %s to seat %s", self.game_id, snap.version, self.seat)
            await self.send_error("server_error", "this view could not be drawn; please reload the page")
        self._arm_timer(snap.game)

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
        """Register this connection (with its seat) in the game's presence, and tell the game."""
        await coordinator_call(get_coordinator().join)(
            self.game_id, self.channel_name, seat=self.seat, user_key=self._user_key())
        await self.announce_presence()

    async def announce_presence(self) -> None:
        presence = await coordinator_call(get_coordinator().presence)(self.game_id)
        data = {"seats_connected": sorted(presence.seats_connected), "spectators": presence.spectators}
        await self.channel_layer.group_send(self.group, {"type": "presence.changed", "presence": data})

    # ------------------------------------------------------------ timers

    def _arm_timer(self, game) -> None:
        """Seated sockets wake at the next prompt deadline to apply its default answer."""
        deadline = services.next_deadline(game) if self.seat is not None else None
        if deadline == self.timer_deadline and (self.timer is None or not self.timer.done()):
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.timer_deadline = deadline
        if deadline is not None:
            self.timer = asyncio.create_task(self._expire_at(deadline))

    async def _expire_at(self, deadline: float) -> None:
        """Apply the overdue prompts' defaults; on any failure, log it and try again later."""
        await asyncio.sleep(max(0.0, deadline - time.time()) + 0.05)
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
    """The browser page's socket: htmx sends JSON, we answer with out-of-band HTML swaps."""

    async def send_view(self, snap: selectors.GameSnapshot) -> None:
        payload = selectors.payload_for(snap, self.seat)
        html = await db_call(rendering.live_html)(snap.game, payload, self.user)
        await self.send(text_data=html)

    async def send_presence(self, presence: dict[str, Any]) -> None:
        await self.send(text_data=rendering.presence_html(presence, viewer_seat=self.seat))

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send(text_data=rendering.error_html(code, message))

    def normalise_frame(self, frame: dict[str, Any]) -> dict[str, Any]:
        """htmx sends the action as a JSON string inside the form values; unwrap it."""
        frame.pop("HEADERS", None)
        action = frame.get("action")
        if isinstance(action, str):
            try:
                frame["action"] = json.loads(action)
            except ValueError:
                frame["action"] = None
        if "version" in frame and isinstance(frame["version"], str) and frame["version"].isdigit():
            frame["version"] = int(frame["version"])
        frame.setdefault("type", "action")
        return frame


class GameApiConsumer(BaseGameConsumer):
    """The JSON socket for bots and scripts; authenticated by an API token or the session."""

    async def authenticate(self):
        key = None
        for name, value in self.scope.get("headers", []):
            if name == b"authorization":
                scheme, _, rest = value.decode("latin1").partition(" ")
                if scheme.lower() in {"token", "bearer"}:
                    key = rest.strip()
        if key is None:
            key = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [None])[0]
        if key:
            return await db_call(user_for_token)(key)
        return self.scope.get("user")

    async def send_view(self, snap: selectors.GameSnapshot) -> None:
        await self.send(text_data=selectors.view_frame(snap, self.seat))

    async def send_presence(self, presence: dict[str, Any]) -> None:
        await self.send_json({"type": "presence", "version": self.sent_version, **presence})

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message,
                              "version": self.sent_version, **{k: v for k, v in extra.items() if v is not None}})

    async def on_ack(self, action_id: str, result: services.ActionResult) -> None:
        await self.send_json({"type": "ack", "action_id": action_id, "version": result.version,
                              "duplicate": result.duplicate})


class LobbyConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    """Keeps the lobby's lists of open and live games fresh without a reload."""

    async def connect(self) -> None:
        self.pending: asyncio.Task | None = None
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=rendering.error_html("read_only", "the lobby socket only sends"))

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
