"""What a Snowball!: who is asked about a card, and what the others can tell from it.

Others see how many ability cards a seat holds, never which (engine README, rulings 7, 18-19). So
a seat is asked at the start of its Kid's activation and at each reaction whenever it holds any
card and has not set every card of that moment to "never ask", and an activation with no die to
spend stays open while the seat holds any card; which cards it holds decides only what it is
offered. Each test here plays the same actions from two games that differ only in
which cards one seat holds, as many in both, and checks that every other seat and a spectator
see the very same thing at every step: views, the log lines they may read, who is asked.
"""
from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from games.engines.what_a_snowball import RULESET as R

from tests.engines.what_a_snowball_scenes import act, dice, of_type, scene  # noqa: F401

VIEWERS = (0, 1, 2, None)
THROW = {"type": "throw", "die": 4, "target": "k3", "snowball": 1}


def three_teams(hands: dict[int, list[str]], *, first: int = 0, stage: str = "turn", gap: float = 5.0, **spec):
    """Three seats of one team each: seat ``first``'s Kid activates (with Command Dice 4 and 3 when it
    has rolled), then the others'. Seat 0's Kid k0 stands ``gap`` inches from seat 1's k3; seat 2's
    k6 stands well away."""
    kids = {0: {"team": 0, "pos": [3, 12], "snowballs": [1], **spec.get("thrower", {})},
            1: {"team": 1, "pos": [4 + gap, 12], **spec.get("target", {})},
            2: {"team": 2, "pos": [20, 22]}}
    order = [first] + [seat for seat in (0, 1, 2) if seat != first]
    return scene([kids[seat] for seat in order], teams=3, cards="method1", hands=hands, stage=stage,
                 tray=[4, 3], terrain=[])


def seen_by(state, events, viewer):
    """What ``viewer`` has of a moment: its view, the log lines it may read, who is asked."""
    readable = [e for e in events if viewer in e.get("visible_to", [viewer])]
    return R.view(state, viewer), readable, sorted(R.to_act(state))


def fresh(dice, *values):
    """Script the next dice afresh (dropping any a step before did not use)."""
    dice().clear()
    dice(*values)


def twin_games(build, seat, hand_a, hand_b, script, rolls=None):
    """Play ``script`` (seat, action) from ``build(hands)`` twice, step by step side by side: with
    ``seat`` holding ``hand_a`` and with it holding ``hand_b`` (as many cards). Before the first
    action and after each one every other seat and a spectator must see the same in both games.
    Returns both games' (state, events) step by step. ``rolls`` is (the dice fixture, the dice)."""
    assert len(hand_a) == len(hand_b) and sorted(hand_a) != sorted(hand_b)
    others = [v for v in VIEWERS if v != seat]
    runs = [[(build({seat: list(hand)}), [])] for hand in (hand_a, hand_b)]
    scripts = [list(rolls[1:]) if rolls else None for _ in runs]
    for step in range(len(script) + 1):
        (a, events_a), (b, events_b) = runs[0][-1], runs[1][-1]
        for viewer in others:
            assert seen_by(a, events_a, viewer) == seen_by(b, events_b, viewer), (
                f"after {step} actions, viewer {viewer} can tell {hand_a} from {hand_b}")
        if step == len(script):
            break
        who, action = script[step]
        for run, hand, dice_left in zip(runs, (hand_a, hand_b), scripts):
            if dice_left is not None:  # each game rolls the same dice, from where it left off
                fresh(rolls[0], *dice_left)
            assert who in R.to_act(run[-1][0]), f"seat {who} is not asked for {action} (holding {hand})"
            run.append(act(run[-1][0], who, action))
            if dice_left is not None:
                dice_left[:] = rolls[0]()
    return runs


# --- the start of an activation ------------------------------------------------------------------

@pytest.mark.parametrize("hand_a, hand_b", [
    (["not_done"], ["saving"]),
    (["not_done", "dork"], ["pitch", "ice"]),
])
def test_the_start_of_an_activation_looks_the_same_whichever_cards_the_seat_holds(hand_a, hand_b):
    """Seat 1's Kid ends its activation and seat 0's Kid is next: seat 0 is asked to roll (or play
    "I'm not done yet!") whether or not it holds that card, and rolls the same dice."""
    def build(hands):
        return three_teams({2: ["grandma"], **hands}, first=1)

    script = [(1, {"type": "end_activation"}), (0, {"type": "roll"})]
    (_, (asked_a, _), _), (_, (asked_b, _), rolled) = twin_games(build, 0, hand_a, hand_b, script)
    for asked, hand in ((asked_a, hand_a), (asked_b, hand_b)):
        assert asked["activation"]["kid"] == "k0" and asked["activation"]["stage"] == "start"
        prompt = R.to_act(asked)[0]
        offered = [a for a in R.legal_actions(asked, 0) if a["type"] in ("roll", "play_card")]
        if "not_done" in hand:
            assert offered == [{"type": "roll"}, {"type": "play_card", "card": "not_done"}]
            assert prompt.extra["cards"] == ["not_done"] and "I'm not done yet!" in prompt.text
        else:  # nothing to play: one choice, and the prompt says so
            assert offered == [{"type": "roll"}]
            assert prompt.extra["cards"] == [] and "you have no card to play now" in prompt.text
    assert rolled[0]["activation"]["stage"] == "turn" and of_type(rolled[1], "command_dice")


