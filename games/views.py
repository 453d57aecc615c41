"""HTML pages: lobby, accounts, the waiting room and the game page. Thin: forms in, services out."""
from __future__ import annotations

from typing import Any, Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import documents, engines, inputs, pacing, rendering, selectors, services
from games import rules as game_rules
from games.auth import token_group
from games.engines.base import GameError
from games.errors import ServiceError
from games.forms import (ApiTokenForm, EmailOnTurnForm, GuestForm, NewGameForm, RevokeTokenForm, SeatForm, SettingsForm,
                         SignupForm)
from games.models import ApiToken, Game
from games.selectors import chat, review
from games.selectors.results import result_words


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {
        "rulesets": engines.all_rulesets(),
        "open_games": selectors.open_games()[:50],
        "live_games": selectors.live_games()[:50],
        "finished_games": selectors.recently_finished_games()[:20],
        "guest_form": GuestForm(),
    })


@require_POST
def guest(request: HttpRequest) -> HttpResponse:
    """Play as a guest: just a display name, no password."""
    form = GuestForm(request.POST)
    next_url = _safe_next(request)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["display_name"]))
        return redirect(next_url)
    try:
        user = services.create_guest(display_name=form.cleaned_data["display_name"])
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(next_url)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome, {user.profile.display_name}! You are playing as a guest; register any time to keep your games.")
    return redirect(next_url)


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account; a guest who signs up keeps its games. A ``next`` on this site (a
    game's invite link) is where the new account goes, as after logging in."""
    next_url = _safe_next(request, default="")
    is_guest = request.user.is_authenticated and getattr(getattr(request.user, "profile", None), "is_guest", False)
    if request.user.is_authenticated and not is_guest:
        return redirect(next_url or "lobby")
    guest = request.user if is_guest else None
    guest_page = reverse("player", args=[guest.get_username()]) if guest is not None else None
    form = SignupForm(request.POST or None, guest=guest, initial={"email": getattr(guest, "email", "")})
    if request.method == "POST" and form.is_valid():
        try:
            user = services.register_user(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                display_name=form.cleaned_data.get("display_name") or None,
                guest=guest, email=form.cleaned_data["email"])
        except ServiceError as exc:
            form.add_error("username", exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, "Your account is ready." + (" Your guest games are yours to keep." if is_guest else ""))
            if guest_page is not None and next_url == guest_page:  # the guest's page is the new account's now
                next_url = reverse("player", args=[user.get_username()])
            return redirect(next_url or "lobby")
    return render(request, "registration/signup.html", {"form": form, "is_guest": is_guest, "next": next_url})


def new_game(request: HttpRequest, game_type: str) -> HttpResponse:
    try:
        ruleset = engines.get(game_type)
    except KeyError:
        raise Http404(f"no game called {game_type}")
    form = NewGameForm(request.POST or None, ruleset=ruleset)
    if request.method == "POST":
        if not request.user.is_authenticated:
            messages.error(request, "Sign in or pick a guest name first.")
            return redirect(request.path)
        if form.is_valid():
            pace, decision_seconds = form.chosen_pace()
            try:
                game = services.create_game(
                    creator=request.user, game_type=game_type, options=form.engine_options(),
                    is_public=form.cleaned_data["is_public"], num_seats=form.cleaned_data.get("num_seats"),
                    num_teams=form.cleaned_data.get("num_teams"),
                    spectators_read_only=form.cleaned_data["spectators_read_only"], pace=pace,
                    decision_seconds=decision_seconds, rated=form.cleaned_data["rated"])
            except ServiceError as exc:
                form.add_error(None, _in_a_sentence(exc.message.removeprefix("bad options: ")))
            else:
                return redirect(_game_url(game))
    return render(request, "games/new_game.html", {"form": form, "ruleset": ruleset, "guest_form": GuestForm()})


def _in_a_sentence(message: str) -> str:
    """A service's message as a form shows it: its first letter a capital, a full stop at its end."""
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?")) else message + "."


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules page: how to play, and the house rulings, each with its anchor."""
    try:
        content = game_rules.page(slug)
    except KeyError:
        raise Http404(f"no game called {slug}")
    return render(request, "games/rules.html", content)


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    payload = selectors.user_payload(game, request.user)
    invite = request.GET.get("invite") or request.session.get(f"invite:{game.pk}") or ""
    context = rendering.live_context(game, payload, request.user)
    talk = chat.talk_of(game, request.user)
    context.update(rendering.talk_context(talk, chat.history(game.pk, talk), viewer_seat=talk.seat),
                   spectators_only_read=chat.spectators_only_read(game))
    invite = invite if invite == game.invite_code else ""
    invite_path = reverse("invite", args=[game.pk, game.invite_code])
    context.update({
        "invite": invite,
        "invite_url": request.build_absolute_uri(invite_path),
        # where logging in, signing up or registering comes back to: through the invite if the
        # viewer came by one (a private game shows only with it)
        "return_to": invite_path if invite else request.get_full_path(),
        "guest_form": GuestForm(),
        "oob": False,
    })
    return render(request, "games/game.html", context)


def review_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game step by step (``?step``, ``?seat``), drawn by its own board, and the check of its dice."""
    game = _visible_game(request, game_id)
    query = {name: request.GET[name] for name in inputs.REVIEW_QUERY.fields if request.GET.get(name)}
    as_spectator = request.GET.get("seat") == "spectator"
    if as_spectator:
        query.pop("seat")
    try:
        query = inputs.REVIEW_QUERY.clean(query)
        seat = query["seat"]
        own = selectors.seat_held(game, request.user) if game.status == Game.Status.FINISHED else None
        if seat is None and not as_spectator and "seat" not in request.GET:
            seat = own  # a player reviews a finished game through their own eyes first
        context = review_context(game, step=query["step"], seat=seat, user=request.user)
        context["seat_param"] = "" if seat is None and own is None else "spectator" if seat is None else str(seat)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("review" if request.GET else "game", args=[game.pk]))
    return render(request, "games/review.html", context)


