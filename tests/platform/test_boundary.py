"""The edge of the site as a bot author meets it: tokens, close codes, origins, floods, and
docs/api.md naming every error and close code the server can produce."""
from __future__ import annotations

import asyncio
import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import consumers
from games.models import ActionRecord, ApiToken
from snowball_site.asgi import application
from tests.platform.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent.parent
LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def socket(path: str, *, headers=LOCAL, key: str | None = None, client: str | None = None) -> WebsocketCommunicator:
    headers = list(headers) + ([(b"authorization", f"Token {key}".encode())] if key else [])
    comm = WebsocketCommunicator(application, path, headers=headers)
    if client is not None:
        comm.scope["client"] = [client, 40000]  # read when the application first runs
    return comm


async def frames_until_close(comm: WebsocketCommunicator, timeout: float = 5) -> tuple[list[dict], int]:
    """The frames a socket gets up to its close, and the close code."""
    frames = []
    while True:
        out = await comm.receive_output(timeout=timeout)
        if out["type"] == "websocket.close":
            return frames, out.get("code")
        frames.append(json.loads(out["text"]))


@database_sync_to_async
def _game(make_user, *, is_public: bool = True):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, is_public=is_public)
    token, key = ApiToken.issue(user=ana, name="bot")
    return game, ana, token, key


async def _opened(comm: WebsocketCommunicator) -> dict:
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == "view":
            return frame


# ---------------------------------------------------------------- tokens

async def test_revoking_a_token_on_the_tokens_page_closes_its_sockets_with_4001(make_user):
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    view = await _opened(bot)
    assert view["seat"] == 0

    @database_sync_to_async
    def revoke_on_the_page():
        page = Client()
        page.force_login(ana)
        return page.post("/me/tokens/", {"revoke": str(token.pk)})

    assert (await revoke_on_the_page()).status_code == 302
    frames, code = await frames_until_close(bot, timeout=2)
    assert code == 4001
    assert [f["code"] for f in frames if f["type"] == "error"] == ["token_revoked"]


async def test_an_action_after_the_token_is_gone_is_refused_and_closes_the_socket(make_user):
    """Checked on the action itself, even when no revocation message reached the socket."""
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    view = await _opened(bot)
    await database_sync_to_async(ApiToken.objects.filter(pk=token.pk).delete)()
    await bot.send_json_to({"type": "action", "action": view["legal_actions"][0], "action_id": "after", "version": view["version"]})
    frames, code = await frames_until_close(bot)
    assert code == 4001 and "token_revoked" in [f.get("code") for f in frames]
    assert not await database_sync_to_async(ActionRecord.objects.filter(action_id="after").exists)()


@pytest.mark.parametrize("key", ["sb_unknownunknownunknown", "sb_\x00", "not-a-token", ""])
async def test_a_socket_with_an_unknown_token_is_refused_with_4001_not_made_a_spectator(make_user, key):
    game, *_ = await _game(make_user)
    comm = socket(f"/ws/api/games/{game.pk}/?token={key}")
    connected, _ = await comm.connect(timeout=5)
    assert connected
    frames, code = await frames_until_close(comm)
    assert code == 4001 and [f["code"] for f in frames] == ["bad_token"]


@pytest.mark.parametrize("header", [b"Basic YW5hOnNlY3JldA==", b"Token", b"Token   ", b"sb_nakedkeynakedkey"])
async def test_a_socket_whose_authorization_header_is_not_token_key_is_refused_with_4001(make_user, header):
    """As over HTTP: a credential the server cannot read is refused, never made a spectator."""
    game, *_ = await _game(make_user)
    comm = socket(f"/ws/api/games/{game.pk}/", headers=[*LOCAL, (b"authorization", header)])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    frames, code = await frames_until_close(comm)
    assert code == 4001 and [f["code"] for f in frames] == ["bad_token"]


async def test_a_revoked_token_opens_no_socket(make_user):
    game, ana, token, key = await _game(make_user)
    await database_sync_to_async(token.delete)()
    comm = socket(f"/ws/api/games/{game.pk}/", key=key)
    await comm.connect(timeout=5)
    assert (await frames_until_close(comm))[1] == 4001


