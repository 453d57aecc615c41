"""What players read on the game's rules page (/rules/what-a-snowball/): how to play, in a few
lines from the rule book, the whole book in the site's words (``BOOK``), and the house rulings,
each with the anchor id the page gives it.

Every figure in ``BOOK``'s tables is taken from the engine (its Kid types, Traits, dice faces,
range bands, throw modifiers, cheating rules, cards and terrain), so the page cannot disagree
with the game. ``BOARD`` says which game the page draws its picture of the village from.
"""
from __future__ import annotations

from typing import Any

from games.engines.what_a_snowball import kids as K
from games.engines.what_a_snowball.common import (
    DEPLOY_DISTANCE,
    GIVE_DISTANCE,
    LONG_RANGE_NEEDS,
    MAX_KIDS,
    MAX_KIDS_PER_SEAT,
    MIN_KIDS,
    RANGE_BANDS,
    TOO_CLOSE,
    TURNS,
    WIN_BONUS,
    WIPED_OUT,
    can_cheat,
    throw_modifiers,
)
from games.engines.what_a_snowball.engine import RULESET
from games.engines.what_a_snowball.villages import PRESETS, TERRAIN_KINDS

HOW_TO_PLAY = (
    "Two to four teams of Kids fight a snowball battle in a 24 x 24 inch Christmas village. "
    "Teams roll off, pick corners and set up their Kids within 6 inches of a corner.",
    "Every turn each Kid activates in order of a die roll. An activating Kid rolls its Command "
    "Dice and spends them: move, gather snow, aim, throw, or a Wild 6 for something special.",
    "A throw needs a snowball and a clear line to an enemy Kid; roll two dice against the range "
    "(7 up to 6 inches, 8 up to 12, 9 beyond), with modifiers. A hit rolls for effect and can "
    "cost the target Command Dice; a Kid with none left goes home. Cheating up close hits "
    "at once, if the parents do not catch you.",
    "After six turns the team whose remaining Kids have the most points wins.",
)

SCORING = "Only the points of Kids still in the village count, plus the bonuses for Kids left."

RULINGS = (
    {"id": "village", "title": "The village",
     "text": "The village is 24 x 24 inches. Terrain blocks movement, blocks sight, can be vaulted "
             "(shorter than a Kid) or is snowless ground (gritted roads). Pick one of two preset "
             "villages or a random one."},
    {"id": "wild-dice", "title": "Wild dice",
     "text": "A 5 is Wild only for Christmas Elves. A knocked-down Kid can spend only Wild dice "
             "until it gets up. \"Wild dice spent preparing\" means the +1 to activation order use "
             "of a Wild die."},
    {"id": "range", "title": "Range",
     "text": "Up to 6 inches needs 7, over 6 up to 12 inches needs 8, over 12 inches needs 9."},
    {"id": "modifiers", "title": "Throw modifiers",
     "text": "Modifiers add to the two-dice roll: +1 per AIM; +1 for a Size 2-3 snowball, +2 for "
             "Size 4-5; -1 for each object within 1 inch of the line of fire; -1 against a Big Kid "
             "or Snowman (unless an Elf throws); -1 against an Elf; +1 when an Elf throws. A "
             "natural 2 always misses and a natural 12 always hits."},
    {"id": "move", "title": "Moving",
     "text": "MOVE rolls a die for inches. The Kid may turn as often as it likes, so it can reach any "
             "point whose shortest way round obstacles and Kids is no longer than the roll."},
    {"id": "aim", "title": "Aiming",
     "text": "AIM stacks and lasts until the Kid's next THROW, or until the Kid is hit."},
    {"id": "command-dice", "title": "Command Dice",
     "text": "A Kid's Command Dice are a pool of at most 6 that carries over between turns; at 0 "
             "the Kid goes home."},
    {"id": "scoring", "title": "Scoring and corners",
     "text": "Only the points of Kids still in the village count at the end. With two teams, a team "
             "sets up within 6 inches of either of its two corners."},
    {"id": "rolls", "title": "Rolls",
     "text": "Every roll, the target's Roll for Effect included, is rolled by the site and shown "
             "with every modifier that went into it."},
    {"id": "reactions", "title": "Cards played out of turn",
     "text": "\"Missed me, dork!\", \"Thanks, Grandma!\", \"Dashing through the snow!\" and \"A Christmas "
             "Miracle!\" are reactions, and \"I'm not done yet!\" is played as an activation starts: when such "
             "a moment comes you are asked whenever you hold any card, even if you hold none to play then, so that "
             "nobody can tell which cards you hold (unless you told the site never to ask about that moment's "
             "cards)."},
    {"id": "surrender", "title": "Surrender",
     "text": "A team surrenders when all its players agree; its Kids go home and it cannot win."},
)

