"""What a Snowball!: the core rules at their boundaries (set-up, activation, the four actions, cheating).

Dice are scripted (``dice`` fixture) so each test decides the rolls it needs.
"""
from __future__ import annotations

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.what_a_snowball import RULESET as R
from games.engines.what_a_snowball.common import range_needs

from tests.engines.what_a_snowball_scenes import act, dice, of_type, piece, rect, scene  # noqa: F401

OPEN: list = []


def roster(sizes: dict[int, int], teams: list[int], **extra) -> list[dict]:
    kids = []
    for seat, n in sizes.items():
        kids += [{"name": f"S{seat}K{i}", "seat": seat, "traits": ["skilful"], **extra} for i in range(n)]
    return kids


# --- creating a game -------------------------------------------------------------------------------

@pytest.mark.parametrize("teams", [[0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 0, 1, 2, 2], [0, 0, 0, 1, 1, 1]])
def test_default_rosters_make_equal_teams_of_six_to_twelve(teams):
    s = R.new_game(players=len(teams), options={}, seed=1, teams=teams)
    sizes = {}
    for kid in s["kids"].values():
        sizes[kid["team"]] = sizes.get(kid["team"], 0) + 1
        assert kid["team"] == teams[kid["seat"]]
    assert len(set(sizes.values())) == 1
    assert 6 <= len(s["kids"]) <= 12
    for seat in range(len(teams)):
        assert 1 <= sum(1 for k in s["kids"].values() if k["seat"] == seat) <= 3


@pytest.mark.parametrize("sizes, ok", [
    ({0: 3, 1: 3}, True), ({0: 3, 1: 2}, False), ({0: 2, 1: 2}, False), ({0: 4, 1: 4}, False),
])
def test_roster_sizes(sizes, ok):
    kids = roster(sizes, [0, 1])
    if ok:
        assert len(R.new_game(players=2, options={"kids": kids}, seed=1, teams=[0, 1])["kids"]) == 6
    else:
        with pytest.raises(BadAction):
            R.new_game(players=2, options={"kids": kids}, seed=1, teams=[0, 1])


def test_thirteen_kids_are_too_many_and_twelve_are_fine():
    teams = [0, 0, 1, 1]
    twelve = roster({0: 3, 1: 3, 2: 3, 3: 3}, teams)
    assert len(R.new_game(players=4, options={"kids": twelve}, seed=1, teams=teams)["kids"]) == 12
    with pytest.raises(BadAction):
        R.new_game(players=4, options={"kids": twelve + [{"name": "X", "seat": 0}]}, seed=1, teams=teams)


