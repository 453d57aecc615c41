"""The six character cards: die faces, cold limits and Action text.

``CARDS_DATA`` is a verbatim copy of ``/work/shared/data/jingle_bells_characters.json``
(the reconstruction the project's rulings make binding), kept here as Python data so the
engine never reads files at run time. ``ACTION_TEXT`` is the card text from the rule book.
"""
from __future__ import annotations

from typing import Any

CARDS_DATA: dict[str, Any] = {
    "_status": "RECONSTRUCTION - original card icons and scarf numbers not recovered",
    "actions": {"T": "throw", "M": "move", "D": "dodge (reactive only)", "MM": "move twice", "TT": "throw twice"},
    "snowman": {"cold_limit": 4},
    "characters": {
        "Stephen": {"faces": {"1": "M", "2": "D", "3": "T", "4": "M", "5": "D", "6": "T"}, "cold_limit": 3},
        "Paul": {"faces": {"1": "M", "2": "D", "3": "M", "4": "T", "5": "T", "6": "T"}, "cold_limit": 3},
        "Robert": {"faces": {"1": "M", "2": "D", "3": "D", "4": "M", "5": "T", "6": "D"}, "cold_limit": 4},
        "Bianca": {"faces": {"1": "M", "2": "T", "3": "D", "4": "M", "5": "T", "6": "MM"}, "cold_limit": 3},
        "Natasha": {"faces": {"1": "MM", "2": "M", "3": "D", "4": "T", "5": "D", "6": "T"}, "cold_limit": 3},
        "Emily": {"faces": {"1": "M", "2": "MM", "3": "D", "4": "M", "5": "T", "6": "T"}, "cold_limit": 2},
    },
}

ACTION_TEXT: dict[str, str] = {
    "Robert": "Action: You may discard a die of any value to take a hit that would hit a team-mate "
    "or snowman within 1 move.",
    "Stephen": "Action: When using a die you may treat it as having a value one higher or one lower "
    "than its face value.",
    "Bianca": "Action: You may use a die of any value to force any single character within 1 move "
    "to re-roll all their remaining dice.",
    "Natasha": "Action: You may use a die of any value to swap places with a team-mate within 1 move.",
    "Paul": "Action: You may spend two dice with a value of 4 or 5 simultaneously to score two hits "
    "on a single target.",
    "Emily": "Action: You may use a die of any value to score two hits on a snowman within 1 move.",
}

NAMES: tuple[str, ...] = ("Stephen", "Paul", "Robert", "Bianca", "Natasha", "Emily")
FACE_WORDS: dict[str, str] = CARDS_DATA["actions"]
SNOWMAN_COLD_LIMIT: int = CARDS_DATA["snowman"]["cold_limit"]


def face(name: str, value: int) -> str:
    """The symbol ("M", "T", "D", "MM", "TT") on ``name``'s card for a die showing ``value``."""
    return CARDS_DATA["characters"][name]["faces"][str(value)]


def cold_limit(name: str) -> int:
    return CARDS_DATA["characters"][name]["cold_limit"]


def card(name: str) -> dict[str, Any]:
    """Everything the card shows, JSON-safe, for views."""
    faces = CARDS_DATA["characters"][name]["faces"]
    return {
        "name": name,
        "faces": dict(faces),
        "face_words": {value: FACE_WORDS[symbol] for value, symbol in faces.items()},
        "cold_limit": cold_limit(name),
        "action": ACTION_TEXT[name],
    }
