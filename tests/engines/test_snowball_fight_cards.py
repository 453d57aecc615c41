"""Every card side of Snowball Fight, played on a stacked table, judged by what players see."""
from __future__ import annotations

import pytest

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from tests.engines.test_snowball_fight_helpers import answer, asked, reveal, table, texts


def types(events):
    return [e["type"] for e in events]


def hand_counts(s):
    return [len(h) for h in s["hands"]]


# --------------------------------------------------------------------------- Basic


def test_snowball_hit_lets_the_opponent_draw_only_one_card():
    s = table(hands=(["c01", "c03"], ["c06", "c04"]))
    s, events = reveal(s, ("c01", "top"), ("c06", "bottom"))
    assert "Snowball Attack hit {p1}: {p1} may only draw one card next turn" in texts(events)
    assert s["turn"] == 4 and hand_counts(s) == [2, 1]


def test_hit_player_cannot_upgrade():
    s = table(hands=(["c01", "c03"], ["c06", "c04"]), arsenal=(["c07", "c15"], ["c08", "c16"]))
    s, events = reveal(s, ("c01", "top"), ("c06", "bottom"))
    assert [len(p) for p in s["arsenal"]] == [2, 2]
    assert "upgrade" not in types(events)
    stopped = next(e for e in events if e["type"] == "stopped")
    assert stopped["text"] == ("Upgrade: {p1} was hit by Snowball Attack, so their Upgrade does nothing "
                               "(it works only for a player who was not hit)")
    assert (stopped["seat"], stopped["ability"], stopped["by"]) == (1, "upgrade", ["Snowball Attack"])


def test_dodge_avoids_snowball_and_throws_back_from_the_other_side():
    s = table(hands=(["c01", "c03"], ["c02", "c04"]))
    s, events = reveal(s, ("c01", "top"), ("c02", "bottom"))
    log = texts(events)
    assert "{p1} dodges {p0}'s Snowball Attack with Dodge" in log
    assert "{p1} dodged, so also uses Snowball Attack" in log
    assert hand_counts(s) == [1, 2]


def test_dodge_without_an_attack_does_nothing_more():
    s = table(hands=(["c02", "c03"], ["c05", "c04"]))
    s, events = reveal(s, ("c02", "bottom"), ("c04", "top"))
    assert "dodged" not in texts(events)
    assert hand_counts(s) == [2, 2]


def test_upgrade_takes_the_chosen_face_up_arsenal_card_and_flips_the_next():
    s = table(hands=(["c05", "c03"], ["c02", "c04"]), arsenal=(["c07", "c15"], ["c08", "c16"]))
    s, _ = reveal(s, ("c05", "bottom"), ("c04", "top"))
    assert asked(s) == (0, "upgrade")
    assert RULESET.legal_actions(s, 0) == [{"type": "upgrade", "card": "c15"},
                                           {"type": "upgrade", "card": "c16"}]
    s, events = answer(s, 0, type="upgrade", card="c16")
    assert "c16" in s["discard"][0]
    assert s["arsenal"] == [["c07", "c15"], ["c08"]]
    assert "The Arsenal pile near {p1} flips Slushball Attack / Upgrade face-up" in texts(events)
    assert RULESET.view(s, 1)["arsenal"][1]["top"]["id"] == "c08"


def test_upgrade_with_one_pile_left_takes_it_without_asking():
    s = table(hands=(["c05", "c03"], ["c02", "c04"]), arsenal=([], ["c08", "c16"]))
    s, events = reveal(s, ("c05", "bottom"), ("c04", "top"))
    assert s["step"] == "choose" and "c16" in s["discard"][0]


def test_restock_shuffles_itself_and_one_chosen_discard_into_the_draw_pile():
    s = table(hands=(["c04", "c09"], ["c02", "c06"]), discard=(["c11", "c12"], []))
    draw_before = len(s["draw"][0])
    s, _ = reveal(s, ("c04", "bottom"), ("c02", "bottom"))
    assert asked(s) == (0, "restock")
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c11", "c12", "c09"}
    s, events = answer(s, 0, type="restock", card="c12")
    assert "Restock: {p0} shuffles Dodge / Restock and Sneak Attack / Upgrade into their draw pile" \
        in texts(events)
    assert s["discard"][0] == ["c11", "c09"]
    # two cards went back, two were drawn for the new turn
    assert len(s["draw"][0]) == draw_before + 2 - 2


