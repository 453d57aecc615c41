"""A game that ends while its engine is mid-turn (the last opponent resigns) offers nobody
anything to do: no action button, order form, prompt, "your turn" marker or countdown on the
page (first render and the socket's redraw) for a seat or a spectator, and no prompt or legal
action in the JSON API's view, in every game."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from games import engines, rendering, selectors, services
from games.models import ApiToken, Game, Seat
from tests.platform.helpers import api_client, play_one

pytestmark = pytest.mark.django_db

# game, seats, teams, options; the first team (or seat 0) resigns.
TABLES = {
    "snowball-fight": ("snowball-fight", 2, None, {}),
    "snowball-fight-teams": ("snowball-fight", 4, 2, {}),
    "jingle-bells": ("jingle-bells", 2, None, {"layout": "garden"}),
    "snowball-fighting": ("snowball-fighting", 2, None, {}),
    "what-a-snowball": ("what-a-snowball", 2, None, {}),
}
MOVES_BEFORE = 3

# What a finished page may not carry: anything the board sends on the socket (buttons, order
# forms), the prompt bar, a countdown, the "your turn" flag, the Resign button, a hint to act.
ACTING = {
    "a ws-send control": re.compile(r"\bws-send\b"),
    "a data-jb-send control": re.compile(r"\bdata-jb-send\b"),
    "the prompt bar": re.compile(r'class="prompt-bar'),
    "a countdown": re.compile(r'class="countdown"'),
    "the your-turn flag": re.compile(r'data-your-turn="1"'),
    "an asked board": re.compile(r'data-asked="1"|\bis-asked\b'),
    "the Resign button": re.compile(r'id="resign"'),
    "a hint to act": re.compile(r"to set up<|is choosing<|\bto act\b|If time runs out"),
}


def _finished_mid_turn(make_user, table: str, *, seed: int | None = None, when=None, moves: int = 40):
    """The ``table``'s game, resigned by its losers while a winner is asked, a few moves in or,
    with ``when``, once its engine's state is as the test needs it (within ``moves`` moves)."""
    game_type, seats, teams, options = TABLES[table]
    users = [make_user(f"P{n}") for n in range(seats)]
    game = services.create_game(creator=users[0], game_type=game_type, num_seats=seats, num_teams=teams,
                                options=options)
    for seat in range(1, seats):
        services.join_seat(game_id=game.pk, user=users[seat], number=seat)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
    services.start_game(game_id=game.pk, user=users[0])
    by_seat = dict(enumerate(users))
    team_of = dict(Seat.objects.filter(game=game).values_list("number", "team"))
    losers = [s for s in range(seats) if team_of[s] == team_of[0]] if teams else [0]
    ruleset = engines.get(game_type)
    for played in range(moves):  # until a winner is asked
        state = selectors.game_state(selectors.get_game(game.pk))
        if (played >= MOVES_BEFORE if when is None else when(state)) and set(ruleset.to_act(state)) - set(losers):
            break
        play_one(game.pk, by_seat)
    for seat in losers:
        services.resign(game_id=game.pk, user=users[seat])
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED and game.outcome["code"] == "resigned"
    state = selectors.game_state(game)
    assert ruleset.outcome(state) is None, "the engine's game must still be running"
    still_asked = set(ruleset.to_act(state)) - set(losers)
    assert still_asked, "a winner must still be asked to act by the engine"
    return game, users, losers


def _viewers(make_user, users):
    stranger = make_user("Eve")
    return [*((f"seat {n}", user) for n, user in enumerate(users)), ("a signed-in spectator", stranger),
            ("an anonymous spectator", None)]


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _live_region(html: str) -> str:
    """The page's ``#live`` region (the game; table talk beside it has its own form)."""
    start = html.index('<div id="live"')
    return html[start:html.index('<section class="log"', start)]


def _acting_parts(html: str) -> list[str]:
    live = _live_region(html)
    return [what for what, pattern in ACTING.items() if pattern.search(live)]


@pytest.mark.parametrize("table", list(TABLES))
def test_a_game_won_by_resignation_mid_turn_offers_no_action_to_anyone(make_user, table):
    """Every seat (winner and resigner) and a spectator: the page, its redraw, the API view."""
    game, users, _ = _finished_mid_turn(make_user, table)
    viewers = _viewers(make_user, users)
    _api_views_ask_nothing(game, viewers, table)
    for who, user in viewers:
        page = _client(user).get(f"/games/{game.pk}/")
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-status="finished"' in html
        assert _acting_parts(html) == [], f"{who}'s page of the finished {table} game offers {_acting_parts(html)}"
        seat = selectors.seat_of(game, user)
        redraw = rendering.live_html(game, selectors.viewer_payload(game, seat), user)
        assert _acting_parts(redraw) == [], f"{who}'s redraw of the finished {table} game offers {_acting_parts(redraw)}"


