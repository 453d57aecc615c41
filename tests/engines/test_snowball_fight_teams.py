"""Snowball Fight in teams: the rule book's "Team Play Variant" and RULINGS 15.

Teams [0, 1, 0, 1]: seat 0 battles seat 1, seat 2 battles seat 3; the leaders are seats 0
and 1 unless ``team_leaders`` says otherwise.
"""
from __future__ import annotations

import json

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from tests.engines.privacy_oracle import find_leaks
from tests.engines.test_snowball_fight_table_helpers import (
    book_scores,
    deck_cards,
    finish_prompts,
    game_cards,
    play_each,
    public_text,
    team_table,
)

ALTERNATING = [0, 1, 0, 1]
DODGE_HANDS = [["c01", "c03"], ["c02", "c04"], ["c01b", "c03b"], ["c02b", "c04b"]]
DODGES = {0: ("c03", "top"), 1: ("c04", "top"), 2: ("c03b", "top"), 3: ("c04b", "top")}


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players,teams,message", [
    (4, [0, 0, 0, 1], "two teams of the same size"),
    (3, [0, 1, 0], "two teams of the same size"),
    (2, [0, 1], "two teams of the same size"),
    (4, [0, 1, 2, 1], r"teams\[2\] must be 0 or 1"),
    (4, [0, 1, 0], "each of the 4 seats"),
    (4, "0101", "each of the 4 seats"),
])
def test_bad_teams_are_refused(players, teams, message):
    with pytest.raises(BadAction, match=message):
        RULESET.new_game(players=players, options={}, seed=1, teams=teams)


def test_team_leaders_option_is_checked():
    with pytest.raises(BadAction, match=r"team_leaders\[0\] must be a seat of team 0"):
        RULESET.new_game(players=4, options={"team_leaders": [1, 3]}, seed=1, teams=ALTERNATING)
    with pytest.raises(BadAction, match="only for team play"):
        RULESET.new_game(players=4, options={"team_leaders": [0, 1]}, seed=1)
    s = RULESET.new_game(players=4, options={"team_leaders": [2, 3]}, seed=1, teams=ALTERNATING)
    assert s["leaders"] == [2, 3]
    assert RULESET.new_game(players=4, options={}, seed=1, teams=[1, 1, 0, 0])["leaders"] == [2, 0]
    view = RULESET.view(s, None)
    assert [x["leader"] for x in view["seats"]] == [False, False, True, True]
    assert view["options"]["team_leaders"] == [2, 3]


@pytest.mark.parametrize("teams,opponents", [
    ([0, 1, 0, 1], [1, 0, 3, 2]),
    ([0, 0, 1, 1], [2, 3, 0, 1]),
    ([0, 0, 0, 1, 1, 1], [3, 4, 5, 0, 1, 2]),
])
def test_players_pair_off_and_the_draft_passes_to_an_opponent_and_comes_from_another(teams, opponents):
    s = RULESET.new_game(players=len(teams), options={}, seed=4, teams=teams)
    assert s["opponents"] == opponents
    assert sorted(game_cards(s)) == deck_cards(len(teams))
    pass_to = s["draft"]["pass_to"]
    for seat in range(len(teams)):
        receives_from = pass_to.index(seat)
        assert teams[pass_to[seat]] != teams[seat] and teams[receives_from] != teams[seat]
        assert receives_from != pass_to[seat]
    packs = [list(p) for p in s["draft"]["packs"]]
    for seat in range(len(teams)):
        s, _ = RULESET.apply(s, seat, {"type": "play", "card": packs[seat][0]})
    for seat in range(len(teams)):
        assert sorted(s["draft"]["packs"][pass_to[seat]]) == sorted(packs[seat][1:])


def test_team_draft_ends_with_a_pile_of_four_per_player_and_personal_decks():
    s = RULESET.new_game(players=6, options={"draft": "quick"}, seed=9, teams=[0, 0, 0, 1, 1, 1])
    while s["phase"] == "draft":
        seat = min(RULESET.to_act(s))
        s, _ = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
    assert [len(p) for p in s["arsenal"]] == [4] * 6
    assert [len(s["draw"][x]) + len(s["hands"][x]) for x in range(6)] == [5] * 6
    assert s["discard"] == [[], []] and s["common"] == [False, False]


