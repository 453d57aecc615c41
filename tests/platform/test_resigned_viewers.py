"""What a player whose seat passed to a computer player (resigned) is sent, in every game: what
a spectator is sent, on the socket open when the resign happened, on reconnect, on the page's
socket and over HTTP; and what a signed-in stranger is sent: a spectator's view too.

The check is generic: at every version, the resigner's JSON view frame and the page's live
HTML are exactly the anonymous spectator's, so no seat's private part (a hand, a sealed
choice, a prompt) can reach them, whatever the game hides.
"""
from __future__ import annotations

import json
import re
import uuid

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import engines, selectors, services
from games.coordinator import Presence, get_coordinator
from tests.engines.privacy_oracle import hidden_cards
from games.models import ApiToken, Game
from tests.platform.helpers import play_one
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_html_socket import _html_socket, _next_html, _session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Tables where Ana (seat 0) resigning leaves the game in play, but for Jingle Bells (two
# players: her resignation ends it).
GAMES = {"snowball-fight": (3, 0), "snowball-fighting": (3, 0), "what-a-snowball": (4, 2), "jingle-bells": (2, 0)}
NAMES = ("Ana", "Ben", "Cy", "Dee")
MOVES_AFTER = 6


def _started(make_user, game_type: str):
    seats, teams = GAMES[game_type]
    users = {seat: make_user(name) for seat, name in enumerate(NAMES[:seats])}
    eve = make_user("Eve")
    game = services.create_game(creator=users[0], game_type=game_type, num_seats=seats, num_teams=teams or None,
                                options={"layout": "garden"} if game_type == "jingle-bells" else {})
    for seat in range(1, seats):
        services.join_seat(game_id=game.pk, user=users[seat], number=seat)
    services.start_game(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    keys = {name: ApiToken.issue(user=user, name="t")[1] for name, user in (("Ana", users[0]), ("Eve", eve))}
    cookies = {"Ana": _session_cookie(users[0]), "Eve": _session_cookie(eve)}
    return game, users, keys, cookies


REMATCH_PANEL = re.compile(r'<section class="panel rematch".*?</section>', re.S)


def _as_a_stranger_sees_it(html: str) -> str:
    """The resigner's page without what tells her it is hers: her seat marked "(you)" over the
    board, and "You resigned" in the spectator's tag."""
    html = re.sub(r'class="player me( |")', r'class="player\1', html)
    html = re.sub(r"(</a>|[^<>\s]) \(you\)", r"\1", html)
    return html.replace("You resigned: you are watching", "You are watching")


def _version_of(html: str) -> int:
    return int(re.search(r'id="live" data-version="(\d+)"', html).group(1))


async def _view_at(comm, version: int) -> dict:
    """The JSON socket's view of ``version`` (it must come, and nothing newer)."""
    view = await next_of(comm, "view", timeout=15)
    while view["version"] < version:
        view = await next_of(comm, "view", timeout=15)
    assert view["version"] == version
    return view


async def _live_at(comm, version: int) -> str:
    """The page socket's live swap of ``version``."""
    html = await _next_html(comm, 'id="live"', timeout=15)
    while _version_of(html) < version:
        html = await _next_html(comm, 'id="live"', timeout=15)
    assert _version_of(html) == version
    return html


def _current_version(game_id: int) -> int:
    return Game.objects.get(pk=game_id).version


def _hand_of_seat_0(game_id: int) -> set[str]:
    """Snowball Fight: the cards in seat 0's hand (a computer player's hand once Ana resigned)."""
    game = Game.objects.get(pk=game_id)
    return set(game.state["hands"][0]) if game.game_type == "snowball-fight" else set()


async def _same_as_a_spectator(sockets: dict, where: str) -> int:
    """Every socket's view of the game's current version, the resigner's and the stranger's
    exactly the anonymous spectator's; that version."""
    version = await database_sync_to_async(_current_version)(next(iter(sockets.values())).game_id)
    json_views = {name: await _view_at(sockets[name, "json"], version) for name in ("Ana", "Eve", "anonymous")}
    pages = {name: await _live_at(sockets[name, "html"], version) for name in ("Ana", "Eve", "anonymous")}
    spectator = json_views["anonymous"]
    assert spectator["seat"] is None
    for name in ("Ana", "Eve"):
        assert json_views[name] == spectator, f"{name} ({where}) is not sent what a spectator is"
    # Once the game is over she, a player of it, may offer a rematch; nothing else differs.
    pages["Ana"], pages["Eve"] = (REMATCH_PANEL.sub("", pages[name]) for name in ("Ana", "Eve"))
    assert _as_a_stranger_sees_it(pages["Ana"]) == pages["Eve"], f"Ana's page ({where}) is not a signed-in spectator's"
    signed_in_only = ' · <a href="/me/games/">My games</a>'  # the result's link for the signed in
    assert pages["Eve"].replace(signed_in_only, "") == pages["anonymous"], f"Eve's page ({where}) is not a spectator's"
    hand = await database_sync_to_async(_hand_of_seat_0)(spectator["game_id"])
    for name in ("Ana", "Eve"):
        assert not hand & set(re.findall(r'data-card="(c\d+)"', pages[name])), f"{name} sees seat 0's hand"
    return version


async def _connect(game_id: int, keys: dict, cookies: dict) -> dict:
    sockets = {}
    for name in ("Ana", "Eve", "anonymous"):
        sockets[name, "json"] = await api_socket(game_id, keys.get(name))
        sockets[name, "html"] = await _html_socket(game_id, cookies.get(name))
    for comm in sockets.values():
        comm.game_id = game_id
    return sockets


async def _close(sockets: dict) -> None:
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.parametrize("game_type", list(GAMES))
async def test_a_resigned_player_is_sent_what_a_spectator_is_on_both_sockets_and_over_http(
        site_backend, make_user, game_type):
    game, users, keys, cookies = await database_sync_to_async(_started)(make_user, game_type)
    sockets = await _connect(game.pk, keys, cookies)
    started_at = await database_sync_to_async(_current_version)(game.pk)
    before = await _view_at(sockets["Ana", "json"], started_at)
    assert before["seat"] == 0 and before["view"] is not None
    await _view_at(sockets["Eve", "json"], started_at)
    await _view_at(sockets["anonymous", "json"], started_at)
    for name in ("Ana", "Eve", "anonymous"):
        await _live_at(sockets[name, "html"], started_at)

    ana = Client(HTTP_AUTHORIZATION=f"Token {keys['Ana']}")
    assert ana.post(f"/api/games/{game.pk}/resign/", data="{}", content_type="application/json").status_code == 200
    resigned_at = await _same_as_a_spectator(sockets, "on the socket open when she resigned")

    others = {seat: user for seat, user in users.items() if seat != 0}
    versions = {resigned_at}
    for _ in range(MOVES_AFTER):  # the computer player in her seat plays on, hand and all
        if not await database_sync_to_async(play_one)(game.pk, others):
            break
        versions.add(await _same_as_a_spectator(sockets, "as the game goes on"))
    assert len(versions) > 1 or game_type == "jingle-bells"
    status = (await database_sync_to_async(selectors.get_game)(game.pk)).status
    assert status == (Game.Status.FINISHED if game_type == "jingle-bells" else Game.Status.ACTIVE)

    http = {name: client.get(f"/api/games/{game.pk}/").json() for name, client in (
        ("Ana", ana), ("Eve", Client(HTTP_AUTHORIZATION=f"Token {keys['Eve']}")), ("anonymous", Client()))}
    assert http["Ana"] == http["Eve"] == http["anonymous"] and http["Ana"]["seat"] is None
    await _close(sockets)

    sockets = await _connect(game.pk, keys, cookies)  # reconnect: the first view is a spectator's too
    await _same_as_a_spectator(sockets, "on reconnect")
    await _close(sockets)


def _asked_table(make_user):
    """Snowball Fight at three seats, every seat asked to choose a card."""
    game, users, keys, cookies = _started(make_user, "snowball-fight")
    ruleset = engines.get(game.game_type)
    for _ in range(40):
        game.refresh_from_db()
        state = selectors.game_state(game)
        asked = ruleset.to_act(state)
        if 0 in asked and any(a["type"] == "choose" for a in ruleset.legal_actions(state, 0)):
            return game, users, keys, cookies
        seat = min(asked)
        services.submit_action(game_id=game.pk, user=users[seat], action=ruleset.bot_action(state, seat),
                               action_id=uuid.uuid4().hex, version=game.version)
    raise AssertionError("seat 0 was never asked to choose")


def _log_length(game_id: int) -> tuple[int, int]:
    game = Game.objects.get(pk=game_id)
    return game.version, game.log_length


async def test_an_action_from_a_resigned_seat_is_refused_on_both_sockets_and_over_http_and_changes_nothing(
        site_backend, make_user):
    """Ana is asked to choose a card and has the prompt on her sockets; she resigns on the
    page, then sends the card she was asked for: refused as forbidden, the game unchanged."""
    game, users, keys, cookies = await database_sync_to_async(_asked_table)(make_user)
    bot, page = await api_socket(game.pk, keys["Ana"]), await _html_socket(game.pk, cookies["Ana"])
    asked = await _view_at(bot, game.version)
    assert asked["prompt"] is not None and asked["seat"] == 0
    choice = next(a for a in asked["legal_actions"] if a["type"] == "choose")
    await _live_at(page, game.version)

    resign = Client(HTTP_AUTHORIZATION=f"Token {keys['Ana']}").post(f"/api/games/{game.pk}/resign/", data="{}",
                                                                     content_type="application/json")
    assert resign.status_code == 200
    resigned = await next_of(bot, "view")
    assert resigned["seat"] is None and resigned["prompt"] is None and resigned["resigned"] == [0]
    settled = await database_sync_to_async(_log_length)(game.pk)

    for version in (asked["version"], resigned["version"]):
        await bot.send_json_to({"type": "action", "action": choice, "action_id": f"late-{version}", "version": version})
        refused = await next_of(bot, "error")
        assert (refused["code"], refused["action_id"]) == ("forbidden", f"late-{version}"), refused
        assert "resigned" in refused["message"]
        await page.send_to(text_data=json.dumps({"action": json.dumps(choice), "action_id": f"page-{version}",
                                                 "version": str(version), "HEADERS": {"HX-Request": "true"}}))
        flash = await page.receive_from(timeout=5)
        while 'id="flash"' not in flash:
            flash = await page.receive_from(timeout=5)
        assert 'data-code="forbidden"' in flash and "resigned" in flash
    http = Client(HTTP_AUTHORIZATION=f"Token {keys['Ana']}").post(
        f"/api/games/{game.pk}/actions/", data=json.dumps({"action": choice, "action_id": "http", "version": resigned["version"]}),
        content_type="application/json")
    assert (http.status_code, http.json()["error"]["code"]) == (403, "forbidden")
    ready = Client(HTTP_AUTHORIZATION=f"Token {keys['Ana']}").post(
        f"/api/games/{game.pk}/ready/", data=json.dumps({"version": resigned["version"]}), content_type="application/json")
    assert (ready.status_code, ready.json()["error"]["code"]) == (403, "forbidden")
    assert await database_sync_to_async(_log_length)(game.pk) == settled
    await bot.disconnect()
    await page.disconnect()


async def test_a_signed_in_stranger_is_sent_a_spectators_view_on_both_sockets(site_backend, make_user):
    """Eve, signed in but seated nowhere, gets exactly what an anonymous spectator gets: no
    hand, no prompt, no legal actions, on connect and as the game goes on."""
    game, users, keys, cookies = await database_sync_to_async(_started)(make_user, "snowball-fight")
    sockets = await _connect(game.pk, {"Eve": keys["Eve"]}, {"Eve": cookies["Eve"]})
    await _same_as_a_spectator(sockets, "a signed-in stranger on connect")  # "Ana": a second anonymous viewer
    for _ in range(3):
        assert await database_sync_to_async(play_one)(game.pk, users)
        version = await _same_as_a_spectator(sockets, "a signed-in stranger")
        state = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
        assert version and hidden_cards(state, None)
    await _close(sockets)


def _presence_of(game_id: int) -> Presence:
    return get_coordinator().presence(game_id)


async def _presence_frame(comm, *, spectators: int) -> dict:
    """The presence frame that reports ``spectators`` watchers (the first ones may be older)."""
    frame = await next_of(comm, "presence", timeout=10)
    while frame["spectators"] != spectators:
        frame = await next_of(comm, "presence", timeout=10)
    return frame


async def test_a_resigned_player_is_not_counted_among_the_watchers(site_backend, make_user):
    """"N watching" counts those with no seat at the game: Ana, who resigned, watches on, but
    as the player of her seat, on the sockets open when she resigned and on those she opens
    again; Eve, signed in and seated nowhere, is the one watcher."""
    game, users, keys, cookies = await database_sync_to_async(_started)(make_user, "snowball-fight")
    eve = await _html_socket(game.pk, cookies["Eve"])
    await _live_at(eve, game.version)
    ana = {"json": await api_socket(game.pk, keys["Ana"]), "html": await _html_socket(game.pk, cookies["Ana"])}
    await _view_at(ana["json"], game.version)
    await _live_at(ana["html"], game.version)
    assert await database_sync_to_async(_presence_of)(game.pk) == Presence(frozenset({0}), 1, 3)

    resign = Client(HTTP_AUTHORIZATION=f"Token {keys['Ana']}").post(f"/api/games/{game.pk}/resign/", data="{}",
                                                                     content_type="application/json")
    assert resign.status_code == 200
    resigned_at = await database_sync_to_async(_current_version)(game.pk)
    assert (await _view_at(ana["json"], resigned_at))["seat"] is None
    await _live_at(ana["html"], resigned_at)
    assert await database_sync_to_async(_presence_of)(game.pk) == Presence(frozenset({0}), 1, 3)

    for comm in ana.values():
        await comm.disconnect()
    ana = {"json": await api_socket(game.pk, keys["Ana"]), "html": await _html_socket(game.pk, cookies["Ana"])}
    assert (await _view_at(ana["json"], resigned_at))["seat"] is None
    await _live_at(ana["html"], resigned_at)
    assert await database_sync_to_async(_presence_of)(game.pk) == Presence(frozenset({0}), 1, 3)
    frame = await _presence_frame(ana["json"], spectators=1)
    assert frame["seats_connected"] == [0]
    assert 'id="spectator-count">1<' in await _next_html(ana["html"], 'id="presence"', timeout=10)
    for comm in (eve, *ana.values()):
        await comm.disconnect()
