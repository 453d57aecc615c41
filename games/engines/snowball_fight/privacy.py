"""A check that a view shows its viewer nothing the rules hide from it.

``find_leaks(state, view, seat)`` lists every problem found (empty when clean):
a card id the viewer may not know the place of, or a secret key such as the
seed. Card ids inside ``last_reveal`` are history (cards shown face-up when
they were played), so they are checked against that reveal instead.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import State, View

SECRET_KEYS = ("seed", "rng_counter", "sealed", "todo", "face_down_ids")


def hidden_cards(state: State, seat: int | None) -> dict[str, str]:
    """Card ids ``seat`` may not see where they are, each with the reason."""
    if "mode" in state:
        return _table_hidden_cards(state, seat)
    hidden: dict[str, str] = {}
    for x in range(state["players"]):
        for cid in state["draw"][x]:
            hidden[cid] = f"in seat {x}'s draw pile"
        if x == seat:
            continue
        if seat is None or seat not in state["shown"][x]:
            for cid in state["hands"][x]:
                hidden[cid] = f"in seat {x}'s hand"
        for cid in state["face_down"][x]:
            hidden[cid] = f"face-down in seat {x}'s discard pile"
        if state["draft"] is not None:
            for cid in state["draft"]["packs"][x] + state["draft"]["kept"][x]:
                hidden[cid] = f"in seat {x}'s draft cards"
    if state["draft"] is not None:
        for cid in state["draft"]["returned"] + state["draft"]["extremes"]:
            hidden[cid] = "set aside for the Arsenal piles"
    battle = state["battle"]
    offered: set[str] = set()
    if battle is not None and battle["todo"] and battle["todo"][0].get("ask") == seat:
        offered = {o.get("card") for o in battle["todo"][0].get("options", [])}
    for i, pile in enumerate(state["arsenal"]):
        closed = battle is not None and i in battle["closed"]
        for cid in pile if closed else pile[:-1]:
            if cid not in offered:
                hidden[cid] = f"face-down in Arsenal pile {i}"
    return hidden


def find_leaks(state: State, view: View, seat: int | None) -> list[str]:
    """Everything in ``view`` that ``seat`` should not see; empty when the view is clean."""
    hidden = hidden_cards(state, seat)
    problems: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in SECRET_KEYS:
                    problems.append(f"{path}.{key}: secret key in view")
                if path == "$" and key == "last_reveal":
                    continue
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")
        elif isinstance(value, str) and value in hidden:
            problems.append(f"{path}: {value} is {hidden[value]}")

    walk(view, "$")
    problems += _reveal_leaks(state, view.get("last_reveal"))
    return problems


def _reveal_leaks(state: State, reveal: dict[str, Any] | None) -> list[str]:
    """The reveal may name only the cards that were played in it."""
    if reveal is None:
        return []
    source = state["battle"] or state["last_reveal"]
    if "played" in source:
        played = _table_played(state)
        shown = {p["card"]["id"] for seat_plays in reveal["plays"] for p in seat_plays}
        shown |= {p["card"]["id"] for b in reveal["battles"] for seat_plays in b["plays"] for p in seat_plays}
        return [f"last_reveal names {cid}, which was not played in that reveal"
                for cid in sorted(shown - played)]
    played = {p["card"] for seat_plays in source["plays"] for p in seat_plays}
    shown = {p["card"]["id"] for seat_plays in reveal["plays"] for p in seat_plays}
    return [f"last_reveal names {cid}, which was not played in that reveal"
            for cid in sorted(shown - played)]


def _table_played(state: State) -> set[str]:
    """Every card shown in the reveal being resolved or the last one (3+ players and teams)."""
    battle = state["battle"]
    source = battle or state["last_reveal"]
    played = {pick["card"] for picks in source["played"] for pick in picks.values()}
    for entry in source["battles"] if battle is None else battle["done"]:
        played |= {p["card"] for seat_plays in entry["plays"] for p in seat_plays}
    if battle is not None:
        played |= {p["card"] for seat_plays in battle["plays"] for p in seat_plays}
    return played


def _table_hidden_cards(state: State, seat: int | None) -> dict[str, str]:
    """What a viewer of a 3+ player or team game may not see."""
    hidden: dict[str, str] = {}
    teams = state.get("teams")

    def team_mate(x: int) -> bool:
        return seat is not None and teams is not None and teams[seat] == teams[x]

    for cid in state["set_aside"]:
        hidden[cid] = "set aside, out of the game"
    for x in range(state["players"]):
        for cid in state["draw"][x]:
            hidden[cid] = f"in seat {x}'s draw pile"
        if x == seat:
            continue
        if (seat is None or seat not in state["shown"][x]) and not team_mate(x):
            for cid in state["hands"][x]:
                if cid != state["no_effect"][x]:
                    hidden[cid] = f"in seat {x}'s hand"
        if teams is None:
            for cid in state["face_down"][x]:
                hidden[cid] = f"face-down in seat {x}'s discard pile"
        if state["draft"] is not None:
            for cid in state["draft"]["packs"][x] + state["draft"]["kept"][x]:
                hidden[cid] = f"in seat {x}'s draft cards"
    if teams is not None:
        for team in (0, 1):
            for cid in state["team_draw"][team]:
                hidden[cid] = f"in team {team}'s draw deck"
            if seat is not None and teams[seat] == team:
                continue
            for cid in state["face_down"][team]:
                hidden[cid] = f"face-down in team {team}'s discard pile"
            if state["pool"][team] is not None:
                for cid in state["pool"][team]["cards"]:
                    hidden[cid] = f"in team {team}'s leader's undistributed draw"
    if state["draft"] is not None:
        for cid in state["draft"]["returned"] + state["draft"]["extremes"]:
            hidden[cid] = "set aside for the Arsenal piles"
    battle = state["battle"]
    offered: set[str] = set()
    if battle is not None and battle["todo"] and battle["todo"][0].get("ask") == seat:
        offered = {o.get("card") for o in battle["todo"][0].get("options", [])}
    for i, pile in enumerate(state["arsenal"]):
        closed = battle is not None and i in battle["closed"]
        for cid in pile if closed else pile[:-1]:
            if cid not in offered:
                hidden[cid] = f"face-down in Arsenal pile {i}"
    return hidden
