"""Snowball Fight for 3 to 6 players: the rule book's "3+ Player Variant" and the rulings.

Seat i's left neighbour is seat i+1: the card seat i plays "left" meets the card seat i+1
plays "right" (RULINGS 12). No Effect cards: seat 0 c22, seat 1 c23, seat 2 c22b, ...
"""
from __future__ import annotations

import json

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import table as T
from tests.engines.test_snowball_fight_table_helpers import (
    deck_cards,
    finish_prompts,
    game_cards,
    play_all,
    public_text,
    ring_table,
)

DODGES = {0: (("c03", "top"), ("c01", "bottom")), 1: (("c04", "top"), ("c02", "bottom")),
          2: (("c03b", "top"), ("c01b", "bottom"))}


def dodge_hands():
    return [["c01", "c03"], ["c02", "c04"], ["c01b", "c03b"]]


def draft_to_play(s):
    """Every seat takes its default draft choices until the game is in play."""
    while s["phase"] == "draft":
        seat = min(RULESET.to_act(s))
        s, _ = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
    return s


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players,decks,aside_basics", [(3, 2, 3), (4, 2, 0), (5, 3, 3), (6, 3, 0)])
def test_decks_basics_and_no_effect_cards_per_player_count(players, decks, aside_basics):
    s = RULESET.new_game(players=players, options={}, seed=11)
    assert sorted(game_cards(s)) == deck_cards(players)
    used_decks = {C.DECK_SUFFIXES.index(c[3:]) for c in game_cards(s)}
    assert used_decks == set(range(decks))
    for seat in range(players):
        kinds = sorted(C.kind_of(c).key for c in s["draw"][seat])
        assert kinds == ["dodge-restock", "snowball-dodge", "snowball-upgrade"]
    assert len([c for c in s["set_aside"] if C.kind_of(c).level == "basic"]) == aside_basics
    assert len(set(s["no_effect"])) == players
    assert all(C.is_no_effect(c) for c in s["no_effect"])
    assert [len(p) for p in s["draft"]["packs"]] == [4] * players
    assert len(s["draft"]["returned"]) == 8 * decks - 4 * players


@pytest.mark.parametrize("players,central", [(3, 0), (4, 0), (5, 1), (6, 0)])
@pytest.mark.parametrize("draft", ["draft", "quick"])
def test_arsenal_piles_of_four_per_player_and_the_books_central_pile(players, central, draft):
    s = draft_to_play(RULESET.new_game(players=players, options={"draft": draft}, seed=players))
    sizes = [len(p) for p in s["arsenal"]]
    assert sizes[:players] == [4] * players
    assert sizes[players:] == ([central] if central else [])
    assert sorted(game_cards(s)) == deck_cards(players)
    assert [len(s["draw"][x]) + len(s["hands"][x]) for x in range(players)] == [5] * players
    view = RULESET.view(s, 0)
    assert [p["nearest"] for p in view["arsenal"]] == list(range(players)) + ([None] if central else [])
    assert view["set_aside_count"] == len(s["set_aside"])


def test_central_pile_sizes_follow_the_book():
    assert [T.central_size(n, False) for n in range(3, 10)] == [0, 0, 1, 0, 6, 0, 6]
    assert T.central_size(6, True) == 0


def test_the_draft_passes_to_the_left_until_each_has_four_then_keeps_two():
    s = RULESET.new_game(players=4, options={}, seed=3)
    packs = [list(p) for p in s["draft"]["packs"]]
    picks = {seat: packs[seat][0] for seat in range(4)}
    for seat, cid in picks.items():
        s, _ = RULESET.apply(s, seat, {"type": "play", "card": cid})
    for seat in range(4):
        assert sorted(s["draft"]["packs"][(seat + 1) % 4]) == sorted(c for c in packs[seat] if c != picks[seat])
    for _ in range(2):
        for seat in range(4):
            s, _ = RULESET.apply(s, seat, {"type": "play", "card": s["draft"]["packs"][seat][0]})
    assert s["step"] == "keep"
    assert [len(p) for p in s["draft"]["packs"]] == [4] * 4
    for seat in range(4):
        assert picks[seat] in s["draft"]["packs"][seat]
        s, _ = RULESET.apply(s, seat, {"type": "play", "keep": s["draft"]["packs"][seat][:2]})
    assert s["phase"] == "play" and all(len(h) == 2 for h in s["hands"])


