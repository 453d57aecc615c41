"""Snowball Fight boards for three to six players and for teams: the table as the viewer sees it.

Everything here is arranged from the viewer's own view (``view(state, seat)``), so a board
can show only what that view holds.
"""
from __future__ import annotations

from typing import Any

from django import template

from games.templatetags.games_tags import part_once

register = template.Library()


def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _shown_to(s: dict[str, Any], viewer: int | None) -> bool:
    """Whether seat ``s`` shows its hand to the viewer (Whitewash)."""
    return viewer is not None and viewer in (s.get("shows_hand_to") or ())


def _seat_order(view: dict[str, Any], viewer: int | None) -> list[int]:
    """The viewer first, then round the table to the left (in teams: the viewer's team first)."""
    n = view["players"]
    start = viewer if viewer is not None else 0
    if view["mode"] == "teams":
        own = view["seats"][start]["team"]
        return ([x for x in range(n) if view["seats"][x]["team"] == own]
                + [x for x in range(n) if view["seats"][x]["team"] != own])
    return [(start + k) % n for k in range(n)]


@register.simple_tag
def sbf_areas(view: dict[str, Any], viewer: int | None, names: list[str]) -> list[dict[str, Any]]:
    """Each player's area in table order: the seat's view, its Arsenal pile, whom it plays at."""
    arsenal = view["arsenal"]
    areas = []
    for x in _seat_order(view, viewer):
        s = view["seats"][x]
        pile_index = s.get("arsenal_pile")
        pile = arsenal[pile_index] if pile_index is not None and pile_index < len(arsenal) else None
        area = {"s": s, "pile": pile, "you": x == viewer, "name": _name(names, x),
                "shown_to_you": _shown_to(s, viewer)}
        if view["mode"] == "teams":
            area["opponent"] = _name(names, s["opponent"])
            area["team_mate"] = viewer is not None and view["seats"][viewer]["team"] == s["team"]
        else:
            area["left"] = _name(names, s["left"])
            area["right"] = _name(names, s["right"])
        areas.append(area)
    return areas


