"""The floor: a bare ``websockets`` broadcast server doing Snowball's fan-out with no game logic.

    python -m bench.floor --games 250 --rate 300 --duration 60     the floor alone, under load
    python -m bench.floor --serve --port 8765                      just the server

It speaks just enough of the JSON socket (docs/api.md) for the load generator: the same
URL (``/ws/api/games/<id>/``), a socket with an ``Authorization`` header is a player, one
without is a spectator. A game is created on its first connect at version 1. On an
``action`` frame it bumps the game's version, sends the sender an ``ack``, then sends every
socket of the game a ``view`` with the new version (players with a list of legal actions).
No database, no lock, no rules, no channel layer, one process and one event loop, like one
daphne worker. Each view is serialised once per role per version and padded to the byte size
given (bench.live passes the mean sizes of the real server's views), so the bytes on the
wire match. ``--game-lengths 66,40,...`` ends the games that start first after those many
actions (``status: finished``), so that the generator moves to fresh games as often, and at
the same points, as it did against the real server (bench.live passes the lengths of the
games that ended in that run; ``GameLengths``).

Compression is off on both sides (daphne does not negotiate permessage-deflate).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from typing import Any

LEGAL = [{"type": "play", "card": f"c{n:02d}", "side": side} for n in (1, 5, 9) for side in ("top", "bottom")]


class FloorGame:
    __slots__ = ("version", "actions", "players", "spectators", "status", "length")

    def __init__(self) -> None:
        self.version = 1
        self.actions = 0
        self.players: set = set()
        self.spectators: set = set()
        self.status = "active"
        self.length = 0


class GameLengths:
    """How long the floor's games last: the lengths of the games that ended in the measured
    server's run, handed to the floor's games in the order they start; later games never end.

    So the floor has as many games ending, at the same lengths, as the run it is compared
    with. One length for every game would end them all together (they play at one rate):
    a burst of reconnects that made the floors' own tail.
    """

    def __init__(self, lengths: list[int]):
        self._left = list(lengths)

    def next(self) -> int:
        return self._left.pop(0) if self._left else 0

    @staticmethod
    def parse(text: str) -> list[int]:
        """``"66,40,91"`` -> ``[66, 40, 91]``; empty -> ``[]``."""
        return [int(part) for part in text.split(",") if part.strip()]


class Floor:
    def __init__(self, pad_player: int, pad_spectator: int, game_lengths: list[int]):
        self.pad = {"player": pad_player, "spectator": pad_spectator}
        self.lengths = GameLengths(game_lengths)
        self.games: dict[int, FloorGame] = {}

    def view(self, game_id: int, game: FloorGame, role: str) -> str:
        frame: dict[str, Any] = {"type": "view", "game_id": game_id, "status": game.status, "version": game.version,
                                 "legal_actions": LEGAL if role == "player" and game.status == "active" else [],
                                 "pad": ""}
        text = json.dumps(frame)
        missing = self.pad[role] - len(text)
        if missing > 0:
            frame["pad"] = "x" * missing
            text = json.dumps(frame)
        return text

    async def handler(self, ws) -> None:
        from websockets.asyncio.server import broadcast

        parts = ws.request.path.split("?")[0].strip("/").split("/")
        if len(parts) != 4 or parts[:3] != ["ws", "api", "games"] or not parts[3].isdigit():
            await ws.close(4004)
            return
        game_id = int(parts[3])
        game = self.games.get(game_id)
        if game is None:
            game = self.games[game_id] = FloorGame()
            game.length = self.lengths.next() if game_id else 0  # game 0: the warm-up's touch
        is_player = ws.request.headers.get("Authorization") is not None
        (game.players if is_player else game.spectators).add(ws)
        try:
            await ws.send(self.view(game_id, game, "player" if is_player else "spectator"))
            async for text in ws:
                frame = json.loads(text)
                kind = frame.get("type")
                if kind == "ping":
                    await ws.send(json.dumps({"type": "pong", "version": game.version}))
                    continue
                if kind != "action" or not is_player:
                    continue
                if game.status != "active":
                    await ws.send(json.dumps({"type": "error", "code": "conflict", "message": "the game is over",
                                              "version": game.version, "action_id": frame.get("action_id")}))
                    continue
                game.version += 1
                game.actions += 1
                if game.length and game.actions >= game.length:
                    game.status = "finished"
                await ws.send(json.dumps({"type": "ack", "action_id": frame.get("action_id"),
                                          "version": game.version, "duplicate": False}))
                broadcast(game.players, self.view(game_id, game, "player"))
                broadcast(game.spectators, self.view(game_id, game, "spectator"))
        finally:
            game.players.discard(ws)
            game.spectators.discard(ws)
            if not game.players and not game.spectators and game.status != "active":
                self.games.pop(game_id, None)


async def serve(port: int, pad_player: int, pad_spectator: int, game_lengths: list[int]) -> None:
    from websockets.asyncio.server import serve as ws_serve

    floor = Floor(pad_player, pad_spectator, game_lengths)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with ws_serve(floor.handler, "127.0.0.1", port, compression=None, ping_interval=20,
                        max_size=2**16, max_queue=64):
        await stop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", action="store_true", help="only run the floor server")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--pad-player", type=int, default=2600, help="bytes of a player's view (default 2600)")
    parser.add_argument("--pad-spectator", type=int, default=2200, help="bytes of a spectator's view (default 2200)")
    parser.add_argument("--game-lengths", type=GameLengths.parse, default=[],
                        help="comma-separated actions after which the games that start first end, in order "
                             "(default: none ends)")
    from bench.live import add_load_arguments

    add_load_arguments(parser)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(args.port, args.pad_player, args.pad_spectator, args.game_lengths))
        return 0
    from bench.live import print_run, run_floor
    from bench.common import machine, write_result

    info = machine()
    result = run_floor(args, pad_player=args.pad_player, pad_spectator=args.pad_spectator,
                       game_lengths=args.game_lengths)
    print_run("floor", result)
    path = write_result(f"floor-{args.games}g", {"machine": info, "args": vars(args), "floor": result}, args.out)
    print(f"written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
