"""The hint panel of a Learn game: each engine's ``hints`` (games/engines/<game>/hints.py), each
option named by the label of the board's button for it."""
from __future__ import annotations

import html
import importlib
import json
import re
from functools import cache
from typing import Any, Callable

from games import engines
from games.selectors.games import fill_names
from games.selectors.snapshots import snapshot


@cache
def hints_function(game_type: str) -> Callable[..., dict[str, Any] | None] | None:
    """The engine package's ``hints`` function, or None for a game without one."""
    module = type(engines.get(game_type)).__module__
    if not module.startswith("games.engines."):
        return None
    package = ".".join(module.split(".")[:3])
    try:
        return importlib.import_module(f"{package}.hints").hints
    except ModuleNotFoundError:
        return None


def hints_for(game, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The hints for the viewer of ``payload``: only in a Learn game, only when the viewer is asked;
    seats named in the reasons ("{p1}") are given their players' names."""
    if not getattr(game, "is_learn", False) or payload.get("prompt") is None or payload.get("seat") is None:
        return None
    hints = hints_function(game.game_type)
    if hints is None:
        return None
    state = snapshot(game.pk, version=game.version).state
    found = hints(prompt=payload["prompt"], legal_actions=payload["legal_actions"], state=state, seat=payload["seat"])
    if found is None:
        return None
    names = [p["name"] for p in payload["players"]]
    return {**found, "not_offered": [{**m, "why": fill_names(m["why"], names)} for m in found["not_offered"]]}


_BUTTON = re.compile(r"<button\b([^>]*)>(.*?)</button>", re.S)
_ATTRIBUTE = re.compile(r'([\w-]+)=("([^"]*)"|\'([^\']*)\')')
_SMALL = re.compile(r"<small\b.*?</small>", re.S)
_TAG = re.compile(r"<[^>]+>")
LABELS_SHOWN = 3


def _action_type(attributes: dict[str, str]) -> str | None:
    """The action type a board button sends or starts: its ``hx-vals`` action, a ``data-jb-send``
    action, its ``data-action-type`` or its ``data-sf-tool`` (an order tool)."""
    if "hx-vals" in attributes:
        try:
            return json.loads(json.loads(attributes["hx-vals"])["action"]).get("type")
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
    if "data-jb-send" in attributes:
        try:
            return json.loads(attributes["data-jb-send"]).get("type")
        except (ValueError, AttributeError):
            return None
    return attributes.get("data-action-type") or attributes.get("data-sf-tool")


def button_labels(board_html: str) -> dict[str, list[str]]:
    """The labels of the board's buttons, by the action type each sends (in page order, distinct)."""
    labels: dict[str, list[str]] = {}
    for attributes_text, inner in _BUTTON.findall(board_html):
        attributes = {m.group(1): html.unescape(m.group(3) if m.group(3) is not None else m.group(4))
                      for m in _ATTRIBUTE.finditer(attributes_text)}
        kind = _action_type(attributes)
        text = " ".join(html.unescape(_TAG.sub(" ", _SMALL.sub(" ", inner))).split())
        if kind and text and text not in labels.setdefault(kind, []):
            labels[kind].append(text)
    return labels


def labelled(hints: dict[str, Any] | None, board_html: str) -> dict[str, Any] | None:
    """``hints`` with each option (and each missing one) named as the board's buttons name it
    (``label``; ``labels``: up to three of them), or by its own words when the board has no button for it."""
    if hints is None:
        return None
    found = button_labels(board_html)

    def name(entry: dict[str, Any]) -> dict[str, Any]:
        labels = found.get(entry["type"]) or [entry.get("label") or entry["type"].replace("_", " ").capitalize()]
        shown = labels[:LABELS_SHOWN]
        return {**entry, "label": " · ".join(shown) + (" …" if len(labels) > LABELS_SHOWN else ""), "labels": shown}

    return {**hints, "options": [name(o) for o in hints["options"]],
            "not_offered": [name(m) for m in hints["not_offered"]]}