def test_quick_setup_deals_three_and_keeps_two():
    s = RULESET.new_game(players=5, options={"draft": "quick"}, seed=8)
    assert s["step"] == "keep" and [len(p) for p in s["draft"]["packs"]] == [3] * 5
    with pytest.raises(IllegalAction):
        RULESET.apply(s, 0, {"type": "play", "keep": [s["draft"]["packs"][1][0], s["draft"]["packs"][0][0]]})


# --------------------------------------------------------------------------- the sealed choice


def test_each_player_plays_two_cards_sealed_until_everyone_locks():
    s = ring_table(3, hands=dodge_hands())
    s, events = RULESET.apply(s, 0, {"type": "choose", "left": {"card": "c03", "side": "top"},
                                     "right": {"card": "c01", "side": "bottom"}})
    assert events[0]["visible_to"] == [0]
    s, events = RULESET.apply(s, 0, {"type": "lock"})
    assert public_text(events) == "{p0} has chosen"
    for viewer in (1, 2, None):
        view = RULESET.view(s, viewer)
        assert view["seats"][0]["locked"] and view["seats"][0]["hand"] is None
        assert '"c03"' not in json.dumps(view) and '"c01"' not in json.dumps(view)
    assert RULESET.view(s, 0)["you"]["choice"]["left"]["card"]["id"] == "c03"
    assert s["step"] == "choose" and set(RULESET.to_act(s)) == {1, 2}
    s, events = play_all(s, {1: DODGES[1], 2: DODGES[2]})
    reveal = next(e for e in events if e["type"] == "reveal")
    assert "{p0} plays Dodge (Dodge / Restock) at {p1} and Dodge (Snowball Attack / Dodge) at {p2}" in reveal["text"]


@pytest.mark.parametrize("action,error", [
    ({"type": "play", "card": "c01", "side": "top"}, BadAction),
    ({"type": "play", "left": {"card": "c01", "side": "top"}}, BadAction),
    ({"type": "play", "left": {"card": "c01", "side": "up"}, "right": {"card": "c03", "side": "top"}}, BadAction),
    ({"type": "play", "left": {"card": "c01", "side": "top"}, "right": {"card": "c01", "side": "bottom"}},
     IllegalAction),
    ({"type": "play", "left": {"card": "c01", "side": "top"}, "right": {"card": "c02", "side": "top"}},
     IllegalAction),
    ({"type": "play", "left": {"card": "c01", "side": "top"}, "right": {"card": "c22", "side": "top"}},
     IllegalAction),
])
def test_bad_plays_are_refused_with_a_typed_error_and_change_nothing(action, error):
    s = ring_table(3, hands=dodge_hands())
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(error):
        RULESET.apply(s, 0, action)
    assert json.dumps(s, sort_keys=True) == before
    with pytest.raises(NotYourTurn):
        RULESET.apply(play_all(s, {0: DODGES[0]})[0], 0, {"type": "lock"})


def test_legal_actions_cover_both_orders_and_all_sides():
    s = ring_table(3, hands=dodge_hands())
    plays = [a for a in RULESET.legal_actions(s, 0) if a["type"] == "play"]
    assert len(plays) == 2 * 4
    assert {(a["left"]["card"], a["right"]["card"]) for a in plays} == {("c01", "c03"), ("c03", "c01")}


# --------------------------------------------------------------------------- battles


