"""The Channels floor: bench.floor's protocol served by daphne and Channels, with no game.

    daphne -b 127.0.0.1 -p 8766 bench.channels_floor:application

Same wire protocol and view sizes as bench.floor, but built the way Snowball's sockets are:
daphne (Twisted, autobahn), an ``AsyncWebsocketConsumer`` per socket, one channel-layer group
per game (Snowball's in-memory layer), and on each action an ``ack`` to the sender and a
group message after which every socket of the game sends its viewer's view (serialised once
per role and version). No database, no lock, no rules, no thread hop. The distance from the
bare floor to this one is what daphne and Channels cost; the distance from this one to the
real server is what Snowball's own work costs (docs/performance.md).

View sizes and game length come from the environment (bench.servers sets them):
``FLOOR_PAD_PLAYER``, ``FLOOR_PAD_SPECTATOR``, ``FLOOR_GAME_LENGTHS`` (as bench.floor's
``--game-lengths``).
"""
from __future__ import annotations

import json
import os
from typing import Any

import django
from django.conf import settings

if not settings.configured:
    settings.configure(
        CHANNEL_LAYERS={"default": {"BACKEND": "games.channel_layers.InMemoryLayer", "CONFIG": {"capacity": 1000}}},
        INSTALLED_APPS=[],
        USE_TZ=True,
    )
    django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from bench.floor import LEGAL, GameLengths  # noqa: E402
from snowball_site.tuning import tune_the_interpreter  # noqa: E402

PAD = {"player": int(os.environ.get("FLOOR_PAD_PLAYER", "2600")),
       "spectator": int(os.environ.get("FLOOR_PAD_SPECTATOR", "2200"))}
LENGTHS = GameLengths(GameLengths.parse(os.environ.get("FLOOR_GAME_LENGTHS", "")))


class Game:
    __slots__ = ("version", "actions", "status", "texts", "length")

    def __init__(self, game_id: int) -> None:
        self.version, self.actions, self.status = 1, 0, "active"
        self.length = LENGTHS.next() if game_id else 0  # game 0: the warm-up's touch
        self.texts: dict[str, tuple[int, str]] = {}

    def view(self, game_id: int, role: str) -> str:
        cached = self.texts.get(role)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        frame: dict[str, Any] = {"type": "view", "game_id": game_id, "status": self.status, "version": self.version,
                                 "legal_actions": LEGAL if role == "player" and self.status == "active" else [],
                                 "pad": ""}
        text = json.dumps(frame)
        if PAD[role] > len(text):
            frame["pad"] = "x" * (PAD[role] - len(text))
            text = json.dumps(frame)
        self.texts[role] = (self.version, text)
        return text


GAMES: dict[int, Game] = {}


class FloorConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:  # as Snowball's: no DB-thread hop
        await getattr(self, get_handler_name(message))(message)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.game = GAMES.get(self.game_id)
        if self.game is None:  # made once per game: a new game takes the next length
            self.game = GAMES[self.game_id] = Game(self.game_id)
        self.role = "player" if any(name == b"authorization" for name, _ in self.scope["headers"]) else "spectator"
        self.group = f"game.{self.game_id}"
        self.sent = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = json.loads(text_data or "{}")
        game = self.game
        if frame.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "version": game.version}))
            return
        if frame.get("type") != "action" or self.role != "player":
            return
        if game.status != "active":
            await self.send(text_data=json.dumps({"type": "error", "code": "conflict", "message": "the game is over",
                                                  "version": game.version, "action_id": frame.get("action_id")}))
            return
        game.version += 1
        game.actions += 1
        if game.length and game.actions >= game.length:
            game.status = "finished"
        await self.send(text_data=json.dumps({"type": "ack", "action_id": frame.get("action_id"),
                                              "version": game.version, "duplicate": False}))
        await self.channel_layer.group_send(self.group, {"type": "game.changed", "version": game.version})

    async def game_changed(self, message: dict[str, Any]) -> None:
        if message["version"] > self.sent:
            await self.send_view()

    async def send_view(self) -> None:
        self.sent = self.game.version
        await self.send(text_data=self.game.view(self.game_id, self.role))


application = URLRouter([path("ws/api/games/<int:game_id>/", FloorConsumer.as_asgi())])


if os.environ.get("FLOOR_UNTUNED", "") in ("", "0"):
    # as snowball_site/asgi.py does, so that only the game differs
    tune_the_interpreter(full_collection_every=float(os.environ.get("SNOWBALL_FULL_COLLECTION_SECONDS", "300")))