def review_context(game, *, step: int | None, seat: int | None, user) -> dict:
    """The review page's context: the step's board as the viewer saw it, without buttons."""
    review.check_viewer(game, seat)
    replay = review.replay_of(game)
    last = len(replay.steps) - 1
    data = review.step_data(replay, step=last if step is None else step, seat=seat)
    at_end = data["step"] == last and game.status == Game.Status.FINISHED
    players = selectors.seats_summary(game)
    payload = {"game_id": game.pk, "status": game.status if at_end else Game.Status.ACTIVE, "seat": seat,
               "players": players, "view": data["view"], "legal_actions": [], "prompt": None,
               "waiting_for": [], "version": data["version"], "log": data["log"],
               "resigned": list(game.prompts.get("resigned") or ()), "handed": list(game.prompts.get("handed") or ()),
               "outcome": selectors.named_outcome(game.outcome, replay.names) if at_end and game.outcome else None}
    marks = review.marks(replay)
    finished = game.status == Game.Status.FINISHED
    return {
        **rendering.live_context(game, payload, user),
        "step": data, "last": last, "replay": replay, "marks": marks, "finished": finished,
        "turn_steps": [(n, replay.steps[n].turn) for n in marks["turns"]],
        "turn_start": max(n for n in marks["turns"] if n <= data["step"]),
        "viewers": _review_viewers(players, user) if finished else [],
        "dice": selectors.dice(game),
        "verification": review.verify(game) if finished else None,
        "actor_name": replay.names[data["actor"]] if data["actor"] is not None else None,
    }


def _review_viewers(players: list[dict], user) -> list[tuple[int, str]]:
    """The "Seen by" list: each seat by its player's name, the one who reviews marked "(you)"
    (the seat they hold, or held until a computer player took it over)."""
    own = user.pk if user is not None and user.is_authenticated else None
    mine = next((p["seat"] for p in players if own is not None and p["user_id"] == own), None)
    return [(p["seat"], f'{p["name"]} (you)' if p["seat"] == mine else p["name"]) for p in players]


def invite(request: HttpRequest, game_id: int, code: str) -> HttpResponse:
    valid = inputs.is_valid(inputs.GAME_ID, game_id) and inputs.is_valid(inputs.INVITE_CODE, code)
    game = Game.objects.filter(pk=game_id, invite_code=code).first() if valid else None
    if game is None:
        raise Http404("this invite link is not valid")
    request.session[f"invite:{game.pk}"] = code
    return redirect(_game_url(game))


@csrf_exempt  # it changes nothing; any other method is answered in JSON, as under the rest of /api/
def api_docs(request: HttpRequest, path: str = documents.API_DOCUMENT) -> HttpResponse:
    """The JSON API's document (docs/api.md) and the documents it links to, for whoever holds a
    token and not the repository: drawn as a page, or with ``?raw=1`` as the text it is
    written in."""
    if request.method not in ("GET", "HEAD"):  # answered as every path under /api/ is: in JSON
        return JsonResponse({"error": {"code": "method_not_allowed", "message": "use GET"}}, status=405)
    shown = documents.document(path)
    if shown is None:
        return JsonResponse({"error": {"code": "not_found", "message": f"{path!r} is no document this server shows; "
                                       "the API is described at /api/docs/"}}, status=404)
    if request.GET.get("raw") == "1" or shown.html is None:
        return HttpResponse(shown.source, content_type="text/plain; charset=utf-8")
    return render(request, "games/document.html", {"document": shown, "raw": f"{documents.address(path)}?raw=1"})