def test_left_card_meets_the_left_neighbours_right_card_and_hits_count_per_battle():
    s = ring_table(3, hands=dodge_hands())
    # seat 0: Snowball at seat 1, Dodge at seat 2; seat 1 dodges it and counters with Snowball;
    # seat 2 throws a Snowball at seat 0, which seat 0 dodges (its Restock follows).
    s, events = play_all(s, {0: (("c01", "top"), ("c03", "top")),
                             1: (("c04", "top"), ("c02", "bottom")),
                             2: (("c01b", "top"), ("c03b", "top"))})
    log = public_text(events)
    assert "{p1} dodges {p0}'s Snowball Attack with Dodge" in log
    assert "Snowball Attack hit {p0}" in log
    assert "{p0} dodges {p2}'s Snowball Attack with Dodge" in log
    assert "{p0} dodged, so also uses Restock" in log
    assert {"type": "pass"} in RULESET.legal_actions(s, 0)  # a Dodge's other side is a "may"
    s, more = RULESET.apply(s, 0, RULESET.to_act(s)[0].default)
    assert "Restock: {p0} shuffles" in public_text(more)  # the hit in the other battle does not stop it
    assert "does nothing" not in log + public_text(more)
    assert s["turn"] == 2 and len(s["hands"][0]) == 2 and "c22" in s["hands"][0]
    assert [len(h) for h in s["hands"]][1:] == [2, 2]


def test_battles_resolve_one_at_a_time_starting_one_further_round_each_turn():
    s = ring_table(3, hands=dodge_hands(), turn=1)
    s, events = play_all(s, DODGES)
    order = next(e for e in events if e["type"] == "reveal")["order"]
    assert order == [[0, 1], [1, 2], [2, 0]]
    battles = [e["text"] for e in events if e["type"] == "battle"]
    assert battles[0].startswith("Battle 1 of 3: {p0}'s") and battles[2].startswith("Battle 3 of 3: {p2}'s")
    assert public_text(events).count("Neither card has any effect") == 3
    s = ring_table(3, hands=dodge_hands(), turn=2)
    s, events = play_all(s, DODGES)
    assert next(e for e in events if e["type"] == "reveal")["order"] == [[1, 2], [2, 0], [0, 1]]
    view = RULESET.view(s, None)
    assert view["last_reveal"]["order"] == [[1, 2], [2, 0], [0, 1]]
    assert [p["at"] for p in view["last_reveal"]["plays"][0]] == [1, 2]
    assert view["battles"] == [{"battle": 0, "seats": [0, 1]}, {"battle": 1, "seats": [1, 2]},
                               {"battle": 2, "seats": [2, 0]}]
    assert [(x["left"], x["right"]) for x in view["seats"]] == [(1, 2), (2, 0), (0, 1)]


def test_draw_one_hits_from_both_neighbours_do_not_stack():
    s = ring_table(3, hands=[["c01", "c03"], ["c06", "c04"], ["c01b", "c03b"]])
    draw_before = len(s["draw"][1])
    s, events = play_all(s, {0: (("c01", "top"), ("c03", "top")),
                             1: (("c04", "bottom"), ("c06", "bottom")),
                             2: (("c03b", "top"), ("c01b", "top"))})
    s, _ = finish_prompts(s)
    assert public_text(events).count("{p1} may only draw one card next turn") == 2
    assert len(s["draw"][1]) == draw_before - 1
    assert len(s["hands"][1]) == 2 and s["hands"][1][-1] == "c23"
    assert RULESET.view(s, 1)["seats"][1]["hand"][-1]["kind"] == "no-effect"


def test_no_effect_card_blocks_nothing_allows_upgrades_and_gives_no_dodge_effect():
    s = ring_table(3, hands=[["c01", "c03"], ["c06", "c23"], ["c02", "c05b"]],
                   arsenal=[["c07"], ["c08"], ["c09", "c13"]])
    s, events = play_all(s, {0: (("c03", "top"), ("c01", "bottom")),
                             1: (("c23", "top"), ("c06", "bottom")),
                             2: (("c05b", "bottom"), ("c02", "bottom"))})
    s, more = finish_prompts(s)
    log = public_text(events + more)
    assert "{p1} plays their No Effect card at {p2}" in log
    assert "{p2} dodged" not in log  # no attack came from the No Effect card
    assert "Upgrade: {p1} takes" in log and "Upgrade: {p2} takes" in log
    assert all("c23" not in pile for pile in s["discard"])
    assert "c23" not in s["abandoned"]