def test_a_team_may_be_split_over_seats_or_be_one_seat():
    kids = [{"name": "A", "seat": 0}, {"name": "B", "seat": 1}, {"name": "C", "seat": 1},
            {"name": "D", "seat": 2}, {"name": "E", "seat": 2}, {"name": "F", "seat": 2}]
    s = R.new_game(players=3, options={"kids": kids}, seed=1, teams=[0, 0, 1])
    assert [k["team"] for k in s["kids"].values()] == [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize("bad, words", [
    ({"type": "elf"}, "special players"),
    ({"traits": ["fast", "strong"]}, "1 Trait"),
    ({"traits": ["sneaky"]}, "1 Trait"),
    ({"seat": 5}, "seat"),
    ({"name": ""}, "name"),
    ({"name": "x" * 21}, "name"),
])
def test_bad_kids_are_refused_with_the_reason(bad, words):
    kids = roster({0: 3, 1: 3}, [0, 1])
    kids[2].update(bad)
    with pytest.raises(BadAction, match=words):
        R.new_game(players=2, options={"kids": kids}, seed=1, teams=[0, 1])


def test_types_take_their_traits():
    kids = roster({0: 3, 1: 3}, [0, 1])
    kids[0].update(type="big_kid", traits=["fast", "skilful"])
    kids[1].update(type="yeti")
    kids[1].pop("traits")
    kids[2].update(type="elf")
    kids[2].pop("traits")
    s = R.new_game(players=2, options={"kids": kids, "special_players": True}, seed=1, teams=[0, 1])
    assert [s["kids"][k]["traits"] for k in ("k0", "k1", "k2")] == [["fast", "skilful"], ["fast", "strong"], []]
    kids[0]["traits"] = ["fast"]
    with pytest.raises(BadAction, match="2 Traits"):
        R.new_game(players=2, options={"kids": kids, "special_players": True}, seed=1, teams=[0, 1])
    kids[0]["traits"] = ["fast", "skilful"]
    kids[2]["traits"] = ["fast"]
    with pytest.raises(BadAction, match="no Traits"):
        R.new_game(players=2, options={"kids": kids, "special_players": True}, seed=1, teams=[0, 1])


def test_traits_are_taken_in_any_letter_case_and_kept_in_lower_case():
    """The views name a Trait by its label ("Fast"): a roster may name it so, or in any case."""
    kids = roster({0: 3, 1: 3}, [0, 1])
    kids[0]["traits"] = ["Fast"]
    kids[1].update(type="big_kid", traits=["STRONG", "sKiLfUl"])
    kids[2].update(type="yeti", traits=["Fast", "Strong"])
    s = R.new_game(players=2, options={"kids": kids, "special_players": True}, seed=1, teams=[0, 1])
    assert [s["kids"][k]["traits"] for k in ("k0", "k1", "k2")] == [["fast"], ["strong", "skilful"], ["fast", "strong"]]
    assert R.view(s, 0)["kids"]["k0"]["sheet"]["traits"] == ["Fast"]
    assert R.canonical_options({"kids": kids})["kids"][1]["traits"] == ["strong", "skilful"]
    kids[0]["traits"] = ["Fast", "fast"]
    with pytest.raises(BadAction, match=r"1 Trait from fast, strong, skilful, resourceful \(in any letter case\), "
                                        r"not \['Fast', 'fast'\]"):
        R.new_game(players=2, options={"kids": kids, "special_players": True}, seed=1, teams=[0, 1])


def test_duplicate_names_and_bad_teams_are_refused():
    kids = roster({0: 3, 1: 3}, [0, 1])
    kids[1]["name"] = kids[0]["name"].lower()
    with pytest.raises(BadAction, match="taken"):
        R.new_game(players=2, options={"kids": kids}, seed=1, teams=[0, 1])
    with pytest.raises(BadAction):
        R.new_game(players=2, options={}, seed=1, teams=[0, 0])
    with pytest.raises(BadAction):
        R.new_game(players=5, options={}, seed=1, teams=[0, 1, 2, 3, 4])


# --- set-up -------------------------------------------------------------------------------------

def test_roll_off_re_rolls_ties_within_the_tied_group(dice):
    dice(5, 5, 3, 2, 6)
    s = R.new_game(players=3, options={}, seed=1, teams=[0, 1, 2])
    assert s["team_order"] == [1, 0, 2]
    assert s["team_rolls"][1]["group"] == [0, 1]


def test_two_teams_pick_two_corners_each_in_roll_off_order():
    s = R.new_game(players=2, options={}, seed=3, teams=[0, 1])
    first, second = s["team_order"]
    assert R.to_act(s).keys() == {first}
    s, _ = act(s, first, {"type": "corner", "corner": 2})
    with pytest.raises(IllegalAction, match="taken"):
        R.apply(s, second, {"type": "corner", "corner": 2})
    with pytest.raises(NotYourTurn):
        R.apply(s, first, {"type": "corner", "corner": 1})
    s, _ = act(s, second, {"type": "corner", "corner": 0})
    s, events = act(s, first, {"type": "corner", "corner": 1})
    assert s["corners"] == {str(first): [2, 1], str(second): [0, 3]}
    assert s["phase"] == "deploy"
    assert of_type(events, "corner")[-1]["seat"] is None


def _to_deploy(players=2, teams=(0, 1), seed=3):
    s = R.new_game(players=players, options={"village": "green"}, seed=seed, teams=list(teams))
    while s["phase"] == "corners":
        seat = next(iter(R.to_act(s)))
        s, _ = R.apply(s, seat, R.to_act(s)[seat].default)
    return s


def test_kids_set_up_wholly_within_six_inches_of_their_corner():
    s = _to_deploy()
    team = s["team_order"][0]
    seat = team
    kid = next(k for k in s["kid_order"] if s["kids"][k]["seat"] == seat)
    corner = [0.0, 0.0] if 0 in s["corners"][str(team)] else None
    corner_index = s["corners"][str(team)][0]
    cx, cy = [(0, 0), (24, 0), (24, 24), (0, 24)][corner_index]
    sx, sy = (1 if cx == 0 else -1), (1 if cy == 0 else -1)
    far = 5.5 / 2 ** 0.5
    too_far = 5.52 / 2 ** 0.5
    with pytest.raises(IllegalAction, match=r'within 6" .* at most 5\.5" away \(it is 5\.52"\)'):  # over, read as over
        R.apply(s, seat, {"type": "place", "kid": kid, "to": [cx + sx * too_far, cy + sy * too_far]})
    s2, _ = act(s, seat, {"type": "place", "kid": kid, "to": [cx + sx * far, cy + sy * far]})
    assert s2["kids"][kid]["pos"] is not None
    assert corner is None or corner == [0.0, 0.0]
    other = next(k for k in s["kid_order"] if s["kids"][k]["seat"] != seat)
    with pytest.raises(IllegalAction, match="not one of your Kids"):
        R.apply(s2, seat, {"type": "place", "kid": other, "to": [cx + sx * 2, cy + sy * 2]})
    with pytest.raises(IllegalAction, match="overlap"):
        R.apply(s2, seat, {"type": "place", "kid": next(k for k in s["kid_order"] if s["kids"][k]["seat"] == seat
                                                         and k != kid), "to": [cx + sx * (far - 0.5), cy + sy * far]})


def test_method_two_deals_three_cards_to_a_one_kid_seat_and_one_per_kid_otherwise():
    kids = [{"name": "A", "seat": 0}, {"name": "B", "seat": 1}, {"name": "C", "seat": 1},
            {"name": "D", "seat": 2}, {"name": "E", "seat": 2}, {"name": "F", "seat": 2}]
    s = R.new_game(players=3, options={"kids": kids, "ability_cards": "method2"}, seed=2, teams=[0, 0, 1])
    while s["phase"] in ("corners", "deploy"):
        seat = min(R.to_act(s))
        s, _ = R.apply(s, seat, R.to_act(s)[seat].default)
    assert [len(h) for h in s["hands"]] == [3, 2, 3]


# --- the activation -------------------------------------------------------------------------------

def test_activation_order_adds_preparation_and_re_rolls_ties_within_the_group(dice):
    s = scene([{"team": 0, "pos": [3, 3], "prepare": 1}, {"team": 1, "pos": [20, 20]},
               {"team": 0, "pos": [5, 3]}], tray=[6])
    s["next_index"] = len(s["order"])
    dice(3, 1, 5, 4, 2, *([1] * 6))  # k0 3+1+1 = 5, k1 1, k3 5: k0 and k3 re-roll 4 against 2
    s, events = act(s, 0, {"type": "wild", "die": 6, "use": "prepare"})
    assert s["turn"] == 2
    assert s["order"] == ["k0", "k3", "k1"]
    rolls = of_type(events, "turn")[0]["rolls"]
    assert rolls[0]["totals"] == {"k0": 5, "k1": 1, "k3": 5} and rolls[0]["bonus"]["k0"] == 2
    assert rolls[1]["group"] == ["k0", "k3"] and rolls[1]["bonus"] == {}
    assert s["kids"]["k0"]["prepare"] == 0
    assert s["activation"]["kid"] == "k0"


def test_the_active_kid_rolls_as_many_command_dice_as_it_has(dice):
    s = scene([{"team": 0, "pos": [3, 3]}, {"team": 1, "pos": [20, 20], "command_dice": 2}], tray=[3])
    dice(4, 6)
    s, events = act(s, 0, {"type": "aim", "die": 3})
    assert of_type(events, "command_dice")[0]["dice"] == [4, 6]
    assert s["activation"] == {"kid": "k3", "stage": "turn", "tray": [4, 6]}


@pytest.mark.parametrize("kid, value, result, ok", [
    ({}, 1, "move", True), ({}, 2, "move", False), ({}, 6, "move", True), ({}, 5, "move", True),
    ({}, 5, "aim", False),
    ({"type": "big_kid", "traits": ["skilful", "strong"]}, 5, "aim", True),
    ({"type": "big_kid", "traits": ["skilful", "strong"]}, 5, "move", False),
    ({"type": "yeti"}, 5, "move", True), ({"type": "yeti"}, 5, "aim", False),
    ({"type": "elf"}, 5, "aim", True), ({"type": "elf"}, 4, "aim", False),
])
def test_what_each_face_can_be_spent_on(kid, value, result, ok):
    s = scene([{"team": 0, "pos": [3, 3], "snowballs": [1], **kid}, {"team": 1, "pos": [10, 3]}], tray=[value, 3],
              terrain=[])
    action = {"move": {"type": "move", "die": value}, "aim": {"type": "aim", "die": value}}[result]
    if ok:
        act(s, 0, action)
        assert action in R.legal_actions(s, 0)
    else:
        with pytest.raises(IllegalAction, match="not"):
            R.apply(s, 0, action)
        assert action not in R.legal_actions(s, 0)


def test_a_die_not_rolled_cannot_be_spent():
    s = scene([{"team": 0, "pos": [3, 3]}, {"team": 1, "pos": [10, 3]}], tray=[3, 3])
    with pytest.raises(IllegalAction, match="no 4"):
        R.apply(s, 0, {"type": "aim", "die": 4})


def test_ending_an_activation_early_passes_to_the_next_kid(dice):
    s = scene([{"team": 0, "pos": [3, 3]}, {"team": 1, "pos": [10, 3]}], tray=[3, 3])
    dice(2, 2, 2, 2, 2, 2)
    s, events = act(s, 0, {"type": "end_activation"})
    assert of_type(events, "end_activation")[0]["unspent"] == [3, 3]
    assert s["activation"]["kid"] == "k3"


# --- MOVE and vaulting ---------------------------------------------------------------------------

def test_a_move_reaches_exactly_its_roll_and_no_further(dice):
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[])
    dice(4)
    s, events = act(s, 0, {"type": "move", "die": 1})
    assert of_type(events, "move_roll")[0]["roll"] == 4
    with pytest.raises(IllegalAction, match="cannot reach"):
        R.apply(s, 0, {"type": "move_to", "to": [7.02, 12]})
    moved, events = act(s, 0, {"type": "move_to", "to": [7.0, 12]})
    assert moved["kids"]["k0"]["pos"] == [7.0, 12.0]
    assert of_type(events, "move")[0]["path"] == pytest.approx(4.0)


