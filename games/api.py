"""The JSON API over HTTP: create, list, join and play games. Documented in docs/api.md.

Requests authenticate with ``Authorization: Token <key>`` (no CSRF needed, nothing
rides on cookies) or with the browser session (then Django's CSRF check applies).
Errors are ``{"error": {"code": ..., "message": ...}}`` with a fitting HTTP status.
"""
from __future__ import annotations

import functools
import uuid
from typing import Any, Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from games import engines, inputs, pacing, selectors, services, tables
from games.auth import token_from_header, user_for_token
from games.engines.base import GameError, shown, team_counts_of
from games.errors import BadRequest, Forbidden, NotFound, ServiceError
from games.models import ApiToken, Game
from games.selectors import chat, review

MAX_BODY_BYTES = 16 * 1024


def _error(code: str, message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, **extra}}, status=status)


def api_view(methods: set[str], *, login: bool = True, body: inputs.Shape | None = None,
             session_only: bool = False) -> Callable:
    """Authenticate, check the method and CSRF when on a session, clean the body against its
    declared ``body`` shape (games/inputs.py), and map errors to JSON answers."""

    allowed = methods | {"HEAD"} if "GET" in methods else methods  # HEAD is GET without the body

    def decorate(view: Callable) -> Callable:
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in allowed:
                unknown = getattr(wrapper, "unknown", None)  # a path that names nothing is 404 whatever the method
                problem = unknown(**kwargs) if unknown is not None else None
                if problem is not None:
                    return _error("not_found", problem, 404)
                return _error("method_not_allowed", f"use {' or '.join(sorted(methods))}", 405)
            try:
                return _answer(request, view, args, kwargs)
            except ServiceError as exc:
                return _error(exc.code, exc.message, exc.http_status, **_jsonable(exc.details))
            except GameError as exc:
                return _error(exc.code, str(exc), 422)

        def _answer(request: HttpRequest, view: Callable, args: tuple, kwargs: dict) -> JsonResponse:
            raw = _body(request) if request.method == "POST" else b""  # before the CSRF check reads a form body
            if raw is None:
                return _error("too_large", f"the body may be at most {MAX_BODY_BYTES} bytes", 413)
            if "game_id" in kwargs:
                kwargs["game_id"] = _game_id(kwargs["game_id"])
            header = request.headers.get("Authorization")
            key = token_from_header(header)
            if header is not None and key is None:
                return _error("bad_token", "the Authorization header must be \"Token <key>\" (or \"Bearer <key>\")", 401)
            if key is not None:
                if session_only:
                    return _error("session_required", "an API token cannot do this; sign in on the site", 403)
                user = user_for_token(key) if inputs.is_valid(inputs.TOKEN_KEY, key) else None
                if user is None:
                    return _error("bad_token", "the API token is unknown or revoked", 401)
                request.user = user
            elif request.user.is_authenticated and request.method not in {"GET", "HEAD"}:
                rejected = CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {})
                if rejected is not None:
                    return _error("csrf", "session requests need a CSRF token; bots should use an API token", 403)
            if (login or request.method == "POST") and not request.user.is_authenticated:
                return _error("unauthenticated", "send Authorization: Token <key>", 401)
            cleaned: dict[str, Any] = {}
            if request.method == "POST":
                cleaned = inputs.body(raw, body or inputs.EMPTY_BODY)
            return view(request, cleaned, *args, **kwargs)

        return wrapper

    return decorate


