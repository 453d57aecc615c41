"""The end of a Snowball Fight game: what scores (rule book, Scoring) and the house ruling
"Turn limit" (after turn 100 the Arsenal piles count as depleted, and the game ends by the
book's own path), with two players, 3+ players and in teams.
"""
from __future__ import annotations

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from tests.engines.test_snowball_fight_helpers import reveal, table, texts
from tests.engines.test_snowball_fight_table_helpers import (
    finish_prompts,
    play_all,
    play_each,
    public_text,
    ring_table,
    team_table,
)

CACHE = {"alternates": ["weapons-cache:iceball"]}
RULING = 'house ruling "Turn limit"'
LIMIT_TURN = 100  # README, "Turn limit": once turn 100 is over the Arsenal piles count as depleted
LAST_TURN = 200  # ... and a final round still going after turn 200 ends there


def points(cards):
    return sum(C.points_of(c) for c in cards)


def play_defaults(s):
    """Every asked seat plays its default until the game is over; returns state and events."""
    events = []
    while RULESET.outcome(s) is None:
        seat = min(RULESET.to_act(s))
        s, more = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
        events += more
        assert s["turn"] <= LAST_TURN + 1
    return s, events


# --------------------------------------------------------------------------- two players


def test_two_players_turn_100_is_played_with_the_arsenal_open():
    s = table(hands=(["c01", "c03"], ["c02", "c04"]), turn=LIMIT_TURN - 1)
    piles = [list(p) for p in s["arsenal"]]
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    assert s["turn"] == LIMIT_TURN and RULESET.outcome(s) is None
    assert s["arsenal"] == piles and not s["final_round"]
    assert "Turn limit" not in texts(events)


def test_two_players_after_turn_100_the_arsenal_counts_as_depleted_and_the_final_round_starts():
    s = table(hands=(["c01", "c03"], ["c02", "c04"]), turn=LIMIT_TURN)
    piles = [c for p in s["arsenal"] for c in p]
    assert piles
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    log = texts(events)
    assert RULESET.outcome(s) is None and s["turn"] == LIMIT_TURN + 1 and s["final_round"]
    assert f'Turn 100 is over: by the {RULING} the Arsenal piles now count as depleted' in log
    assert "The Arsenal piles count as depleted (turn limit): final round!" in log
    view = RULESET.view(s, 0)
    assert view["final_round"] and all(p["count"] == 0 and p["top"] is None for p in view["arsenal"])
    s, events = play_defaults(s)
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit"
    assert "could not draw enough cards" in result["reason"] and RULING in result["reason"]
    assert "after turn 100" in result["reason"]
    for x in (0, 1):
        assert result["scores"][x] == points(s["draw"][x] + s["discard"][x])
    scored = {i["id"] for rows in result["breakdown"] for i in rows}
    assert not scored & set(piles), "the set-aside Arsenal cards scored"
    assert "Cards in draw piles and discard piles score; cards in a Weapons Cache do not" in texts(events)


def test_two_players_a_final_round_still_going_after_turn_200_ends_there():
    hands = (["c03", "c01"], ["c04", "c02"])
    draws = (["c05", "c07", "c09"], ["c06", "c08", "c10"])
    s = table(hands=hands, draw=draws, arsenal=([], []), final_round=True, turn=LAST_TURN - 1)
    s, _ = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    assert RULESET.outcome(s) is None and s["turn"] == LAST_TURN
    s = table(hands=hands, draw=draws, arsenal=([], []), final_round=True, turn=LAST_TURN)
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit" and "The final round was still going after turn 200" in result["reason"]
    assert "after turn 200" in result["reason"] and RULING in result["reason"]
    assert result["scores"] == [points(s["draw"][x] + s["discard"][x]) for x in (0, 1)]


def test_two_players_a_cached_card_is_listed_but_does_not_score():
    s = table(hands=(["c01"], ["c02"]), draw=([], []), discard=(["c13"], []),
              cache=(["c16"], ["c20"]), arsenal=(["c07"], ["c08"]), options=CACHE)
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    result = RULESET.outcome(s)
    assert result["code"] == "cannot_draw"
    assert result["scores"] == [1 + 2, 1] and result["winners"] == [0]
    assert [i for i in result["breakdown"][1] if i.get("cached")] == [
        {"id": "c20", "card": "Weapons Cache / Backfire", "points": 0, "cached": True,
         "note": "in a Weapons Cache: does not score"}]
    assert [i["id"] for i in result["breakdown"][0] if i.get("cached")] == ["c16"]
    assert [seat["points"] for seat in RULESET.view(s, None)["seats"]] == [3, 1]


# --------------------------------------------------------------------------- 3+ players


def ring_hands():
    return [["c01", "c03"], ["c02", "c04"], ["c01b", "c03b"]]


RING_DODGES = {0: (("c01", "bottom"), ("c03", "top")), 1: (("c04", "top"), ("c02", "bottom")),
               2: (("c03b", "top"), ("c01b", "bottom"))}


def test_three_players_turn_100_is_played_with_the_arsenal_open():
    s = ring_table(3, hands=ring_hands(), discard=[["c07b"], [], []], turn=LIMIT_TURN - 1)
    piles = [list(p) for p in s["arsenal"]]
    s, events = play_all(s, RING_DODGES)
    assert RULESET.outcome(s) is None and s["turn"] == LIMIT_TURN and s["arsenal"] == piles
    assert "Turn limit" not in public_text(events)


