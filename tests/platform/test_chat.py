"""Table talk at a five-seat table in two teams (four players and a computer player) with
spectators: every channel reaches exactly its readers, over HTTP, on the page, and on both
sockets at connect, live and on reconnect; pairs are published only when both agree; every
refusal is documented and changes nothing."""
from __future__ import annotations

import asyncio
import json
import time
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from hypothesis import HealthCheck, example, given, settings, strategies as st
from tests.depth import examples

from games import inputs, services
from games.errors import BadRequest, ChannelClosed, Forbidden, NotSeated, TooManyMessages, Unauthenticated
from games.models import ApiToken, ChatMessage, Game
from games.selectors import chat as chat_selectors
from tests.engines.table_engine import PAIRS_TABLE, TABLE, TEMPLATES_DIR, registered_table_engines
from tests.platform.helpers import play_to_end
from tests.platform.test_boundary import documented
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_html_socket import _html_socket, _session_cookie

DOCUMENTED_CODES, _ = documented()
NAMES = ("Ana", "Ben", "Cy", "Dee")  # seats 0-3; seat 4 is a computer player
RED, BLUE = 0, 1
TEAMS = {"Ana": RED, "Ben": RED, "Cy": BLUE, "Dee": BLUE}
VIEWERS = (*NAMES, "Eve", "anonymous")  # Eve watches signed in; anonymous watches signed out

# Each message: who writes it, where, and who may read it.
MESSAGES = {
    "table": ("Ana", {"channel": "table"}, set(VIEWERS)),
    "red": ("Ana", {"channel": "team"}, {"Ana", "Ben"}),
    "blue": ("Cy", {"channel": "team"}, {"Cy", "Dee"}),
    "ana-ben": ("Ana", {"channel": "pair", "to": 1}, {"Ana", "Ben"}),
    "ana-cy": ("Cy", {"channel": "pair", "to": 0}, {"Ana", "Cy"}),
    "cy-dee": ("Dee", {"channel": "pair", "to": 2}, {"Cy", "Dee"}),
    "eve": ("Eve", {"channel": "table"}, set(VIEWERS)),
}


def marker(name: str) -> str:
    return f"secret-{name}-word"


@pytest.fixture(scope="module", autouse=True)
def table_engines():
    with registered_table_engines():
        yield


@pytest.fixture(autouse=True)
def test_engine_boards(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES_DIR]}]


@dataclass
class Table:
    game: Game
    users: dict[str, object]
    keys: dict[str, str]
    cookies: dict[str, bytes]

    def client(self, name: str) -> Client:
        if name == "anonymous":
            return Client()
        return Client(HTTP_AUTHORIZATION=f"Token {self.keys[name]}")

    def user(self, name: str):
        return self.users.get(name)


def _table(make_user, *, spectators_read_only: bool = False, start: bool = True) -> Table:
    users = {name: make_user(name) for name in (*NAMES, "Eve")}
    game = services.create_game(creator=users["Ana"], game_type=PAIRS_TABLE.slug, num_seats=5, num_teams=2,
                                spectators_read_only=spectators_read_only)
    for seat, name in enumerate(NAMES[1:], start=1):
        services.join_seat(game_id=game.pk, user=users[name], number=seat, team=TEAMS[name])
    services.add_bot(game_id=game.pk, user=users["Ana"], number=4, team=RED)
    if start:
        services.start_game(game_id=game.pk, user=users["Ana"])
    game.refresh_from_db()
    keys = {name: ApiToken.issue(user=user, name="t")[1] for name, user in users.items()}
    return Table(game=game, users=users, keys=keys, cookies={})


def _post_all(table: Table) -> None:
    for name, (writer, where, _) in MESSAGES.items():
        services.post_message(game_id=table.game.pk, user=table.users[writer], text=marker(name), **where)


def _readable(viewer: str) -> set[str]:
    return {name for name, (_, _, readers) in MESSAGES.items() if viewer in readers}


def _assert_exactly(viewer: str, seen_text: str, expected: set[str], where: str) -> None:
    for name in MESSAGES:
        if name in expected:
            assert marker(name) in seen_text, f"{viewer} should read {name} ({where})"
        else:
            assert marker(name) not in seen_text, f"{viewer} must not see {name} ({where})"


# ---------------------------------------------------------------- HTTP and the page


@pytest.mark.django_db
def test_each_channel_reaches_its_readers_and_nobody_else_over_http_and_on_the_page(make_user):
    table = _table(make_user)
    _post_all(table)
    url = f"/api/games/{table.game.pk}/chat/"
    for viewer in VIEWERS:
        answer = table.client(viewer).get(url)
        assert answer.status_code == 200, answer.content
        _assert_exactly(viewer, answer.content.decode(), _readable(viewer), "HTTP history")
        texts = {m["text"] for m in answer.json()["messages"]}
        assert texts == {marker(n) for n in _readable(viewer)}
        page = Client()
        if viewer != "anonymous":
            page.force_login(table.users[viewer])
        _assert_exactly(viewer, page.get(f"/games/{table.game.pk}/").content.decode(), _readable(viewer), "page")
    for key, readers in {"team:0": {"Ana", "Ben"}, "team:1": {"Cy", "Dee"}, "pair:0-1": {"Ana", "Ben"},
                         "pair:0-2": {"Ana", "Cy"}, "pair:2-3": {"Cy", "Dee"}, "pair:0-4": set()}.items():
        for viewer in VIEWERS:
            answer = table.client(viewer).get(url, {"channel": key})
            assert answer.status_code == (200 if viewer in readers else 403), (viewer, key)