def test_no_effect_card_does_not_block_an_attack_and_is_never_abandoned():
    s = ring_table(3, hands=[["c01", "c03"], ["c06", "c23"], ["c10", "c05b"]],
                   discard=[[], ["c13"], []])
    s, events = play_all(s, {0: (("c03", "top"), ("c01", "bottom")),
                             1: (("c23", "top"), ("c06", "bottom")),
                             2: (("c05b", "bottom"), ("c10", "top"))})
    while s["battle"]["todo"][0]["what"] != "abandon":  # seat 1's upgrade comes first
        seat = s["battle"]["todo"][0]["ask"]
        s, _ = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
    assert s["battle"]["todo"][0]["ask"] == 1
    options = RULESET.legal_actions(s, 1)
    assert options and "c23" not in {o["card"] for o in options}
    assert {"c13", "c06"} <= {o["card"] for o in options}


def test_throwing_rocks_against_a_no_effect_card_abandons_nothing_but_the_thrower_draws_one():
    s = ring_table(3, hands=[["c01", "c03"], ["c06", "c23"], ["c18", "c03b"]])
    s, events = play_all(s, {0: (("c03", "top"), ("c01", "bottom")),
                             1: (("c23", "top"), ("c06", "bottom")),
                             2: (("c03b", "top"), ("c18", "top"))})
    s, more = finish_prompts(s)
    log = public_text(events + more)
    assert "{p1} played their No Effect card, so nothing is Abandoned" in log
    assert s["abandoned"] == []
    assert s["hands"][2][-1] == "c22b" and len(s["hands"][2]) == 2


def test_throwing_rocks_abandons_the_card_played_toward_the_thrower():
    s = ring_table(3, hands=[["c01", "c03"], ["c06", "c04"], ["c18", "c03b"]])
    s, _ = play_all(s, {0: (("c03", "top"), ("c01", "bottom")),
                        1: (("c04", "bottom"), ("c06", "bottom")),
                        2: (("c03b", "top"), ("c18", "top"))})
    s, _ = finish_prompts(s)
    assert s["abandoned"] == ["c04"]


def test_barrage_hit_lets_the_player_use_one_side_of_its_other_card_against_this_opponent():
    s = ring_table(3, hands=[["c17", "c15"], ["c06", "c04"], ["c01b", "c03b"]],
                   discard=[[], ["c13"], []])
    s, _ = play_all(s, {0: (("c17", "top"), ("c15", "bottom")),
                        1: (("c04", "top"), ("c06", "bottom")),
                        2: (("c03b", "top"), ("c01b", "bottom"))})
    assert s["battle"]["todo"][0] == {"ask": 0, "what": "second_card",
                                      "options": s["battle"]["todo"][0]["options"]}
    options = RULESET.legal_actions(s, 0)
    assert {(o.get("card"), o.get("side")) for o in options} == {("c15", "top"), ("c15", "bottom"), (None, None)}
    s, events = RULESET.apply(s, 0, {"type": "second_card", "card": "c15", "side": "top"})
    log = public_text(events)
    assert "Barrage: {p0} plays a second card: Iceball Attack" in log
    assert "Iceball Attack hit {p1}" in log
    # Snow Fort, the side c15 shows toward seat 2, still works in its own battle
    s, more = finish_prompts(s)
    assert "Snow Fort: {p2}'s" in public_text(events + more)


