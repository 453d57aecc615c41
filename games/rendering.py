"""Server-rendered HTML for the game page and its socket updates.

The socket sends out-of-band swaps: ``#live`` holds everything that changes with the
version, ``#presence`` who is connected, ``#talk-channels`` the viewer's table talk. A
started game's view is the same for every socket of one seat (or every spectator), so it is
rendered once per version and shared.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import escape

from games import engines, rules, tables
from games.caches import LRU
from games.selectors.chat import dom_id_of
from games.selectors.learn import hints_for, labelled
from games.selectors.results import team_results, team_verdict


# (game id, version, seat, signed in) -> the live region's HTML, rendered once and shared by
# every socket that shows that view (all the spectators, a player's tabs)
VIEW_HTML: LRU[tuple[int, int, int | None, bool], str] = LRU(2048, group_of=itemgetter(0))


def board_template(game_type: str) -> str:
    return f"games/{game_type}/board.html"


def live_context(game, payload: dict[str, Any], user) -> dict[str, Any]:
    """The template context for the live region, shared by the page and the socket."""
    names = [p["name"] for p in payload["players"]]
    ruleset = engines.get(game.game_type)
    context = {
        "held_seat": held_seat(payload, user),
        "game": game,
        "payload": payload,
        "ruleset": ruleset,
        "view": payload["view"],
        "seat": payload["seat"],
        "legal": payload["legal_actions"],
        "prompt": payload["prompt"],
        "names": names,
        "version": payload["version"],
        "board_template": board_template(game.game_type),
        "user": user,
        "hints": hints_for(game, payload),
        **_waiting_room_context(game, ruleset, payload),
        **(_result_context(ruleset, payload) if payload.get("outcome") else {}),
    }
    if context["hints"] is not None:  # the hints name each option as the board's buttons do
        context["board_html"] = render_to_string(context["board_template"], context)
        context["hints"] = labelled(context["hints"], context["board_html"])
    return context


def _result_context(ruleset, payload: dict[str, Any]) -> dict[str, Any]:
    """What the result panel shows: the rules' notes, and each team's result at a team table."""
    teams = team_results(outcome=payload["outcome"], players=payload["players"], resigned=payload["resigned"])
    return {**rules.result_context(ruleset, payload["outcome"]), "team_results": teams,
            "team_verdict": team_verdict(teams, unit=ruleset.score_unit, unit_one=ruleset.score_unit_one)}


def _waiting_room_context(game, ruleset, payload: dict[str, Any]) -> dict[str, Any]:
    """How full the table is (seats taken and empty), its teams with their players, and why it
    cannot start yet."""
    if payload["status"] != "open":
        return {}
    players = payload["players"]
    seat = payload["seat"]
    return {
        "seated": sum(not p["empty"] for p in players),
        "empty_seats": sum(p["empty"] for p in players),
        "my_team": players[seat]["team"] if seat is not None else None,
        "leaders_chosen": bool(payload["teams"]) and tables.has_team_leaders(ruleset),
        "team_rows": [{**team, "players": [p for p in players if p["team"] == team["team"]]}
                      for team in payload["teams"]],
        "start_problem": tables.start_problem(ruleset, num_teams=len(payload["teams"]), players=players),
    }


def live_html(game, payload: dict[str, Any], user) -> str:
    """The out-of-band swap that brings one viewer's page to the payload's version.

    Once a game has started, a view is the same for every socket of one seat (or every
    spectator): rendered once per version, seat and signed-in or not, and shared. A player who
    gave up the seat is not shared a spectator's page (its own has the rematch buttons), nor
    is anyone in the waiting room, where the buttons depend on who is looking.
    """
    key = _shared_key(game, payload, user)
    if key is not None:
        cached = VIEW_HTML.get(key)
        if cached is not None:
            return cached
    html = render_to_string("games/live.html", {**live_context(game, payload, user), "oob": True})
    if key is not None:
        VIEW_HTML.put(key, html)
    return html


def shared_live_html(game, payload: dict[str, Any], user) -> str | None:
    """``live_html`` when another socket of the same view already had it rendered, else None:
    answered without rendering or reading anything, so the event loop may ask it."""
    key = _shared_key(game, payload, user)
    return None if key is None else VIEW_HTML.get(key)


def _shared_key(game, payload: dict[str, Any], user) -> tuple[int, int, int | None, bool] | None:
    if payload["status"] == "open" or held_seat(payload, user) != payload["seat"]:
        return None
    return (game.pk, game.version, payload["seat"], bool(user is not None and user.is_authenticated))


def held_seat(payload: dict[str, Any], user) -> int | None:
    """The seat ``user`` holds at the table, even once a computer player took it over."""
    if user is None or not user.is_authenticated:
        return None
    return next((p["seat"] for p in payload["players"] if p["user_id"] == user.pk), None)


def presence_html(presence: dict[str, Any], *, viewer_seat: int | None) -> str:
    return render_to_string("games/presence.html", {"presence": presence, "oob": True, "viewer_seat": viewer_seat})


def talk_context(talk, history: dict[str, list[dict[str, Any]]], *, viewer_seat: int | None) -> dict[str, Any]:
    """The context of the chat panel's channels (``games/talk.html``)."""
    return {"channels": [(channel, history.get(channel.key, [])) for channel in talk.channels],
            "viewer_seat": viewer_seat}


def talk_html(talk, history: dict[str, list[dict[str, Any]]], *, viewer_seat: int | None, oob: bool) -> str:
    """The viewer's channels with their recent history, replacing the panel's."""
    return render_to_string("games/talk.html", {**talk_context(talk, history, viewer_seat=viewer_seat), "oob": oob})


def talk_lines_html(messages: list[dict[str, Any]], *, viewer_seat: int | None) -> str:
    """New messages, each added to the end of its channel's list (user text autoescaped)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for message in messages:
        groups.setdefault(dom_id_of(message["key"]), []).append(message)
    return render_to_string("games/talk_lines.html", {"groups": list(groups.items()), "viewer_seat": viewer_seat})


def error_html(code: str, message: str, *, oob: bool = True) -> str:
    swap = ' hx-swap-oob="true"' if oob else ""
    return (f'<div id="flash"{swap} class="flash flash-error" role="alert" data-code="{escape(code)}">'
            f"{escape(message)}</div>")


def lobby_lists_html(user) -> str:
    """The lobby's open and live game lists, as an out-of-band swap."""
    from games import selectors

    return render_to_string("games/lobby_lists.html", {
        "open_games": selectors.open_games()[:50],
        "live_games": selectors.live_games()[:50],
        "finished_games": selectors.recently_finished_games()[:20],
        "user": user,
        "oob": True,
    })
