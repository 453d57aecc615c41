"""The rules pages (/rules/<slug>/): each game's "How to play" and "House rulings".

The text lives beside each engine, in ``<engine package>/rulings.py``: ``HOW_TO_PLAY``
(paragraphs), ``RULINGS`` (``{id, title, text}``, the id is the ruling's anchor on the page),
optionally ``SCORING`` (one sentence on what scores, also shown with a result) and
``OUTCOME_RULINGS`` (outcome code -> the id of the ruling that ended such a game).
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

from django.urls import reverse

from games import engines


def rulings_module(ruleset) -> ModuleType | None:
    """The ``rulings`` module of the package the ruleset's class comes from, if it has one."""
    package = sys.modules[type(ruleset).__module__].__package__
    try:
        return importlib.import_module(f"{package}.rulings")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.rulings":
            raise
        return None


def page(slug: str) -> dict[str, Any]:
    """The rules page's content for ``slug``; KeyError for an unknown game."""
    ruleset = engines.get(slug)
    module = rulings_module(ruleset)
    return {
        "ruleset": ruleset,
        "how_to_play": list(getattr(module, "HOW_TO_PLAY", ())),
        "scoring": getattr(module, "SCORING", ""),
        "rulings": [dict(r) for r in getattr(module, "RULINGS", ())],
    }


def rules_url(slug: str, anchor: str | None = None) -> str:
    url = reverse("rules", args=[slug])
    return f"{url}#{anchor}" if anchor else url


def result_context(ruleset, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """What a result panel adds from the rules: what scores, and the ruling that ended the game."""
    module = rulings_module(ruleset)
    context: dict[str, Any] = {"rules_url": rules_url(ruleset.slug), "scoring_text": getattr(module, "SCORING", ""),
                               "outcome_ruling": None}
    code = (outcome or {}).get("code")
    anchor = getattr(module, "OUTCOME_RULINGS", {}).get(code)
    if anchor:
        ruling = next(r for r in module.RULINGS if r["id"] == anchor)
        context["outcome_ruling"] = {"id": anchor, "title": ruling["title"],
                                     "url": rules_url(ruleset.slug, anchor)}
    return context
