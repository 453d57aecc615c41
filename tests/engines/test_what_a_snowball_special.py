"""What a Snowball!: special players, ability cards, hidden hands and the end of the game."""
from __future__ import annotations

import copy

import pytest

from games.engines.base import BadAction, IllegalAction
from games.engines.what_a_snowball import RULESET as R

from tests.engines.what_a_snowball_scenes import act, dice, of_type, piece, rect, scene  # noqa: F401

MORE = [3] * 24  # dice for whoever activates next


def throw_scene(thrower: dict, target: dict, gap: float = 5.0, **kw):
    return scene([{"team": 0, "pos": [3, 12], "snowballs": [1], **thrower},
                  {"team": 1, "pos": [4 + gap, 12], **target}, {"team": 1, "pos": [20, 22]},
                  {"team": 0, "pos": [2, 2]}], tray=kw.pop("tray", [4, 3]), terrain=kw.pop("terrain", []), **kw)


def modifier_labels(events):
    return [m["label"] for m in of_type(events, "to_hit")[0]["modifiers"]]


# --- special players --------------------------------------------------------------------------

@pytest.mark.parametrize("thrower, target, total", [
    ("kid", "big_kid", 5), ("elf", "big_kid", 7), ("kid", "snowman", 5), ("elf", "snowman", 7),
    ("kid", "elf", 5), ("elf", "elf", 6), ("elf", "kid", 7), ("kid", "kid", 6),
])
def test_dodgers_blenders_and_skirmishers_change_the_roll_to_hit(dice, thrower, target, total):
    s = throw_scene({"type": thrower}, {"type": target})
    dice(3, 3, *MORE)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert of_type(events, "to_hit")[0]["total"] == total


@pytest.mark.parametrize("rolls, lost", [([5, 4, 4], 1), ([4, 4, 4], 0), ([6, 5, 1], 2)])
def test_warm_heart_an_elf_loses_dice_only_on_fives_and_sixes(dice, rolls, lost):
    s = throw_scene({"snowballs": [3]}, {"type": "elf"})
    dice(6, 4, *rolls)
    after, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 3})
    assert after["kids"]["k3"]["command_dice"] == 6 - lost


@pytest.mark.parametrize("rolls, lost", [([4, 4, 4, 4, 4], 2), ([4, 1, 1, 1, 1], 0), ([4, 4, 1, 1, 1], 1)])
def test_thick_fur_a_yeti_loses_one_die_per_two_fours(dice, rolls, lost):
    s = throw_scene({"snowballs": [5]}, {"type": "yeti"})
    dice(6, 4, *rolls)
    after, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5})
    assert after["kids"]["k3"]["command_dice"] == 6 - lost