# The seat actions by the name in their address (the service's table, games.services.SEAT_CALLS).
SEAT_ACTIONS: dict[str, Callable[..., Any]] = services.SEAT_CALLS


def seat_action(request: HttpRequest, game_id: int, what: str) -> HttpResponse:
    """The waiting room's buttons: join, move, leave, choose a team or its leader, add or
    remove a computer player, start; in play, resign or agree to hand an away player's seat over;
    once over, offer, accept or decline a rematch. Posted by the buttons; a browser that opens
    such an address (a reload, a link) is sent to the game's page, and an unknown one is a 404."""
    if what not in SEAT_ACTIONS:
        raise Http404(f"there is no seat action {what!r}")
    game = _visible_game(request, game_id)
    if request.method in ("GET", "HEAD"):
        return redirect(_game_url(game))
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if not request.user.is_authenticated:
        messages.error(request, "Sign in or pick a guest name to take a seat.")
        return redirect(_game_url(game))
    form = SeatForm(request.POST)
    if not form.is_valid():
        wrong = " and ".join(form.errors)
        return HttpResponseBadRequest(rendering.error_html("bad_request", f"the {wrong} must be a number from 0 to 63",
                                                           oob=False))
    number, team = form.cleaned_data["seat"], form.cleaned_data["team"]
    from_the_lobby = bool(request.htmx) and request.POST.get("from") == "lobby"
    if what == "handover" and number is None:
        return HttpResponseBadRequest(rendering.error_html("bad_request", "say which seat to hand over", oob=False))
    try:
        SEAT_ACTIONS[what](game.pk, request.user, number, team)
    except (ServiceError, GameError) as exc:
        message = getattr(exc, "message", str(exc))
        if request.htmx and not from_the_lobby:
            return HttpResponse(rendering.error_html(getattr(exc, "code", "error"), message, oob=False))
        messages.error(request, message)
    if from_the_lobby:  # the lobby's Join: on to the table, seated (or told there why not)
        return HttpResponseClientRedirect(_game_url(game))
    if request.htmx:
        return HttpResponse('<div id="flash" role="alert"></div>')
    return redirect(_game_url(game))


