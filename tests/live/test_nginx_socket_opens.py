"""The site's nginx (docker/nginx/snowball.conf) answers a client that opens sockets too fast
with 429 before any worker sees the handshake: counted by token or session, else by address.

nginx runs the project's own config with its upstreams pointed at a stand-in worker that
answers every request; what is checked is which handshakes nginx lets through.
"""
from __future__ import annotations

import http.server
import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

pytestmark = [pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Worker(http.server.BaseHTTPRequestHandler):
    """Answers 200 to every request, counting the handshakes that reached it."""

    reached = 0

    def do_GET(self) -> None:  # noqa: N802  (http.server's name)
        type(self).reached += 1
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def nginx(tmp_path):
    if not Path(NGINX).exists():
        if os.environ.get("SNOWBALL_REQUIRE_NGINX", "") not in ("", "0"):
            pytest.fail("nginx is missing (apt-get install nginx), and SNOWBALL_REQUIRE_NGINX is set")
        pytest.skip("nginx is missing (apt-get install nginx)")
    _Worker.reached = 0
    worker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Worker)
    threading.Thread(target=worker.serve_forever, daemon=True).start()
    port = _free_port()
    site = (ROOT / "docker/nginx/snowball.conf").read_text()
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    for name in ("web1", "web2"):
        site = site.replace(f"server {name}:8000", f"server 127.0.0.1:{worker.server_port}")
    (tmp_path / "temp").mkdir()
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        ("user root root;\n" if os.geteuid() == 0 else "")
        + f"worker_processes 1; daemon off; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log warn;\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/temp/body; proxy_temp_path {tmp_path}/temp/proxy;\n"
        f"  fastcgi_temp_path {tmp_path}/temp/fcgi; uwsgi_temp_path {tmp_path}/temp/uwsgi; scgi_temp_path {tmp_path}/temp/scgi;\n"
        f"  include {tmp_path}/site.conf; }}\n")
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-e", f"{tmp_path}/error.log", "-c", f"{tmp_path}/nginx.conf"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 10
    while True:
        try:
            requests.get(url + "/api/game-types/", timeout=1)
            break
        except requests.RequestException:
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"nginx did not start: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(10)
    worker.shutdown()


def _handshakes(url: str, count: int, **kwargs) -> list[int]:
    """The HTTP statuses of ``count`` socket handshakes sent back to back."""
    headers = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", **kwargs.pop("headers", {})}
    with requests.Session() as session:
        return [session.get(url + "/ws/api/games/1/", headers=headers, timeout=5, **kwargs).status_code
                for _ in range(count)]


def test_a_token_opening_sockets_too_fast_is_refused_by_nginx_and_other_clients_are_not(nginx):
    flooder = _handshakes(nginx, 20, headers={"Authorization": "Token flooder-token"})
    assert flooder[:10] == [200] * 10, "the burst of ten is let through"
    assert flooder.count(429) >= 8, f"a token opening 20 sockets at once is refused past its burst: {flooder}"
    reached_by_flooder = _Worker.reached
    assert reached_by_flooder <= 12

    other = _handshakes(nginx, 5, headers={"Authorization": "Token another-token"})
    assert other == [200] * 5, "another token is counted apart"
    by_query = _handshakes(nginx, 5, params={"token": "a-third-token"})
    assert by_query == [200] * 5
    session = _handshakes(nginx, 5, cookies={"sessionid": "a-session"})
    assert session == [200] * 5

    time.sleep(1.1)
    assert _handshakes(nginx, 1, headers={"Authorization": "Token flooder-token"}) == [200], \
        "the rate lets the refused token in again a moment later"


def test_anonymous_spectators_share_their_address_s_larger_allowance(nginx):
    started = time.monotonic()
    spectators = _handshakes(nginx, 60)
    assert spectators == [200] * 60, "sixty spectators behind one address connect at once"
    many = _handshakes(nginx, 200)
    elapsed = time.monotonic() - started
    # 20 a second with a burst of 200: what the address may open in the time the 260 took.
    allowance = 1 + 200 + int(20 * elapsed)
    let_in = (spectators + many).count(200)
    assert let_in <= allowance + 1, f"{let_in} of 260 sockets let in within {elapsed:.2f} s, past the allowance"
    assert many.count(429) >= 260 - allowance - 1, \
        f"an address opening 260 anonymous sockets at once is refused past its burst: {let_in} let in"


def test_pages_and_the_http_api_are_not_limited(nginx):
    statuses = [requests.get(nginx + "/api/games/1/", headers={"Authorization": "Token flooder-token"},
                             timeout=5).status_code for _ in range(30)]
    assert statuses == [200] * 30


def _raw_status(url: str, request_line: bytes) -> int:
    """The status nginx answers a request sent as it is, raw bytes in its target included."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(request_line + b"\r\nHost: " + host.encode() + b"\r\nConnection: close\r\n\r\n")
        return int(raw.recv(64).split(b" ")[1])


def test_a_target_with_raw_bytes_outside_ascii_is_refused_by_nginx_before_any_worker(nginx):
    """daphne closes its connection after refusing such a target, without saying so; behind
    nginx's kept-alive connections the next request, someone else's, would get a 502."""
    before = _Worker.reached
    assert _raw_status(nginx, "GET /games/3/\u00e9/ HTTP/1.1".encode()) == 400
    assert _raw_status(nginx, b"GET /api/games/?mine=\xff HTTP/1.1") == 400
    assert _Worker.reached == before, "the worker never saw them"
    assert _raw_status(nginx, b"GET /games/3/%C3%A9/ HTTP/1.1") == 200, "percent-encoded, as a browser sends it"
    assert _Worker.reached == before + 1