def test_a_card_stolen_in_an_earlier_battle_still_has_its_effect_in_its_own_battle():
    for seed in range(60):
        s = ring_table(3, hands=[["c08", "c03"], ["c06", "c13"], ["c01b", "c03b"]], seed=seed)
        s, events = play_all(s, {0: (("c08", "top"), ("c03", "top")),
                                 1: (("c06", "bottom"), ("c13", "bottom")),
                                 2: (("c03b", "top"), ("c01b", "bottom"))})
        s, more = finish_prompts(s)
        log = public_text(events + more)
        if "steals Snowball Attack / Upgrade" in log:
            break
    else:
        pytest.fail("no seed stole seat 1's other card")
    assert log.index("steals Snowball Attack / Upgrade") < log.index("Upgrade: {p1} takes")
    assert "c06" in s["discard"][0]


def test_same_level_upgrades_in_one_battle_take_from_each_players_own_pile():
    s = ring_table(3, hands=[["c05", "c03"], ["c06", "c04"], ["c01b", "c03b"]],
                   arsenal=[["c09", "c07"], ["c10", "c08"], ["c11"]])
    s, _ = play_all(s, {0: (("c05", "bottom"), ("c03", "top")),
                        1: (("c04", "top"), ("c06", "bottom")),
                        2: (("c03b", "top"), ("c01b", "bottom"))})
    assert "c07" in s["discard"][0] and "c08" in s["discard"][1]


def test_the_central_pile_is_open_to_every_upgrade_and_its_last_card_ends_the_game():
    s = ring_table(5, hands=[["c05", "c03"], ["c02", "c04"], ["c01b", "c03b"], ["c02b", "c04b"],
                             ["c01c", "c03c"]],
                   arsenal=[[], [], [], [], [], ["c15"]])
    s, events = play_all(s, {0: (("c05", "bottom"), ("c03", "top")), 1: (("c04", "top"), ("c02", "bottom")),
                             2: (("c03b", "top"), ("c01b", "bottom")), 3: (("c04b", "top"), ("c02b", "bottom")),
                             4: (("c03c", "top"), ("c01c", "bottom"))})
    log = public_text(events)
    assert "Upgrade: {p0} takes Iceball Attack / Snow Fort from the Arsenal pile in the middle" in log
    result = RULESET.outcome(s)
    assert result["code"] == "arsenal_empty" and result["winners"] == [0]
    assert result["scores"][0] == result["scores"][1] + 3


# --------------------------------------------------------------------------- the end


def test_a_player_who_cannot_draw_a_card_ends_the_game_at_once():
    s = ring_table(3, hands=[["c18", "c03"], ["c02", "c04"], ["c18b", "c03b"]],
                   draw=[["c01", "c05b"], [], ["c05"]])
    s, _ = play_all(s, {0: (("c18", "top"), ("c03", "top")),
                        1: (("c02", "top"), ("c04", "bottom")),
                        2: (("c03b", "top"), ("c18b", "top"))})
    s, _ = finish_prompts(s)
    assert sorted(s["abandoned"]) == ["c02", "c04"]
    result = RULESET.outcome(s)
    assert result["code"] == "eliminated" and result["reason"] == (
        "The game ended at the start of turn 2 because {p1} could not draw a card; the player with the most points wins")
    assert any(s["arsenal"]) and result["tiebreak"] is None
    assert result["scores"] == [6, 0, 5] and result["winners"] == [0]


def test_a_player_short_of_two_cards_draws_one_with_its_no_effect_card():
    s = ring_table(3, hands=[["c01", "c03"], ["c18", "c04"], ["c01b", "c03b"]], draw=[[], ["c06"], ["c05"]])
    s, _ = play_all(s, {0: (("c03", "bottom"), ("c01", "bottom")),
                        1: (("c04", "top"), ("c18", "top")),
                        2: (("c03b", "top"), ("c01b", "bottom"))})
    s, _ = finish_prompts(s)
    assert s["abandoned"] == ["c03"] and s["draws_next"] == [2, 2, 2]
    assert RULESET.outcome(s) is None
    assert sorted(s["hands"][0]) == ["c01", "c22"]  # its one card after a reshuffle, and No Effect


