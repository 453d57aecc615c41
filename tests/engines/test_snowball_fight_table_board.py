"""The board for three to six players and for teams: every moment renders for every seat and a
spectator, its buttons send only legal actions, and it draws no card its viewer may not see."""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.template.loader import render_to_string

from games.engines.snowball_fight import RULESET
from tests.engines.privacy_oracle import hidden_cards

NAMES = ["Alice", "Bob", "Cleo", "Dan", "Eve", "Finn"]
BUTTON = re.compile(r'<(?:button|form)[^>]*ws-send[^>]*hx-vals="([^"]*)"')
CARD = re.compile(r'data-card="(c\d\d[bc]?)"')
REVEAL = re.compile(r'<section class="sbf-reveal.*?</section>', re.S)


def render(state, seat):
    to_act = RULESET.to_act(state)
    return render_to_string("games/snowball-fight/board.html", {
        "view": RULESET.view(state, seat),
        "seat": seat,
        "legal": RULESET.legal_actions(state, seat) if seat is not None else [],
        "prompt": to_act[seat].as_dict() if seat in to_act else None,
        "names": NAMES[:state["players"]],
        "version": 1,
    })


def sent_actions(page: str) -> list[dict]:
    return [json.loads(json.loads(html.unescape(vals))["action"]) for vals in BUTTON.findall(page)]


def check_page(state, seat) -> str:
    page = render(state, seat)
    assert "{p" not in page, "a name placeholder was not filled in"
    legal = RULESET.legal_actions(state, seat) if seat is not None else []
    actions = sent_actions(page)
    assert all(a in legal for a in actions), f"a button sends an illegal action: {actions}"
    effects = [a for a in legal if a["type"] not in ("choose", "play", "deal", "lock")]
    assert all(a in actions for a in effects), "an effect prompt's answer has no button"
    if state["step"] == "choose" and seat in RULESET.to_act(state) and state["phase"] == "play":
        chosen = [a for a in actions if a["type"] in ("choose", "play")]
        cards = state["hands"][seat] + state["cache"][seat]
        assert chosen and {c for a in chosen for c in _cards_of(a)} == set(cards), \
            "some card in hand cannot be played"
    if state["step"] == "deal" and seat is not None and seat in RULESET.to_act(state):
        assert 'name="action.give.' in page and "Hand out these cards" in page
    present = REVEAL.sub("", page)
    hidden = set(hidden_cards(state, seat))
    assert not hidden & set(CARD.findall(present)), f"viewer {seat} is drawn hidden cards"
    return page


def _cards_of(action: dict) -> list[str]:
    if "left" in action:
        return [action["left"]["card"], action["right"]["card"]]
    return [action["card"]]


def _play(players: int, teams, seed: int, every: int):
    rng = random.Random(seed)
    state = RULESET.new_game(players=players, options={}, seed=seed, **({"teams": teams} if teams else {}))
    step = 0
    seen = set()
    while RULESET.outcome(state) is None:
        if step % every == 0 or state["step"] in ("deal", "resolve") and state["step"] not in seen:
            seen.add(state["step"])
            for viewer in [*range(players), None]:
                check_page(state, viewer)
        to_act = RULESET.to_act(state)
        seat = rng.choice(sorted(to_act))
        state, _ = RULESET.apply(state, seat, RULESET.bot_action(state, seat))
        step += 1
    for viewer in [*range(players), None]:
        check_page(state, viewer)
    return state


@pytest.mark.parametrize("players, teams, seed", [
    (3, None, 1), (4, None, 2), (5, None, 3), (6, None, 4), (4, [0, 1, 0, 1], 5), (6, [0, 0, 0, 1, 1, 1], 6)])
def test_the_table_board_renders_whole_games_for_every_seat_and_a_spectator(players, teams, seed):
    state = _play(players, teams, seed, every=7)
    page = render(state, None)
    assert "Game over" in page


def _state_at(players, teams, seed, arrived):
    rng = random.Random(seed)
    state = RULESET.new_game(players=players, options={}, seed=seed, **({"teams": teams} if teams else {}))
    for _ in range(3000):
        if arrived(state):
            return state
        seat = rng.choice(sorted(RULESET.to_act(state)))
        state, _ = RULESET.apply(state, seat, RULESET.bot_action(state, seat))
    raise AssertionError("position not reached")


def test_a_team_player_whose_draft_pick_is_locked_is_told_whom_the_draft_waits_for():
    s = RULESET.new_game(players=4, options={}, seed=3, teams=[0, 1, 0, 1])
    s, _ = RULESET.apply(s, 2, RULESET.to_act(s)[2].default)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", check_page(s, 2))).split())
    assert "the others go to Dan" in text
    assert "Waiting for Alice, Bob and Dan to choose; then the draft goes on." in text
    assert "Keep now" not in text