def test_a_kid_that_stays_where_it_is_is_said_to_stay_not_to_move_nothing(dice):
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[])
    dice(4)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    stayed, events = act(s, 0, {"type": "move_to", "to": [3, 12]})
    assert stayed["kids"]["k0"]["pos"] == [3.0, 12.0]
    assert of_type(events, "move")[0]["text"] == 'T0K0 stays at (3.0, 12.0) (could have moved 4").'


def test_a_move_far_off_the_village_is_refused_with_the_point_in_a_few_figures(dice):
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[])
    dice(4)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    with pytest.raises(IllegalAction) as refused:
        R.apply(s, 0, {"type": "move_to", "to": [1e308, -2.25]})
    assert "(1e+308, -2.2)" in str(refused.value) and "stick out of the village" in str(refused.value)
    assert len(str(refused.value)) < 120


def test_a_move_goes_round_a_house_not_through_or_into_it(dice):
    house = piece("t1", "house", rect(8, 8, 12, 16))
    s = scene([{"team": 0, "pos": [7.5, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[house])
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    with pytest.raises(IllegalAction, match="no going indoors"):
        R.apply(s, 0, {"type": "move_to", "to": [10, 12]})
    with pytest.raises(IllegalAction, match="cannot reach"):
        R.apply(s, 0, {"type": "move_to", "to": [12.5, 12]})  # 5 inches straight, but the house is in the way
    act(s, 0, {"type": "move_to", "to": [7.5, 17.0]})


def test_a_move_cannot_pass_through_another_kid(dice):
    wall_a = piece("t1", "hedge", rect(4, 0, 5, 11.5))
    wall_b = piece("t2", "hedge", rect(4, 12.5, 5, 24))
    s = scene([{"team": 0, "pos": [3.5, 12]}, {"team": 0, "pos": [5.5, 12]}, {"team": 1, "pos": [20, 20]}],
              tray=[1, 3], terrain=[wall_a, wall_b])
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    with pytest.raises(IllegalAction, match="cannot reach"):
        R.apply(s, 0, {"type": "move_to", "to": [7.5, 12]})


def test_moving_onto_a_gritted_road_is_fine_but_gathering_there_is_not(dice):
    road = piece("t1", "road", rect(0, 10, 24, 14))
    s = scene([{"team": 0, "pos": [3, 8]}, {"team": 1, "pos": [20, 20]}], tray=[1, 2, 3], terrain=[road])
    assert any(a["type"] == "gather" for a in R.legal_actions(s, 0))
    dice(4)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, _ = act(s, 0, {"type": "move_to", "to": [3, 12]})
    assert not any(a["type"] == "gather" for a in R.legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="snowless"):
        R.apply(s, 0, {"type": "gather", "die": 2, "make": "new"})


def test_vaulting_a_low_wall_in_contact_lands_straight_across():
    wall = piece("t1", "wall", rect(10, 5, 10.4, 15))
    s = scene([{"team": 0, "pos": [9.5, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[wall])
    vaults = [a for a in R.legal_actions(s, 0) if a["type"] == "vault"]
    assert len(vaults) == 1 and vaults[0]["to"][0] == pytest.approx(10.905, abs=0.01)
    s2, _ = act(s, 0, {"type": "vault", "die": 1, "terrain": "t1"})
    assert s2["kids"]["k0"]["pos"][0] > 10.4 + 0.49
    apart = scene([{"team": 0, "pos": [9.48, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[wall])
    with pytest.raises(IllegalAction, match="contact"):
        R.apply(apart, 0, {"type": "vault", "die": 1, "terrain": "t1"})


def test_tall_things_cannot_be_vaulted():
    hedge = piece("t1", "hedge", rect(10, 5, 10.4, 15))
    s = scene([{"team": 0, "pos": [9.5, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[hedge])
    with pytest.raises(IllegalAction, match="cannot be vaulted"):
        R.apply(s, 0, {"type": "vault", "die": 1, "terrain": "t1"})


# --- GATHER SNOW and AIM ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind, made", [("kid", 1), ("big_kid", 2), ("elf", 2), ("yeti", 3), ("penguin", 1)])
def test_gathering_makes_a_snowball_of_the_types_size(kind, made):
    s = scene([{"team": 0, "pos": [3, 3], "type": kind}, {"team": 1, "pos": [20, 20]}], tray=[2, 3], terrain=[])
    s, _ = act(s, 0, {"type": "gather", "die": 2, "make": "new"})
    assert s["kids"]["k0"]["snowballs"] == [made]


@pytest.mark.parametrize("kind, start, grown", [("kid", 4, 5), ("yeti", 3, 5), ("big_kid", 2, 4), ("yeti", 1, 4)])
def test_growing_a_snowball_stops_at_size_five(kind, start, grown):
    s = scene([{"team": 0, "pos": [3, 3], "type": kind, "snowballs": [start]}, {"team": 1, "pos": [20, 20]}],
              tray=[2, 3], terrain=[])
    s, _ = act(s, 0, {"type": "gather", "die": 2, "make": "grow", "size": start})
    assert s["kids"]["k0"]["snowballs"] == [grown]


def test_a_size_five_snowball_cannot_grow():
    s = scene([{"team": 0, "pos": [3, 3], "snowballs": [5]}, {"team": 1, "pos": [20, 20]}], tray=[2, 3], terrain=[])
    with pytest.raises(IllegalAction, match="largest"):
        R.apply(s, 0, {"type": "gather", "die": 2, "make": "grow", "size": 5})


@pytest.mark.parametrize("gap, ok", [(2.0, True), (2.02, False)])
def test_giving_a_snowball_reaches_two_inches(gap, ok):
    s = scene([{"team": 0, "pos": [3, 3], "snowballs": [3]}, {"team": 0, "pos": [4 + gap, 3]},
               {"team": 1, "pos": [20, 20]}], tray=[2, 3], terrain=[])
    action = {"type": "gather", "die": 2, "make": "give", "size": 3, "to": "k1"}
    if ok:
        s, _ = act(s, 0, action)
        assert (s["kids"]["k0"]["snowballs"], s["kids"]["k1"]["snowballs"]) == ([], [3])
    else:
        with pytest.raises(IllegalAction, match="within 2"):
            R.apply(s, 0, action)


def test_snowballs_go_only_to_team_mates_and_need_a_snowball():
    s = scene([{"team": 0, "pos": [3, 3], "snowballs": [3]}, {"team": 1, "pos": [5, 3]}], tray=[2, 3], terrain=[])
    with pytest.raises(IllegalAction, match="team-mate"):
        R.apply(s, 0, {"type": "gather", "die": 2, "make": "give", "size": 3, "to": "k3"})
    with pytest.raises(IllegalAction, match="no Size 2"):
        R.apply(s, 0, {"type": "gather", "die": 2, "make": "grow", "size": 2})


def test_aims_stack_and_are_spent_by_the_next_throw(dice):
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [1]}, {"team": 1, "pos": [10, 12]}], tray=[3, 3, 4, 3],
              terrain=[])
    s, _ = act(s, 0, {"type": "aim", "die": 3})
    s, _ = act(s, 0, {"type": "aim", "die": 3})
    assert s["kids"]["k0"]["aims"] == 2
    dice(1, 3)  # 4 + 2 aims = 6, needing 7: a miss
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    roll = of_type(events, "to_hit")[0]
    assert roll["total"] == 6 and {"label": "AIM x2", "value": 2} in roll["modifiers"] and not roll["hit"]
    assert s["kids"]["k0"]["aims"] == 0


def test_being_hit_removes_the_targets_aims(dice):
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [1]}, {"team": 1, "pos": [10, 12], "aims": 2}],
              tray=[4, 3], terrain=[])
    dice(4, 4, 1)
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert s["kids"]["k3"]["aims"] == 0


# --- THROW -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("gap, needs", [(0.0, 7), (6.0, 7), (6.02, 8), (12.0, 8), (12.02, 9)])
def test_range_bands_at_their_boundaries(gap, needs):
    assert range_needs(gap) == needs


@pytest.mark.parametrize("gap, needs", [(6.0, 7), (6.02, 8), (12.0, 8), (12.02, 9)])
def test_a_throw_hits_on_exactly_the_number_needed(dice, gap, needs):
    for roll, hit in (((needs - 3, 3), True), ((needs - 4, 3), False)):
        s = scene([{"team": 0, "pos": [2, 12], "snowballs": [1]}, {"team": 1, "pos": [3 + gap, 12]}], tray=[4, 3],
                  terrain=[])
        dice(*roll, 1)
        after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
        to_hit = of_type(events, "to_hit")[0]
        assert (to_hit["needs"], to_hit["hit"]) == (needs, hit)
        assert after["kids"]["k0"]["points"] == (1 if hit else 0)


@pytest.mark.parametrize("size, bonus", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_bigger_snowballs_add_to_the_roll(dice, size, bonus):
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [size]}, {"team": 1, "pos": [10, 12]}], tray=[4, 3],
              terrain=[])
    dice(3, 3, *([1] * 6))
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": size})
    assert of_type(events, "to_hit")[0]["total"] == 6 + bonus


def test_objects_within_an_inch_of_the_line_of_fire_count_against_the_throw(dice):
    near = piece("t1", "wall", rect(6, 12.6, 8, 13.0))   # 0.6" from the line: counts
    edge = piece("t2", "bench", rect(9, 13.0, 10, 13.5))  # exactly 1" from the line: counts
    far = piece("t3", "bench", rect(11, 13.02, 12, 13.5))  # 1.02" away: does not
    road = piece("t4", "road", rect(0, 11, 24, 13))       # ground is not an object
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [1]}, {"team": 1, "pos": [14, 12]},
               {"team": 0, "pos": [8, 10.6]}], tray=[4, 3], terrain=[near, edge, far, road])
    dice(6, 5, 1)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    to_hit = of_type(events, "to_hit")[0]
    assert sorted(m.get("object") for m in to_hit["modifiers"]) == ["k1", "t1", "t2"]
    assert to_hit["total"] == 11 - 3


def test_kids_of_any_team_block_sight():
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [1]}, {"team": 1, "pos": [14, 12]},
               {"team": 0, "pos": [8, 12.48]}], tray=[4, 3], terrain=[])
    grazing = scene([{"team": 0, "pos": [2, 12], "snowballs": [1]}, {"team": 1, "pos": [14, 12]},
                     {"team": 0, "pos": [8, 12.5]}], tray=[4, 3], terrain=[])
    assert any(a["type"] == "throw" for a in R.legal_actions(grazing, 0))
    with pytest.raises(IllegalAction, match="cannot see"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert not any(a["type"] == "throw" for a in R.legal_actions(s, 0))


def test_a_house_blocks_sight_but_a_low_wall_does_not():
    wall = piece("t1", "wall", rect(7, 10, 7.4, 14))
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [1]}, {"team": 1, "pos": [14, 12]}], tray=[4, 3],
              terrain=[wall])
    assert any(a["type"] == "throw" for a in R.legal_actions(s, 0))
    house = piece("t1", "house", rect(7, 10, 9, 14))
    s["terrain"] = [house]
    with pytest.raises(IllegalAction, match="house"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})


