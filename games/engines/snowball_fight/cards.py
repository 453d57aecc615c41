"""Every card of Snowball Fight: its two sides, its level and its points.

A physical card has a stable id ("c01".."c23"; "c01b".."c23c" for the second and
third deck of larger tables) used in actions and views; the
id maps to a card *kind* (e.g. "iceball" = Iceball Attack / Snow Fort), and
the kind gives both sides. "top" is the side the rule book lists first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ATTACK = "attack"
DEFENCE = "defence"

LEVEL_POINTS = {"basic": 1, "advanced": 2, "extreme": 3, "none": 0}
LEVEL_RANK = {"none": 0, "basic": 1, "advanced": 2, "extreme": 3}


@dataclass(frozen=True)
class Side:
    """One half of a card: what happens when it is played facing the opponent."""

    ability: str
    title: str
    type: str
    text: str
    dodges: bool = False
    dodgeable: bool = True

    @property
    def is_attack(self) -> bool:
        return self.type == ATTACK


@dataclass(frozen=True)
class Kind:
    """A card design; several physical cards can share one kind."""

    key: str
    level: str
    top: Side
    bottom: Side

    @property
    def name(self) -> str:
        return f"{self.top.title} / {self.bottom.title}"

    @property
    def points(self) -> int:
        return LEVEL_POINTS[self.level]

    def side(self, which: str) -> Side:
        return self.top if which == "top" else self.bottom


def _side(ability: str, title: str, type_: str, text: str, **flags: bool) -> Side:
    return Side(ability=ability, title=title, type=type_, text=text, **flags)


SIDES: dict[str, Side] = {s.ability: s for s in (
    _side("snowball", "Snowball Attack", ATTACK,
          "Hit: your opponent may only draw one card on their next turn."),
    _side("dodge", "Dodge", DEFENCE,
          "Avoid being hit by an attack. If you dodge an attack you may take the action "
          "on the other side of this card.", dodges=True),
    _side("upgrade", "Upgrade", DEFENCE,
          "If you were not hit, take the face-up card from one of the Arsenal piles. "
          "Flip the next card of that pile face-up."),
    _side("restock", "Restock", DEFENCE,
          "If you were not hit, shuffle Restock and one other discard into your draw pile."),
    _side("slushball", "Slushball Attack", ATTACK,
          "Hit: steal one random card from your opponent's discard pile."),
    _side("sneak", "Sneak Attack", ATTACK,
          "Unless a Dodge is played, your opponent must choose a card from their discard "
          "pile to Abandon."),
    _side("iceball", "Iceball Attack", ATTACK,
          "Hit: your opponent must choose a card from their discard pile to Abandon, and "
          "may only draw one card on their next turn."),
    _side("snow_fort", "Snow Fort", DEFENCE,
          "Whatever card your opponent played this turn is entirely ineffective."),
    _side("offensive_dodge", "Offensive Dodge", ATTACK,
          "Dodge an attack while throwing a snowball. Hit: your opponent may only draw one "
          "card on their next turn. If you dodge an attack you may also use Ultra Upgrade.",
          dodges=True),
    _side("ultra_upgrade", "Ultra Upgrade", DEFENCE,
          "If you were not hit, take any face-up Arsenal card or any Abandoned card. "
          "Ultra Upgrade chooses before other upgrades."),
    _side("barrage", "Barrage", ATTACK,
          "Resolved before your opponent's attack. Hit: your opponent may only draw one "
          "card next turn, and you may play your second card too."),
    _side("snatch_and_run", "Snatch and Run", DEFENCE,
          "Avoid any attack, and exchange one card from your discard pile with one "
          "Abandoned card.", dodges=True),
    _side("throwing_rocks", "Throwing Rocks", ATTACK,
          "Hit: your opponent must Abandon the card they played this turn, but you may "
          "only draw one card on your next turn."),
    _side("whitewash", "Whitewash", ATTACK,
          "Can't be dodged! On your opponent's next turn they must show you the cards they "
          "draw before you each decide what to play.", dodgeable=False),
    _side("upgrade_dodge", "Upgrade Dodge", DEFENCE,
          "Dodge any attack and, if you were not hit, take an upgrade from the Arsenal. If "
          "you dodged an attack you may take an Abandoned card instead.", dodges=True),
    _side("dud", "Dud", DEFENCE,
          "The attack your opponent played is ineffective, and that card is Abandoned."),
    _side("weapons_cache", "Weapons Cache", DEFENCE,
          "If you were not hit, put one card from your discard pile into your Weapons Cache. "
          "A cached card can be played instead of a drawn card on any later turn."),
    _side("backfire", "Backfire", DEFENCE,
          "If your opponent played an attack, it affects your opponent instead of you."),
    _side("raid", "Raid", DEFENCE,
          "If you were not hit, steal the card your opponent played this turn or any "
          "Abandoned card."),
    _side("refined_upgrade", "Refined Upgrade", DEFENCE,
          "If you were not hit, look at the top two cards of one Arsenal pile, take one and "
          "put the other back on top."),
    _side("no_effect", "No Effect", DEFENCE, "Nothing happens."),
)}


def _kind(key: str, level: str, top: str, bottom: str) -> Kind:
    return Kind(key=key, level=level, top=SIDES[top], bottom=SIDES[bottom])


KINDS: dict[str, Kind] = {k.key: k for k in (
    _kind("snowball-dodge", "basic", "snowball", "dodge"),
    _kind("dodge-restock", "basic", "dodge", "restock"),
    _kind("snowball-upgrade", "basic", "snowball", "upgrade"),
    _kind("slushball-dodge", "advanced", "slushball", "dodge"),
    _kind("slushball-upgrade", "advanced", "slushball", "upgrade"),
    _kind("sneak-dodge", "advanced", "sneak", "dodge"),
    _kind("sneak-upgrade", "advanced", "sneak", "upgrade"),
    _kind("dodge-upgrade", "advanced", "dodge", "upgrade"),
    _kind("iceball", "extreme", "iceball", "snow_fort"),
    _kind("offensive-dodge", "extreme", "offensive_dodge", "ultra_upgrade"),
    _kind("barrage", "extreme", "barrage", "snatch_and_run"),
    _kind("throwing-rocks", "extreme", "throwing_rocks", "whitewash"),
    _kind("upgrade-dodge", "extreme", "upgrade_dodge", "dud"),
    _kind("weapons-cache", "extreme", "weapons_cache", "backfire"),
    _kind("raid", "extreme", "raid", "refined_upgrade"),
    _kind("no-effect", "none", "no_effect", "no_effect"),
)}

# The physical deck: id -> kind. Ids never change, so actions and logs stay valid.
DECK: dict[str, str] = {
    "c01": "snowball-dodge", "c02": "snowball-dodge",
    "c03": "dodge-restock", "c04": "dodge-restock",
    "c05": "snowball-upgrade", "c06": "snowball-upgrade",
    "c07": "slushball-dodge",
    "c08": "slushball-upgrade", "c09": "slushball-upgrade",
    "c10": "sneak-dodge", "c11": "sneak-dodge",
    "c12": "sneak-upgrade",
    "c13": "dodge-upgrade", "c14": "dodge-upgrade",
    "c15": "iceball", "c16": "offensive-dodge", "c17": "barrage", "c18": "throwing-rocks",
    "c19": "upgrade-dodge", "c20": "weapons-cache", "c21": "raid",
    "c22": "no-effect", "c23": "no-effect",
}

# Each seat starts with one of each Basic card.
STARTING_BASICS: tuple[tuple[str, ...], ...] = (("c01", "c03", "c05"), ("c02", "c04", "c06"))
ADVANCED: tuple[str, ...] = ("c07", "c08", "c09", "c10", "c11", "c12", "c13", "c14")
STANDARD_EXTREMES: dict[str, str] = {
    "iceball": "c15", "offensive-dodge": "c16", "barrage": "c17", "throwing-rocks": "c18",
}
ALTERNATE_EXTREMES: dict[str, str] = {"upgrade-dodge": "c19", "weapons-cache": "c20", "raid": "c21"}
NO_EFFECT: tuple[str, ...] = ("c22", "c23")

# Tables of more than two use more decks (3+ player variant): the cards of deck 2 and 3
# are the same cards with the deck's letter after the number ("c07b", "c22c").
MAX_DECKS = 3
DECK_SUFFIXES = ("", "b", "c")


def in_deck(card_id: str, deck: int) -> str:
    """The id of deck ``deck``'s copy (0-based) of a first-deck card."""
    return card_id + DECK_SUFFIXES[deck]