def test_restock_names_a_face_down_card_only_to_its_owner():
    s = table(hands=(["c04", "c09"], ["c02", "c06"]), discard=(["c11"], []))
    s, _ = reveal(s, ("c04", "bottom"), ("c02", "bottom"))
    s, events = answer(s, 0, type="restock", card="c09")
    assert "Restock: {p0} shuffles Dodge / Restock and a face-down card into their draw pile" in texts(events)
    private = [e for e in events if e.get("visible_to") == [0] and e["type"] == "restock_private"]
    assert "Slushball Attack / Upgrade" in private[0]["text"]


def test_restock_after_a_dodge_may_be_passed():
    """"If you successfully dodge an attack you *may* take the action on the opposite side":
    Dodge / Restock's Restock after a dodge is offered with a pass, and passing moves nothing."""
    s = table(hands=(["c03", "c09"], ["c01", "c06"]), discard=(["c11"], []))
    s, events = reveal(s, ("c03", "top"), ("c01", "top"))
    assert "{p0} dodged, so also uses Restock" in texts(events)
    assert asked(s) == (0, "restock")
    offered = RULESET.legal_actions(s, 0)
    assert {"type": "pass"} in offered and {"type": "restock", "card": "c11"} in offered
    assert RULESET.view(s, 0)["you"]["prompt"]["options"][-1]["label"] == "Pass: no Restock"
    draw_before = len(s["draw"][0])
    passed, events = answer(s, 0, type="pass")
    assert "Restock: {p0} dodged and chooses not to Restock" in texts(events)
    assert {"c03", "c11"} <= set(passed["discard"][0]) and len(passed["draw"][0]) == draw_before - 2
    used, events = answer(s, 0, type="restock", card="c11")
    assert "Restock: {p0} shuffles Dodge / Restock and Sneak Attack / Dodge into their draw pile" \
        in texts(events)


def test_restock_after_a_dodge_with_nothing_else_to_shuffle_still_asks():
    s = table(hands=(["c03"], ["c01", "c06"]))
    s, _ = reveal(s, ("c03", "top"), ("c01", "top"))
    assert asked(s) == (0, "restock")
    assert [a for a in RULESET.legal_actions(s, 0)] == [{"type": "restock"}, {"type": "pass"}]
    s, events = answer(s, 0, type="restock")
    assert "Restock: {p0} shuffles Dodge / Restock into their draw pile" in texts(events)


def test_restock_played_from_the_hand_has_no_pass():
    s = table(hands=(["c04", "c09"], ["c02", "c06"]), discard=(["c11", "c12"], []))
    s, _ = reveal(s, ("c04", "bottom"), ("c02", "bottom"))
    with pytest.raises(Exception, match="restock"):
        answer(s, 0, type="pass")


def test_restock_does_nothing_when_hit():
    s = table(hands=(["c04", "c09"], ["c01", "c06"]), discard=(["c11"], []))
    s, events = reveal(s, ("c04", "bottom"), ("c01", "top"))
    assert "restock" not in types(events)
    assert "c04" in s["discard"][0]
    assert ("Restock: {p0} was hit by Snowball Attack, so their Restock does nothing "
            "(it works only for a player who was not hit)") in [e["text"] for e in events]


# --------------------------------------------------------------------------- Advanced


def test_slushball_hit_steals_a_random_card_from_the_victims_discard_pile():
    s = table(hands=(["c08", "c03"], ["c06", "c04"]), discard=([], ["c12", "c14"]))
    s, events = reveal(s, ("c08", "top"), ("c06", "bottom"))
    steal = next(e for e in events if e["type"] == "steal")
    assert steal["thief"] == 0 and steal["victim"] == 1
    assert steal["card"] in {"c12", "c14", "c06", "c04"}  # the just-played card counts (Notes)
    assert steal["card"] in s["discard"][0] + s["draw"][0] + s["hands"][0]
    assert steal["card"] not in s["discard"][1]