@pytest.mark.django_db
def test_the_channels_a_player_has_name_every_other_player_but_no_computer_player(make_user):
    table = _table(make_user)
    channels = table.client("Cy").get(f"/api/games/{table.game.pk}/chat/").json()["channels"]
    assert [(c["key"], c["label"], c["writable"]) for c in channels] == [
        ("table", "Table", True), ("team:1", "Blue team", True), ("pair:0-2", "Ana", True),
        ("pair:1-2", "Ben", True), ("pair:2-3", "Dee", True)]
    assert [c["key"] for c in table.client("Eve").get(f"/api/games/{table.game.pk}/chat/").json()["channels"]] == ["table"]
    anonymous = Client().get(f"/api/games/{table.game.pk}/chat/").json()["channels"]
    assert anonymous == [{"key": "table", "channel": "table", "label": "Table", "writable": False,
                          "closed_because": "pick a guest name or sign in to talk"}]


@pytest.mark.django_db
def test_history_pages_by_id(make_user):
    table = _table(make_user)
    ids = []
    for n in range(12):
        name = NAMES[n % 4]
        ids.append(services.post_message(game_id=table.game.pk, user=table.users[name], channel="table",
                                         text=f"line {n}")["id"])
    assert ids == sorted(ids)
    url = f"/api/games/{table.game.pk}/chat/"
    newest = table.client("Eve").get(url, {"limit": 5}).json()
    assert [m["id"] for m in newest["messages"]] == ids[-5:] and newest["has_more"]
    older = table.client("Eve").get(url, {"limit": 5, "before": ids[-5]}).json()
    assert [m["id"] for m in older["messages"]] == ids[-10:-5] and older["has_more"]
    resumed = table.client("Eve").get(url, {"after": ids[3], "limit": 100}).json()
    assert [m["id"] for m in resumed["messages"]] == ids[4:] and not resumed["has_more"]
    for query in ({"limit": 0}, {"limit": 101}, {"after": "-1"}, {"before": "x"}, {"channel": "pair:0"}):
        answer = table.client("Eve").get(url, query)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request", query


@pytest.mark.django_db
@pytest.mark.parametrize("per_channel", [2, chat_selectors.HISTORY_PER_CHANNEL])
def test_history_holds_the_newest_of_each_channel_oldest_first(make_user, per_channel):
    """A socket's first history: per channel the newest messages up to the limit, a busy
    channel cut to its newest, a quiet one whole even when the busy one talked over it since,
    and only the channels the viewer reads."""
    table = _table(make_user)

    def post(name: str, channel: str, **to) -> int:
        return services.post_message(game_id=table.game.pk, user=table.users[name], channel=channel,
                                     text=f"{channel} {len(posted[channel])}", **to)["id"]

    posted: dict[str, list[int]] = {"pair": [], "team": [], "table": []}
    posted["pair"].append(post("Ana", "pair", to=1))  # quiet, and the oldest
    for _ in range(2):  # exactly the smaller limit
        posted["team"].append(post("Ana", "team"))
    for n in range(15):  # over it, and more than the smaller limit times the channels Ben reads
        posted["table"].append(post(("Ben", "Cy", "Dee", "Eve")[n % 4], "table"))  # under the rate limit
    game = Game.objects.get(pk=table.game.pk)

    def history_of(viewer: str) -> dict[str, list[int]]:
        found = chat_selectors.history(game.pk, chat_selectors.talk_of(game, table.users[viewer]),
                                       per_channel=per_channel)
        return {key: [m["id"] for m in messages] for key, messages in found.items() if messages}

    ben = history_of("Ben")
    assert ben["table"] == posted["table"][-per_channel:]
    assert [ids for key, ids in ben.items() if key.startswith("team")] == [posted["team"]]
    assert [ids for key, ids in ben.items() if key.startswith("pair")] == [posted["pair"]]
    assert history_of("Eve") == {"table": posted["table"][-per_channel:]}
    assert history_of("Cy") == {"table": posted["table"][-per_channel:]}  # neither red's team talk nor Ana and Ben's pair


# ---------------------------------------------------------------- the sockets


async def _json_frames_until(comm, text: str, timeout: float = 5.0) -> str:
    """Every frame up to the first holding ``text``, as one string (fails if it never comes)."""
    loop = asyncio.get_running_loop()
    deadline, seen = loop.time() + timeout, []
    while (left := deadline - loop.time()) > 0:
        try:
            frame = await comm.receive_from(timeout=left)
        except asyncio.TimeoutError:
            break
        seen.append(frame)
        if text in frame:
            return "\n".join(seen)
    raise AssertionError(f"{text!r} never came; got {seen}")


async def _drain(comm, quiet: float = 0.3) -> str:
    """Every frame the socket has until it falls quiet, as one string."""
    seen = []
    while not await comm.receive_nothing(timeout=quiet):
        seen.append(await comm.receive_from())
    return "\n".join(seen)


async def _connect_everyone(table: Table) -> dict[tuple[str, str], object]:
    sockets = {}
    for viewer in VIEWERS:
        key = None if viewer == "anonymous" else table.keys[viewer]
        cookie = None if viewer == "anonymous" else table.cookies[viewer]
        sockets[("json", viewer)] = await api_socket(table.game.pk, key)
        sockets[("html", viewer)] = await _html_socket(table.game.pk, cookie)
    return sockets


async def _history_of(sockets) -> dict[tuple[str, str], str]:
    """What each socket got on connect, up to its chat history."""
    return {(kind, viewer): await _json_frames_until(comm, '"chat_history"' if kind == "json" else 'id="talk-channels"')
            for (kind, viewer), comm in sockets.items()}


