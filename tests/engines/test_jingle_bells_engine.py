"""Jingle Bells rule engine: draft, setup, dice, every character's faces and Action, reactions, end phase."""
from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.jingle_bells import RULESET, line_of_sight
from games.engines.jingle_bells import characters as cards
from games.engines.jingle_bells import layouts
from games.engines.jingle_bells.engine import auto_deployment
from games.engines.jingle_bells.geometry import (
    TOLERANCE,
    circle_inside_rect,
    circle_overlaps_polygon,
    is_convex,
    obstacle,
    rectangle,
)
from tests.shared_data import shared_path

MOVE_DISTANCE = 8.9  # RULINGS, Jingle Bells 1: a playing card's long edge, in cm
SNOWBALL_DISTANCE = 17.8  # ... and a 5 x 7 inch card's height

R = RULESET
TEAMS = (("Paul", "Robert", "Stephen"), ("Bianca", "Natasha", "Emily"))
HOME = {
    "snowman0": [3.0, 15.0], "Paul": [6.0, 3.0], "Robert": [6.0, 9.0], "Stephen": [6.0, 21.0],
    "snowman1": [47.0, 15.0], "Bianca": [44.0, 3.0], "Natasha": [44.0, 9.0], "Emily": [44.0, 21.0],
}


def drafted(seed: int = 1, teams: tuple[tuple[str, ...], tuple[str, ...]] = TEAMS, layout: str = "street") -> dict:
    """A game after the draft, seat 0 holding ``teams[0]`` whoever picked first."""
    s = R.new_game(players=2, options={"layout": layout}, seed=seed)
    wanted = [list(teams[0]), list(teams[1])]
    while s["phase"] == "draft":
        seat = s["picker"]
        s, _ = R.apply(s, seat, {"type": "pick", "character": wanted[seat].pop(0)})
    return s


def deployed(seed: int = 1, teams: tuple[tuple[str, ...], tuple[str, ...]] = TEAMS) -> dict:
    """A game at the start of turn 1, set up with the engine's example deployments."""
    s = drafted(seed, teams)
    while s["phase"] == "deploy":
        seat = s["deploying"]
        s, _ = R.apply(s, seat, auto_deployment(s, seat))
    return s


def battle(
    dice: dict[str, list[int]],
    at: dict[str, list[float]] | None = None,
    *,
    to_move: int = 0,
    obstructions: list[dict] = (),
    teams: tuple[tuple[str, ...], tuple[str, ...]] = TEAMS,
) -> dict:
    """A state in the action phase with the given dice on cards and pieces where asked (else at HOME)."""
    s = copy.deepcopy(deployed(teams=teams))
    s["obstructions"] = [obstacle(o["points"], id=o.get("id", f"t{i}"), label=o.get("label", "box"))
                         for i, o in enumerate(obstructions)]
    spots = {**HOME, **(at or {})}
    for pid, piece in s["pieces"].items():
        piece["pos"] = list(spots[pid])
        piece["dice"] = list(dice.get(pid, []))
    for seat in (0, 1):
        allocation = {name: sorted(dice.get(name, [])) for name in s["teams"][seat]}
        s["dice"][seat] = {"rolled": sorted(v for a in allocation.values() for v in a), "rerolled": True,
                           "stage": "revealed", "allocation": allocation}
    s.update(phase="actions", first_actor=to_move, to_move=to_move, passes=0, pending=None, followup=None)
    return s


def act(s: dict, seat: int, **action: Any) -> tuple[dict, list[dict]]:
    return R.apply(s, seat, action)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def all_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from all_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_keys(item)


# --- creation, draft, setup ---------------------------------------------------------------

def test_ruleset_description() -> None:
    assert R.slug == "jingle-bells"
    assert (R.min_players, R.max_players) == (2, 2)
    layout = next(o for o in R.options if o.name == "layout")
    assert layout.kind == "choice" and "random" in dict(layout.choices)


def test_new_game_is_json_safe_and_views_hide_the_generator() -> None:
    s = R.new_game(players=2, options={}, seed=42)
    assert json.loads(json.dumps(s)) == s
    for seat in (0, 1, None):
        keys = set(all_keys(R.view(s, seat)))
        assert "seed" not in keys and "rng_counter" not in keys


def test_new_game_refuses_bad_options() -> None:
    with pytest.raises(BadAction, match="layout"):
        R.new_game(players=2, options={"layout": "moon"}, seed=1)
    with pytest.raises(BadAction, match="2 players"):
        R.new_game(players=3, options={}, seed=1)


@pytest.mark.parametrize("name", [*layouts.PRESETS, *(f"random-{seed}" for seed in range(25))])
def test_layouts_have_six_to_eight_convex_obstructions_clear_of_the_setup_strips(name: str) -> None:
    if name.startswith("random"):
        s = R.new_game(players=2, options={"layout": "random"}, seed=int(name.split("-")[1]))
    else:
        s = R.new_game(players=2, options={"layout": name}, seed=0)
    obstructions = s["obstructions"]
    assert 6 <= len(obstructions) <= 8
    for o in obstructions:
        assert is_convex(o["points"])
        x0, y0, x1, y1 = o["box"]
        # README: a 50 x 30 cm table (RULINGS 1) with 10 cm strips at both short edges kept clear
        assert x0 >= 10 - TOLERANCE and x1 <= 50 - 10 + TOLERANCE
        assert y0 >= -TOLERANCE and y1 <= 30 + TOLERANCE


def test_random_layout_follows_the_seed() -> None:
    def points(seed: int) -> list:
        return [o["points"] for o in R.new_game(players=2, options={"layout": "random"}, seed=seed)["obstructions"]]

    assert points(5) == points(5)
    assert points(5) != points(6)


