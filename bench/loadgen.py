"""The load generator: N games, each with a player on every seat and 2 spectators.

A game is a table of bench.tables (a game and its seats); a ``--mix`` run deals the real
site's tables to the slots in turn. Each socket is of one kind (``socket``): ``json``, the
JSON API's socket (``/ws/api/games/<id>/``, a player by its API token), or ``page``, the game
page's own socket (``/ws/games/<id>/``, a player by its signed-in session cookie, with the
page's Origin), which sends rendered HTML; ``mix`` gives each game both, in turn.

Open loop. Every game has a period ``N / rate`` seconds and a random phase; at each of
its slots, one of its players that is asked to act and has not yet acted on its newest view
(chosen by the game's seeded generator) sends a random legal action (bench.choosers: from
its JSON view's legal actions, or from what its page offers to press) with the version it
saw. A refused action lets that player try again on the same view. If no player can act, the
slot is recorded as skipped: ``not_asked`` (the game asks nobody), ``waiting`` (a player still
waits for the answer to its previous action or for a newer view) or ``restarting`` (the game
ended and the slot is moving to a fresh game). A slow server never delays a slot; a slow
generator does, and the lag of every slot behind its schedule is measured so that such runs
can be thrown away.

Latency of an action: from just before ``send`` to the moment the LAST of the game's
sockets has a view with a version at least the one the action created, and apart for each
kind of socket, to the last socket of that kind (``latency_by_socket``), and for each table
(``by_table``). The JSON socket's ``ack`` names that version; the page's socket sends no
ack, so there the first view its player gets after sending, newer than the one it acted
on, is the action's answer (the server answers a socket's frames in order, and a refusal
is an error flash before the view that follows it). Each socket keeps the times at which
it reached each version.

Loss and order, per socket: a view older than one the socket already had is out of order;
an acknowledged version that some socket never reaches before the end of the drain, or an
action that gets neither an ack nor an error, is lost.

A game that ends is replaced by the next game of the pool (its 4 sockets close, 4 new ones
connect), so the load stays steady. Games are spread over ``procs`` processes, each with
its own event loop; all sockets of one game live in one process.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import os
import random
import time
import urllib.request
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.choosers import json_action, page_action, page_error, page_view
from bench.tables import SHAPES, SPECTATORS, socket_kinds

SOCKET_KINDS = ("json", "page")
HIST_MAX_US = 600_000_000  # 10 minutes


def _hist():
    from hdrh.histogram import HdrHistogram

    return HdrHistogram(1, HIST_MAX_US, 3)


@dataclass
class Config:
    """Everything a worker process needs; plain data so that it pickles."""

    ws_urls: list[str]  # one per server worker
    http_url: str | None  # for creating games when the pool runs dry (None: the floor)
    games: int
    rate: float
    warmup: float
    duration: float
    drain: float
    seed: int
    procs: int
    connect_concurrency: int = 24
    # "game": every socket of a game on one worker, chosen by game id (nginx's hash on the
    # game id in docker/nginx); "spread": a game's 4 sockets dealt over the workers in turn
    routing: str = "game"
    game_type: str = "snowball-fight"
    floor: bool = False
    socket: str = "json"  # the kind of every socket (json, page), or mix: both in every game

    def worker_url(self, game_id: int, socket_index: int) -> str:
        """The server worker a game's socket connects to, as ``routing`` says."""
        if self.routing == "game":
            return self.ws_urls[game_id % len(self.ws_urls)]
        return self.ws_urls[(game_id * 4 + socket_index) % len(self.ws_urls)]

    def kinds(self, sockets: int) -> list[str]:
        """The kind of each socket of a game (players first); the floor speaks only JSON."""
        return socket_kinds("json" if self.floor else self.socket, sockets)

    @property
    def period(self) -> float:
        return self.games / self.rate


UNSENT_AFTER = 5.0
"""Seconds after which an acknowledged version that some sockets have not got is taken as one
their viewers' views did not change at (so the server sent them nothing), once the actor has it."""


@dataclass
class Sock:
    role: str  # "p<seat>" or "s<n>"
    kind: str = "json"  # json | page
    ws: Any = None
    version: int = 0
    hist: deque = field(default_factory=lambda: deque(maxlen=256))
    asked: bool = False  # the newest view asks this player to act
    offer: Any = None  # what the player chooses from: its JSON view frame, or its page's HTML
    view_version: int = 0
    acted_version: int = -1
    inflight: str | None = None
    answered: tuple[int, float, bool] | None = None  # a page's inferred answer: (version, sent at, window)
    finished: bool = False
    closing: bool = False
    reader: asyncio.Task | None = None
    first_view: asyncio.Future | None = None

    @property
    def is_player(self) -> bool:
        return self.role[0] == "p"