def test_throw_yourself_a_snowman_throws_a_command_die_as_size_four(dice):
    s = throw_scene({"type": "snowman", "snowballs": [], "command_dice": 2}, {})
    assert {"type": "throw", "die": 4, "target": "k3", "snowball": "self", "cards": []} in R.legal_actions(s, 0)
    dice(3, 3, 1, 1, 1, 1)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": "self"})
    assert after["kids"]["k0"]["command_dice"] == 1
    assert "Size 4 snowball" in modifier_labels(events)
    s = copy.deepcopy(s)  # a state once asked about is never changed: this is another state
    s["kids"]["k0"]["command_dice"] = 1
    assert not any(a.get("snowball") == "self" for a in R.legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="last piece"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": "self"})


def test_only_a_snowman_throws_itself():
    s = throw_scene({"snowballs": []}, {})
    with pytest.raises(IllegalAction, match="Snowman"):
        R.apply(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": "self"})


def test_made_of_snow_a_snowman_gathers_a_lost_command_die_back():
    s = throw_scene({"type": "snowman", "command_dice": 5}, {}, tray=[2, 3])
    s, _ = act(s, 0, {"type": "gather", "die": 2, "make": "mend"})
    assert s["kids"]["k0"]["command_dice"] == 6
    s["activation"]["tray"] = [2, 3]
    with pytest.raises(IllegalAction, match="lost no"):
        R.apply(s, 0, {"type": "gather", "die": 2, "make": "mend"})


@pytest.mark.parametrize("aggressor, victim, too_close, rolled", [
    ("kid", "elf", False, False), ("snowman", "elf", True, False), ("elf", "kid", False, False),
    ("elf", "snowman", True, False), ("yeti", "kid", False, False), ("kid", "snowman", True, False),
    ("snowman", "kid", True, False), ("kid", "kid", True, True), ("big_kid", "kid", True, True),
])
def test_who_may_cheat_against_whom_within_an_inch(dice, aggressor, victim, too_close, rolled):
    s = throw_scene({"type": aggressor}, {"type": victim}, gap=0.5)
    dice(5, 5, 1, 1, *([1] * 6))
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert of_type(events, "to_hit")[0]["automatic"] is too_close
    assert bool([e for e in of_type(events, "parents") if e["rolled"]]) is rolled


def test_santas_watching_nobody_but_a_snowman_shoves_an_elf(dice):
    s = scene([{"team": 0, "pos": [5, 12]}, {"team": 1, "pos": [8, 12], "type": "elf"}], tray=[1, 3], terrain=[])
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    assert R.legal_actions(s, 0)[0]["shove"] == []
    with pytest.raises(IllegalAction, match="Santa"):
        R.apply(s, 0, {"type": "move_to", "to": [7.0, 12], "shove": "k3"})


def test_playing_rough_a_big_kid_keeps_the_lower_of_two_dice(dice):
    s = throw_scene({"type": "big_kid"}, {}, gap=0.5)
    dice(1, 6, 3, 3, 3)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    parents = of_type(events, "parents")[0]
    assert parents["dice"] == [6, 3] and parents["kept"] == 3 and not parents["caught"]
    assert after["kids"]["k0"]["home"] is None


def test_playing_rough_a_big_kid_is_caught_when_the_lower_die_is_four(dice):
    s = throw_scene({"type": "big_kid"}, {}, gap=0.5)
    dice(1, 4, 6, *MORE)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert of_type(events, "parents")[0]["kept"] == 4 and after["kids"]["k0"]["home"] == "parents"


@pytest.mark.parametrize("roll, caught", [(2, True), (1, False)])
def test_do_not_hit_animals_parents_catch_cheats_on_a_penguin_on_two(dice, roll, caught):
    s = throw_scene({}, {"type": "penguin"}, gap=0.5)
    dice(1, roll, *MORE)
    after, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert (after["kids"]["k0"]["home"] == "parents") is caught


def test_a_snowman_cheating_against_a_penguin_loses_a_point(dice):
    s = throw_scene({"type": "snowman", "points": 2}, {"type": "penguin"}, gap=0.5)
    dice(1)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert after["kids"]["k0"]["points"] == 2  # +1 for the hit, -1 for the cruelty
    assert of_type(events, "cruel")


@pytest.mark.parametrize("oops, knocked", [(4, True), (3, False)])
def test_oops_a_shoved_yeti_may_knock_the_aggressor_down_too(dice, oops, knocked):
    s = scene([{"team": 0, "pos": [5, 12]}, {"team": 1, "pos": [8, 12], "type": "yeti"},
               {"team": 0, "pos": [2, 2]}], tray=[1, 6, 3], terrain=[])
    dice(6, oops, 1)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, events = act(s, 0, {"type": "move_to", "to": [7.0, 12], "shove": "k3"})
    assert s["kids"]["k3"]["down"]
    assert s["kids"]["k0"]["down"] is knocked
    assert s["kids"]["k0"]["command_dice"] == (5 if knocked else 6)
    if knocked:
        assert {a["type"] for a in R.legal_actions(s, 0)} == {"wild", "end_activation", "surrender"}


@pytest.mark.parametrize("dice_left, kept", [(2, 1), (1, 1)])
def test_oops_takes_a_die_from_an_aggressor_with_two_or_more(dice, dice_left, kept):
    s = scene([{"team": 0, "pos": [5, 12], "command_dice": dice_left}, {"team": 1, "pos": [8, 12], "type": "yeti"},
               {"team": 0, "pos": [2, 2]}], tray=[1, 6], terrain=[])
    dice(6, 4, 1)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, _ = act(s, 0, {"type": "move_to", "to": [7.0, 12], "shove": "k3"})
    assert s["kids"]["k0"]["down"] and s["kids"]["k0"]["command_dice"] == kept


def test_a_yeti_is_too_friendly_to_shove():
    s = scene([{"team": 0, "pos": [5, 12], "type": "yeti"}, {"team": 1, "pos": [7, 12]}], tray=[1, 3], terrain=[])
    s["pending"] = {"kind": "move_to", "seat": 0, "kid": "k0", "roll": 3, "dice": [3], "slide": False,
                    "shove": True, "source": "move", "then": None}
    s["activation"]["tray"] = [3]
    with pytest.raises(IllegalAction, match="Yeti"):
        R.apply(s, 0, {"type": "move_to", "to": [6.0, 12], "shove": "k3"})


def test_slide_a_penguin_on_snow_moves_two_dice_and_keeps_off_the_road(dice):
    road = piece("t1", "road", rect(8, 0, 9, 24))
    s = scene([{"team": 0, "pos": [3, 12], "type": "penguin"}, {"team": 1, "pos": [20, 20]}], tray=[1, 3],
              terrain=[road])
    assert {"type": "move", "die": 1, "slide": True} in R.legal_actions(s, 0)
    dice(6, 5)
    slid, events = act(s, 0, {"type": "move", "die": 1, "slide": True})
    assert of_type(events, "move_roll")[0]["roll"] == 11
    act(slid, 0, {"type": "move_to", "to": [7.5, 3]})
    with pytest.raises(IllegalAction, match="cannot reach"):
        R.apply(slid, 0, {"type": "move_to", "to": [12, 12]})
    on_road = scene([{"team": 0, "pos": [8.5, 12], "type": "penguin"}, {"team": 1, "pos": [20, 20]}], tray=[1, 3],
                    terrain=[road])
    with pytest.raises(IllegalAction, match="cannot slide"):
        R.apply(on_road, 0, {"type": "move", "die": 1, "slide": True})


def test_a_snowman_shoving_a_penguin_with_no_points_keeps_none(dice):
    s = scene([{"team": 0, "pos": [5, 12], "type": "snowman"}, {"team": 1, "pos": [8, 12], "type": "penguin"},
               {"team": 0, "pos": [2, 2]}], tray=[1, 3], terrain=[])
    dice(6)
    s, _ = act(s, 0, {"type": "move", "die": 1})
    s, events = act(s, 0, {"type": "move_to", "to": [7.0, 12], "shove": "k3"})
    assert s["kids"]["k3"]["down"] and of_type(events, "cruel")
    assert s["kids"]["k0"]["points"] == 0


def test_an_elf_knocked_down_gets_up_with_a_five():
    s = throw_scene({"type": "elf", "down": True}, {}, tray=[5, 4])
    assert {"type": "wild", "die": 5, "use": "get_up"} in R.legal_actions(s, 0)
    s, _ = act(s, 0, {"type": "wild", "die": 5, "use": "get_up"})
    assert not s["kids"]["k0"]["down"]


def test_only_penguins_slide():
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [20, 20]}], tray=[1, 3], terrain=[])
    with pytest.raises(IllegalAction, match="Only Penguins"):
        R.apply(s, 0, {"type": "move", "die": 1, "slide": True})