# --------------------------------------------------------------------------- personal decks, the team discard


def test_each_player_plays_one_card_at_its_opponent_into_the_teams_common_discard():
    s = team_table(ALTERNATING, hands=DODGE_HANDS)
    s, events = play_each(s, DODGES)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["order"] == [[0, 1], [2, 3]]
    assert "{p0} plays Dodge (Dodge / Restock) at {p1}" in reveal["text"]
    assert sorted(s["discard"][0]) == ["c01", "c01b", "c03", "c03b"]
    assert sorted(s["face_down"][0]) == ["c01", "c01b"]
    assert all(len(h) == 2 for h in s["hands"])  # personal decks still hold cards
    mate, foe = RULESET.view(s, 2), RULESET.view(s, 1)
    assert mate["seats"][0]["hand"] is not None and foe["seats"][0]["hand"] is None
    assert RULESET.view(s, None)["seats"][0]["hand"] is None
    assert [c.get("id") for c in mate["teams"][0]["discard"]].count("c01") == 1
    assert "c01" not in [c.get("id") for c in foe["teams"][0]["discard"]]
    assert foe["teams"][0]["discard_count"] == 4
    s2 = team_table(ALTERNATING, hands=DODGE_HANDS, turn=2)
    s2, events = play_each(s2, DODGES)
    assert next(e for e in events if e["type"] == "reveal")["order"] == [[2, 3], [0, 1]]


def common_deck_state(*, hit_seat_2: bool = False, hit_seat_0: bool = False):
    """Seat 0's own pile is used up: after this turn team 0 draws from its common deck."""
    s = team_table(ALTERNATING, hands=DODGE_HANDS,
                   draw=[[], ["c05", "c06"], ["c05b", "c06b"], ["c05c", "c06c"]])
    plays = dict(DODGES)
    if hit_seat_2:
        plays[2], plays[3] = ("c03b", "bottom"), ("c02b", "top")
    if hit_seat_0:
        plays[0], plays[1] = ("c03", "bottom"), ("c02", "top")
    return play_each(s, plays)


def test_a_used_up_personal_pile_turns_the_team_discard_into_a_common_deck_the_leader_draws_from():
    s, events = common_deck_state()
    log = public_text(events)
    assert "the team discard pile (4 cards) is shuffled into the team's common draw deck" in log
    assert s["common"] == [True, False] and s["step"] == "deal"
    assert RULESET.to_act(s).keys() == {0} and RULESET.to_act(s)[0].kind == "deal"
    pool = s["pool"][0]
    assert len(pool["cards"]) == 2 + 2 and pool["to"] == [0, 2]
    assert s["team_draw"][0] == [] and s["discard"][0] == []
    assert s["hands"][0] == [] and s["hands"][2] == ["c06b"]  # one card from its own pile
    assert s["draw"][2] == ["c05b"]
    private = [e for e in events if e["type"] == "team_draw_private"]
    assert private[0]["visible_to"] == [0, 2] and private[0]["cards"] == pool["cards"]
    for viewer in (1, 3, None):
        view = RULESET.view(s, viewer)
        assert view["teams"][0]["deal"] is None and view["teams"][0]["deal_count"] == 4
        assert find_leaks(s, view, viewer) == []
        current = {key: value for key, value in view.items() if key != "last_reveal"}
        assert not set(pool["cards"]) & set(json.dumps(current).replace('"', " ").split())
    assert [c["id"] for c in RULESET.view(s, 2)["teams"][0]["deal"]["cards"]] == pool["cards"]
    assert RULESET.view(s, 2)["you"]["deal"] is None
    assert RULESET.view(s, 0)["you"]["deal"]["to"] == [0, 2]