def socket_request(base: str, game: dict[str, Any], sock: Sock) -> tuple[str, dict[str, str], str | None]:
    """The URL, headers and Origin with which ``sock`` connects to ``game`` at ``base``
    (``ws://host:port``): the JSON socket with the player's API token, or the page's socket
    with the player's session cookie and the page's own Origin, as a browser connects."""
    seat = int(sock.role[1:]) if sock.is_player else None
    if sock.kind == "page":
        headers = {"Cookie": f"sessionid={game['sessions'][seat]}"} if seat is not None else {}
        return f"{base}/ws/games/{game['id']}/", headers, "http://" + base.removeprefix("ws://")
    headers = {"Authorization": f"Token {game['tokens'][seat]}"} if seat is not None else {}
    return f"{base}/ws/api/games/{game['id']}/", headers, None


def reached_at(sock: Sock, version: int, created: dict[int, float],
               in_flight_since: float | None = None) -> float | None:
    """When ``sock`` was sent a view showing ``version``: its first view at or past it, unless that
    view is of a later version made by a move sent before the view arrived (``created``: version ->
    when its move was sent), or by a move still unanswered that was sent before it arrived
    (``in_flight_since``: the earliest send of those; a page's player learns its move's version
    from its own next view, which may come after the others'). That view answers the later move;
    the viewer's view did not change at ``version`` and the server sent it nothing for it (None).
    Had the server skipped ``version`` because it was behind, the later move's own timing has
    that socket."""
    for seen, t in sock.hist:
        if seen < version:
            continue
        if any(created.get(later, t) < t for later in range(version + 1, seen + 1)):
            return None
        if seen > version and in_flight_since is not None and in_flight_since < t:
            return None
        return t
    return None


def latency_by_kind(reached: list[tuple[Sock, float]], t_send: float) -> dict[str, int]:
    """Microseconds from ``t_send`` until the last socket of each kind that was sent the move got it
    (kinds none of whose sockets were sent it are left out)."""
    out: dict[str, int] = {}
    for kind in SOCKET_KINDS:
        times = [t for sock, t in reached if sock.kind == kind]
        if times:
            out[kind] = max(1, int((max(times) - t_send) * 1e6))
    return out


@dataclass
class Slot:
    index: int
    rng: random.Random
    phase: float
    table: str = "snowball-fight"  # its games' shape (bench.tables)
    game: dict[str, Any] | None = None
    socks: list[Sock] = field(default_factory=list)
    sent: dict[str, tuple[float, Sock, bool]] = field(default_factory=dict)
    pending: list[tuple[int, float, bool, Sock]] = field(default_factory=list)  # version, sent at, timed, actor
    created: dict[int, float] = field(default_factory=dict)  # version -> when the move that made it was sent
    ready: bool = False
    generation: int = 0
    restarting: bool = False
    actions_this_game: int = 0