def test_a_seat_with_no_card_is_not_asked_at_the_start():
    s = three_teams({}, first=1)
    s, events = act(s, 1, {"type": "end_activation"})
    assert s["activation"]["kid"] == "k0" and s["activation"]["stage"] == "turn"
    assert of_type(events, "command_dice") and R.to_act(s)[0].kind == "turn"


def test_without_ability_cards_nobody_is_asked_at_the_start():
    s = three_teams({}, first=1)
    s["options"] = {**s["options"], "ability_cards": "none"}
    s, _ = act(s, 1, {"type": "end_activation"})
    assert s["activation"]["stage"] == "turn"


# --- reactions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("hand_a, hand_b", [
    (["dork"], ["grandma"]),
    (["dash"], ["pitch"]),
    (["dork", "dash"], ["ice", "saving"]),
])
def test_a_throw_declared_at_a_kid_looks_the_same_whichever_cards_its_seat_holds(dice, hand_a, hand_b):
    """Seat 0 throws at seat 1's Kid: seat 1 is asked about "Missed me, dork!" and "Dashing through
    the snow!" whether or not it holds them, and declines; the throw misses."""
    rolls = (dice, 1, 3, *[3] * 12)
    script = [(0, THROW), (1, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands), 1, hand_a, hand_b, script, rolls)
    for run, hand in zip(runs, (hand_a, hand_b)):
        asked, events = run[1]
        assert asked["pending"]["moment"] == "throw_declared" and of_type(events, "waiting")
        assert R.to_act(asked)[1].extra["cards"] == [c for c in ("dork", "dash") if c in hand]
        assert not of_type(events, "to_hit")
        assert of_type(run[2][1], "to_hit") and not run[2][0]["pending"]


@pytest.mark.parametrize("hand_a, hand_b", [
    (["grandma"], ["miracle"]),
    (["grandma", "pitch"], ["dork", "dash"]),
])
def test_a_hit_looks_the_same_whichever_cards_the_targets_seat_holds(dice, hand_a, hand_b):
    """A throw within 1 inch hits at once: seat 1 is asked about "Dashing through the snow!" when it
    is declared and "Thanks, Grandma!" when it hits, whether or not it holds them, and declines
    both; the same dice are rolled for effect."""
    rolls = (dice, 1, 1, 1, 1)  # effect (Size 1), then the parents' roll: nobody saw
    script = [(0, THROW), (1, {"type": "decline"}), (1, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands, gap=0.5), 1, hand_a, hand_b, script, rolls)
    for run, hand in zip(runs, (hand_a, hand_b)):
        declared, events = run[1]
        assert declared["pending"]["moment"] == "throw_declared" and not of_type(events, "to_hit")
        assert R.to_act(declared)[1].extra["cards"] == (["dash"] if "dash" in hand else [])
        asked, events = run[2]
        assert asked["pending"]["moment"] == "hit" and of_type(events, "to_hit")[0]["automatic"]
        assert R.to_act(asked)[1].extra["cards"] == (["grandma"] if "grandma" in hand else [])
        assert of_type(run[3][1], "effect") and run[3][0]["kids"]["k0"]["home"] is None


def test_a_hit_after_a_throw_declared_asks_again_the_same_way(dice):
    """A normal throw: seat 1 is asked at the declaration and again when hit, holding "Thanks, Grandma!"
    or not."""
    rolls = (dice, 6, 6, 1, 1, *[3] * 12)
    script = [(0, THROW), (1, {"type": "decline"}), (1, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands), 1, ["grandma"], ["saving"], script, rolls)
    for run in runs:
        assert [step[0]["pending"] and step[0]["pending"]["moment"] for step in run] == [
            None, "throw_declared", "hit", None]


