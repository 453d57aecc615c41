"""What each socket is sent hides what the rules hide, on first connect, live, and on reconnect.

Each game is driven (through the play service, as its players would) to a position where
the hidden things exist: in Snowball Fight, Ana's hand, both draw piles, her face-down
discards and her sealed card choice; in Jingle Bells, her sealed dice allocation. Then Ben
and a spectator watch over both sockets, the JSON one and the page's HTML one, while Ana
changes her sealed choice and locks it, and again after reconnecting.

Two checks for each frame they are sent: it names nothing the viewer may not know (hidden
card ids, the other seat's allocation, private log lines); and what they are sent does not
depend on the sealed choice at all (two different choices give the same frame).
"""
from __future__ import annotations

import html as htmlmod
import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import engines, selectors, services
from games.models import ApiToken, Game
from tests.engines.privacy_oracle import find_leaks, hidden_cards, strings_in
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_html_socket import _html_socket, _next_live, _session_cookie
from tests.platform.helpers import secret_log_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SEED = 20251125
DRIVE_LIMIT = 400


@dataclass
class Position:
    """A game at a position with hidden things, and what Ana will do there."""

    game_id: int
    users: dict[int, Any]
    keys: dict[int, str]
    cookies: dict[int, bytes]
    first_choice: dict  # two different sealed choices of Ana's, neither locked
    second_choice: dict
    lock: dict


def _state(game: Game) -> dict:
    game.refresh_from_db()
    return selectors.game_state(game)


def _start(make_user, game_type: str, options: dict) -> tuple[Game, dict[int, Any]]:
    """A started two-player game with a fixed seed, so that its positions are reproducible."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type=game_type, options=options)
    services.join_seat(game_id=game.pk, user=ben)
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    services.start_game(game_id=game.pk, user=ana)
    game.refresh_from_db()
    return game, {0: ana, 1: ben}


def _drive(game: Game, users: dict[int, Any], arrived) -> dict:
    """Let the asked seats play the engine's suggestions until ``arrived(state)``."""
    ruleset = engines.get(game.game_type)
    for _ in range(DRIVE_LIMIT):
        state = _state(game)
        if arrived(state):
            return state
        assert ruleset.outcome(state) is None, "the game ended before reaching the position"
        seat = min(ruleset.to_act(state))
        services.submit_action(game_id=game.pk, user=users[seat], action=ruleset.bot_action(state, seat),
                               action_id=uuid.uuid4().hex, version=game.version)
    raise AssertionError(f"the position was not reached in {DRIVE_LIMIT} moves")


def _position(game: Game, users: dict[int, Any], first: dict, second: dict) -> Position:
    keys = {seat: ApiToken.issue(user=user, name="t")[1] for seat, user in users.items()}
    cookies = {seat: _session_cookie(user) for seat, user in users.items()}
    return Position(game.pk, users, keys, cookies, first, second, {"type": "lock"})


def _snowball_fight(make_user) -> Position:
    """Turn two or later, both seats choosing: hands, draw piles and face-down discards exist."""
    game, users = _start(make_user, "snowball-fight", {})
    state = _drive(game, users, lambda s: (
        s["phase"] == "play" and s["step"] == "choose" and s["turn"] >= 2 and not any(s["sealed"])
        and all(s["hands"]) and all(s["draw"]) and s["face_down"][0]))
    choices = [a for a in engines.get(game.game_type).legal_actions(state, 0) if a["type"] == "choose"]
    first = choices[0]
    second = next(a for a in choices if a["card"] != first["card"] and a["side"] != first["side"])
    return _position(game, users, first, second)


def _jingle_bells(make_user) -> Position:
    """The dice phase, both seats still to allocate: a sealed allocation can be made."""
    game, users = _start(make_user, "jingle-bells", {"layout": "garden"})
    state = _drive(game, users, lambda s: s["phase"] == "dice")
    assert set(engines.get(game.game_type).to_act(state)) == {0, 1}
    assert [d["allocation"] for d in state["dice"]] == [None, None]
    rolled = sorted(state["dice"][0]["rolled"])
    team = [name for name in state["teams"][0] if state["pieces"][name]["pos"] is not None]
    assert len(team) == 3 and len(set(rolled)) > 1
    first = {name: rolled[2 * i:2 * i + 2] for i, name in enumerate(team)}
    second = {name: rolled[::-1][2 * i:2 * i + 2] for i, name in enumerate(team)}
    assert {n: sorted(v) for n, v in first.items()} != {n: sorted(v) for n, v in second.items()}
    return _position(game, users, {"type": "allocate", "allocation": first},
                     {"type": "allocate", "allocation": second})