OUTCOME_RULINGS: dict[str, str] = {}


# --------------------------------------------------------------------------- the whole book

def _table(table_id: str, caption: str, columns: tuple[str, ...], rows: list[tuple[str, tuple[str, ...]]],
           ) -> dict[str, Any]:
    """A table for the page: each row an anchor id and its cells, one a column."""
    return {"id": table_id, "caption": caption, "columns": list(columns),
            "rows": [{"id": row_id, "cells": list(cells)} for row_id, cells in rows]}


def _anchor(prefix: str, key: str) -> str:
    """A row's anchor from an engine key: ("type", "big_kid") -> "type-big-kid"."""
    return f"{prefix}-{key.replace('_', '-')}"


def _signed(value: int) -> str:
    return f"{value:+d}"


def _inches(value: float) -> str:
    return f"{value:g}\""


def _listed(words, last: str = "and") -> str:
    words = list(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else "".join(words) or "nobody"


def _probe_kid(kind: str, name: str, aims: int = 0) -> dict[str, Any]:
    return {"type": kind, "name": name, "aims": aims}


def modifiers(thrower: str, target: str, *, size: int = 1, aims: int = 0, objects: int = 0) -> dict[str, int]:
    """The engine's Roll to Hit modifiers for a throw between two types of Kid, by label."""
    kids = {"a": _probe_kid(thrower, "A", aims), "b": _probe_kid(target, "B")}
    kids.update({f"o{i}": _probe_kid("kid", "a Kid") for i in range(objects)})
    found = throw_modifiers({"kids": kids}, "a", "b", size, [f"o{i}" for i in range(objects)])
    return {m["label"]: m["value"] for m in found}


def _total(mods: dict[str, int]) -> int:
    return sum(mods.values())


TYPE_LABELS = {kind: t["label"] for kind, t in K.TYPES.items()}
AT_TYPE = {kind: _total(modifiers("kid", kind)) for kind in K.TYPES}
ELF_AT_TYPE = {kind: _total(modifiers("elf", kind)) - _total(modifiers("elf", "kid")) for kind in K.TYPES}
BY_TYPE = {kind: _total(modifiers(kind, "kid")) for kind in K.TYPES}
SIZE_BONUS = {size: _total(modifiers("kid", "kid", size=size)) for size in range(1, K.MAX_SIZE + 1)}
AIM_BONUS = _total(modifiers("kid", "kid", aims=1))
OBJECT_MALUS = _total(modifiers("kid", "kid", objects=1))


def cheats_against(kind: str) -> list[str]:
    """The types a Kid of ``kind`` may cheat against, by the engine's own rule."""
    return [t["label"] for victim, t in K.TYPES.items() if can_cheat({"type": kind}, {"type": victim})]


def cheats_at(kind: str) -> list[str]:
    """The types that may cheat against a Kid of ``kind``."""
    return [t["label"] for aggressor, t in K.TYPES.items() if can_cheat({"type": aggressor}, {"type": kind})]


def _gather(kind: str) -> str:
    amount = K.TYPES[kind]["gather"]
    return f"makes Size {amount} or adds {amount}"


def _traits(kind: str) -> str:
    t = K.TYPES[kind]
    if t["fixed_traits"] is not None:
        return " and ".join(K.TRAIT_LABELS[x] for x in t["fixed_traits"]) or "none"
    return f"{t['traits']} of your choice"


def _worth(kind: str) -> str:
    return f"{K.TYPES[kind]['worth']:g}"


def _five(kind: str, traits: tuple[str, ...]) -> str:
    return " or ".join(K.ACTION_LABELS[a] for a in K.five_actions({"type": kind, "traits": list(traits)}))


BENEFIT_WORDS: dict[str, str] = {
    "Two Traits": "choose two Traits; a 5 is spent as either one's action.",
    "Big Hands": f"GATHER SNOW {_gather('big_kid')} (never past Size {K.MAX_SIZE}).",
    "Expert Dodger": f"throws at a Big Kid are at {_signed(AT_TYPE['big_kid'])}, unless an Elf throws.",
    "Playing Rough": "caught cheating only if the lower of two dice would catch it.",
    "Snowball Warrior": "no Trait, and every 5 is a Wild die.",
    "Skirmisher": f"throws at an Elf are at {_signed(AT_TYPE['elf'])}; an Elf's own throws are at "
                  f"{_signed(BY_TYPE['elf'])}.",
    "Master of the Craft": f"GATHER SNOW {_gather('elf')} (never past Size {K.MAX_SIZE}).",
    "Warm Heart": "in the Roll for Effect against an Elf only 5s and 6s cost a Command Die.",
    "Santa's Watching": f"an Elf may cheat only against {_listed(cheats_against('elf'))}, and only "
                        f"{_listed(cheats_at('elf'))} may cheat against an Elf.",
    "Throw Yourself": "may throw a piece of itself as a Size 4 snowball, at the cost of one Command Die "
                      "(not its last).",
    "Made of Snow": "GATHER SNOW can mend it instead, giving back one lost Command Die.",
    "Blend In": f"throws at a Snowman are at {_signed(AT_TYPE['snowman'])}, unless an Elf throws.",
    "Jerk": "parents never catch a Snowman cheating, it may cheat against Elves, and cheating against a "
            "Snowman is never punished.",
    "Fast and Strong": f"always both Traits, so a 5 is spent as {_five('yeti', K.TYPES['yeti']['fixed_traits'])}.",
    "Huge Hands": f"GATHER SNOW {_gather('yeti')} (never past Size {K.MAX_SIZE}).",
    "Thick Fur": "loses one Command Die per two dice of 4 or more in the Roll for Effect.",
    "Oops": "never cheats; a Kid that shoves a Yeti may be knocked down by it in return (a 4 or more on a "
            "die), losing a Command Die too.",
    "Slide": "on snow may slide instead of walking: 2D6 inches per MOVE, never crossing snowless ground.",
    "DO NOT HIT ANIMALS": "a Kid cheating against a Penguin is caught on a 2 or more; a Snowman doing it "
                          "loses a point.",
}


def type_rows() -> list[tuple[str, tuple[str, ...]]]:
    """One row a type of Kid the engine knows: worth, Traits, GATHER SNOW, its special rules."""
    rows = []
    for kind, t in K.TYPES.items():
        rules = " ".join(f"{name}: {BENEFIT_WORDS.get(name, '')}" for name in K.BENEFITS.get(kind, ()))
        rows.append((_anchor("type", kind), (t["label"], _worth(kind), _traits(kind), _gather(kind),
                                      rules or "The ordinary Kid of the rule book.")))
    return rows


TRAIT_WORDS: dict[str, str] = {
    "fast": "quick on its feet: more chances to move.",
    "strong": "a good arm: more chances to throw.",
    "skilful": "a steady eye: more chances to aim.",
    "resourceful": "always making snowballs: more chances to gather snow.",
}


def trait_rows() -> list[tuple[str, tuple[str, ...]]]:
    rows = [(_anchor("trait", trait), (K.TRAIT_LABELS[trait], K.ACTION_LABELS[K.TRAIT_ACTION[trait]],
                                TRAIT_WORDS.get(trait, "")))
            for trait in K.TRAITS]
    rows += [(_anchor("trait", kind), (K.TYPES[kind]["label"], _five(kind, K.TYPES[kind]["fixed_traits"]),
                                "no choice of Trait for this special player."))
             for kind in K.TYPES if K.TYPES[kind]["fixed_traits"] is not None]
    return rows


FACE_WORDS: dict[str, str] = {
    "move": "roll a die and move that many inches.",
    "gather": "make, grow or pass on a snowball.",
    "aim": "+1 to the next throw.",
    "throw": "throw a snowball at an enemy Kid.",
    "wild": "one of the Wild uses below.",
}


def face_rows() -> list[tuple[str, tuple[str, ...]]]:
    rows = []
    for face in range(1, 7):
        action = K.FACES.get(face)
        if action is None:
            rows.append((f"face-{face}", (str(face), "depends on the Trait", "see the Traits.")))
        else:
            rows.append((f"face-{face}", (str(face), K.ACTION_LABELS[action], FACE_WORDS.get(action, ""))))
    return rows


WILD_WORDS: dict[str, tuple[str, str]] = {
    "recover": ("Recover a Command Die", f"one lost die back (up to {K.MAX_COMMAND_DICE}); it is rolled from "
                                         "the next turn on."),
    "prepare": ("Prepare", "+1 to this Kid's Activation Order roll next turn."),
    "get_up": ("Get up", "a knocked-down Kid stands again (the only way to)."),
    "as": ("Act as another result", f"spend it as {_listed((K.ACTION_LABELS[a] for a in K.ACTIONS), 'or')}."),
}


def range_rows() -> list[tuple[str, tuple[str, ...]]]:
    rows, low = [], 0.0
    for limit, needs in RANGE_BANDS:
        rows.append((f"range-{needs}", (f"up to {_inches(limit)}" if not low else f"over {_inches(low)} up to "
                                        f"{_inches(limit)}", str(needs))))
        low = limit
    rows.append((f"range-{LONG_RANGE_NEEDS}", (f"over {_inches(low)}", str(LONG_RANGE_NEEDS))))
    return rows


def modifier_rows() -> list[tuple[str, tuple[str, ...]]]:
    sizes: dict[int, list[int]] = {}
    for size, bonus in SIZE_BONUS.items():
        sizes.setdefault(bonus, []).append(size)
    rows = [("mod-aim", ("each AIM spent before the throw", _signed(AIM_BONUS)))]
    for bonus, group in sizes.items():
        if bonus:
            sizes_words = f"{group[0]}-{group[-1]}" if len(group) > 1 else str(group[0])
            rows.append((f"mod-size-{group[0]}", (f"a Size {sizes_words} snowball", _signed(bonus))))
    rows.append(("mod-object", ("each object (a Kid or a standing piece of terrain) within 1\" of the line of fire",
                                _signed(OBJECT_MALUS))))
    for kind in K.TYPES:
        unless = ", unless an Elf throws" if ELF_AT_TYPE[kind] != AT_TYPE[kind] else ""
        if AT_TYPE[kind]:
            rows.append((_anchor("mod-at", kind),
                         (f"throwing at a {TYPE_LABELS[kind]}{unless}", _signed(AT_TYPE[kind]))))
    rows += [(_anchor("mod-by", kind), (f"a {TYPE_LABELS[kind]} throwing", _signed(BY_TYPE[kind])))
             for kind in K.TYPES if BY_TYPE[kind]]
    return rows


def terrain_rows() -> list[tuple[str, tuple[str, ...]]]:
    rows = []
    for kind, props in TERRAIN_KINDS.items():
        words = []
        if props["indoors"]:
            words.append("a building: no going indoors")
        if props["blocks_movement"]:
            words.append("blocks movement" + (", but can be vaulted" if props["vaultable"] else ""))
        else:
            words.append("can be walked over")
        words.append("blocks sight" if props["blocks_sight"] else "does not block sight")
        if props["snowless"]:
            words.append("no snow to gather")
        rows.append((_anchor("terrain", kind), (props["label"].capitalize(), "; ".join(words) + ".")))
    return rows


CARD_WORDS: dict[str, str] = {
    "saving": "A hidden stash: take three Size 1 snowballs, two Size 3 or one Size 5.",
    "not_done": "Roll a full 6 Command Dice this activation, however many you have left; your pool does not "
                "change.",
    "ice": "An extra-cold snowball: +3 Size for the Roll for Effect, even past the usual largest.",
    "grandma": "An ugly extra sweater: this hit costs no Command Dice (the thrower still scores).",
    "pitch": "Roll 3 dice to hit and keep the best two.",
    "dork": "The thrower rolls 3 dice to hit and keeps the worst two. It cancels \"I've been practicing my "
            "pitch!\".",
    "miracle": "Your parents look away: you are not sent home for cheating. A Kid that cannot cheat (an Elf or "
               "a Yeti) may instead swap it for two cards.",
    "dash": "Move 2D6 inches at once by the usual rules; a throw already declared at you still resolves.",
}


def card_rows() -> list[tuple[str, tuple[str, ...]]]:
    return [(_anchor("card", key), (card["title"], card["when"], CARD_WORDS.get(key, "")))
            for key, card in K.CARDS.items()]


SIGHT_BLOCKERS = [props["label"] for props in TERRAIN_KINDS.values() if props["blocks_sight"]]
SIGHT_CLEAR = [props["label"] for props in TERRAIN_KINDS.values()
               if props["blocks_movement"] and not props["blocks_sight"]]

BOOK: tuple[dict[str, Any], ...] = (
    {"id": "teams", "title": "Teams and Kids",
     "text": (f"Every player commands 1 to {MAX_KIDS_PER_SEAT} Kids, {MIN_KIDS} to {MAX_KIDS} Kids in all, split "
              "into two to four teams of the same size. Each Kid has a Trait (see Traits), and with the optional "
              "special players a team may field Big Kids, Christmas Elves, Living Snowmen, Yetis and Penguins "
              "instead of ordinary Kids.",
              "Whoever creates the game names the Kids and picks their Traits and types, or lets the site make "
              "equal teams of ready-made Kids. The game page keeps each Kid's character sheet: its type, "
              "Traits, what each face does for it, its Command Dice, snowballs and points. The site rolls "
              "every die and measures every distance.")},
    {"id": "setting-up", "title": "Setting up",
     "text": ("Each team rolls a die; from the highest down, each team picks a corner of the village and places "
              f"all its Kids within {_inches(DEPLOY_DISTANCE)} of it. With only two teams, each team picks two "
              "corners (and may set up by either).",)},
    {"id": "the-village", "title": "The village", "board": True,
     "text": (f"The fight takes place in a 24 x 24 inch Christmas village, chosen when the game is created: "
              f"{_listed(label for label, _ in PRESETS.values())}, or one built at random. Distances are "
              "measured in inches, base edge to base edge. What each kind of terrain does:",),
     "tables": (_table("terrain-table", "Terrain", ("Terrain", "What it does"), terrain_rows()),)},
    {"id": "activation", "title": "The turn and the activation order",
     "text": (f"The game lasts {TURNS} turns. At the start of each turn every Kid rolls a die for the activation "
              "order, adding 1 for every Wild die it spent preparing the turn before. Kids activate one at a time "
              "from the highest roll down; Kids who tie roll again among themselves.",)},
    {"id": "dice", "title": "Command Dice",
     "text": (f"An activating Kid rolls its Command Dice: {K.MAX_COMMAND_DICE} at first, fewer after the cold "
              "shock of being hit. Each die is spent on the action its face shows, one at a time, in any order. "
              "The activation ends when the dice are spent or the player stops (there is little point stopping "
              "early). A Kid with no Command Dice left goes home to warm up and leaves the game.",),
     "tables": (_table("face-table", "What each face does", ("Face", "Action", "In short"), face_rows()),)},
    {"id": "traits", "title": "Traits",
     "text": ("A Kid's Trait decides what a 5 does, making the Kid better at one thing:",),
     "tables": (_table("trait-table", "What a 5 is spent as", ("Trait", "A 5 is", "Why"), trait_rows()),)},
    {"id": "moving", "title": "MOVE",
     "text": ("Roll a die and move up to that many inches, in any direction, turning as often as you like. Kids "
              "cannot go through buildings, trees, walls or other Kids, and cannot go indoors (the grown-ups "
              "would shout). A Kid touching an obstacle shorter than itself (a low wall, fence, bench or "
              "fountain) may spend a MOVE die to vault it instead, landing on the far side.",)},
    {"id": "gathering", "title": "GATHER SNOW",
     "text": ("Standing on snow (not on a gritted road or path), a Kid makes a new snowball, makes one of its "
              f"snowballs one Size bigger (Size {K.MAX_SIZE} is the largest), or gives a snowball to a team-mate "
              f"within {_inches(GIVE_DISTANCE)}. Some special players make bigger snowballs.",)},
    {"id": "aiming", "title": "AIM",
     "text": (f"Each AIM adds {_signed(AIM_BONUS)} to the Kid's next Roll to Hit. AIMs add up, and are lost if the "
              "Kid is hit first.",)},
    {"id": "throwing", "title": "THROW and the Roll to Hit",
     "text": ("A THROW uses up one of the Kid's snowballs, thrown at an enemy Kid it can see. Every other Kid, "
              f"team-mates included, blocks the line of sight, and so does every {_listed(SIGHT_BLOCKERS, 'and')}; "
              f"a {_listed(SIGHT_CLEAR, 'or')} does not.",
              "Roll two dice and add the modifiers; a total of at least the number needed for the distance hits "
              "and scores the thrower a point. A double six always hits and makes the snowball one Size bigger "
              "for its effect; a double one always misses and ends the Kid's activation at once. The site shows "
              "each line of fire with the number needed before you throw."),
     "tables": (_table("range-table", "Number needed", ("Distance to the target", "Needs"), range_rows()),
                _table("modifier-table", "Roll to Hit modifiers", ("When", "Roll"), modifier_rows()))},
    {"id": "effect", "title": "The Roll for Effect",
     "text": ("A Kid that is hit rolls as many dice as the snowball's Size. Each 4 or more costs it one Command "
              "Die from the cold shock (Wild dice can win them back). A Kid left with none goes home to warm up.",)},
    {"id": "wild", "title": "Wild dice",
     "text": ("A 6 is a Wild die (and so is an Elf's 5). Spend as many as you roll, each on one of these:",),
     "tables": (_table("wild-table", "Wild die uses", ("Use", "What it does"),
                       [(_anchor("wild", use), words) for use, words in WILD_WORDS.items()]),),
     "after": ("A knocked-down Kid can spend only Wild dice, and only to get up, recover or prepare, until it "
               "is on its feet again.",)},
    {"id": "cheating", "title": "Cheating",
     "text": ("Shove 'Em!: a Kid that ends a MOVE touching a standing enemy may knock it over. The victim cannot "
              "act until it spends a Wild die to get up, and loses a Command Die if it has two or more.",
              f"Too Close!: a THROW at an enemy within {_inches(TOO_CLOSE)} hits at once, with no Roll to Hit, "
              "and scores a point; the Roll for Effect follows.",
              "Either way the cheat's player then rolls a die: on a 4 or more its parents saw, and drag it home "
              "for a telling off (out of the game). Special players change who may cheat and who gets caught:"),
     "tables": (_table("cheat-table", "Who may cheat against whom", ("Type", "May cheat against"),
                       [(_anchor("cheat", kind), (t["label"], _listed(cheats_against(kind))))
                        for kind, t in K.TYPES.items()]),)},
    {"id": "special-players", "title": "Special players (optional)",
     "text": ("When the game allows special players, any Kid can be one of these instead. The book gives what each "
              "is worth in ordinary Kids, so that teams stay fair; the site shows each team's worth but does not "
              "limit it.",),
     "tables": (_table("type-table", "Types of Kid", ("Type", "Worth", "Traits", "GATHER SNOW", "Special rules"),
                       type_rows()),)},
    {"id": "ability-cards", "title": "Ability cards (optional)",
     "text": ("A game can be played with ability cards, dealt one of two ways: method 1, a card for a Kid that "
              "reaches 3 points (and every 3 more) or sends an enemy home; method 2, three cards a player from "
              "the start (one per Kid for a player with several). A card is played once, then discarded. Nobody "
              "else sees your cards, only how many you hold. Cards played out of turn, and \"I'm not done yet!\" as an "
              "activation starts, are offered to you when the moment comes; while you hold any card you are asked "
              "at every such moment, whether or not you hold a card for it.",),
     "tables": (_table("card-table", "The cards", ("Card", "When", "What it does"), card_rows()),)},
    {"id": "end-of-game", "title": "End of the game and scoring",
     "text": (f"The game ends after turn {TURNS}, or as soon as only one team has Kids in the village, or when "
              "every other team has surrendered (that team wins whatever the points).",
              f"Each team scores the points of its Kids still in the village, +{WIN_BONUS} if it still has all its "
              f"Kids, +{WIN_BONUS} if it has the most Kids left (tied teams all get it), and {WIPED_OUT:,} if it "
              "has lost them all. The highest score wins.")},
)

BOARD = {"players": 4, "seed": 2026, "options": {"village": "green"},
         "caption": "The Village green of a new four-team game, once all four teams have set up in their corners, as "
                    "the game page draws it."}


def board_state() -> dict[str, Any]:
    """The game the page draws the village from: a new game played by the computer players to its first turn."""
    state = RULESET.new_game(players=BOARD["players"], options=dict(BOARD["options"]), seed=BOARD["seed"])
    while RULESET.view(state, None)["phase"] in ("corners", "deploy"):
        seat = min(RULESET.to_act(state))
        state, _ = RULESET.apply(state, seat, RULESET.bot_action(state, seat))
    return state
