"""Jingle Bells' house ruling "Turn limit": a game where no snowman loses its head ends when the
actions of turn MAX_TURNS are over, won by the side whose snowman has fewer cold tokens (as many
on both: a draw), with the outcome code ``turn_limit``."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engines.base import IllegalAction, NotYourTurn
from games.engines.jingle_bells import RULESET as R
from games.engines.jingle_bells import rulings
from games.engines.jingle_bells.bot import random_action
from games.engines.jingle_bells.engine import MAX_TURNS
from tests.engines.test_jingle_bells_engine import act, battle, deployed, types

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULING = 'house ruling "Turn limit"'


def on_turn(turn: int, cold: tuple[int, int] = (0, 0), **kw) -> dict:
    """The action phase of turn ``turn``, seat 0 to move, with Paul (seat 0) and Bianca (seat 1)
    holding a Move die each and the snowmen (seat 0's, seat 1's) carrying ``cold``."""
    s = battle({"Paul": [1], "Bianca": [1]}, **kw)
    s["turn"] = turn
    for seat in (0, 1):
        s["pieces"][f"snowman{seat}"]["cold"] = cold[seat]
    return s


def both_pass(s: dict) -> tuple[dict, list[dict]]:
    s, _ = act(s, 0, type="pass")
    return act(s, 1, type="pass")


def test_the_limit_is_far_above_real_games() -> None:
    # the computer players' games: 5 turns at the median, none of 10,000 past turn 21; random
    # play heading forward (the bench's): none of 10,000 past turn 159 (README, ruling 19)
    assert MAX_TURNS >= 300


def test_the_turn_before_the_limit_plays_on() -> None:
    s, events = both_pass(on_turn(MAX_TURNS - 1, cold=(1, 3)))
    assert R.outcome(s) is None and "game_over" not in types(events)
    assert s["phase"] == "dice" and s["turn"] == MAX_TURNS
    assert sorted(R.to_act(s)) == [0, 1]


@pytest.mark.parametrize("cold,winner", [((1, 3), 0), ((3, 0), 1), ((2, 1), 1)])
def test_the_last_turn_ends_the_game_won_by_the_snowman_with_fewer_cold_tokens(cold, winner) -> None:
    s, events = both_pass(on_turn(MAX_TURNS, cold=cold))
    loser = 1 - winner
    assert s["phase"] == "over" and s["turn"] == MAX_TURNS
    assert types(events)[-2:] == ["end_phase", "game_over"]
    assert R.outcome(s) == {
        "code": "turn_limit", "winners": [winner], "losers": [loser], "scores": [cold[1], cold[0]],
        "reason": f"Turn {MAX_TURNS} was the last ({RULING}) and {{p{loser}}}'s snowman has more cold tokens: "
                  f"{cold[loser]} against {{p{winner}}}'s {cold[winner]}.",
    }
    over = events[-1]
    assert over["code"] == "turn_limit" and over["winners"] == [winner] and over["losers"] == [loser]
    assert RULING in over["text"] and over["text"].endswith(f"{{p{winner}}} wins.")
    assert R.to_act(s) == {}
    with pytest.raises(IllegalAction, match="over"):
        act(s, 0, type="pass")


@pytest.mark.parametrize("cold,words", [((0, 0), "no cold tokens"), ((1, 1), "1 cold token"),
                                        ((3, 3), "3 cold tokens")])
def test_as_many_cold_tokens_on_both_snowmen_is_a_draw(cold, words) -> None:
    s, events = both_pass(on_turn(MAX_TURNS, cold=cold))
    assert R.outcome(s) == {
        "code": "turn_limit", "winners": [], "losers": [], "scores": [cold[1], cold[0]],
        "reason": f"Turn {MAX_TURNS} was the last ({RULING}) and both snowmen have {words}: a draw.",
    }
    assert events[-1]["winners"] == [] and events[-1]["text"].endswith("Nobody wins: a draw.")


def test_the_last_turn_also_ends_when_its_last_die_is_used() -> None:
    s = on_turn(MAX_TURNS, cold=(0, 2))
    s, _ = act(s, 0, type="move", character="Paul", die=1, to=[7.0, 3.0])
    assert R.outcome(s) is None
    s, events = act(s, 1, type="move", character="Bianca", die=1, to=[43.0, 3.0])
    assert R.outcome(s)["code"] == "turn_limit" and R.outcome(s)["winners"] == [0]


def test_a_head_knocked_off_in_the_last_turn_is_the_books_ending() -> None:
    s = battle({"Paul": [5]}, {"Paul": [35.0, 15.0]})
    s["turn"] = MAX_TURNS
    s["pieces"]["snowman1"]["cold"] = 3
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="snowman1")
    assert "code" not in R.outcome(s) and R.outcome(s)["winners"] == [0]
    assert types(events).count("game_over") == 1


def test_run_away_characters_do_not_come_back_after_the_last_turn() -> None:
    s = on_turn(MAX_TURNS, cold=(1, 1))
    s["pieces"]["Natasha"].update(pos=None, cold=1)
    s, events = both_pass(s)
    assert s["phase"] == "over" and s["returning"] == [[], []]
    assert R.to_act(s) == {} and R.legal_actions(s, 1) == []


def test_the_outcome_has_the_documented_shape() -> None:
    s, _ = both_pass(on_turn(MAX_TURNS, cold=(2, 1)))
    outcome = R.outcome(s)
    jingle = (DOCS / "jingle-bells.md").read_text()
    row = next(line for line in jingle.splitlines() if line.startswith("| `outcome` |"))
    documented = re.search(r"`\{([^}]*)\}` when the turn limit ended it", row)
    assert documented, row
    assert set(outcome) == {key.strip() for key in documented.group(1).split(",")}
    assert f"`{outcome['code']}`" in row
    api = (DOCS / "api.md").read_text()
    jingle_section = api[api.index("### Jingle Bells"):api.index("### Snowball Fighting")]
    assert "`turn_limit`" in jingle_section and f"turn {MAX_TURNS}" in jingle_section
    assert rulings.OUTCOME_RULINGS[outcome["code"]] == "turn-limit"
    ruling = next(r for r in rulings.RULINGS if r["id"] == "turn-limit")
    assert f"turn {MAX_TURNS}" in ruling["text"] and "draw" in ruling["text"]


def test_the_computer_player_is_asked_nothing_once_the_turn_limit_ends_the_game() -> None:
    s, _ = both_pass(on_turn(MAX_TURNS, cold=(1, 1)))
    for seat in (0, 1):
        with pytest.raises(NotYourTurn):
            R.bot_action(s, seat)
        assert R.view(s, seat)["prompt"] is None


@pytest.mark.parametrize("seed", range(3))
def test_computer_players_play_the_last_turns_to_a_sound_end(seed: int) -> None:
    s = deployed(seed=seed)
    s["turn"] = MAX_TURNS - 1  # the rolls of turn 1 are the rolls of turn MAX_TURNS - 1 now
    while R.outcome(s) is None:
        assert s["turn"] <= MAX_TURNS
        seat = min(R.to_act(s))
        s, _ = R.apply(s, seat, R.bot_action(s, seat))
    outcome = R.outcome(s)
    cold = [s["pieces"][f"snowman{seat}"]["cold"] for seat in (0, 1)]
    if outcome.get("code") == "turn_limit":
        assert s["turn"] == MAX_TURNS and max(cold) < 4
        assert outcome["winners"] == ([] if cold[0] == cold[1] else [cold.index(min(cold))])
    else:
        assert max(cold) == 4


def test_players_who_never_throw_reach_the_limit_and_draw() -> None:
    """The game that went on for ever: both sides only move, use abilities and pass."""
    s = R.new_game(players=2, options={"layout": "park"}, seed=11)
    rng = random.Random(11)
    actions = 0
    while R.outcome(s) is None:
        assert s["turn"] <= MAX_TURNS
        seat = min(R.to_act(s))
        legal = [a for a in R.legal_actions(s, seat) if a["type"] not in ("throw", "set_auto_dodge")
                 and not (a["type"] == "ability" and a["character"] in ("Paul", "Emily"))]
        s, _ = R.apply(s, seat, random_action(legal, s["pieces"], s["obstructions"], rng))
        actions += 1
    assert s["turn"] == MAX_TURNS
    assert R.outcome(s) == {"code": "turn_limit", "winners": [], "losers": [], "scores": [0, 0],
                            "reason": f"Turn {MAX_TURNS} was the last ({RULING}) and both snowmen have "
                                      "no cold tokens: a draw."}