def test_the_leader_hands_out_one_card_each_and_two_go_face_down_to_the_team_discard():
    s, _ = common_deck_state()
    pool = s["pool"][0]["cards"]
    s, events = RULESET.apply(s, 0, {"type": "deal", "give": {"0": pool[3], "2": pool[1]}})
    assert s["hands"][0] == [pool[3]] and s["hands"][2] == ["c06b", pool[1]]
    assert sorted(s["discard"][0]) == sorted(s["face_down"][0]) == sorted([pool[0], pool[2]])
    assert s["step"] == "choose" and RULESET.to_act(s).keys() == {0, 1, 2, 3}
    assert public_text(events) == ("{p0} hands out Red team ({p0}, {p2})'s cards; 2 cards go face-down "
                                   "to the team discard pile")
    assert [a for a in RULESET.legal_actions(s, 0) if a["type"] == "play"] == [
        {"type": "play", "card": pool[3], "side": "top"}, {"type": "play", "card": pool[3], "side": "bottom"}]


@pytest.mark.parametrize("seat,action,error", [
    (1, {"type": "deal", "give": {}}, NotYourTurn),
    (2, {"type": "play", "card": "c06b", "side": "top"}, NotYourTurn),
    (0, {"type": "play", "card": "c06b", "side": "top"}, IllegalAction),
    (0, {"type": "deal"}, BadAction),
    (0, {"type": "deal", "give": {"0": "POOL0"}}, IllegalAction),
    (0, {"type": "deal", "give": {"0": "POOL0", "1": "POOL1"}}, IllegalAction),
    (0, {"type": "deal", "give": {"0": "POOL0", "2": "POOL0"}}, IllegalAction),
    (0, {"type": "deal", "give": {"0": "POOL0", "2": "c15"}}, IllegalAction),
])
def test_bad_deals_are_refused_and_change_nothing(seat, action, error):
    s, _ = common_deck_state()
    pool = s["pool"][0]["cards"]
    if "give" in action:
        action = {**action, "give": {k: pool[int(v[4:])] if v.startswith("POOL") else v
                                     for k, v in action["give"].items()}}
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(error):
        RULESET.apply(s, seat, action)
    assert json.dumps(s, sort_keys=True) == before


def test_a_player_hit_into_drawing_one_gets_its_no_effect_card_instead_of_a_team_card():
    s, events = common_deck_state(hit_seat_2=True)
    assert "Snowball Attack hit {p2}" in public_text(events)
    lines = public_text(events).splitlines()
    assert "{p2} draws 1 card from their own pile" in lines
    assert ("{p2} was hit into drawing one card: their No Effect card replaces the card the team leader "
            "would hand them (their own pile still gives them one card)") in lines
    assert not [line for line in lines if "draws one card and takes" in line]
    assert s["pool"][0]["to"] == [0] and len(s["pool"][0]["cards"]) == 1 + 2
    assert s["hands"][2] == ["c06b", "c22b"]
    s, _ = RULESET.apply(s, 0, RULESET.to_act(s)[0].default)
    assert len(s["hands"][0]) == 1
    s, _ = play_each(s, {0: (s["hands"][0][0], "top"), 1: ("c06", "bottom"), 2: ("c22b", "top"),
                         3: ("c06c", "bottom")})
    s, _ = finish_prompts(s)
    assert all("c22b" not in pile for pile in s["discard"]) and "c22b" not in s["abandoned"]


def test_a_player_hit_into_drawing_one_with_its_own_pile_empty_is_told_it_draws_nothing():
    s, events = common_deck_state(hit_seat_0=True)
    assert "Snowball Attack hit {p0}" in public_text(events)
    lines = public_text(events).splitlines()
    assert ("{p0} was hit into drawing one card: their No Effect card replaces the card the team leader "
            "would hand them, and their own pile is empty, so they draw nothing") in lines
    assert not [line for line in lines if line.startswith("{p0} draws")]
    assert s["hands"][0] == ["c22"] and s["pool"][0]["to"] == [2]


def test_team_barrage_may_use_a_card_the_team_discarded_this_turn():
    s = team_table(ALTERNATING, hands=[["c17", "c13"], ["c02", "c04"], ["c01b", "c03b"], ["c02b", "c04b"]],
                   discard=[["c12"], []])
    s, _ = play_each(s, {0: ("c17", "top"), 1: ("c04", "bottom"), 2: ("c03b", "top"), 3: ("c04b", "top")})
    assert s["battle"]["todo"][0]["what"] == "second_card"
    options = RULESET.legal_actions(s, 0)
    assert {o.get("card") for o in options} == {"c13", "c01b", None}
    s, events = RULESET.apply(s, 0, {"type": "second_card", "card": "c01b", "side": "top"})
    assert "Barrage: {p0} plays a second card: Snowball Attack (Snowball Attack / Dodge)" in public_text(events)
    assert "c01b" not in s["face_down"][0]


