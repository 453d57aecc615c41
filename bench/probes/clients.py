"""Clients for the probes: a raw websocket and raw HTTP (to send what no library would), and
bots that play through the JSON API as docs/api.md tells a bot to, reconnecting when their
socket drops.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import struct
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


# ---------------------------------------------------------------------- raw websocket


class RawSocket:
    """A websocket client over a bare TCP stream: any payload, any opcode, no checks.

    Client frames are masked with an all-zero key (legal, and the payload goes out as it is),
    so a frame costs one ``write``.
    """

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.status: int | None = None  # the handshake's HTTP status
        self.close_code: int | None = None
        self.closed_at: float | None = None
        self.received: Counter[str] = Counter()
        self.error_codes: Counter[str] = Counter()
        self._reading: asyncio.Task | None = None

    async def connect(self, port: int, path: str, *, headers: dict[str, str] | None = None,
                      timeout: float = 10.0) -> bool:
        """Open and upgrade; False (with ``status``) when the server refuses the handshake."""
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), timeout)
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 101:
            self.writer.close()
            self.closed_at = time.monotonic()
            return False
        self._reading = asyncio.get_running_loop().create_task(self._read())
        return True

    @property
    def open(self) -> bool:
        return self.closed_at is None

    def send(self, payload: bytes, opcode: int = 0x1) -> None:
        """Queue one frame (text by default); the caller drains."""
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        self.writer.write(header + b"\0\0\0\0" + payload)

    async def drain(self) -> None:
        await self.writer.drain()

    async def _read(self) -> None:
        reader = self.reader
        try:
            while True:
                first, second = await reader.readexactly(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack("!H", await reader.readexactly(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", await reader.readexactly(8))[0]
                payload = await reader.readexactly(length)
                opcode = first & 0x0F
                if opcode == 0x8:
                    self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                    break
                if opcode == 0x1:
                    self.received["text"] += 1
                    if payload.startswith(b'{"type": "error"') or payload.startswith(b'{"type":"error"'):
                        try:
                            self.error_codes[json.loads(payload).get("code", "?")] += 1
                        except ValueError:
                            self.error_codes["?"] += 1
                    elif b'class="error' in payload[:400] or b"data-error" in payload[:400]:
                        self.error_codes["html_error"] += 1
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            if self.closed_at is None:
                self.closed_at = time.monotonic()
            if self.close_code is None:
                self.close_code = 1006
            self.writer.close()

    async def close(self) -> None:
        if self.writer is not None and self.open:
            try:
                self.send(struct.pack("!H", 1000), opcode=0x8)
                await asyncio.wait_for(self.drain(), 2)
            except (ConnectionError, OSError, asyncio.TimeoutError):
                pass
        if self._reading is not None:
            self._reading.cancel()
        if self.writer is not None:
            self.writer.close()


async def raw_http(port: int, request: bytes, *, timeout: float = 30.0) -> int | None:
    """Send ``request`` as it is on a fresh connection; the answer's status, None if none came."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, asyncio.TimeoutError):
        return None
    try:
        writer.write(request)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        parts = line.split(b" ", 2)
        return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None
    except (OSError, asyncio.TimeoutError, ValueError):
        return None
    finally:
        writer.close()


# ---------------------------------------------------------------------- the HTTP API


def api_call(base_url: str, path: str, token: str, body: dict[str, Any] | None = None,
             timeout: float = 30.0) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base_url + path, data=data, method="POST" if data is not None else "GET",
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        return json.loads(reply.read())


def new_game_over_http(base_url: str, tokens: list[str], game_type: str = "snowball-fight") -> int:
    """A started two-player game seated by the holders of ``tokens``, through the HTTP API."""
    game = api_call(base_url, "/api/games/", tokens[0], {"game_type": game_type, "seats": 2, "take_seat": True})
    api_call(base_url, f"/api/games/{game['id']}/join/", tokens[1], {"seat": 1})
    api_call(base_url, f"/api/games/{game['id']}/start/", tokens[0], {})
    return game["id"]


