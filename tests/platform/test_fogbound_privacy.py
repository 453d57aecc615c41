"""Snowball Fighting's Fogbound garden: what every seat and a spectator is sent shows no hex beyond
that viewer's sight, no gnome it has not found and no shout it could not hear, over the JSON
socket, the page's socket and the HTTP API (the game and, for a spectator, its review), on first
connect, on every version of the game and on reconnect.

What a viewer may know is written here from the rules (book "Fogbound Variant", RULINGS 13-14),
not from the engine's views: a seat sees the hexes within its vision of where it stands, and,
for the turn just resolved, of every hex it stood on or passed through (at the vision it had
then); a spectator sees none while the game runs, unless the creator let spectators see all;
everyone sees everything once it is over. The garden's fixed features (start hexes, the shed and
its roof, conifers, snowmen, the pond, the wheelbarrow, the kitchen doors) are on every map. Any
other hex a frame names must be in the viewer's sight. Games are played to their end by the
engine's computer player through the play service, with shouts along the way.
"""
from __future__ import annotations

import asyncio
import html as htmlmod
import json
import random
import re
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import engines, selectors, services
from games.engines.snowball_fighting.fog import SHOUT_RANGE
from games.engines.snowball_fighting.garden import KITCHEN, MAPS
from games.models import ApiToken, Game
from tests.engines.privacy_oracle import strings_in
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_html_socket import _html_socket, _next_live, _session_cookie
from tests.platform.helpers import secret_log_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SLUG = "snowball-fighting"
GARDEN = MAPS["fogbound"]
HEX_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:A[A-D]|[A-Z])(?:1[0-2]|[1-9])(?![0-9])")
FIXED = (set(GARDEN.starts) | {GARDEN.shed} | set(GARDEN.conifers) | set(GARDEN.snowmen) | set(GARDEN.pond)
         | {GARDEN.wheelbarrow} | set(GARDEN.kitchen_doors)
         | {h for cells in GARDEN.avalanche.values() for h in cells}
         | {h for h in GARDEN.neighbours(GARDEN.shed) if h != KITCHEN})
SHOUTS = ("Over here, you cowards!", "Anyone near the pond?", "I can hear you breathing")


# ---------------------------------------------------------------- what a viewer may know


def sight_of(state: dict, viewer: int | None) -> set[str] | None:
    """The hexes ``viewer`` may have seen at this state (None: every hex)."""
    if state["phase"] == "over" or (viewer is None and state["options"]["spectators_see_all"]):
        return None
    if viewer is None or state["phase"] != "orders" or not state["combatants"]:
        return set()
    vision = state["fog"]["vision"]
    me = state["combatants"][viewer]
    seen: set[str] = set()
    if me["status"] != "gone" and me["hex"] != KITCHEN:
        seen |= GARDEN.within(me["hex"], vision)
    report = state["report"]
    if report:
        before = (report.get("vision") or {}).get("before", vision)
        stood: set[str] = set()
        for seg in report["segments"]:
            for move in seg["moves"]:
                if move["seat"] == viewer:
                    stood |= {move["from"], move["to"], *move["route"]}
            stood.add(seg["positions"].get(str(viewer), seg["positions"].get(viewer)))
        for h in stood - {None, KITCHEN}:
            seen |= GARDEN.within(h, before)
    return seen


def gnomes_known(state: dict, viewer: int | None) -> set[str]:
    """The gnomes a seat has found (in its sight at the end of a turn); all of them for a
    spectator who sees all, none for one who does not."""
    if viewer is None:
        return set(state["fog"]["gnomes"]) if state["options"]["spectators_see_all"] else set()
    return set(state["fog"]["found"][viewer])


def hidden_pairs(state: dict) -> int:
    """How many (seat, other combatant) pairs have the other out of the seat's sight now."""
    if state["phase"] != "orders":
        return 0
    return sum(1 for v in range(state["players"]) for y, c in enumerate(state["combatants"])
               if y != v and c["status"] != "gone" and c["hex"] != KITCHEN and c["hex"] not in sight_of(state, v))


def hexes_named(text: str) -> set[str]:
    return {h for h in HEX_TOKEN.findall(text) if GARDEN.is_hex(h)}



