"""The rule book's Notes, the Snowball Fight rulings, and the flow of a game from draft to score."""
from __future__ import annotations

import pytest

from games.engines.base import BadAction, IllegalAction, NotYourTurn
from games.engines.snowball_fight import RULESET
from tests.engines.test_snowball_fight_helpers import (
    STANDARD,
    all_cards,
    answer,
    asked,
    reveal,
    table,
    texts,
)

RAID = {"alternates": ["raid:offensive-dodge"]}
ALTS = {"alternates": ["upgrade-dodge:iceball", "weapons-cache:throwing-rocks"]}


def hand_counts(s):
    return [len(h) for h in s["hands"]]


def finish_prompts(s):
    """Answer every pending effect prompt with its default, as the service does on a timeout."""
    events = []
    while asked(s):
        seat, _ = asked(s)
        s, more = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
        events += more
    return s, events


# --------------------------------------------------------------------------- Notes


def test_higher_level_upgrade_chooses_first_and_new_cards_wait_for_the_flip():
    s = table(hands=(["c05", "c03"], ["c13", "c04"]), arsenal=(["c07", "c15"], ["c08", "c16"]))
    s, _ = reveal(s, ("c05", "bottom"), ("c13", "bottom"))
    assert asked(s) == (1, "upgrade")  # Advanced before Basic
    s, events = answer(s, 1, type="upgrade", card="c15")
    # pile 0's next card is not yet revealed, so seat 0 can only take pile 1's card
    assert "c16" in s["discard"][0] and "c15" in s["discard"][1]
    assert s["arsenal"] == [["c07"], ["c08"]]
    log = texts(events)
    assert log.index("Upgrade: {p0} takes Offensive Dodge") < log.index("flips Slushball Attack / Dodge")


def test_ultra_upgrade_chooses_before_other_upgrades_and_hides_the_next_card_until_all_are_done():
    s = table(hands=(["c16", "c03"], ["c21", "c04"]), arsenal=(["c07", "c15"], ["c08", "c09", "c18"]),
              options=RAID)
    s["hands"][0] = ["c16", "c03"]
    s, _ = reveal(s, ("c16", "bottom"), ("c21", "bottom"))
    assert asked(s) == (0, "upgrade")
    s, _ = answer(s, 0, type="upgrade", card="c15")
    assert asked(s) == (1, "upgrade")
    for viewer in (0, 1, None):
        pile = RULESET.view(s, viewer)["arsenal"][0]
        assert pile["top"] is None and pile["count"] == 1
    assert {a["card"] for a in RULESET.legal_actions(s, 1)} == {"c18", "c09"}
    s, events = answer(s, 1, type="upgrade", card="c18")
    assert RULESET.view(s, None)["arsenal"][0]["top"]["id"] == "c07"


def test_same_level_upgrades_each_take_from_the_nearest_pile():
    s = table(hands=(["c05", "c03"], ["c06", "c04"]), arsenal=(["c07", "c15"], ["c08", "c16"]))
    s, events = reveal(s, ("c05", "bottom"), ("c06", "bottom"))
    assert s["step"] == "choose"  # nobody was asked: each pile is fixed
    assert "c15" in s["discard"][0] and "c16" in s["discard"][1]


def test_same_level_upgrade_with_an_empty_nearest_pile_uses_the_other_after_its_owner():
    s = table(hands=(["c05", "c03"], ["c06", "c04"]), arsenal=([], ["c08", "c16"]))
    s, events = reveal(s, ("c05", "bottom"), ("c06", "bottom"))
    assert "c16" in s["discard"][1]
    assert ("Upgrade: there is no card {p0} can take: {p1} took the face-up card of the Arsenal pile near {p1} "
            "earlier this turn, and a pile's next card is turned face-up only after all of this turn's upgrades; "
            "the Arsenal pile near {p0} is empty") in texts(events)
    assert s["arsenal"] == [[], ["c08"]]