async def _close(sockets) -> None:
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_channel_reaches_its_readers_and_nobody_else_on_both_sockets(site_backend, make_user):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        table.cookies = {name: _session_cookie(user) for name, user in table.users.items()}
        services.post_message(game_id=table.game.pk, user=table.users["Ben"], channel="table", text="before anyone came")
        return table

    table = await setup()
    sockets = await _connect_everyone(table)
    for (kind, viewer), seen in (await _history_of(sockets)).items():
        assert "before anyone came" in seen
        _assert_exactly(viewer, seen, set(), f"{kind} socket on connect")

    writers = {writer: await api_socket(table.game.pk, table.keys[writer]) for writer, _, _ in MESSAGES.values()}
    for name, (writer, where, _) in MESSAGES.items():  # each written on a socket of the writer's own
        await writers[writer].send_json_to({"type": "chat", "text": marker(name), **where})
        ack = await next_of(writers[writer], "chat_ack")
        assert ack["key"] in {"table", "team:0", "team:1", "pair:0-1", "pair:0-2", "pair:2-3"}
    await _close(writers)
    await database_sync_to_async(services.post_message)(game_id=table.game.pk, user=table.users["Dee"],
                                                        channel="table", text="last word")
    for (kind, viewer), comm in sockets.items():  # ids commit in order: after the last, nothing else can come
        seen = await _json_frames_until(comm, "last word")
        _assert_exactly(viewer, seen, _readable(viewer), f"{kind} socket, live")
    await _close(sockets)

    sockets = await _connect_everyone(table)
    for (kind, viewer), seen in (await _history_of(sockets)).items():
        _assert_exactly(viewer, seen, _readable(viewer), f"{kind} socket on reconnect")
    await _close(sockets)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_message_is_escaped_on_the_page_and_sent_as_plain_text_in_json(site_backend, make_user):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        table.cookies = {"Ben": _session_cookie(table.users["Ben"])}
        return table

    table = await setup()
    page = await _html_socket(table.game.pk, table.cookies["Ben"])
    bot = await api_socket(table.game.pk, table.keys["Ben"])
    await _json_frames_until(page, 'id="talk-channels"')
    await next_of(bot, "chat_history")
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> & \'quotes\''
    await database_sync_to_async(services.post_message)(game_id=table.game.pk, user=table.users["Ana"],
                                                        channel="team", text=hostile)
    html = await _json_frames_until(page, "&lt;script&gt;")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; &#x27;quotes&#x27;" in html
    assert (await next_of(bot, "chat"))["messages"][0]["text"] == hostile
    await page.disconnect()
    await bot.disconnect()


# ---------------------------------------------------------------- publishing a pair