# --- ability cards -------------------------------------------------------------------------------

@pytest.mark.parametrize("choice, gained", [("three_1", [1, 1, 1]), ("two_3", [3, 3]), ("one_5", [5])])
def test_ive_been_saving_these(choice, gained):
    s = throw_scene({"snowballs": [2]}, {}, cards="method1", hands={0: ["saving"]})
    s, _ = act(s, 0, {"type": "play_card", "card": "saving", "choice": choice})
    assert s["kids"]["k0"]["snowballs"] == sorted([2] + gained)
    assert s["hands"][0] == [] and s["discards"] == ["saving"]


def test_im_not_done_yet_rolls_six_dice_whatever_is_left(dice):
    s = throw_scene({"command_dice": 2}, {}, cards="method1", hands={0: ["not_done"]}, stage="start")
    assert R.to_act(s)[0].default == {"type": "roll"}
    dice(1, 2, 3, 4, 5, 6)
    after, events = act(s, 0, {"type": "play_card", "card": "not_done"})
    assert after["activation"]["tray"] == [1, 2, 3, 4, 5, 6] and after["kids"]["k0"]["command_dice"] == 2
    with pytest.raises(IllegalAction):
        R.apply(s, 0, {"type": "play_card", "card": "saving", "choice": "one_5"})


