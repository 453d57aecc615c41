"""Helpers for the Snowball Fight tests: stack a table, play a reveal, answer prompts.

Card ids used throughout (see games/engines/snowball_fight/cards.py):
c01 c02 Snowball Attack / Dodge      c03 c04 Dodge / Restock     c05 c06 Snowball Attack / Upgrade
c07 Slushball / Dodge   c08 c09 Slushball / Upgrade   c10 c11 Sneak Attack / Dodge
c12 Sneak Attack / Upgrade   c13 c14 Dodge / Upgrade
c15 Iceball / Snow Fort   c16 Offensive Dodge / Ultra Upgrade   c17 Barrage / Snatch and Run
c18 Throwing Rocks / Whitewash   c19 Upgrade Dodge / Dud   c20 Weapons Cache / Backfire
c21 Raid / Refined Upgrade
"""
from __future__ import annotations

import random
from typing import Any

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E

STANDARD = [f"c{i:02d}" for i in range(1, 19)]


def table(*, hands: tuple[list[str], list[str]], draw: tuple[list[str], list[str]] | None = None,
          discard: tuple[list[str], list[str]] | None = None,
          arsenal: tuple[list[str], list[str]] | None = None, abandoned: list[str] = (),
          cache: tuple[list[str], list[str]] = ([], []), face_down: tuple[list[str], list[str]] = ([], []),
          final_round: bool = False, turn: int = 3, seed: int = 7,
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A two-player state in the card-choice step with the given piles (top of a pile = last).

    Piles left as None are filled from the unused standard cards: two per Arsenal pile first,
    then the draw piles alternately, so the next turn can always be drawn.
    """
    s = E.new_game(players=2, options=options or {}, seed=seed)
    given = {
        "hands": [list(h) for h in hands],
        "draw": [list(p) for p in draw] if draw is not None else None,
        "discard": [list(p) for p in discard] if discard is not None else [[], []],
        "arsenal": [list(p) for p in arsenal] if arsenal is not None else None,
        "cache": [list(p) for p in cache],
        "face_down": [list(p) for p in face_down],
        "abandoned": list(abandoned),
    }
    used = {c for key, piles in given.items() if piles is not None
            for c in (piles if key == "abandoned" else [c for p in piles for c in p])}
    spare = [c for c in STANDARD if c not in used]
    if given["arsenal"] is None:
        given["arsenal"] = [spare[0:2], spare[2:4]]
        spare = spare[4:]
    if given["draw"] is None:
        given["draw"] = [spare[0::2], spare[1::2]]
    s.update(given)
    s.update(phase="play", step="choose", turn=turn, draft=None, final_round=final_round)
    return s


def reveal(s: dict[str, Any], play0: tuple[str, str], play1: tuple[str, str]):
    """Both seats play (card, side); returns the new state and all events."""
    s, events0 = RULESET.apply(s, 0, {"type": "play", "card": play0[0], "side": play0[1]})
    s, events1 = RULESET.apply(s, 1, {"type": "play", "card": play1[0], "side": play1[1]})
    return s, events0 + events1


def answer(s: dict[str, Any], seat: int, **action: Any):
    return RULESET.apply(s, seat, action)


def asked(s: dict[str, Any]) -> tuple[int, str] | None:
    """(seat, what) of the pending effect prompt, or None when no effect prompt is pending."""
    if s["step"] != "resolve":
        return None
    task = s["battle"]["todo"][0]
    return task["ask"], task["what"]


def texts(events: list[dict[str, Any]]) -> str:
    """All public event texts, one per line, for readable assertions."""
    return "\n".join(e["text"] for e in events if "visible_to" not in e)


def all_cards(s: dict[str, Any]) -> list[str]:
    """Every card id the state holds anywhere (each card must appear exactly once)."""
    ids: list[str] = []
    for key in ("hands", "draw", "discard", "cache", "arsenal"):
        for pile in s[key]:
            ids += pile
    ids += s["abandoned"] + s.get("set_aside", [])
    if s["draft"] is not None:
        d = s["draft"]
        ids += [c for p in d["packs"] for c in p] + [c for k in d["kept"] for c in k]
        ids += d["returned"] + d["extremes"]
    return ids


def random_game(seed: int, *, options: dict[str, Any] | None = None, choose_rate: float = 0.2,
                on_step=None) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """Play a whole game with random legal actions; returns the final state and the action log."""
    rng = random.Random(seed)
    s = RULESET.new_game(players=2, options=options or {}, seed=seed)
    log = []
    while RULESET.outcome(s) is None:
        seat = rng.choice(sorted(RULESET.to_act(s)))
        actions = RULESET.legal_actions(s, seat)
        final = [a for a in actions if a["type"] != "choose"]
        action = rng.choice(actions if rng.random() < choose_rate or not final else final)
        if on_step is not None:
            on_step(s, seat, action)
        s, _ = RULESET.apply(s, seat, action)
        log.append((seat, action))
    return s, log


def points(cards: list[str]) -> int:
    return sum(C.points_of(c) for c in cards)


def test_table_holds_every_standard_card_once():
    s = table(hands=(["c01", "c03"], ["c02", "c04"]))
    assert sorted(all_cards(s)) == STANDARD
    assert [len(p) for p in s["arsenal"]] == [2, 2]