def test_no_throw_without_a_snowball_nor_at_a_team_mate():
    s = scene([{"team": 0, "pos": [2, 12]}, {"team": 1, "pos": [10, 12]}, {"team": 0, "pos": [2, 16]}],
              tray=[4, 3], terrain=[])
    with pytest.raises(IllegalAction, match="without a snowball"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    s["kids"]["k0"]["snowballs"] = [1]
    with pytest.raises(IllegalAction, match="your team"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k1", "snowball": 1})


def test_a_natural_twelve_hits_whatever_the_modifiers_and_grows_the_snowball(dice):
    hedge = [piece(f"t{i}", "bench", rect(3 + 2 * i, 12.6, 4 + 2 * i, 13)) for i in range(8)]
    s = scene([{"team": 0, "pos": [1, 12], "snowballs": [1]}, {"team": 1, "pos": [22, 12]}], tray=[4, 3],
              terrain=hedge)
    dice(6, 6, 4, 4)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    to_hit = of_type(events, "to_hit")[0]
    assert to_hit["total"] < to_hit["needs"] and to_hit["critical"] == "hit" and to_hit["hit"]
    effect = of_type(events, "effect")[0]
    assert effect["size"] == 2 and effect["lost"] == 2
    assert after["kids"]["k3"]["command_dice"] == 4


def test_a_natural_two_misses_whatever_the_modifiers_and_ends_the_activation(dice):
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [5], "aims": 5}, {"team": 1, "pos": [5, 12]}],
              tray=[4, 3, 3], terrain=[])
    dice(1, 1, *([3] * 6))
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5})
    to_hit = of_type(events, "to_hit")[0]
    assert to_hit["total"] >= to_hit["needs"] and to_hit["critical"] == "miss" and not to_hit["hit"]
    assert of_type(events, "critical_miss")
    assert after["activation"]["kid"] == "k3"


