"""Hostile inputs, drawn from a seeded generator: websocket frames for both game sockets, and
HTTP requests for every endpoint. Each is tagged with its kind so a crash can be traced.

Kinds: malformed JSON, deep nesting, lone surrogates, NUL, huge numbers, wrong types,
binary frames, invalid UTF-8, oversized frames, and well-formed frames with impossible
content. HTTP adds bad methods, paths (NUL, overlong ids, bad percent-encoding), headers
(bad tokens, content types, lengths) and websocket handshakes to odd paths.
"""
from __future__ import annotations

import json
import random
from typing import Iterator

CARDS = [f"c{i:02d}" for i in range(1, 22)]
NASTY_STRINGS = ["\\ud800", "\\udfff", "a\\ud83d", "\\u0000", "c0\\u0000", "\\u202e", "", " ", "x" * 64,
                 "x" * 65, "\\uffff", "\\ufeff", "{p0}", "<script>alert(1)</script>", "%00", "${x}", "\\\\",
                 "ä" * 40, "𝕏" * 20]
NASTY_VALUES = ["1e400", "-1e400", "1" + "0" * 400, "-" + "9" * 4000, "9" * 4000, "1.5", "-1", "0",
                "18446744073709551616", "9223372036854775808", "-9223372036854775809", "NaN", "Infinity",
                "-Infinity", "true", "false", "null", "[]", "{}", '"17"', '"²"', '"٣"', '"1e3"', '" 17"',
                '"\\u0000"', '"\\ud800"', "[1]", '{"$gt": 0}', "0.0000001", "1E+2"]


def _quote(text: str) -> str:
    """A JSON string literal whose escapes are kept as written (lone surrogates included)."""
    return '"' + text.replace('"', '\\"') + '"'