@pytest.mark.django_db
def test_a_pair_is_published_after_the_game_only_when_both_players_agree(make_user):
    table = _table(make_user)
    _post_all(table)
    game_id, users = table.game.pk, table.users
    with pytest.raises(ChannelClosed, match="only after the game ends"):
        services.consent_to_publish(game_id=game_id, user=users["Ana"], with_seat=1)

    play_to_end(game_id, {seat: users[name] for seat, name in enumerate(NAMES)})
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    url = f"/api/games/{game_id}/chat/"

    def who_reads(name: str) -> set[str]:
        return {v for v in VIEWERS if marker(name) in table.client(v).get(url).content.decode()}

    with pytest.raises(ChannelClosed, match="the game is over"):
        services.post_message(game_id=game_id, user=users["Ana"], channel="pair", to=1, text="too late")
    with pytest.raises(NotSeated):
        services.consent_to_publish(game_id=game_id, user=users["Eve"], with_seat=1)
    with pytest.raises(Forbidden, match="computer player"):
        services.consent_to_publish(game_id=game_id, user=users["Ana"], with_seat=4)

    first = services.consent_to_publish(game_id=game_id, user=users["Ana"], with_seat=1)
    assert (first["published"], first["consents"]) == (False, [0])
    again = table.client("Ana").post(f"{url}publish/", data=json.dumps({"with": 1}), content_type="application/json")
    assert again.json()["channel"]["consents"] == [0]
    assert who_reads("ana-ben") == {"Ana", "Ben"}
    services.consent_to_publish(game_id=game_id, user=users["Cy"], with_seat=0)  # the other pair: one consent only
    assert who_reads("ana-cy") == {"Ana", "Cy"}

    second = table.client("Ben").post(f"{url}publish/", data=json.dumps({"with": 0}), content_type="application/json")
    assert second.status_code == 200 and second.json()["channel"]["published"] is True
    assert who_reads("ana-ben") == set(VIEWERS)
    assert who_reads("ana-cy") == {"Ana", "Cy"}
    assert who_reads("cy-dee") == {"Cy", "Dee"}
    assert who_reads("red") == {"Ana", "Ben"}
    published = next(c for c in table.client("Eve").get(url).json()["channels"] if c["key"] == "pair:0-1")
    assert (published["label"], published["published"], published["writable"]) == ("Ana & Ben", True, False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_published_pair_reaches_open_sockets_and_an_unpublished_one_never_does(site_backend, make_user):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        table.cookies = {"Eve": _session_cookie(table.users["Eve"]), "Ana": _session_cookie(table.users["Ana"])}
        _post_all(table)
        play_to_end(table.game.pk, {seat: table.users[name] for seat, name in enumerate(NAMES)})
        return table

    table = await setup()
    spy, spy_page = await api_socket(table.game.pk, table.keys["Eve"]), await _html_socket(table.game.pk, table.cookies["Eve"])
    ana_page = await _html_socket(table.game.pk, table.cookies["Ana"])
    ben = await api_socket(table.game.pk, table.keys["Ben"])
    _assert_exactly("Eve", await _json_frames_until(spy, "chat_history"), {"table", "eve"}, "after the end")
    await _json_frames_until(spy_page, 'id="talk-channels"')
    ana_html = await _json_frames_until(ana_page, 'id="talk-channels"')
    assert "Agree to publish" in ana_html
    await next_of(ben, "chat_history")

    await ana_page.send_json_to({"type": "chat_publish", "with": "1", "HEADERS": {"HX-Request": "true"}})
    assert "You agreed to publish it" in await _json_frames_until(ana_page, "You agreed")
    ben_sees = await next_of(ben, "chat_history")
    assert next(c for c in ben_sees["channels"] if c["key"] == "pair:0-1")["consents"] == [0]
    assert marker("ana-ben") not in await _drain(spy)

    await ben.send_json_to({"type": "chat_publish", "with": 0})
    assert (await next_of(ben, "chat_publish_ack"))["channel"]["published"] is True
    published = await _json_frames_until(spy, "chat_history")
    _assert_exactly("Eve", published, {"table", "eve", "ana-ben"}, "once published")
    _assert_exactly("Eve", await _json_frames_until(spy_page, 'id="talk-channels"'), {"table", "eve", "ana-ben"},
                    "page once published")
    for comm in (spy, spy_page, ana_page, ben):
        await comm.disconnect()


# ---------------------------------------------------------------- who may write, limits


@pytest.mark.django_db
def test_who_may_write_where(make_user):
    table = _table(make_user, spectators_read_only=True)
    game_id, users = table.game.pk, table.users
    before = ChatMessage.objects.count()
    refusals = [
        (Forbidden, "spectators of this game may only read", dict(user=users["Eve"], channel="table")),
        (NotSeated, "spectators have no team channel", dict(user=users["Eve"], channel="team")),
        (NotSeated, "spectators have no pair channel", dict(user=users["Eve"], channel="pair", to=0)),
        (Forbidden, "Seat 5 is a computer player", dict(user=users["Ana"], channel="pair", to=4)),
        (BadRequest, "that is your own seat", dict(user=users["Ana"], channel="pair", to=0)),
        (BadRequest, 'needs "to"', dict(user=users["Ana"], channel="pair")),
        (BadRequest, "seat must be 0 to 4", dict(user=users["Ana"], channel="pair", to=7)),
        (Unauthenticated, "sign in", dict(user=None, channel="table")),
    ]
    for error, message, call in refusals:
        with pytest.raises(error, match=message):
            services.post_message(game_id=game_id, text="hello", **call)
    assert ChatMessage.objects.count() == before
    assert table.client("Eve").get(f"/api/games/{game_id}/").json()["spectators_read_only"] is True
    answer = table.client("Eve").post(f"/api/games/{game_id}/chat/", data=json.dumps({"channel": "table", "text": "hi"}),
                                      content_type="application/json")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    anonymous = Client().post(f"/api/games/{game_id}/chat/", data=json.dumps({"channel": "table", "text": "hi"}),
                              content_type="application/json")
    assert anonymous.status_code == 401
    assert ChatMessage.objects.count() == before

    waiting = _table(make_user, start=False)
    assert services.post_message(game_id=waiting.game.pk, user=waiting.users["Eve"], channel="table", text="hi")["id"]
    for call in (dict(channel="team"), dict(channel="pair", to=1)):
        with pytest.raises(ChannelClosed, match="opens? when the game starts"):
            services.post_message(game_id=waiting.game.pk, user=waiting.users["Ana"], text="x", **call)
    solo = services.create_game(creator=users["Ana"], game_type=TABLE.slug, num_seats=2)
    services.join_seat(game_id=solo.pk, user=users["Ben"])
    services.start_game(game_id=solo.pk, user=users["Ana"])
    with pytest.raises(BadRequest, match="played without teams"):
        services.post_message(game_id=solo.pk, user=users["Ana"], channel="team", text="x")


@pytest.mark.django_db
def test_text_limits_and_the_rate_limit(make_user):
    table = _table(make_user)
    game_id, ana = table.game.pk, table.users["Ana"]
    post = table.client("Ana").post
    url = f"/api/games/{game_id}/chat/"

    def send(text):
        return post(url, data=json.dumps({"channel": "table", "text": text}), content_type="application/json")

    stored = send("  " + "x" * 500 + "\n ")
    assert stored.status_code == 201 and stored.json()["message"]["text"] == "x" * 500
    for text, code in (("x" * 501, "bad_request"), ("   \n\t ", "bad_request"), ("", "bad_request"),
                       ("a\u202eb", "bad_request"), ("bell\x07", "bad_request"), (5, "bad_request")):
        answer = send(text)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, code), text
    assert "bidirectional override (U+202E)" in send("a\u202eb").json()["error"]["message"]
    assert "control character" in send("bell\x07").json()["error"]["message"]
    for invisible in ("\u200b", "\u200b\ufeff\u200b", "\u2800 \u3164", "\u0301"):
        answer = send(invisible)
        assert answer.status_code == 400 and answer.json()["error"]["message"] == '"text" is empty: write something'
    for raw in ('{"channel": "table", "text": "a\\u0000b"}', '{"channel": "table", "text": "a\\ud800b"}'):
        answer = post(url, data=raw, content_type="application/json")
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "malformed"), raw
    assert ChatMessage.objects.filter(game_id=game_id).count() == 1

    for n in range(4):
        assert send(f"message {n}").status_code == 201
    refused = send("one too many")
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "too_many_messages")
    with pytest.raises(TooManyMessages):
        services.post_message(game_id=game_id, user=ana, channel="pair", to=1, text="in another channel")
    assert services.post_message(game_id=game_id, user=table.users["Ben"], channel="table", text="Ben is not limited")
    assert ChatMessage.objects.filter(game_id=game_id, sender=ana).count() == 5
    oldest = ChatMessage.objects.filter(game_id=game_id, sender=ana).order_by("id").first()
    ChatMessage.objects.filter(pk=oldest.pk).update(created_at=oldest.created_at - timedelta(seconds=11))
    assert send("room again").status_code == 201
    assert send("and full again").status_code == 429