def test_draft_alternates_and_the_view_shows_every_card() -> None:
    s = R.new_game(players=2, options={}, seed=3)
    first = s["first_picker"]
    view = R.view(s, None)
    for name in cards.NAMES:
        card = view["cards"][name]
        assert card["faces"] == cards.CARDS_DATA["characters"][name]["faces"]
        assert card["cold_limit"] == cards.CARDS_DATA["characters"][name]["cold_limit"]
        assert card["action"].startswith("Action:")
    assert list(R.to_act(s)) == [first]
    with pytest.raises(NotYourTurn):
        act(s, 1 - first, type="pick", character="Paul")
    s, events = act(s, first, type="pick", character="Paul")
    assert events[0]["text"] == "{p%d} picks Paul." % first
    with pytest.raises(IllegalAction, match="already been picked"):
        act(s, 1 - first, type="pick", character="Paul")
    with pytest.raises(IllegalAction, match="no character called"):
        act(s, 1 - first, type="pick", character="Rudolph")
    seats = [first]
    for name in ("Emily", "Robert", "Bianca", "Stephen", "Natasha"):
        seat = s["picker"]
        seats.append(seat)
        s, _ = act(s, seat, type="pick", character=name)
    assert seats == [first, 1 - first] * 3
    assert s["phase"] == "deploy" and s["deploying"] == first


def test_characters_data_matches_the_shared_reconstruction() -> None:
    shared = json.loads(shared_path("data", "jingle_bells_characters.json").read_text())
    assert shared == cards.CARDS_DATA


def test_deploy_rules() -> None:
    s = drafted()
    seat = s["deploying"]
    good = auto_deployment(s, seat)
    team = s["teams"][seat]
    edge = 0.0 if seat == 0 else 50.0
    far = [abs(edge - 10.0), 15.0]
    with pytest.raises(IllegalAction, match="within 1 Move"):
        act(s, seat, type="deploy", snowman=far, characters=good["characters"])
    loose = dict(good["characters"], **{team[0]: [good["snowman"][0], good["snowman"][1] + 3.5]})
    with pytest.raises(IllegalAction, match=f"{team[0]} must touch the snowman"):
        act(s, seat, type="deploy", snowman=good["snowman"], characters=loose)
    stacked = dict(good["characters"], **{team[1]: good["characters"][team[0]]})
    with pytest.raises(IllegalAction, match="would overlap"):
        act(s, seat, type="deploy", snowman=good["snowman"], characters=stacked)
    with pytest.raises(BadAction, match="characters"):
        act(s, seat, type="deploy", snowman=good["snowman"], characters={team[0]: [1, 1]})
    with pytest.raises(BadAction, match="point"):
        act(s, seat, type="deploy", snowman=[float("nan"), 3], characters=good["characters"])
    s, events = R.apply(s, seat, good)
    assert s["deploying"] == 1 - seat and events[0]["type"] == "deploy"
    s, events = R.apply(s, 1 - seat, auto_deployment(s, 1 - seat))
    assert s["phase"] == "dice" and s["turn"] == 1
    assert [len(d["rolled"]) for d in s["dice"]] == [6, 6]


@pytest.mark.parametrize("layout", [*layouts.PRESETS, "random"])
def test_example_deployments_are_legal_on_every_layout(layout: str) -> None:
    for seed in range(5):
        s = drafted(seed, layout=layout)
        for _ in range(2):
            seat = s["deploying"] if s["phase"] == "deploy" else None
            s, _ = R.apply(s, seat, R.to_act(s)[seat].default)
        assert s["phase"] == "dice"


# --- dice -------------------------------------------------------------------------------------

def test_reroll_once_then_allocate_sealed_then_reveal_together() -> None:
    s = deployed()
    rolled = s["dice"][0]["rolled"]
    with pytest.raises(IllegalAction, match="cannot re-roll"):
        act(s, 0, type="reroll", dice=[7 - v for v in rolled] + [1])
    s, events = act(s, 0, type="reroll", dice=rolled[:2])
    assert events[0]["rerolled"] == sorted(rolled[:2]) and len(s["dice"][0]["rolled"]) == 6
    with pytest.raises(IllegalAction, match="cannot reroll"):
        act(s, 0, type="reroll", dice=[])
    mine = s["dice"][0]["rolled"]
    allocation = {"Paul": mine[0:2], "Robert": mine[2:4], "Stephen": mine[4:6]}
    s, events = act(s, 0, type="allocate", allocation=allocation)
    private = [e for e in events if e["type"] == "allocate"]
    assert private[0]["visible_to"] == [0]
    assert all("allocation" not in e for e in events if "visible_to" not in e)
    for viewer in (1, None):
        assert R.view(s, viewer)["dice"][0]["allocation"] is None
        assert R.view(s, viewer)["dice"][0]["has_allocation"] is True
    assert R.view(s, 0)["dice"][0]["allocation"] == allocation
    s, _ = act(s, 0, type="lock")
    assert set(R.to_act(s)) == {1}
    theirs = s["dice"][1]["rolled"]
    s, events = act(s, 1, type="allocate", allocation={"Bianca": theirs[0:2], "Natasha": theirs[2:4],
                                                       "Emily": theirs[4:6]}, lock=True)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["allocations"][0] == allocation
    assert s["phase"] == "actions"
    assert R.view(s, 1)["dice"][0]["allocation"] == allocation
    assert s["pieces"]["Paul"]["dice"] == sorted(mine[0:2])


def test_a_revised_allocation_is_nobody_elses_to_count() -> None:
    """The table hears once that a seat has chosen; revising it behind the screen tells the
    opponent and the spectators nothing (neither a log line nor any other change of their view)."""
    s = deployed()
    s, _ = act(s, 0, type="reroll", dice=[])
    mine = s["dice"][0]["rolled"]
    first = {"Paul": mine[0:2], "Robert": mine[2:4], "Stephen": mine[4:6]}
    s, events = act(s, 0, type="allocate", allocation=first)
    assert [e["text"] for e in events if e.get("visible_to") is None] == ["{p0} has chosen an allocation."]
    seen = {viewer: R.view(s, viewer) for viewer in (1, None)}
    s, events = act(s, 0, type="allocate", allocation={"Paul": mine[4:6], "Robert": mine[0:2], "Stephen": mine[2:4]})
    assert [e for e in events if e.get("visible_to") is None] == []
    assert {viewer: R.view(s, viewer) for viewer in (1, None)} == seen