def _post_json(client: Client, url: str, body: dict, **headers):
    return client.post(url, data=json.dumps(body), content_type="application/json", **headers)


@pytest.mark.django_db
def test_a_token_cannot_mint_tokens_but_a_session_can(make_user):
    ana = make_user("Ana")
    _, key = ApiToken.issue(user=ana, name="leaked")
    refused = _post_json(Client(), "/api/tokens/", {"name": "more"}, HTTP_AUTHORIZATION=f"Token {key}")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "session_required"
    assert ApiToken.objects.filter(user=ana).count() == 1
    session = Client()
    session.force_login(ana)
    made = _post_json(session, "/api/tokens/", {"name": "more"})
    assert made.status_code == 201 and made.json()["token"].startswith("sb_")


@pytest.mark.django_db
@pytest.mark.parametrize("name, why", [("a\u0007b", "a control character (U+0007)"),
                                       ("a\u202eb", "a bidirectional override (U+202E)"),
                                       ("bot\u200b", "an invisible formatting character (U+200B)"),
                                       ("\u3164", "at least one visible character")])
def test_a_token_name_that_would_not_show_as_written_is_refused_saying_why_on_the_api_and_the_page(make_user, name, why):
    """A token's name is shown on the tokens page: like every other name, it shows as written."""
    ana = make_user("Ana")
    session = Client()
    session.force_login(ana)
    refused = _post_json(session, "/api/tokens/", {"name": name})
    page = session.post("/me/tokens/", {"name": name})
    assert refused.status_code == 400 and why in refused.json()["error"]["message"], refused.content
    assert page.status_code == 200 and why in page.content.decode()
    assert not ApiToken.objects.filter(user=ana).exists()
    assert _post_json(session, "/api/tokens/", {"name": "Ana's bot \U0001f916"}).status_code == 201


@pytest.mark.django_db
def test_an_anonymous_http_action_is_told_to_authenticate_not_csrf(make_user):
    client = Client(enforce_csrf_checks=True)
    for url in ("/api/games/", "/api/games/1/actions/", "/api/games/1/join/", "/api/tokens/"):
        answer = _post_json(client, url, {})
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "unauthenticated", url


# ---------------------------------------------------------------- close codes

@pytest.mark.parametrize("path", ["/ws/api/games/999999/", "/ws/games/999999/", "/ws/api/games/99999999999999999999999/",
                                  "/ws/api/games/abc/", "/ws/nowhere/"])
async def test_a_socket_to_no_game_is_accepted_then_closed_with_4004(path):
    """Told why first, on the JSON socket and at any other path: ``not_found``, then 4004."""
    comm = socket(path)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    if path.startswith("/ws/games/"):  # the page's socket says it in HTML
        out = await comm.receive_output(timeout=5)
        assert 'data-code="not_found"' in out["text"]
        assert (await comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4004}
        return
    frames, code = await frames_until_close(comm)
    assert code == 4004
    assert [(f["type"], f["code"], f["version"]) for f in frames] == [("error", "not_found", 0)]


@pytest.mark.parametrize(("origin", "host", "scheme", "allowed"), [
    (b"http://localhost", b"localhost", "ws", True),
    (b"http://localhost:8000", b"localhost:8000", "ws", True),
    (b"http://localhost:9999", b"localhost:8000", "ws", False),
    (b"http://localhost", b"localhost:8000", "ws", False),
    (b"https://localhost", b"localhost", "ws", False),
    (b"https://localhost", b"localhost", "wss", True),
    (b"http://evil.example", b"evil.example", "ws", False),
    (b"null", b"localhost", "ws", False),
    (b"http://trusted.example:8443", b"localhost", "ws", True),
])
async def test_the_page_socket_accepts_only_its_own_origin_by_scheme_host_and_port(make_user, settings, origin, host, scheme, allowed):
    settings.CSRF_TRUSTED_ORIGINS = ["http://trusted.example:8443"]
    game, *_ = await _game(make_user)
    comm = socket(f"/ws/games/{game.pk}/", headers=[(b"origin", origin), (b"host", host)])
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=5)
    assert connected is allowed
    if connected:
        await comm.disconnect()