# ---------------------------------------------------------------- the frame boundary, fuzzed

ANY_CHARACTER = st.characters(exclude_categories=())
FIELD = st.none() | st.booleans() | st.integers(-5, 70) | st.text(ANY_CHARACTER, max_size=8) | st.lists(st.integers(), max_size=2)
AROUND_THE_LIMIT = st.builds(lambda pad, n, ch: pad + ch * n + pad, st.sampled_from(["", " ", "\n\t "]),
                             st.integers(495, 505), st.sampled_from(["x", "é", "😀"]))
CHAT_TEXTS = (st.text(ANY_CHARACTER, max_size=600) | AROUND_THE_LIMIT
              | st.sampled_from(["", " ", "\x00", "\ud800", "a\r\nb", "a\rb", "\u202e", "\u200b", " \u2800 "]) | FIELD)
CHANNELS = st.sampled_from(["table", "team", "pair"])


@settings(max_examples=examples(400), deadline=None, database=None)
@given(frame=st.fixed_dictionaries({"type": st.just("chat"), "channel": CHANNELS | FIELD, "text": CHAT_TEXTS},
                                   optional={"to": st.integers(0, 63) | FIELD}),
       page=st.booleans(), ascii_only=st.booleans())
@example(frame={"type": "chat", "channel": "table", "text": "x" * 501}, page=False, ascii_only=False)
@example(frame={"type": "chat", "channel": "table", "text": "a\u0000"}, page=False, ascii_only=True)
@example(frame={"type": "chat", "channel": "pair", "to": "1", "text": "hi"}, page=True, ascii_only=False)
def test_a_chat_frame_is_either_clean_or_refused_with_a_documented_code(frame, page, ascii_only):
    text = json.dumps(frame, ensure_ascii=ascii_only)
    try:
        cleaned = inputs.frame(text, page=page)
    except inputs.InputError as exc:
        assert exc.code in DOCUMENTED_CODES and exc.code in {"malformed", "bad_request"}
        return
    assert cleaned["channel"] in {"table", "team", "pair"}
    assert cleaned["to"] is None or (isinstance(cleaned["to"], int) and 0 <= cleaned["to"] <= 63)
    message = cleaned["text"]
    assert message == frame["text"].replace("\r\n", "\n").strip()
    assert 1 <= len(message) <= 500
    assert not any(ord(ch) < 32 and ch not in "\n\t" for ch in message) and "\u202e" not in message
    assert any(unicodedata.category(ch)[0] not in "MZ" and unicodedata.category(ch) not in ("Cc", "Cf")
               and ch not in "\u2800\u3164" for ch in message)  # something shows
    message.encode("utf-8")  # no lone surrogate


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@settings(max_examples=examples(10), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sent=st.lists(st.fixed_dictionaries({"type": st.sampled_from(["chat", "chat_publish"])}, optional={
    "channel": CHANNELS | FIELD, "to": FIELD, "with": FIELD, "text": CHAT_TEXTS}),
    min_size=1, max_size=6))
async def test_the_socket_answers_every_chat_frame_once_and_stores_only_what_it_acked(make_user, sent):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        return table, ChatMessage.objects.count()

    table, before = await setup()
    comm = await api_socket(table.game.pk, table.keys["Cy"])
    await next_of(comm, "chat_history")
    acked = 0
    for frame in sent:
        await comm.send_to(text_data=json.dumps(frame))
        while True:
            answer = json.loads(await comm.receive_from(timeout=5))
            if answer["type"] in {"chat_ack", "chat_publish_ack"}:
                acked += answer["type"] == "chat_ack"
                break
            if answer["type"] == "error":
                assert answer["code"] in DOCUMENTED_CODES, answer
                assert answer["about"] == frame["type"], answer
                break
    await comm.disconnect()
    assert await database_sync_to_async(ChatMessage.objects.count)() == before + acked


@pytest.mark.django_db
def test_the_creator_makes_spectators_read_only_in_the_create_form_or_the_api(make_user):
    ana = make_user("Ana")
    page = Client()
    page.force_login(ana)
    form = page.get(f"/games/new/{PAIRS_TABLE.slug}/").content.decode()
    assert 'name="spectators_read_only"' in form and "Spectators may only read the table talk" in form
    page.post(f"/games/new/{PAIRS_TABLE.slug}/", {"num_seats": "4", "spectators_read_only": "on", "is_public": "on"})
    page.post(f"/games/new/{PAIRS_TABLE.slug}/", {"num_seats": "4", "is_public": "on"})
    assert list(Game.objects.order_by("pk").values_list("spectators_read_only", flat=True)) == [True, False]
    bot = Client(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user=ana, name='t')[1]}")
    made = bot.post("/api/games/", data=json.dumps({"game_type": PAIRS_TABLE.slug, "seats": 4, "spectators_read_only": True}),
                    content_type="application/json")
    assert made.status_code == 201 and made.json()["spectators_read_only"] is True
    wrong = bot.post("/api/games/", data=json.dumps({"game_type": PAIRS_TABLE.slug, "spectators_read_only": "yes"}),
                     content_type="application/json")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (400, "bad_request")