def _json_named(payload: dict) -> set[str]:
    """Every garden hex a JSON payload names, but in its copy of the map and the viewer's own
    orders, plan, planned routes and orders' example (all of which name hexes whoever is where)."""
    view = dict(payload.get("view") or {})
    view.pop("map", None)
    if view.get("report"):  # the route the viewer itself wrote last turn, walked or not
        view["report"] = {**view["report"], "segments": [
            {**seg, "moves": [{k: v for k, v in m.items() if not (k == "planned" and m["seat"] == payload["seat"])}
                              for m in seg["moves"]]} for seg in view["report"]["segments"]]}
    you = dict(view.pop("you", None) or {})
    for key in ("orders", "plan", "setup"):
        you.pop(key, None)
    help_ = dict(you.pop("orders_help", None) or {})
    help_.pop("example", None)
    rest = {k: v for k, v in payload.items() if k not in ("view", "legal_actions", "options", "log")}
    return {h for text in strings_in([view, you, help_, rest]) for h in hexes_named(text)}


MAP_PARTS = (r'<g class="sf-hexes">.*?</g>\s*</g>\s*(?=<g class="sf-features">)',  # every hex of the garden, drawn
             r'<g class="sf-fog".*?</g>', r'<g class="sf-labels".*?</g>',
             r'<g class="sf-mine".*?</g>\s*(?=<g class="sf-preview")',  # the viewer's own orders
             r'<section class="sf-panel sf-orders".*?</section>', r'<section class="sf-panel sf-wait" data-sf-sealed>.*?</section>',
             r'<section class="sf-panel sf-setup".*?</section>', r'<script[^>]*id="sf-(?:you|routes|path)"[^>]*>.*?</script>',
             r'<li class="log-[^"]*">[^<]*</li>')


def _html_named(page: str) -> set[str]:
    """Every garden hex a page names in its words, titles, labels and data, but in the drawn map
    itself and the viewer's own orders."""
    for part in MAP_PARTS:
        page = re.sub(part, "", page, flags=re.S)
    page = re.sub(r'\s(?:d|points|transform|style|viewBox|data-rows|data-doors)="[^"]*"', "", page)
    page = re.sub(r'aria-label="The garden: [^"]*"', "", page)
    return hexes_named(htmlmod.unescape(page))


def check_json(payload: dict, state: dict, viewer: int | None, private: set[str], where: str,
               ever: set[str] | None) -> None:
    """``ever``: every hex the viewer has had in sight so far, which its game log may name."""
    assert payload["seat"] == viewer
    view = payload["view"]
    assert not {"seed", "rng_counter"} & set(view), f"{where}: the generator's state was sent"
    sight = sight_of(state, viewer)
    if sight is not None:
        stray = _json_named(payload) - sight - FIXED - gnomes_known(state, viewer)
        assert not stray, (f"{where}: viewer {viewer} was sent hexes beyond its sight: {sorted(stray)} "
                           f"in {[t for t in strings_in(payload) if hexes_named(t) & stray][:3]}")
        for c in view["combatants"]:
            if c["seat"] != viewer:
                assert c.get("hex") in sight | {None}, f"{where}: viewer {viewer} sees seat {c['seat']} at {c['hex']}"
    if state["phase"] != "over":
        assert set(view["fog"].get("gnomes") or ()) <= gnomes_known(state, viewer), \
            f"{where}: viewer {viewer} was shown a gnome it never found"
    shown = {line["text"] for line in payload["log"]}
    assert not shown & private, f"{where}: viewer {viewer} was sent log lines of others: {shown & private}"
    if ever is not None:
        stray = {h for text in shown for h in hexes_named(text)} - ever - FIXED
        assert not stray, f"{where}: viewer {viewer}'s log names hexes it never saw: {sorted(stray)}"


def check_html(page: str, state: dict, viewer: int | None, private: set[str], where: str,
               ever: set[str] | None) -> None:
    assert f'data-seat="{"" if viewer is None else viewer}"' in page
    sight = sight_of(state, viewer)
    if sight is not None:
        stray = _html_named(page) - sight - FIXED - gnomes_known(state, viewer)
        assert not stray, (f"{where}: viewer {viewer}'s page names hexes beyond its sight: {sorted(stray)} in "
                           f"{[page[max(0, m.start() - 120):m.end() + 20] for m in HEX_TOKEN.finditer(page) if m.group() in stray][:2]}")
    if state["phase"] != "over":
        assert set(re.findall(r'data-gnome="([A-Z]+\d+)"', page)) <= gnomes_known(state, viewer), \
            f"{where}: a gnome not found is drawn"
    lines = {htmlmod.unescape(t) for t in re.findall(r'<li class="log-[^"]*">([^<]*)</li>', page)}
    assert not lines & private, f"{where}: viewer {viewer}'s page shows log lines of others"
    if ever is not None:
        stray = {h for text in lines for h in hexes_named(text)} - ever - FIXED
        assert not stray, f"{where}: viewer {viewer}'s page log names hexes it never saw: {sorted(stray)}"