@pytest.mark.parametrize("hand_a, hand_b", [
    (["miracle"], ["ice"]),
    (["miracle", "dash"], ["pitch", "pitch"]),
])
def test_being_caught_looks_the_same_whichever_cards_the_cheats_seat_holds(dice, hand_a, hand_b):
    """Seat 0's Kid cheats and the parents see: seat 0 is asked about "A Christmas Miracle!" whether
    or not it holds it, declines, and its Kid is taken home."""
    rolls = (dice, 1, 6, *[3] * 12)  # effect (Size 1), then the parents' roll: caught
    script = [(0, THROW), (0, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands, gap=0.5), 0, hand_a, hand_b, script, rolls)
    for run, hand in zip(runs, (hand_a, hand_b)):
        asked, events = run[1]
        assert asked["pending"]["moment"] == "caught" and of_type(events, "parents")[0]["caught"]
        assert R.to_act(asked)[0].extra["cards"] == (["miracle"] if "miracle" in hand else [])
        assert "You have no card to play now." in R.to_act(asked)[0].text or "miracle" in hand
        assert run[2][0]["kids"]["k0"]["home"] == "parents"


def test_a_dash_then_asks_about_missed_me_dork_whether_or_not_the_seat_holds_it(dice):
    """After "Dashing through the snow!" the target's seat is asked again, now about "Missed me, dork!"
    alone; a seat holding a second dash and one holding "Missed me, dork!" look the same."""
    rolls = (dice, 3, 4, 1, 3, *[3] * 12)
    script = [(0, THROW), (1, {"type": "play_card", "card": "dash"}), (1, {"type": "move_to", "to": [9, 19]}),
              (1, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands), 1, ["dash", "dork"], ["dash", "dash"], script, rolls)
    for run, offered in zip(runs, (["dork"], [])):
        after_dash = run[3][0]
        assert after_dash["pending"]["moment"] == "throw_declared"
        assert R.to_act(after_dash)[1].extra["cards"] == offered
        assert of_type(run[4][1], "to_hit")


def test_a_seat_with_no_card_is_not_asked_to_react(dice):
    fresh(dice, 6, 6, 1, 1, *[3] * 12)
    s, events = act(three_teams({2: ["dork"]}), 0, THROW)  # seat 1 holds nothing; seat 2 is not the target
    assert s["pending"] is None and of_type(events, "to_hit") and of_type(events, "effect")
    assert not of_type(events, "waiting")
    fresh(dice, 1, 6, *[3] * 12)
    s, events = act(three_teams({2: ["miracle"]}, gap=0.5), 0, THROW)
    assert s["pending"] is None and s["kids"]["k0"]["home"] == "parents" and not of_type(events, "waiting")


def test_a_knocked_down_kid_is_asked_only_about_missed_me_dork(dice):
    s = three_teams({1: ["dash", "grandma"]}, target={"down": True})
    s, _ = act(s, 0, THROW)
    assert R.to_act(s)[1].extra["cards"] == [] and s["pending"]["moment"] == "throw_declared"
    with pytest.raises(IllegalAction, match="cannot be played now"):
        R.apply(s, 1, {"type": "play_card", "card": "dash"})
    s = three_teams({1: ["dash", "grandma"]}, target={"down": True})
    s, _ = act(s, 1, {"type": "set_never_ask", "card": "dork", "on": True})
    fresh(dice, 1, 1, *[3] * 12)
    s, events = act(s, 0, THROW)  # "dash" is not muted, but a knocked-down Kid cannot dash: not asked
    assert s["pending"] is None and of_type(events, "to_hit")


# --- "never ask" ---------------------------------------------------------------------------------

def test_never_ask_for_im_not_done_yet_rolls_the_dice_at_once():
    s = three_teams({0: ["not_done"]}, first=1, thrower={"command_dice": 2})
    assert {"type": "set_never_ask", "card": "not_done", "on": True} in R.legal_actions(s, 0)
    s, events = act(s, 0, {"type": "set_never_ask", "card": "not_done", "on": True})
    assert s["never_ask"][0] == ["not_done"] and events[0]["visible_to"] == [0]
    assert {"type": "set_never_ask", "card": "not_done", "on": False} in R.legal_actions(s, 0)
    muted, events = act(s, 1, {"type": "end_activation"})
    assert muted["activation"]["kid"] == "k0" and muted["activation"]["stage"] == "turn"
    assert of_type(events, "command_dice")[0]["count"] == 2 and muted["hands"][0] == ["not_done"]
    # muting while asked answers the question: the dice roll at once
    s = three_teams({0: ["not_done"]}, first=1)
    asked, _ = act(s, 1, {"type": "end_activation"})
    assert asked["activation"]["stage"] == "start"
    rolled, events = act(asked, 0, {"type": "set_never_ask", "card": "not_done", "on": True})
    assert rolled["activation"]["stage"] == "turn" and of_type(events, "command_dice")
    # another seat's setting does not answer seat 0's question
    other, _ = act(asked, 1, {"type": "set_never_ask", "card": "not_done", "on": True})
    assert other["activation"]["stage"] == "start"