def test_barrage_second_card_dodge_avoids_the_opponents_attack():
    s = table(hands=(["c17", "c02"], ["c05", "c04"]))
    s, _ = reveal(s, ("c17", "top"), ("c05", "top"))
    s, events = answer(s, 0, type="second_card", card="c02", side="bottom")
    log = texts(events)
    assert "{p0} dodges {p1}'s Snowball Attack with Dodge" in log
    assert "{p0} dodged, so also uses Snowball Attack" in log
    assert hand_counts(s) == [2, 1]


def test_barrage_is_dodged_by_a_dodge_and_gives_no_second_card():
    s = table(hands=(["c17", "c13"], ["c02", "c04"]))
    s, events = reveal(s, ("c17", "top"), ("c02", "bottom"))
    assert "{p1} dodges {p0}'s Barrage with Dodge" in texts(events)
    assert s["step"] == "choose" and hand_counts(s) == [1, 2]


def test_offensive_dodge_against_dodge_resolves_first_and_the_counter_cannot_be_avoided():
    s = table(hands=(["c16", "c03"], ["c02", "c04"]), arsenal=(["c07"], ["c08"]))
    s, events = reveal(s, ("c16", "top"), ("c02", "bottom"))
    log = texts(events)
    assert "{p1} dodges {p0}'s Offensive Dodge with Dodge" in log
    assert "Snowball Attack hit {p0}" in log
    assert "upgrade" not in [e["type"] for e in events]
    assert hand_counts(s) == [1, 2]


def test_a_just_played_card_can_be_stolen():
    s = table(hands=(["c08", "c03"], ["c06"]), discard=([], []))
    s, events = reveal(s, ("c08", "top"), ("c06", "bottom"))
    assert next(e for e in events if e["type"] == "steal")["card"] == "c06"


def test_a_card_abandoned_just_after_being_played_still_resolves():
    s = table(hands=(["c15", "c03"], ["c08"]), discard=(["c13"], ["c14"]))
    s, events = reveal(s, ("c15", "top"), ("c08", "top"))
    assert asked(s) == (1, "abandon")
    s, events = answer(s, 1, type="abandon", card="c08")
    steal = next(e for e in events if e["type"] == "steal")
    assert steal["thief"] == 1 and "c08" in s["abandoned"]


# --------------------------------------------------------------------------- RULINGS


def test_dud_cancels_whitewash_because_it_is_an_attack():
    s = table(hands=(["c19", "c03"], ["c18", "c04"]), options={"alternates": ["upgrade-dodge:iceball"]})
    s, _ = reveal(s, ("c19", "bottom"), ("c18", "bottom"))
    assert s["abandoned"] == ["c18"] and s["shown"] == [[], []]


def test_dodged_rocks_cost_the_thrower_nothing():
    s = table(hands=(["c18", "c03"], ["c02", "c04"]))
    s, _ = reveal(s, ("c18", "top"), ("c02", "bottom"))
    assert s["abandoned"] == [] and hand_counts(s) == [1, 2]  # the Dodge's counter-snowball hit seat 0
    s = table(hands=(["c18", "c03"], ["c14", "c04"]))
    s, _ = finish_prompts(reveal(s, ("c18", "top"), ("c14", "top"))[0])
    assert s["abandoned"] == [] and hand_counts(s) == [2, 2]


def test_barrage_second_card_snow_fort_cancels_the_opponents_attack():
    s = table(hands=(["c17", "c15"], ["c12", "c04"]), discard=(["c13"], []))
    s, _ = reveal(s, ("c17", "top"), ("c12", "top"))
    s, events = answer(s, 0, type="second_card", card="c15", side="bottom")
    assert "Snow Fort: {p1}'s Sneak Attack (Sneak Attack / Upgrade) is entirely ineffective" in texts(events)
    assert s["abandoned"] == [] and hand_counts(s) == [2, 1]


def test_backfired_barrage_hits_its_thrower_and_gives_no_second_card():
    s = table(hands=(["c17", "c13"], ["c20", "c04"]), options={"alternates": ["weapons-cache:iceball"]})
    s, events = reveal(s, ("c17", "top"), ("c20", "bottom"))
    assert "Barrage hit {p0}" in texts(events)
    assert s["step"] == "choose" and hand_counts(s) == [1, 2]