# ---------------------------------------------------------------- the game


def _start(make_user, seed: int, see_all: bool) -> tuple[int, dict[int, Any]]:
    users = {n: make_user(name) for n, name in enumerate(("Ana", "Ben", "Cyd"))}
    game = services.create_game(creator=users[0], game_type=SLUG, num_seats=3,
                                options={"map": "fogbound", "spectators_see_all": see_all})
    for n in (1, 2):
        services.join_seat(game_id=game.pk, user=users[n], number=n)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.start_game(game_id=game.pk, user=users[0])
    return game.pk, users


VIEWERS = (0, 1, 2, None)


def _versions(game_id: int) -> dict[int | None, int]:
    """Each viewer's version of the game now (``selectors.viewer_version``)."""
    game = selectors.get_game(game_id)
    return {viewer: selectors.viewer_version(game, viewer) for viewer in VIEWERS}


def _move(game_id: int, users: dict[int, Any], rng: random.Random) -> tuple[dict, dict] | None:
    """One move: a shout now and then, else an asked seat's computer choice; each viewer's
    version after it and the shout (``{"by", "text", "heard"}``) if it was one; None once the
    game is over."""
    game = selectors.get_game(game_id)
    ruleset = engines.get(SLUG)
    state = selectors.game_state(game)
    if ruleset.outcome(state) is not None:
        return None
    shouter = rng.randrange(3)
    c = state["combatants"][shouter] if state["combatants"] else None
    if (state["phase"] == "orders" and rng.random() < 0.3 and c and c["status"] != "gone" and c["hex"] != KITCHEN):
        text = f"{rng.choice(SHOUTS)} ({game.version})"
        heard = {x for x, o in enumerate(state["combatants"]) if x != shouter and o["status"] != "gone"
                 and o["hex"] != KITCHEN and GARDEN.distance(c["hex"], o["hex"]) <= SHOUT_RANGE}
        try:
            services.submit_action(game_id=game_id, user=users[shouter], action={"type": "shout", "text": text},
                                   action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, shouter))
            return _versions(game_id), {"by": shouter, "text": text, "heard": heard}
        except Exception:  # nobody in range: the engine refuses, nothing changes
            pass
    seat = rng.choice(sorted(ruleset.to_act(state)))
    services.submit_action(game_id=game_id, user=users[seat], action=ruleset.bot_action(state, seat),
                           action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, seat))
    return _versions(game_id), {}


@database_sync_to_async
def _secrets(game_id: int) -> tuple[dict, dict[int | None, set[str]]]:
    """The state now and, per viewer, the log texts it must never be sent (other seats' and
    events out of its sight)."""
    return secret_log_texts(game_id, list(VIEWERS))


def _http_payloads(game_id: int, keys: dict[int, str]) -> dict[int | None, dict]:
    out = {seat: Client(HTTP_AUTHORIZATION=f"Token {key}").get(f"/api/games/{game_id}/").json()
           for seat, key in keys.items()}
    out[None] = Client().get(f"/api/games/{game_id}/").json()
    return out


def _spectator_review(game_id: int) -> dict:
    """The review of the game's last step, as a spectator may read it while the game runs."""
    return Client().get(f"/api/games/{game_id}/review/").json()


def _version_of(frame: Any, kind: str) -> int:
    if kind == "json":
        return frame["version"]
    return int(re.search(r'id="live" data-version="(\d+)"', frame).group(1))


async def _connect(game_id: int, keys: dict, cookies: dict) -> dict[tuple, Any]:
    sockets = {}
    for seat in VIEWERS:
        sockets[seat, "json"] = await api_socket(game_id, None if seat is None else keys[seat])
        sockets[seat, "html"] = await _html_socket(game_id, None if seat is None else cookies[seat])
    return sockets