def test_allocation_must_use_exactly_the_rolled_dice() -> None:
    s = deployed()
    rolled = s["dice"][0]["rolled"]
    wrong = [rolled[0] % 6 + 1] + rolled[1:]
    with pytest.raises(IllegalAction, match="your dice show"):
        act(s, 0, type="allocate", allocation={"Paul": wrong[0:2], "Robert": wrong[2:4], "Stephen": wrong[4:6]})
    with pytest.raises(IllegalAction, match="exactly two dice"):
        act(s, 0, type="allocate", allocation={"Paul": rolled[0:3], "Robert": rolled[3:4], "Stephen": rolled[4:6]})
    with pytest.raises(BadAction, match="allocation"):
        act(s, 0, type="allocate", allocation={"Paul": rolled[0:2]})
    with pytest.raises(IllegalAction, match="cannot lock now"):
        act(s, 0, type="lock")
    s, _ = act(s, 0, type="reroll", dice=[])
    with pytest.raises(IllegalAction, match="Allocate your dice before locking"):
        act(s, 0, type="lock")


def _to_reveal(s: dict, first: list[int], second: list[int]) -> tuple[dict, list[dict]]:
    s = copy.deepcopy(s)
    s["dice"][0]["rolled"], s["dice"][1]["rolled"] = sorted(first), sorted(second)
    s, _ = act(s, 0, type="allocate", allocation={"Paul": first[0:2], "Robert": first[2:4], "Stephen": first[4:6]},
               lock=True)
    return act(s, 1, type="allocate", allocation={"Bianca": second[0:2], "Natasha": second[2:4],
                                                  "Emily": second[4:6]}, lock=True)


def test_lowest_total_acts_first_and_ties_roll_off() -> None:
    s = deployed()
    after, events = _to_reveal(s, [6, 6, 6, 6, 6, 6], [1, 1, 1, 1, 1, 2])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["totals"] == [36, 7] and reveal["first"] == 1 and reveal["rolloff"] == []
    assert after["to_move"] == 1
    after, events = _to_reveal(s, [1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["rolloff"] and reveal["rolloff"][-1][0] != reveal["rolloff"][-1][1]
    winner = 0 if reveal["rolloff"][-1][0] > reveal["rolloff"][-1][1] else 1
    assert reveal["first"] == winner == after["to_move"]


# --- every character's faces --------------------------------------------------------------------

IN_RANGE = {  # seat 0 character at (20, 15); enemy character Bianca 10 cm away; clear line
    "Paul": [20.0, 15.0], "Robert": [20.0, 25.0], "Stephen": [20.0, 5.0], "Bianca": [30.0, 15.0],
    "Natasha": [40.0, 25.0], "Emily": [40.0, 5.0],
}
FACE_CASES = [(name, value) for name in cards.NAMES for value in range(1, 7)]


@pytest.mark.parametrize(("name", "value"), FACE_CASES)
def test_each_face_does_what_the_card_says(name: str, value: int) -> None:
    mine = (name, "Robert", "Stephen") if name not in ("Robert", "Stephen") else (name, "Paul", "Emily")
    theirs = tuple(n for n in cards.NAMES if n not in mine)
    target = theirs[0]
    at = {mine[0]: [20.0, 15.0], mine[1]: [20.0, 27.0], mine[2]: [20.0, 3.0], target: [30.0, 15.0],
          theirs[1]: [40.0, 27.0], theirs[2]: [40.0, 3.0]}
    s = battle({name: [value]}, at, teams=(mine, theirs))
    symbol = cards.face(name, value)
    throws = [a for a in R.legal_actions(s, 0) if a["type"] == "throw" and "as" not in a]
    moves = [a for a in R.legal_actions(s, 0) if a["type"] == "move" and "as" not in a]
    assert bool(throws) == (symbol in ("T", "TT"))
    assert bool(moves) == (symbol in ("M", "MM"))
    throw = {"type": "throw", "character": name, "die": value, "target": target}
    move = {"type": "move", "character": name, "die": value, "to": [22.0, 15.0]}
    if symbol in ("T", "TT"):
        after, events = R.apply(s, 0, throw)
        assert "throw" in types(events) and value not in after["pieces"][name]["dice"]
        with pytest.raises(IllegalAction, match="not move"):
            R.apply(s, 0, move)
    elif symbol in ("M", "MM"):
        after, events = R.apply(s, 0, move)
        assert after["pieces"][name]["pos"] == [22.0, 15.0]
        with pytest.raises(IllegalAction, match="not throw"):
            R.apply(s, 0, throw)
    else:
        for action in (throw, move):
            with pytest.raises(IllegalAction, match="dodge"):
                R.apply(s, 0, action)


# --- throwing -----------------------------------------------------------------------------------

def test_throw_out_of_range_says_how_far() -> None:
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0], "Bianca": [39.3, 15.0]})
    with pytest.raises(IllegalAction, match=r"^Bianca is 19.3 cm from Paul; Snowball distance is 17.8 cm.$"):
        act(s, 0, type="throw", character="Paul", die=5, target="Bianca")


def test_throw_exactly_at_snowball_distance_is_allowed() -> None:
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0], "Bianca": [20.0 + SNOWBALL_DISTANCE + TOLERANCE / 2, 15.0]})
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    assert events[0]["distance"] == pytest.approx(SNOWBALL_DISTANCE, abs=TOLERANCE)


@pytest.mark.parametrize(("beyond", "offered"), [(TOLERANCE / 2, True), (2 * TOLERANCE, False)])
def test_the_throws_offered_use_the_same_tolerance_as_the_throw_itself(beyond: float, offered: bool) -> None:
    """A target the rules let Paul hit is among the legal actions a page or bot is shown, and
    one out of reach is not."""
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0], "Bianca": [20.0 + SNOWBALL_DISTANCE + beyond, 15.0]})
    throws_at_bianca = [a for a in R.legal_actions(s, 0)
                        if a["type"] == "throw" and a["character"] == "Paul" and a["target"] == "Bianca"]
    assert bool(throws_at_bianca) == offered
    if offered:
        act(s, 0, **throws_at_bianca[0])


@pytest.mark.parametrize(
    ("blocker", "words"),
    [
        ({"obstructions": [{"id": "o9", "label": "shed", "points": rectangle(24, 13, 26, 17)}]}, "the shed (o9)"),
        ({"at": {"Robert": [25.0, 15.5]}}, "{p0}'s Robert"),
        ({"at": {"Natasha": [25.0, 14.0]}}, "{p1}'s Natasha"),
        ({"at": {"snowman1": [25.0, 15.0]}}, "{p1}'s snowman"),
    ],
)
def test_throw_blocked_names_what_is_in_the_way(blocker: dict, words: str) -> None:
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0], **blocker.get("at", {})},
               obstructions=blocker.get("obstructions", []))
    with pytest.raises(IllegalAction) as err:
        act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    assert str(err.value) == f"Paul cannot see Bianca: {words} is in the way."