def test_each_area_says_whom_its_player_plays_at_left_and_right():
    state = _state_at(4, None, 8, lambda s: s["phase"] == "play" and s["step"] == "choose")
    page = render(state, 1)
    areas = dict(re.findall(r'<div class="sbf-area[^"]*" data-seat="(\d)">(.*?)</dl>', page, re.S))
    for seat in range(4):
        text = re.sub(r"<[^>]+>", "", areas[str(seat)])
        assert f"left: {NAMES[(seat + 1) % 4]}" in text and f"right: {NAMES[(seat - 1) % 4]}" in text
    assert "one to your left at <strong>Cleo</strong>, one to your right at <strong>Alice</strong>" in page
    assert "Alice ◀▶ Bob" in page and "Dan ◀▶ Alice" in page


def test_the_brief_beside_the_hand_tells_the_viewers_own_battle_of_the_last_reveal():
    """For a phone (the CSS shows it on narrow screens only): the cards and lines of the battle
    the viewer fought, next to the hand; other battles stay in the full reveal only."""
    from tests.engines.test_snowball_fight_table_helpers import finish_prompts, play_each, team_table
    s = team_table([0, 1, 0, 1], hands=[["c05", "c01"], ["c12", "c04"], ["c01b", "c03b"], ["c06", "c02b"]],
                   discard=[["c07"], []])
    s, _ = play_each(s, {0: ("c05", "bottom"), 1: ("c12", "top"), 2: ("c03b", "top"), 3: ("c06", "bottom")})
    s, _ = finish_prompts(s)
    brief = re.search(r'<aside class="sbf-reveal-brief".*?</aside>', check_page(s, 2), re.S).group(0)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", brief)).split())
    assert text.startswith("Turn 1 reveal you : Dodge vs Dan : Upgrade")
    assert "Upgrade: Dan takes" in text
    assert "Sneak Attack" not in text and "Battle" not in text  # Alice's battle, and the battle's own heading
    brief = re.search(r'<aside class="sbf-reveal-brief".*?</aside>', check_page(s, 0), re.S).group(0)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", brief)).split())
    assert "you : Upgrade vs Bob : Sneak Attack" in text
    assert "Alice was hit by Sneak Attack, so their Upgrade does nothing" in text
    assert "sbf-reveal-brief" not in check_page(s, None)


def test_the_reveal_shows_every_battle_with_its_own_explanation():
    state = _state_at(3, None, 9, lambda s: s["last_reveal"] is not None and s["battle"] is None)
    page = render(state, None)
    reveal = REVEAL.search(page).group(0)
    battles = re.findall(r'<li class="sbf-battle[^"]*" data-battle="(\d)">(.*?)</ul>\s*</li>', reveal, re.S)
    assert len(battles) == 3
    for number, (_, body) in enumerate(battles, start=1):
        assert f"Battle {number} of 3:" in body
        assert len(re.findall(r'class="sbf-card', body)) >= 2


def test_the_team_hand_is_shown_to_team_mates_and_to_nobody_else():
    state = _state_at(4, [0, 1, 0, 1], 10, lambda s: s["phase"] == "play" and s["step"] == "choose"
                      and all(s["hands"]))
    mate_cards = set(state["hands"][2])
    assert mate_cards <= set(CARD.findall(render(state, 0)))
    for viewer in (1, 3, None):
        assert not mate_cards & set(CARD.findall(REVEAL.sub("", render(state, viewer))))


def test_the_leader_hands_out_with_one_choice_per_team_mate_and_the_others_wait():
    state = _state_at(6, [0, 1, 0, 1, 0, 1], 11, lambda s: s.get("step") == "deal")
    leader = next(iter(RULESET.to_act(state)))
    team = state["teams"][leader]
    page = render(state, leader)
    pool = state["pool"][team]
    for member in pool["to"]:
        assert len(re.findall(rf'name="action.give.{member}"', page)) == len(pool["cards"])
    default = sent_actions(page)[-1]
    assert default == RULESET.to_act(state)[leader].default
    mate = next(x for x in range(6) if state["teams"][x] == team and x != leader)
    assert "is handing them out" in render(state, mate)
    assert set(pool["cards"]) <= set(CARD.findall(render(state, mate)))


def test_moving_a_chosen_card_to_the_other_side_swaps_the_two_plays():
    state = _state_at(3, None, 12, lambda s: s["phase"] == "play" and s["step"] == "choose"
                      and len(s["hands"][1]) == 2)
    a, b = state["hands"][1]
    state, _ = RULESET.apply(state, 1, {"type": "choose", "left": {"card": a, "side": "top"},
                                        "right": {"card": b, "side": "bottom"}})
    actions = sent_actions(check_page(state, 1))
    assert {"type": "choose", "right": {"card": a, "side": "bottom"}, "left": {"card": b, "side": "bottom"}} in actions
    assert {"type": "choose", "left": {"card": a, "side": "bottom"}, "right": {"card": b, "side": "bottom"}} in actions
    assert {"type": "lock"} in actions


