"""A player's random legal action, from what its own socket was sent.

The load generator's players act like players: from the legal actions the server offered
their seat, never from the game's hidden state.

- On the JSON socket (``json_action``) that is the view frame's ``legal_actions``. Most are
  complete actions and one is picked at random. Some describe a choice instead (an entry
  with an ``example``, Jingle Bells' and What a Snowball!'s moves as a region to stand in):
  those games' own random players, which read only the seat's view, fill them in
  (``bot.random_action``); Snowball Fighting's orders are written by its computer player from
  the seat's view.
- On the page's socket (``page_action``) it is what the page offers to press: every ``ws-send``
  element's ``hx-vals`` (a complete action), the board's click targets (What a Snowball!'s
  ``data-click``: their examples), the legal actions Jingle Bells' board script reads
  (``jb-legal``) and Snowball Fighting's orders panel (its example orders, sealed).

Settings and votes that do not move the game (``RARE``) are never chosen, nor is a Snowball
Fight card chosen again or Jingle Bells' dice allocated again (``REVISIONS``): such private
actions are not counted in the other viewers' versions (docs/api.md), and the load generator
times a move by the version every socket of its game reaches.
"""
from __future__ import annotations

import html as html_lib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]

RARE = frozenset({"surrender", "set_never_ask", "set_auto_dodge"})
REVISIONS = frozenset({"choose", "allocate"})  # a card chosen again, dice allocated again: private


def _playable(actions: list[Action]) -> list[Action]:
    actions = [a for a in actions if isinstance(a, dict) and a.get("type") not in RARE]
    if any(a.get("type") == "lock" for a in actions):  # chosen or allocated: lock it (or play another card)
        actions = [a for a in actions if a.get("type") not in REVISIONS]
    return actions


# ---------------------------------------------------------------------- the JSON socket


def json_action(slug: str, frame: dict[str, Any], rng: random.Random) -> Action | None:
    """A random legal action for the seat of a JSON ``view`` frame; None when it is asked nothing."""
    legal = _playable(frame.get("legal_actions") or [])
    if not legal:
        return None
    view = frame.get("view") or {}
    if slug == "jingle-bells":
        from games.engines.jingle_bells import bot

        table = view.get("table") or {}
        return bot.random_action(legal, view["pieces"], view.get("obstructions") or [], rng,
                                 table=(table.get("width", 50.0), table.get("height", 30.0)), forward=0.5)
    if slug == "what-a-snowball":
        from games.engines.what_a_snowball import bot

        return bot.random_action({"legal_actions": legal, "kids": view["kids"], "village": view["village"]}, rng)
    if slug == "snowball-fighting" and (view.get("you") or {}).get("asked"):
        from games.engines.snowball_fighting import bot

        return bot.choose_action(view)
    choice = rng.choice(legal)
    return dict(choice["example"]) if "example" in choice else choice


# ---------------------------------------------------------------------- the page's socket

_LIVE = re.compile(r'<div id="live" data-version="(\d+)" data-status="(\w*)"[^>]*?data-your-turn="(1?)"')
_FLASH = re.compile(r'<div id="flash"[^>]*?data-code="([^"]*)"')
_TAG = re.compile(r"<(?:button|form|a|div|input)\b[^>]*\bws-send\b[^>]*>")
_HX_VALS = re.compile(r'hx-vals="([^"]*)"|hx-vals=\'([^\']*)\'')
_CLICK = re.compile(r'data-click="([^"]+)"')
_SCRIPT = re.compile(r'<script id="([\w-]+)" type="application/json">(.*?)</script>', re.S)


@dataclass
class PageView:
    """What the load generator reads of the page socket's live region."""

    version: int
    status: str
    asked: bool


def page_view(text: str) -> PageView | None:
    """The version, status and whether the viewer is asked, of a live-region frame; None for any
    other frame (who is connected, table talk, an error)."""
    found = _LIVE.search(text, 0, 600)
    if found is None:
        return None
    return PageView(version=int(found.group(1)), status=found.group(2), asked=found.group(3) == "1")


def page_error(text: str) -> str | None:
    """The code of an error frame (the flash the page shows), else None."""
    found = _FLASH.match(text)
    return found.group(1) if found else None


@dataclass
class PageOffer:
    """What a page offers its viewer to do."""

    buttons: list[Action] = field(default_factory=list)  # complete actions
    examples: list[Action] = field(default_factory=list)  # complete actions standing for a choice
    scripts: dict[str, Any] = field(default_factory=dict)  # the board scripts' data, by id


def page_offer(text: str) -> PageOffer:
    """The actions a live-region frame's page offers to press, and its board scripts' data."""
    offer = PageOffer()
    for tag in _TAG.findall(text):
        vals = _HX_VALS.search(tag)
        if vals is None:
            continue
        try:
            data = json.loads(html_lib.unescape(vals.group(1) or vals.group(2)))
            action = json.loads(data["action"]) if isinstance(data.get("action"), str) else data.get("action")
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if isinstance(action, dict) and "type" in action:
            offer.buttons.append(action)
    click = _CLICK.search(text)
    if click:
        try:
            for entry in json.loads(html_lib.unescape(click.group(1))).get("actions", []):
                if isinstance(entry, dict) and isinstance(entry.get("example"), dict):
                    offer.examples.append(entry["example"])
        except (ValueError, AttributeError):
            pass
    for name, body in _SCRIPT.findall(text):
        try:
            offer.scripts[name] = json.loads(body)
        except ValueError:
            pass
    return offer


def page_action(slug: str, text: str, rng: random.Random) -> Action | None:
    """A random action among those the page of a live-region frame offers; None when none is."""
    offer = page_offer(text)
    if slug == "jingle-bells" and offer.scripts.get("jb-legal"):
        from games.engines.jingle_bells import bot

        legal = _playable(offer.scripts["jb-legal"])
        if legal:
            return bot.random_action(legal, offer.scripts.get("jb-pieces") or {}, jingle_bells_obstructions(legal), rng,
                                     forward=0.5)
    if slug == "snowball-fighting":
        you = offer.scripts.get("sf-you") or {}
        if you.get("asked"):
            return snowball_fighting_page_orders(you, offer)
    choices = _playable(offer.buttons) + _playable(offer.examples)
    return rng.choice(choices) if choices else None


def jingle_bells_obstructions(legal: list[Action]) -> list[dict[str, Any]]:
    """The table's obstructions as the page gives them: the polygons its legal placements must
    avoid (``must_avoid``), which its script checks a spot against before it sends it."""
    found: dict[str, dict[str, Any]] = {}
    for option in legal:
        for shape in option.get("must_avoid") or ():
            if shape.get("kind") == "polygon":
                found.setdefault(shape["id"], {"id": shape["id"], "points": shape["points"]})
    return list(found.values())


def snowball_fighting_page_orders(you: dict[str, Any], offer: PageOffer) -> Action | None:
    """What Snowball Fighting's panels send for a player who seals what they offer: the set-up
    with no preferred start, the example orders, or ``ready`` for orders already written."""
    ready = next((a for a in offer.buttons if a.get("type") == "ready"), None)
    if you.get("orders") is not None and ready is not None:
        return ready
    helper = you.get("orders_help")
    if helper and isinstance(helper.get("example"), dict):
        return {**helper["example"], "ready": True}
    if you.get("setup") is None:
        return {"type": "setup", "name": f"Bench {you.get('seat', 0)}", "starts": [], "ready": True}
    return ready
