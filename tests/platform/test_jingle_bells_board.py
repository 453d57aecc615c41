"""The Jingle Bells board renders every moment of whole games, for both players and a spectator.

Every button sends a legal action (or, for the few actions the page writes out itself, one the
engine accepts); every discrete legal action has its button and every region (setup, moves,
the re-roll, the allocation, coming back) its control; no name placeholder is left; a sealed
allocation never reaches anyone else's page before the reveal.
"""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.template.loader import render_to_string

from games.engines.base import GameError
from games.engines.jingle_bells import RULESET as R
from games.engines.jingle_bells.bot import random_action

NAMES = ["Alice", "Bob"]
WS_BUTTON = re.compile(r'<button[^>]*ws-send[^>]*hx-vals="([^"]*)"')
JB_SEND = re.compile(r"data-jb-send='([^']*)'")
JSON_BLOCK = re.compile(r'<script id="(jb-[a-z]+)" type="application/json">(.*?)</script>', re.S)

# what a page must offer for each kind of legal action
CONTROL = {
    "deploy": "data-jb-deploy-send", "reroll": "data-jb-reroll", "allocate": "data-jb-lock",
}


def render(state, seat):
    to_act = R.to_act(state)
    prompt = to_act[seat].as_dict() if seat in to_act else None
    if prompt:
        prompt["deadline"] = 2_000_000_000
    outcome = R.outcome(state)
    if outcome:
        outcome = {**outcome, "reason": outcome["reason"].replace("{p0}", NAMES[0]).replace("{p1}", NAMES[1])}
    return render_to_string("games/jingle-bells/board.html", {
        "view": R.view(state, seat),
        "seat": seat,
        "legal": R.legal_actions(state, seat) if seat in to_act else [],
        "prompt": prompt,
        "names": NAMES,
        "version": 7,
        "payload": {"outcome": outcome},
    })


def check_page(state, seat) -> str:
    page = render(state, seat)
    assert "{p" not in page, "a name placeholder was not filled in"
    asked = seat in R.to_act(state)
    legal = R.legal_actions(state, seat) if seat is not None else []
    sent = [json.loads(json.loads(html.unescape(vals))["action"]) for vals in WS_BUTTON.findall(page)]
    for action in sent:
        assert action in legal, f"a button sends {action}, which is not legal"
    for raw in JB_SEND.findall(page):
        action = json.loads(html.unescape(raw))
        try:
            R.apply(state, seat, action)
        except GameError as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"the page offers {action}, which the engine refuses: {exc}") from exc
    if asked:
        for index, action in enumerate(legal):
            kind = action["type"]
            if kind in CONTROL:
                assert CONTROL[kind] in page, f"no control for {kind}"
            elif kind == "move":
                assert f'data-jb-move="{index}"' in page, f"no button for move {index}"
            elif kind == "return":
                assert f'data-jb-return="{index}"' in page
            elif kind in ("lock",):
                continue
            else:
                assert action in sent, f"no button for the legal {action}"
    elif seat is not None and state["phase"] != "over":
        assert sent == [{"type": "set_auto_dodge", "on": not state["auto_dodge"][seat]}]
    else:
        assert sent == []
    blocks = {name: json.loads(body) for name, body in JSON_BLOCK.findall(page)}
    assert blocks["jb-legal"] == (legal if asked else [])
    # sealed dice: another seat's allocation is nowhere on this page before the reveal
    if state["phase"] == "dice":
        assert all(not p["dice"] for p in blocks["jb-pieces"].values())
        own = state["dice"][seat] if seat is not None else None
        shown = len(own["allocation"]) if own and own["stage"] == "locked" else 0
        assert page.count('class="jb-alloc-chip"') == shown, "an allocation that is not the viewer's own"
    return page