def _body(request: HttpRequest) -> bytes | None:
    """The request's body, or None when it is over ``MAX_BODY_BYTES``: one that says it is longer
    is not read at all, and one past Django's own limit for a body in memory is refused there."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_BODY_BYTES:
        return None
    try:
        raw = request.body
    except RequestDataTooBig:
        return None
    return raw if len(raw) <= MAX_BODY_BYTES else None


def _game_id(value: Any) -> int:
    if not inputs.is_valid(inputs.GAME_ID, value):
        raise NotFound(f"there is no game {value}")
    return value


def _jsonable(details: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in details.items() if isinstance(v, (str, int, float, bool, type(None)))}


def _game_summary(game: Game) -> dict[str, Any]:
    table = _table_summary(game)
    return {
        "id": game.pk,
        "game_type": game.game_type,
        "status": game.status,
        "is_public": game.is_public,
        "spectators_read_only": game.spectators_read_only,
        "version": selectors.viewer_version(game, None),
        "options": game.options,
        **pacing.as_dict(game.pace, game.decision_seconds, learn=game.is_learn),
        "next_deadline": game.next_deadline if game.status == Game.Status.ACTIVE else None,
        **table,
        "created_at": game.created_at.isoformat(),
        "outcome": selectors.named_outcome(game.outcome, [p["name"] for p in table["players"]]),
        "rated": game.rated,
        "learn": game.is_learn,
    }


def _table_summary(game: Game) -> dict[str, Any]:
    players = selectors.seats_summary(game)
    return {"num_seats": game.num_seats, "seated": sum(not p["empty"] for p in players),
            "teams": tables.teams_of_table(game.num_teams), "players": players}


def _visible(request: HttpRequest, game_id: int) -> Game:
    game = selectors.get_game(game_id)
    invite = inputs.optional(inputs.INVITE_CODE, request.GET.get("invite"), "invite")
    if not selectors.can_watch(game, request.user, invite):
        raise NotFound(f"there is no game {game_id}")
    return game


@api_view({"GET"}, login=False)
def game_types(request: HttpRequest, body: dict) -> JsonResponse:
    return JsonResponse({"game_types": [
        {"slug": r.slug, "name": r.name, "min_players": r.min_players, "max_players": r.max_players,
         "team_counts": list(team_counts_of(r)), "team_leaders": tables.has_team_leaders(r),
         "options": [{"name": o.name, "label": o.label, "kind": o.kind, "default": o.default,
                      "choices": [c[0] for c in o.choices], "help": o.help} for o in r.options]}
        for r in engines.all_rulesets()]})


@api_view({"GET", "POST"}, login=False, body=inputs.NEW_GAME_BODY)
def games(request: HttpRequest, body: dict) -> JsonResponse:
    """GET lists open and live public games (``?mine=1``: yours); POST creates one."""
    if request.method in ("GET", "HEAD"):
        query = inputs.GAMES_QUERY.clean({name: request.GET[name] for name in inputs.GAMES_QUERY.fields
                                          if name in request.GET})
        if query["mine"] == "1":
            if not request.user.is_authenticated:
                return _error("unauthenticated", "send Authorization: Token <key> to list your games", 401)
            rows = selectors.my_games(request.user, limit=100)
            return JsonResponse({"games": [{**_game_summary(g), "your_seat": g.your_seat, "your_turn": g.your_turn,
                                            "your_deadline": g.your_deadline} for g in rows]})
        rows = list(selectors.open_games()[:100]) + list(selectors.live_games()[:100])
        return JsonResponse({"games": [_game_summary(g) for g in rows]})
    game = services.create_game(creator=request.user, game_type=body["game_type"], options=body["options"],
                                is_public=body["is_public"], num_seats=body["seats"], num_teams=body["teams"],
                                take_seat=body["take_seat"], spectators_read_only=body["spectators_read_only"],
                                pace=body["pace"], decision_seconds=body["decision_seconds"], rated=body["rated"])
    data = _game_summary(game)
    data["invite_code"] = game.invite_code
    return JsonResponse(data, status=201)


@api_view({"POST"}, body=inputs.LEARN_BODY)
def learn(request: HttpRequest, body: dict) -> JsonResponse:
    """Learn to play: a started private game against computer players, with hints (docs/api.md)."""
    from games.services.learn import start_learn_game

    game = start_learn_game(user=request.user, game_type=body["game_type"])
    return JsonResponse({**_game_summary(game), "invite_code": game.invite_code, "learn": True}, status=201)


@api_view({"GET"}, login=False)
def hints(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Your hints in a Learn game: what you are asked, what each offered action does (named as the
    page's buttons name it), what is not offered and why; a spectator, signed in or not, is
    asked nothing and gets none."""
    from games.rendering import live_context

    game = _visible(request, game_id)
    payload = selectors.user_payload(game, request.user)
    found = live_context(game, payload, request.user)["hints"]
    return JsonResponse({"learn": game.is_learn, "version": payload["version"], "hints": found})