def test_team_throwing_rocks_against_no_effect_abandons_nothing():
    s = team_table(ALTERNATING, hands=[["c18", "c03"], ["c23"], ["c01b", "c03b"], ["c02b", "c04b"]],
                   common=[False, True], team_draw=[[], ["c05", "c06", "c07", "c08"]])
    s, events = play_each(s, {0: ("c18", "top"), 1: ("c23", "top"), 2: ("c03b", "top"), 3: ("c04b", "top")})
    assert "nothing is Abandoned" in public_text(events)
    assert s["abandoned"] == [] and s["hands"][0] == [s["hands"][0][0]]


# --------------------------------------------------------------------------- upgrades across battles

UPGRADERS = [["c05", "c01"], ["c02", "c04"], ["c01b", "c03b"], ["c06", "c02b"]]
UPGRADES_AND_DODGES = {0: ("c05", "bottom"), 1: ("c04", "top"), 2: ("c03b", "top"), 3: ("c06", "bottom")}
TAKEN_TOO_SOON = ("a pile's next card is turned face-up only after all of this turn's upgrades")


def test_an_upgrade_in_a_later_battle_is_told_who_took_its_piles_face_up_card():
    """Seat 0's own pile is empty; in battle 1 it takes the top card of seat 3's pile. Seat 3,
    upgrading in battle 2, finds its own pile without a face-up card until the turn is over
    (RULINGS 1, 12: battles resolve one at a time, the Arsenal flips after every upgrade)."""
    s = team_table(ALTERNATING, hands=UPGRADERS, arsenal=[[], [], [], ["c15", "c16"]])
    s, events = play_each(s, UPGRADES_AND_DODGES)
    log = public_text(events)
    assert "Upgrade: {p0} takes Offensive Dodge / Ultra Upgrade from the Arsenal pile near {p3}" in log
    assert ("Upgrade: there is no card {p3} can take: {p0} took the face-up card of the Arsenal pile near {p3} "
            f"earlier this turn, and {TAKEN_TOO_SOON}; the Arsenal piles near {{p0}}, {{p1}} and {{p2}} are empty") in log
    assert log.index("there is no card {p3}") < log.index("The Arsenal pile near {p3} flips Iceball Attack / Snow Fort")
    assert "c16" in s["discard"][0] and "c15" not in s["discard"][1] and s["arsenal"][3] == ["c15"]


def test_the_battle_order_not_the_piles_owner_decides_who_upgrades_first():
    """Turn 2 starts with battle 2: now seat 3 takes its own pile's card first and seat 0,
    whose own pile is empty, is the one told why it gets nothing."""
    s = team_table(ALTERNATING, hands=UPGRADERS, arsenal=[[], [], [], ["c15", "c16"]], turn=2)
    s, events = play_each(s, UPGRADES_AND_DODGES)
    log = public_text(events)
    assert "Upgrade: {p3} takes Offensive Dodge / Ultra Upgrade from the Arsenal pile near {p3}" in log
    assert ("Upgrade: there is no card {p0} can take: {p3} took the face-up card of the Arsenal pile near {p3} "
            f"earlier this turn, and {TAKEN_TOO_SOON}; the Arsenal piles near {{p0}}, {{p1}} and {{p2}} are empty") in log
    assert "c16" in s["discard"][1] and s["arsenal"][3] == ["c15"]


