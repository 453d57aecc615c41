"""Snowball Fight's board once the game is over says nothing of turns to come: no badge of a
draw to show next turn, and a game that ended in its draft says so, not "after turn 0"."""
from __future__ import annotations

from django.template.loader import render_to_string

SEAT = {"seat": 1, "hand_count": 0, "hand": None, "draw_count": 3, "discard": [], "discard_count": 0, "cache": [],
        "draws_next": 1, "chosen": False, "locked": False, "shows_hand_to": [], "must_show_next_draw_to": [0],
        "card_count": 8, "points": None}


def _seat(step: str) -> str:
    return render_to_string("games/snowball-fight/seat_public.html",
                            {"s": SEAT, "names": ["Ana", "Ben"], "step": step, "waiting_for": [], "you": False})


def test_a_draw_to_show_next_turn_is_a_badge_only_while_there_is_a_next_turn():
    assert "must show next draw" in _seat("choose") and "draws 1 next turn" in _seat("choose")
    assert "must show next draw" not in _seat("over") and "draws 1 next turn" not in _seat("over")
