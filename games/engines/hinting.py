"""Hints for a first-time player, built from what an engine offers a seat now.

Each engine's ``hints`` module says, per action type, what the action does and which part of the
rules page (an anchor of /rules/<slug>/) explains it, and may say why a kind of action is not
offered; :func:`build` turns that and the seat's prompt and legal actions into the hint panel's
content. Pure: no Django.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

Explained = dict[str, tuple[str, str]]  # action type -> (what it does, rules anchor)


def build(*, prompt: dict[str, Any] | None, legal_actions: list[dict[str, Any]], explained: Explained,
          not_offered: list[dict[str, str]] = (), labels: dict[str, str] | None = None) -> dict[str, Any] | None:
    """The hints for one seat: what its prompt asks, what each offered kind of action does (with how
    many choices of it there are), and why some kinds are not offered; None when nothing is asked.
    ``labels`` names the kinds that no button of the page names (the page names the others)."""
    if prompt is None:
        return None
    labels = labels or {}
    counts = Counter(a.get("type") for a in legal_actions if isinstance(a, dict))
    options = []
    for kind, count in counts.items():
        does, anchor = explained.get(kind, ("One of the moves the rules allow here.", ""))
        options.append({"type": kind, "count": count, "does": does, "rule": anchor,
                        **({"label": labels[kind]} if kind in labels else {})})
    missing = [{**m, "label": labels[m["type"]]} if m["type"] in labels and "label" not in m else dict(m)
               for m in not_offered]
    return {"asks": prompt.get("text", ""), "options": options, "not_offered": missing}