def test_ice_to_see_you_adds_three_to_the_size_beyond_the_maximum(dice):
    s = throw_scene({"snowballs": [5]}, {}, cards="method1", hands={0: ["ice"]})
    dice(6, 6, *([1] * 9))
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5, "cards": ["ice"]})
    effect = of_type(events, "effect")[0]
    assert effect["size"] == 9 and len(effect["dice"]) == 9


def test_thanks_grandma_the_hit_scores_but_costs_no_dice(dice):
    s = throw_scene({"snowballs": [5]}, {}, cards="method1", hands={1: ["grandma"]})
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5})
    assert R.to_act(s)[1].extra == {"cards": [], "moment": "throw_declared"}  # asked, with nothing to play
    dice(5, 5)
    s, events = act(s, 1, {"type": "decline"})
    assert R.to_act(s).keys() == {1} and R.to_act(s)[1].kind == "reaction"
    assert R.to_act(s)[1].extra == {"cards": ["grandma"], "moment": "hit"}
    s, events = act(s, 1, {"type": "play_card", "card": "grandma"})
    assert s["kids"]["k3"]["command_dice"] == 6 and s["kids"]["k0"]["points"] == 1
    assert of_type(events, "effect")[0]["grandma"]


@pytest.mark.parametrize("cards, rolled, kept", [
    (["pitch"], [1, 5, 3], [3, 5]), ([], [1, 5], [1, 5]),
])
def test_practicing_my_pitch_rolls_three_dice_and_drops_the_lowest(dice, cards, rolled, kept):
    s = throw_scene({}, {}, cards="method1", hands={0: ["pitch"]})
    dice(*rolled, *MORE)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1, "cards": cards})
    assert of_type(events, "to_hit")[0]["kept"] == kept


@pytest.mark.parametrize("pitch, rolled, kept", [(False, [1, 5, 3], [1, 3]), (True, [1, 5], [1, 5])])
def test_missed_me_dork_drops_the_highest_and_cancels_the_pitch(dice, pitch, rolled, kept):
    s = throw_scene({}, {}, cards="method1", hands={0: ["pitch"], 1: ["dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1, "cards": ["pitch"] if pitch else []})
    assert R.to_act(s)[1].extra["cards"] == ["dork"]
    dice(*rolled, *MORE)
    _, events = act(s, 1, {"type": "play_card", "card": "dork"})
    assert of_type(events, "to_hit")[0]["kept"] == kept


def test_a_natural_two_is_judged_on_the_dice_kept_after_missed_me_dork(dice):
    s = throw_scene({"snowballs": [5], "aims": 4}, {}, cards="method1", hands={1: ["dork"]}, tray=[4, 3])
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5})
    dice(1, 6, 1, *MORE)
    s, events = act(s, 1, {"type": "play_card", "card": "dork"})
    to_hit = of_type(events, "to_hit")[0]
    assert to_hit["kept"] == [1, 1] and to_hit["total"] >= to_hit["needs"] and not to_hit["hit"]
    assert of_type(events, "critical_miss") and s["activation"]["kid"] != "k0"


def test_a_natural_twelve_is_judged_on_the_dice_kept_after_practicing_my_pitch(dice):
    s = throw_scene({}, {}, cards="method1", hands={0: ["pitch"]}, gap=14,
                    terrain=[piece(f"t{i}", "bench", rect(5 + 2 * i, 12.6, 6 + 2 * i, 13)) for i in range(5)])
    dice(6, 1, 6, 1, 1)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1, "cards": ["pitch"]})
    to_hit = of_type(events, "to_hit")[0]
    assert to_hit["kept"] == [6, 6] and to_hit["total"] < to_hit["needs"] and to_hit["critical"] == "hit"
    assert of_type(events, "effect")[0]["size"] == 2