def tie_state():
    """Seat 0 takes the last Arsenal card; seats 0 and 1 then tie on 6 points, seat 2 has 3."""
    s = ring_table(3, hands=[["c13", "c03"], ["c14", "c04"], ["c01b", "c03b"]],
                   draw=[["c01"], ["c02"], ["c05"]], discard=[[], ["c08"], []],
                   arsenal=[["c07"], [], []])
    return play_all(s, {0: (("c13", "bottom"), ("c03", "top")),
                        1: (("c14", "top"), ("c04", "top")),
                        2: (("c03b", "top"), ("c01b", "bottom"))})


def test_a_tie_sends_only_the_tied_players_to_a_final_round():
    s, events = tie_state()
    assert RULESET.outcome(s) is None and s["final_round"]
    assert s["tiebreak"] == {"tied": [0, 1], "scores": [6, 6, 3]}
    assert "{p0} and {p1} are tied on 6 points" in public_text(events)
    assert set(RULESET.to_act(s)) == {0, 1} and s["hands"][2] == []
    assert RULESET.legal_actions(s, 2) == []
    with pytest.raises(NotYourTurn, match="only the tied players"):
        RULESET.apply(s, 2, {"type": "lock"})
    assert all(len(s["hands"][x]) == 2 for x in (0, 1))
    view = RULESET.view(s, 2)
    assert view["tiebreak"]["tied"] == [0, 1] and not view["seats"][2]["active"]
    assert view["battles"] == [{"battle": 0, "seats": [0, 1]}, {"battle": 1, "seats": [1, 0]}]
    assert (view["seats"][0]["left"], view["seats"][0]["right"]) == (1, 1)
    seen = 0
    while RULESET.outcome(s) is None:
        seen += 1
        for seat, prompt in RULESET.to_act(s).items():
            assert seat in (0, 1)
            s, _ = RULESET.apply(s, seat, prompt.default)
            break
    result = RULESET.outcome(s)
    assert result["tiebreak"] == {"tied": [0, 1], "scores": [6, 6, 3]}
    assert set(result["winners"]) <= {0, 1}
    best = max(result["scores"][x] for x in (0, 1))
    assert result["winners"] == [x for x in (0, 1) if result["scores"][x] == best]


def test_a_tie_after_the_final_round_is_a_shared_victory_among_the_tied_only():
    s = ring_table(3, hands=[["c01", "c03"], ["c02", "c04"], []], draw=[[], [], ["c13", "c14", "c15"]])
    s.update(tiebreak={"tied": [0, 1], "scores": [2, 2, 2]}, active=[0, 1], final_round=True)
    s["locked"] = [False, False, True]
    s, events = play_all(s, {0: (("c03", "top"), ("c01", "bottom")), 1: (("c04", "top"), ("c02", "bottom"))})
    result = RULESET.outcome(s)
    assert result["code"] == "eliminated"
    assert result["scores"] == [2, 2, 7] and result["winners"] == [0, 1]
    assert "share the victory" in public_text(events)


def test_no_tie_no_final_round():
    s = ring_table(3, hands=[["c13", "c03"], ["c14", "c04"], ["c01b", "c03b"]],
                   draw=[["c01"], ["c02"], ["c05"]], arsenal=[["c07"], [], []])
    s, _ = play_all(s, {0: (("c13", "bottom"), ("c03", "top")),
                        1: (("c14", "top"), ("c04", "top")),
                        2: (("c03b", "top"), ("c01b", "bottom"))})
    result = RULESET.outcome(s)
    assert result["code"] == "arsenal_empty" and result["winners"] == [0] and result["tiebreak"] is None
    assert result["scores"] == [6, 4, 3]


