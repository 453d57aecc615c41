"""Jingle Bells' board: a side's roster drawn once for every viewer who sees it alike."""
from __future__ import annotations

from typing import Any

from django import template

from games.engines.jingle_bells import engine
from games.templatetags.games_tags import part_once

register = template.Library()

# what games/jingle-bells/team.html (and the rows it includes) reads of the view, besides its
# own side's pieces and cards
TEAM_READS = ("phase", "to_move", "pending", "followup", "first_actor", "waiting_for", "dice", "teams", "face_words")


@register.simple_tag(takes_context=True)
def jb_team(context, view: dict[str, Any], seat: int | None, names: list[str], side: int) -> str:
    """Side ``side``'s roster (``games/jingle-bells/team.html``) from this viewer's view, given
    only what it reads: its own pieces and cards, whether it is the viewer's, and the turn's
    state. Viewers whose views agree on those share one drawing."""
    team = (view.get("teams") or [[], []])[side] or []
    pieces, cards = view.get("pieces") or {}, view.get("cards") or {}
    own = {key: view.get(key) for key in TEAM_READS}
    own["pieces"] = {name: pieces.get(name) for name in (*team, f"snowman{side}")}
    own["cards"] = {name: cards.get(name) for name in team}
    return part_once(context, "games/jingle-bells/team.html",
                     {"s": side, "seat": side if seat == side else None, "names": names, "view": own})


@register.simple_tag
def jb_turn_limit() -> int:
    """The last turn a game may have (the house ruling "Turn limit")."""
    return engine.MAX_TURNS