# ---------------------------------------------------------------- floods

class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def _until(condition, timeout: float = 5.0) -> None:
    """Wait, in real time, until ``condition()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the condition did not hold in time"
        await asyncio.sleep(0.01)


def _closed(comm: WebsocketCommunicator) -> bool:
    while not comm.output_queue.empty():
        if comm.output_queue.get_nowait()["type"] == "websocket.close":
            return True
    return False


@pytest.fixture
def stuck_handler(monkeypatch):
    """Actions that never finish being handled, and a fake clock for the arrival check."""
    clock, release, handled = FakeClock(), asyncio.Event(), []

    async def never_done(self, frame):
        handled.append(frame["action_id"])
        await release.wait()

    monkeypatch.setattr(consumers.ArrivalControlMixin, "clock", staticmethod(clock))
    monkeypatch.setattr(consumers.BaseGameConsumer, "handle_action", never_done)
    return clock, release, handled


async def test_a_flooder_is_closed_within_a_second_of_arrivals_however_slowly_it_is_handled(make_user, stuck_handler):
    clock, release, handled = stuck_handler
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    view = await _opened(bot)
    frame = json.dumps({"type": "action", "action": {"type": "lock"}, "action_id": "f", "version": view["version"]})
    closed_at = None
    for n in range(1000):  # 1,000 frames a second by the fake clock
        clock.now = n / 1000
        await bot.send_to(text_data=frame)
        await _settle()
        if n == 0:
            await _until(lambda: handled == ["f"])  # the token check before it runs on a database thread
        if _closed(bot):
            closed_at = clock.now
            break
    assert closed_at is not None and closed_at < 1.0
    assert handled == ["f"]  # the first frame is still being handled: the others were counted on arrival
    release.set()
    await bot.disconnect()


async def test_a_flooder_whose_frames_are_handled_at_once_is_closed_by_the_rate(make_user, monkeypatch, settings):
    burst, strikes = settings.SNOWBALL_SOCKET_BURST, settings.SNOWBALL_SOCKET_STRIKES
    clock = FakeClock()
    monkeypatch.setattr(consumers.ArrivalControlMixin, "clock", staticmethod(clock))
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    await _opened(bot)
    answers, closed_at = [], None
    for n in range(1000):
        clock.now = n / 1000
        await bot.send_json_to({"type": "ping"})
        await _settle()
        while not bot.output_queue.empty():
            out = bot.output_queue.get_nowait()
            if out["type"] == "websocket.close":
                closed_at = clock.now
                assert out["code"] == 4008
            else:
                answers.append(json.loads(out["text"]).get("code") or json.loads(out["text"])["type"])
        if closed_at is not None:
            break
    assert closed_at is not None and closed_at < 1.0
    answers = [a for a in answers if a != "presence"]
    assert answers[:burst] == ["pong"] * burst and answers[-1] == "too_fast"  # the burst, refusals, the close
    assert answers.count("too_fast") == strikes
    await bot.disconnect()


async def test_a_socket_whose_frames_pile_up_unhandled_is_closed_even_within_its_rate(make_user, stuck_handler, settings):
    settings.SNOWBALL_SOCKET_RATE, settings.SNOWBALL_SOCKET_BURST = 1000, 5
    clock, release, handled = stuck_handler
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    view = await _opened(bot)
    sent = 0
    while not _closed(bot):
        clock.now += 1.0  # far within the rate
        await bot.send_json_to({"type": "action", "action": {"type": "lock"}, "action_id": f"q{sent}", "version": view["version"]})
        sent += 1
        await _settle()
        assert sent <= 10
    assert sent == 1 + 5 + 1  # one being handled, a burst waiting, and the one that found the queue full
    release.set()
    await bot.disconnect()


async def test_group_messages_waiting_for_a_busy_socket_do_not_count_as_its_frames(make_user, stuck_handler, settings):
    """A socket's inbox holds its frames and its game's messages alike: only the frames count
    against the burst, so a player whose socket is busy while the game moves on is not taken
    for a flooder."""
    from channels.layers import get_channel_layer

    from games.services import game_group

    settings.SNOWBALL_SOCKET_RATE, settings.SNOWBALL_SOCKET_BURST = 1000, 5
    clock, release, handled = stuck_handler
    game, ana, token, key = await _game(make_user)
    bot = socket(f"/ws/api/games/{game.pk}/", key=key)
    view = await _opened(bot)
    await bot.send_json_to({"type": "action", "action": {"type": "lock"}, "action_id": "busy", "version": view["version"]})
    await _until(lambda: handled == ["busy"])
    for version in range(view["version"] + 1, view["version"] + 21):  # twenty moves of the others meanwhile
        await get_channel_layer().group_send(game_group(game.pk), {"type": "game.changed", "version": version})
    for n in range(5):  # a burst of frames, within the rate
        clock.now += 1.0
        await bot.send_json_to({"type": "ping"})
        await _settle()
    assert not _closed(bot)
    release.set()
    pongs = 0
    while pongs < 5:
        frame = json.loads(await bot.receive_from(timeout=5))
        pongs += frame["type"] == "pong"
    await bot.disconnect()


async def test_one_client_address_may_hold_only_so_many_sockets(make_user, settings):
    settings.SNOWBALL_MAX_SOCKETS_PER_CLIENT = 2
    game, *_ = await _game(make_user)
    path = f"/ws/api/games/{game.pk}/"
    first, second = socket(path, client="10.0.0.7"), socket(path, client="10.0.0.7")
    await _opened(first)
    await _opened(second)
    third = socket(path, client="10.0.0.7")
    connected, _ = await third.connect(timeout=5)
    assert connected and await third.receive_output(timeout=5) == {"type": "websocket.close", "code": 4029}
    elsewhere = socket(path, client="10.0.0.8")
    await _opened(elsewhere)
    await first.disconnect()
    again = socket(path, client="10.0.0.7")  # a closed socket gives its place back
    await _opened(again)
    for comm in (second, elsewhere, again):
        await comm.disconnect()
    assert consumers.OPEN_SOCKETS == {}


async def test_behind_a_trusted_proxy_the_client_is_the_last_forwarded_address(make_user, settings):
    settings.SNOWBALL_MAX_SOCKETS_PER_CLIENT = 1
    game, *_ = await _game(make_user)
    path = f"/ws/api/games/{game.pk}/"

    def via_proxy(forwarded: bytes) -> WebsocketCommunicator:
        return socket(path, headers=LOCAL + [(b"x-forwarded-for", forwarded)], client="172.16.0.2")

    settings.SNOWBALL_TRUST_X_FORWARDED_FOR = True
    one = via_proxy(b"1.1.1.1, 203.0.113.5")
    await _opened(one)
    spoofed = via_proxy(b"9.9.9.9, 203.0.113.5")  # a client may write the first entries, not the proxy's
    await spoofed.connect(timeout=5)
    assert (await spoofed.receive_output(timeout=5))["code"] == 4029
    other = via_proxy(b"203.0.113.6")
    await _opened(other)
    for comm in (one, other):
        await comm.disconnect()

    settings.SNOWBALL_TRUST_X_FORWARDED_FOR = False
    untrusted = [via_proxy(b"203.0.113.%d" % n) for n in (1, 2)]
    await _opened(untrusted[0])
    await untrusted[1].connect(timeout=5)
    assert (await untrusted[1].receive_output(timeout=5))["code"] == 4029  # the header is ignored: one peer
    await untrusted[0].disconnect()


# ---------------------------------------------------------------- the document

def documented() -> tuple[set[str], set[int]]:
    """The error codes and close codes in docs/api.md's tables."""
    codes, closes = set(), set()
    for line in (ROOT / "docs" / "api.md").read_text().splitlines():
        if line.startswith("|"):
            first, second = (line.split("|") + ["", ""])[1:3]
            codes.update(re.findall(r"`(\w+)`", first + second))
            if re.fullmatch(r"\s*[14]\d\d\d\s*", first):
                closes.add(int(first))
    return codes, closes