def _field_values(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(NASTY_VALUES)
    return _quote(rng.choice(NASTY_STRINGS))


def _action(rng: random.Random) -> str:
    """An action object, plausible or not."""
    roll = rng.random()
    if roll < 0.3:
        return json.dumps({"type": "play", "card": rng.choice(CARDS), "side": rng.choice(["top", "bottom"])})
    if roll < 0.6:
        keys = ["type", "card", "side", "keep", "give", "take", "to"]
        parts = [f"{_quote(rng.choice(keys))}: {_field_values(rng)}" for _ in range(rng.randint(1, 4))]
        return "{" + ", ".join(parts) + "}"
    if roll < 0.8:
        return _field_values(rng)
    depth = rng.choice([50, 500, 1000])
    return "[" * depth + "]" * depth


def _action_frame(rng: random.Random, *, with_type: bool = True) -> str:
    """An action frame with one or more hostile fields."""
    fields = {"type": '"action"', "action": _action(rng), "action_id": _quote(f"h{rng.getrandbits(32):x}"),
              "version": str(rng.randint(1, 40))}
    for name in rng.sample(["type", "action", "action_id", "version"], rng.randint(1, 3)):
        fields[name] = _field_values(rng) if name != "action" else _action(rng)
    if not with_type:
        fields.pop("type")
    if rng.random() < 0.1:
        fields[rng.choice(["extra", "\\ud800", "__proto__", "HEADERS"])] = _field_values(rng)
    return "{" + ", ".join(f'"{k}": {v}' if not k.startswith("\\") else f'"{k}": {v}' for k, v in fields.items()) + "}"


def _malformed(rng: random.Random) -> str:
    good = json.dumps({"type": "action", "action": {"type": "play", "card": "c01", "side": "top"},
                       "action_id": "a1", "version": 3})
    roll = rng.random()
    if roll < 0.4:
        return good[: rng.randint(0, len(good) - 1)]
    if roll < 0.7:
        pos = rng.randint(0, len(good) - 1)
        return good[:pos] + rng.choice(["}", "{", ",", ":", '"', "\\", "]", "\x00", "\t", "'"]) + good[pos:]
    return rng.choice(["", " ", "{", "}", "[", "nul", "NaN", "{'type': 'ping'}", '{"type": "ping",}',
                       '{"type" "ping"}', "\ufeff{}", '{"type": "ping"}{"type": "ping"}', "0", "-", "\"", "[1,]"])


def _deep(rng: random.Random) -> str:
    depth = rng.choice([100, 999, 1000, 2000, 4000])
    roll = rng.random()
    if roll < 0.4:
        return "[" * depth
    if roll < 0.7:
        return '{"a":' * (depth // 5) + "1" + "}" * (depth // 5)
    return '{"type": "action", "action_id": "d1", "version": 1, "action": ' + "[" * (depth // 2) + "]" * (depth // 2) + "}"


def api_frame(rng: random.Random) -> tuple[str, bytes, int]:
    """One hostile frame for the JSON socket: (kind, payload, opcode)."""
    roll = rng.random()
    if roll < 0.15:
        return "malformed_json", _malformed(rng).encode("utf-8", "surrogatepass"), 0x1
    if roll < 0.27:
        return "deep_nesting", _deep(rng).encode(), 0x1
    if roll < 0.55:
        return "hostile_fields", _action_frame(rng).encode("utf-8", "surrogatepass"), 0x1
    if roll < 0.63:
        return "wrong_shape", rng.choice(['[]', '"action"', "17", "null", "true", '{"type": null}', '{"type": 5}',
                                          '{"type": ["action"]}', '{"type": "\\ud800"}', '{"type": "refresh", "x": 1e400}',
                                          '{"type": "ping", "type": "action"}', '{"type": "\\u0000"}']).encode(), 0x1
    if roll < 0.70:
        return "nul_raw", b'{"type": "action", "action_id": "n\x00", "version": 1, "action": {"type": "play"}}', 0x1
    if roll < 0.77:
        return "binary", rng.randbytes(rng.randint(0, 300)), 0x2
    if roll < 0.80:
        return "invalid_utf8", b'{"type": "ping", "x": "\xff\xfe\xc0\x80"}', 0x1
    if roll < 0.85:
        return "oversized", b'{"type": "action", "action_id": "' + b"o" * rng.choice([4100, 20000, 70000]) + b'"}', 0x1
    if roll < 0.92:
        return "huge_numbers", ('{"type": "action", "action_id": "hn%d", "version": %s, "action": {"type": "play", '
                                '"card": %s}}' % (rng.getrandbits(20), rng.choice(NASTY_VALUES[:13]),
                                                  rng.choice(NASTY_VALUES[:13]))).encode(), 0x1
    return "well_formed_impossible", json.dumps({"type": "action", "action_id": f"w{rng.getrandbits(24)}",
                                                 "version": rng.randint(-5, 10**6),
                                                 "action": {"type": rng.choice(["play", "lock", "abandon", "raid", "x"]),
                                                            "card": rng.choice(CARDS + ["c99", "", "c01 "])}}).encode(), 0x1


def page_frame(rng: random.Random) -> tuple[str, bytes, int]:
    """One hostile frame for the page socket (htmx's ws-send: form values, the action a JSON string)."""
    roll = rng.random()
    if roll < 0.5:
        kind, payload, opcode = api_frame(rng)
        return "page_" + kind, payload, opcode
    version = rng.choice(['"²"', '"٣"', '"17"', '"-1"', '"1e3"', '"99999999999999999999999"', "null", "[]", '"\\u0000"',
                          '"\\ud800"', '"' + "9" * 4000 + '"', "3"])
    action = rng.choice([_quote(_action(rng).replace('"', '\\"')), '"["', '"' + "[" * 1500 + '"', '"{\\"type\\": \\"play\\"}"',
                         "null", "5", _action(rng)])
    headers = rng.choice(['{"HX-Request": "true"}', "null", '"\\ud800"', "[]", '{"HX-Trigger": "' + "x" * 100 + '"}'])
    text = '{"action": %s, "version": %s, "HEADERS": %s}' % (action, version, headers)
    return "page_form_values", text.encode("utf-8", "surrogatepass"), 0x1


def frames(rng: random.Random, page: bool) -> Iterator[tuple[str, bytes, int]]:
    while True:
        yield page_frame(rng) if page else api_frame(rng)


# ---------------------------------------------------------------------- HTTP


def http_requests(rng: random.Random, *, port: int, game_ids: list[int], token: str, session: str,
                  invite: str) -> Iterator[tuple[str, bytes]]:
    """(kind, raw request) for every endpoint, with hostile paths, headers and bodies."""
    host = f"127.0.0.1:{port}"
    csrf = "a" * 32
    while True:
        game = rng.choice(game_ids + [0, 99999999999999999999, 9223372036854775808, 2**31])
        what = rng.choice(["join", "leave", "bots", "start", "actions", "%00", "%ff", "..%2f", "x" * 300, "join%00",
                           "\u00e9".encode().decode("latin-1")])
        paths = [
            "/api/game-types/", "/api/games/", f"/api/games/{game}/", f"/api/games/{game}/actions/",
            f"/api/games/{game}/{what}/", "/api/tokens/", "/", "/guest/", "/accounts/signup/", "/accounts/login/",
            "/accounts/logout/", "/me/games/", "/me/tokens/", "/games/new/snowball-fight/", f"/games/new/{what}/",
            f"/games/{game}/", f"/games/{game}/invite/{rng.choice([invite, '%00', '%ff%fe', 'x' * 200, '%c0%80'])}/",
            f"/games/{game}/{what}/", f"/api/games/?mine={rng.choice(['1', '%00', '%ff'])}",
            f"/api/games/{game}/?invite={rng.choice([invite, '%00', '%ff', 'x' * 3000])}",
        ]
        path = rng.choice(paths)
        method = rng.choice(["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
        auth = rng.random()
        headers = [f"Host: {host}", "Connection: close"]
        if auth < 0.45:
            headers.append(f"Authorization: Token {token}")
        elif auth < 0.55:
            headers.append("Authorization: " + rng.choice(["Token ", "Token sb_" + "x" * 300, "Bearer \u00ff",
                                                           "Token " + token + "%00", "Basic Zm9vOmJhcg==", "Token"]))
        elif auth < 0.85:
            headers.append(f"Cookie: sessionid={session}; csrftoken={csrf}")
            headers.append(f"X-CSRFToken: {rng.choice([csrf, 'b' * 32, ''])}")
        roll = rng.random()
        if roll < 0.3:
            body = _action_frame(rng, with_type=False)
        elif roll < 0.45:
            body = _deep(rng)
        elif roll < 0.6:
            body = _malformed(rng)
        elif roll < 0.7:
            body = rng.choice(['{"game_type": %s, "seats": %s, "options": %s, "is_public": %s}' % (
                _field_values(rng), _field_values(rng), rng.choice(["{}", "[]", '"x"', _action(rng)]), _field_values(rng)),
                '{"seat": %s}' % _field_values(rng), '{"name": %s}' % _field_values(rng)])
        elif roll < 0.8:
            body = "display_name=" + rng.choice(["%00", "%ud800", "x" * 500, "%ff%fe", "a"]) + "&next=" + rng.choice(
                ["/", "//evil.example", "%00", "javascript:alert(1)"])
        else:
            body = ""
        data = body.encode("utf-8", "surrogatepass")
        if rng.random() < 0.05:
            data = rng.randbytes(rng.randint(1, 2000))
        content_type = rng.choice(["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", "application/json; charset=latin-1", None])
        if content_type:
            headers.append(f"Content-Type: {content_type}")
        length = len(data)
        if method in {"POST", "PUT", "PATCH"} or data:
            if rng.random() < 0.03:
                length = rng.choice([0, max(0, len(data) - 3)])
            headers.append(f"Content-Length: {length}")
        else:
            data = b""
        if rng.random() < 0.05 and path.startswith("/api/games/"):  # a websocket handshake to a hostile path
            ws_path = rng.choice([f"/ws/api/games/{game}/", f"/ws/games/{game}/",
                                  f"/ws/api/games/{game}/?token=%00", f"/ws/api/games/{game}/?invite=%ff",
                                  f"/ws/api/games/{game}/?token=" + "x" * 2000, "/ws/lobby/"])
            request = (f"GET {ws_path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                       f"Authorization: Token {token}\r\n\r\n").encode("latin-1")
            yield "ws_handshake", request
            continue
        head = (f"{method} {path} HTTP/1.1\r\n" + "\r\n".join(headers) + "\r\n\r\n").encode("utf-8")
        yield f"{method} {path.split('?')[0][:40]}", head + data
