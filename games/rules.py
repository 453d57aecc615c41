"""The rules pages (/rules/<slug>/): each game's "How to play", its whole rule book in the
site's words, and its "House rulings".

The text lives beside each engine, in ``<engine package>/rulings.py``: ``HOW_TO_PLAY``
(paragraphs), ``RULINGS`` (``{id, title, text}``, the id is the ruling's anchor on the page),
optionally ``SCORING`` (one sentence on what scores, also shown with a result),
``OUTCOME_RULINGS`` (outcome code -> the id of the ruling that ended such a game), ``BOOK``
(the rule book's sections: ``{id, title, text, tables?, bullets?, after?, board?}``, a table
``{id, caption, columns, rows: [{id, cells}]}``) and ``board_state()`` with ``BOARD["caption"]``:
the game whose board the section marked ``board`` shows, drawn by the game page's own board
template tag through ``games/<slug>/rules_board.html``.
"""
from __future__ import annotations

import functools
import importlib
import sys
from types import ModuleType
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

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
        "book": [{**_section(section), "map_board": map_picture(slug, section["id"])}
                 for section in getattr(module, "BOOK", ())],
        "board": board_picture(slug) if hasattr(module, "board_state") else None,
    }


def _stacks(table: dict[str, Any]) -> bool:
    """Whether a phone shows the table's rows one under another, each cell with its column's name:
    when it has more than two columns and some cell is long enough to squeeze the others."""
    return len(table["columns"]) > 2 and max(len(cell) for row in table["rows"] for cell in row["cells"]) > 60


def _section(section: dict[str, Any]) -> dict[str, Any]:
    """A section of the book for the template: each table cell with its column's name beside it."""
    tables = [{**table, "stack": _stacks(table),
               "rows": [{"id": row["id"], "cells": [{"column": column, "text": text}
                                                    for column, text in zip(table["columns"], row["cells"])]}
                        for row in table["rows"]]}
              for table in section.get("tables", ())]
    return {**section, "tables": tables}


@functools.lru_cache(maxsize=8)
def board_picture(slug: str) -> SafeString:
    """The board of the game's ``board_state()`` as a spectator sees it on the game page."""
    ruleset = engines.get(slug)
    module = rulings_module(ruleset)
    view = ruleset.view(module.board_state(), None)
    names = [f"Player {seat + 1}" for seat in range(module.BOARD["players"])]
    context = {"view": view, "legal": [], "seat": None, "names": names, "caption": module.BOARD["caption"]}
    return render_to_string(f"games/{slug}/rules_board.html", context)


@functools.lru_cache(maxsize=8)
def map_picture(slug: str, name: str) -> SafeString | None:
    """The garden of a new game on the map ``name`` (a choice of the game's ``map`` option other
    than its default, e.g. Snowball Fighting's Fogbound), drawn as the rules page draws its
    board; None when the game has no such map. Pictured beside the book's part of that name."""
    ruleset = engines.get(slug)
    module = rulings_module(ruleset)
    option = next((o for o in ruleset.options if o.name == "map" and o.kind == "choice"), None)
    if option is None or name == option.default or name not in dict(option.choices) or not hasattr(module, "BOARD"):
        return None
    state = ruleset.new_game(players=module.BOARD["players"], options={"map": name}, seed=module.BOARD["seed"])
    names = [f"Player {seat + 1}" for seat in range(module.BOARD["players"])]
    variant = dict(option.choices)[name].split(":")[0]
    context = {"view": ruleset.view(state, None), "legal": [], "seat": None, "names": names, "figure_id": f"rules-board-{name}",
               "caption": f"{variant}: the garden of a new game, as the game page draws it (without the fog, and "
                          "without the gnomes, which nobody sees until they find them)."}
    return render_to_string(f"games/{slug}/rules_board.html", context)


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