async def _current_frames(sockets: dict, versions: dict[int | None, int]) -> dict[tuple, Any]:
    """Each socket's view of its viewer's version in ``versions``: every frame a socket was
    sent meanwhile is returned, and a refresh asks for the current view of the sockets whose
    view did not change."""
    frames: dict[tuple, list] = {}
    for (seat, kind), comm in sockets.items():
        await comm.send_json_to({"type": "refresh"})
        got: list = []
        while True:
            frame = await (next_of(comm, "view") if kind == "json" else _next_live(comm))
            got.append(frame)
            if _version_of(frame, kind) >= versions[seat]:
                break
        frames[seat, kind] = got
    return frames


async def _check_frames(game_id: int, frames: dict[tuple, list], states: dict[int, tuple], shouts: list[dict]) -> None:
    for (seat, kind), got in frames.items():
        for frame in got:
            version = _version_of(frame, kind)
            state, private, ever = states[seat, version]
            where = f"version {version} ({kind} socket)"
            if kind == "json":
                check_json(frame, state, seat, private[seat], where, ever[seat])
            else:
                check_html(frame, state, seat, private[seat], where, ever[seat])
            text = json.dumps(frame) if kind == "json" else htmlmod.unescape(frame)
            for shout in shouts:
                if seat != shout["by"] and seat not in shout["heard"] and state["phase"] != "over":
                    assert shout["text"] not in text, f"{where}: viewer {seat} heard a shout out of its range"


async def _disconnect(sockets: dict) -> None:
    await asyncio.gather(*(comm.disconnect() for comm in sockets.values()))


GAMES = [(30, False), (4, True)]  # seeds whose combatants are often out of each other's sight


# One backend: what a viewer is sent does not depend on the channel layer (the Redis layer's
# delivery is tested on its own); a whole game on every version is long enough once.
@pytest.mark.parametrize("site_backend", ["memory"], indirect=True)
@pytest.mark.parametrize("seed, see_all", GAMES, ids=[f"seed{s}{'-see-all' if a else ''}" for s, a in GAMES])
async def test_no_viewer_is_sent_a_hex_beyond_its_sight_a_gnome_it_did_not_find_or_a_shout_out_of_range(
        site_backend, make_user, seed, see_all):
    game_id, users = await database_sync_to_async(_start)(make_user, seed, see_all)
    keys = await database_sync_to_async(lambda: {s: ApiToken.issue(user=u, name="t")[1] for s, u in users.items()})()
    cookies = await database_sync_to_async(lambda: {s: _session_cookie(u) for s, u in users.items()})()
    rng = random.Random(seed)
    versions = await database_sync_to_async(_versions)(game_id)
    ever: dict[int | None, set[str] | None] = {viewer: set() for viewer in VIEWERS}

    async def record(versions: dict[int | None, int]) -> None:
        """What each viewer may be shown at its version now (a change it does not see leaves
        its version where it was, and what it sees as it was)."""
        state, private = await _secrets(game_id)
        for viewer in ever:
            sight = sight_of(state, viewer)
            ever[viewer] = None if sight is None or ever[viewer] is None else ever[viewer] | sight
        for viewer in VIEWERS:
            states[viewer, versions[viewer]] = (state, private, dict(ever))

    states: dict[tuple[int | None, int], tuple] = {}
    await record(versions)
    shouts: list[dict] = []
    sockets = await _connect(game_id, keys, cookies)
    await _check_frames(game_id, await _current_frames(sockets, versions), states, shouts)

    phases, heard_some, hidden, moves = set(), False, 0, 0
    while True:
        moved = await database_sync_to_async(_move)(game_id, users, rng)
        if moved is None:
            break
        versions, shout = moved
        await record(versions)
        state = states[None, versions[None]][0]
        phases.add(state["phase"])
        hidden += hidden_pairs(state)
        if shout:
            shouts.append(shout)
            heard_some |= bool(shout["heard"])
        await _check_frames(game_id, await _current_frames(sockets, versions), states, shouts)
        payloads = await database_sync_to_async(_http_payloads)(game_id, keys)
        for seat, payload in payloads.items():
            assert payload["version"] == versions[seat]
            state, private, seen = states[seat, versions[seat]]
            check_json(payload, state, seat, private[seat], f"version {versions[seat]} (HTTP)", seen[seat])
        review = await database_sync_to_async(_spectator_review)(game_id)
        state, private, seen = states[None, versions[None]]
        assert review["version"] == versions[None]
        check_json(review, state, None, private[None], f"version {versions[None]} (HTTP review)", seen[None])
        moves += 1
        if moves == 11:  # reconnect mid-game: the first views are as clean
            await _disconnect(sockets)
            sockets = await _connect(game_id, keys, cookies)
            await _check_frames(game_id, await _current_frames(sockets, versions), states, shouts)
    await _disconnect(sockets)
    assert phases >= {"orders", "over"}, "the game was not played to its end"
    assert shouts and heard_some, "no shout was heard while the sockets watched"
    assert hidden >= 10, f"combatants were out of each other's sight only {hidden} times: nothing much was hidden"

    sockets = await _connect(game_id, keys, cookies)
    await _check_frames(game_id, await _current_frames(sockets, versions), states, shouts)
    await _disconnect(sockets)