POSITIONS = {"snowball-fight": _snowball_fight, "jingle-bells": _jingle_bells}


@database_sync_to_async
def _ana_does(position: Position, action: dict) -> dict[int | None, int]:
    """Ana's move; the game's new version as each viewer counts it."""
    game = Game.objects.get(pk=position.game_id)
    services.submit_action(game_id=game.pk, user=position.users[0], action=action,
                           action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, 0))
    game.refresh_from_db()
    return {seat: selectors.viewer_version(game, seat) for seat in (0, 1, None)}


@database_sync_to_async
def _secrets(game_id: int) -> tuple[dict, dict[int | None, set[str]]]:
    """The current state and, per viewer, the texts of log lines that viewer must never be sent."""
    return secret_log_texts(game_id, [0, 1, None])


# ---------------------------------------------------------------- what a frame may show



def _reveal_cards(view: dict) -> set[str]:
    """Card ids shown face-up in the last reveal: history, checked by find_leaks on its own."""
    reveal = view.get("last_reveal") or {"plays": []}
    return {play["card"]["id"] for plays in reveal["plays"] for play in plays}


def _check_json(game_type: str, frame: dict, state: dict, private: set[str], seat: int | None) -> None:
    assert frame["seat"] == seat
    view = frame["view"]
    assert not {"seed", "rng_counter"} & set(view), "the generator's state was sent"
    log_texts = {line["text"] for line in frame["log"]}
    assert not log_texts & private, f"viewer {seat} was sent private log lines: {log_texts & private}"
    if game_type == "snowball-fight":
        assert find_leaks(state, view, seat) == [], f"viewer {seat} was sent hidden cards"
        hidden = set(hidden_cards(state, seat))
        rest = {key: value for key, value in frame.items() if key != "view"}
        assert not set(strings_in(rest)) & hidden, f"viewer {seat}'s frame names hidden cards"
    else:
        for owner, dice in enumerate(view["dice"]):
            if owner != seat and state["dice"][owner]["stage"] != "revealed":
                assert dice["allocation"] is None, f"seat {owner}'s sealed allocation reached viewer {seat}"


def _check_html(game_type: str, page: str, state: dict, private: set[str], seat: int | None,
                json_view: dict) -> None:
    assert f'data-seat="{"" if seat is None else seat}"' in page
    shown_lines = {htmlmod.unescape(text) for text in re.findall(r'<li class="log-[^"]*">([^<]*)</li>', page)}
    assert not shown_lines & private, f"viewer {seat}'s page shows private log lines: {shown_lines & private}"
    if game_type == "snowball-fight":
        hidden = set(hidden_cards(state, seat)) - _reveal_cards(json_view)
        shown = set(re.findall(r'data-card="(c\d+)"', page))
        assert not shown & hidden, f"viewer {seat}'s page shows hidden cards {shown & hidden}"
    else:
        pieces = json.loads(htmlmod.unescape(re.search(r'id="jb-pieces"[^>]*>(.*?)</script>', page, re.S).group(1)))
        if state["phase"] == "dice":
            assert all(not piece["dice"] for piece in pieces.values()), "dice on the cards before the reveal"


def _owner_sees(game_type: str, frame: dict, page: str, state: dict) -> None:
    """Ana herself is shown what is hidden from the others: the checks look where it would be."""
    view = frame["view"]
    if game_type == "snowball-fight":
        hand = set(state["hands"][0])
        assert hand and {card["id"] for card in view["you"]["hand"]} == hand
        assert hand <= set(re.findall(r'data-card="(c\d+)"', page))
        assert view["you"]["choice"]["card"]["id"] == state["sealed"][0]["card"]
    else:
        assert view["dice"][0]["allocation"] == state["dice"][0]["allocation"] is not None


def _hidden_things_exist(game_type: str, state: dict) -> None:
    if game_type == "snowball-fight":
        assert state["hands"][0] and state["draw"][0] and state["draw"][1] and state["face_down"][0]
        assert state["sealed"][0] is not None and state["step"] == "choose"
    else:
        assert state["dice"][0]["allocation"] is not None and state["dice"][0]["stage"] != "revealed"


def _public_part(frame: dict) -> dict:
    """A watcher's frame without its version (a frame sent anew carries the newest)."""
    return {key: value for key, value in frame.items() if key != "version"}


def _public_page(page: str) -> str:
    page = re.sub(r'data-version="\d+"', 'data-version=""', page)
    return re.sub(r'<section class="log".*?</section>', "", page, flags=re.S)


# ---------------------------------------------------------------- the sockets


VIEWERS = [(0, "json"), (1, "json"), (None, "json"), (0, "html"), (1, "html"), (None, "html")]