# ---------------------------------------------------------------------- bots

RESEND_AFTER = {"busy", "server_error", "too_fast"}  # nothing was saved: the same frame again


@dataclass
class BotStats:
    """What the bots saw, shared by all of them."""

    acked: dict[int, list[tuple[str, int, bool]]] = field(default_factory=dict)  # game -> (action_id, version, duplicate)
    ack_times: list[tuple[float, int, str]] = field(default_factory=list)  # (time, slot, action_id) per ack
    sent_times: dict[str, float] = field(default_factory=dict)
    count: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    drops: list[tuple[float, int]] = field(default_factory=list)  # (time, slot) a socket dropped or failed


class BotPlayer:
    """One seat of one game on the JSON socket: sends a random legal action whenever asked.

    A share ``http_moves`` of its actions goes over HTTP (``POST /api/games/<id>/actions/``,
    which nginx may hand to another worker than the socket's) instead of the socket. As
    docs/api.md tells a bot: when the socket drops it connects again and resends the action
    it had in flight with the same ``action_id`` (so does an HTTP action that got no answer
    or a 5xx, and an action refused as ``busy``, ``server_error`` or ``too_fast``, half a
    second later); when nothing has arrived for ``silence_refresh`` seconds while it waits, it
    sends ``refresh`` and acts on the fresh view. It keeps the newest view it was given (by
    the socket, or in an HTTP action's answer) and, once its action is answered, acts on that
    view if it asks something new: a view can overtake the answer to the action that made it.
    """

    def __init__(self, *, ws_url: str, game_id: int, token: str, slot: int, stats: BotStats, rng: random.Random,
                 think: tuple[float, float], silence_refresh: float = 15.0, http_url: str | None = None,
                 http_moves: float = 0.0) -> None:
        self.ws_url, self.game_id, self.token, self.slot = ws_url, game_id, token, slot
        self.http_url, self.http_moves = http_url, http_moves
        self.stats, self.rng, self.think, self.silence_refresh = stats, rng, think, silence_refresh
        self.version = 0
        self.acted_version = -1
        self.inflight: str | None = None
        self.inflight_frame: str | None = None
        self.finished = False
        self.stopping = False
        self.quiet = False  # no new actions
        self.last_frame_at = time.monotonic()
        self.newest: dict[str, Any] | None = None  # the newest view, from the socket or an HTTP answer
        self.ws = None  # the socket of the current session
        self.acting: asyncio.Task | None = None

    async def play(self) -> None:
        """Until the game ends or ``stop``: connect, play, and connect again after a drop."""
        import websockets

        url = f"{self.ws_url}/ws/api/games/{self.game_id}/"
        while not self.finished and not self.stopping:
            try:
                async with websockets.connect(url, additional_headers={"Authorization": f"Token {self.token}"},
                                              compression=None, ping_interval=None, open_timeout=10,
                                              close_timeout=2, max_size=2**22) as ws:
                    self.stats.count["connects"] += 1
                    if self.inflight_frame is not None:  # not sure it arrived: send it again
                        await ws.send(self.inflight_frame)
                        self.stats.count["resent"] += 1
                    await self._session(ws)
            except websockets.ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else 1006
                self.stats.closes[str(code)] += 1
                self.stats.drops.append((time.monotonic(), self.slot))
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI) as exc:
                self.stats.count["connect_failures"] += 1
                self.stats.drops.append((time.monotonic(), self.slot))
                self.stats.errors[f"connect: {type(exc).__name__}"] += 1
            if not self.finished and not self.stopping:
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _session(self, ws) -> None:
        self.ws = ws
        try:
            while not self.stopping:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except asyncio.TimeoutError:
                    if time.monotonic() - self.last_frame_at > self.silence_refresh:
                        self.stats.count["silence_refreshes"] += 1
                        self.last_frame_at = time.monotonic()
                        self.acted_version = -1  # the fresh view may ask again what was asked
                        await ws.send('{"type": "refresh"}')
                    continue
                self.last_frame_at = time.monotonic()
                frame = json.loads(text)
                kind = frame.get("type")
                if kind == "view":
                    if frame["version"] < self.version:
                        continue
                    if frame.get("status") == "finished":
                        self.version = frame["version"]
                        self.finished = True
                        return
                    self._keep(frame)
                elif kind == "ack":
                    if frame.get("action_id") == self.inflight:
                        self._acked(frame)
                elif kind == "error":
                    code = frame.get("code", "?")
                    self.stats.errors[code] += 1
                    if frame.get("action_id") == self.inflight:
                        if code in RESEND_AFTER and self.inflight_frame is not None:
                            self.stats.count["resent"] += 1
                            asyncio.get_running_loop().call_later(0.5, self._resend, ws, self.inflight)
                        else:
                            self._answered()
        finally:
            self.ws = None
            if self.acting is not None:
                self.acting.cancel()
                self.acting = None

    def _keep(self, view: dict[str, Any]) -> None:
        """Keep ``view`` if it is the newest, and act on it if it asks something new."""
        if view["version"] < self.version:
            return
        self.version = view["version"]
        self.newest = view
        self._act_if_asked()

    def _act_if_asked(self) -> None:
        view = self.newest
        legal = (view or {}).get("legal_actions") or []
        if (legal and self.ws is not None and self.inflight is None and self.version > self.acted_version
                and (self.acting is None or self.acting.done())):
            self.acting = asyncio.get_running_loop().create_task(self._act(self.ws, legal, self.version))

    def _answered(self) -> None:
        """The action in flight got its answer: the newest view may already ask the next one
        (once the task that sent the action has ended)."""
        self.inflight = self.inflight_frame = None
        asyncio.get_running_loop().call_soon(self._act_if_asked)

    def _resend(self, ws, action_id: str) -> None:
        """The same frame again (docs/api.md: an action that was not saved may be sent again)."""
        if self.inflight == action_id and self.inflight_frame is not None and not self.stopping:
            asyncio.ensure_future(self._send_quietly(ws, self.inflight_frame))

    @staticmethod
    async def _send_quietly(ws, text: str) -> None:
        try:
            await ws.send(text)
        except Exception:  # the socket closed: the reconnect resends it
            pass

    async def _act(self, ws, legal: list[dict[str, Any]], version: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.inflight is not None or self.stopping or self.quiet:
            return
        action_id = uuid.uuid4().hex
        self.inflight = action_id
        self.acted_version = version
        self.inflight_frame = json.dumps({"type": "action", "action": self.rng.choice(legal),
                                          "action_id": action_id, "version": version})
        self.stats.sent_times[action_id] = time.monotonic()
        self.stats.count["sent"] += 1
        if self.http_url is None or self.rng.random() >= self.http_moves:
            await ws.send(self.inflight_frame)
            return
        self.stats.count["sent_over_http"] += 1
        body = {k: v for k, v in json.loads(self.inflight_frame).items() if k != "type"}
        try:
            reply = await asyncio.get_running_loop().run_in_executor(
                None, api_call, self.http_url, f"/api/games/{self.game_id}/actions/", self.token, body)
        except urllib.error.HTTPError as exc:  # refused: the action was not applied
            code = "?"
            try:
                code = json.loads(exc.read()).get("error", {}).get("code", "?")
            except ValueError:
                pass
            self.stats.errors[f"http {exc.code} {code}"] += 1
            if self.inflight == action_id:
                if exc.code >= 500 and not self.stopping:  # not saved, or not known: send it again
                    self.stats.count["resent"] += 1
                    await asyncio.sleep(0.5)
                    await self._send_quietly(ws, self.inflight_frame)
                else:
                    self._answered()
            return
        except (OSError, ValueError) as exc:  # no answer: applied or not, resend it on the socket
            self.stats.errors[f"http: {type(exc).__name__}"] += 1
            if self.inflight == action_id and not self.stopping:
                self.stats.count["resent"] += 1
                await ws.send(self.inflight_frame)
            return
        if self.inflight == action_id:
            self._acked({"action_id": action_id, **reply["ack"]})
            if reply.get("view") and reply["view"].get("status") != "finished":
                self._keep(reply["view"])

    def _acked(self, frame: dict[str, Any]) -> None:
        now = time.monotonic()
        self.stats.count["acks"] += 1
        if frame.get("duplicate"):
            self.stats.count["duplicate_acks"] += 1
        self.stats.acked.setdefault(self.game_id, []).append(
            (frame["action_id"], frame["version"], bool(frame.get("duplicate"))))
        self.stats.ack_times.append((now, self.slot, frame["action_id"]))
        self._answered()


class BotTable:
    """``games`` slots, each a game played by two bots; a finished game is replaced by a new
    one created over the HTTP API by the same two players, so the load stays steady."""

    def __init__(self, *, games: list[dict[str, Any]], ws_url: str, http_url: str, seed: int = 1,
                 think: tuple[float, float] = (0.2, 0.6), silence_refresh: float = 15.0,
                 http_moves: float = 0.0) -> None:
        self.games, self.ws_url, self.http_url, self.http_moves = games, ws_url, http_url, http_moves
        self.seed, self.think, self.silence_refresh = seed, think, silence_refresh
        self.stats = BotStats()
        self.players: list[BotPlayer] = []
        self.stopping = False
        self.quiet = False
        self.tasks: list[asyncio.Task] = []
        self.current: dict[int, int] = {}  # slot -> the game it plays now

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=2 * len(self.games) + 8))
        self.tasks = [loop.create_task(self._slot(i, game)) for i, game in enumerate(self.games)]

    async def _slot(self, slot: int, game: dict[str, Any]) -> None:
        rng = random.Random(self.seed * 1_000_003 + slot)
        game_id, tokens = game["id"], game["tokens"]
        loop = asyncio.get_running_loop()
        while not self.stopping:
            self.current[slot] = game_id
            players = [BotPlayer(ws_url=self.ws_url, game_id=game_id, token=tokens[seat], slot=slot, stats=self.stats,
                                 rng=random.Random(rng.random()), think=self.think,
                                 silence_refresh=self.silence_refresh, http_url=self.http_url,
                                 http_moves=self.http_moves) for seat in range(2)]
            for p in players:
                p.quiet = self.quiet
            self.players.extend(players)
            await asyncio.gather(*(p.play() for p in players))
            for p in players:
                self.players.remove(p)
            if self.stopping:
                return
            self.stats.count["games_finished"] += 1
            try:
                game_id = await loop.run_in_executor(None, new_game_over_http, self.http_url, tokens)
            except Exception as exc:  # the slot tries again shortly
                self.stats.errors[f"new game: {type(exc).__name__}"] += 1
                await asyncio.sleep(1.0)

    async def stop(self, settle: float = 3.0) -> None:
        """Stop acting, give in-flight actions ``settle`` seconds to be answered, then close."""
        self.quiet = True
        for p in self.players:
            p.quiet = True
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and any(p.inflight for p in self.players):
            await asyncio.sleep(0.1)
        self.stopping = True
        for p in list(self.players):
            p.stopping = True
        await asyncio.wait(self.tasks, timeout=10)
        for task in self.tasks:
            task.cancel()

    def resume_times(self, since: float) -> dict[str, Any]:
        """For each slot, the seconds from ``since`` to its first ack of an action sent after it."""
        first: dict[int, float] = {}
        for t, slot, action_id in self.stats.ack_times:
            if t >= since and slot not in first and self.stats.sent_times.get(action_id, 0) >= since:
                first[slot] = t - since
        waits = sorted(first.values())
        return {"slots": len(self.games), "resumed": len(waits),
                "games_not_resumed": [self.current.get(slot) for slot in range(len(self.games)) if slot not in first],
                "max_s": round(waits[-1], 2) if len(waits) == len(self.games) else None,
                "p50_s": round(waits[len(waits) // 2], 2) if waits else None,
                "slowest_s": [round(w, 2) for w in waits[-5:]]}