@register.simple_tag
def sbf_central_piles(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Arsenal piles in front of nobody (the book's central pile at odd tables)."""
    return [pile for pile in view["arsenal"] if pile["nearest"] is None]


@register.simple_tag
def sbf_battles(view: dict[str, Any], names: list[str]) -> list[str]:
    """This turn's battles in words: "Ana ▶ ◀ Ben" (the first plays left, the second right)."""
    teams = view["mode"] == "teams"
    words = []
    for battle in view.get("battles") or []:
        a, b = battle["seats"]
        words.append(f"{_name(names, a)} vs {_name(names, b)}" if teams
                     else f"{_name(names, a)} ◀▶ {_name(names, b)}")
    return words


@register.simple_tag
def sbf_pass_to(view: dict[str, Any], viewer: int | None, names: list[str]) -> str:
    """Whom the viewer passes draft cards to: the left neighbour, or (teams) an opponent."""
    if viewer is None:
        return ""
    n = view["players"]
    if view.get("mode") == "teams":
        team = view["seats"][viewer]["team"]
        mine = [x for x in range(n) if view["seats"][x]["team"] == team]
        theirs = [x for x in range(n) if view["seats"][x]["team"] != team]
        cycle = [x for pair in zip(*((mine, theirs) if team == 0 else (theirs, mine))) for x in pair]
        return _name(names, cycle[(cycle.index(viewer) + 1) % len(cycle)])
    if view.get("mode") == "ring":
        return _name(names, (viewer + 1) % n)
    return _name(names, 1 - viewer)


def _safe_side(card: dict[str, Any]) -> str:
    return "bottom" if card["top"]["type"] == "attack" and card["bottom"]["type"] != "attack" else "top"


@register.simple_tag
def sbf_ring_actions(you: dict[str, Any], card_id: str, side: str) -> dict[str, dict[str, Any]]:
    """The tentative choices that put ``card_id`` (``side`` up) to the left or to the right.

    The card playing to the other side stays as chosen; a card moved across swaps places.
    """
    playable = [p["card"] for p in you.get("playable", [])]
    choice = you.get("choice") or {}
    current = {where: (choice[where]["card"]["id"], choice[where]["side"])
               for where in ("left", "right") if where in choice}
    result = {}
    for where, other in (("left", "right"), ("right", "left")):
        keep = current.get(other)
        if keep is None or keep[0] == card_id:
            keep = current.get(where) if current.get(where, (card_id,))[0] != card_id else None
        if keep is None:
            spare = next((c for c in playable if c["id"] != card_id), None)
            if spare is None:
                continue
            keep = (spare["id"], _safe_side(spare))
        result[where] = {"type": "choose", where: {"card": card_id, "side": side},
                         other: {"card": keep[0], "side": keep[1]}}
    return result


@register.filter
def sbf_team_colour(team: int) -> str:
    return ("red", "blue")[team] if team in (0, 1) else "grey"


@register.simple_tag
def sbf_reveal(reveal: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The reveal split for the board: the opening lines, then each battle with its own lines
    (a battle's lines run from its "Battle k of n" line to the next one), and the battles still
    to resolve."""
    intro: list[list[dict[str, Any]]] = []
    groups: list[list[list[dict[str, Any]]]] = []
    for text, parts in zip(reveal["lines"], reveal["line_parts"]):
        if text.startswith("Battle ") and " of " in text.split(":")[0]:
            groups.append([])
        (groups[-1] if groups else intro).append(parts)
    battles = [{**battle, "lines": groups[k] if k < len(groups) else []}
               for k, battle in enumerate(reveal.get("battles") or [])]
    pending = [f"{_name(names, a)} vs {_name(names, b)}" for a, b in (reveal.get("order") or [])[len(battles):]]
    return {"intro": intro, "battles": battles, "pending": pending}


@register.simple_tag(takes_context=True)
def sbf_seat_public(context, view: dict[str, Any], s: dict[str, Any], seat: int | None, names: list[str],
                    mine: bool = False) -> str:
    """A player's public side at a two-player table (``games/snowball-fight/seat_public.html``),
    given only what it reads of the viewer: whether the side is the viewer's, and whether its
    hand is shown to the viewer. Viewers who see the side alike share one drawing."""
    return part_once(context, "games/snowball-fight/seat_public.html", {
        "s": s, "names": names, "mine": mine, "you": s["seat"] == seat,
        "shown_to_you": _shown_to(s, seat),
        "step": view.get("step"), "waiting_for": view.get("waiting_for")})


@register.filter
def distinct_keeps(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Advanced draft's pairs to keep, one for each pair of different cards: with two copies
    of a card in the pack, keeping either copy is the same choice, shown once (the marked one,
    if it is marked)."""
    kept: dict[tuple[str, ...], dict[str, Any]] = {}
    for option in options:
        key = tuple(sorted(card["kind"] for card in option["cards"]))
        if key not in kept or option.get("chosen"):
            kept[key] = option
    return [option for option in options if kept[tuple(sorted(card["kind"] for card in option["cards"]))] is option]


@register.simple_tag
def sbf_reveal_brief(view: dict[str, Any], viewer: int | None, names: list[str]) -> dict[str, Any] | None:
    """The last reveal as it concerns the viewer, in a few lines, for the phone's panel beside the
    hand: the cards of each battle the viewer fought (two players: the one battle) and what they
    did. None for a spectator or before any reveal."""
    reveal = view.get("last_reveal")
    if viewer is None or not reveal:
        return None

    def who(seat: int) -> str:
        return "you" if seat == viewer else _name(names, seat)

    def played(seat: int, plays: list[dict[str, Any]]) -> dict[str, Any]:
        shown = [p for p in plays if p["via"] != "dodge"]
        return {"who": who(seat), "you": seat == viewer,
                "titles": [("second card: " if p["via"] == "barrage" else "") + p["title"]
                           + (" (no effect)" if p["cancelled"] else "") for p in shown]}

    if "battles" not in reveal:  # two players: one battle, its lines after the "Reveal:" line
        seats = [viewer] + [x for x in range(len(reveal["plays"])) if x != viewer]
        return {"turn": reveal["turn"], "resolving": reveal["resolving"], "ended": reveal.get("ended"),
                "battles": [{"plays": [played(x, reveal["plays"][x]) for x in seats],
                             "lines": reveal["line_parts"][1:]}]}
    split = sbf_reveal(reveal, names)
    battles = []
    for b in split["battles"]:
        if viewer not in b["seats"]:
            continue
        order = [0, 1] if b["seats"][0] == viewer else [1, 0]
        battles.append({"plays": [played(b["seats"][k], b["plays"][k]) for k in order],
                        "lines": b["lines"][1:]})  # the "Battle k of n" line names both cards
    if not battles:
        return None
    return {"turn": reveal["turn"], "resolving": reveal["resolving"], "ended": reveal.get("ended"), "battles": battles}
