"""Template helpers shared by every game's board templates."""
from __future__ import annotations

import json

from django import template

register = template.Library()


@register.filter
def ws_vals(action: dict) -> str:
    """The ``hx-vals`` JSON for an element that sends ``action`` over the game socket.

    Use it as ``<button ws-send hx-vals="{{ action|ws_vals }}">``; static/js/game.js adds
    the action_id and the version the player saw before the frame leaves the browser.
    """
    return json.dumps({"action": json.dumps(action, sort_keys=True)})


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` for templates, None when absent (works for lists with int keys)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        try:
            return mapping[str(key)]
        except (KeyError, IndexError, TypeError):
            return None


@register.filter
def with_score_unit(score, ruleset):
    """A score in the game's own words: ``7`` -> "7 points", ``1`` -> "1 point"."""
    if ruleset is None:
        return f"{score} point{'' if score == 1 else 's'}"
    return f"{score} {ruleset.score_unit_one if score == 1 else ruleset.score_unit}"


@register.filter
def player_name(seat, names):
    """The display name of ``seat`` given the list of names by seat."""
    try:
        return names[int(seat)]
    except (IndexError, TypeError, ValueError):
        return f"Seat {seat}"


@register.filter
def game_title(game) -> str:
    """"Snowball Fight #12" for a game row."""
    from games import engines

    try:
        name = engines.get(game.game_type).name
    except KeyError:
        name = game.game_type
    return f"{name} #{game.pk}"


@register.filter
def seat_list(game) -> str:
    """The players' names, "Ana vs Ben", with open seats shown as "open seat"."""
    from games.selectors import seat_names

    return " vs ".join(name if not name.startswith("(empty") else "open seat" for name in seat_names(game))