def test_a_base_grazing_the_line_does_not_block() -> None:
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0], "Robert": [25.0, 16.25]})
    assert line_of_sight(s, "Paul", "Bianca")["clear"]
    act(s, 0, type="throw", character="Paul", die=5, target="Bianca")


def test_cannot_throw_at_own_side_or_a_runaway() -> None:
    s = battle({"Paul": [5]}, {"Paul": [20.0, 15.0]})
    with pytest.raises(IllegalAction, match="your side"):
        act(s, 0, type="throw", character="Paul", die=5, target="Robert")
    s["pieces"]["Bianca"]["pos"] = None
    with pytest.raises(IllegalAction, match="run away"):
        act(s, 0, type="throw", character="Paul", die=5, target="Bianca")


def test_hits_add_cold_and_the_limit_sends_a_character_running() -> None:
    s = battle({"Paul": [5, 6], "Bianca": [1, 4]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s["pieces"]["Bianca"]["cold"] = 1
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    hit = next(e for e in events if e["type"] == "hit")
    assert (hit["cold"], hit["cold_limit"]) == (2, 3)
    assert s["to_move"] == 1
    s, _ = act(s, 1, type="pass")
    s, events = act(s, 0, type="throw", character="Paul", die=6, target="Bianca")
    assert "run_away" in types(events)
    assert s["pieces"]["Bianca"]["pos"] is None and s["pieces"]["Bianca"]["dice"] == []
    assert next(e for e in events if e["type"] == "run_away")["lost_dice"] == [1, 4]


# --- reactions ------------------------------------------------------------------------------------

def test_target_with_a_dodge_die_is_asked_and_can_dodge() -> None:
    s = battle({"Paul": [5], "Bianca": [3, 5]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    prompts = R.to_act(s)
    assert list(prompts) == [1]
    prompt = prompts[1]
    assert prompt.kind == "reaction" and prompt.timeout == 15
    assert prompt.default == {"type": "react", "choice": "take"}
    assert {"type": "react", "choice": "dodge", "die": 3} in R.legal_actions(s, 1)
    with pytest.raises(NotYourTurn):
        act(s, 0, type="pass")
    with pytest.raises(IllegalAction, match="cannot dodge with a 5"):
        act(s, 1, type="react", choice="dodge", die=5)
    s, events = act(s, 1, type="react", choice="dodge", die=3)
    assert types(events) == ["dodge"] and s["pieces"]["Bianca"]["cold"] == 0
    assert s["pieces"]["Bianca"]["dice"] == [5] and s["to_move"] == 1


def test_target_may_take_the_hit_to_keep_the_die() -> None:
    s = battle({"Paul": [5], "Bianca": [1, 3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, _ = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    s, events = act(s, 1, type="react", choice="take")
    assert types(events) == ["hit"] and s["pieces"]["Bianca"]["dice"] == [1, 3]


def test_no_prompt_when_the_target_cannot_react() -> None:
    s = battle({"Paul": [5], "Bianca": [5]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    assert types(events)[:2] == ["throw", "hit"] and s["pending"] is None


def test_automatic_dodge_setting_skips_the_prompt() -> None:
    s = battle({"Paul": [5], "Bianca": [3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, events = act(s, 1, type="set_auto_dodge", on=True)
    assert events == [] and s["to_move"] == 0  # a setting, not a game event: no log line
    assert R.view(s, 1)["auto_dodge"] is True and R.view(s, 0)["auto_dodge"] is False
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    dodge = next(e for e in events if e["type"] == "dodge")
    assert dodge["auto"] and s["pending"] is None and s["pieces"]["Bianca"]["cold"] == 0


def test_switching_automatic_dodge_writes_no_log_line_and_stays_private() -> None:
    """Each flip of the setting changes the seat's own checkbox and nothing else: no event for
    anyone's log (not even its own), so the engine calls it private."""
    s = battle({"Paul": [5], "Bianca": [3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    for seat, on in ((1, True), (1, False), (0, True), (0, False)):
        before = s
        s, events = act(s, seat, type="set_auto_dodge", on=on)
        assert events == [], events
        assert R.private_action(before, s, seat, {"type": "set_auto_dodge", "on": on}, events)
        assert R.view(s, seat)["auto_dodge"] is on
        for viewer in (1 - seat, None):
            assert R.view(s, viewer) == R.view(before, viewer)


def test_switching_automatic_dodge_on_answers_a_waiting_prompt() -> None:
    s = battle({"Paul": [5], "Bianca": [3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, _ = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    assert s["pending"] is not None
    s, events = act(s, 1, type="set_auto_dodge", on=True)
    assert "dodge" in types(events) and s["pending"] is None


def test_robert_takes_the_hit_for_a_team_mate_within_one_move() -> None:
    s = battle({"Bianca": [5], "Robert": [1]}, {"Bianca": [30.0, 15.0], "Paul": [20.0, 15.0],
                                                "Robert": [20.0 - MOVE_DISTANCE, 15.0]}, to_move=1)
    s, _ = act(s, 1, type="throw", character="Bianca", die=5, target="Paul")
    assert {"type": "react", "choice": "intercept", "die": 1} in R.legal_actions(s, 0)
    assert "Robert" in R.to_act(s)[0].text
    s, events = act(s, 0, type="react", choice="intercept", die=1)
    assert types(events)[:2] == ["intercept", "hit"]
    assert s["pieces"]["Robert"]["cold"] == 1 and s["pieces"]["Paul"]["cold"] == 0
    assert events[1]["intercepted_for"] == "Paul"


def test_robert_cannot_reach_a_team_mate_further_than_one_move() -> None:
    s = battle({"Bianca": [5], "Robert": [1]}, {"Bianca": [30.0, 15.0], "Paul": [20.0, 15.0],
                                                "Robert": [20.0 - MOVE_DISTANCE - 0.1, 20.0]}, to_move=1)
    s, events = act(s, 1, type="throw", character="Bianca", die=5, target="Paul")
    assert "hit" in types(events) and s["pieces"]["Paul"]["cold"] == 1


def test_robert_guards_the_snowman_and_not_himself() -> None:
    s = battle({"Emily": [3], "Bianca": [5], "Robert": [1, 4]},
               {"Emily": [10.0, 15.0], "Robert": [6.0, 18.0], "Bianca": [14.0, 20.0]}, to_move=1)
    s, events = act(s, 1, type="ability", character="Emily", die=3, target="snowman0")
    assert s["pending"]["hits_total"] == 2
    s, _ = act(s, 0, type="react", choice="intercept", die=1)
    s, _ = act(s, 0, type="react", choice="take")
    assert s["pieces"]["snowman0"]["cold"] == 1 and s["pieces"]["Robert"]["cold"] == 1
    s, _ = act(s, 0, type="pass")
    s, events = act(s, 1, type="throw", character="Bianca", die=5, target="Robert")
    assert "hit" in types(events) and s["pending"] is None


def test_a_snowman_cannot_dodge() -> None:
    s = battle({"Emily": [3], "Robert": [1]}, {"Emily": [10.0, 15.0], "Robert": [6.0, 18.0]}, to_move=1)
    s, _ = act(s, 1, type="ability", character="Emily", die=3, target="snowman0")
    with pytest.raises(IllegalAction, match="snowman cannot dodge"):
        act(s, 0, type="react", choice="dodge", die=1)


# --- character Actions ---------------------------------------------------------------------------

def test_stephen_treats_a_die_as_one_higher_or_lower() -> None:
    s = battle({"Stephen": [2, 1], "Bianca": [4]}, {"Stephen": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    legal = R.legal_actions(s, 0)
    assert {"type": "throw", "character": "Stephen", "die": 2, "as": 3, "target": "Bianca"} in legal
    with pytest.raises(IllegalAction, match="only as 2"):
        act(s, 0, type="throw", character="Stephen", die=1, **{"as": 3}, target="Bianca")
    s, events = act(s, 0, type="throw", character="Stephen", die=2, **{"as": 3}, target="Bianca")
    assert events[0]["as"] == 3 and events[0]["face"] == "T"
    assert s["pieces"]["Stephen"]["dice"] == [1]


def test_stephen_can_dodge_with_a_shifted_die_and_nobody_else_can_shift() -> None:
    s = battle({"Bianca": [5], "Stephen": [1], "Paul": [3]}, {"Stephen": [20.0, 15.0], "Bianca": [30.0, 15.0]},
               to_move=1)
    s, _ = act(s, 1, type="throw", character="Bianca", die=5, target="Stephen")
    assert R.legal_actions(s, 0)[0] == {"type": "react", "choice": "dodge", "die": 1, "as": 2}
    s, events = act(s, 0, type="react", choice="dodge", die=1, **{"as": 2})
    assert events[0]["type"] == "dodge" and events[0]["as"] == 2
    with pytest.raises(IllegalAction, match="Only Stephen"):
        act(s, 0, type="move", character="Paul", die=3, **{"as": 4}, to=[7.0, 3.0])
    with pytest.raises(IllegalAction, match="Stephen"):
        act(s, 0, type="ability", character="Stephen", die=1)


def test_bianca_makes_a_character_within_one_move_reroll() -> None:
    s = battle({"Bianca": [3], "Paul": [2, 2]}, {"Bianca": [30.0, 15.0], "Paul": [22.0, 15.0]}, to_move=1)
    s, events = act(s, 1, type="ability", character="Bianca", die=3, target="Paul")
    event = events[0]
    assert event["type"] == "force_reroll" and event["before"] == [2, 2]
    assert s["pieces"]["Paul"]["dice"] == event["after"] and len(event["after"]) == 2
    assert s["pieces"]["Bianca"]["dice"] == []
    again, _ = act(battle({"Bianca": [3], "Paul": [2, 2]}, {"Bianca": [30.0, 15.0], "Paul": [22.0, 15.0]},
                          to_move=1), 1, type="ability", character="Bianca", die=3, target="Paul")
    assert again["pieces"]["Paul"]["dice"] == s["pieces"]["Paul"]["dice"]


def test_bianca_reroll_limits() -> None:
    s = battle({"Bianca": [3], "Paul": [2], "Natasha": [1]},
               {"Bianca": [30.0, 15.0], "Paul": [20.0, 15.0], "Natasha": [33.0, 15.0], "Emily": [30.0, 20.0]},
               to_move=1)
    with pytest.raises(IllegalAction, match=r"Paul is 10.0 cm from Bianca"):
        act(s, 1, type="ability", character="Bianca", die=3, target="Paul")
    with pytest.raises(IllegalAction, match="Bianca has no dice left to re-roll once she spends this one"):
        act(s, 1, type="ability", character="Bianca", die=3, target="Bianca")
    with pytest.raises(IllegalAction, match="no dice left"):
        act(s, 1, type="ability", character="Bianca", die=3, target="Emily")
    s, events = act(s, 1, type="ability", character="Bianca", die=3, target="Natasha")
    assert events[0]["type"] == "force_reroll"


def test_bianca_may_make_herself_reroll_her_remaining_dice() -> None:
    """"Force any single character within 1 move to re-roll all their remaining dice": she is
    within 1 Move of herself; the die she spends is gone, the others are re-rolled."""
    s = battle({"Bianca": [3, 2, 2]}, {"Bianca": [30.0, 15.0]}, to_move=1)
    offered = [a for a in R.legal_actions(s, 1) if a["type"] == "ability" and a.get("target") == "Bianca"]
    assert {a["die"] for a in offered} == {2, 3}
    s, events = act(s, 1, type="ability", character="Bianca", die=3, target="Bianca")
    assert events[0]["type"] == "force_reroll" and events[0]["before"] == [2, 2]
    assert s["pieces"]["Bianca"]["dice"] == events[0]["after"] and len(events[0]["after"]) == 2
    alone = battle({"Bianca": [3]}, {"Bianca": [30.0, 15.0]}, to_move=1)
    assert not [a for a in R.legal_actions(alone, 1) if a["type"] == "ability" and a.get("target") == "Bianca"]


@pytest.mark.parametrize(("beyond", "offered"), [(TOLERANCE / 2, True), (2 * TOLERANCE, False)])
def test_bianca_is_offered_a_reroll_on_whom_her_action_reaches_with_the_tolerance(beyond: float,
                                                                                  offered: bool) -> None:
    """The legal actions shown for Bianca's Action follow the rule's 1 Move with the table's
    tolerance, as the Action itself does."""
    s = battle({"Bianca": [3], "Paul": [2]}, {"Bianca": [30.0, 15.0], "Paul": [30.0 - MOVE_DISTANCE - beyond, 15.0]},
               to_move=1)
    rerolls_of_paul = [a for a in R.legal_actions(s, 1)
                       if a["type"] == "ability" and a["character"] == "Bianca" and a.get("target") == "Paul"]
    assert bool(rerolls_of_paul) == offered
    if offered:
        act(s, 1, **rerolls_of_paul[0])


def test_natasha_swaps_with_a_team_mate_within_one_move() -> None:
    s = battle({"Natasha": [3]}, {"Natasha": [30.0, 15.0], "Emily": [36.0, 20.0], "Bianca": [44.0, 3.0]}, to_move=1)
    with pytest.raises(IllegalAction, match=r"^Bianca is 18.4 cm from Natasha; her Action reaches 1 Move \(8.9 cm\).$"):
        act(s, 1, type="ability", character="Natasha", die=3, **{"with": "Bianca"})
    with pytest.raises(IllegalAction, match="team-mate"):
        act(s, 1, type="ability", character="Natasha", die=3, **{"with": "Paul"})
    s, events = act(s, 1, type="ability", character="Natasha", die=3, **{"with": "Emily"})
    assert s["pieces"]["Natasha"]["pos"] == [36.0, 20.0] and s["pieces"]["Emily"]["pos"] == [30.0, 15.0]
    assert events[0]["type"] == "swap"


def test_paul_double_throw_scores_two_hits_each_dodged_on_its_own() -> None:
    s = battle({"Paul": [4, 5], "Bianca": [3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s, _ = act(s, 1, type="set_auto_dodge", on=True)
    s, events = act(s, 0, type="ability", character="Paul", dice=[5, 4], target="Bianca")
    assert types(events)[:3] == ["throw", "dodge", "hit"]
    assert s["pieces"]["Bianca"]["cold"] == 1 and s["pieces"]["Paul"]["dice"] == []


def test_paul_double_throw_needs_two_fours_or_fives() -> None:
    s = battle({"Paul": [3, 5]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    with pytest.raises(IllegalAction, match="4 or 5"):
        act(s, 0, type="ability", character="Paul", dice=[3, 5], target="Bianca")
    with pytest.raises(IllegalAction, match="does not have"):
        act(s, 0, type="ability", character="Paul", dice=[5, 5], target="Bianca")


def test_paul_second_hit_is_lost_when_the_first_sends_the_target_running() -> None:
    s = battle({"Paul": [4, 4]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s["pieces"]["Bianca"]["cold"] = 2
    s, events = act(s, 0, type="ability", character="Paul", dice=[4, 4], target="Bianca")
    assert types(events)[:4] == ["throw", "hit", "run_away", "lost_hit"]


def test_emily_scores_two_hits_on_a_snowman_within_one_move_in_sight() -> None:
    s = battle({"Emily": [3]}, {"Emily": [10.0, 15.0]}, to_move=1)
    s, events = act(s, 1, type="ability", character="Emily", die=3, target="snowman0")
    assert [e["type"] for e in events][:3] == ["smash", "hit", "hit"]
    assert s["pieces"]["snowman0"]["cold"] == 2


def test_emily_action_limits() -> None:
    far = battle({"Emily": [3]}, {"Emily": [3.0 + MOVE_DISTANCE + 0.5, 15.0]}, to_move=1)
    with pytest.raises(IllegalAction, match="1 Move is 8.9 cm"):
        act(far, 1, type="ability", character="Emily", die=3, target="snowman0")
    hidden = battle({"Emily": [3]}, {"Emily": [10.0, 15.0]}, to_move=1,
                    obstructions=[{"id": "o1", "label": "box", "points": rectangle(6, 14, 7, 16)}])
    with pytest.raises(IllegalAction, match="cannot see snowman"):
        act(hidden, 1, type="ability", character="Emily", die=3, target="snowman0")
    near = battle({"Emily": [3]}, {"Emily": [10.0, 15.0], "Paul": [12.0, 18.0]}, to_move=1)
    with pytest.raises(IllegalAction, match="snowman"):
        act(near, 1, type="ability", character="Emily", die=3, target="Paul")


def test_robert_action_is_only_a_reaction() -> None:
    s = battle({"Robert": [2]})
    with pytest.raises(IllegalAction, match="hit is coming"):
        act(s, 0, type="ability", character="Robert", die=2)


# --- moving and double symbols -------------------------------------------------------------

def test_move_rules() -> None:
    s = battle({"Paul": [1]}, {"Paul": [20.0, 22.0], "Robert": [14.0, 22.0]},
               obstructions=[{"id": "o1", "label": "shed", "points": rectangle(24, 10, 26, 20)}])
    with pytest.raises(IllegalAction, match=r"^\(29.0, 22.0\) is 9.0 cm from Paul; a Move is 8.9 cm.$"):
        act(s, 0, type="move", character="Paul", die=1, to=[29.0, 22.0])
    with pytest.raises(IllegalAction, match="overlap the shed"):
        act(s, 0, type="move", character="Paul", die=1, to=[24.0, 15.0])
    with pytest.raises(IllegalAction, match="stick out"):
        act(s, 0, type="move", character="Paul", die=1, to=[20.0, 29.0])
    with pytest.raises(IllegalAction, match="overlap {p0}'s Robert"):
        act(s, 0, type="move", character="Paul", die=1, to=[15.0, 22.0])
    s, events = act(s, 0, type="move", character="Paul", die=1, to=[20.0 + MOVE_DISTANCE, 22.0])
    assert events[0]["distance"] == pytest.approx(MOVE_DISTANCE)
    region = next(a for a in R.legal_actions(battle({"Paul": [1]}), 0) if a["type"] == "move")
    assert region["radius"] == MOVE_DISTANCE and region["center"] == HOME["Paul"]
    assert {"kind": "polygon", "id": "o1"} != region["must_avoid"][-1]


def test_double_move_is_two_moves_and_the_second_cannot_be_skipped() -> None:
    """"If selected simply perform the regular action twice": the second move is not optional
    (staying put counts as a move), and a missed deadline stays put."""
    s = battle({"Bianca": [6]}, {"Bianca": [30.0, 15.0]}, to_move=1)
    s, _ = act(s, 1, type="move", character="Bianca", die=6, to=[25.0, 15.0])
    assert s["followup"]["character"] == "Bianca" and list(R.to_act(s)) == [1]
    assert R.to_act(s)[1].default == {"type": "move", "character": "Bianca", "to": [25.0, 15.0]}
    assert [a["type"] for a in R.legal_actions(s, 1) if a["type"] != "set_auto_dodge"] == ["move"]
    with pytest.raises(IllegalAction, match="cannot pass"):
        act(s, 1, type="pass")
    with pytest.raises(IllegalAction, match="must move .* a second time"):
        act(s, 1, type="skip")
    s2, _ = act(s, 1, type="move", character="Bianca", to=[17.0, 15.0])
    assert s2["pieces"]["Bianca"]["pos"] == [17.0, 15.0] and s2["followup"] is None
    stayed, events = act(s, 1, **R.to_act(s)[1].default)
    assert events[0]["type"] == "move" and stayed["followup"] is None and stayed["pieces"]["Bianca"]["pos"] == [25.0, 15.0]


def test_a_second_move_that_stays_put_says_so_and_one_that_moves_gives_its_distance() -> None:
    """Staying put is a real second move of a double (ruling 7); its line says so, not "moves 0.0 cm"."""
    s = battle({"Bianca": [6]}, {"Bianca": [30.0, 15.0]}, to_move=1)
    s, _ = act(s, 1, type="move", character="Bianca", die=6, to=[25.0, 15.0])
    stayed, events = act(s, 1, type="move", character="Bianca", to=[25.0, 15.0])
    assert events[0]["text"] == "{p1}'s Bianca stays put for the second move of the double."
    assert events[0]["distance"] == 0 and stayed["pieces"]["Bianca"]["pos"] == [25.0, 15.0]
    moved, events = act(s, 1, type="move", character="Bianca", to=[24.9, 15.0])
    assert events[0]["text"] == "{p1}'s Bianca moves 0.1 cm again, for the double."
    moved, events = act(s, 1, type="move", character="Bianca", to=[20.0, 15.0])
    assert events[0]["text"] == "{p1}'s Bianca moves 5.0 cm again, for the double."


def test_any_move_that_stays_put_says_so_with_its_die() -> None:
    """A move may end where it began (ruling 4): its line says the character stays put, with the
    die it used, wherever the log would read "moves 0.0 cm"; a double's first move too."""
    s = battle({"Bianca": [4, 6]}, {"Bianca": [30.0, 15.0]}, to_move=1)
    for die, to, line in ((4, [30.0, 15.0], "{p1}'s Bianca stays put with a 4."),
                          (4, [30.04, 15.0], "{p1}'s Bianca stays put with a 4."),
                          (4, [30.1, 15.0], "{p1}'s Bianca moves 0.1 cm with a 4."),
                          (6, [30.0, 15.0], "{p1}'s Bianca stays put with a 6.")):
        moved, events = act(s, 1, type="move", character="Bianca", die=die, to=to)
        assert [e["text"] for e in events if e["type"] == "move"] == [line]
    assert moved["followup"] == {"seat": 1, "character": "Bianca", "kind": "move"}
    s = battle({"Stephen": [3]}, {"Stephen": [10.0, 21.0]})
    _, events = act(s, 0, type="move", character="Stephen", die=3, to=[10.0, 21.0], **{"as": 4})
    assert events[0]["text"] == "{p0}'s Stephen stays put with a 3 as a 4."


def test_a_second_throw_is_skipped_only_with_no_target_in_reach() -> None:
    """A double throw's second half is owed while a target is in reach, and skipped when none is."""
    s = battle({"Paul": [4]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    s["followup"] = {"seat": 0, "character": "Paul", "kind": "throw"}
    with pytest.raises(IllegalAction, match="must throw"):
        act(s, 0, type="skip")
    assert R.to_act(s)[0].default == {"type": "throw", "character": "Paul", "target": "Bianca"}
    out_of_reach = battle({"Paul": [4]}, {"Paul": [3.0, 15.0]})
    out_of_reach["followup"] = {"seat": 0, "character": "Paul", "kind": "throw"}
    assert [a for a in R.legal_actions(out_of_reach, 0) if a["type"] != "set_auto_dodge"] == [{"type": "skip"}]
    skipped, events = act(out_of_reach, 0, type="skip")
    assert events[0]["type"] == "skip" and skipped["followup"] is None


# --- passing, end phase, returning, game end -------------------------------------------------

def test_two_passes_end_the_phase_and_a_new_turn_rolls() -> None:
    s = battle({"Paul": [1], "Bianca": [1]})
    s, _ = act(s, 0, type="pass")
    s, events = act(s, 1, type="pass")
    assert "end_phase" in types(events) and s["phase"] == "dice" and s["turn"] == 2
    assert all(p["dice"] == [] for p in s["pieces"].values())


def test_a_player_with_only_dodge_dice_passes_automatically() -> None:
    s = battle({"Paul": [1, 1], "Bianca": [3]})
    s, events = act(s, 0, type="move", character="Paul", die=1, to=[7.0, 3.0])
    assert types(events)[-1] == "pass" and events[-1]["auto"] and s["to_move"] == 0


def test_run_away_characters_warm_up_and_return_on_the_back_edge() -> None:
    s = battle({"Paul": [1], "Bianca": [1]})
    s["pieces"]["Emily"].update(pos=None, cold=2)
    s["pieces"]["Natasha"].update(pos=None, cold=1)
    s, _ = act(s, 0, type="pass")
    s, events = act(s, 1, type="pass")
    assert s["phase"] == "return" and s["returning"] == [[], ["Natasha"]]
    assert s["pieces"]["Emily"]["cold"] == 1
    prompt = R.to_act(s)[1]
    assert prompt.default["character"] == "Natasha"
    s, events = act(s, 1, type="return", character="Natasha", y=prompt.default["y"])
    assert s["pieces"]["Natasha"]["pos"] == [50.0 - 1.25, prompt.default["y"]]
    assert s["phase"] == "dice" and len(s["dice"][1]["rolled"]) == 4


def test_return_spot_must_be_free() -> None:
    s = battle({"Paul": [1], "Bianca": [1]}, {"Bianca": [48.75, 10.0]})
    s["pieces"]["Natasha"].update(pos=None, cold=1)
    s, _ = act(s, 0, type="pass")
    s, _ = act(s, 1, type="pass")
    with pytest.raises(IllegalAction, match="overlap {p1}'s Bianca"):
        act(s, 1, type="return", character="Natasha", y=11.0)
    with pytest.raises(IllegalAction, match="not coming back"):
        act(s, 1, type="return", character="Emily", y=20.0)


def test_fourth_cold_token_on_a_snowman_ends_the_game() -> None:
    s = battle({"Paul": [5]}, {"Paul": [35.0, 15.0]})
    s["pieces"]["snowman1"]["cold"] = 3
    s, events = act(s, 0, type="throw", character="Paul", die=5, target="snowman1")
    assert types(events)[-1] == "game_over"
    assert R.outcome(s) == {"winners": [0], "losers": [1], "scores": [4, 0],
                            "reason": "{p1}'s snowman took its fourth cold token and lost its head."}
    assert R.to_act(s) == {}
    with pytest.raises(IllegalAction, match="over"):
        act(s, 1, type="pass")


# --- errors, purity, views -----------------------------------------------------------------

def test_bad_actions_are_refused_with_reasons() -> None:
    s = battle({"Paul": [5, 1]}, {"Paul": [20.0, 15.0]})
    with pytest.raises(BadAction, match="type"):
        R.apply(s, 0, {"kind": "throw"})
    with pytest.raises(BadAction, match="Unknown action 'fly'"):
        R.apply(s, 0, {"type": "fly"})
    with pytest.raises(BadAction, match='needs a "target"'):
        act(s, 0, type="throw", character="Paul", die=5)
    with pytest.raises(BadAction, match="whole number"):
        act(s, 0, type="throw", character="Paul", die="5", target="Bianca")
    with pytest.raises(BadAction, match="point"):
        act(s, 0, type="move", character="Paul", die=1, to=[1.0, float("inf")])
    with pytest.raises(IllegalAction, match="not on your team"):
        act(s, 0, type="throw", character="Bianca", die=5, target="Paul")
    with pytest.raises(IllegalAction, match="has no 6"):
        act(s, 0, type="throw", character="Paul", die=6, target="Bianca")
    with pytest.raises(NotYourTurn, match="waiting for {p0}"):
        act(s, 1, type="pass")
    with pytest.raises(NotYourTurn):
        R.apply(s, None, {"type": "pass"})
    with pytest.raises(IllegalAction, match="cannot lock now"):
        act(s, 0, type="lock")


def test_apply_never_changes_its_input() -> None:
    s = battle({"Paul": [5, 1], "Bianca": [3]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    before = copy.deepcopy(s)
    after, _ = act(s, 0, type="throw", character="Paul", die=5, target="Bianca")
    after, _ = act(after, 1, type="react", choice="dodge", die=3)
    act(s, 0, type="move", character="Paul", die=1, to=[21.0, 15.0])
    assert s == before


def test_line_of_sight_helper() -> None:
    s = battle({}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0], "Robert": [25.0, 15.0]})
    assert line_of_sight(s, "Paul", "Bianca") == {"clear": False, "blocker": "Robert", "distance": 10.0}
    s["pieces"]["Bianca"]["pos"] = None
    assert line_of_sight(s, "Paul", "Bianca") == {"clear": False, "blocker": None, "distance": None}
    with pytest.raises(KeyError):
        line_of_sight(s, "Paul", "Rudolph")


def test_view_carries_what_a_ui_draws() -> None:
    s = battle({"Paul": [5, 1]}, {"Paul": [20.0, 15.0], "Bianca": [30.0, 15.0]})
    view = R.view(s, 0)
    assert view["table"]["move_distance"] == MOVE_DISTANCE
    assert view["table"]["snowball_distance"] == SNOWBALL_DISTANCE
    assert view["table"]["tolerance"] == TOLERANCE
    line = next(x for x in view["sightlines"] if x["from"] == "Paul" and x["to"] == "Bianca")
    assert line["clear"] and line["in_throw_range"] and not line["within_move"]
    assert view["prompt"]["kind"] == "turn" and view["legal_actions"]
    spectator = R.view(s, None)
    assert spectator["prompt"] is None and spectator["legal_actions"] == [] and spectator["auto_dodge"] is None
    assert json.loads(json.dumps(view)) == view


def test_pieces_stay_inside_the_area_after_setup() -> None:
    s = deployed()
    for piece in s["pieces"].values():
        assert circle_inside_rect(piece["pos"], piece["radius"], 50, 30)
        assert not any(circle_overlaps_polygon(piece["pos"], piece["radius"], o) for o in s["obstructions"])


def test_the_log_says_which_die_each_throw_and_move_used() -> None:
    R = RULESET
    seen = set()
    for seed in range(6):
        state = R.new_game(players=2, options={}, seed=seed)
        while R.outcome(state) is None:
            seat = min(R.to_act(state))
            state, events = R.apply(state, seat, R.bot_action(state, seat))
            for event in events:
                if event["type"] not in ("throw", "move", "smash"):
                    continue
                if "dice" in event:  # Paul's two snowballs at once
                    assert "with a {} and a {}".format(*event["dice"]) in event["text"], event["text"]
                    seen.add("two dice")
                elif event["die"] is None:
                    stayed = f"{event['distance']:.1f}" == "0.0"
                    assert ("stays put for the second move of the double" if stayed
                            else "again, for the double") in event["text"], event["text"]
                    seen.add("double")
                else:
                    used = f"with a {event['die']}" + (f" as a {event['as']}" if event.get("as") else "")
                    assert used in event["text"], event["text"]
                    seen.add(event["type"])
    assert {"throw", "move"} <= seen
