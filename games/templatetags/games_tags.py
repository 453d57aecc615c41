"""Template helpers shared by every game's board templates."""
from __future__ import annotations

import functools
import json
import time

import orjson
from django import template
from django.template import Context
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.caches import LRU

register = template.Library()


@register.simple_tag
def server_time() -> str:
    """The server's clock now, in seconds: what a page counts its deadlines on (static/js/site.js)."""
    return f"{time.time():.3f}"

# (template, autoescape, localize, its values as JSON) -> the HTML: a part many viewers of a
# version see alike, drawn once for all of them (``render_once``); a part that did not change
# (a player's tag, an area no move touched) is drawn again only once it has been pushed out
RENDERED_ONCE: LRU[tuple[str, bool, bool | None, bytes], str] = LRU(4096)
_KEY_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS


def _plain(value):
    """A range as the list it counts (a template loops over both alike); nothing else."""
    if isinstance(value, range):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not plain data")


@register.simple_tag(takes_context=True)
def render_once(context, template_name: str, **values):
    """``template_name`` rendered with ``values`` and nothing else of the page's context, once
    for every viewer whose values are equal: a part of a board that many viewers of a version
    see alike (a turn's report, a team's sheet, a Kid on the map) is drawn once, not once a seat.

    The part sees only ``values`` (as ``{% include ... only %}``), so equal values give equal
    HTML, and no viewer is given a part drawn from anything but its own view. Values that are
    not plain JSON data (a model, a string already marked safe) are drawn each time.
    """
    return part_once(context, template_name, values)


def part_once(context, template_name: str, values: dict) -> str:
    """``render_once``'s work, for a tag that works out a part's values itself (``players_row``,
    a board's ``jb_team``, ``sbf_seat_public``)."""
    try:
        key = (template_name, context.autoescape, context.use_l10n,
               orjson.dumps(values, default=_plain, option=_KEY_OPTIONS))
    except TypeError:
        key = None
    if key is not None:
        html = RENDERED_ONCE.get(key)
        if html is not None:
            return html
    engine = context.template.engine if context.template is not None else template.Engine.get_default()
    part = engine.get_template(template_name)
    html = mark_safe(part.render(Context(values, autoescape=context.autoescape, use_l10n=context.use_l10n)))
    if key is not None:
        RENDERED_ONCE.put(key, html)
    return html


@register.simple_tag(takes_context=True)
def players_row(context, payload: dict, seat: int | None) -> str:
    """The players over the board (``games/player_tag.html`` each), every one drawn once for
    all the viewers who see it alike: only the viewer's own is marked as theirs."""
    waiting, resigned, handed = (payload.get(key) or () for key in ("waiting_for", "resigned", "handed"))
    active = payload.get("status") == "active"
    return mark_safe("".join(
        part_once(context, "games/player_tag.html",
                  {"p": p, "me": p["seat"] == seat, "waiting": p["seat"] in waiting, "resigned": p["seat"] in resigned,
                   "handed": p["seat"] in handed, "active": active}) + "    "
        for p in payload["players"]))


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


def _profile_link(name: str, username: str | None) -> str:
    if not username:
        return format_html("{}", name)
    return format_html('<a class="player-link" href="{}">{}</a>', reverse("player", args=[username]), name)


@register.filter
def player_link(seat, players):
    """``seat``'s name linked to its player's page (/players/<username>/), given the payload's
    players; a guest's, a computer player's or an empty seat's name is plain text."""
    player = next((p for p in players or () if p.get("seat") == seat), None) if isinstance(seat, int) else None
    if player is None:
        return format_html("Seat {}", seat)
    return _profile_link(player["name"], player.get("username"))


@register.filter
def profile_link(player):
    """A payload player's name linked to its page (see :func:`player_link`)."""
    return _profile_link(player["name"], player.get("username"))


# Variants named with the game wherever a table is shown: (game type, option, value) -> the variant's name.
TITLED_VARIANTS = {("snowball-fighting", "map", "fogbound"): "Fogbound"}


def variant_of(game) -> str | None:
    """The name of the variant ``game`` is played in ("Fogbound"), or None."""
    options = game.options or {}
    return next((name for (game_type, option, value), name in TITLED_VARIANTS.items()
                 if game.game_type == game_type and options.get(option) == value), None)


@register.filter
def game_name(game) -> str:
    """"Snowball Fighting: Fogbound": the game's name, with the variant it is played in."""
    from games import engines

    try:
        name = engines.get(game.game_type).name
    except KeyError:
        name = game.game_type
    variant = variant_of(game)
    return f"{name}: {variant}" if variant else name


@register.filter
def game_title(game) -> str:
    """"Snowball Fight #12" (or "Snowball Fighting: Fogbound #13") for a game row."""
    return f"{game_name(game)} #{game.pk}"


@register.filter
def shout_range(game) -> int | None:
    """How many hexes a shout carries in this game (Snowball Fighting's Fogbound garden), or None
    where there is no shouting: only table talk."""
    if variant_of(game) != "Fogbound":
        return None
    from games.engines.snowball_fighting.fog import SHOUT_RANGE

    return SHOUT_RANGE