# ---------------------------------------------------------------- after a resign


def _channels(table: Table, viewer: str) -> dict[str, dict]:
    answer = table.client(viewer).get(f"/api/games/{table.game.pk}/chat/").json()
    return {c["key"]: c for c in answer["channels"]}


def _page_of(table: Table, viewer: str) -> str:
    page = Client()
    page.force_login(table.users[viewer])
    return page.get(f"/games/{table.game.pk}/").content.decode()


@pytest.mark.django_db
def test_a_pair_conversation_outlives_a_resign_for_both_players_and_is_published_after_the_end(make_user):
    """Ben resigns (a computer player takes his seat): his conversation with Ana stays on both
    their pages and in both their channel lists, closed for writing; Ben talks as a spectator
    (no team channel, the table on a spectator's terms); after the end both may publish it."""
    table = _table(make_user)
    _post_all(table)
    game_id, users = table.game.pk, table.users
    services.resign(game_id=game_id, user=users["Ben"])
    said = services.post_message(game_id=game_id, user=users["Ben"], channel="table", text="watching now")
    assert said["seat"] is None  # at the table as a spectator
    Game.objects.filter(pk=game_id).update(spectators_read_only=True)
    services.post_message(game_id=game_id, user=users["Ana"], channel="team", text=marker("red-after"))

    ana, ben = _channels(table, "Ana"), _channels(table, "Ben")
    assert set(ana) == {"table", "team:0", "pair:0-1", "pair:0-2", "pair:0-3"}
    assert set(ben) == {"table", "pair:0-1", "pair:1-2", "pair:1-3"}
    assert not ana["pair:0-1"]["writable"] and "Ben's seat" in ana["pair:0-1"]["closed_because"]
    assert not ben["pair:0-1"]["writable"] and "your seat" in ben["pair:0-1"]["closed_because"]
    assert not ben["table"]["writable"] and "spectators" in ben["table"]["closed_because"]
    for viewer in ("Ana", "Ben"):
        page = _page_of(table, viewer)
        assert marker("ana-ben") in page and "Agree to publish" not in page, viewer
    url = f"/api/games/{game_id}/chat/"
    for viewer, readers in (("Ana", {"table", "red", "ana-ben", "ana-cy", "eve", "red-after"}),
                            ("Ben", {"table", "ana-ben", "eve"})):
        seen = table.client(viewer).get(url).content.decode()
        for name in (*MESSAGES, "red-after"):
            assert (marker(name) in seen) == (name in readers), (viewer, name)

    before = ChatMessage.objects.count()
    for writer, call, error in (("Ana", dict(channel="pair", to=1), ChannelClosed),
                                ("Ben", dict(channel="pair", to=0), ChannelClosed),
                                ("Ben", dict(channel="team"), Forbidden),
                                ("Ben", dict(channel="table"), Forbidden)):
        with pytest.raises(error):
            services.post_message(game_id=game_id, user=users[writer], text="after the resign", **call)
    assert ChatMessage.objects.count() == before

    play_to_end(game_id, {0: users["Ana"], 2: users["Cy"], 3: users["Dee"]})
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    assert "Agree to publish" in _page_of(table, "Ben")
    services.consent_to_publish(game_id=game_id, user=users["Ben"], with_seat=0)
    published = table.client("Ana").post(f"{url}publish/", data=json.dumps({"with": 1}), content_type="application/json")
    assert published.status_code == 200 and published.json()["channel"]["published"] is True
    assert marker("ana-ben") in table.client("Eve").get(url).content.decode()
    assert marker("ana-ben") in Client().get(url).content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_after_a_resign_both_players_sockets_keep_the_pair_on_the_open_socket_and_on_reconnect(
        site_backend, make_user):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        table.cookies = {name: _session_cookie(table.users[name]) for name in ("Ana", "Ben")}
        _post_all(table)
        return table

    table = await setup()

    async def connect():
        sockets = {("json", name): await api_socket(table.game.pk, table.keys[name]) for name in ("Ana", "Ben")}
        sockets.update({("html", name): await _html_socket(table.game.pk, table.cookies[name]) for name in ("Ana", "Ben")})
        return sockets

    def check(kind: str, viewer: str, seen: str, where: str) -> None:
        readers = {"Ana": _readable("Ana"), "Ben": {"table", "ana-ben", "eve"}}[viewer]
        _assert_exactly(viewer, seen, readers, f"{kind} socket {where}")
        if kind == "html":
            assert "Agree to publish" not in seen and "Closed: a computer player has" in seen

    sockets = await connect()
    await _history_of(sockets)
    await database_sync_to_async(services.resign)(game_id=table.game.pk, user=table.users["Ben"])
    for (kind, viewer), comm in sockets.items():
        if viewer == "Ben" or kind == "json":  # Ana's page gets no new channels: the pair only closes
            seen = await _json_frames_until(comm, '"chat_history"' if kind == "json" else 'id="talk-channels"')
            if kind == "json":
                channels = json.loads(seen.splitlines()[-1])["channels"]
                pair = next(c for c in channels if c["key"] == "pair:0-1")
                assert not pair["writable"] and [m["text"] for m in pair["messages"]] == [marker("ana-ben")]
            check(kind, viewer, seen, "open when Ben resigned")
    await _close(sockets)
    sockets = await connect()
    for (kind, viewer), seen in (await _history_of(sockets)).items():
        check(kind, viewer, seen, "on reconnect")
    await _close(sockets)