@pytest.mark.parametrize("rolls, lost", [([4, 3, 6], 2), ([3, 3, 3], 0), ([4, 4, 4], 3)])
def test_roll_for_effect_loses_a_die_per_four_or_more(dice, rolls, lost):
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [3]}, {"team": 1, "pos": [5, 12]}], tray=[4, 3], terrain=[])
    dice(4, 4, *rolls)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 3})
    assert of_type(events, "effect")[0]["dice"] == rolls
    assert after["kids"]["k3"]["command_dice"] == 6 - lost


def test_a_kid_left_without_command_dice_goes_home(dice):
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [2]}, {"team": 1, "pos": [5, 12], "command_dice": 2},
               {"team": 1, "pos": [20, 20]}], tray=[4, 3], terrain=[])
    dice(4, 4, 5, 4)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 2})
    assert after["kids"]["k3"]["home"] == "cold" and after["kids"]["k3"]["pos"] is None
    assert "k3" not in [k for k in after["kids"] if after["kids"][k]["pos"]]


def test_a_throw_at_a_kid_that_is_not_there_is_a_bad_action():
    s = scene([{"team": 0, "pos": [2, 12], "snowballs": [2]}, {"team": 1, "pos": [5, 12]}], tray=[4, 3], terrain=[])
    with pytest.raises(BadAction):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k4", "snowball": 2})


