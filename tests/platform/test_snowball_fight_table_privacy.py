"""Snowball Fight at 3-6 seats and in teams: what every seat and a spectator is sent hides what
the rules hide, on first connect, live, and on reconnect.

Each game is played (through the play service, by the engine's computer player) for a random
number of moves from a fixed seed, so the position is one nobody chose. Then every seat and a
spectator watch over the JSON socket and the page's socket while the game goes on. Each frame
must name no card its viewer may not see (other hands, draw piles, face-down discards, sealed
choices, a team's hand and its leader's draw for the other team and spectators) and show no
private log line of another viewer. A team's own players must see their team-mates' hands.
"""
from __future__ import annotations

import html as htmlmod
import random
import re
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import engines, selectors, services
from games.models import ApiToken, Game
from tests.engines.privacy_oracle import find_leaks, hidden_cards, strings_in
from tests.platform.test_consumers import api_socket, next_of
from tests.platform.test_hidden_information import _frames_if_changed
from tests.platform.test_html_socket import _html_socket, _next_live, _session_cookie
from tests.platform.helpers import secret_log_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SLUG = "snowball-fight"
CARD = re.compile(r'data-card="(c\d\d[bc]?)"')
REVEAL = re.compile(r'<section class="sbf-reveal.*?</section>', re.S)
LIVE_MOVES = 10

TABLES = [  # players, teams, seed, moves before the sockets connect
    (3, None, 31, 17), (4, None, 41, 40), (5, None, 51, 23), (6, None, 61, 55),
    (4, [0, 1, 0, 1], 22, 30), (6, [0, 0, 0, 1, 1, 1], 33, 44),
]


def _start(make_user, players: int, teams: list[int] | None, seed: int) -> tuple[int, dict[int, Any]]:
    users = {n: make_user(f"P{n}") for n in range(players)}
    game = services.create_game(creator=users[0], game_type=SLUG, num_seats=players, num_teams=2 if teams else 0)
    if teams:
        services.choose_team(game_id=game.pk, user=users[0], team=teams[0])
    for n in range(1, players):
        services.join_seat(game_id=game.pk, user=users[n], number=n, team=teams[n] if teams else None)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    services.start_game(game_id=game.pk, user=users[0])
    return game.pk, users


def _move(game_id: int, users: dict[int, Any], rng: random.Random) -> int | None:
    """One move of a random asked seat (the computer player's choice); the new version, or None at the end."""
    game = selectors.get_game(game_id)
    ruleset = engines.get(SLUG)
    state = selectors.game_state(game)
    if ruleset.outcome(state) is not None:
        return None
    seat = rng.choice(sorted(ruleset.to_act(state)))
    result = services.submit_action(game_id=game_id, user=users[seat], action=ruleset.bot_action(state, seat),
                                    action_id=uuid.uuid4().hex, version=game.version)
    return result.version