def test_three_players_after_turn_100_the_game_ends_as_if_the_arsenal_were_empty():
    s = ring_table(3, hands=ring_hands(), discard=[["c07b"], [], []], turn=LIMIT_TURN)
    piles = [c for p in s["arsenal"] for c in p]
    s, events = play_all(s, RING_DODGES)
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit" and result["tiebreak"] is None
    assert result["reason"] == f'The Arsenal piles counted as depleted after turn 100 ({RULING})'
    assert result["scores"] == [5 + 2, 5, 5] and result["winners"] == [0]
    assert set(piles) <= set(s["set_aside"])
    assert f"by the {RULING} the Arsenal piles now count as depleted" in public_text(events)


def test_three_players_a_tie_at_the_turn_limit_plays_the_books_final_round():
    s = ring_table(3, hands=ring_hands(), discard=[["c07b"], ["c08b"], []], turn=LIMIT_TURN)
    s, events = play_all(s, RING_DODGES)
    assert RULESET.outcome(s) is None and s["tiebreak"] == {"tied": [0, 1], "scores": [7, 7, 5]}
    assert "{p0} and {p1} are tied on 7 points: they play a final round" in public_text(events)
    assert set(RULESET.to_act(s)) == {0, 1}
    s, events = play_defaults(s)
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit" and RULING in result["reason"]
    assert "tie-break's final round" in result["reason"]
    assert result["tiebreak"] == {"tied": [0, 1], "scores": [7, 7, 5]}
    assert set(result["winners"]) <= {0, 1}


def test_three_players_a_tie_break_still_going_after_turn_200_ends_there():
    def tied(turn):
        s = ring_table(3, hands=[["c01", "c03"], ["c02", "c04"], []], turn=turn,
                       draw=[["c05", "c07", "c09"], ["c06", "c08", "c10"], ["c13"]])
        s.update(tiebreak={"tied": [0, 1], "scores": [5, 5, 1]}, active=[0, 1], final_round=True,
                 arsenal=[[], [], []])
        s["locked"] = [False, False, True]
        return play_all(s, {0: (("c03", "top"), ("c01", "bottom")), 1: (("c04", "top"), ("c02", "bottom"))})

    s, _ = tied(LAST_TURN - 1)
    assert RULESET.outcome(s) is None and s["turn"] == LAST_TURN
    s, _ = tied(LAST_TURN)
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit" and "The final round was still going after turn 200" in result["reason"]
    assert result["tiebreak"] == {"tied": [0, 1], "scores": [5, 5, 1]}


def test_three_players_a_cached_card_does_not_score():
    s = ring_table(3, hands=ring_hands(), discard=[["c07b"], [], []], arsenal=[[], [], []], options=CACHE)
    s["cache"][1] = ["c20"]
    s, events = play_all(s, RING_DODGES)
    result = RULESET.outcome(s)
    assert result["code"] == "arsenal_empty"
    assert result["scores"] == [7, 5, 5] and result["winners"] == [0]
    assert {"id": "c20", "card": "Weapons Cache / Backfire", "points": 0, "cached": True,
            "note": "in a Weapons Cache: does not score"} in result["breakdown"][1]
    assert "cards in a Weapons Cache do not: {p0} 7, {p1} 5, {p2} 5" in public_text(events)


# --------------------------------------------------------------------------- teams


TEAM_HANDS = [["c01", "c03"], ["c02", "c04"], ["c01b", "c03b"], ["c02b", "c04b"]]
TEAM_DODGES = {0: ("c03", "top"), 1: ("c04", "top"), 2: ("c03b", "top"), 3: ("c04b", "top")}


def test_teams_turn_100_is_played_with_the_arsenal_open():
    s = team_table([0, 1, 0, 1], hands=TEAM_HANDS, turn=LIMIT_TURN - 1)
    s, events = play_each(s, TEAM_DODGES)
    s, _ = finish_prompts(s)
    assert RULESET.outcome(s) is None and s["turn"] == LIMIT_TURN and any(s["arsenal"])


def test_teams_after_turn_100_the_game_ends_and_the_teams_are_scored():
    s = team_table([0, 1, 0, 1], hands=TEAM_HANDS, turn=LIMIT_TURN)
    s, events = play_each(s, TEAM_DODGES)
    s, _ = finish_prompts(s)
    result = RULESET.outcome(s)
    assert result["code"] == "turn_limit"
    assert result["reason"] == f'The Arsenal piles counted as depleted after turn 100 ({RULING})'
    # each member: two cards played or put down this turn, two left in the own pile
    assert result["team_scores"] == [8, 8] and result["winners"] == [0, 1, 2, 3]
    assert "Team scores: Red team ({p0}, {p2}) 8, Blue team ({p1}, {p3}) 8" in public_text(events)


def test_teams_a_cached_card_does_not_score():
    s = team_table([0, 1, 0, 1], hands=TEAM_HANDS, arsenal=[[], [], [], []], options=CACHE)
    s["cache"][2] = ["c20"]
    s, events = play_each(s, TEAM_DODGES)
    result = RULESET.outcome(s)
    assert result["code"] == "arsenal_empty" and result["team_scores"] == [8, 8]
    cached = [i for i in result["breakdown"][0] if i.get("cached")]
    assert cached == [{"id": "c20", "card": "Weapons Cache / Backfire", "points": 0, "cached": True,
                       "note": "in a Weapons Cache: does not score"}]
    assert "cards in a Weapons Cache do not. Team scores" in public_text(events)