class Worker:
    """One process's share of the games."""

    def __init__(self, cfg: Config, worker_index: int, slot_indexes: list[int], pool: list[dict[str, Any]]):
        self.cfg = cfg
        self.wi = worker_index
        self.slots = [Slot(i, random.Random(cfg.seed * 1_000_003 + i),
                           random.Random(cfg.seed + i).uniform(0, cfg.period)) for i in slot_indexes]
        self.initial = list(pool[:len(slot_indexes)])
        self.spares: dict[str, list[dict[str, Any]]] = {}
        for game in pool[len(slot_indexes):]:
            self.spares.setdefault(game.get("shape", cfg.game_type), []).append(game)
        self.latency = _hist()  # microseconds, actions sent in the window
        self.latency_kind = {kind: _hist() for kind in SOCKET_KINDS}  # to the last socket of each kind
        self.by_table: dict[str, dict[str, Any]] = {}  # table -> its acks and latencies, in the window
        self.lag = _hist()  # microseconds a slot fired behind its schedule, in the window
        self.connect = _hist()  # microseconds from connect to the first view
        self.count: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.view_bytes: dict[str, list[int]] = {f"{kind} {role}": [0, 0] for kind in SOCKET_KINDS
                                                 for role in ("player", "spectator")}
        self.game_lengths: list[int] = []
        self.worst_by_second: dict[int, int] = {}  # second of the window -> worst latency (us) sent then
        self.t_start = self.t_measure = self.t_stop = float("inf")
        self.sending = True

    # ------------------------------------------------------------ time window

    def in_window(self, t: float) -> bool:
        return self.t_measure <= t < self.t_stop

    # ------------------------------------------------------------ sockets

    async def open_game(self, slot: Slot, sem: asyncio.Semaphore) -> None:
        import websockets

        game = slot.game
        seats = len(game["tokens"])
        roles = [f"p{seat}" for seat in range(seats)] + [f"s{n}" for n in range(SPECTATORS)]
        slot.socks = [Sock(role, kind) for role, kind in zip(roles, self.cfg.kinds(len(roles)))]
        slot.sent.clear()
        slot.pending.clear()
        slot.created.clear()
        slot.actions_this_game = 0
        loop = asyncio.get_running_loop()
        for j, sock in enumerate(slot.socks):
            base = self.cfg.worker_url(game["id"], j)
            url, headers, origin = socket_request(base, game, sock)
            sock.first_view = loop.create_future()
            for attempt in range(5):
                async with sem:
                    t0 = time.monotonic()
                    try:
                        sock.ws = await websockets.connect(url, additional_headers=headers, origin=origin,
                                                           compression=None, ping_interval=None, max_size=2**22,
                                                           open_timeout=60, close_timeout=2)
                    except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake) as exc:
                        self.count["connect_failures"] += 1
                        if attempt == 4:  # give up on this socket; the run reports it
                            self.count["sockets_not_connected"] += 1
                            self.errors[f"connect: {type(exc).__name__}"] += 1
                            sock.ws = None
                            break
                        await asyncio.sleep(0.5 * (attempt + 1))
                        continue
                    sock.reader = asyncio.create_task(self.read(slot, sock, slot.generation))
                    try:
                        await asyncio.wait_for(asyncio.shield(sock.first_view), 120)
                    except asyncio.TimeoutError:
                        self.count["first_view_timeouts"] += 1
                    self.connect.record_value(max(1, int((time.monotonic() - t0) * 1e6)))
                    break
        slot.ready = all(sock.ws is not None for sock in slot.socks)
        if not slot.ready:
            self.count["slots_out_of_play"] += 1

    async def close_game(self, slot: Slot) -> None:
        for sock in slot.socks:
            sock.closing = True
        await asyncio.gather(*(s.ws.close() for s in slot.socks if s.ws is not None), return_exceptions=True)
        for sock in slot.socks:
            if sock.reader is not None:
                sock.reader.cancel()

    async def read(self, slot: Slot, sock: Sock, generation: int) -> None:
        import websockets

        loads = orjson.loads  # 3-4x json.loads on 8-12 KB views: the generator's largest cost
        try:
            async for text in sock.ws:
                now = time.monotonic()
                if sock.kind == "page":
                    self.on_page_frame(slot, sock, text, now)
                    continue
                frame = loads(text)
                kind = frame.get("type")
                self.count["frames_in"] += 1
                if kind == "view":
                    self.on_json_view(slot, sock, frame, now, len(text))
                elif kind == "ack":
                    self.on_ack(slot, frame, now)
                elif kind == "error":
                    self.on_error(slot, frame)
                else:
                    self.count[f"frames_{kind}"] += 1
        except websockets.ConnectionClosed as exc:
            if not sock.closing:
                self.count["unexpected_closes"] += 1
                self.errors[f"closed_{exc.rcvd.code if exc.rcvd else 'none'}"] += 1
        except asyncio.CancelledError:
            pass

    def on_page_frame(self, slot: Slot, sock: Sock, text: str, now: float) -> None:
        """A frame of the page's socket: the live region (a view), an error flash, or other HTML."""
        self.count["frames_in"] += 1
        seen = page_view(text)
        if seen is not None:
            if sock.inflight is not None and seen.version > sock.acted_version:
                self.answer_page_action(slot, sock, seen.version, now)
            self.on_view(slot, sock, seen.version, seen.status, seen.asked, text, now, len(text))
            return
        code = page_error(text)
        if code is None:
            self.count["frames_page_other"] += 1
            return
        if sock.inflight is not None:
            self.on_error(slot, {"code": code, "action_id": sock.inflight})
            return
        self.errors[code] += 1
        answered = sock.answered
        entry = next((e for e in slot.pending if answered and e[3] is sock and e[0] == answered[0]), None)
        if entry is not None:  # the view taken for its answer was another player's move that crossed it
            slot.pending.remove(entry)
            self.count["page_answers_retracted"] += 1
        elif answered is not None:  # ... and was already timed as its answer
            self.count["page_answers_mistaken"] += 1
        if answered is not None:  # it was refused after all
            self.count["refused"] += 1
            self.table_tally(slot.table)["refused"] += 1
            if self.in_window(now):
                self.count["acks_in_window"] -= 1
                self.table_tally(slot.table)["acks_in_window"] -= 1
        sock.answered = None

    def answer_page_action(self, slot: Slot, sock: Sock, version: int, now: float) -> None:
        """The page's first newer view after its player's action: the action's answer, at that version."""
        entry = slot.sent.pop(sock.inflight, None)
        sock.inflight = None
        if entry is None:
            return
        sock.answered = (version, entry[0], entry[2])
        self.count["page_answers"] += 1
        self.acknowledged(slot, entry, version, now)

    def on_json_view(self, slot: Slot, sock: Sock, frame: dict[str, Any], now: float, size: int) -> None:
        self.on_view(slot, sock, frame["version"], frame.get("status"), bool(frame.get("legal_actions")),
                     frame, now, size)

    def on_view(self, slot: Slot, sock: Sock, version: int, status: str | None, asked: bool, offer: Any,
                now: float, size: int) -> None:
        bucket = self.view_bytes[f"{sock.kind} {'player' if sock.is_player else 'spectator'}"]
        bucket[0] += size
        bucket[1] += 1
        if sock.first_view is not None and not sock.first_view.done():
            sock.first_view.set_result(None)
        if version < sock.version:
            self.count["out_of_order"] += 1
            return
        if version == sock.version:
            self.count["repeated_views"] += 1
            if sock.is_player:  # e.g. the fresh view after a stale_version refusal
                sock.asked, sock.offer = asked, offer
            return
        if sock.version and version > sock.version + 1:
            self.count["version_gaps"] += 1  # allowed: a socket may skip versions
        sock.version = version
        sock.hist.append((version, now))
        if sock.is_player:
            sock.asked, sock.offer = asked, offer
            sock.view_version = version
        if status == "finished" and not sock.finished:
            sock.finished = True
            if not slot.restarting and slot.ready:
                slot.restarting = True
                asyncio.get_running_loop().create_task(self.restart(slot))
        if slot.pending:
            self.settle(slot, now)

    def on_ack(self, slot: Slot, frame: dict[str, Any], now: float) -> None:
        entry = slot.sent.pop(frame.get("action_id"), None)
        if entry is None:
            self.count["unknown_acks"] += 1
            return
        entry[1].inflight = None
        if frame.get("duplicate"):
            self.count["duplicate_acks"] += 1
        self.acknowledged(slot, entry, frame["version"], now)

    def acknowledged(self, slot: Slot, entry: tuple[float, Sock, bool], version: int, now: float) -> None:
        t_send, player, window = entry
        self.count["acks"] += 1
        if window:
            self.count["acks_for_window_sends"] += 1
        if self.in_window(now):
            self.count["acks_in_window"] += 1
            self.table_tally(slot.table)["acks_in_window"] += 1
        slot.actions_this_game += 1
        slot.created[version] = t_send
        slot.pending.append((version, t_send, window, player))
        self.settle(slot, now)

    def on_error(self, slot: Slot, frame: dict[str, Any]) -> None:
        code = frame.get("code", "?")
        self.errors[code] += 1
        entry = slot.sent.pop(frame.get("action_id"), None)
        if entry is not None:
            player = entry[1]
            player.inflight = None
            if code != "stale_version":  # refused on this view: the player may choose again on it
                player.acted_version = -1
            self.count["refused"] += 1
            self.table_tally(slot.table)["refused"] += 1

    def table_tally(self, table: str) -> dict[str, Any]:
        tally = self.by_table.get(table)
        if tally is None:
            tally = self.by_table[table] = {"acks_in_window": 0, "refused": 0, "finished": 0,
                                            "latency": _hist(),
                                            "latency_by_socket": {kind: _hist() for kind in SOCKET_KINDS}}
        return tally

    def settle(self, slot: Slot, now: float, *, give_up_after: float | None = None) -> None:
        """Complete every pending action whose version all the game's sockets have reached.

        The server sends a socket a view only when its viewer's view changed (docs/api.md), so
        a version some viewers never get is not a loss when their view did not change. Such a
        socket's next view is a later move's: that one is not counted for this move
        (``reached_at``). With ``give_up_after``, an action whose actor has its version and that
        was sent that many seconds ago is completed without the sockets still behind it. Either
        way the action is timed until the last socket that was sent it, and the others are
        counted (``viewers_not_sent``)."""
        keep = []
        in_flight_since = min((sent[0] for sent in slot.sent.values()), default=None)
        for entry in slot.pending:
            version, t_send, window, actor = entry
            behind = [s for s in slot.socks if s.version < version]
            if behind and (give_up_after is None or actor.version < version or now - t_send < give_up_after):
                keep.append(entry)
                continue
            reached = [(s, reached_at(s, version, slot.created, in_flight_since))
                       for s in slot.socks if s.version >= version]
            reached = [(s, t) for s, t in reached if t is not None]
            self.count["viewers_not_sent"] += len(slot.socks) - len(reached)
            done = max((t for _, t in reached), default=now)
            if window:
                us = max(1, int((done - t_send) * 1e6))
                self.latency.record_value(us)
                tally = self.table_tally(slot.table)
                tally["latency"].record_value(us)
                for kind, kind_us in latency_by_kind(reached, t_send).items():
                    self.latency_kind[kind].record_value(kind_us)
                    tally["latency_by_socket"][kind].record_value(kind_us)
                second = int(t_send - self.t_measure)
                if us > self.worst_by_second.get(second, 0):
                    self.worst_by_second[second] = us
            self.count["delivered"] += 1
        slot.pending = keep

    # ------------------------------------------------------------ games ending

    async def restart(self, slot: Slot) -> None:
        """Wait (briefly) for every socket to see the end, then move the slot to a fresh game."""
        try:
            await self._restart(slot)
        except Exception as exc:  # the slot stays out of play; its slots count as "restarting"
            self.count["restart_failures"] += 1
            self.errors[f"restart: {exc!r}"[:200]] += 1

    async def _restart(self, slot: Slot) -> None:
        deadline = time.monotonic() + 10
        while not all(s.finished for s in slot.socks) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        while (slot.pending or slot.sent) and time.monotonic() < deadline:  # an action sent as the game
            await asyncio.sleep(0.05)                                     # ended still gets its answer
        slot.ready = False
        self.account_losses(slot)
        self.game_lengths.append(slot.actions_this_game)
        if self.in_window(time.monotonic()):
            self.table_tally(slot.table)["finished"] += 1
        await self.close_game(slot)
        if not self.sending:
            slot.restarting = False
            return
        slot.generation += 1
        slot.game = await self.next_game(slot)
        self.count["restarts"] += 1
        await self.open_game(slot, asyncio.Semaphore(4))
        slot.restarting = False

    def account_losses(self, slot: Slot) -> None:
        self.count["lost_versions"] += len(slot.pending)
        self.count["lost_acks"] += len(slot.sent)
        slot.pending.clear()
        slot.sent.clear()

    async def next_game(self, slot: Slot) -> dict[str, Any]:
        spares = self.spares.get(slot.table)
        if spares:
            return spares.pop(0)
        if self.cfg.http_url is None:  # the floor makes a game on its first connect
            self._floor_ids = getattr(self, "_floor_ids", 10_000_000 + self.wi * 1_000_000) + 1
            return {"id": self._floor_ids, "shape": slot.table, "tokens": list(slot.game["tokens"])}
        if SHAPES[slot.table].seats != 2 or SHAPES[slot.table].teams:
            raise RuntimeError(f"the pool of {slot.table} games ran dry (make a larger --pool)")
        self.count["games_created_over_http"] += 1
        tokens = slot.game["tokens"]
        return await asyncio.get_running_loop().run_in_executor(None, self.create_over_http, tokens)

    def create_over_http(self, tokens: list[str]) -> dict[str, Any]:
        """The pool ran dry: a new game through the HTTP API, seated by the same two players."""
        def call(path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
            request = urllib.request.Request(self.cfg.http_url + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Authorization": f"Token {token}",
                                                      "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as reply:
                return json.loads(reply.read())

        game = call("/api/games/", tokens[0], {"game_type": self.cfg.game_type, "seats": 2, "take_seat": True})
        call(f"/api/games/{game['id']}/join/", tokens[1], {"seat": 1})
        call(f"/api/games/{game['id']}/start/", tokens[0], {})
        return {"id": game["id"], "shape": self.cfg.game_type, "tokens": list(tokens)}

    # ------------------------------------------------------------ the schedule

    async def drive(self, slot: Slot) -> None:
        loop = asyncio.get_running_loop()
        period = self.cfg.period
        k = 0
        while True:
            target = self.t_start + slot.phase + k * period
            if target >= self.t_stop:
                return
            delay = target - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            now = time.monotonic()
            window = self.in_window(target)
            if window:
                self.lag.record_value(max(1, int((now - target) * 1e6)))
                self.count["slots_in_window"] += 1
            await self.fire(slot, k, now, window)
            k += 1

    async def fire(self, slot: Slot, k: int, now: float, window: bool) -> None:
        if not slot.ready or slot.restarting:
            if window:
                self.skipped["restarting" if slot.restarting or slot.generation else "out_of_play"] += 1
            return
        if slot.pending:
            self.settle(slot, now, give_up_after=UNSENT_AFTER)
        players = [s for s in slot.socks if s.is_player]
        ready = [p for p in players if p.asked and p.inflight is None and p.view_version > p.acted_version]
        if not ready:
            if window:
                busy = any(p.inflight is not None or (p.asked and p.view_version <= p.acted_version) for p in players)
                self.skipped["waiting" if busy else "not_asked"] += 1
            return
        player = ready[0] if len(ready) == 1 else slot.rng.choice(ready)
        action = self.choose(slot, player)
        if action is None:  # asked, but offered nothing it would press: it waits for a newer view
            player.acted_version = player.view_version
            if window:
                self.skipped["nothing_offered"] += 1
            return
        action_id = f"{slot.index}.{slot.generation}.{k}"
        frame = json.dumps({"type": "action", "action": action, "action_id": action_id,
                            "version": player.view_version})
        player.inflight = action_id
        player.acted_version = player.view_version
        t_send = time.monotonic()
        slot.sent[action_id] = (t_send, player, window)
        self.count["sends"] += 1
        if window:
            self.count["sends_in_window"] += 1
        try:
            await player.ws.send(frame)
        except Exception:
            self.count["send_failures"] += 1
            slot.sent.pop(action_id, None)
            player.inflight = None

    def choose(self, slot: Slot, player: Sock) -> dict[str, Any] | None:
        """The player's random legal action from what its socket was sent (the floor's are any)."""
        if self.cfg.floor:
            return slot.rng.choice(player.offer["legal_actions"])
        slug = SHAPES[slot.table].slug
        if player.kind == "page":
            return page_action(slug, player.offer, slot.rng)
        return json_action(slug, player.offer, slot.rng)

    # ------------------------------------------------------------ the run

    def _progress(self) -> tuple[int, int]:
        return self.count["delivered"], self.count["acks"] + self.count["refused"]

    async def run(self, conn) -> None:
        import psutil

        me = psutil.Process()
        sem = asyncio.Semaphore(self.cfg.connect_concurrency)
        loop = asyncio.get_running_loop()
        t0 = time.monotonic()
        for slot, game in zip(self.slots, self.initial):
            slot.game = game
            slot.table = game.get("shape", self.cfg.game_type)
        await asyncio.gather(*(self.open_game(slot, sem) for slot in self.slots))
        connect_s = time.monotonic() - t0
        conn.send(("connected", {"sockets": sum(len(slot.socks) for slot in self.slots), "seconds": connect_s}))
        message, t_start = await loop.run_in_executor(None, conn.recv)
        assert message == "go"
        self.t_start = t_start
        self.t_measure = t_start + self.cfg.warmup
        self.t_stop = self.t_measure + self.cfg.duration
        cpu0 = None
        drivers = [asyncio.create_task(self.drive(slot)) for slot in self.slots]
        await asyncio.sleep(max(0.0, self.t_measure - time.monotonic()))
        cpu0 = me.cpu_times()
        w0 = time.monotonic()
        await asyncio.gather(*drivers)
        await asyncio.sleep(max(0.0, self.t_stop - time.monotonic()))
        cpu1 = me.cpu_times()
        wall = time.monotonic() - w0
        self.sending = False
        # Drain: wait while deliveries still make progress; stop when nothing is pending, when
        # nothing arrived for `drain` seconds (then what is missing is lost), or after 300 s.
        hard = time.monotonic() + 300
        last_progress, last_seen = time.monotonic(), self._progress()
        quiet = max(self.cfg.drain, UNSENT_AFTER + 1.0)  # a move some viewers were not sent is settled after UNSENT_AFTER
        while time.monotonic() < hard and time.monotonic() - last_progress < quiet:
            for slot in self.slots:
                if slot.pending:
                    self.settle(slot, time.monotonic(), give_up_after=UNSENT_AFTER)
            if not any(s.pending or s.sent or s.restarting for s in self.slots):
                break
            await asyncio.sleep(0.1)
            seen = self._progress()
            if seen != last_seen:
                last_progress, last_seen = time.monotonic(), seen
        drain_s = time.monotonic() - self.t_stop
        # anything still pending now was lost
        for slot in self.slots:
            self.account_losses(slot)
        await asyncio.gather(*(self.close_game(s) for s in self.slots if s.ready), return_exceptions=True)
        cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
        conn.send(("done", {
            "worker": self.wi,
            "pid": os.getpid(),
            "connect_seconds": connect_s,
            "drain_seconds": drain_s,
            "cpu_core_fraction": cpu / wall if wall else None,
            "latency": self.latency.encode(),
            "latency_by_socket": {kind: h.encode() for kind, h in self.latency_kind.items()},
            "by_table": {table: {**{k: v for k, v in t.items() if not k.startswith("latency")},
                                 "latency": t["latency"].encode(),
                                 "latency_by_socket": {kind: h.encode() for kind, h in t["latency_by_socket"].items()}}
                         for table, t in self.by_table.items()},
            "lag": self.lag.encode(),
            "connect": self.connect.encode(),
            "count": dict(self.count),
            "errors": dict(self.errors),
            "skipped": dict(self.skipped),
            "view_bytes": self.view_bytes,
            "game_lengths": self.game_lengths,
            "worst_by_second": self.worst_by_second,
            "pool_left": sum(len(games) for games in self.spares.values()),
        }))


def _worker_main(cfg: Config, wi: int, slot_indexes: list[int], pool: list[dict[str, Any]], conn) -> None:
    try:
        asyncio.run(Worker(cfg, wi, slot_indexes, pool).run(conn))
    except BaseException as exc:  # report, do not hang the parent
        import traceback

        conn.send(("failed", traceback.format_exc()))
        raise SystemExit(1) from exc


class LoadGenerator:
    """Runs the workers; the caller measures the server between ``connect`` and ``go``."""

    def __init__(self, cfg: Config, pool: list[dict[str, Any]]):
        if len(pool) < cfg.games:
            raise ValueError(f"{cfg.games} games need at least as many in the pool, got {len(pool)}")
        self.cfg = cfg
        ctx = mp.get_context("spawn")
        self.conns = []
        self.procs = []
        initial, spare = pool[:cfg.games], pool[cfg.games:]
        for wi in range(cfg.procs):
            slot_indexes = list(range(wi, cfg.games, cfg.procs))
            mine = [initial[i] for i in slot_indexes] + spare[wi::cfg.procs]
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(cfg, wi, slot_indexes, mine, child), daemon=True)
            self.conns.append(parent)
            self.procs.append(proc)

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs if p.pid]

    def _recv(self, conn, expect: str, timeout: float):
        if not conn.poll(timeout):
            raise RuntimeError(f"a load generator process sent no {expect!r} in {timeout:.0f} s")
        message, data = conn.recv()
        if message == "failed":
            raise RuntimeError(f"a load generator process failed:\n{data}")
        if message != expect:
            raise RuntimeError(f"expected {expect!r} from a load generator process, got {message!r}")
        return data

    def connect(self, timeout: float = 900) -> dict[str, Any]:
        """Start the workers and wait until every socket has its first view."""
        t0 = time.monotonic()
        for proc in self.procs:
            proc.start()
        replies = [self._recv(conn, "connected", timeout) for conn in self.conns]
        return {"sockets": sum(r["sockets"] for r in replies), "seconds": time.monotonic() - t0}

    def go(self, delay: float = 1.0) -> float:
        t_start = time.monotonic() + delay
        for conn in self.conns:
            conn.send(("go", t_start))
        return t_start

    def results(self) -> dict[str, Any]:
        cfg = self.cfg
        timeout = cfg.warmup + cfg.duration + cfg.drain + 420
        replies = [self._recv(conn, "done", timeout) for conn in self.conns]
        for proc in self.procs:
            proc.join(timeout=30)
        return merge(replies, cfg)