def test_face_down_discard_is_hidden_from_the_opponent_and_spectators_only():
    s = table(hands=(["c01", "c15"], ["c06", "c04"]))
    s, _ = reveal(s, ("c01", "top"), ("c06", "bottom"))
    mine, theirs, spectator = (RULESET.view(s, v)["seats"][0]["discard"] for v in (0, 1, None))
    assert [c.get("id") for c in mine] == ["c15", "c01"] and mine[0]["face_down"]
    assert theirs[0] == {"hidden": True, "face_down": True} and theirs[1]["id"] == "c01"
    assert spectator == theirs


def test_draw_piles_show_counts_only_even_to_their_owner():
    s = table(hands=(["c01", "c15"], ["c06", "c04"]))
    for viewer in (0, 1, None):
        v = RULESET.view(s, viewer)
        for x in (0, 1):
            assert v["seats"][x]["draw_count"] == len(s["draw"][x])
            assert not any(c in str(v) for c in s["draw"][x])


def test_effect_prompts_have_a_time_limit_and_a_legal_default():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), discard=([], ["c13", "c09"]))
    s, _ = reveal(s, ("c15", "top"), ("c06", "bottom"))
    prompt = RULESET.to_act(s)[1]
    assert prompt.kind == "effect" and 30 <= prompt.timeout <= 45
    assert prompt.default["type"] == "abandon" and prompt.default["card"] in ("c04", "c06")  # a cheapest
    assert prompt.default in RULESET.legal_actions(s, 1)
    assert list(RULESET.to_act(s)) == [1] and RULESET.legal_actions(s, 0) == []


def test_two_player_tie_is_a_shared_victory():
    s = table(hands=(["c01"], ["c02"]), draw=([], []), arsenal=(["c07"], ["c08"]))
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    result = RULESET.outcome(s)
    assert result["scores"] == [1, 1] and result["winners"] == [0, 1]
    assert "a tie: {p0} and {p1} share the victory" in texts(events)


# --------------------------------------------------------------------------- draft


def draft_to_play(s, pick=lambda cards: cards[0]):
    while s["step"] in ("pick", "keep"):
        for seat in (0, 1):
            options = [a for a in RULESET.legal_actions(s, seat) if a["type"] == "play"]
            s, _ = RULESET.apply(s, seat, pick(options))
    return s


def test_full_draft_keeps_one_passes_three_keeps_one_passes_two_then_keeps_two_of_four():
    s = RULESET.new_game(players=2, options={}, seed=11)
    assert s["step"] == "pick" and [len(p) for p in s["draft"]["packs"]] == [4, 4]
    first = [list(p) for p in s["draft"]["packs"]]
    s, _ = RULESET.apply(s, 0, {"type": "play", "card": first[0][0]})
    s, events = RULESET.apply(s, 1, {"type": "play", "card": first[1][0]})
    assert "{p0} keeps a card and passes 3 to {p1}" in texts(events)
    assert sorted(s["draft"]["packs"][1]) == sorted(first[0][1:])
    assert [len(p) for p in s["draft"]["packs"]] == [3, 3]
    second = [list(p) for p in s["draft"]["packs"]]
    s, _ = RULESET.apply(s, 0, {"type": "play", "card": second[0][0]})
    s, _ = RULESET.apply(s, 1, {"type": "play", "card": second[1][0]})
    assert s["step"] == "keep"
    four = s["draft"]["packs"][0]
    assert len(four) == 4 and first[0][0] in four and second[0][0] in four
    assert len([a for a in RULESET.legal_actions(s, 0) if a["type"] == "play"]) == 6
    s, _ = RULESET.apply(s, 0, {"type": "play", "keep": [four[3], four[2]]})
    s, _ = RULESET.apply(s, 1, {"type": "play", "keep": s["draft"]["packs"][1][:2]})
    assert s["phase"] == "play" and s["turn"] == 1
    assert [len(p) for p in s["arsenal"]] == [4, 4]
    assert hand_counts(s) == [2, 2] and [len(d) for d in s["draw"]] == [3, 3]
    mine = s["hands"][0] + s["draw"][0]
    assert {"c01", "c03", "c05", four[2], four[3]} == set(mine)
    assert sorted(all_cards(s)) == STANDARD


