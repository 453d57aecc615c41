"""The JSON API over HTTP, as a bot written from docs/api.md would use it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from games.models import ApiToken, Game

pytestmark = pytest.mark.django_db

API_DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()


def _bot(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def _post(client: Client, url: str, body: dict | None = None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def test_bot_creates_joins_starts_and_plays(make_user):
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    types = ana.get("/api/game-types/").json()["game_types"]
    assert "snowball-fight" in [t["slug"] for t in types]
    created = _post(ana, "/api/games/", {"game_type": "snowball-fight"})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert game_id in [g["id"] for g in ben.get("/api/games/").json()["games"]]
    assert _post(ben, f"/api/games/{game_id}/join/").status_code == 200
    started = _post(ana, f"/api/games/{game_id}/start/")
    assert started.json()["status"] == "active"
    view = ana.get(f"/api/games/{game_id}/").json()
    assert view["seat"] == 0 and view["legal_actions"]
    reply = _post(ana, f"/api/games/{game_id}/actions/",
                  {"action": view["legal_actions"][0], "action_id": "x1", "version": view["version"]})
    assert reply.status_code == 200, reply.content
    assert reply.json()["ack"]["version"] > view["version"]
    again = _post(ana, f"/api/games/{game_id}/actions/",
                  {"action": view["legal_actions"][0], "action_id": "x1", "version": view["version"]})
    assert again.json()["ack"]["duplicate"] is True


def test_a_stale_action_over_http_names_the_current_version_to_fetch(make_user):
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    game_id = _post(ana, "/api/games/", {"game_type": "snowball-fight"}).json()["id"]
    _post(ben, f"/api/games/{game_id}/join/")
    _post(ana, f"/api/games/{game_id}/start/")
    seen = ana.get(f"/api/games/{game_id}/").json()
    for bot in (ana, ben):
        view = bot.get(f"/api/games/{game_id}/").json()
        _post(bot, f"/api/games/{game_id}/actions/",
              {"action": view["prompt"]["default"], "action_id": "pick", "version": view["version"]})
    stale = _post(ana, f"/api/games/{game_id}/actions/",
                  {"action": seen["prompt"]["default"], "action_id": "late", "version": seen["version"]})
    assert stale.status_code == 409, stale.content
    error = stale.json()["error"]
    assert error["code"] == "stale_version" and "view" not in stale.json()
    assert error["current_version"] == ana.get(f"/api/games/{game_id}/").json()["version"]
    assert "here is" not in error["message"]


GAME_SLUGS = ("snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball")


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_an_option_the_game_does_not_list_is_refused_by_every_game_and_creates_nothing(make_user, slug):
    ana = _bot(make_user("Ana"))
    listed = next(t for t in ana.get("/api/game-types/").json()["game_types"] if t["slug"] == slug)["options"]
    refused = _post(ana, "/api/games/", {"game_type": slug, "options": {"colour": "red"}})
    assert refused.status_code == 400, refused.content
    known = ", ".join(o["name"] for o in listed)
    assert refused.json()["error"] == {
        "code": "bad_request", "message": f"bad options: unknown option 'colour'; known options: {known}"}
    assert Game.objects.count() == 0
    defaults = {o["name"]: o["default"] for o in listed}
    assert _post(ana, "/api/games/", {"game_type": slug, "options": defaults}).status_code == 201


def test_a_roster_names_traits_as_the_views_show_them_and_the_game_keeps_them_in_lower_case(make_user):
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    kids = [{"name": f"Kid {i}", "seat": i % 2, "traits": [["Fast"], ["STRONG"], ["skilful"]][i % 3]} for i in range(6)]
    created = _post(ana, "/api/games/", {"game_type": "what-a-snowball", "options": {"kids": kids}})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert [k["traits"] for k in created.json()["options"]["kids"]] == [["fast"], ["strong"], ["skilful"]] * 2
    _post(ben, f"/api/games/{game_id}/join/")
    _post(ana, f"/api/games/{game_id}/start/")
    view = ana.get(f"/api/games/{game_id}/").json()
    assert view["options"]["kids"][0]["traits"] == ["fast"]
    sheets = sorted((k["name"], k["sheet"]["traits"]) for k in view["view"]["kids"].values())
    assert sheets[:3] == [("Kid 0", ["Fast"]), ("Kid 1", ["Strong"]), ("Kid 2", ["Skilful"])]


def test_an_unknown_operation_at_a_game_is_answered_with_every_operation_there_is(make_user):
    """Each operation docs/api.md gives under /api/games/<id>/ is named, and only those the URL
    table has; a private game's answer is the same, and says nothing of it."""
    ana = _bot(make_user("Ana"))
    documented = {*re.findall(r"/api/games/<id>/([a-z/-]+)/", API_DOC), *re.findall(r"`\.\.\./([a-z/-]+)/`", API_DOC)}
    for is_public in (True, False):
        game_id = _post(ana, "/api/games/", {"game_type": "snowball-fight", "is_public": is_public}).json()["id"]
        reply = _post(_bot(make_user("Ben")), f"/api/games/{game_id}/frobnicate/")
        assert reply.status_code == 404, reply.content
        error = reply.json()["error"]
        assert error["code"] == "not_found" and error["message"].startswith("unknown operation 'frobnicate': ")
        listed = set(error["message"].split(" are ", 1)[1].removesuffix(" (docs/api.md)").split(", "))
        assert listed == documented
        # asked with another method, the path is still no operation: not "use POST"
        for method in ("get", "head", "put", "delete"):
            reply = getattr(_bot(make_user("Cy")), method)(f"/api/games/{game_id}/frobnicate/")
            assert reply.status_code == 404, (method, reply.status_code)
        assert _bot(make_user("Dee")).get(f"/api/games/{game_id}/join/").status_code == 405