@database_sync_to_async
def _shouting_position(make_user, seed: int) -> tuple[int, dict, dict, dict, int, set[int], set[int]]:
    """Orders being written, a seat with another in its shout range and one out of it."""
    game_id, users = _start(make_user, seed, False)
    ruleset = engines.get(SLUG)
    rng = random.Random(seed)
    for _ in range(200):
        state = selectors.game_state(selectors.get_game(game_id))
        assert ruleset.outcome(state) is None, "the game ended before a shout could be tried"
        if state["phase"] == "orders" and state["turn"] >= 2:
            where = {x: c["hex"] for x, c in enumerate(state["combatants"]) if c["status"] != "gone" and c["hex"] != KITCHEN}
            for x, here in where.items():
                near = {y for y, h in where.items() if y != x and GARDEN.distance(here, h) <= SHOUT_RANGE}
                far = set(range(3)) - near - {x}
                if near and far:
                    keys = {s: ApiToken.issue(user=u, name="t")[1] for s, u in users.items()}
                    cookies = {s: _session_cookie(u) for s, u in users.items()}
                    return game_id, users, keys, cookies, x, near, far
        seat = rng.choice(sorted(ruleset.to_act(state)))
        services.submit_action(game_id=game_id, user=users[seat], action=ruleset.bot_action(state, seat),
                               action_id=uuid.uuid4().hex, version=selectors.get_game(game_id).version)
    raise AssertionError("no position with one seat in a shout's range and one out of it")


@pytest.mark.parametrize("site_backend", ["memory"], indirect=True)
async def test_a_shout_reaches_the_seats_in_range_and_nobody_else_is_sent_any_frame(site_backend, make_user):
    game_id, users, keys, cookies, shouter, near, far = await _shouting_position(make_user, 5)
    versions = await database_sync_to_async(_versions)(game_id)
    sockets = await _connect(game_id, keys, cookies)
    await _current_frames(sockets, versions)
    for comm in sockets.values():  # the first view and the refresh's: nothing else waits
        while not await comm.receive_nothing(timeout=0.3):
            await comm.receive_from()
    before, _ = await _secrets(game_id)

    @database_sync_to_async
    def shout() -> None:
        services.submit_action(game_id=game_id, user=users[shouter], action={"type": "shout", "text": "Snowball ahoy!"},
                               action_id=uuid.uuid4().hex, version=versions[shouter])

    await shout()
    after = await database_sync_to_async(_versions)(game_id)
    assert after == {**versions, **{seat: versions[seat] + 1 for seat in (shouter, *near)}}, \
        "a heard shout moved the version of a viewer who did not hear it, who could count the shouts"
    for seat in (shouter, *near):
        frame = await next_of(sockets[seat, "json"], "view")
        assert frame["version"] == after[seat]
        said = [s for s in frame["view"]["fog"]["sounds"] if s["kind"] == "shout" and s["text"] == "Snowball ahoy!"]
        assert len(said) == 1 and (said[0].get("yours") if seat == shouter else said[0]["direction"]), said
        page = await _next_live(sockets[seat, "html"])
        assert "Snowball ahoy!" in htmlmod.unescape(page)
    for seat in (*far, None):
        for kind in ("json", "html"):
            comm = sockets[seat, kind]
            while not await comm.receive_nothing(timeout=1.0):
                text = await comm.receive_from()
                assert '"type": "view"' not in text and 'id="live"' not in text and "Snowball ahoy" not in text, \
                    f"viewer {seat} ({kind}) out of the shout's range was sent a frame"
    after, _ = await _secrets(game_id)
    assert (after["orders"], after["ready"]) == (before["orders"], before["ready"]), "a shout changed orders or ready marks"
    await _disconnect(sockets)