@register.filter
def seat_list(game) -> str:
    """The players' names: "Ana vs Ben" at two seats, with an open seat as "open seat"; at a
    bigger table the seated players ("Ana, Ben vs Cy" by team) and "3 open seats". Each
    signed-in player's name links to its page; guests and computer players are plain text."""
    from games.selectors import seat_names
    from games.selectors.games import profile_username

    seats = list(game.seats.all())
    names = [_profile_link(name, profile_username(seat.user) if seat.user_id is not None else None)
             if not seat.is_empty else name for seat, name in zip(seats, seat_names(game, seats))]
    if game.num_seats <= 2 and not game.num_teams:
        return mark_safe(" vs ".join(name if not name.startswith("(empty") else "open seat" for name in names))
    seated = [(seat, name) for seat, name in zip(seats, names) if not seat.is_empty]
    if game.num_teams:
        sides = [", ".join(name for seat, name in seated if seat.team == team) for team in range(game.num_teams)]
        text = " vs ".join(side for side in sides if side)
    else:
        text = " vs ".join(name for _, name in seated)
    open_seats = len(seats) - len(seated)
    if open_seats:
        text += f"{' · ' if text else ''}{open_seats} open seat{'s' if open_seats > 1 else ''}"
    return mark_safe(text)


@register.filter
def seated_count(game) -> str:
    """"3/5 seated" for a game row."""
    seats = list(game.seats.all())
    return f"{sum(not seat.is_empty for seat in seats)}/{len(seats)} seated"


@register.filter
def option_texts(game) -> list[str]:
    """The game's creation options as the new-game form put them: "Village: High street",
    "Special players (optional rules): yes", "Kids: chosen by the game"."""
    from games import engines

    try:
        options = engines.get(game.game_type).options
    except KeyError:
        return [f"{name}: {value}" for name, value in game.options.items()]
    return [f"{o.label}: {_option_value_text(o, game.options[o.name])}" for o in options if o.name in game.options]


def _option_value_text(option, value) -> str:
    labels = dict(option.choices)
    if option.kind == "bool":
        return "yes" if value else "no"
    if option.kind == "roster":
        return f"{len(value)} listed by the creator" if value else "chosen by the game"
    if option.kind == "multichoice":
        return ", ".join(labels.get(v, str(v)) for v in value) if value else "none"
    return labels.get(value, str(value))


@register.filter
def team_colour(team) -> str:
    """The colour a team is shown in (a CSS class suffix)."""
    from games.tables import team_colour as colour

    return colour(int(team))


@register.filter
def team_name(team) -> str:
    from games.tables import team_name as name

    return name(int(team))


@register.filter
def team_counts(ruleset) -> str:
    """"in 2, 3 or 4 teams" for a game played in teams, "" otherwise."""
    from games.tables import team_count_words

    return team_count_words(ruleset)


@register.filter
def pace_text(game) -> str:
    """The game's pace in words: "Live · 60 s a decision", "By the day · 1 day a turn"."""
    from games import pacing

    return pacing.describe(game.pace, game.decision_seconds, learn=game.is_learn)


@register.simple_tag
def team_mark(colour: str) -> str:
    """A team's shape as a small inline SVG in the text's colour, put before its name (hidden from
    screen readers, which read the name)."""
    from games.tables import MARK_PATHS, team_mark as mark

    shape = mark(colour)
    if not shape:
        return ""
    return format_html('<svg class="team-mark" data-mark="{}" viewBox="-1.2 -1.2 2.4 2.4" aria-hidden="true">'
                       '<path d="{}"/></svg>', shape, MARK_PATHS[shape])


@register.filter
def team_mark_name(colour: str) -> str:
    """"circle", "square"...: the shape of the team of this colour."""
    from games.tables import team_mark as mark

    return mark(colour)


@register.filter
def team_mark_path(colour: str) -> str:
    """The SVG path of the shape of the team of this colour, within about -1..1."""
    from games.tables import MARK_PATHS, team_mark as mark

    return MARK_PATHS.get(mark(colour), "")


@register.filter
def time_ago(moment) -> str:
    """"3 minutes ago", or "just now" within the first minute (never "0 minutes ago")."""
    from django.utils import timezone
    from django.utils.timesince import timesince

    if moment is None:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment)} ago"


@register.filter
def seated_here(game, user) -> bool:
    """Whether ``user`` has a seat at ``game`` (its seats prefetched)."""
    user_id = getattr(user, "pk", None)
    return user_id is not None and any(seat.user_id == user_id for seat in game.seats.all())


@register.simple_tag
def script_url(path: str) -> str:
    """``{% static path %}`` for a script a board loads on every redraw, worked out once a
    process (Django's tag asks the storage and the app registry each time: a fortieth of a
    What a Snowball! page move)."""
    return _static_url(path)


@functools.lru_cache(maxsize=64)
def _static_url(path: str) -> str:
    from django.templatetags.static import static

    return static(path)