def _asks(view) -> list[str]:
    """Where an engine's view asks its viewer to act (its own prompt and legal actions, the
    ``you`` block's question, what it may play or lock)."""
    found = []
    if not isinstance(view, dict):
        return found
    for key in ("prompt", "legal_actions", "waiting_for"):
        if view.get(key):
            found.append(key)
    you = view.get("you") or {}
    for key in ("asked", "prompt", "lock", "playable", "draft", "deal", "orders_help"):
        if you.get(key):
            found.append(f"you.{key}")
    return found


def _api_views_ask_nothing(game, viewers, table: str) -> None:
    for who, user in viewers:
        client = Client() if user is None else Client(
            HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user=user, name='t')[1]}")
        body = client.get(f"/api/games/{game.pk}/").json()
        assert body["status"] == "finished"
        assert (body["prompt"], body["legal_actions"], body["waiting_for"], body["next_deadline"]) == (None, [], [], None)
        assert body["ready_action"] is None
        assert _asks(body["view"]) == [], f"{who}'s API view of the finished {table} game asks {_asks(body['view'])}"


def _board_part(html: str) -> str:
    """The game's board on a game page (``#live``) or a review page (its board, without its log)."""
    if 'class="board-wrap review-board"' in html:
        return html.split('class="board-wrap review-board"', 1)[1].split('id="dice-check"', 1)[0]
    return _live_region(html)


@pytest.mark.parametrize("table", ["snowball-fight", "snowball-fight-teams"])
def test_a_snowball_fight_resigned_mid_reveal_says_the_resignation_ended_the_turn(make_user, table):
    """The losers resign while a winner is asked in the middle of a reveal: the finished page,
    its redraw and the review's last step head that reveal "Turn 3: P0 resigned" and say
    "Game over during turn 3", never "resolving" or a battle "still to resolve"."""
    game, users, _ = _finished_mid_turn(make_user, table, seed=2, when=lambda state: state["battle"] is not None,
                                        moves=300)
    turn = selectors.game_state(game)["battle"]["turn"]
    reason = selectors.named_outcome(game.outcome, selectors.seat_names(game))["reason"]
    winner = users[1]
    pages = {"the winner's page": _client(winner).get(f"/games/{game.pk}/").content.decode(),
             "the winner's redraw": rendering.live_html(game, selectors.viewer_payload(game, 1), winner),
             "a spectator's page": _client(None).get(f"/games/{game.pk}/").content.decode(),
             "the review's last step": _client(winner).get(f"/games/{game.pk}/review/").content.decode()}
    for where, html in pages.items():
        board = _board_part(html)
        assert f"<h3>Turn {turn}: {reason}</h3>" in board, where
        assert re.search(rf'class="sbf-phase">Game over</span> during turn {turn}\b', board), where
        assert not re.search(r"resolving|Still to resolve|is-current", board), where
    if table == "snowball-fight":
        assert f"<h4>Turn {turn}: {reason}</h4>" in _board_part(pages["the winner's page"])  # beside the hand
    else:
        assert "Never resolved, as the game ended first: " in _board_part(pages["a spectator's page"])
    view = api_client(winner).get(f"/api/games/{game.pk}/review/").json()["view"]
    assert (view["last_reveal"]["resolving"], view["last_reveal"]["ended"]) == (False, reason)


def test_a_snowball_fighting_game_resigned_during_set_up_tags_nobody_ready_or_choosing(make_user):
    """The noms de guerre were still being chosen: the finished page's combatants are not
    tagged "ready" (every one was, as nobody was waiting any more) or "choosing"."""
    game, users, _ = _finished_mid_turn(make_user, "snowball-fighting", when=lambda state: state["phase"] == "setup")
    for who, user in _viewers(make_user, users):
        board = _board_part(_client(user).get(f"/games/{game.pk}/").content.decode())
        roster = board.split('aria-label="Combatants"', 1)[1].split("</table>", 1)[0]
        assert re.findall(r'class="tag[^"]*">[^<]*<', roster) == [], who
        assert all(name in roster for name in selectors.seat_names(game)), who