def test_sneak_attack_makes_the_victim_choose_a_discard_to_abandon():
    s = table(hands=(["c12", "c03"], ["c06", "c04"]), discard=([], ["c13"]))
    s, _ = reveal(s, ("c12", "top"), ("c06", "bottom"))
    assert asked(s) == (1, "abandon")
    # the card just played is a discard too (Notes)
    assert {a["card"] for a in RULESET.legal_actions(s, 1)} == {"c13", "c04", "c06"}
    s, events = answer(s, 1, type="abandon", card="c06")
    assert "Sneak Attack: {p1} Abandons Snowball Attack / Upgrade from their discard pile" in texts(events)
    assert s["abandoned"] == ["c06"]
    assert [c["id"] for c in RULESET.view(s, None)["abandoned"]] == ["c06"]


@pytest.mark.parametrize("guard", [("c02", "bottom"), ("c16", "top"), ("c17", "bottom"), ("c19", "top")],
                         ids=["Dodge", "Offensive Dodge", "Snatch and Run", "Upgrade Dodge"])
def test_sneak_attack_is_stopped_by_any_dodge(guard):
    s = table(hands=(["c12", "c03"], [guard[0], "c04"]), options={"alternates": ["upgrade-dodge:iceball"]},
              arsenal=(["c07"], ["c08"]))
    s, events = reveal(s, ("c12", "top"), guard)
    while asked(s):
        seat, _ = asked(s)
        s, more = RULESET.apply(s, seat, RULESET.legal_actions(s, seat)[0])
        events += more
    assert "dodges {p0}'s Sneak Attack" in texts(events)
    assert not any(e["type"] == "abandon" and e.get("seat") == 1 for e in events)


def test_advanced_upgrade_flips_the_next_arsenal_card():
    s = table(hands=(["c13", "c03"], ["c02", "c04"]), arsenal=(["c07", "c15"], []))
    s, events = reveal(s, ("c13", "bottom"), ("c04", "top"))
    assert "c15" in s["discard"][0]
    assert "flips Slushball Attack / Dodge face-up" in texts(events)


# --------------------------------------------------------------------------- Extreme


def test_iceball_hit_abandons_a_chosen_discard_and_limits_the_draw():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), discard=([], ["c13"]))
    s, events = reveal(s, ("c15", "top"), ("c06", "bottom"))
    assert "Iceball Attack hit {p1}: {p1} may only draw one card next turn; " \
        "{p1} must Abandon a card from their discard pile" in texts(events)
    assert asked(s) == (1, "abandon")
    s, events = answer(s, 1, type="abandon", card="c13")
    assert s["abandoned"] == ["c13"] and hand_counts(s) == [2, 1]


def test_snow_fort_cancels_whatever_the_opponent_played():
    s = table(hands=(["c15", "c03"], ["c18", "c04"]))
    s, events = reveal(s, ("c15", "bottom"), ("c18", "bottom"))
    assert "Snow Fort: {p1}'s Whitewash (Throwing Rocks / Whitewash) is entirely ineffective" in texts(events)
    assert s["whitewash"] == [[], []] and s["shown"] == [[], []]


def test_snow_fort_cancels_an_upgrade():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), arsenal=(["c07"], ["c08"]))
    s, _ = reveal(s, ("c15", "bottom"), ("c06", "bottom"))
    assert s["arsenal"] == [["c07"], ["c08"]]


def test_snow_fort_against_snow_fort_does_nothing(monkeypatch):
    # One deck has one Snow Fort; dress a No Effect card as a second copy (as with two decks).
    for key in ("top", "bottom"):
        monkeypatch.setitem(C._SIDE_BY_ID, ("c22", key), C._SIDE_BY_ID[("c15", key)])
    monkeypatch.setitem(C._KIND_BY_ID, "c22", C._KIND_BY_ID["c15"])
    monkeypatch.setitem(C._NAME_BY_ID, "c22", C._NAME_BY_ID["c15"])
    s = table(hands=(["c15", "c03"], ["c22", "c04"]))
    s, events = reveal(s, ("c15", "bottom"), ("c22", "bottom"))
    assert [e["type"] for e in events if e["type"] in ("cancel", "hit", "dodge", "upgrade")] == \
        ["cancel", "cancel"]
    assert hand_counts(s) == [2, 2]