def play(seed: int, layout: str, chooser: str):
    """Every state of one whole game, with the seat that acted."""
    rng = random.Random(seed)
    s = R.new_game(players=2, options={"layout": layout}, seed=seed)
    for _ in range(3000):
        yield s
        if R.outcome(s) is not None:
            return
        seat = rng.choice(sorted(R.to_act(s)))
        if chooser == "bot":
            action = R.bot_action(s, seat)
        else:
            action = random_action(R.legal_actions(s, seat), s["pieces"], s["obstructions"], rng, forward=0.9)
        s, _ = R.apply(s, seat, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed,layout,chooser", [(3, "garden", "bot"), (17, "random", "random"), (29, "street", "random")])
def test_board_renders_every_moment_of_a_game(seed, layout, chooser):
    kinds: set[str] = set()
    for s in play(seed, layout, chooser):
        for viewer in (0, 1, None):
            check_page(s, viewer)
        kinds.update(f"{s['phase']}:{p.kind}" for p in R.to_act(s).values())
    assert {"draft:turn", "deploy:turn", "dice:turn", "actions:turn"} <= kinds


def test_what_each_die_does_is_on_the_page():
    s = next(s for s in play(3, "garden", "bot") if s["phase"] == "actions" and R.to_act(s).get(s["to_move"]))
    seat = s["to_move"]
    page = check_page(s, seat)
    for name in s["teams"][seat]:
        piece = s["pieces"][name]
        if piece["pos"] is None or not piece["dice"]:
            continue
        assert f'data-char="{name}"' in page
        for value in piece["dice"]:
            assert f'aria-label="{value}"><use href="#jb-d{value}"/>' in page
    # the side that acts first is told in the present while the phase is under way
    assert re.search(r"Action phase: [^<]* acts first \(", page) and "acted first" not in page
    # every card's face table, for everyone, with words
    spectator = check_page(s, None)
    assert spectator.count('class="jb-strip"') == 6
    for word in ("Move", "Throw", "Dodge"):
        assert word in spectator


def test_draft_shows_six_cards_and_only_the_picker_gets_buttons():
    s = R.new_game(players=2, options={}, seed=5)
    picker = next(iter(R.to_act(s)))
    mine, theirs, watcher = check_page(s, picker), check_page(s, 1 - picker), check_page(s, None)
    for page in (mine, theirs, watcher):
        assert page.count('<article class="jb-card') == 6
        assert "runs away at 2" in page and "Action:" in page
    assert mine.count('class="jb-pick"') == 6
    assert theirs.count('class="jb-pick"') == 0 and watcher.count('class="jb-pick"') == 0


def test_a_reaction_is_asked_with_its_choices_and_the_hit_explained():
    games = (play(seed, "garden", "bot") for seed in (3, 4, 5, 6))
    for s in (state for game in games for state in game):
        asked = R.to_act(s)
        seat = next((k for k, p in asked.items() if p.kind == "reaction"), None)
        if seat is None:
            continue
        page = check_page(s, seat)
        assert 'class="jb-panel jb-reaction"' in page and "Take the hit" in page
        assert 'data-deadline="2000000000"' in page
        attacker = check_page(s, 1 - seat)
        assert "jb-reaction" not in attacker and "throws at" in attacker
        return
    pytest.fail("no reaction in these games")


def test_each_side_is_marked_as_the_viewers_own_on_that_viewers_page_only_whoever_drew_it_first():
    state = next(s for i, s in enumerate(play(3, "garden", "bot")) if i == 30)  # both rosters drawn
    mine = re.compile(r'<section class="jb-team jb-s(\d) is-mine"')
    for order in ((None, 0, 1), (1, 0, None)):
        for seat in order:
            page = render(state, seat)
            assert mine.findall(page) == ([] if seat is None else [str(seat)]), f"seat {seat}"
            assert page.count('<span class="muted">(you)</span>') == (0 if seat is None else 1)


def _turn_limit_state(cold: tuple[int, int], turn: int) -> dict:
    """Both sides pass the actions of ``turn`` away, the snowmen carrying ``cold`` (seat 0's, seat 1's)."""
    from tests.engines.test_jingle_bells_engine import battle

    s = battle({"Paul": [1], "Bianca": [1]})
    s["turn"] = turn
    for seat in (0, 1):
        s["pieces"][f"snowman{seat}"]["cold"] = cold[seat]
    s, _ = R.apply(s, 0, {"type": "pass"})
    s, _ = R.apply(s, 1, {"type": "pass"})
    return s


def test_the_board_says_when_a_turn_is_the_last():
    from games.engines.jingle_bells.engine import MAX_TURNS

    before = _turn_limit_state((0, 0), MAX_TURNS - 2)  # now at the dice of turn MAX_TURNS - 1
    last = _turn_limit_state((0, 0), MAX_TURNS - 1)
    assert (before["turn"], last["turn"]) == (MAX_TURNS - 1, MAX_TURNS)
    for seat in (0, 1, None):
        assert f"Turn {MAX_TURNS - 1}</span>" in check_page(before, seat)
        assert f"Turn {MAX_TURNS}, the last</span>" in check_page(last, seat)
        assert f"If no head is off when turn {MAX_TURNS} ends" in check_page(last, seat)


@pytest.mark.parametrize("cold,heading", [((1, 2), "Alice wins"), ((2, 0), "Bob wins"), ((1, 1), "A draw")])
def test_a_game_ended_by_the_turn_limit_shows_its_result_to_everyone(cold, heading):
    from games.engines.jingle_bells.engine import MAX_TURNS

    s = _turn_limit_state(cold, MAX_TURNS)
    assert R.outcome(s)["code"] == "turn_limit"
    for seat in (0, 1, None):
        page = check_page(s, seat)
        assert '<span class="jb-phase">Game over</span>' in page
        over = page[page.index('class="jb-panel jb-over"'):]
        over = over[:over.index("</section>")]
        assert f"<h3>{heading}</h3>" in over and "</h3>" not in over.replace(f"<h3>{heading}</h3>", "")
        assert f"Turn {MAX_TURNS} was the last" in over and ("a draw." in over) == (cold[0] == cold[1])
        assert f'the end of turn {MAX_TURNS}: the game ended by the house ruling <a href="/rules/jingle-bells/#turn-limit"' in over
        assert f"Alice {cold[1]}, Bob {cold[0]}." in over
        assert "ws-send" not in page
