"""What a Snowball Fight seat may know, written from the rule book, to check what it is sent.

The rule book (seeds/003) and RULINGS R9: a player knows its own hand and the cards it put
face-down in its own discard pile; everyone sees the cards played (they go face-up onto the
discard piles), the face-up top card of each Arsenal pile, the Abandoned cards and the No
Effect cards set beside each player. Draw piles are hidden from everyone, their owner
included; of the others' hands and piles only the counts are public, and a sealed choice is
known only as "has chosen". The engine's README adds the rest: a Weapons Cache is face-up;
Whitewash shows the hit player's next hand to the thrower; Refined Upgrade shows its player
the top two cards of each pile it may take from; in team play, team-mates see each other's
hands, the team's face-down discards and the leader's undealt draw; in the draft a seat sees
its own pack and the cards it kept.

Everything else is hidden: cards of an Arsenal pile below its top (and a new top until it is
flipped, after the turn's upgrades), cards set aside, the other seats' draft cards.

``hidden_cards(state, seat)`` lists every card id ``seat`` (``None``: a spectator) may not know
the place of; ``find_leaks(state, view, seat)`` lists each problem in a view (empty when clean).
"""
from __future__ import annotations

from typing import Any

# The rule book's cards: 18 in a deck, 3 alternate Extremes, 2 No Effect; ids c01-c23, with a
# "b" or "c" suffix for the second and third deck (engine README, "Cards and ids").
ALL_CARDS = frozenset(f"c{n:02d}{deck}" for n in range(1, 24) for deck in ("", "b", "c"))
SECRET_KEYS = ("seed", "rng_counter", "sealed", "todo", "face_down_ids")


def known_cards(state: dict[str, Any], seat: int | None) -> set[str]:
    """The card ids whose place ``seat`` may know."""
    known = _public_cards(state)
    if seat is None:
        return known
    teams = state.get("teams")
    mates = [x for x in range(state["players"]) if teams is not None and teams[x] == teams[seat]]
    for x in {seat, *mates}:
        known |= set(state["hands"][x])
    for x, watchers in enumerate(state["shown"]):
        if seat in watchers:  # Whitewash
            known |= set(state["hands"][x])
    own_pile = teams[seat] if teams is not None else seat
    known |= set(state["face_down"][own_pile])
    if teams is not None and state["pool"][teams[seat]] is not None:
        known |= set(state["pool"][teams[seat]]["cards"])
    if state["draft"] is not None:
        known |= set(state["draft"]["packs"][seat]) | set(state["draft"]["kept"][seat])
    known |= _refined_upgrade_offer(state, seat)
    return known


def hidden_cards(state: dict[str, Any], seat: int | None) -> dict[str, str]:
    """Every card id of the game ``seat`` may not know the place of, with where it is."""
    in_game: set[str] = set()
    walk_ids(state, in_game)
    where = _places(state)
    return {cid: where.get(cid, "somewhere hidden") for cid in in_game - known_cards(state, seat)}


def find_leaks(state: dict[str, Any], view: dict[str, Any], seat: int | None) -> list[str]:
    """Everything in ``view`` that ``seat`` may not be shown; empty when the view is clean.

    ``last_reveal`` is the history of the last reveal: it may name exactly the cards played
    face-up in it, wherever they are now.
    """
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
    reveal = view.get("last_reveal")
    if reveal is not None:
        named: set[str] = set()
        walk_ids(reveal, named)
        played = played_cards(state)
        problems += [f"last_reveal names {cid}, which was not played in it" for cid in sorted(named - played)]
    return problems


def strings_in(value: Any):
    """Every string in a JSON value (a view, a frame, an event), at any depth."""
    if isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, str):
        yield value


def walk_ids(value: Any, into: set[str]) -> None:
    """Collect every card id in ``value``."""
    into.update(text for text in strings_in(value) if text in ALL_CARDS)


def played_cards(state: dict[str, Any]) -> set[str]:
    """The cards played face-up in the reveal being resolved, else in the last one."""
    source = state["battle"] or state["last_reveal"]
    if source is None:
        return set()
    played: set[str] = set()
    if "played" in source:  # 3+ players and teams: each seat's picks, then each battle's plays
        played |= {pick["card"] for picks in source["played"] for pick in picks.values()}
        for entry in source.get("battles", []) + source.get("done", []):
            if isinstance(entry, dict):  # a resolved battle (a resolving one lists seat pairs)
                played |= {p["card"] for seat_plays in entry["plays"] for p in seat_plays}
    played |= {p["card"] for seat_plays in source.get("plays", []) for p in seat_plays}
    return played


def _public_cards(state: dict[str, Any]) -> set[str]:
    public = set(state["abandoned"]) | set(state.get("no_effect", []))
    for pile, face_down in zip(state["discard"], state["face_down"]):
        public |= set(pile) - set(face_down)
    for cache in state["cache"]:
        public |= set(cache)
    for i, pile in enumerate(state["arsenal"]):
        if pile and not _waiting_to_flip(state, i):
            public.add(pile[-1])
    return public


def _waiting_to_flip(state: dict[str, Any], pile: int) -> bool:
    """The pile's top was taken this turn: the next card is flipped only after all upgrades."""
    return state["battle"] is not None and pile in state["battle"]["closed"]


def _refined_upgrade_offer(state: dict[str, Any], seat: int) -> set[str]:
    """Refined Upgrade: its player sees the top two cards of the piles it is offered."""
    battle = state["battle"]
    if battle is None or not battle["todo"]:
        return set()
    task = battle["todo"][0]
    if task.get("ask") != seat or task.get("ability") != "refined_upgrade":
        return set()
    return {option["card"] for option in task.get("options", [])}


def _places(state: dict[str, Any]) -> dict[str, str]:
    """Where each card in the game is, in words (for the problem messages)."""
    where: dict[str, str] = {}
    for x in range(state["players"]):
        for cid in state["draw"][x]:
            where[cid] = f"in seat {x}'s draw pile"
        for cid in state["hands"][x]:
            where[cid] = f"in seat {x}'s hand"
    for x, (pile, face_down) in enumerate(zip(state["discard"], state["face_down"])):
        for cid in pile:
            where[cid] = f"{'face-down' if cid in face_down else 'face-up'} in discard pile {x}"
    for i, pile in enumerate(state["arsenal"]):
        for cid in pile:
            where[cid] = f"in Arsenal pile {i}"
    for cid in state.get("set_aside", []):
        where[cid] = "set aside"
    for team, pile in enumerate(state.get("team_draw", [])):
        for cid in pile:
            where[cid] = f"in team {team}'s draw deck"
    for team, pool in enumerate(state.get("pool", [])):
        for cid in (pool or {}).get("cards", []):
            where[cid] = f"in team {team}'s leader's undealt draw"
    if state["draft"] is not None:
        for x, cards in enumerate(state["draft"]["packs"]):
            for cid in cards + state["draft"]["kept"][x]:
                where[cid] = f"in seat {x}'s draft cards"
        for cid in state["draft"]["returned"] + state["draft"]["extremes"]:
            where[cid] = "set aside for the Arsenal piles"
    return where