@database_sync_to_async
def _position(make_user, players, teams, seed, moves):
    game_id, users = _start(make_user, players, teams, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        assert _move(game_id, users, rng) is not None, "the game ended before the position"
    keys = {seat: ApiToken.issue(user=user, name="t")[1] for seat, user in users.items()}
    cookies = {seat: _session_cookie(user) for seat, user in users.items()}
    return game_id, users, keys, cookies, rng, selectors.get_game(game_id).version


@database_sync_to_async
def _secrets(game_id: int, players: int) -> tuple[dict, dict[int | None, set[str]]]:
    """The state and, per viewer, the log texts that viewer must never be sent."""
    return secret_log_texts(game_id, [*range(players), None])



def _check_json(frame: dict, state: dict, private: set[str], seat: int | None) -> None:
    assert frame["seat"] == seat
    view = frame["view"]
    assert find_leaks(state, view, seat) == [], f"viewer {seat} was sent hidden cards"
    hidden = set(hidden_cards(state, seat))
    rest = {key: value for key, value in frame.items() if key != "view"}
    assert not set(strings_in(rest)) & hidden, f"viewer {seat}'s frame names hidden cards outside the view"
    shown = {line["text"] for line in frame["log"]}
    assert not shown & private, f"viewer {seat} was sent private log lines: {shown & private}"
    if "teams" in state and seat is not None and state["phase"] == "play":
        for mate in range(state["players"]):
            if state["teams"][mate] == state["teams"][seat]:
                assert view["seats"][mate]["hand"] is not None, f"seat {seat} cannot see team-mate {mate}'s hand"
                assert {c["id"] for c in view["seats"][mate]["hand"]} == set(state["hands"][mate])


def _check_html(page: str, state: dict, private: set[str], seat: int | None) -> None:
    assert f'data-seat="{"" if seat is None else seat}"' in page
    shown_lines = {htmlmod.unescape(text) for text in re.findall(r'<li class="log-[^"]*">([^<]*)</li>', page)}
    assert not shown_lines & private, f"viewer {seat}'s page shows private log lines"
    hidden = set(hidden_cards(state, seat))
    drawn = set(CARD.findall(REVEAL.sub("", page)))
    assert not drawn & hidden, f"viewer {seat}'s page draws hidden cards {drawn & hidden}"


async def _connect(game_id: int, players: int, keys: dict, cookies: dict) -> dict[tuple, Any]:
    sockets = {}
    for seat in [*range(players), None]:
        sockets[seat, "json"] = await api_socket(game_id, None if seat is None else keys[seat])
        sockets[seat, "html"] = await _html_socket(game_id, None if seat is None else cookies[seat])
    return sockets


async def _frames_at(sockets: dict, version: int) -> dict[tuple, Any]:
    frames = {}
    for (seat, kind), comm in sockets.items():
        if kind == "json":
            frame = await next_of(comm, "view")
            got = frame["version"]
        else:
            frame = await _next_live(comm)
            got = int(re.search(r'id="live" data-version="(\d+)"', frame).group(1))
        assert got == version, f"viewer {seat} ({kind}) was sent version {got}, expected {version}"
        frames[seat, kind] = frame
    return frames


async def _check(game_id: int, players: int, frames: dict[tuple, Any]) -> dict:
    state, private = await _secrets(game_id, players)
    for seat in [*range(players), None]:
        _check_json(frames[seat, "json"], state, private[seat], seat)
        _check_html(frames[seat, "html"], state, private[seat], seat)
    return state


async def _disconnect(sockets: dict) -> None:
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.parametrize("players, teams, seed, moves", TABLES,
                         ids=[f"{p}{'-teams' if t else ''}" for p, t, _, _ in TABLES])
async def test_no_hand_sealed_card_or_team_hand_reaches_another_seat_or_a_spectator(
        site_backend, make_user, players, teams, seed, moves):
    game_id, users, keys, cookies, rng, version = await _position(make_user, players, teams, seed, moves)
    sockets = await _connect(game_id, players, keys, cookies)
    await _check(game_id, players, await _frames_at(sockets, version))

    steps = set()
    for _ in range(LIVE_MOVES):
        version = await database_sync_to_async(_move)(game_id, users, rng)
        if version is None:
            break
        state = await _check(game_id, players, await _frames_at(sockets, version))
        steps.add(state["step"])
    await _disconnect(sockets)
    assert steps & {"choose", "pick", "keep"}, "no sealed choice was made while the sockets watched"

    sockets = await _connect(game_id, players, keys, cookies)
    await _check(game_id, players, await _frames_at(sockets, version))
    await _disconnect(sockets)


@database_sync_to_async
def _choosing_position(make_user, players, teams, seed):
    """Seat 0 asked for its sealed card choice with two hand cards, nobody locked yet."""
    game_id, users = _start(make_user, players, teams, seed)
    rng = random.Random(seed)
    ruleset = engines.get(SLUG)
    for _ in range(400):
        state = selectors.game_state(selectors.get_game(game_id))
        if (state["phase"] == "play" and state["step"] == "choose" and state["turn"] >= 2
                and not any(state["sealed"]) and 0 in ruleset.to_act(state) and len(state["hands"][0]) >= 2):
            choices = [a for a in ruleset.legal_actions(state, 0) if a["type"] == "choose"]
            keys = {seat: ApiToken.issue(user=user, name="t")[1] for seat, user in users.items()}
            cookies = {seat: _session_cookie(user) for seat, user in users.items()}
            return game_id, users, keys, cookies, choices[0], choices[-1]
        if ruleset.outcome(state) is not None or state["sealed"][0] is not None and 0 in ruleset.to_act(state):
            break
        _move(game_id, users, rng)
    raise AssertionError("no position where seat 0 chooses first")


@database_sync_to_async
def _seat0_does(game_id: int, user, action: dict) -> dict[int | None, int]:
    """Seat 0's action; the game's new version as each viewer counts it."""
    game = selectors.get_game(game_id)
    services.submit_action(game_id=game_id, user=user, action=action, action_id=uuid.uuid4().hex,
                           version=selectors.viewer_version(game, 0))
    game = selectors.get_game(game_id)
    return {seat: selectors.viewer_version(game, seat) for seat in (None, *range(game.num_seats))}


def _public(frame: Any, kind: str) -> Any:
    if kind == "json":
        return {key: value for key, value in frame.items() if key not in ("version", "log")}
    frame = re.sub(r'data-version="\d+"', 'data-version=""', frame)
    return re.sub(r'<section class="log".*?</section>', "", frame, flags=re.S)


@pytest.mark.parametrize("players, teams, seed", [(3, None, 7), (4, [0, 1, 0, 1], 8)], ids=["3", "4-teams"])
async def test_what_the_others_are_sent_does_not_depend_on_a_sealed_choice(site_backend, make_user, players, teams, seed):
    game_id, users, keys, cookies, first, second = await _choosing_position(make_user, players, teams, seed)
    assert first != second
    sockets = await _connect(game_id, players, keys, cookies)
    await _frames_at(sockets, await database_sync_to_async(lambda: selectors.get_game(game_id).version)())
    chosen = await _seat0_does(game_id, users[0], first)
    assert len(set(chosen.values())) == 1  # a first choice is everyone's to see ("has chosen")
    one = await _frames_at(sockets, chosen[0])
    again = await _seat0_does(game_id, users[0], second)
    assert again[0] == chosen[0] + 1 and all(again[seat] == chosen[seat] for seat in again if seat != 0)
    other = await _frames_if_changed(sockets, again, one)
    await _check(game_id, players, other)
    for (seat, kind), frame in one.items():
        if seat == 0:
            assert frame != other[seat, kind], "seat 0 must see its new choice"
        else:
            assert _public(frame, kind) == _public(other[seat, kind], kind), \
                f"viewer {seat} ({kind}) is sent something that depends on seat 0's sealed choice"
    await _disconnect(sockets)