def test_offensive_dodge_dodges_hits_and_ultra_upgrades():
    s = table(hands=(["c16", "c03"], ["c01", "c04"]), arsenal=(["c07", "c15"], ["c08"]),
              abandoned=["c18"])
    s, events = reveal(s, ("c16", "top"), ("c01", "top"))
    log = texts(events)
    assert "{p0} dodges {p1}'s Snowball Attack with Offensive Dodge" in log
    assert "Offensive Dodge hit {p1}: {p1} may only draw one card next turn" in log
    assert asked(s) == (0, "upgrade")
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c15", "c08", "c18"}
    s, events = answer(s, 0, type="upgrade", card="c18")
    assert "c18" in s["discard"][0] and s["abandoned"] == []
    assert hand_counts(s) == [2, 1]


def test_offensive_dodge_without_an_incoming_attack_gives_no_ultra_upgrade():
    s = table(hands=(["c16", "c03"], ["c06", "c04"]), arsenal=(["c07", "c15"], ["c08"]))
    s, events = reveal(s, ("c16", "top"), ("c06", "bottom"))
    assert "upgrade" not in types(events) and "counter" not in types(events)
    assert s["step"] == "choose"


def test_ultra_upgrade_can_take_an_abandoned_card():
    s = table(hands=(["c16", "c03"], ["c02", "c04"]), arsenal=(["c07"], ["c08"]), abandoned=["c15"])
    s, _ = reveal(s, ("c16", "bottom"), ("c04", "top"))
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c07", "c08", "c15"}
    s, events = answer(s, 0, type="upgrade", card="c15")
    assert "Ultra Upgrade: {p0} takes Iceball Attack / Snow Fort from the Abandoned pile" in texts(events)


def test_barrage_hit_offers_the_second_card_either_side_or_pass():
    s = table(hands=(["c17", "c13"], ["c06", "c04"]), arsenal=(["c07"], ["c08"]))
    s, events = reveal(s, ("c17", "top"), ("c06", "bottom"))
    assert "Barrage hit {p1}: {p1} may only draw one card next turn; {p0} may play their second card" \
        in texts(events)
    assert asked(s) == (0, "second_card")
    assert RULESET.legal_actions(s, 0) == [
        {"type": "second_card", "card": "c13", "side": "top"},
        {"type": "second_card", "card": "c13", "side": "bottom"},
        {"type": "pass"},
    ]
    s, events = answer(s, 0, type="second_card", card="c13", side="bottom")
    assert "Barrage: {p0} plays a second card: Upgrade (Dodge / Upgrade)" in texts(events)
    assert asked(s) == (0, "upgrade")


def test_barrage_second_card_can_be_declined():
    s = table(hands=(["c17", "c13"], ["c06", "c04"]))
    s, _ = reveal(s, ("c17", "top"), ("c06", "bottom"))
    s, events = answer(s, 0, type="pass")
    assert "{p0} does not play a second card" in texts(events)
    assert s["step"] == "choose"


def test_barrage_with_no_second_card_asks_nothing():
    s = table(hands=(["c17"], ["c06", "c04"]))
    s, _ = reveal(s, ("c17", "top"), ("c06", "bottom"))
    assert s["step"] == "choose" and hand_counts(s) == [2, 1]


def test_snatch_and_run_dodges_and_exchanges_a_discard_for_an_abandoned_card():
    s = table(hands=(["c17", "c03"], ["c01", "c04"]), discard=(["c05"], []), abandoned=["c15", "c13"])
    s, events = reveal(s, ("c17", "bottom"), ("c01", "top"))
    assert "{p0} dodges {p1}'s Snowball Attack with Snatch and Run" in texts(events)
    assert asked(s) == (0, "exchange")
    assert {"type": "exchange", "give": "c05", "take": "c15"} in RULESET.legal_actions(s, 0)
    s, events = answer(s, 0, type="exchange", give="c05", take="c15")
    assert "c15" in s["discard"][0] and s["abandoned"] == ["c13", "c05"]
    assert hand_counts(s) == [2, 2]


def test_throwing_rocks_hit_abandons_the_targets_played_card_after_it_resolves():
    s = table(hands=(["c18", "c03"], ["c08", "c04"]), discard=(["c05"], []))
    s, events = reveal(s, ("c18", "top"), ("c08", "top"))
    log = texts(events)
    assert "Slushball Attack hit {p0}" in log  # the victim's card still resolves (Notes)
    assert "Slushball Attack / Upgrade is Abandoned from {p1}'s discard pile" in log
    assert "c08" in s["abandoned"]
    assert hand_counts(s) == [1, 2]  # the thrower draws one (RULINGS 4)