# ---------------------------------------------------------------- after the end, every channel kind


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_after_the_end_only_the_table_is_writable_in_every_channel_kind_over_http_and_on_the_socket(
        site_backend, make_user):
    @database_sync_to_async
    def setup():
        table = _table(make_user)
        play_to_end(table.game.pk, {seat: table.users[name] for seat, name in enumerate(NAMES)})
        for name, with_seat in (("Ana", 1), ("Ben", 0)):
            services.consent_to_publish(game_id=table.game.pk, user=table.users[name], with_seat=with_seat)
        return table, ChatMessage.objects.count()

    table, before = await setup()
    url = f"/api/games/{table.game.pk}/chat/"
    attempts = {"table": {"channel": "table"}, "team": {"channel": "team"}, "pair": {"channel": "pair", "to": 2},
                "published pair": {"channel": "pair", "to": 1}}
    channels = await database_sync_to_async(_channels)(table, "Ana")
    kinds = {"table": channels["table"], "team": channels["team:0"], "pair": channels["pair:0-2"],
             "published pair": channels["pair:0-1"]}
    assert {kind: c["writable"] for kind, c in kinds.items()} == {
        "table": True, "team": False, "pair": False, "published pair": False}
    assert kinds["published pair"]["published"]
    for kind in ("team", "pair", "published pair"):
        assert kinds[kind]["closed_because"] == "the game is over: talk at the table"

    ana = await api_socket(table.game.pk, table.keys["Ana"])
    await next_of(ana, "chat_history")
    for kind, where in attempts.items():
        answer = await database_sync_to_async(table.client("Ana").post)(
            url, data=json.dumps({"text": f"http {kind}", **where}), content_type="application/json")
        await ana.send_json_to({"type": "chat", "text": f"socket {kind}", **where})
        reply = json.loads(await ana.receive_from(timeout=5))
        while reply["type"] not in {"chat_ack", "error"}:
            reply = json.loads(await ana.receive_from(timeout=5))
        if kind == "table":
            assert answer.status_code == 201 and reply["type"] == "chat_ack"
        else:
            assert (answer.status_code, answer.json()["error"]["code"]) == (409, "channel_closed"), kind
            assert (reply["type"], reply["code"], reply["about"]) == ("error", "channel_closed", "chat"), kind
    await ana.disconnect()
    stored = await database_sync_to_async(lambda: list(ChatMessage.objects.order_by("id").values_list("key", flat=True)))()
    assert stored[before:] == ["table", "table"]


# ---------------------------------------------------------------- refusals say what they are about