# --- wild dice -------------------------------------------------------------------------------------

def test_wild_dice_recover_up_to_six_and_never_more():
    s = scene([{"team": 0, "pos": [2, 12], "command_dice": 5}, {"team": 1, "pos": [15, 12]}], tray=[6, 6, 3],
              terrain=[])
    s, _ = act(s, 0, {"type": "wild", "die": 6, "use": "recover"})
    assert s["kids"]["k0"]["command_dice"] == 6
    assert s["activation"]["tray"] == [3, 6]
    with pytest.raises(IllegalAction, match="lost no"):
        R.apply(s, 0, {"type": "wild", "die": 6, "use": "recover"})


def test_a_wild_die_acts_as_any_other_result():
    s = scene([{"team": 0, "pos": [2, 12]}, {"team": 1, "pos": [15, 12]}], tray=[6, 3], terrain=[])
    s, events = act(s, 0, {"type": "gather", "die": 6, "make": "new"})
    assert "Wild" in events[0]["text"] and s["kids"]["k0"]["snowballs"] == [1]


# --- knocked down ----------------------------------------------------------------------------------

def test_a_knocked_down_kid_spends_only_wild_dice_until_it_gets_up():
    s = scene([{"team": 0, "pos": [2, 12], "down": True, "snowballs": [1]}, {"team": 1, "pos": [8, 12]}],
              tray=[1, 3, 4, 6, 6], terrain=[])
    legal = R.legal_actions(s, 0)
    assert {a["type"] for a in legal} == {"wild", "end_activation", "surrender"}
    with pytest.raises(IllegalAction, match="knocked down"):
        R.apply(s, 0, {"type": "move", "die": 6})
    with pytest.raises(IllegalAction, match="knocked down"):
        R.apply(s, 0, {"type": "aim", "die": 3})
    s, _ = act(s, 0, {"type": "wild", "die": 6, "use": "get_up"})
    assert not s["kids"]["k0"]["down"]
    act(s, 0, {"type": "aim", "die": 3})