# --------------------------------------------------------------------------- the computer player


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_bots_play_whole_games_and_a_game_replays_from_seed_and_actions(players):
    for seed in range(3):
        s = RULESET.new_game(players=players, options={"draft": "quick"} if seed else {}, seed=seed)
        log = []
        while RULESET.outcome(s) is None:
            for seat in sorted(RULESET.to_act(s)):
                action = RULESET.bot_action(s, seat)
                assert action in RULESET.legal_actions(s, seat)
                log.append((seat, action))
                s, _ = RULESET.apply(s, seat, action)
                break
            assert len(log) < 5000
        again = RULESET.new_game(players=players, options={"draft": "quick"} if seed else {}, seed=seed)
        for seat, action in log:
            again, _ = RULESET.apply(again, seat, action)
        assert again == s
        for viewer in [*range(players), None]:
            assert RULESET.view(again, viewer) == RULESET.view(s, viewer)


def test_barrage_cannot_use_a_card_restock_shuffled_back_into_a_draw_pile():
    # turn 2 starts with battle 1 (seats 1 and 2): seat 1's Restock there shuffles back
    # its Barrage partner before the Barrage (battle 0) is resolved.
    s = ring_table(3, hands=[["c06", "c03"], ["c17", "c04"], ["c01b", "c03b"]], turn=2)
    s, events = play_all(s, {0: (("c03", "bottom"), ("c06", "bottom")),
                             1: (("c04", "bottom"), ("c17", "top")),
                             2: (("c03b", "top"), ("c01b", "bottom"))})
    s, more = finish_prompts(s)
    log = public_text(events + more)
    assert log.index("Restock: {p1} shuffles Dodge / Restock and Barrage") < log.index("Barrage hit {p0}")
    assert "{p1} may play their second card" not in log


@pytest.mark.parametrize("players,teams", [(6, None), (5, None), (6, [0, 0, 0, 1, 1, 1])])
def test_every_battle_of_a_turn_is_explained_in_words_with_real_seats(players, teams):
    import re

    extra = {"teams": teams} if teams else {}
    s = RULESET.new_game(players=players, options={}, seed=21, **extra)
    seen_turns = set()
    while RULESET.outcome(s) is None:
        seat = min(RULESET.to_act(s))
        s, events = RULESET.apply(s, seat, RULESET.bot_action(s, seat))
        for event in events:
            assert all(int(n) < players for n in re.findall(r"\{p(\d+)\}", event["text"])), event["text"]
        reveal = RULESET.view(s, None)["last_reveal"]
        if reveal is None or reveal["resolving"] or reveal["turn"] in seen_turns:
            continue
        seen_turns.add(reveal["turn"])
        battles = players if teams is None else players // 2
        assert len(reveal["battles"]) == len(reveal["order"]) == battles
        headers = [line for line in reveal["lines"] if line.startswith("Battle ")]
        assert [h.split(":")[0] for h in headers] == [f"Battle {i} of {battles}" for i in range(1, battles + 1)]
        for header, (a, b) in zip(headers, reveal["order"]):
            assert header.count("{p%d}" % a) and header.count("{p%d}" % b)
        for x, plays in enumerate(reveal["plays"]):
            assert [p["toward"] for p in plays if p["toward"] != "battle"] == (["left", "right"] if teams is None else ["at"])
            assert all(p["at"] != x for p in plays)
    assert len(seen_turns) >= 3


def test_a_battle_line_names_a_no_effect_card_as_the_players():
    s = ring_table(3, hands=[["c01", "c03"], ["c04", "c23"], ["c01b", "c03b"]])
    s, events = play_all(s, {0: (("c03", "top"), ("c01", "bottom")), 1: (("c04", "top"), ("c23", "top")),
                             2: (("c03b", "top"), ("c01b", "bottom"))})
    battles = [e["text"] for e in events if e["type"] == "battle"]
    assert battles[0] == "Battle 1 of 3: {p0}'s Dodge (Dodge / Restock) against {p1}'s No Effect card"
    assert "{p1} plays Dodge (Dodge / Restock) at {p2} and their No Effect card at {p0}" in public_text(events)
