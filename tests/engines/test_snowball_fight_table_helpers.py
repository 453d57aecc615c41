"""Helpers for the Snowball Fight tests of 3-6 player and team tables.

Ring tables (3+ players): seat i's left neighbour is seat i+1, so the card seat i plays
"left" meets the card seat i+1 plays "right". Team tables: seat i battles its opponent.
Card ids: see test_snowball_fight_helpers (deck 2 and 3 copies end in "b" and "c").
"""
from __future__ import annotations

import random
from typing import Any

from games.engines.snowball_fight import RULESET
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E

ALL_IDS = sorted(C.DECK)


def ring_table(players: int, *, hands: list[list[str]], draw: list[list[str]] | None = None,
               discard: list[list[str]] | None = None, arsenal: list[list[str]] | None = None,
               abandoned: list[str] = (), turn: int = 1, seed: int = 5,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ring state in the card-choice step with the given piles (top of a pile = last).

    Unset draw piles get three spare Basic cards each and unset Arsenal piles two spare
    Advanced cards each, so the next turn can be drawn and the game goes on.
    """
    s = E.new_game(players=players, options=options or {}, seed=seed)
    used = {c for pile in hands + (draw or []) + (discard or []) + (arsenal or []) for c in pile}
    used |= set(abandoned) | set(s["no_effect"])
    spare_basic = [c for c in ALL_IDS if C.kind_of(c).level == "basic" and c not in used]
    spare_adv = [c for c in ALL_IDS if C.kind_of(c).level == "advanced" and c not in used]
    if draw is None:
        draw = [spare_basic[3 * i:3 * i + 3] for i in range(players)]
    if arsenal is None:
        arsenal = [spare_adv[2 * i:2 * i + 2] for i in range(players)]
    s.update(hands=[list(h) for h in hands], draw=[list(p) for p in draw],
             discard=[list(p) for p in discard] if discard else [[] for _ in range(players)],
             face_down=[[] for _ in range(players)], arsenal=[list(p) for p in arsenal],
             abandoned=list(abandoned), phase="play", step="choose", turn=turn, draft=None)
    return s


def play_all(s: dict[str, Any], plays: dict[int, tuple[tuple[str, str], tuple[str, str]]]):
    """Every listed seat plays ((left card, side), (right card, side)); returns state and events."""
    events = []
    for seat, (left, right) in plays.items():
        s, more = RULESET.apply(s, seat, {"type": "play", "left": {"card": left[0], "side": left[1]},
                                          "right": {"card": right[0], "side": right[1]}})
        events += more
    return s, events


def finish_prompts(s: dict[str, Any]):
    """Answer every pending effect prompt with its default."""
    events = []
    while s["step"] == "resolve":
        seat = s["battle"]["todo"][0]["ask"]
        s, more = RULESET.apply(s, seat, RULESET.to_act(s)[seat].default)
        events += more
    return s, events


def public_text(events: list[dict[str, Any]]) -> str:
    return "\n".join(e["text"] for e in events if "visible_to" not in e)


def game_cards(s: dict[str, Any]) -> list[str]:
    """Every card id the state holds anywhere, No Effect cards included once each."""
    ids: list[str] = list(s["set_aside"]) + list(s["abandoned"])
    for key in ("hands", "draw", "discard", "cache", "arsenal"):
        for pile in s[key]:
            ids += pile
    if s["mode"] == "teams":
        ids += [c for pile in s["team_draw"] for c in pile]
        ids += [c for pool in s["pool"] if pool for c in pool["cards"]]
    if s["draft"] is not None:
        d = s["draft"]
        ids += [c for p in d["packs"] for c in p] + [c for k in d["kept"] for c in k]
        ids += d["returned"] + d["extremes"]
    in_hand = {c for h in s["hands"] for c in h}
    ids += [c for c in s["no_effect"] if c not in in_hand]
    return ids


# The rule book's deck (Components): 6 Basic c01-c06, 8 Advanced c07-c14, 4 Extreme c15-c18
# (Iceball, Offensive Dodge, Barrage, Throwing Rocks), 2 No Effect c22-c23; the alternate
# Extremes c19-c21 replace standard ones as the options say (ids: the engine README).
BOOK_DECK = [f"c{n:02d}" for n in range(1, 19)] + ["c22", "c23"]
STANDARD_IDS = {"iceball": "c15", "offensive-dodge": "c16", "barrage": "c17", "throwing-rocks": "c18"}
ALTERNATE_IDS = {"upgrade-dodge": "c19", "weapons-cache": "c20", "raid": "c21"}
DECKS_FOR = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # "In a 3 or 4 player game, use two decks. In a 5 or 6 ..., three"


# The rule book's card points ("Basic Cards (1pt)", "Advanced Cards (2pts)", "Extreme Cards
# (3pts)", the alternate Extreme cards among them), by the names it lists; No Effect cards are
# set aside, never scored.
BOOK_POINTS = {
    **dict.fromkeys(("Snowball Attack / Dodge", "Dodge / Restock", "Snowball Attack / Upgrade"), 1),
    **dict.fromkeys(("Slushball Attack / Dodge", "Slushball Attack / Upgrade", "Sneak Attack / Dodge",
                     "Sneak Attack / Upgrade", "Dodge / Upgrade"), 2),
    **dict.fromkeys(("Iceball Attack / Snow Fort", "Offensive Dodge / Ultra Upgrade", "Barrage / Snatch and Run",
                     "Throwing Rocks / Whitewash", "Upgrade Dodge / Dud", "Weapons Cache / Backfire",
                     "Raid / Refined Upgrade"), 3),
}


def book_points(card: str) -> int:
    return 0 if C.is_no_effect(card) else BOOK_POINTS[C.card_name(card)]


def book_scores(s: dict[str, Any]) -> list[int]:
    """Each seat's score as the rule book counts it at the end: the points of the cards in its
    draw and discard piles; in team play its team's, over the team's discard pile, its common
    draw deck and every member's own draw pile. Weapons Cache cards are in neither."""
    n = s["players"]
    if s["mode"] != "teams":
        return [sum(book_points(c) for c in s["draw"][x] + s["discard"][x]) for x in range(n)]
    totals = [sum(book_points(c) for c in s["discard"][t] + s["team_draw"][t]
                  + [c for x in range(n) if s["teams"][x] == t for c in s["draw"][x]]) for t in (0, 1)]
    return [totals[s["teams"][x]] for x in range(n)]


def deck_cards(players: int, options: dict[str, Any] | None = None) -> list[str]:
    """Every card of the decks a table of ``players`` uses (alternates as the options say)."""
    deck = list(BOOK_DECK)
    for swap in (options or {}).get("alternates", []):
        alternate, standard = swap.split(":")
        deck[deck.index(STANDARD_IDS[standard])] = ALTERNATE_IDS[alternate]
    return sorted(card + suffix for suffix in ("", "b", "c")[:DECKS_FOR[players]] for card in deck)


def random_table_game(seed: int, *, players: int, teams: list[int] | None = None,
                      options: dict[str, Any] | None = None, choose_rate: float = 0.15,
                      on_step=None):
    """A whole game with random legal actions; returns the final state and the action log."""
    rng = random.Random(seed)
    s = RULESET.new_game(players=players, options=options or {}, seed=seed,
                         **({"teams": teams} if teams is not None else {}))
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


def test_ring_table_builds_a_playable_state():
    s = ring_table(3, hands=[["c01", "c03"], ["c02", "c04"], ["c01b", "c03b"]])
    assert RULESET.to_act(s).keys() == {0, 1, 2}
    assert all(len(p) == 3 for p in s["draw"]) and all(len(p) == 2 for p in s["arsenal"])


def test_deck_cards_counts_the_decks_of_the_table():
    assert len(deck_cards(3)) == len(deck_cards(4)) == 2 * 20
    assert len(deck_cards(5)) == len(deck_cards(6)) == 3 * 20


def team_table(teams: list[int], *, hands: list[list[str]], draw: list[list[str]] | None = None,
               discard: list[list[str]] | None = None, team_draw: list[list[str]] | None = None,
               common: list[bool] = (False, False), arsenal: list[list[str]] | None = None,
               turn: int = 1, seed: int = 5, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A team state in the card-choice step (one card each against the opponent across).

    Unset personal draw piles get two spare Basic cards each, unset Arsenal piles two spare
    Advanced cards each.
    """
    players = len(teams)
    s = E.new_game(players=players, options=options or {}, seed=seed, teams=teams)
    used = {c for pile in hands + (draw or []) + (discard or []) + (team_draw or []) + (arsenal or [])
            for c in pile} | set(s["no_effect"])
    spare_basic = [c for c in ALL_IDS if C.kind_of(c).level == "basic" and c not in used]
    spare_adv = [c for c in ALL_IDS if C.kind_of(c).level == "advanced" and c not in used]
    if draw is None:
        draw = [spare_basic[2 * i:2 * i + 2] for i in range(players)]
    if arsenal is None:
        arsenal = [spare_adv[2 * i:2 * i + 2] for i in range(players)]
    s.update(hands=[list(h) for h in hands], draw=[list(p) for p in draw],
             discard=[list(p) for p in discard] if discard else [[], []], face_down=[[], []],
             team_draw=[list(p) for p in team_draw] if team_draw else [[], []], common=list(common),
             arsenal=[list(p) for p in arsenal], phase="play", step="choose", turn=turn, draft=None)
    return s


def play_each(s: dict[str, Any], plays: dict[int, tuple[str, str]]):
    """Team play: every listed seat plays (card, side) at its opponent."""
    events = []
    for seat, (card, side) in plays.items():
        s, more = RULESET.apply(s, seat, {"type": "play", "card": card, "side": side})
        events += more
    return s, events


def test_the_rule_books_points_name_every_card_of_the_game():
    assert {book_points(c) for c in ALL_IDS} == {0, 1, 2, 3}
    assert book_points("c01") == 1 and book_points(E.extremes_in_play({"alternates": []})[0]) == 3