def test_whitewash_cannot_be_dodged_and_shows_the_next_hand_to_the_thrower():
    s = table(hands=(["c18", "c03"], ["c02", "c04"]))
    s, events = reveal(s, ("c18", "bottom"), ("c02", "bottom"))
    assert "Whitewash hit {p1}: {p1} must show {p0} the cards they draw next turn" in texts(events)
    assert "dodges" not in texts(events)
    thrower, victim, spectator = (RULESET.view(s, seat) for seat in (0, 1, None))
    assert [c["id"] for c in thrower["seats"][1]["hand"]] == s["hands"][1]
    assert victim["seats"][0]["hand"] is None
    assert spectator["seats"][1]["hand"] is None
    shown = [e for e in events if e["type"] == "whitewash_show"]
    assert shown and shown[0]["visible_to"] == [0, 1]
    # the showing lasts one turn
    s, _ = reveal(s, (s["hands"][0][0], "top"), (s["hands"][1][0], "top"))
    while asked(s):
        seat, _ = asked(s)
        s, _ = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
    assert RULESET.view(s, 0)["seats"][1]["hand"] is None


def test_whitewash_hit_stops_the_targets_upgrade():
    s = table(hands=(["c18", "c03"], ["c13", "c04"]), arsenal=(["c07"], ["c08"]))
    s, _ = reveal(s, ("c18", "bottom"), ("c13", "bottom"))
    assert s["arsenal"] == [["c07"], ["c08"]]


# --------------------------------------------------------------------------- Alternates

ALTS = {"alternates": ["upgrade-dodge:iceball", "weapons-cache:barrage"]}
RAID = {"alternates": ["raid:offensive-dodge"]}


def test_upgrade_dodge_dodges_and_may_take_an_abandoned_card():
    s = table(hands=(["c19", "c03"], ["c01", "c04"]), arsenal=(["c07"], ["c08"]), abandoned=["c15"],
              options=ALTS)
    s, events = reveal(s, ("c19", "top"), ("c01", "top"))
    assert "{p0} dodges {p1}'s Snowball Attack with Upgrade Dodge" in texts(events)
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c07", "c08", "c15"}


def test_upgrade_dodge_without_an_attack_upgrades_from_the_arsenal_only():
    s = table(hands=(["c19", "c03"], ["c06", "c04"]), arsenal=(["c07"], ["c08"]), abandoned=["c15"],
              options=ALTS)
    s, _ = reveal(s, ("c19", "top"), ("c06", "bottom"))
    assert asked(s) == (0, "upgrade")  # seat 0 (Extreme) chooses before seat 1 (Basic)
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c07", "c08"}


def test_dud_cancels_the_attack_and_abandons_it():
    s = table(hands=(["c19", "c03"], ["c15", "c04"]), options=ALTS)
    s, events = reveal(s, ("c19", "bottom"), ("c15", "top"))
    assert "Dud: {p1}'s Iceball Attack (Iceball Attack / Snow Fort) is ineffective and will be Abandoned" \
        in texts(events)
    assert s["abandoned"] == ["c15"] and hand_counts(s) == [2, 2]


def test_weapons_cache_keeps_a_discard_that_can_be_played_later_and_scores():
    s = table(hands=(["c20", "c03"], ["c02", "c04"]), discard=(["c13"], []), options=ALTS)
    s, _ = reveal(s, ("c20", "top"), ("c04", "top"))
    assert asked(s) == (0, "cache")
    s, events = answer(s, 0, type="cache", card="c13")
    assert "Weapons Cache: {p0} puts Dodge / Upgrade into their Weapons Cache" in texts(events)
    assert s["cache"][0] == ["c13"]
    spectator = RULESET.view(s, None)
    assert [c["id"] for c in spectator["seats"][0]["cache"]] == ["c13"]
    # next turn the cached card is a third option
    playable = {a["card"] for a in RULESET.legal_actions(s, 0) if a["type"] == "play"}
    assert playable == set(s["hands"][0]) | {"c13"}
    hand = list(s["hands"][0])
    s, events = reveal(s, ("c13", "top"), (s["hands"][1][0], "bottom"))
    assert "from their Weapons Cache" in texts(events)
    assert s["cache"][0] == [] and "c13" in s["discard"][0] + s["draw"][0] + s["hands"][0]
    assert set(hand) <= set(s["discard"][0] + s["draw"][0] + s["hands"][0])