def test_a_knocked_down_kid_without_wild_dice_ends_its_activation_at_once(dice):
    s = scene([{"team": 0, "pos": [2, 12]}, {"team": 1, "pos": [8, 12], "down": True},
               {"team": 0, "pos": [2, 20]}], tray=[3, 3], terrain=[])
    dice(1, 2, 3, 4, 5, 5, *([3] * 6))
    s, events = act(s, 0, {"type": "end_activation"})
    ends = of_type(events, "end_activation")
    assert [(e["kid"], e["automatic"]) for e in ends] == [("k0", False), ("k3", True)]
    assert s["activation"]["kid"] == "k1"


# --- cheating -------------------------------------------------------------------------------------

def _shove_scene(attacker: dict, victim: dict, gap: float = 0.0):
    return scene([{"team": 0, "pos": [5, 12], **attacker}, {"team": 1, "pos": [10, 12], **victim},
                  {"team": 1, "pos": [20, 20]}, {"team": 0, "pos": [2, 2]}], tray=[1, 3], terrain=[])


@pytest.mark.parametrize("parents, caught", [(4, True), (3, False)])
def test_shove_em_knocks_down_and_the_parents_roll(dice, parents, caught):
    s = _shove_scene({}, {})
    dice(6, parents, *([3] * 18))
    s, _ = act(s, 0, {"type": "move", "die": 1})
    assert "k3" in R.legal_actions(s, 0)[0]["shove"]
    s, events = act(s, 0, {"type": "move_to", "to": [9.0, 12], "shove": "k3"})
    assert s["kids"]["k3"]["down"] and s["kids"]["k3"]["command_dice"] == 5
    assert of_type(events, "parents")[0]["caught"] is caught
    assert (s["kids"]["k0"]["home"] == "parents") is caught