def produced() -> tuple[set[str], set[int]]:
    """The error codes and close codes the code base can produce, found by reading it."""
    codes, closes = set(), set()
    for path in (ROOT / "games").rglob("*.py"):
        text = path.read_text()
        codes.update(re.findall(r"(?<!\w)(?:send_error|_error|error_html)\(\s*\"(\w+)\"", text))
        codes.update(re.findall(r"^\s+code = \"(\w+)\"$", text, re.M))
        if "engines" not in path.parts:
            codes.update(re.findall(r"\bcode=\"(\w+)\"", text))
            closes.update(int(n) for n in re.findall(r"^CLOSE_\w+ = (\d+)$", text, re.M))
    return codes, closes


@pytest.mark.django_db
def test_every_error_and_close_code_the_server_can_produce_is_in_the_api_document():
    codes, closes = produced()
    documented_codes, documented_closes = documented()
    assert {"malformed", "bad_request", "too_fast", "frame_too_large", "token_revoked", "session_required"} <= codes
    assert {4001, 4004, 4008, 4013, 4029} <= closes
    # daphne's websocket library lets a server close only with 1000 or 3000-4999 (it raises otherwise)
    assert {code for code in closes if not (code == 1000 or 3000 <= code <= 4999)} == set()
    assert codes - documented_codes == set()
    assert closes - documented_closes == set()