PASSWORD_RESETS_PER_HOUR = 3
"""Reset e-mails one address may be sent in an hour; past that the form still says the e-mail
is on its way, and sends nothing, so it cannot be used to flood someone's mailbox."""


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset; the e-mail's link starts with the site's address
    (``SNOWBALL_SITE_URL``), as every e-mail of the site does, and one address gets at most
    :data:`PASSWORD_RESETS_PER_HOUR` of them an hour (counted in the site's cache: Redis when
    ``REDIS_URL`` is set, so every worker counts alike; the process's memory otherwise)."""

    @property
    def extra_email_context(self) -> dict:
        return {"site_url": settings.SNOWBALL_SITE_URL}

    def form_valid(self, form) -> HttpResponse:
        key = "password-reset:" + form.cleaned_data["email"].strip().lower()
        cache.add(key, 0, timeout=3600)
        if cache.incr(key) > PASSWORD_RESETS_PER_HOUR:
            return redirect(self.get_success_url())
        return super().form_valid(form)


_password_change = auth_views.PasswordChangeView.as_view()


def password_change(request: HttpRequest) -> HttpResponse:
    """Django's password change; a guest has no password to change, and registers instead."""
    if getattr(getattr(request.user, "profile", None), "is_guest", False):
        return redirect("signup")
    return _password_change(request)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """The user's games, those waiting for the user's decision first."""
    rows = []
    for game in selectors.my_games(request.user):
        seat, players = game.your_seat, selectors.seats_summary(game)
        result = None
        if game.status == Game.Status.FINISHED:
            result = result_words(outcome=game.outcome or {}, players=players, seat=seat,
                                  resigned=list(game.prompts.get("resigned") or ()),
                                  handed=list(game.prompts.get("handed") or ()))
        rows.append({"game": game, "names": [p["name"] for p in players], "seat": seat, "your_turn": game.your_turn,
                     "deadline": game.your_deadline, "pace": pacing.describe(game.pace, game.decision_seconds, learn=game.is_learn),
                     "result": result})
    return render(request, "games/my_games.html", {"rows": rows})


@login_required
def my_settings(request: HttpRequest) -> HttpResponse:
    """The display name, the e-mail address (password resets, and e-mail when a game by the day
    waits for a decision: opt-in), and a link to change the password."""
    profile = services.ensure_profile(request.user)
    form = SettingsForm(request.POST or None, user=request.user,
                        initial={"display_name": profile.display_name, "email": request.user.email,
                                 "email_on_turn": profile.email_on_turn})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_settings(user=request.user, email=form.cleaned_data["email"],
                                     email_on_turn=form.cleaned_data["email_on_turn"],
                                     display_name=form.cleaned_data["display_name"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("my_settings")
    return render(request, "games/settings.html", {"form": form, "is_guest": profile.is_guest})


@require_POST
def email_on_turn(request: HttpRequest) -> HttpResponse:
    """The game page's "E-mail me when it is my turn" box: the settings page's choice, saved
    from a game. Answers with the box as it now is (htmx), else goes back to ``next``."""
    if not request.user.is_authenticated:
        return HttpResponse("Log in to choose your e-mails.", status=403, content_type="text/plain")
    form = EmailOnTurnForm(request.POST)
    wanted = form.is_valid() and form.cleaned_data["email_on_turn"]
    saved = error = ""
    try:
        services.update_settings(user=request.user, email_on_turn=wanted)
    except ServiceError as exc:
        error = exc.message[0].upper() + exc.message[1:] + "."
    else:
        saved = f"Saved: e-mails go to {request.user.email}." if wanted else "Saved: no e-mails."
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or saved)
        return redirect(_safe_next(request, default=reverse("my_settings")))
    profile = services.ensure_profile(request.user)
    return render(request, "games/email_on_turn.html", {
        "email_on_turn": profile.email_on_turn, "is_guest": profile.is_guest, "saved": saved, "error": error,
        "return_to": _safe_next(request, default=reverse("lobby"))})


@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """Create and revoke API tokens for bots; a new key is shown once."""
    form = ApiTokenForm(request.POST or None)
    new_key = None
    if request.method == "POST":
        if "revoke" in request.POST:
            revoke = RevokeTokenForm(request.POST)
            if revoke.is_valid():
                _revoke(request.user, revoke.cleaned_data["revoke"])
                messages.success(request, "Token revoked.")
            else:
                messages.error(request, "No such token.")
            return redirect("api_tokens")
        if form.is_valid():
            _, new_key = ApiToken.issue(user=request.user, name=form.cleaned_data["name"])
            form = ApiTokenForm()
    tokens = ApiToken.objects.filter(user=request.user).order_by("-created_at")
    return render(request, "games/api_tokens.html", {"form": form, "tokens": tokens, "new_key": new_key})


def _revoke(user, token_id: int) -> None:
    """Delete the token and close the sockets opened with it (4001)."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if deleted:
        async_to_sync(get_channel_layer().group_send)(token_group(token_id), {"type": "token.revoked"})


def _visible_game(request: HttpRequest, game_id: int):
    if not inputs.is_valid(inputs.GAME_ID, game_id):
        raise Http404("no such game, or it is private")
    game = Game.objects.filter(pk=game_id).first()
    code = request.GET.get("invite") or request.session.get(f"invite:{game_id}")
    code = code if inputs.is_valid(inputs.INVITE_CODE, code) else None
    if game is None or not selectors.can_watch(game, request.user, code):
        raise Http404("no such game, or it is private")
    return game


def _game_url(game) -> str:
    return reverse("game", args=[game.pk])


def _safe_next(request: HttpRequest, *, default: str | None = None) -> str:
    """The ``next`` path on this site (Django's url_has_allowed_host_and_scheme), else
    ``default`` (the lobby unless given)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and "\x00" not in target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("lobby") if default is None else default


def learn(request: HttpRequest, slug: str) -> HttpResponse:
    """Learn to play: POST starts a game against computer players with hints (a visitor not
    signed in gives a guest name in the same form); GET shows that form."""
    from games.services.learn import start_learn_game

    try:
        ruleset = engines.get(slug)
    except KeyError:
        raise Http404(f"no game called {slug}")
    form = GuestForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            if not form.is_valid():
                return render(request, "games/learn.html", {"ruleset": ruleset, "guest_form": form}, status=400)
            user = services.create_guest(display_name=form.cleaned_data["display_name"])
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        try:
            game = start_learn_game(user=request.user, game_type=slug)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("rules", slug)
        return redirect(_game_url(game))
    return render(request, "games/learn.html", {"ruleset": ruleset, "guest_form": form})


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 page: a reason of ours (``Http404("No such game...")``) is said; an address
    that matches no page gets the page's own words, never the name of Django's exception."""
    reason = exception.args[0] if isinstance(exception, Http404) and exception.args else None
    return render(request, "404.html", {"exception": reason if isinstance(reason, str) else None}, status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without this site's security token, or with an old one (CSRF_FAILURE_VIEW)."""
    return render(request, "403.html", {"exception": (
        "this form came without the page's security token, or with an old one (the page was open before you "
        "came in or left, or the browser refuses this site's cookies): go back, reload the page and send it "
        "again")}, status=403)