def test_errors_say_what_was_wrong(make_user):
    ana = _bot(make_user("Ana"))
    assert Client(HTTP_AUTHORIZATION="Token nope").get("/api/games/?mine=1").status_code == 401
    bad = ana.post("/api/games/", data="{oops", content_type="application/json")
    assert bad.status_code == 400 and "JSON" in bad.json()["error"]["message"]
    unknown = _post(ana, "/api/games/", {"game_type": "chess"})
    assert unknown.status_code == 400 and "chess" in unknown.json()["error"]["message"]
    assert _post(Client(), "/api/games/", {"game_type": "snowball-fight"}).status_code == 401
    assert ana.get("/api/games/99999/").status_code == 404


def test_the_game_list_gives_your_games_only_for_mine_1_and_refuses_another_value(make_user):
    """``?mine=0`` is the public list, as no ``mine`` is; a value that is neither is refused by
    name instead of being read as ``mine=1``."""
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    public = _post(ben, "/api/games/", {"game_type": "snowball-fight"}).json()["id"]
    private = _post(ana, "/api/games/", {"game_type": "jingle-bells", "is_public": False}).json()["id"]
    for url in ("/api/games/", "/api/games/?mine=0"):
        listed = [g["id"] for g in ana.get(url).json()["games"]]
        assert public in listed and private not in listed, url
    mine = ana.get("/api/games/?mine=1").json()["games"]
    assert [g["id"] for g in mine] == [private] and mine[0]["your_seat"] == 0
    for value in ("true", "yes", "2", ""):
        refused = ana.get(f"/api/games/?mine={value}")
        assert refused.status_code == 400, value
        error = refused.json()["error"]
        assert error["code"] == "bad_request" and '"mine" must be one of "0", "1"' in error["message"], value


@pytest.mark.parametrize("size", [16 * 1024 + 1, 3 * 1024 * 1024])
def test_a_body_over_the_limit_is_refused_as_too_large_whatever_its_size(make_user, size, caplog):
    """Past 16 KiB, and past Django's own 2.5 MiB limit for a body in memory, the same JSON 413."""
    ana = _bot(make_user("Ana"))
    for url in ("/api/games/", "/api/games/1/actions/"):
        answer = ana.post(url, data=b'{"game_type": "snowball-fight", "pad": "' + b"x" * size + b'"}',
                          content_type="application/json")
        assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large", url
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "WARNING") and r.exc_info]
    assert ana.get("/api/games/?mine=1").json()["games"] == []


def test_the_api_document_is_served_where_the_tokens_page_and_the_api_point(make_user):
    document = Client().get("/api/docs/?raw=1")
    assert document.status_code == 200 and document["Content-Type"] == "text/plain; charset=utf-8"
    assert document.content.decode().startswith("# The Snowball JSON API") and "too_large" in document.content.decode()
    page = Client()
    page.force_login(make_user("Ana"))
    assert 'href="/api/docs/"' in page.get("/me/tokens/").content.decode()
    assert "/api/docs/" in Client().get("/api/nowhere/").json()["error"]["message"]