# ---------------------------------------------------------------- replies racing the close

async def test_a_reply_to_a_socket_the_client_already_closed_is_dropped_without_an_error():
    """daphne refuses a send on a closed connection (autobahn's Disconnected): an error frame or
    a close that races the client's going must end quietly, not as a crashed handler."""
    from autobahn.exception import Disconnected

    sent = []

    async def gone(message):
        sent.append(message["type"])
        raise Disconnected("Attempt to send on a closed protocol")

    consumer = consumers.GameApiConsumer()
    consumer.base_send = gone
    await consumer.send_error("too_fast", "too many messages; the connection is closed")
    await consumer.close(code=consumers.CLOSE_TOO_FAST)
    await consumer.send_json({"type": "pong", "version": 0})
    assert sent == ["websocket.send"]  # one attempt; after it the socket is known to be gone


async def test_a_flooders_next_sockets_are_closed_at_once_until_its_cooldown_ends(make_user, monkeypatch, settings):
    """Closed with 4008, the same token's next socket is closed with 4008 before it is even
    sent a view, and starts the cooldown again; another player's is not; once the token has
    waited a whole cooldown it connects again."""
    settings.SNOWBALL_FLOOD_COOLDOWN_SECONDS = 10
    clock = FakeClock()
    monkeypatch.setattr(consumers.ArrivalControlMixin, "clock", staticmethod(clock))
    game, ana, token, key = await _game(make_user)
    path = f"/ws/api/games/{game.pk}/"
    bot = socket(path, key=key)
    await _opened(bot)
    for n in range(200):
        clock.now = n / 1000
        await bot.send_json_to({"type": "ping"})
    frames, code = await frames_until_close(bot)
    assert code == 4008

    clock.now = 5.0
    again = socket(path, key=key)
    connected, _ = await again.connect(timeout=5)
    told = json.loads((await again.receive_output(timeout=5))["text"])  # why, and how long to wait, before the close
    assert connected and (told["type"], told["code"]) == ("error", "too_fast") and "wait 10 s" in told["message"]
    assert await again.receive_output(timeout=5) == {"type": "websocket.close", "code": 4008}
    reworded = socket(path, headers=[*LOCAL, (b"authorization", f"bearer   {key} ".encode())])  # the same token
    connected, _ = await reworded.connect(timeout=5)
    assert connected and json.loads((await reworded.receive_output(timeout=5))["text"])["code"] == "too_fast"
    assert await reworded.receive_output(timeout=5) == {"type": "websocket.close", "code": 4008}
    spectator = socket(path)
    await _opened(spectator)

    clock.now = 10.5  # the first cooldown is over, but the knock at 5.0 started it again
    knocking = socket(path, key=key)
    connected, _ = await knocking.connect(timeout=5)
    assert connected and json.loads((await knocking.receive_output(timeout=5))["text"])["code"] == "too_fast"
    assert await knocking.receive_output(timeout=5) == {"type": "websocket.close", "code": 4008}

    clock.now = 20.5  # a whole cooldown after the last knock
    later = socket(path, key=key)
    assert (await _opened(later))["type"] == "view"
    for comm in (spectator, later):
        await comm.disconnect()


