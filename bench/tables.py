"""The tables a load run seats: a game and how its table is laid out.

``--game-type`` names one of ``SHAPES``: a game's slug alone is its default table in the
benchmark (Snowball Fight: two players, as the reference runs; Snowball Fighting: six
players with every optional rule; What a Snowball!: twelve seats of one Kid in four teams),
and ``snowball-fight-6`` and ``snowball-fight-3v3`` are Snowball Fight at six seats, each
for themselves or three against three. ``MIX`` is the real site: every table at once.
Pure data, no Django: the load generator reads it too.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Shape:
    """A table: ``seats`` players (seat i on team ``i // (seats // teams)`` when ``teams``)."""

    name: str
    slug: str
    seats: int
    teams: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def team_of(self, seat: int) -> int | None:
        return seat // (self.seats // self.teams) if self.teams else None

    def options_for(self, seed: int) -> dict[str, Any]:
        """The options of the game made with ``seed`` (What a Snowball!'s roster of Kids is drawn from it)."""
        if self.slug == "what-a-snowball":
            return what_a_snowball_options(self.seats, random.Random(seed))
        return dict(self.options)


def what_a_snowball_options(seats: int, rng: random.Random) -> dict[str, Any]:
    """One Kid a seat of any type (traits drawn where the type has none fixed), special players
    and ability cards on, the village drawn: as bench.engines plays the game."""
    from games.engines.what_a_snowball import kids as K

    kids = []
    for seat in range(seats):
        kind = rng.choice(list(K.TYPES))
        kid: dict[str, Any] = {"name": f"Kid {seat + 1}", "seat": seat, "type": kind}
        if K.TYPES[kind]["fixed_traits"] is None:
            kid["traits"] = rng.sample(K.TRAITS, K.TYPES[kind]["traits"])
        kids.append(kid)
    return {"village": rng.choice(["green", "high_street", "random"]), "special_players": True,
            "ability_cards": rng.choice(["method1", "method2"]), "kids": kids}


SHAPES: dict[str, Shape] = {shape.name: shape for shape in (
    Shape("snowball-fight", "snowball-fight", 2),
    Shape("snowball-fight-6", "snowball-fight", 6),
    Shape("snowball-fight-3v3", "snowball-fight", 6, teams=2),
    Shape("jingle-bells", "jingle-bells", 2),
    Shape("snowball-fighting", "snowball-fighting", 6, options={"rule12": True, "rule13": True, "rule14": True}),
    Shape("what-a-snowball", "what-a-snowball", 12, teams=4),
)}

MIX: tuple[str, ...] = ("snowball-fight", "snowball-fight-6", "snowball-fight-3v3", "jingle-bells",
                        "snowball-fighting", "what-a-snowball")
"""The real site's tables, every game and shape, dealt to the slots of a ``--mix`` run in turn."""

SPECTATORS = 2
"""Spectators per game, whatever the table."""


def shape(name: str) -> Shape:
    try:
        return SHAPES[name]
    except KeyError:
        raise SystemExit(f"--game-type must be one of {', '.join(SHAPES)}; got {name!r}") from None


def socket_kinds(mode: str, sockets: int) -> list[str]:
    """The kind of each of a game's sockets, players first: all ``json``, all ``page``, or
    (``mix``) the two in turn, so that each kind has players and a spectator."""
    if mode in ("json", "page"):
        return [mode] * sockets
    if mode != "mix":
        raise ValueError(f"socket mode must be json, page or mix, got {mode!r}")
    return ["json" if i % 2 == 0 else "page" for i in range(sockets)]
