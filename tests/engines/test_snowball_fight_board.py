"""The board template renders every kind of moment, and its buttons send only legal actions."""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.template.loader import render_to_string

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight.cards import card_dict
from tests.engines.test_snowball_fight_helpers import reveal, table

NAMES = ["Alice", "Bob"]
BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"')
CARD = re.compile(r'data-card="(c\d\d)"')


def render(state, seat):
    to_act = RULESET.to_act(state)
    return render_to_string("games/snowball-fight/board.html", {
        "view": RULESET.view(state, seat),
        "seat": seat,
        "legal": RULESET.legal_actions(state, seat) if seat is not None else [],
        "prompt": to_act[seat].as_dict() if seat in to_act else None,
        "names": NAMES,
        "version": 1,
    })


def sent_actions(page: str) -> list[dict]:
    return [json.loads(json.loads(html.unescape(vals))["action"]) for vals in BUTTON.findall(page)]


def check_page(state, seat):
    page = render(state, seat)
    assert "{p" not in page, "a name placeholder was not filled in"
    actions = sent_actions(page)
    legal = RULESET.legal_actions(state, seat) if seat is not None else []
    assert all(a in legal for a in actions), "a button sends an illegal action"
    if state["step"] == "keep":  # a pair is offered once, whichever copies of its cards it keeps
        kinds = {_kept_kinds(state, a) for a in actions if a["type"] == "play"}
        assert {_kept_kinds(state, a) for a in legal if a["type"] == "play"} == kinds, "a pair has no button"
        assert len(kinds) == len([a for a in actions if a["type"] == "play"]), "a pair is offered twice"
    assert all(a in actions for a in legal if state["step"] != "keep" or a["type"] not in ("choose", "play")), \
        "a legal action has no button"
    hidden = {c for pile in state["draw"] for c in pile}
    for x in range(2):
        if x != seat and (seat is None or seat not in state["shown"][x]):
            hidden |= set(state["hands"][x]) | set(state["face_down"][x])
    # the reveal is history: cards shown face-up when played, wherever they are now
    present = re.sub(r'<section class="sbf-reveal".*?</section>', "", page, flags=re.S)
    assert not hidden & set(CARD.findall(present)), "the page draws a hidden card"
    return page


def _kept_kinds(state, action) -> tuple[str, ...]:
    """The kinds of the two Advanced cards a keep-step action keeps."""
    return tuple(sorted(card_dict(card)["kind"] for card in action["keep"]))


@pytest.mark.parametrize("seed", [3, 331])
def test_board_renders_every_step_of_a_game_for_players_and_spectators(seed):
    options = {"alternates": ["raid:barrage", "weapons-cache:iceball"]} if seed == 331 else {}
    s = RULESET.new_game(players=2, options=options, seed=seed)
    rng = random.Random(seed)
    while RULESET.outcome(s) is None:
        for viewer in (0, 1, None):
            check_page(s, viewer)
        seat = rng.choice(sorted(RULESET.to_act(s)))
        s, _ = RULESET.apply(s, seat, RULESET.bot_action(s, seat))
    page = check_page(s, None)
    assert "Game over" in page


def test_board_shows_the_hand_with_a_play_button_per_side_and_a_lock_after_choosing():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]))
    page = render(s, 0)
    assert ">Play now: Iceball Attack<" in page and ">Play now: Snow Fort<" in page and ">Play now: Restock<" in page
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": "c15", "side": "bottom"})
    page = render(s, 0)
    assert "Your choice:" in page and "<strong>Snow Fort</strong>" in page
    assert {"type": "lock"} in sent_actions(page)
    assert "marked, not locked in" in page and "has chosen" not in page  # the chooser's own badge
    other = render(s, 1)
    assert "marked a card, not locked in" in other and "has chosen" not in other and "Snow Fort" not in other.split("Your hand")[0].split("Arsenal")[0]
    assert "marked, not locked in" not in other and "marked, not locked in" not in render(s, None)


def test_board_prompt_panel_offers_one_button_per_answer():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]), discard=([], ["c13"]))
    s, _ = reveal(s, ("c15", "top"), ("c06", "bottom"))
    page = check_page(s, 1)
    assert "Iceball Attack hit you: choose a card from your discard pile to Abandon." in page
    assert sorted(a["card"] for a in sent_actions(page)) == ["c04", "c06", "c13"]
    assert sent_actions(render(s, 0)) == []


def test_board_reveal_names_the_players():
    s = table(hands=(["c01", "c03"], ["c06", "c04"]))
    s, _ = reveal(s, ("c01", "top"), ("c06", "bottom"))
    page = check_page(s, None)
    assert "Snowball Attack hit <strong>Bob</strong>" in page


def test_draft_buttons_say_which_keeps_at_once_and_which_only_marks():
    s = RULESET.new_game(players=2, options={}, seed=3)
    assert s["step"] == "pick"
    page = check_page(s, 0)
    assert "Keep this" not in page and ">Choose<" not in page
    keep_now = re.findall(r'<button[^>]*title="([^"]*)"[^>]*>Keep now</button>', page)
    mark = re.findall(r'<button[^>]*title="([^"]*)"[^>]*>Mark</button>', page)
    assert len(keep_now) == len(mark) == len(s["draft"]["packs"][0])
    assert all("pass the others to Bob right away" in t for t in keep_now)
    assert all("without deciding yet" in t for t in mark)
    assert "if time runs out, the marked card is kept" in page
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": s["draft"]["packs"][0][0]})
    page = render(s, 0)
    assert page.count("Marked ✓") == 1 and "Lock my choice" in page