TOKEN_KEYS = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=1, max_size=48)


@given(key=TOKEN_KEYS, other=TOKEN_KEYS, scheme=st.sampled_from(["Token", "Bearer"]), data=st.data())
def test_one_token_is_one_flooder_however_its_socket_presents_it(key, other, scheme, data):
    """The cooldown is the token's: its header in any case and spacing, or ``?token=``, is the
    same flooder; another token is another."""
    written = data.draw(st.sampled_from([scheme, scheme.lower(), scheme.upper()]))
    spaces = data.draw(st.sampled_from([" ", "  ", " \t"]))
    header = f"{written}{spaces}{key}{data.draw(st.sampled_from(['', ' ', '  ']))}"

    def who(*, header: str | None = None, query: str = "") -> str:
        scope = {"headers": [*LOCAL, *([(b"authorization", header.encode())] if header is not None else [])],
                 "query_string": query.encode(), "client": ["10.0.0.1", 4000]}
        return consumers.who_connects(scope)

    named = who(header=header)
    assert named == who(header=f"Token {key}") == who(query=f"token={key}")
    assert named.startswith("token:")
    if other != key:
        assert named != who(header=f"Token {other}") and named != who(query=f"token={other}")


def test_a_socket_that_comes_during_a_ban_starts_it_again_and_one_that_waits_it_out_is_let_in():
    cooldown = consumers.FloodCooldown()
    cooldown.bar("token:x", now=0.0, seconds=10)
    assert cooldown.knock("token:x", 9.9)  # barred; the ban now runs to 19.9
    assert cooldown.barred("token:x", 19.89) and not cooldown.barred("token:x", 19.9)
    assert not cooldown.knock("token:x", 19.9) and not cooldown.knock("token:x", 19.95)
    assert not cooldown.knock("token:other", 5.0)
    cooldown.bar("token:x", now=20.0, seconds=10)  # flooding again right after: twice as long
    assert cooldown.knock("token:x", 39.0) and cooldown.barred("token:x", 58.9)
    assert not cooldown.barred("token:x", 59.0)


def test_a_flooder_that_floods_again_soon_after_its_cooldown_waits_twice_as_long():
    cooldown = consumers.FloodCooldown()
    cooldown.bar("token:x", now=0.0, seconds=10)
    assert cooldown.barred("token:x", 9.9) and not cooldown.barred("token:x", 10.0)
    cooldown.bar("token:x", now=15.0, seconds=10)  # within 10 s of the end of the last
    assert cooldown.barred("token:x", 34.9) and not cooldown.barred("token:x", 35.0)
    cooldown.bar("token:x", now=100.0, seconds=10)  # long after: the cooldown again
    assert not cooldown.barred("token:x", 110.0)
    for n in range(10):
        cooldown.bar("token:y", now=1000.0 * n, seconds=10)
        cooldown.bar("token:y", now=1000.0 * n + 1, seconds=10)
    assert cooldown.bans["token:y"][1] == 20  # each pair: the cooldown, then twice it
    now = 0.0
    for _ in range(10):
        cooldown.bar("token:z", now=now, seconds=10)
        now = cooldown.bans["token:z"][0]
    assert cooldown.bans["token:z"][1] == 10 * 32