def _pcts(hist, scale: float = 1e3) -> dict[str, float | int]:
    count = hist.get_total_count()
    if not count:
        return {"count": 0, "p50": None, "p90": None, "p99": None, "p999": None, "max": None, "mean": None}
    return {"count": count,
            "p50": hist.get_value_at_percentile(50) / scale,
            "p90": hist.get_value_at_percentile(90) / scale,
            "p99": hist.get_value_at_percentile(99) / scale,
            "p999": hist.get_value_at_percentile(99.9) / scale,
            "max": hist.get_max_value() / scale,
            "mean": hist.get_mean_value() / scale}


def _decoded(encoded: list[str]):
    hist = _hist()
    for text in encoded:
        hist.decode_and_add(text)
    return hist


def merge_tables(replies: list[dict[str, Any]], duration: float) -> dict[str, Any]:
    """Each table's figures over every generator process: actions acknowledged per second,
    refusals, games finished, and latency to the last socket and to the last of each kind."""
    tables: dict[str, Any] = {}
    for name in sorted({name for r in replies for name in r.get("by_table", {})}):
        rows = [r["by_table"][name] for r in replies if name in r.get("by_table", {})]
        kinds = sorted({kind for row in rows for kind in row["latency_by_socket"]})
        tables[name] = {
            "actions_per_s": sum(row["acks_in_window"] for row in rows) / duration,
            "refused": sum(row["refused"] for row in rows),
            "finished_games": sum(row["finished"] for row in rows),
            "latency_ms": _pcts(_decoded([row["latency"] for row in rows])),
            "latency_by_socket_ms": {kind: _pcts(_decoded([row["latency_by_socket"][kind] for row in rows
                                                           if kind in row["latency_by_socket"]]))
                                     for kind in kinds},
        }
    return tables


