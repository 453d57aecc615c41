"""Smoke test of a running two-worker cluster, through its nginx address.

Run by ``docker/run_local_cluster.sh --check``, with the cluster's environment
(DATABASE_URL, REDIS_URL, DJANGO_*). It checks that HTTP reaches both workers,
that nginx serves /static/ itself, that websockets upgrade through nginx onto
both workers, that every socket of one game lands on the same worker while
different games spread over both, and that a message sent to the lobby group
through the Redis channel layer reaches the sockets of both workers.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import os
import socket
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class CheckFailed(Exception):
    pass


class WebSocket:
    """Just enough of a websocket client to upgrade and read text frames."""

    def __init__(self, host: str, port: int, path: str, *, host_header: str, origin: str) -> None:
        self.sock = socket.create_connection((host, port), timeout=5)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\nOrigin: {origin}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise CheckFailed(f"websocket upgrade of {path} answered {lines[0]!r}")
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        if headers.get("sec-websocket-accept") != accept:
            raise CheckFailed("websocket upgrade answered a wrong Sec-WebSocket-Accept")

    def read_text(self, timeout: float) -> str:
        """The next text frame's payload; CheckFailed if none comes in time."""
        self.sock.settimeout(timeout)
        try:
            while True:
                opcode, payload = self._read_frame()
                if opcode == 0x1:
                    return payload.decode()
                if opcode == 0x8:
                    raise CheckFailed("the server closed the websocket")
        except socket.timeout:
            raise CheckFailed(f"no websocket message within {timeout}s") from None

    def close(self) -> None:
        self.sock.sendall(bytes([0x88, 0x80]) + os.urandom(4))
        self.sock.close()

    def _read_frame(self) -> tuple[int, bytes]:
        first, second = self._take(2)
        length = second & 0x7F
        if length == 126:
            length = int.from_bytes(self._take(2), "big")
        elif length == 127:
            length = int.from_bytes(self._take(8), "big")
        return first & 0x0F, self._take(length)

    def _take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += self._recv()
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise CheckFailed("the websocket connection closed")
        return data


def access_lines(run_dir: Path, port: int, needle: str) -> int:
    log = run_dir / f"worker-{port}.access.log"
    return sum(needle in line for line in log.read_text().splitlines()) if log.exists() else 0


def check_http(url: str, run_dir: Path, ports: list[int]) -> None:
    """Django's own admin login page: the plumbing, not the games, is under test."""
    path = "/admin/login/"
    for _ in range(3 * len(ports)):
        with urllib.request.urlopen(f"{url}{path}", timeout=10) as response:
            if response.status != 200:
                raise CheckFailed(f"GET {path} answered {response.status}")
    served = {port: access_lines(run_dir, port, f'"GET {path}"') for port in ports}
    if not all(served.values()):
        raise CheckFailed(f"GET {path} did not reach every worker: {served}")
    print(f"ok  GET {path} through nginx reached every worker {served}")


def check_static(url: str, run_dir: Path, ports: list[int]) -> None:
    path = "/static/admin/css/base.css"
    with urllib.request.urlopen(f"{url}{path}", timeout=10) as response:
        if response.status != 200 or b"{" not in response.read():
            raise CheckFailed(f"GET {path} answered {response.status}")
    if any(access_lines(run_dir, port, path) for port in ports):
        raise CheckFailed(f"{path} was served by a worker, not by nginx")
    print(f"ok  GET {path} served by nginx itself")


def open_lobby_sockets(url: str, run_dir: Path, ports: list[int]) -> list[WebSocket]:
    """Open lobby sockets through nginx until every worker holds at least one."""
    parts = urlsplit(url)
    host_header = f"localhost:{parts.port}"
    sockets: list[WebSocket] = []
    for _ in range(4 * len(ports)):
        sockets.append(
            WebSocket(parts.hostname or "127.0.0.1", parts.port or 80, "/ws/lobby/",
                      host_header=host_header, origin=f"http://{host_header}")
        )
        time.sleep(0.2)
        held = {port: access_lines(run_dir, port, "WSCONNECT /ws/lobby/") for port in ports}
        if all(held.values()):
            print(f"ok  {len(sockets)} lobby websockets through nginx, on every worker {held}")
            return sockets
    raise CheckFailed(f"websockets did not reach every worker: {held}")


def check_game_socket_affinity(url: str, run_dir: Path, ports: list[int]) -> None:
    """nginx hashes a game's id: its page and API sockets all reach one worker.

    The games need not exist: the worker's access log names the path whether it accepts
    the socket or refuses it, which is all this looks at.
    """
    parts = urlsplit(url)
    host_header = f"localhost:{parts.port}"
    game_ids = range(900001, 900009)
    for game_id in game_ids:
        for path in (f"/ws/games/{game_id}/", f"/ws/api/games/{game_id}/", f"/ws/api/games/{game_id}/?token=x"):
            try:
                WebSocket(parts.hostname or "127.0.0.1", parts.port or 80, path,
                          host_header=host_header, origin=f"http://{host_header}").close()
            except CheckFailed:
                pass  # refused (no such game): it still reached a worker
    time.sleep(0.5)
    homes = {}
    for game_id in game_ids:
        counts = {port: access_lines(run_dir, port, f"/games/{game_id}/") for port in ports}
        used = [port for port, count in counts.items() if count]
        if len(used) != 1:
            raise CheckFailed(f"the sockets of game {game_id} reached workers {counts}, not exactly one")
        homes[game_id] = used[0]
    if len(set(homes.values())) < 2:
        raise CheckFailed(f"{len(homes)} games all went to one worker: {homes}")
    spread = {port: sum(home == port for home in homes.values()) for port in ports}
    print(f"ok  each of {len(homes)} games' sockets on one worker; games per worker {spread}")


def check_cross_worker_fan_out(sockets: list[WebSocket]) -> None:
    import django

    django.setup()
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.services import LOBBY_GROUP

    async_to_sync(get_channel_layer().group_send)(LOBBY_GROUP, {"type": "lobby.changed"})
    for websocket in sockets:
        websocket.read_text(timeout=5)
    print(f"ok  a lobby.changed sent through Redis reached all {len(sockets)} sockets")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--worker-ports", type=int, nargs="+", required=True)
    args = parser.parse_args()

    sockets: list[WebSocket] = []
    try:
        check_http(args.url, args.run_dir, args.worker_ports)
        check_static(args.url, args.run_dir, args.worker_ports)
        check_game_socket_affinity(args.url, args.run_dir, args.worker_ports)
        sockets = open_lobby_sockets(args.url, args.run_dir, args.worker_ports)
        check_cross_worker_fan_out(sockets)
    except (CheckFailed, OSError) as error:
        print(f"FAILED  {error}", file=sys.stderr)
        return 1
    finally:
        for websocket in sockets:
            websocket.close()
    print("cluster check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
