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


def _ended_as_turn_5_was_to_begin():
    """A two-player game whose turn 4 is its last: at the start of turn 5 Ana cannot draw enough."""
    from games.engines.snowball_fight import RULESET
    from tests.engines.test_snowball_fight_helpers import reveal, table

    s = table(hands=(["c05"], ["c01", "c04"]), draw=([], ["c02", "c09", "c10"]), arsenal=(["c07"], ["c08"]))
    s, _ = reveal(s, ("c05", "bottom"), ("c01", "top"))
    s, _ = reveal(s, ("c05", "top"), ("c09", "bottom"))
    assert RULESET.outcome(s)["code"] == "cannot_draw" and s["turn"] == 5
    return RULESET, s


def test_a_game_that_ended_as_a_turn_was_to_begin_is_over_after_the_last_turn_played():
    import re

    from games.selectors.snapshots import log_records, named_outcome

    ruleset, s = _ended_as_turn_5_was_to_begin()
    view = ruleset.view(s, None)
    page = render_to_string("games/snowball-fight/board.html", {"view": view, "seat": None, "legal": [], "prompt": None,
                                                               "names": ["Ana", "Ben"], "version": 1})
    heading = " ".join(re.search(r'<div class="sbf-status">(.*?)</div>', page, re.S)[1].split())
    assert "Game over</span> after turn 4" in heading and "turn 5" not in heading
    assert view["last_reveal"]["turn"] == 4
    reason = named_outcome(ruleset.outcome(s), ["Ana", "Ben"])["reason"]
    assert reason == ("The game ended after turn 4, as turn 5 could not begin: Ana could not draw enough cards; "
                      "the player with the most points wins")
    over = {"seq": 9, "events": [{"type": "game_over", "text": ruleset.outcome(s)["reason"] + ". Scores"}]}
    assert "after turn 4, as turn 5 could not begin: Ana could not" in log_records([over], ["Ana", "Ben"])[0].lines[0]


def test_a_game_that_ended_after_its_last_turn_played_keeps_its_words():
    from games.selectors.results import ended_before_turn

    assert ended_before_turn("All Arsenal piles are empty") == "All Arsenal piles are empty"
    assert ended_before_turn("The game ended at the start of turn 1 because {p0} could not draw a card") == \
        "The game ended before turn 1 could begin: {p0} could not draw a card"


def test_a_seats_points_are_counted_in_words_one_point_or_more_points():
    def badge(points, template="games/snowball-fight/seat_public.html", **context):
        page = render_to_string(template, {"s": {**SEAT, "points": points}, "names": ["Ana", "Ben"], "step": "over",
                                           "waiting_for": [], "you": False, **context})
        return " ".join(page.split())

    assert "1 point<" in badge(1) and "1 pts" not in badge(1)
    assert "7 points<" in badge(7) and "0 points<" in badge(0)
    area = {"a": {"s": {**SEAT, "points": 1, "active": True, "team": None}, "name": "Ana", "you": False}}
    assert "1 point<" in badge(1, "games/snowball-fight/area.html", **area)
    team = render_to_string("games/snowball-fight/team.html", {"t": {"team": 0, "name": "Red", "leader": 0, "points": 1,
                                                                     "members": []}, "names": ["Ana", "Ben"]})
    assert "1 point<" in team and "pts" not in team