def test_a_shove_takes_no_last_command_die(dice):
    s = _shove_scene({}, {"command_dice": 1})
    dice(6, 1)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, _ = act(s, 0, {"type": "move_to", "to": [9.0, 12], "shove": "k3"})
    assert s["kids"]["k3"]["down"] and s["kids"]["k3"]["command_dice"] == 1


def test_a_shove_takes_a_die_from_a_kid_with_exactly_two(dice):
    s = _shove_scene({}, {"command_dice": 2})
    dice(6, 1)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, events = act(s, 0, {"type": "move_to", "to": [9.0, 12], "shove": "k3"})
    assert s["kids"]["k3"]["command_dice"] == 1 and of_type(events, "shove")[0]["lost"] == 1


def test_a_shove_needs_base_contact(dice):
    s = _shove_scene({}, {})
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    with pytest.raises(IllegalAction, match="contact"):
        R.apply(s, 0, {"type": "move_to", "to": [8.98, 12], "shove": "k3"})
    act(s, 0, {"type": "move_to", "to": [8.995, 12]})


def test_a_shove_is_a_move_that_comes_into_contact_not_one_already_touching(dice):
    """Book 3.2.1.1: "When a Kid spends a MOVE Dice and comes into contact with an opposing Kid"."""
    s = _shove_scene({"pos": [9.0, 12]}, {})  # base to base already
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    assert "k3" not in R.legal_actions(s, 0)[0]["shove"]
    for to in ([9.0, 12], [9.0, 12.2]):  # staying, or shuffling along the enemy's base
        with pytest.raises(IllegalAction, match="already touching"):
            R.apply(s, 0, {"type": "move_to", "to": to, "shove": "k3"})
    s, _ = act(s, 0, {"type": "move_to", "to": [8.0, 12]})  # a step away: the next MOVE may come back and shove
    assert not s["kids"]["k3"]["down"]


@pytest.mark.parametrize("parents, caught", [(4, True), (3, False)])
def test_too_close_hits_automatically_then_the_parents_roll(dice, parents, caught):
    s = scene([{"team": 0, "pos": [5, 12], "snowballs": [1]}, {"team": 1, "pos": [7.0, 12]},
               {"team": 1, "pos": [20, 20]}], tray=[4, 3], terrain=[])
    dice(4, parents)
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert of_type(events, "to_hit")[0]["automatic"]
    assert s["kids"]["k0"]["points"] == 1
    assert (s["kids"]["k0"]["home"] == "parents") is caught


def test_a_too_close_hit_takes_the_targets_aims(dice):
    s = scene([{"team": 0, "pos": [5, 12], "snowballs": [1]}, {"team": 1, "pos": [6.5, 12], "aims": 2},
               {"team": 1, "pos": [20, 20]}], tray=[4, 3], terrain=[])
    dice(1, 1)
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert s["kids"]["k3"]["aims"] == 0


def test_just_over_an_inch_is_a_fair_throw(dice):
    s = scene([{"team": 0, "pos": [5, 12], "snowballs": [1]}, {"team": 1, "pos": [7.02, 12]}], tray=[4, 3],
              terrain=[])
    dice(3, 3)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert not of_type(events, "to_hit")[0]["automatic"] and not of_type(events, "parents")


def test_refused_actions_change_nothing():
    s = scene([{"team": 0, "pos": [5, 12], "snowballs": [1]}, {"team": 1, "pos": [7.02, 12]}], tray=[4, 3],
              terrain=[])
    import copy
    before = copy.deepcopy(s)
    for bad in ({"type": "throw", "die": 2, "target": "k3", "snowball": 1}, {"type": "nope"}, {"type": "aim"},
                {"type": "move_to", "to": [1, 1]}, {"type": "gather", "die": 2, "make": "melt"}, "aim"):
        with pytest.raises((BadAction, IllegalAction, NotYourTurn)):
            R.apply(s, 0, bad)
    with pytest.raises(NotYourTurn):
        R.apply(s, 1, {"type": "aim", "die": 3})
    assert s == before


@pytest.mark.parametrize(("dice", "said"), [([1], "rolls 1: 1 inch"), ([4], "rolls 4: 4 inches"),
                                             ([3, 4], "rolls 3 + 4 = 7 inches")])
def test_a_move_roll_is_told_in_inches_as_english_counts_them(dice, said):
    from games.engines.what_a_snowball.common import _rolled_inches

    assert _rolled_inches(dice) == said