def test_quick_draft_deals_three_and_keeps_two():
    s = RULESET.new_game(players=2, options={"draft": "quick"}, seed=5)
    assert s["step"] == "keep" and [len(p) for p in s["draft"]["packs"]] == [3, 3]
    assert len([a for a in RULESET.legal_actions(s, 0) if a["type"] == "play"]) == 3
    s = draft_to_play(s)
    assert [len(p) for p in s["arsenal"]] == [4, 4] and sorted(all_cards(s)) == STANDARD


def test_draft_picks_are_sealed_and_revisable_until_locked():
    s = RULESET.new_game(players=2, options={}, seed=3)
    a, b = s["draft"]["packs"][0][:2]
    s, events = RULESET.apply(s, 0, {"type": "choose", "card": a})
    assert all(e.get("visible_to") == [0] for e in events)
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": b})
    other = RULESET.view(s, 1)
    assert other["seats"][0]["chosen"] is True and a not in str(other) and b not in str(other)
    s, _ = RULESET.apply(s, 0, {"type": "lock"})
    with pytest.raises(NotYourTurn, match="already locked"):
        RULESET.apply(s, 0, {"type": "choose", "card": a})
    s, _ = RULESET.apply(s, 1, RULESET.to_act(s)[1].default)
    assert b in s["draft"]["kept"][0]


def test_alternates_replace_the_named_extreme_cards_in_the_arsenal():
    s = draft_to_play(RULESET.new_game(players=2, options=ALTS, seed=2))
    arsenal = {c for p in s["arsenal"] for c in p} | {c for h in s["hands"] for c in h}
    everything = set(all_cards(s))
    assert {"c19", "c20", "c16", "c17"} <= everything and not {"c15", "c18"} & everything
    assert arsenal  # the game is set up


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("options, message", [
    ({"alternates": ["raid:barrage", "dud:iceball"]}, "unknown alternate Extreme card 'dud'"),
    ({"alternates": ["raid:barrage", "upgrade-dodge:barrage"]}, "Barrage / Snatch and Run is replaced twice"),
    ({"alternates": ["raid:barrage", "raid:iceball"]}, "Raid / Refined Upgrade is used twice"),
    ({"alternates": ["raid:barrage", "upgrade-dodge:iceball", "weapons-cache:throwing-rocks"]},
     "at most two Extreme cards may be replaced, got 3"),
    ({"alternates": ["raid:snowman"]}, "unknown standard Extreme card 'snowman'"),
    ({"draft": "slow"}, "option draft must be 'draft' or 'quick', got 'slow'"),
])
def test_bad_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(BadAction, match=message):
        RULESET.new_game(players=2, options=options, seed=1)


def test_options_are_described_for_the_creation_form():
    names = {o.name: o for o in RULESET.options}
    assert names["draft"].default == "draft" and names["draft"].kind == "choice"
    assert names["alternates"].kind == "multichoice"
    assert ("raid:barrage", "Raid / Refined Upgrade replaces Barrage / Snatch and Run") in \
        names["alternates"].choices
    assert RULESET.new_game(players=2, options={"alternates": ["raid:barrage"]}, seed=1)["options"] == \
        {"draft": "draft", "alternates": ["raid:barrage"]}
    for written in ("raid:barrage", "", {"raid": "barrage"}):  # a list, as the game summary then echoes it
        with pytest.raises(BadAction, match="option alternates must be a list"):
            RULESET.new_game(players=2, options={"alternates": written}, seed=1)


@pytest.mark.parametrize("players", [1, 7, 0, "3"])
def test_two_to_six_players(players):
    with pytest.raises(BadAction, match="2 to 6 players"):
        RULESET.new_game(players=players, options={}, seed=1)


