"""Helpers that drive games through the service layer the way players would."""
from __future__ import annotations

import uuid

from django.test import Client

from games import engines, selectors, services
from games.models import ApiToken, Game

SLUG = "snowball-fight"


def api_client(user=None) -> Client:
    """A client of the JSON API: with a token of ``user``'s, or anonymous (a spectator)."""
    if user is None:
        return Client()
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def started_game(host, *others, game_type: str = SLUG, options: dict | None = None, bots: int = 0,
                 is_public: bool = True) -> Game:
    """A game created by ``host``, joined by ``others``, topped up with bots, and started."""
    ruleset = engines.get(game_type)
    seats = max(ruleset.min_players, 1 + len(others) + bots)
    game = services.create_game(creator=host, game_type=game_type, options=options or {},
                                is_public=is_public, num_seats=seats)
    for user in others:
        services.join_seat(game_id=game.pk, user=user)
    for _ in range(bots):
        services.add_bot(game_id=game.pk, user=host)
    services.start_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def play_one(game_id: int, users_by_seat: dict[int, object]) -> bool:
    """Let the first asked human seat play the engine's suggested move; False when none is asked."""
    game = selectors.get_game(game_id)
    if game.status != Game.Status.ACTIVE:
        return False
    ruleset = engines.get(game.game_type)
    state = selectors.game_state(game)
    for seat in sorted(ruleset.to_act(state)):
        if seat in users_by_seat:
            action = ruleset.bot_action(state, seat)
            services.submit_action(game_id=game_id, user=users_by_seat[seat], action=action,
                                   action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, seat))
            return True
    return False


def play_to_end(game_id: int, users_by_seat: dict[int, object], max_steps: int = 3000) -> Game:
    for _ in range(max_steps):
        if not play_one(game_id, users_by_seat):
            break
    return selectors.get_game(game_id)


def secret_log_texts(game_id: int, viewers: list[int | None]) -> tuple[dict, dict[int | None, set[str]]]:
    """The game's state now and, per viewer, the texts of the log lines it must never be sent:
    those written only for others that no line it may read repeats."""
    game = Game.objects.get(pk=game_id)
    names = selectors.seat_names(game)
    visible: dict[int | None, set[str]] = {v: set() for v in viewers}
    invisible: dict[int | None, set[str]] = {v: set() for v in viewers}
    for record in game.actions.all():
        for event in record.events:
            text = selectors.fill_names(event["text"], names)
            readers = event.get("visible_to")
            for viewer in viewers:
                (visible if readers is None or viewer in readers else invisible)[viewer].add(text)
    return selectors.game_state(game), {v: invisible[v] - visible[v] for v in viewers}