@pytest.mark.parametrize("takes,later_takes,pile", [("c16", "c08", "{p0}"), ("c08", "c16", "{p3}")])
def test_an_upgrader_whose_own_pile_is_not_empty_chooses_and_the_later_one_takes_another_open_pile(
        takes, later_takes, pile):
    s = team_table(ALTERNATING, hands=UPGRADERS, arsenal=[["c08"], [], [], ["c15", "c16"]])
    s, _ = play_each(s, UPGRADES_AND_DODGES)
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c08", "c16"}
    s, events = RULESET.apply(s, 0, {"type": "upgrade", "card": takes})
    assert f"Upgrade: {{p3}} takes {C.card_name(later_takes)} from the Arsenal pile near {pile}" in public_text(events)
    assert "there is no card" not in public_text(events)


# --------------------------------------------------------------------------- the end


def test_the_game_ends_when_all_arsenal_piles_are_empty_and_team_scores_are_totalled():
    s = team_table(ALTERNATING, hands=[["c05", "c03"], ["c02", "c04"], ["c01b", "c03b"], ["c02b", "c04b"]],
                   arsenal=[["c07"], [], [], []])
    s, events = play_each(s, {0: ("c05", "bottom"), 1: ("c04", "top"), 2: ("c03b", "top"), 3: ("c04b", "top")})
    result = RULESET.outcome(s)
    assert result["code"] == "arsenal_empty"
    assert result["team_scores"] == [10, 8]
    assert result["scores"] == [10, 8, 10, 8] and result["winners"] == [0, 2]
    assert "Red team ({p0}, {p2}) wins" in public_text(events)
    assert sum(i["points"] for i in result["breakdown"][0]) == 10


def test_a_team_that_cannot_draw_enough_ends_the_game():
    s = team_table(ALTERNATING, hands=[["c01"], ["c02", "c04"], ["c01b"], ["c02b", "c04b"]],
                   draw=[[], ["c05", "c06"], [], ["c05b", "c06b"]], common=[True, False])
    s, _ = play_each(s, {0: ("c01", "bottom"), 1: ("c04", "top"), 2: ("c01b", "bottom"), 3: ("c04b", "top")})
    result = RULESET.outcome(s)
    assert result["code"] == "cannot_draw"
    assert result["reason"] == ("The game ended at the start of turn 2 because the Red team ({p0}, {p2}) could not "
                                "draw enough cards; the team with the most points wins")
    assert result["team_scores"] == [2, 8] and result["winners"] == [1, 3]


def test_equal_team_scores_share_the_victory():
    s = team_table(ALTERNATING, hands=[["c05", "c03"], ["c06", "c04"], ["c01b", "c03b"], ["c02b", "c04b"]],
                   arsenal=[["c07"], ["c08"], [], []])
    s, _ = play_each(s, {0: ("c05", "bottom"), 1: ("c06", "bottom"), 2: ("c03b", "top"), 3: ("c04b", "top")})
    result = RULESET.outcome(s)
    assert result["team_scores"] == [10, 10] and result["winners"] == [0, 1, 2, 3]


# --------------------------------------------------------------------------- the computer player


@pytest.mark.parametrize("teams", [[0, 1, 0, 1], [0, 0, 1, 1], [0, 0, 0, 1, 1, 1], [1, 0, 1, 0, 1, 0]])
def test_bots_play_team_games_to_the_end_and_they_replay(teams):
    for seed in range(3):
        options = {"draft": "quick"} if seed else {}
        s = RULESET.new_game(players=len(teams), options=options, seed=seed, teams=teams)
        log = []
        kinds = set()
        while RULESET.outcome(s) is None:
            seat = min(RULESET.to_act(s))
            action = RULESET.bot_action(s, seat)
            assert action in RULESET.legal_actions(s, seat)
            kinds.add(action["type"])
            log.append((seat, action))
            s, _ = RULESET.apply(s, seat, action)
            assert len(log) < 5000
        again = RULESET.new_game(players=len(teams), options=options, seed=seed, teams=teams)
        for seat, action in log:
            again, _ = RULESET.apply(again, seat, action)
        assert again == s
        result = RULESET.outcome(s)
        assert result["scores"] == book_scores(s)
        assert result["team_scores"] == [book_scores(s)[teams.index(t)] for t in (0, 1)]
        assert sorted(game_cards(s)) == deck_cards(len(teams)), "a card appeared or vanished"
        assert not any(C.is_no_effect(c) for pile in s["discard"] for c in pile)