# --------------------------------------------------------------------------- sealed choice and errors


def test_card_choice_is_sealed_revisable_and_revealed_when_both_lock():
    s = table(hands=(["c01", "c03"], ["c06", "c04"]))
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": "c01", "side": "top"})
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": "c03", "side": "bottom"})
    me, them = RULESET.view(s, 0), RULESET.view(s, 1)
    assert me["you"]["choice"]["card"]["id"] == "c03" and me["you"]["choice"]["side"] == "bottom"
    assert them["seats"][0]["chosen"] and not them["seats"][0]["locked"]
    assert "c03" not in str(them) and "c01" not in str(them)
    s, events = RULESET.apply(s, 0, {"type": "lock"})
    assert texts(events) == "{p0} has chosen"
    assert list(RULESET.to_act(s)) == [1]
    s, events = RULESET.apply(s, 1, {"type": "play", "card": "c06", "side": "bottom"})
    assert "Reveal: {p0} plays Restock (Dodge / Restock); {p1} plays Upgrade (Snowball Attack / Upgrade)" \
        in texts(events)


@pytest.mark.parametrize("action, error, message", [
    ({"type": "play", "card": "c07", "side": "top"}, IllegalAction, "card c07 is not in your hand"),
    ({"type": "play", "card": "c01", "side": "left"}, BadAction, "side must be 'top' or 'bottom', got 'left'"),
    ({"type": "play", "side": "top"}, BadAction, "play needs 'card'"),
    ({"type": "dance"}, BadAction, "unknown action type 'dance'"),
    ({"card": "c01"}, BadAction, "must be an object with a 'type'"),
    ({"type": "lock"}, IllegalAction, "choose a card before you lock"),
    ({"type": "upgrade", "card": "c01"}, IllegalAction, "'upgrade' is not possible now"),
])
def test_bad_actions_are_refused_with_a_message_naming_the_input(action, error, message):
    s = table(hands=(["c01", "c03"], ["c06", "c04"]))
    with pytest.raises(error, match=message):
        RULESET.apply(s, 0, action)


def test_only_the_prompted_seat_may_answer_and_only_with_an_offered_card():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), discard=([], ["c13"]))
    s, _ = reveal(s, ("c15", "top"), ("c06", "bottom"))
    with pytest.raises(NotYourTurn, match="waiting for {p1}"):
        RULESET.apply(s, 0, {"type": "abandon", "card": "c03"})
    with pytest.raises(IllegalAction, match="card c03 is not one you can abandon"):
        RULESET.apply(s, 1, {"type": "abandon", "card": "c03"})
    with pytest.raises(IllegalAction, match="send type 'abandon'"):
        RULESET.apply(s, 1, {"type": "play", "card": "c13", "side": "top"})


def test_apply_leaves_its_input_untouched():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), discard=([], ["c13"]))
    import copy
    before = copy.deepcopy(s)
    s1, _ = RULESET.apply(s, 0, {"type": "play", "card": "c15", "side": "top"})
    mid = copy.deepcopy(s1)
    RULESET.apply(s1, 1, {"type": "play", "card": "c06", "side": "bottom"})
    assert s == before and s1 == mid


def test_nothing_can_be_played_after_the_game_is_over():
    s = table(hands=(["c01"], ["c02"]), draw=([], []), arsenal=(["c07"], ["c08"]))
    s, _ = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    assert RULESET.to_act(s) == {} and RULESET.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        RULESET.apply(s, 0, {"type": "lock"})


# --------------------------------------------------------------------------- drawing and the end


def test_a_short_draw_pile_is_topped_up_by_reshuffling_the_discard_pile():
    s = table(hands=(["c01", "c03"], ["c06", "c04"]), draw=(["c05"], ["c02", "c09", "c10"]),
              discard=(["c11", "c12"], []), arsenal=(["c07", "c08"], []))
    s, events = reveal(s, ("c03", "top"), ("c06", "bottom"))
    assert "{p0} shuffles their discard pile (4 cards) into a new draw pile" in texts(events)
    assert hand_counts(s) == [2, 2] and "c05" in s["hands"][0]
    assert len(s["draw"][0]) == 3 and s["discard"][0] == []