def test_session_posts_need_csrf(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("Ana"))
    refused = _post(client, "/api/games/", {"game_type": "snowball-fight"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"


def test_spectator_view_has_no_actions(make_user):
    ana, ben = _bot(make_user("Ana")), _bot(make_user("Ben"))
    game_id = _post(ana, "/api/games/", {"game_type": "snowball-fight"}).json()["id"]
    _post(ben, f"/api/games/{game_id}/join/")
    _post(ana, f"/api/games/{game_id}/start/")
    watcher = Client().get(f"/api/games/{game_id}/").json()
    assert watcher["seat"] is None and watcher["legal_actions"] == [] and watcher["prompt"] is None


@pytest.mark.parametrize("body", [b"--x\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n" + b"a" * 32
                                  + b"\r\n--x--\r\n", b"--x\r\n\xff\xfe", b"{}"])
def test_a_multipart_body_on_a_session_is_a_documented_error(make_user, body):
    """The CSRF check reads a form body's token: the body is still there for the API after it."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("Ana"))
    client.cookies["csrftoken"] = "a" * 32
    answer = client.post("/api/games/", data=body, content_type="multipart/form-data; boundary=x",
                         HTTP_X_CSRFTOKEN="a" * 32)
    assert answer.status_code in {400, 403}
    assert answer.json()["error"]["code"] in {"malformed", "bad_request", "csrf"}


def test_the_api_document_is_a_page_whose_every_link_leads_somewhere():
    """Drawn as HTML: every anchor it links to is a heading of its own, and every document it
    links to (the dice, a game's README, the example bot) is served too, its own links working."""
    client = Client()
    page = client.get("/api/docs/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert "<h1" in html and "<table>" in html and "stale_version" in html
    pages = {"/api/docs/": html}
    linked = set(re.findall(r'href="(/api/docs/[^"#?]+)', html))
    assert {"/api/docs/docs/verifiable-dice.md", "/api/docs/docs/examples/random_bot.py",
            "/api/docs/games/engines/snowball_fight/README.md"} <= linked
    for address in linked:
        answer = client.get(address)
        assert answer.status_code == 200, address
        if address.endswith(".md"):
            pages[address] = answer.content.decode()
        else:
            assert answer["Content-Type"] == "text/plain; charset=utf-8" and "import" in answer.content.decode()
    for address, text in pages.items():
        ids = set(re.findall(r' id="([^"]+)"', text))
        assert set(re.findall(r'href="#([^"]+)"', text)) <= ids, address
        for target, anchor in re.findall(r'href="(/api/docs/[^"#?]*)#([^"]+)"', text):
            assert f' id="{anchor}"' in (pages.get(target) or client.get(target).content.decode()), (address, anchor)
        assert not [link for link in re.findall(r'href="([^"]+\.(?:md|py)(?:#[^"]*)?)"', text)
                    if not link.startswith(("/api/docs/", "http"))], address


@pytest.mark.parametrize("path", ["snowball_site/settings.py", "../etc/passwd", "docs/../manage.py", "games/views.py",
                                  "docs/nothing.md", "pyproject.toml"])
def test_only_the_documents_are_shown(path):
    answer = Client().get(f"/api/docs/{path}")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


def test_the_documents_take_only_get_and_answer_other_methods_in_json():
    for method in ("post", "put", "delete"):
        answer = getattr(Client(enforce_csrf_checks=True), method)("/api/docs/")
        assert answer.status_code == 405 and answer.json()["error"]["code"] == "method_not_allowed", method


def _filled(route: str, *, game_id: int, username: str) -> str:
    """A route of the URL conf with its parameters filled as a client would fill them."""
    values = {"game_id": str(game_id), "username": username, "slug": "snowball-fight", "game_type": "snowball-fight"}
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values.get(m.group(1), "x"), route)


@pytest.mark.django_db(transaction=True)
def test_head_is_answered_wherever_get_is_with_the_same_status_and_no_body(make_user):
    """Monitors and caches ask HEAD: every page and endpoint that answers GET answers it alike."""
    from tests.platform.helpers import started_game
    from tests.platform.test_fuzz import ROUTES

    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    _, key = ApiToken.issue(user=ana, name="head")
    username = ana.username
    checked = 0
    for route in ROUTES:
        if "logout" in route or "invite" in route:
            continue
        path = _filled(route, game_id=game.pk, username=username)
        for client in (Client(), Client(HTTP_AUTHORIZATION=f"Token {key}")):
            got, head = client.get(path), client.head(path)
            assert head.status_code == got.status_code, (path, got.status_code, head.status_code)
            assert head.content == b""
            checked += got.status_code == 200
    assert checked >= 20