def merge(replies: list[dict[str, Any]], cfg: Config) -> dict[str, Any]:
    latency, lag, connect = _hist(), _hist(), _hist()
    by_socket = {kind: _hist() for kind in SOCKET_KINDS}
    count: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    view_bytes: dict[str, list[int]] = {}
    lengths: list[int] = []
    worst: dict[int, int] = {}
    for r in replies:
        for second, us in r["worst_by_second"].items():
            worst[int(second)] = max(worst.get(int(second), 0), us)
        latency.decode_and_add(r["latency"])
        for kind, text in r.get("latency_by_socket", {}).items():
            by_socket[kind].decode_and_add(text)
        lag.decode_and_add(r["lag"])
        connect.decode_and_add(r["connect"])
        count.update(r["count"])
        errors.update(r["errors"])
        skipped.update(r["skipped"])
        for key, (size, n) in r["view_bytes"].items():
            bucket = view_bytes.setdefault(key, [0, 0])
            bucket[0] += size
            bucket[1] += n
        lengths += r["game_lengths"]
    by_role = {role: [sum(b[0] for k, b in view_bytes.items() if k.endswith(role)),
                      sum(b[1] for k, b in view_bytes.items() if k.endswith(role))] for role in ("player", "spectator")}
    return {
        "latency_ms": _pcts(latency),
        "latency_by_socket_ms": {kind: _pcts(h) for kind, h in by_socket.items() if h.get_total_count()},
        "by_table": merge_tables(replies, cfg.duration),
        "socket": "json" if cfg.floor else cfg.socket,
        "schedule_lag_ms": _pcts(lag),
        "connect_ms": _pcts(connect),
        "offered_actions_per_s": count["sends_in_window"] / cfg.duration,
        "sustained_actions_per_s": count["acks_in_window"] / cfg.duration,
        "nominal_actions_per_s": cfg.rate,
        # of the slots where a player had something to do, the share whose action was acknowledged
        "served_fraction": (count["acks_in_window"] / max(1, count["slots_in_window"] - skipped["not_asked"]
                                                             - skipped["restarting"] - skipped["out_of_play"]
                                                             - skipped["nothing_offered"])),
        "lost": count["lost_versions"] + count["lost_acks"],
        "out_of_order": count["out_of_order"],
        "count": dict(count),
        "errors": dict(errors),
        "skipped_slots": dict(skipped),
        "mean_view_bytes": {role: (b[0] / b[1] if b[1] else None) for role, b in by_role.items()},
        "mean_view_bytes_by_socket": {key: b[0] / b[1] for key, b in view_bytes.items() if b[1]},
        "mean_actions_per_finished_game": (sum(lengths) / len(lengths)) if lengths else None,
        "finished_games": len(lengths),
        "game_lengths": lengths,  # of the games that ended, in the order they ended
        # the worst latency of the actions sent in each second of the window, ms
        "worst_ms_by_second": [round(worst.get(i, 0) / 1e3, 1) for i in range(int(cfg.duration))],
        "drain_seconds": max(r["drain_seconds"] for r in replies),
        "workers": [{"worker": r["worker"], "pid": r["pid"], "cpu_core_fraction": r["cpu_core_fraction"],
                     "connect_seconds": r["connect_seconds"], "pool_left": r["pool_left"]} for r in replies],
    }