def test_a_pair_of_identical_advanced_cards_is_offered_once():
    for seed in range(200):  # a quick draft in which seat 0's pack holds two copies of one card
        s = RULESET.new_game(players=2, options={"draft": "quick"}, seed=seed)
        kinds = [card_dict(card)["kind"] for card in s["draft"]["packs"][0]]
        if len(set(kinds)) < len(kinds):
            break
    else:
        pytest.fail("no seed of 200 deals two copies of a card")
    pairs = {_kept_kinds(s, a) for a in RULESET.legal_actions(s, 0) if a["type"] == "play"}
    page = check_page(s, 0)
    labels = re.findall(r">Keep now: ([^<]*)</button>", page)
    assert len(labels) == len(set(labels)) == len(pairs) < len([a for a in RULESET.legal_actions(s, 0) if a["type"] == "play"])


def test_draft_keep_two_buttons_say_which_keeps_at_once_and_which_only_marks():
    s = RULESET.new_game(players=2, options={"draft": "quick"}, seed=3)
    assert s["step"] == "keep"
    page = check_page(s, 0)
    assert ">Choose<" not in page
    assert page.count(">Keep now: ") == page.count(">Mark</button>") > 0
    assert "if time runs out, the marked pair is kept" in page


def visible_text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_player_whose_draft_keep_was_locked_for_them_sees_the_pair_and_whom_the_draft_waits_for():
    """Ana left during the quick draft; at the deadline her default pair was locked for her. Back
    on the page, her panel names the pair and the player it waits for, without the
    instructions for buttons it no longer shows."""
    s = RULESET.new_game(players=2, options={"draft": "quick"}, seed=3)
    default = RULESET.to_act(s)[0].default
    s, _ = RULESET.apply(s, 0, default)
    page = check_page(s, 0)
    text = visible_text(page)
    kept = [card_dict(c)["name"] for c in default["keep"]]
    assert f"You keep {kept[0]} and {kept[1]}; the others go to the Arsenal" in text
    assert "If your time ran out while you were away, this is the default chosen for you" in text
    assert "Waiting for Bob to keep their two; then the first turn starts." in text
    assert "Keep two of these" not in text and "Keep now" not in text and "Mark" not in text
    panel = re.search(r'<section class="sbf-panel sbf-draft sbf-draft-locked".*?</section>', page, re.S).group(0)
    assert sorted(CARD.findall(panel)) == sorted(default["keep"])
    bob = visible_text(check_page(s, 1))  # Bob, still choosing, keeps his buttons
    assert "Keep two of these Advanced cards" in bob and "Keep now" in bob and "Waiting for" not in bob


def test_a_player_whose_draft_pick_is_locked_sees_the_card_and_whom_the_draft_waits_for():
    s = RULESET.new_game(players=2, options={}, seed=3)
    card = s["draft"]["packs"][1][0]
    s, _ = RULESET.apply(s, 1, {"type": "play", "card": card})
    text = visible_text(check_page(s, 1))
    assert f"You keep {card_dict(card)['name']}; the others go to Alice" in text
    assert "Waiting for Alice to choose; then the draft goes on." in text
    assert "Keep one of these" not in text and "Keep now" not in text


LABELLED_BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"[^>]*title="([^"]*)"[^>]*>(.*?)</button>')


def labelled_buttons(page: str) -> list[tuple[dict, str, str]]:
    """Each button that sends an action and has a tooltip: (action, tooltip, label)."""
    return [(json.loads(json.loads(html.unescape(vals))["action"]), html.unescape(title), html.unescape(label))
            for vals, title, label in LABELLED_BUTTON.findall(page)]


def test_play_buttons_say_which_plays_at_once_and_which_only_marks():
    s = table(hands=(["c15", "c03"], ["c06", "c04"]))
    page = check_page(s, 0)
    assert ">Choose<" not in page and ">Play Iceball Attack<" not in page
    buttons = labelled_buttons(page)
    play_now = [(a, t, label) for a, t, label in buttons if label.startswith("Play now: ")]
    mark = [(a, t, label) for a, t, label in buttons if label == "Mark"]
    assert len(play_now) == len(mark) == 4  # two cards, two sides each
    assert all(a["type"] == "play" for a, _, _ in play_now) and all(a["type"] == "choose" for a, _, _ in mark)
    for a, title, label in play_now:
        side = label.removeprefix("Play now: ")
        assert title == f"Play {side} right away; you cannot change it afterwards"
    assert all("without deciding yet; press Lock my choice" in t for _, t, _ in mark)
    assert "(if time runs out, the marked side is played)" in page
    s, _ = RULESET.apply(s, 0, {"type": "choose", "card": "c15", "side": "bottom"})
    page = check_page(s, 0)
    marked = [a for a, _, label in labelled_buttons(page) if label == "Marked ✓"]
    assert marked == [{"type": "choose", "card": "c15", "side": "bottom"}]
    assert ">Lock my choice</button>" in page and ">Lock</button>" not in page


def test_each_player_is_called_you_on_its_own_page_only_and_a_whitewashed_hand_is_said_to_be_shown_to_its_viewer():
    state = RULESET.new_game(players=2, options={}, seed=3)
    state["shown"][0] = [1]  # Alice shows her hand to Bob
    said = "Whitewashed: shows you their hand"
    for order in ((None, 0, 1), (1, 0, None)):  # each side drawn for the others first
        for seat in order:
            page = render(state, seat)
            assert page.count('<span class="muted">(you)</span>') == (0 if seat is None else 1), f"seat {seat}"
            if seat is not None:
                assert re.search(rf'{NAMES[seat]} <span class="muted">\(you\)</span>', page), f"seat {seat}"
            assert (said in page) == (seat == 1), f"seat {seat}"