def test_muting_im_not_done_yet_shows_the_others_only_the_setting_not_the_hand():
    """Two seats that both muted "I'm not done yet!", one holding it and one not: nobody else can
    tell them apart; the dice roll at once for both."""
    def build(hands):
        s = three_teams(hands, first=1)
        s["never_ask"] = [["not_done"], [], []]
        return s

    runs = twin_games(build, 0, ["not_done"], ["saving"], [(1, {"type": "end_activation"})])
    assert all(run[1][0]["activation"]["stage"] == "turn" for run in runs)


def test_unmuting_asks_again_from_the_next_moment():
    s = three_teams({0: ["saving"]}, first=1)
    s["never_ask"] = [["not_done"], [], []]
    s, _ = act(s, 0, {"type": "set_never_ask", "card": "not_done", "on": False})
    s, _ = act(s, 1, {"type": "end_activation"})
    assert s["activation"]["stage"] == "start" and R.legal_actions(s, 0)[0] == {"type": "roll"}


def test_a_seat_playing_a_card_then_is_asked_about_the_moments_other_cards_whether_it_holds_them(dice):
    """Having played "Missed me, dork!", the seat is still asked about "Dashing through the snow!"
    while it holds any card, and not once its hand is empty."""
    rolls = (dice, 1, 3, 3, *[3] * 12)
    script = [(0, THROW), (1, {"type": "play_card", "card": "dork"}), (1, {"type": "decline"})]
    runs = twin_games(lambda hands: three_teams(hands), 1, ["dork", "dash"], ["dork", "ice"], script, rolls)
    for run, offered in zip(runs, (["dash"], [])):
        assert R.to_act(run[2][0])[1].extra["cards"] == offered
    fresh(dice, 1, 3, 3, *[3] * 12)
    s, _ = act(three_teams({1: ["dork"]}), 0, THROW)
    s, events = act(s, 1, {"type": "play_card", "card": "dork"})
    assert s["pending"] is None and of_type(events, "to_hit")



# --- an activation with no die to spend ----------------------------------------------------------

@pytest.mark.parametrize("hand_a, hand_b, kid, rolled", [
    (["saving"], ["pitch"], {"down": True, "command_dice": 2}, [1, 2]),  # "I've been saving these!" could be played
    (["dash"], ["grandma"], {"snowballs": [], "command_dice": 1}, [4]),  # "Dashing through the snow!" could
    (["miracle"], ["ice"], {"type": "elf", "snowballs": [], "command_dice": 1}, [4]),  # an Elf swaps a miracle
])
def test_an_activation_with_no_die_to_spend_stays_open_whichever_cards_the_seat_holds(dice, hand_a, hand_b, kid,
                                                                                      rolled):
    """Seat 0's Kid rolls dice it cannot spend (a knocked-down Kid without a Wild die; a THROW with no
    snowball): holding any card, the seat ends the activation itself, whether or not it holds one it
    could play then, so the activation's end does not show which cards it holds."""
    rolls = (dice, *rolled, *[3] * 12)
    script = [(1, {"type": "end_activation"}), (0, {"type": "roll"}), (0, {"type": "end_activation"})]
    runs = twin_games(lambda hands: three_teams(hands, first=1, thrower=kid), 0, hand_a, hand_b, script, rolls)
    for run in runs:
        rolled = run[2][0]
        assert rolled["activation"]["kid"] == "k0" and rolled["activation"]["stage"] == "turn"
        assert R.view(rolled, None)["activation"]["unspendable"].keys() == {str(v) for v in rolled["activation"]["tray"]}
        assert R.to_act(rolled)[0].kind == "turn" and not of_type(run[2][1], "end_activation")
        assert of_type(run[3][1], "end_activation")[0]["automatic"] is False


def test_an_activation_with_no_die_to_spend_ends_by_itself_for_a_seat_with_no_card(dice):
    fresh(dice, 1, 2, *[3] * 12)
    s = three_teams({2: ["saving"]}, first=1, thrower={"down": True, "command_dice": 2})
    s, events = act(s, 1, {"type": "end_activation"})
    assert of_type(events, "command_dice")[0]["dice"] == [1, 2]
    assert of_type(events, "end_activation")[-1] == {**of_type(events, "end_activation")[-1], "kid": "k0",
                                                     "automatic": True}
    assert s["activation"]["kid"] != "k0"