REFUSED_ON_THE_SOCKET = [
    ('{"type": "chat", "channel": "table", "text": ""}', "bad_request"),
    ('{"type": "chat", "channel": "table", "text": "%s"}' % ("x" * 501), "bad_request"),
    ('{"type": "chat", "channel": "table", "text": "bell\\u0007"}', "bad_request"),
    ('{"type": "chat", "channel": "table", "text": "a\\u202eb"}', "bad_request"),
    ('{"type": "chat", "channel": "table", "text": 5}', "bad_request"),
    ('{"type": "chat", "channel": "tabel", "text": "hi"}', "bad_request"),
    ('{"type": "chat", "channel": "pair", "to": "one", "text": "hi"}', "bad_request"),
    ('{"type": "chat", "channel": "pair", "to": 64, "text": "hi"}', "bad_request"),
    ('{"type": "chat_publish", "with": -1}', "bad_request"),
    ('{"type": "chat_publish", "with": true}', "bad_request"),
    ('{"type": "chat", "channel": "table", "text": "a\\u0000b"}', "malformed"),
    ('{"type": "chat", "channel": "table", "text": "a\\ud800b"}', "malformed"),
    ('{"type": "chat", "channel": "table", "text": "broken"', "malformed"),
    ('{"type": "chat", "channel": "table", "text": "%s"}' % ("é" * 2100), "frame_too_large"),
    ('{"text": "%s", "type": "chat_publish", "with": 1}' % ("x" * 5000), "frame_too_large"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_chat_frame_refused_at_the_boundary_says_it_is_about_chat(site_backend, make_user):
    table = await database_sync_to_async(_table)(make_user)
    comm = await api_socket(table.game.pk, table.keys["Cy"])
    await next_of(comm, "chat_history")
    for text, code in REFUSED_ON_THE_SOCKET:
        await asyncio.sleep(0.06)  # within the socket's rate
        await comm.send_to(text_data=text)
        error = await next_of(comm, "error")
        kind = "chat_publish" if "chat_publish" in text else "chat"
        assert (error["code"], error.get("about")) == (code, kind), text[:80]
    await comm.send_to(text_data='{"type": "action", "action": {"type": "take"}, "action_id": "", "version": 1}')
    assert "about" not in await next_of(comm, "error")
    await asyncio.sleep(0.06)
    await comm.send_to(text_data='{"type": "chat", "channel": "pair", "to": 4, "text": "hi"}')  # a computer player
    error = await next_of(comm, "error")
    assert (error["code"], error["seat"]) == ("forbidden", 4) and error["message"].startswith("Seat 5 ")
    await comm.disconnect()
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0


@settings(max_examples=examples(400), deadline=None, database=None)
@given(frame=st.fixed_dictionaries({"type": st.sampled_from(["chat", "chat_publish"])}, optional={
    "channel": CHANNELS | FIELD, "to": st.integers(0, 63) | FIELD, "with": st.integers(0, 63) | FIELD,
    "text": CHAT_TEXTS}), page=st.booleans(), ascii_only=st.booleans(), cut=st.booleans())
@example(frame={"type": "chat", "channel": "table", "text": "a\u0000"}, page=False, ascii_only=True, cut=False)
@example(frame={"type": "chat", "channel": "table", "text": "\ud800"}, page=False, ascii_only=True, cut=False)
@example(frame={"type": "chat_publish", "with": "2"}, page=False, ascii_only=False, cut=False)
def test_a_refused_chat_frame_is_always_about_its_type(frame, page, ascii_only, cut):
    text = json.dumps(frame, ensure_ascii=ascii_only)
    if cut:
        text = text[:-1]
    try:
        inputs.frame(text, page=page)
    except inputs.InputError as exc:
        assert exc.about == frame["type"], (exc.code, exc.message)
        return
    assert not cut


# ---------------------------------------------------------------- a flood of chat frames


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_flood_of_chat_frames_stores_only_messages_whose_sender_got_the_ack(site_backend, make_user,
                                                                                    monkeypatch):
    """1,000 chat frames at once, the first still being stored when the flood is noticed: the
    socket is closed with 4008, and every message stored (and delivered to the others) was
    acked to its sender first."""
    post_message = services.post_message

    def slowly(**kwargs):
        time.sleep(0.3)
        return post_message(**kwargs)

    monkeypatch.setattr(services, "post_message", slowly)
    table = await database_sync_to_async(_table)(make_user)
    ben = await api_socket(table.game.pk, table.keys["Ben"])
    await next_of(ben, "chat_history")
    cy = await api_socket(table.game.pk, table.keys["Cy"])
    await next_of(cy, "chat_history")
    for n in range(1000):
        await cy.send_to(text_data=json.dumps({"type": "chat", "channel": "table", "text": f"flood {n}"}))
        await asyncio.sleep(0)
    acked, close = set(), None
    while close is None:
        out = await cy.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            close = out["code"]
        elif json.loads(out["text"])["type"] == "chat_ack":
            acked.add(json.loads(out["text"])["id"])
    assert close == 4008
    stored = await database_sync_to_async(lambda: set(ChatMessage.objects.values_list("number", flat=True)))()
    assert stored == acked and len(acked) == 1  # the one being stored when the flood was noticed
    delivered = set()
    while not await ben.receive_nothing(timeout=0.5):
        frame = json.loads(await ben.receive_from())
        if frame["type"] == "chat":
            delivered |= {m["id"] for m in frame["messages"]}
    assert delivered == acked
    await ben.disconnect()


@pytest.mark.django_db
def test_message_ids_count_no_messages_of_channels_the_reader_does_not_read(make_user, monkeypatch):
    """Two tables at the same moments: at one, Cy and Dee talk in their team and their pair
    between two table messages; at the other nobody does. What Ana and a spectator are told of
    the table's messages, ids included, is the same at both."""
    from games.services import chat as chat_service

    def seen(quiet: bool) -> dict[str, list]:
        clock = iter(range(1_000_000, 2_000_000, 1000))
        monkeypatch.setattr(chat_service, "microseconds_now", lambda: next(clock))
        table = _table(make_user)
        services.post_message(game_id=table.game.pk, user=table.users["Ana"], text="first", channel="table")
        for _ in range(3):
            if quiet:
                next(clock)
            else:
                services.post_message(game_id=table.game.pk, user=table.users["Cy"], text="psst", channel="team")
        if not quiet:
            services.post_message(game_id=table.game.pk, user=table.users["Dee"], text="psst", channel="pair", to=2)
        else:
            next(clock)
        services.post_message(game_id=table.game.pk, user=table.users["Ben"], text="second", channel="table")
        answers = {}
        for viewer in ("Ana", "Eve"):
            messages = table.client(viewer).get(f"/api/games/{table.game.pk}/chat/").json()["messages"]
            answers[viewer] = [(m["id"], m["key"], m["text"]) for m in messages]
        return answers

    talkative, quiet = seen(False), seen(True)
    assert [text for _, _, text in talkative["Ana"]] == ["first", "second"]
    assert talkative == quiet
    ids = [i for i, _, _ in quiet["Ana"]]
    assert ids == sorted(ids) and len(set(ids)) == 2


@pytest.mark.django_db
def test_two_messages_in_one_microsecond_get_increasing_ids(make_user, monkeypatch):
    from games.services import chat as chat_service

    monkeypatch.setattr(chat_service, "microseconds_now", lambda: 5_000_000)
    table = _table(make_user)
    ids = [services.post_message(game_id=table.game.pk, user=table.users[name], text="hi", channel="table")["id"]
           for name in ("Ana", "Ben", "Cy")]
    assert ids == [5_000_000, 5_000_001, 5_000_002]


@pytest.mark.django_db
def test_after_the_end_a_pair_that_said_nothing_is_not_offered_for_publishing(make_user):
    table = _table(make_user)
    services.post_message(game_id=table.game.pk, user=table.users["Ana"], text=marker("ana-ben"), channel="pair", to=1)
    play_to_end(table.game.pk, {seat: table.users[name] for seat, name in enumerate(NAMES)})
    page = _page_of(table, "Ana")
    said = page.split('id="chat-pair-0-1"', 1)[1].split('role="tabpanel"', 1)[0]
    silent = page.split('id="chat-pair-0-2"', 1)[1].split('role="tabpanel"', 1)[0]
    assert "Agree to publish" in said
    assert "Agree to publish" not in silent and "Nothing was said here, so there is nothing to publish." in silent