LABELLED_BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"[^>]*title="([^"]*)"[^>]*>(.*?)</button>')


def labelled_buttons(page: str) -> list[tuple[dict, str, str]]:
    """Each button that sends an action and has a tooltip: (action, tooltip, label)."""
    return [(json.loads(json.loads(html.unescape(vals))["action"]), html.unescape(title), html.unescape(label))
            for vals, title, label in LABELLED_BUTTON.findall(page)]


def test_a_team_players_buttons_say_which_plays_at_once_and_which_only_marks():
    state = _state_at(4, [0, 1, 0, 1], 10, lambda s: s["phase"] == "play" and s["step"] == "choose"
                      and 0 in RULESET.to_act(s) and s["sealed"][0] is None)
    opponent = NAMES[RULESET.view(state, 0)["seats"][0]["opponent"]]
    page = check_page(state, 0)
    assert ">Choose<" not in page and not re.search(r"<button[^>]*>Play (?!now: )", page)
    buttons = labelled_buttons(page)
    play_now = [(a, t, label) for a, t, label in buttons if label.startswith("Play now: ")]
    mark = [(a, t, label) for a, t, label in buttons if label == "Mark"]
    assert len(play_now) == len(mark) == 2 * len(state["hands"][0] + state["cache"][0])
    assert all(a["type"] == "play" for a, _, _ in play_now) and all(a["type"] == "choose" for a, _, _ in mark)
    for a, title, label in play_now:
        assert title == f"Play {label.removeprefix('Play now: ')} at {opponent} right away; you cannot change it afterwards"
    assert all("without deciding yet; press Lock my choice" in t for _, t, _ in mark)
    assert "(if time runs out, the marked side is played)" in page
    card = state["hands"][0][0]
    state, _ = RULESET.apply(state, 0, {"type": "choose", "card": card, "side": "top"})
    page = check_page(state, 0)
    marked = [a for a, _, label in labelled_buttons(page) if label == "Marked ✓"]
    assert marked == [{"type": "choose", "card": card, "side": "top"}]
    assert ">Lock my choice</button>" in page and ">Lock</button>" not in page
    mine = re.search(r'<div class="sbf-area[^"]*" data-seat="0">.*?</header>', page, re.S).group(0)
    assert "marked, not locked in" in mine and "has chosen" not in mine  # its own badge
    for viewer in (1, None):  # the others see only that a choice is made
        theirs = re.search(r'<div class="sbf-area[^"]*" data-seat="0">.*?</header>', render(state, viewer), re.S).group(0)
        assert "marked a card, not locked in" in theirs and "has chosen" not in theirs and card not in theirs


def test_the_ring_aim_buttons_say_they_only_aim_until_both_plays_are_locked():
    state = _state_at(4, None, 8, lambda s: s["phase"] == "play" and s["step"] == "choose"
                      and 1 in RULESET.to_act(s) and s["sealed"][1] is None)
    page = check_page(state, 1)
    aims = [(a, t, label) for a, t, label in labelled_buttons(page) if "at " in label]
    assert len(aims) == 4 * len(state["hands"][1] + state["cache"][1])  # each side, at each neighbour
    assert all(a["type"] == "choose" for a, _, _ in aims)
    for _, title, label in aims:
        where = "Cleo" if label.startswith("◀") else "Alice"
        assert re.fullmatch(rf"Aim .+ at {where} without deciding yet; press Lock both plays when you are sure", title)
    assert "only aim a side at that neighbour" in page and "(if time runs out, the aimed cards are played)" in page


def test_a_whitewashed_hand_is_said_to_be_shown_only_to_the_player_it_is_shown_to():
    state = RULESET.new_game(players=4, options={}, seed=3)
    state["shown"][1] = [2]  # seat 1 shows its hand to seat 2
    said = "Whitewashed: shows you their hand"
    for seat in (None, 0, 1, 3, 2):  # the areas drawn for the others first, then for seat 2
        page = render(state, seat)
        assert (said in page) == (seat == 2), f"seat {seat}"
    areas = dict(re.findall(r'<div class="sbf-area[^"]*" data-seat="(\d)">(.*?)</dl>', render(state, 2), re.S))
    assert [seat for seat, area in sorted(areas.items()) if said in area] == ["1"]


def test_an_empty_hand_reads_empty_whether_its_cards_are_shown_or_only_counted():
    state = _state_at(4, [0, 1, 0, 1], 3, lambda s: s["phase"] == "play" and any(not h for h in s["hands"]))
    empty_seat = next(seat for seat, hand in enumerate(state["hands"]) if not hand)
    for viewer in (0, 1, 2, 3, None):  # a team-mate sees the hand itself, the others its count
        if viewer == empty_seat:
            continue
        area = re.search(rf'<div class="sbf-area[^"]*" data-seat="{empty_seat}">.*?</dl>', render(state, viewer),
                         re.S).group(0)
        hand = re.search(r'<div class="sbf-fact-hand"><dt>Hand</dt><dd>(.*?)</dd>', area, re.S).group(1)
        assert "empty" in hand and "0 cards" not in hand, (viewer, hand)
