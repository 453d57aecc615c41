"""Hostile input, generated: both sockets and every HTTP endpoint of the URLconf get arbitrary
JSON and non-JSON, deep nesting, lone surrogates, NUL, huge numbers and wrong types in each
field. Each answer must be a documented error (or a normal answer to a frame that happens to
be valid), the server must answer a good request afterwards, and the game must not move
unless an action was acknowledged."""
from __future__ import annotations

import contextlib
import json
import re
import sys
from urllib.parse import quote

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, get_resolver
from hypothesis import HealthCheck, example, given, settings, strategies as st
from tests.depth import examples

from games.models import ApiToken, Game
from snowball_site.asgi import application
from tests.platform.helpers import started_game
from tests.platform.test_boundary import documented

pytestmark = pytest.mark.django_db(transaction=True)

DOCUMENTED_CODES, _ = documented()
RECURSION_LIMIT = sys.getrecursionlimit()  # the server's; hypothesis raises it while a test runs


@contextlib.contextmanager
def servers_recursion_limit():
    """Run with the recursion limit a server has, so that input nested too deep fails here as there."""
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(raised)
FUZZ = settings(max_examples=examples(60), deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# ---------------------------------------------------------------- what a hostile client sends

ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates and NUL included
TEXT = st.text(ANY_CHARACTER, max_size=12) | st.sampled_from(["\x00", "\ud800", "a\udfffb", "²", "1\x00", "sb_\x00"])
NUMBER = (st.integers() | st.integers(min_value=2**53, max_value=10**400) | st.floats()
          | st.sampled_from([2**53, -(2**53), 2**64, 10**30, 1e308]))
JSON = st.recursive(st.none() | st.booleans() | NUMBER | TEXT,
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                    max_leaves=12)


def _dumps(value, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


def _nested(opener: str, closer: str, depth: int, closed: bool, inside: str) -> str:
    return opener * depth + inside + (closer * depth if closed else "")


DEEP = st.builds(_nested, st.sampled_from(["[", '{"a":', '{"type":', '[{"action":']), st.sampled_from(["]", "}"]),
                 st.integers(1, 5000) | st.sampled_from([17, 1000, 1025, 5000]), st.booleans(), st.sampled_from(["1", '"x"', ""]))
HUGE = st.builds(lambda digits, where: where.replace("N", digits),
                 st.integers(17, 5000).map(lambda n: "9" * n),
                 st.sampled_from(['{"type": "action", "action": {"type": "lock"}, "action_id": "h", "version": N}',
                                  '{"type": "action", "action": {"type": "play", "card": N}, "action_id": "h", "version": 1}',
                                  '{"seat": N}', "N", '{"version": -N}', '{"version": N.5e99999}']))


def one_field_wrong(base: dict) -> st.SearchStrategy[dict]:
    """``base`` with one field (or one field of its action) replaced by anything."""
    def replace(field: str, value):
        frame = json.loads(json.dumps(base))
        if field.startswith("action."):
            frame["action"][field.split(".", 1)[1]] = value
        else:
            frame[field] = value
        return frame

    action = base.get("action")
    fields = [*base, *(f"action.{k}" for k in (action if isinstance(action, dict) else {}))]
    return st.builds(replace, st.sampled_from(fields), JSON)


CURRENT = 987654321  # replaced by the game's version when sent, so that actions reach the engine
GAME = 987654322  # replaced by the game's id when sent
def one_field_deep(base: dict) -> st.SearchStrategy[str]:
    """``base`` as JSON text with one field (or one field of its action) nested ``depth`` lists deep."""
    def nest(field: str, depth: int) -> str:
        frame = json.loads(json.dumps(base))
        if field.startswith("action."):
            frame["action"][field.split(".", 1)[1]] = "@DEEP@"
        else:
            frame[field] = "@DEEP@"
        text = json.dumps(frame)
        if isinstance(base.get("action"), str) and field == "action":
            return text.replace('"@DEEP@"', json.dumps(json.dumps({"type": "play", "card": "@DEEP@"})).replace(
                '\\"@DEEP@\\"', "[" * depth + "1" + "]" * depth))
        return text.replace('"@DEEP@"', "[" * depth + "1" + "]" * depth)

    action = base.get("action")
    fields = [*base, *(f"action.{k}" for k in (action if isinstance(action, dict) else {}))]
    return st.builds(nest, st.sampled_from(fields), st.sampled_from([17, 600, 800, 990, 1023, 1100]) | st.integers(1, 1100))


ACTION_FRAME = {"type": "action", "action": {"type": "play", "card": "c01", "side": "top"}, "action_id": "fz", "version": CURRENT}
PAGE_FRAME = {"action": json.dumps({"type": "play", "card": "c01"}), "action_id": "fz", "version": str(CURRENT),
              "HEADERS": {"HX-Request": "true"}}


def frames(base: dict) -> st.SearchStrategy:
    return st.one_of(
        st.builds(_dumps, JSON, st.booleans()),
        st.text(ANY_CHARACTER, max_size=60),
        st.binary(max_size=20),
        DEEP,
        one_field_deep(base),
        one_field_deep(base),
        HUGE,
        st.builds(_dumps, one_field_wrong(base), st.booleans()),
        st.builds(_dumps, st.builds(lambda action, ascii_only: {**base, "action": _dumps(action, ascii_only)}, JSON, st.booleans()),
                  st.booleans()),
        st.builds(_dumps, st.fixed_dictionaries({"type": st.sampled_from(["action", "refresh", "ping"]) | TEXT},
                                                optional={"action": JSON, "action_id": JSON, "version": JSON}),
                  st.booleans()),
    )


# ---------------------------------------------------------------- the game under attack

@pytest.fixture
def target(transactional_db, make_user):
    """A started game, a token of its seat 0 and a session cookie of the same player."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    _, key = ApiToken.issue(user=ana, name="fuzz")
    session = Client()
    session.force_login(ana)
    return {"game": game, "key": key, "cookie": f"sessionid={session.cookies['sessionid'].value}".encode(),
            "user": ana, "version": game.version}


def _version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


async def _attack(path: str, headers: list, sent: list, code_of, version: int) -> list:
    """Open a socket, send ``sent`` then a ping, and return every answer up to the pong."""
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    assert connected, code
    for data in sent:
        if isinstance(data, str):
            data = data.replace(str(CURRENT), str(version))
        await comm.send_input({"type": "websocket.receive", **({"bytes": data} if isinstance(data, bytes) else {"text": data})})
    await comm.send_to(text_data='{"type": "ping"}')
    answers = []
    while True:
        out = await comm.receive_output(timeout=10)
        assert out["type"] == "websocket.send", f"the socket was closed: {out}"
        if out["text"].startswith('{"type":"pong"') or out["text"].startswith('{"type": "pong"'):
            break
        answers.append(code_of(out["text"]))
    await comm.disconnect()
    return answers


def _json_code(text: str):
    frame = json.loads(text)
    return frame.get("code") if frame["type"] == "error" else frame["type"]


def _html_code(text: str):
    found = re.search(r'data-code="([^"]+)"', text)
    return found.group(1) if found else "html"


def _check(answers: list, game_id: int, version_before: int, acked: bool) -> None:
    errors = [a for a in answers if a not in {"view", "ack", "presence", "html", "chat_history", "chat", "chat_ack",
                                              "chat_publish_ack"}]
    assert set(errors) <= DOCUMENTED_CODES, errors
    if not acked:
        assert _version(game_id) == version_before


@FUZZ
@given(sent=st.lists(frames(ACTION_FRAME), min_size=1, max_size=4))
@example(sent=['{"type": "action", "action": {"type": "play", "card": %s}, "action_id": "d", "version": %d}'
               % ("[" * 990 + "1" + "]" * 990, CURRENT)])
@example(sent=["[" * 4000, '{"type": "action", "action": {"type": "play"}, "action_id": "\\ud800", "version": 1}',
               '{"type": "action", "action": {"type": "play"}, "action_id": "a\\u0000", "version": 1}'])
async def test_the_json_socket_answers_anything_with_documented_errors(target, sent):
    game = target["game"]
    before = await database_sync_to_async(_version)(game.pk)
    headers = [(b"host", b"localhost"), (b"authorization", f"Token {target['key']}".encode())]
    with servers_recursion_limit():
        answers = await _attack(f"/ws/api/games/{game.pk}/", headers, sent, _json_code, before)
    await database_sync_to_async(_check)(answers, game.pk, before, "ack" in answers)


@FUZZ
@given(sent=st.lists(frames(PAGE_FRAME), min_size=1, max_size=4))
@example(sent=['{"action": "{\\"type\\": \\"play\\", \\"card\\": %s}", "action_id": "d", "version": "%d"}'
               % ("[" * 990 + "1" + "]" * 990, CURRENT)])
@example(sent=['{"action": "{\\"type\\": \\"lock\\"}", "action_id": "v", "version": "\u00b2"}', "[" * 4000])
async def test_the_page_socket_answers_anything_with_documented_errors(target, sent):
    game = target["game"]
    before = await database_sync_to_async(_version)(game.pk)
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", target["cookie"])]
    with servers_recursion_limit():
        answers = await _attack(f"/ws/games/{game.pk}/", headers, sent, _html_code, before)
    moved = await database_sync_to_async(_version)(game.pk) != before  # the page's ack is its new view
    await database_sync_to_async(_check)(answers, game.pk, before, moved)


# ---------------------------------------------------------------- every HTTP endpoint

def _routes(patterns, prefix: str = "") -> list[str]:
    routes = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith("admin/"):
            continue
        if isinstance(pattern, URLPattern):
            routes.append(route)
        else:
            routes.extend(_routes(pattern.url_patterns, route))
    return routes


ROUTES = _routes(get_resolver().url_patterns)
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _url_text(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw):
    route = draw(st.sampled_from(ROUTES))

    def fill(match: re.Match) -> str:
        if match.group(1) == "int":
            return str(draw(st.just(GAME) | st.integers(0, 10**30)))
        return _url_text(draw(TEXT.filter(bool) | st.sampled_from(["join", "leave", "start", "bots", "snowball-fight"])))

    path = "/" + PARAMETER.sub(fill, route)
    query = draw(st.none() | st.dictionaries(st.sampled_from(["invite", "mine", "token", "next"]), TEXT, max_size=2))
    if query:
        path += "?" + "&".join(f"{name}={_url_text(value)}" for name, value in query.items())
    method = draw(st.sampled_from(["GET", "POST", "POST", "PUT", "DELETE"]))
    body = draw(st.one_of(
        st.builds(_dumps, JSON, st.booleans()), DEEP, HUGE,
        one_field_deep({"action": {"type": "play", "card": "c01"}, "action_id": "h", "version": CURRENT}),
        one_field_deep({"game_type": "snowball-fight", "options": {"draft": "quick"}, "seats": 2}), st.text(ANY_CHARACTER, max_size=40),
        st.builds(_dumps, one_field_wrong({"action": {"type": "play", "card": "c01"}, "action_id": "h", "version": 1}), st.booleans()),
        st.builds(_dumps, one_field_wrong({"game_type": "snowball-fight", "options": {}, "seats": 2, "is_public": True}), st.booleans()),
        st.builds(_dumps, one_field_wrong({"seat": 0, "name": "bot"}), st.booleans()),
        st.dictionaries(st.sampled_from(["seat", "revoke", "name", "display_name", "username", "next", "is_public"]), TEXT),
    ))
    who = draw(st.sampled_from(["token", "session", "anonymous", "bad token"]))
    return path, method, body, who


def _send(request: tuple, target: dict):
    path, method, body, who = request
    path = path.replace(str(GAME), str(target["game"].pk))
    if isinstance(body, str):
        body = body.replace(str(CURRENT), str(target["version"]))
    headers = {}
    client = Client()
    if who == "token":
        headers["HTTP_AUTHORIZATION"] = f"Token {target['key']}"
    elif who == "bad token":
        headers["HTTP_AUTHORIZATION"] = "Token sb_\x00\ud800".encode("utf-8", "surrogatepass").decode("latin1")
    elif who == "session":
        client.force_login(target["user"])
    if isinstance(body, dict):
        return client.generic(method, path, data=_form(body), content_type="application/x-www-form-urlencoded", **headers)
    return client.generic(method, path, data=body.encode("utf-8", "surrogatepass"), content_type="application/json", **headers)


def _form(values: dict) -> bytes:
    return "&".join(f"{_url_text(k)}={_url_text(v)}" for k, v in values.items()).encode()


DEEP_CARD = '{"action": {"type": "play", "card": %s}, "action_id": "d", "version": %d}' % ("[" * 990 + "1" + "]" * 990, CURRENT)


PLAYS = {"actions", "ready", "resign", "handover"}  # endpoints whose accepted requests change the game


@settings(FUZZ, max_examples=examples(250))
@given(request=requests())
@example(request=(f"/api/games/{GAME}/actions/", "POST", DEEP_CARD, "token"))
@example(request=(f"/api/games/{GAME}/actions/", "POST", "[" * 5000, "token"))
@example(request=(f"/api/games/{GAME}/actions/", "POST", '{"action": {"type": "play"}, "action_id": "\\ud800", "version": 1}', "token"))
@example(request=(f"/api/games/{GAME}/actions/", "POST", '{"action": {"type": "play"}, "action_id": "a\\u0000", "version": 1}', "token"))
@example(request=(f"/games/{GAME}/invite/%00/", "GET", "", "anonymous"))
@example(request=(f"/games/{GAME}/join/", "POST", {"seat": "²"}, "session"))
@example(request=("/guest/", "POST", {"display_name": "x", "next": "0"}, "anonymous"))
def test_every_http_endpoint_answers_anything_with_a_4xx_and_a_documented_code(target, request):
    game = target["game"]
    before = _version(game.pk)
    with servers_recursion_limit():
        answer = _send(request, target)  # the test client raises any exception a view lets out
    assert answer.status_code < 500, (request, answer.status_code)
    path = request[0].split("?", 1)[0]
    if path.startswith("/api/") and answer.status_code >= 400:
        assert answer["Content-Type"] == "application/json", (request, answer.status_code)
        assert answer.json()["error"]["code"] in DOCUMENTED_CODES
    if not (answer.status_code < 300 and path.rstrip("/").rsplit("/", 1)[-1] in PLAYS):
        assert _version(game.pk) == before
    good = Client().get(f"/api/games/{game.pk}/")
    assert good.status_code == 200 and good.json()["version"] == _version(game.pk)


def test_the_fuzzed_routes_are_the_urlconfs():
    """A new endpoint is fuzzed without anyone listing it."""
    assert "api/games/<int:game_id>/actions/" in ROUTES and "games/<int:game_id>/invite/<str:code>/" in ROUTES


@pytest.mark.parametrize("path", ["/games/1/invite/%00/", "/games/99999999999999999999/", "/api/games/99999999999999999999/",
                                  "/games/1/invite/%ED%A0%80/"])
def test_named_hostile_urls_answer_4xx(target, path):
    assert 400 <= Client().get(path).status_code < 500