def test_weapons_cache_may_be_declined_and_is_by_default():
    """Alternate Extreme 2: "you *may* place one card from your Discard pile into a Weapons Cache"."""
    s = table(hands=(["c20", "c03"], ["c02", "c04"]), discard=(["c13"], []), options=ALTS)
    s, _ = reveal(s, ("c20", "top"), ("c04", "top"))
    assert asked(s) == (0, "cache")
    assert {"type": "pass"} in RULESET.legal_actions(s, 0)
    assert RULESET.to_act(s)[0].default == {"type": "pass"}
    labels = [o["label"] for o in RULESET.view(s, 0)["you"]["prompt"]["options"]]
    assert "Pass: cache nothing" in labels and "Cache Dodge / Upgrade" in labels
    s, events = answer(s, 0, type="pass")
    assert "Weapons Cache: {p0} chooses to cache nothing" in texts(events)
    assert s["cache"][0] == [] and "c13" in s["discard"][0] + s["draw"][0] + s["hands"][0]


def test_backfire_turns_a_snowball_back_on_the_thrower():
    s = table(hands=(["c20", "c03"], ["c01", "c04"]), options=ALTS)
    s, events = reveal(s, ("c20", "bottom"), ("c01", "top"))
    assert "Backfire: {p1}'s Snowball Attack turns back on {p1}" in texts(events)
    assert hand_counts(s) == [2, 1]


def test_backfired_slushball_lets_the_backfire_player_steal():
    s = table(hands=(["c20", "c03"], ["c08", "c04"]), discard=([], ["c12"]), options=ALTS)
    s, events = reveal(s, ("c20", "bottom"), ("c08", "top"))
    steal = next(e for e in events if e["type"] == "steal")
    assert (steal["thief"], steal["victim"]) == (0, 1)


def test_backfired_rocks_abandon_the_rocks_and_the_thrower_draws_one():
    s = table(hands=(["c20", "c03"], ["c18", "c04"]), options=ALTS)
    s, _ = reveal(s, ("c20", "bottom"), ("c18", "top"))
    assert s["abandoned"] == ["c18"] and hand_counts(s) == [2, 1]


def test_raid_steals_the_card_the_opponent_played():
    s = table(hands=(["c21", "c03"], ["c14", "c04"]), abandoned=["c15"], options=RAID)
    s, _ = reveal(s, ("c21", "top"), ("c14", "top"))
    assert asked(s) == (0, "raid")
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c14", "c15"}
    s, events = answer(s, 0, type="raid", card="c14")
    assert "Raid: {p0} steals Dodge / Upgrade from {p1}'s played cards" in texts(events)
    assert "c14" not in s["discard"][1] + s["draw"][1] + s["hands"][1]


def test_raid_does_nothing_when_hit():
    s = table(hands=(["c21", "c03"], ["c01", "c04"]), abandoned=["c15"], options=RAID)
    s, _ = reveal(s, ("c21", "top"), ("c01", "top"))
    assert s["step"] == "choose" and s["abandoned"] == ["c15"]


def test_refined_upgrade_offers_the_top_two_cards_and_puts_the_other_back():
    s = table(hands=(["c21", "c03"], ["c02", "c04"]), arsenal=(["c07", "c15"], ["c08", "c09", "c16"]),
              options=RAID)
    s, _ = reveal(s, ("c21", "bottom"), ("c04", "top"))
    assert {a["card"] for a in RULESET.legal_actions(s, 0)} == {"c15", "c07", "c16", "c09"}
    me = RULESET.view(s, 0)["you"]["prompt"]
    assert {o["card"]["id"] for o in me["options"]} == {"c15", "c07", "c16", "c09"}
    assert "c09" not in str(RULESET.view(s, 1))
    s, events = answer(s, 0, type="upgrade", card="c09")
    assert s["arsenal"] == [["c07", "c15"], ["c08", "c16"]]
    assert "c09" in s["discard"][0]