def test_never_ask_skips_the_reaction_once_every_card_of_the_moment_is_set_to_it(dice):
    s = throw_scene({}, {}, cards="method1", hands={1: ["dork"]})
    s, _ = act(s, 1, {"type": "set_never_ask", "card": "dork", "on": True})
    asked, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert asked["pending"]["seat"] == 1 and R.to_act(asked)[1].extra["cards"] == []  # "dash" could still come
    s, _ = act(s, 1, {"type": "set_never_ask", "card": "dash", "on": True})
    dice(1, 5, *MORE)
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert of_type(events, "to_hit") and s["hands"][1] == ["dork"]


def test_setting_never_ask_while_asked_answers_the_question_once_it_is_about_nothing_left(dice):
    s = throw_scene({}, {}, cards="method1", hands={1: ["dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    s, events = act(s, 1, {"type": "set_never_ask", "card": "dork", "on": True})
    assert not of_type(events, "to_hit") and R.to_act(s)[1].extra["cards"] == []
    assert R.legal_actions(s, 1)[0] == {"type": "decline"}
    dice(1, 5, *MORE)
    s, events = act(s, 1, {"type": "set_never_ask", "card": "dash", "on": True})
    assert of_type(events, "to_hit") and s["pending"] is None


@pytest.mark.parametrize("play", [True, False])
def test_a_christmas_miracle_saves_a_caught_cheat(dice, play):
    s = throw_scene({}, {}, gap=0.5, cards="method1", hands={0: ["miracle"]})
    dice(1, 6)
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert R.to_act(s)[0].extra["cards"] == ["miracle"]
    dice(*MORE)
    s, events = act(s, 0, {"type": "play_card", "card": "miracle"} if play else {"type": "decline"})
    assert (s["kids"]["k0"]["home"] is None) is play


def test_an_elf_swaps_a_christmas_miracle_for_two_cards():
    s = throw_scene({"type": "elf"}, {}, cards="method1", hands={0: ["miracle"]})
    s["deck"] = ["pitch", "ice", "dork"]
    s, _ = act(s, 0, {"type": "play_card", "card": "miracle"})
    assert sorted(s["hands"][0]) == ["dork", "ice"]
    kid = throw_scene({}, {}, cards="method1", hands={0: ["miracle"]})
    with pytest.raises(IllegalAction):
        R.apply(kid, 0, {"type": "play_card", "card": "miracle"})


def test_dashing_through_the_snow_moves_the_target_but_the_throw_still_resolves(dice):
    s = throw_scene({}, {}, cards="method1", hands={1: ["dash"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    dice(3, 4)
    s, _ = act(s, 1, {"type": "play_card", "card": "dash"})
    assert R.to_act(s)[1].kind == "effect" and R.legal_actions(s, 1)[0]["roll"] == 7
    dice(3, 4, 1)
    s, events = act(s, 1, {"type": "move_to", "to": [9, 19]})
    assert s["kids"]["k3"]["pos"] == [9.0, 19.0]
    to_hit = of_type(events, "to_hit")[0]
    assert to_hit["needs"] == 7 and to_hit["hit"]


def test_a_too_close_throw_still_lets_its_target_dash_but_not_cry_missed_me_dork(dice):
    """The dash may be played "at any time... Any THROW actions targeting you are still resolved";
    a Too Close throw rolls no dice to hit, so "Missed me, dork!" has nothing to act on."""
    s = throw_scene({}, {}, gap=0.5, cards="method1", hands={1: ["dash", "dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert 1 in R.to_act(s)
    offered = {a["card"] for a in R.legal_actions(s, 1) if a["type"] == "play_card"}
    assert offered == {"dash"}
    dice(3, 4)
    s, _ = act(s, 1, {"type": "play_card", "card": "dash"})
    dice(*([1] * 8))
    s, events = act(s, 1, {"type": "move_to", "to": [8, 16]})
    assert s["kids"]["k3"]["pos"] == [8.0, 16.0] and "dork" in s["hands"][1]
    assert of_type(events, "to_hit")[0]["automatic"] is True  # declared Too Close, resolved as declared


def test_dashing_in_your_own_activation():
    s = throw_scene({}, {}, cards="method1", hands={0: ["dash"]})
    s, _ = act(s, 0, {"type": "play_card", "card": "dash"})
    assert R.to_act(s)[0].kind == "effect" and s["activation"]["tray"] == [3, 4]


def test_method_one_draws_a_card_at_three_points_and_for_sending_a_kid_home(dice):
    s = throw_scene({"points": 2, "snowballs": [1, 1]}, {"command_dice": 1}, cards="method1", tray=[4, 4, 3])
    s["deck"] = ["ice", "pitch", "dash"]
    dice(4, 4, 6)
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert s["kids"]["k0"]["points"] == 3 and s["kids"]["k3"]["home"] == "cold"
    assert sorted(s["hands"][0]) == ["dash", "pitch"]
    assert [e["why"] for e in of_type(events, "draw")] == ["T0K0 reached 3 points", "T0K0 sent T1K0 home"]


def test_method_one_draws_again_at_six_points(dice):
    s = throw_scene({"points": 5, "snowballs": [1]}, {}, cards="method1")
    s["kids"]["k0"]["cards_for_points"] = 1
    s["deck"] = ["ice", "pitch"]
    dice(4, 4, 1, *MORE)
    s, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert s["kids"]["k0"]["points"] == 6 and s["hands"][0] == ["pitch"]
    assert [e["why"] for e in of_type(events, "draw")] == ["T0K0 reached 6 points"]


def test_hands_are_hidden_from_every_other_seat_and_spectators():
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 1, "pos": [9, 12]}, {"team": 2, "pos": [15, 12]}],
              teams=3, cards="method2", hands={0: ["dork", "ice"], 1: ["pitch"], 2: ["dash"]})
    other = copy.deepcopy(s)
    other["hands"][0] = ["miracle", "grandma"]
    other["deck"] = ["saving"] * 5
    s["deck"] = ["pitch"] * 5
    for viewer in (1, 2, None):
        seen = R.view(s, viewer)
        assert seen == R.view(other, viewer)
        assert seen["hand_sizes"] == [2, 1, 1]
    assert R.view(s, 0)["hand"] == ["dork", "ice"]
    assert R.view(s, 1)["hand"] == ["pitch"] and R.view(s, None)["hand"] is None
    assert all("seed" not in R.view(s, v) and "rng_counter" not in R.view(s, v) for v in (0, 1, None))


def test_a_drawn_card_is_named_only_to_its_owner(dice):
    s = throw_scene({"points": 2}, {}, cards="method1")
    s["deck"] = ["grandma"]
    dice(6, 6, 1, 1)
    _, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    named = [e for e in events if "grandma" in e.get("cards", []) or "Thanks, Grandma" in e["text"]]
    assert named and all(e.get("visible_to") == [0] for e in named)


# --- the end ------------------------------------------------------------------------------------

def test_after_six_turns_remaining_kids_points_and_bonuses_decide(dice):
    s = scene([{"team": 0, "pos": [3, 12], "points": 4}, {"team": 1, "pos": [9, 12], "points": 1},
               {"team": 1, "pos": [15, 12], "points": 2}], tray=[3])
    s["turn"] = 6
    s["next_index"] = len(s["order"])
    after, events = act(s, 0, {"type": "aim", "die": 3})
    outcome = R.outcome(after)
    teams = {row["team"]: row for row in outcome["teams"]}
    # team 0 has 1 of 3 Kids (4 points); team 1 has 2 of 3 (3 points) and the most Kids left
    assert teams[0]["score"] == 4 and teams[1]["score"] == 3 + 5
    assert outcome["winners"] == [1] and outcome["scores"] == [4, 8]


def test_all_kids_and_most_kids_bonuses_and_a_tie_shares_the_win():
    s = scene([{"team": 0, "pos": [3, 12]}, {"team": 0, "pos": [3, 14]}, {"team": 0, "pos": [3, 16]},
               {"team": 1, "pos": [9, 12], "points": 5}, {"team": 1, "pos": [9, 14]}, {"team": 1, "pos": [9, 16]}],
              tray=[3])
    s["turn"] = 6
    s["next_index"] = len(s["order"])
    after, _ = act(s, 0, {"type": "aim", "die": 3})
    scores = {row["team"]: row["score"] for row in R.outcome(after)["teams"]}
    assert scores == {0: 10, 1: 15}
    s["kids"]["k0"]["points"] = 5
    after, _ = act(s, 0, {"type": "aim", "die": 3})
    assert R.outcome(after)["winners"] == [0, 1]


def test_a_team_wiped_out_scores_minus_a_million_and_the_last_team_wins_at_once(dice):
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [5]}, {"team": 1, "pos": [6, 12], "command_dice": 1,
                                                                "points": 9},
               {"team": 2, "pos": [20, 20]}], teams=3, tray=[4, 3], terrain=[])
    dice(4, 4, 6, 1, 1, 1, 1)
    after, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 5})
    assert after["phase"] == "play"
    scores = {r["team"]: r for r in R.view(after, None)["teams"]}
    assert scores
    after["kids"]["k6"]["home"] = "cold"
    after["kids"]["k6"]["pos"] = None
    after, _ = act(after, 0, {"type": "aim", "die": 3})
    outcome = R.outcome(after)
    assert outcome["winners"] == [0] and "one team is left" in outcome["reason"]
    teams = {r["team"]: r["score"] for r in outcome["teams"]}
    assert teams[1] == -1_000_000 and teams[2] == -1_000_000 and teams[0] == 1 + 5


def test_a_cheat_that_sends_the_last_enemy_home_wins_before_the_parents_look(dice):
    s = scene([{"team": 0, "pos": [5, 12], "snowballs": [1]}, {"team": 1, "pos": [7.0, 12], "command_dice": 1}],
              tray=[4, 3], terrain=[])
    dice(4, 6)
    after, events = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert not of_type(events, "parents") and after["kids"]["k0"]["home"] is None
    outcome = R.outcome(after)
    assert outcome["winners"] == [0] and "one team is left" in outcome["reason"]


def test_a_team_surrenders_only_when_all_its_seats_agree():
    kids = [{"name": n, "seat": seat} for n, seat in (("A", 0), ("B", 1), ("C", 1), ("D", 2), ("E", 2), ("F", 2))]
    s = R.new_game(players=3, options={"kids": kids}, seed=4, teams=[0, 0, 1])
    while s["phase"] in ("corners", "deploy"):
        seat = min(R.to_act(s))
        s, _ = R.apply(s, seat, R.to_act(s)[seat].default)
    s, _ = act(s, 0, {"type": "surrender", "on": True})
    assert R.outcome(s) is None
    s, events = act(s, 1, {"type": "surrender"})
    outcome = R.outcome(s)
    assert outcome["winners"] == [2] and outcome["losers"] == [0, 1]


# --- views and settings ----------------------------------------------------------------------------

def test_each_kid_has_its_character_sheet_in_every_view():
    s = scene([{"team": 0, "pos": [3, 12], "type": "yeti", "snowballs": [2, 5], "points": 3},
               {"team": 1, "pos": [9, 12], "type": "elf"},
               {"team": 1, "pos": [9, 16], "type": "big_kid", "traits": ["skilful", "resourceful"]}])
    for viewer in (0, 1, None):
        kids = R.view(s, viewer)["kids"]
        yeti, elf, big = kids["k0"], kids["k3"], kids["k4"]
        assert yeti["sheet"]["traits"] == ["Fast", "Strong"] and yeti["sheet"]["faces"]["5"] == "MOVE or THROW"
        assert (yeti["points"], yeti["command_dice"], yeti["snowballs"]) == (3, 6, [2, 5])
        assert elf["sheet"]["traits"] == [] and elf["sheet"]["faces"]["5"] == "WILD DICE"
        assert big["sheet"]["faces"]["5"] == "AIM or GATHER SNOW" and big["sheet"]["type_label"] == "Big Kid"


def test_the_active_kids_lines_of_fire_show_what_the_throw_would_need():
    wall = piece("t1", "wall", rect(6, 12.6, 7, 13))
    s = scene([{"team": 0, "pos": [3, 12], "snowballs": [1], "aims": 1}, {"team": 1, "pos": [11, 12]},
               {"team": 1, "pos": [3, 20]}], terrain=[wall])
    lines = {line["to"]: line for line in R.view(s, None)["lines_of_fire"]}
    assert lines["k3"]["visible"] and lines["k3"]["needs"] == 8 and lines["k3"]["objects"] == ["t1"]
    assert sum(m["value"] for m in lines["k3"]["modifiers_without_size"]) == 0


def test_only_the_cards_a_seat_is_asked_about_can_be_set_to_never_ask_and_only_for_ones_own_seat():
    s = throw_scene({}, {}, cards="method1")
    assert [a["card"] for a in R.legal_actions(s, 0) if a["type"] == "set_never_ask"] == [
        "not_done", "dork", "dash", "grandma", "miracle"]
    with pytest.raises(BadAction, match="cards you are asked about"):
        R.apply(s, 1, {"type": "set_never_ask", "card": "saving"})
    s, events = act(s, 1, {"type": "set_never_ask", "card": "grandma", "on": True})
    assert s["never_ask"] == [[], ["grandma"]] and events[0]["visible_to"] == [1]
    assert R.view(s, 1)["never_ask"] == ["grandma"] and R.view(s, 0)["never_ask"] == []
    assert R.view(s, None)["never_ask"] is None


def test_a_knocked_down_target_is_not_offered_a_dash(dice):
    s = throw_scene({}, {"down": True}, cards="method1", hands={1: ["dash", "dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    assert R.to_act(s)[1].extra["cards"] == ["dork"]


def test_a_surrender_waits_for_the_throw_in_progress(dice):
    s = throw_scene({}, {}, cards="method1", hands={1: ["dork"]})
    s, _ = act(s, 0, {"type": "throw", "die": 4, "target": "k3", "snowball": 1})
    s, _ = act(s, 1, {"type": "surrender"})
    assert s["kids"]["k3"]["home"] is None and R.outcome(s) is None
    dice(3, 3, 3)
    s, events = act(s, 1, {"type": "play_card", "card": "dork"})
    assert of_type(events, "to_hit") and of_type(events, "surrender")
    assert R.outcome(s)["winners"] == [0]


def test_a_seat_may_withdraw_its_surrender_vote():
    kids = [{"name": n, "seat": seat} for n, seat in (("A", 0), ("B", 1), ("C", 1), ("D", 2), ("E", 2), ("F", 2))]
    s = R.new_game(players=3, options={"kids": kids}, seed=4, teams=[0, 0, 1])
    s, _ = act(s, 0, {"type": "surrender", "on": True})
    s, _ = act(s, 0, {"type": "surrender", "on": False})
    s, events = act(s, 1, {"type": "surrender", "on": True})
    assert events[0]["agreed"] == 1 and s["surrendered"] == []