def test_game_ends_when_a_player_cannot_draw_enough_cards():
    s = table(hands=(["c05"], ["c01", "c04"]), draw=([], ["c02", "c09", "c10"]),
              arsenal=(["c07"], ["c08"]))
    s, events = reveal(s, ("c05", "bottom"), ("c01", "top"))  # seat 0 is hit: it needs 1 and has 1
    assert s["phase"] == "play" and s["hands"] == [["c05"], ["c10", "c09"]]
    s, events = reveal(s, ("c05", "top"), ("c09", "bottom"))  # seat 0 is not hit: it needs 2
    s, events = finish_prompts(s) if asked(s) else (s, events)
    assert s["phase"] == "over"
    assert RULESET.outcome(s)["reason"] == ("The game ended at the start of turn 5 because {p0} could not draw "
                                            "enough cards; the player with the most points wins")


def test_final_round_starts_when_both_arsenals_are_empty_and_discards_stop_reshuffling():
    s = table(hands=(["c05", "c03"], ["c02", "c04"]), arsenal=([], ["c16"]),
              draw=(["c07", "c08"], ["c09", "c10", "c11"]), discard=(["c12"], ["c13"]))
    s, events = reveal(s, ("c05", "bottom"), ("c04", "top"))
    assert "final round!" in texts(events) and s["final_round"]
    assert RULESET.view(s, None)["final_round"] is True
    # all of seat 0's cards were shuffled together: 6 cards, 2 in hand now
    assert len(s["draw"][0]) == 4 and s["discard"][0] == [] and hand_counts(s) == [2, 2]
    # play until seat 0's draw pile runs out: discards are never reshuffled now
    while s["phase"] != "over":
        assert not any(e["type"] == "reshuffle" for e in events)
        s, events = reveal(s, (s["hands"][0][0], "top"), (s["hands"][1][0], "bottom"))
        s, more = finish_prompts(s)
        events += more
    result = RULESET.outcome(s)
    assert result["code"] == "cannot_draw"
    scored = [sum(item["points"] for item in rows) for rows in result["breakdown"]]
    assert scored == result["scores"]


def test_final_round_restock_still_shuffles_back():
    s = table(hands=(["c04", "c09"], ["c02", "c06"]), discard=(["c11"], []), final_round=True,
              arsenal=([], []), draw=(["c07"], ["c10", "c12"]))
    s, _ = reveal(s, ("c04", "bottom"), ("c02", "bottom"))
    s, events = answer(s, 0, type="restock", card="c11")
    assert "Restock: {p0} shuffles" in texts(events) and s["phase"] == "play"
    assert len(s["draw"][0]) + len(s["hands"][0]) == 3


def test_scoring_counts_draw_and_discard_piles_but_not_the_weapons_cache():
    s = table(hands=(["c01"], ["c02"]), draw=([], []), discard=(["c13"], []),
              cache=(["c20"], []), arsenal=(["c07"], ["c08"]), options={"alternates": ["weapons-cache:iceball"]})
    s, events = reveal(s, ("c01", "bottom"), ("c02", "bottom"))
    result = RULESET.outcome(s)
    assert result["scores"] == [1 + 2, 1] and result["winners"] == [0]
    assert {"id": "c20", "card": "Weapons Cache / Backfire", "points": 0, "cached": True,
            "note": "in a Weapons Cache: does not score"} in result["breakdown"][0]
    assert "Cards in draw piles and discard piles score; cards in a Weapons Cache do not: " \
           "{p0} 3, {p1} 1 — {p0} wins" in texts(events)


# --------------------------------------------------------------------------- more rulings (README)