@api_view({"GET"}, login=False)
def game_detail(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """This viewer's view: the same payload the JSON websocket sends."""
    game = _visible(request, game_id)
    return JsonResponse(selectors.user_payload(game, request.user))


# The waiting room's operations by the name in their address (``/api/games/<id>/<name>/``):
# the service's seat calls (games.services.SEAT_CALLS), "bots" being its "add-bot".
SEAT_OPERATIONS: dict[str, Callable[..., Any]] = {
    ("bots" if name == "add-bot" else name): services.SEAT_CALLS[name]
    for name in ("join", "move", "leave", "team", "leader", "add-bot", "remove-bot", "start")}
GAME_PATH = "api/games/<int:game_id>/"


def game_operations() -> list[str]:
    """Every operation at ``/api/games/<id>/``, read from the URL table (snowball_site/urls.py)
    in its order: each address after the game's id; where the address names the operation
    (``<str:what>/``, ``rematch/<str:answer>/``), each name its view takes there (its
    ``names``)."""
    from django.urls import get_resolver

    found: list[str] = []
    for pattern in get_resolver().url_patterns:
        route = str(getattr(pattern, "pattern", ""))
        if not route.startswith(GAME_PATH) or route == GAME_PATH:
            continue
        rest = route[len(GAME_PATH):].rstrip("/")
        fixed, named, _ = rest.partition("<")
        found += [fixed + name for name in getattr(pattern.callback, "names", ())] if named else [rest]
    return list(dict.fromkeys(found))


@api_view({"POST"}, body=inputs.SEAT_BODY)
def seat_action(request: HttpRequest, body: dict, game_id: int, what: str) -> JsonResponse:
    """The waiting room: join, move, leave, team, leader, bots, remove-bot, start (docs/api.md);
    any other name is no operation, answered with the list of every operation there is."""
    problem = _unknown_operation(what=what)
    if problem is not None:
        raise NotFound(problem)
    game = _visible(request, game_id)
    seat, team = body["seat"], body["team"]
    if what in {"move", "remove-bot", "leader"} and seat is None:
        raise BadRequest(f'"seat" is required to {what.replace("-", " ")}')
    if what == "team" and team is None:
        raise BadRequest('"team" is required')
    SEAT_OPERATIONS[what](game.pk, request.user, seat, team)
    game.refresh_from_db()
    return JsonResponse(_game_summary(game))


seat_action.names = tuple(SEAT_OPERATIONS)


def _unknown_operation(*, what: str, **_: Any) -> str | None:
    """Why ``what`` is no operation at /api/games/<id>/, or None when it is one."""
    if what in SEAT_OPERATIONS:
        return None
    return (f"unknown operation {shown(what)}: the operations at /api/games/<id>/ are "
            f"{', '.join(game_operations())} (docs/api.md)")


seat_action.unknown = _unknown_operation


@api_view({"POST"}, body=inputs.ACTION_BODY)
def submit_action(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Play over HTTP: the same frame the websocket takes, answered with the new view."""
    _visible(request, game_id)
    result = services.submit_action(game_id=game_id, user=request.user, action=body["action"],
                                    action_id=body["action_id"], version=body["version"])
    game = selectors.get_game(game_id)
    return JsonResponse({"ack": {"action_id": body["action_id"], "version": result.viewer_version,
                                 "duplicate": result.duplicate},
                         "view": selectors.user_payload(game, request.user)})


@api_view({"GET", "POST"}, login=False, body=inputs.CHAT_BODY)
def chat_messages(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """GET: your channels and a page of the messages you may read (``?channel``, ``after``,
    ``before``, ``limit``); POST: say something in one of them (docs/api.md, "Table talk")."""
    game = _visible(request, game_id)
    if request.method == "POST":
        message = services.post_message(game_id=game.pk, user=request.user, channel=body["channel"], to=body["to"],
                                        text=body["text"])
        return JsonResponse({"message": message}, status=201)
    query = inputs.CHAT_QUERY.clean({name: request.GET[name] for name in inputs.CHAT_QUERY.fields if name in request.GET})
    talk = chat.talk_of(game, request.user)
    if query["channel"] is not None and query["channel"] not in talk.readable:
        raise Forbidden(f"you may not read the channel {query['channel']}")
    messages, more = chat.page(game.pk, talk, channel=query["channel"], after=query["after"], before=query["before"],
                               limit=query["limit"])
    return JsonResponse({"channels": [c.as_dict() for c in talk.channels], "messages": messages, "has_more": more})


@api_view({"GET"}, login=False)
def game_review(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """One step of the game replayed from its seed and log, as ``?seat`` saw it (none: a
    spectator; a seat only once the game is over); ``?step`` defaults to the last."""
    game = _visible(request, game_id)
    query = inputs.REVIEW_QUERY.clean({name: request.GET[name] for name in inputs.REVIEW_QUERY.fields
                                       if name in request.GET})
    return JsonResponse(review.review_data(game, step=query["step"], seat=query["seat"]))


@api_view({"GET"}, login=False)
def game_verify(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """A finished game's seed and salt, and whether it replays from them and its log to its result."""
    return JsonResponse(review.verify(_visible(request, game_id)))


@api_view({"POST"}, body=inputs.PUBLISH_BODY)
def chat_publish(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Agree to publish your pair channel with seat ``with`` after the game (both must)."""
    game = _visible(request, game_id)
    return JsonResponse({"channel": services.consent_to_publish(game_id=game.pk, user=request.user,
                                                                with_seat=body["with"])})


@api_view({"POST"}, body=inputs.READY_BODY)
def ready(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Mark your decision ready (the engine's ready action), answered like an action."""
    _visible(request, game_id)
    action_id = body["action_id"] or f"ready-{uuid.uuid4().hex}"
    result = services.mark_ready(game_id=game_id, user=request.user, version=body["version"], action_id=action_id)
    game = selectors.get_game(game_id)
    return JsonResponse({"ack": {"action_id": action_id, "version": result.viewer_version, "duplicate": result.duplicate},
                         "view": selectors.user_payload(game, request.user)})


@api_view({"POST"})
def resign(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Give up your seat at a game in play; answered with the game summary."""
    _visible(request, game_id)
    game = services.resign(game_id=game_id, user=request.user)
    game.refresh_from_db()
    return JsonResponse(_game_summary(game))


REMATCH_ANSWERS = {"offer": services.offer_rematch, "accept": services.accept_rematch,
                   "decline": services.decline_rematch}


@api_view({"POST"})
def rematch(request: HttpRequest, body: dict, game_id: int, answer: str = "offer") -> JsonResponse:
    """Offer, accept or decline a rematch of a finished game; answered with the offer's state
    (``rematch`` in docs/api.md)."""
    _visible(request, game_id)
    if answer not in REMATCH_ANSWERS:
        raise NotFound("unknown rematch answer: use rematch/, rematch/accept/ or rematch/decline/")
    game = REMATCH_ANSWERS[answer](game_id=game_id, user=request.user)
    version = selectors.viewer_version(game, selectors.seat_held(game, request.user))
    return JsonResponse({"game_id": game.pk, "version": version, "rematch": selectors.rematch_summary(game)})


rematch.names = tuple(answer for answer in REMATCH_ANSWERS if answer != "offer")  # rematch/ itself offers


@api_view({"POST"}, body=inputs.HANDOVER_BODY)
def handover(request: HttpRequest, body: dict, game_id: int) -> JsonResponse:
    """Agree to hand the seat of a player away past the grace to a computer player; answered
    with your view."""
    _visible(request, game_id)
    services.vote_handover(game_id=game_id, user=request.user, seat=body["seat"])
    game = selectors.get_game(game_id)
    return JsonResponse(selectors.user_payload(game, request.user))


@api_view({"GET", "POST"}, body=inputs.SETTINGS_BODY)
def settings_(request: HttpRequest, body: dict) -> JsonResponse:
    """Your e-mail address and whether to be mailed when a game by the day waits for you."""
    if request.method == "POST":
        services.update_settings(user=request.user, email=body["email"], email_on_turn=body["email_on_turn"])
    profile = services.ensure_profile(request.user)
    return JsonResponse({"email": request.user.email, "email_on_turn": profile.email_on_turn})


@api_view({"POST"}, body=inputs.TOKEN_BODY, session_only=True)
def tokens(request: HttpRequest, body: dict) -> JsonResponse:
    """Issue a new API token for the user signed in on the site (a token cannot mint tokens);
    the key is in this response only."""
    token, key = ApiToken.issue(user=request.user, name=body["name"])
    return JsonResponse({"token": key, "name": token.name, "prefix": token.prefix}, status=201)


@api_view({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, login=False)
def nowhere(request: HttpRequest, body: dict, rest: str) -> JsonResponse:
    """Any other path under /api/: a JSON 404, as every API answer is JSON."""
    raise NotFound("no such endpoint; the API is described at /api/docs/")