def first_deck_id(card_id: str) -> str:
    """The first-deck card a copy stands for ("c07b" -> "c07")."""
    return card_id[:3]


DECK.update({in_deck(cid, deck): key for deck in range(1, MAX_DECKS)
             for cid, key in list(DECK.items())})


_KIND_BY_ID: dict[str, Kind] = {cid: KINDS[key] for cid, key in DECK.items()}
_SIDE_BY_ID: dict[tuple[str, str], Side] = {
    (cid, which): kind.side(which) for cid, kind in _KIND_BY_ID.items() for which in ("top", "bottom")
}
_NAME_BY_ID: dict[str, str] = {cid: kind.name for cid, kind in _KIND_BY_ID.items()}


def kind_of(card_id: str) -> Kind:
    """The kind of a physical card."""
    return _KIND_BY_ID[card_id]


def side_of(card_id: str, which: str) -> Side:
    """The side ("top" or "bottom") of a physical card."""
    return _SIDE_BY_ID[card_id, which]


def is_no_effect(card_id: str) -> bool:
    """Whether a card is a No Effect card (3+ players and teams; never in a pile)."""
    return _KIND_BY_ID[card_id].level == "none"


def points_of(card_id: str) -> int:
    return LEVEL_POINTS[_KIND_BY_ID[card_id].level]


def level_rank(card_id: str) -> int:
    return LEVEL_RANK[_KIND_BY_ID[card_id].level]


def _side_dict(side: Side) -> dict[str, Any]:
    return {"title": side.title, "type": side.type, "ability": side.ability, "text": side.text}


def _card_template(card_id: str) -> dict[str, Any]:
    kind = kind_of(card_id)
    return {
        "id": card_id,
        "kind": kind.key,
        "name": kind.name,
        "level": kind.level,
        "points": kind.points,
        "top": _side_dict(kind.top),
        "bottom": _side_dict(kind.bottom),
    }


_CARD_DICTS: dict[str, dict[str, Any]] = {cid: _card_template(cid) for cid in DECK}


def card_dict(card_id: str) -> dict[str, Any]:
    """A card as it appears in views: everything a board needs to draw it. One dict per card,
    shared by every view that shows the card, so never to be changed (as no view is): a
    two-player move's views copied some sixty of them afresh, a tenth of their cost."""
    return _CARD_DICTS[card_id]


def card_name(card_id: str) -> str:
    return _NAME_BY_ID[card_id]