async def _connect(position: Position) -> dict[tuple, WebsocketCommunicator]:
    sockets = {}
    for seat, kind in VIEWERS:
        if kind == "json":
            sockets[seat, kind] = await api_socket(position.game_id, None if seat is None else position.keys[seat])
        else:
            sockets[seat, kind] = await _html_socket(position.game_id, None if seat is None else position.cookies[seat])
    return sockets


async def _frames_at(sockets: dict, versions: dict[int | None, int], timeout: float = 5.0) -> dict[tuple, Any]:
    """Every socket's next view, which must be of its viewer's version (``versions``)."""
    frames = {}
    for (seat, kind), comm in sockets.items():
        if kind == "json":
            frame = await next_of(comm, "view", timeout=timeout)
            got = frame["version"]
        else:
            frame = await _next_live(comm, timeout=timeout)
            got = int(re.search(r'id="live" data-version="(\d+)"', frame).group(1))
        assert got == versions[seat], f"viewer {seat} ({kind}) was sent version {got}, expected {versions[seat]}"
        frames[seat, kind] = frame
    return frames


async def _frames_if_changed(sockets: dict, versions: dict[int | None, int],
                             before: dict[tuple, Any]) -> dict[tuple, Any]:
    """Ana's sockets' next views, of her version; the other sockets' too, if they are sent one
    within a second (a viewer whose view did not change is sent nothing: it keeps ``before``)."""
    frames = await _frames_at({key: comm for key, comm in sockets.items() if key[0] == 0}, versions)
    for key, comm in sockets.items():
        if key[0] == 0:
            continue
        frames[key] = before[key]
        while not await comm.receive_nothing(timeout=1.0):
            text = await comm.receive_from()
            if key[1] == "json" and json.loads(text)["type"] == "view":
                frame, got = json.loads(text), json.loads(text)["version"]
            elif key[1] == "html" and 'id="live"' in text:
                frame, got = text, int(re.search(r'id="live" data-version="(\d+)"', text).group(1))
            else:
                continue
            assert got == versions[key[0]], f"viewer {key[0]} ({key[1]}) was sent version {got}"
            frames[key] = frame
    return frames


async def _check_all(game_type: str, position: Position, frames: dict[tuple, Any]) -> dict:
    state, private = await _secrets(position.game_id)
    _hidden_things_exist(game_type, state)
    for seat in (0, 1, None):
        _check_json(game_type, frames[seat, "json"], state, private[seat], seat)
        _check_html(game_type, frames[seat, "html"], state, private[seat], seat, frames[seat, "json"]["view"])
    _owner_sees(game_type, frames[0, "json"], frames[0, "html"], state)
    return state


async def _disconnect(sockets: dict) -> None:
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.parametrize("game_type", list(POSITIONS))
async def test_hands_draw_piles_and_sealed_choices_stay_hidden_on_connect_live_and_reconnect(
        site_backend, make_user, game_type):
    position = await database_sync_to_async(POSITIONS[game_type])(make_user)
    first_versions = await _ana_does(position, position.first_choice)

    sockets = await _connect(position)
    first = await _frames_at(sockets, first_versions)
    await _check_all(game_type, position, first)

    second_versions = await _ana_does(position, position.second_choice)
    second = await _frames_if_changed(sockets, second_versions, first)
    await _check_all(game_type, position, second)
    for seat, kind in VIEWERS:
        if seat == 0:
            assert first[seat, kind] != second[seat, kind], "Ana's own frames must show her new choice"
        elif kind == "json":
            assert _public_part(first[seat, kind]) == _public_part(second[seat, kind]), \
                f"viewer {seat}'s JSON frame (its log too) depends on Ana's sealed choice"
        else:
            assert _public_page(first[seat, kind]) == _public_page(second[seat, kind]), \
                f"viewer {seat}'s page depends on Ana's sealed choice"

    version = await _ana_does(position, position.lock)
    locked = await _frames_at(sockets, version)
    # the others' versions follow on from the first frames: nothing counts her second choice
    assert version[1] == first_versions[1] + 1 and version[None] == first_versions[None] + 1
    state = await _check_all(game_type, position, locked)
    assert 1 in engines.get(game_type).to_act(state), "Ben must still be choosing: nothing revealed yet"
    await _disconnect(sockets)

    sockets = await _connect(position)
    again = await _frames_at(sockets, version)
    await _check_all(game_type, position, again)
    for seat, kind in VIEWERS:
        if kind == "json":
            assert again[seat, kind] == locked[seat, kind], f"viewer {seat} got another view on reconnect"
        else:
            assert _public_page(again[seat, kind]) == _public_page(locked[seat, kind])
    await _disconnect(sockets)