def test_barrage_second_card_attack_resolves_at_once():
    s = table(hands=(["c17", "c15"], ["c06", "c04"]), discard=([], ["c13"]))
    s, _ = reveal(s, ("c17", "top"), ("c06", "bottom"))
    s, events = answer(s, 0, type="second_card", card="c15", side="top")
    assert "Iceball Attack hit {p1}" in texts(events)
    assert asked(s) == (1, "abandon")


def test_whitewash_hit_stops_upgrade_dodges_upgrade_but_not_snatch_and_run():
    s = table(hands=(["c18", "c03"], ["c19", "c04"]), arsenal=(["c07"], ["c08"]),
              options={"alternates": ["upgrade-dodge:iceball"]})
    s, _ = reveal(s, ("c18", "bottom"), ("c19", "top"))
    assert s["arsenal"] == [["c07"], ["c08"]]
    s = table(hands=(["c18", "c03"], ["c17", "c04"]), abandoned=["c15", "c16"])
    s, events = reveal(s, ("c18", "bottom"), ("c17", "bottom"))
    assert "Whitewash hit {p1}" in texts(events) and asked(s) == (1, "exchange")


def test_the_log_says_a_hit_stopped_the_upgrade_and_by_which_attack():
    s = table(hands=(["c12", "c03"], ["c05", "c04"]), discard=(["c01"], ["c02", "c07"]),
              arsenal=(["c08"], ["c09"]))
    s, events = reveal(s, ("c12", "top"), ("c05", "bottom"))
    s, more = answer(s, 1, type="abandon", card="c02")
    log = texts(events + more).splitlines()
    stopped = ("Upgrade: {p1} was hit by Sneak Attack, so their Upgrade does nothing "
               "(it works only for a player who was not hit)")
    assert stopped in log
    assert log.index(stopped) > log.index("Sneak Attack: {p1} Abandons Snowball Attack / Dodge from their discard pile")
    assert s["arsenal"] == [["c08"], ["c09"]]
    assert RULESET.view(s, 0)["last_reveal"]["lines"][-1] == stopped
    s = table(hands=(["c12", "c03"], ["c05", "c04"]), discard=(["c01"], ["c02", "c07"]))
    s, events = reveal(s, ("c03", "top"), ("c05", "bottom"))  # not hit: no such line
    assert "does nothing" not in texts(events)


def test_raid_can_steal_barrages_second_card():
    s = table(hands=(["c17", "c21"], ["c06", "c04"]), abandoned=["c12"],
              options={"alternates": ["raid:offensive-dodge"]})
    s, _ = reveal(s, ("c17", "top"), ("c06", "bottom"))
    s, _ = answer(s, 0, type="second_card", card="c21", side="top")
    assert asked(s) == (0, "raid")
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c06", "c12"}


def test_weapons_cache_stays_out_of_the_final_round_shuffle():
    s = table(hands=(["c05", "c03"], ["c02", "c04"]), arsenal=([], ["c16"]), cache=(["c20"], []),
              draw=(["c07", "c08"], ["c09", "c10", "c11"]), options={"alternates": ["weapons-cache:iceball"]})
    s, _ = reveal(s, ("c05", "bottom"), ("c04", "top"))
    assert s["final_round"] and s["cache"][0] == ["c20"]
    assert "c20" not in s["draw"][0] + s["hands"][0]


def test_a_successful_dodge_upgrades_from_the_other_side_with_a_free_choice_of_pile():
    s = table(hands=(["c13", "c03"], ["c01", "c04"]), arsenal=(["c07", "c15"], ["c08", "c16"]))
    s, events = reveal(s, ("c13", "top"), ("c01", "top"))
    assert "{p0} dodged, so also uses Upgrade" in texts(events)
    assert asked(s) == (0, "upgrade")
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c15", "c16"}


def test_the_log_counts_one_card_as_one_card():
    s = table(hands=(["c03"], ["c06", "c04"]), draw=(["c05"], ["c02", "c09", "c10"]),
              arsenal=(["c07", "c08"], []))
    s, events = reveal(s, ("c03", "top"), ("c06", "bottom"))
    assert "{p0} shuffles their discard pile (1 card) into a new draw pile" in texts(events)
