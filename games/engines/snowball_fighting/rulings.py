"""What players read on the game's rules page (/rules/snowball-fighting/): how to play, in a
few lines from the rule book, the whole book in the site's words (``BOOK``), and the house
rulings, each with the anchor id the page gives it.

Every figure in ``BOOK``'s tables is taken from the engine (its throws, movement costs, garden
and hit-chance table), so the page cannot disagree with the game. ``BOARD`` says which new game
the page draws its picture of the garden from. ``OUTCOME_RULINGS`` names the ruling behind an
outcome code, so that a result can link to it.
"""
from __future__ import annotations

import re
from typing import Any

from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.engine import (
    DEFAULT_NAMES,
    DRYING_SEGMENTS,
    MAX_PLAYERS,
    MAX_TURNS,
    MIN_PLAYERS,
    START_HP,
    START_SS,
    VICTORY_VPS,
    WINDOWSILL_SS,
    new_game,
)
from games.engines.snowball_fighting.garden import FOGBOUND, GARDEN, KITCHEN, MF_PER_SEGMENT, ROW_LABELS, mf
from games.engines.snowball_fighting.orders import CONDITIONS, SEGMENTS
from games.engines.snowball_fighting.views import map_view

HOW_TO_PLAY = (
    "Two to six snow warriors fight in a garden of hexes with a shed, conifers, snowmen and a "
    "kitchen door. Each picks a nom de guerre and a start hex.",
    "Every turn has three segments. Everyone writes secret orders for all three (move, collect "
    "snowballs, throw, or a mix), then the site reveals them and plays them out as a game "
    "master would, segment by segment: all moves, then all collecting, then all throws.",
    "Each throw has a chance to hit, from the table of throws and the range; hits cost HP and "
    "earn the thrower victory points. At 0 HP you run to the kitchen to dry your socks and "
    "come back out later.",
    "The first to reach 15 victory points wins (everyone who reaches it in the same segment "
    "shares the win).",
)

SCORING = "Scores are victory points: each hit scores its damage for the thrower."

RULINGS = (
    {"id": "garden", "title": "The garden",
     "text": "The garden map was lost; the site uses its own reconstruction: 13 columns of hexes, "
             "rows A to W from north to south, the house south of row W and the kitchen door below "
             "W11. Every hex the rule book names is where the book puts it."},
    {"id": "movement", "title": "Moving",
     "text": "You have 4 movement points a segment. Entering a hex costs 1, a step from path to path "
             "0.5, and entering the kitchen from W11 costs 1."},
    {"id": "range", "title": "Range and the shed",
     "text": "Range is the shortest way round in hexes that does not pass through a conifer. A throw "
             "is over the shed only if every shortest way crosses the shed; then its chance is "
             "halved. Targets closer than a throw's range add 5% a hex, farther ones take 5% a hex."},
    {"id": "avalanche-lines", "title": "Hit by an Avalanche or Dirigible last segment",
     "text": "+10% to hit such a target, -10% for such a thrower."},
    {"id": "baker-bounce", "title": "Baker Bounce",
     "text": "\"With added Bounce -25%\" is the bounce on the spot; the one-hex bounce is a free move "
             "after the throws."},
    {"id": "storm-and-avalanche", "title": "Conifer Storm and Shed Avalanche",
     "text": "Conifer Storm: 90% to hit the tree, then 70% that the snow falls. Shed Avalanche: 80% to "
             "hit the shed, 80% for an avalanche, 80% that it falls on the side named. A conifer or a "
             "side of the shed is used up only when snow falls. Two players who bring the same snow down "
             "in one segment both throw, the snow falls once, and the tealeaves decide whose VPs it is."},
    {"id": "segment-order", "title": "Order of a segment",
     "text": "All moves, then all collecting, then all throws, each all at once. When two players "
             "want the same hex, one collecting and moving is the slower, whether it collects first or "
             "last; otherwise the one who spent fewer movement points gets it, a collector loses a "
             "tie, then chance decides; the loser stops one hex short."},
    {"id": "kitchen", "title": "The kitchen",
     "text": "At 0 HP you run to the kitchen at 4 movement points a segment and cannot be hit (brought "
             "to 0 HP in the kitchen itself, you start drying at once). After three segments drying your "
             "socks you come back out at W11 with 10 HP and two snowballs. A move that enters the kitchen "
             "ends there: no route passes through the house, and snowballs carried in melt."},
    {"id": "no-orders", "title": "Missing orders",
     "text": "If you send no orders before the turn's deadline you stand still all turn (+10% to be "
             "hit). Twice in a row (two consecutive turns you were asked in), and you go to the kitchen "
             "for good."},
    {"id": "press", "title": "Press",
     "text": "Press is the table talk: public, or private between two players."},
    {"id": "optional-rules", "title": "Optional rules",
     "text": "Optional rules 12 to 14 and the Fogbound variant are chosen when the game is created; the "
             "optional rules may be played in the Fogbound garden too."},
    {"id": "reports", "title": "Turn reports",
     "text": "Every player gets a written report of its turn, as a game master would write it."},
    {"id": "turn-limit", "title": "Turn limit",
     "text": f"The rule book has no turn limit in the snowy garden, but a game online needs one: after turn "
             f"{MAX_TURNS} the players with the most victory points win. When fewer than two players are still "
             f"fighting, the game ends after that turn and the most victory points among them win. (A Fogbound "
             f"game ends after turn {F.MAX_TURNS} by the rule book's own rule, not by this one.)"},
)

OUTCOME_RULINGS = {"turn_limit": "turn-limit"}


# --------------------------------------------------------------------------- the whole book


def _fogbound_text() -> tuple[str, ...]:
    """The Fogbound variant in the site's words, every figure from the engine."""
    fog = FOGBOUND
    doors = _listed(fog.kitchen_doors)
    return (
        f"Choose \"Fogbound\" as the garden when you create the game. The garden is {len(fog.hexes) // fog.cols} "
        f"hexes long and {fog.cols} wide (rows A to {ROW_LABELS[fog.rows - 1]}), with footpaths along the west "
        f"and east fences and the north fence, each running to a kitchen door in the house along the south "
        f"side ({doors}). In it: {len(fog.snowmen)} snowmen, {len(fog.conifers)} large conifers, the shed "
        f"({fog.shed}) in the north-west, a pond ({_listed(fog.pond)}) in the middle, a wheelbarrow of snow at "
        f"{fog.wheelbarrow} holding 3 Doubleday Dirigibles, and 3 garden gnomes hidden by the site at the start, "
        f"at least 3 hexes from the start hexes.",
        f"Everyone starts in the south-west or south-east corner ({_listed(fog.starts)}) and runs out into the "
        f"garden for {F.OPENING_TURNS} turns: no snow is thrown then, and a move into the pond swerves round it.",
        f"A pea-souper fog: you see {F.VISION_START} hexes around you at first. At the end of every turn one "
        f"roll for everyone: {F.VISION_UP}% that everyone sees a hex farther, "
        f"{F.VISION_DOWN - F.VISION_UP}% a hex less (never under {F.VISION_MIN}). You see only what stands "
        f"within your sight, your report tells only what you saw, and you can throw only at what you see. "
        f"Splashes, throws and falls you cannot see are heard as a direction and near (up to {F.NEAR} hexes), "
        f"a little way off (up to {F.MIDDLING}) or far off. A shout in the table talk is heard by everyone "
        f"within {F.SHOUT_RANGE} hexes, from its direction and distance.",
        f"Walking into the pond costs every HP: off to the kitchen to change. Each hex you enter that holds a "
        f"gnome or is next to one adds {F.GNOME_CHANCE}% to your chance of tripping that segment (one roll); "
        f"a fall ends your move there and every snowball you carry is lost. You find a gnome when it is within "
        f"your sight at the end of a turn. Collect at the wheelbarrow for a ready-made Dirigible, three in all.",
        "A move can be provisional: if its first step would enter the pond or a hex at or next to a gnome "
        "you have found, you stand still instead.",
        f"The game ends when someone reaches {F.VICTORY_VPS} VPs, or after turn {F.MAX_TURNS}: then the most "
        "VPs win. Spectators see the garden, the scores and the fog while the game runs (or everything, if the "
        "creator chose so), and everything afterwards.",
    )


def _table(table_id: str, caption: str, columns: tuple[str, ...], rows: list[tuple[str, tuple[str, ...]]],
           ) -> dict[str, Any]:
    """A table for the page: each row an anchor id and its cells, one a column."""
    return {"id": table_id, "caption": caption, "columns": list(columns),
            "rows": [{"id": row_id, "cells": list(cells)} for row_id, cells in rows]}


def _pct(value: int) -> str:
    return f"{value:+d}%"


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _listed(refs) -> str:
    refs = list(refs)
    return ", ".join(refs[:-1]) + " and " + refs[-1] if len(refs) > 1 else "".join(refs)


def ammunition(throw: R.Throw) -> str:
    """What a throw uses up, in words: "1 simple snowball", "1 Dirigible", "none"."""
    parts = []
    if throw.ss:
        parts.append(f"{throw.ss} simple snowball{'s' if throw.ss > 1 else ''}")
    if throw.dd:
        parts.append(f"{throw.dd} Dirigible{'s' if throw.dd > 1 else ''}")
    return " and ".join(parts) or "none"


_GARDEN = map_view(GARDEN.name)
_PROBE_CONIFER = GARDEN.conifers[0]
_PROBE_NEAR = sorted(GARDEN.conifer_adjacent - set(GARDEN.snowmen))[0]
_TARGET_PROBES: tuple[dict[str, Any], ...] = (
    {"collected": 2}, {"collected": 1}, {"moved": 0}, {"moved": 1}, {"moved": 3}, {"big_hit_last": True},
    {"hex": _PROBE_CONIFER}, {"hex": _PROBE_NEAR}, {"hex": GARDEN.snowmen[0]}, {"action": "maniac"},
    {"action": "baker", "bounce_spot": True}, {"action": "bolero"}, {"nmr": True},
)


def target_lines() -> dict[str, int]:
    """Every line of the hit-chance table that describes the target, as the engine reads it."""
    lines: dict[str, int] = {}
    for facts in _TARGET_PROBES:
        for label, value in R.target_modifiers(GARDEN, facts):
            lines.setdefault(label, value)
    return lines


TARGET_LINES = target_lines()
THROWER_LINES = dict(R.thrower_modifiers(big_hit_last=True, conditional=True))
BOUNCE = TARGET_LINES[R.M_BOUNCE]
BOLERO_OPEN = TARGET_LINES[R.M_BOLERO]
MANIAC_BEWILDERS = TARGET_LINES[R.M_MANIAC]
NMR_LINE = TARGET_LINES[R.M_NMR]
CONDITIONAL_LINE = THROWER_LINES[R.M_CONDITIONAL]
_REACH = R.THROWS["rattlesnake"].range
_CLOSER = R.range_modifier(_REACH - 1, _REACH)[1]
_FARTHER = R.range_modifier(_REACH + 1, _REACH)[1]

_side_words = {side: _listed(cells) for side, cells in GARDEN.avalanche.items()}
_path = _GARDEN["path"]
_ordinary_step = next((a, b) for a in GARDEN.hexes for b in GARDEN.neighbours(a)
                      if b != KITCHEN and not (GARDEN.on_path(a) and GARDEN.on_path(b)))
STEP_MF = mf(GARDEN.step_cost(*_ordinary_step))
PATH_MF = mf(GARDEN.step_cost(_path[0], _path[1]))
KITCHEN_MF = mf(GARDEN.step_cost(GARDEN.kitchen_door, KITCHEN))
SEGMENT_MF = mf(MF_PER_SEGMENT)

THROW_WORDS: dict[str, str] = {
    "rattlesnake": "The plain throw, straight at one opponent you name. You may name \"the nearest "
                   f"opponent\" instead (picked once the segment's moves are done), at {_pct(R.NEAREST_PENALTY)}.",
    "baker": "A throw at one opponent you name while bouncing about. Either bounce on the spot, so that "
             f"every throw at you this segment is at {_pct(BOUNCE)}, or bounce to a free neighbouring hex "
             "once all the throws have landed (a free move).",
    "bolero": "A sneaky double: one snowball at each of two opponents you name, each with its own roll. "
              f"It leaves you open: throws at you this segment are at {_pct(BOLERO_OPEN)}.",
    "maniac": "No snowball needed: you scoop up snow and fling it everywhere. Everyone else within "
              f"{_hexes(R.THROWS['maniac'].range)} has its own roll to lose the damage, but you score no "
              f"VPs for it. The bewilderment puts every throw at you this segment at {_pct(MANIAC_BEWILDERS)}.",
    "dirigible": "A football-sized snowball lobbed at one opponent you name. When you move, a Dirigible is "
                 "all you can carry.",
    "storm": f"A throw at a conifer ({_listed(GARDEN.conifers)}). If it hits, the snow falls "
             f"{R.STORM_FALL_CHANCE}% of the time: {R.STORM_CONIFER_DAMAGE} HP to whoever stands on the "
             f"conifer's hex and {R.STORM_AROUND_DAMAGE} HP to everyone on the hexes around it, you included "
             "(no VPs for hitting yourself). A conifer's snow falls once a game.",
    "avalanche": f"A Dirigible dropped on the shed roof ({GARDEN.shed}), naming its north or south side. If "
                 f"it hits the shed, the snow slides {R.AVALANCHE_CHANCE}% of the time, and "
                 f"{R.AVALANCHE_SIDE_CHANCE}% of those times off the side you named (else off the other). "
                 f"Everyone under that side (north: {_side_words['N']}; south: {_side_words['S']}) takes the "
                 f"damage; {_listed(_GARDEN['avalanche_safe'])} is safe. Each side slides once a game.",
}


def throw_rows() -> list[tuple[str, tuple[str, ...]]]:
    """One row a throw the engine knows: name, range, base chance, damage, ammunition, what it does."""
    return [(f"throw-{key}", (t.name, _hexes(t.range), f"{t.chance}%", f"{t.damage} HP", ammunition(t),
                              THROW_WORDS.get(key, "")))
            for key, t in R.THROWS.items()]


def move_rows() -> list[tuple[str, tuple[str, ...]]]:
    cost = R.COLLECT_COST
    return [
        ("mf-segment", ("Movement factors a segment", SEGMENT_MF,
                        "Spend them in any order on moving and collecting.")),
        ("mf-step", ("Enter a neighbouring hex", STEP_MF, "Any hex but the shed; you may pass through "
                                                        "other combatants.")),
        ("mf-path", ("Step from one path hex to the next", PATH_MF, "So the path doubles your speed.")),
        ("mf-kitchen", (f"Step between {GARDEN.kitchen_door} and the kitchen", KITCHEN_MF,
                        "Inside, snowballs melt and nobody can throw or be hit.")),
        ("mf-collect-ss", ("Collect a simple snowball", mf(cost["ss"]), "Two at most a segment; never on "
                                                                       "the path.")),
        ("mf-collect-dd", ("Collect a Doubleday Dirigible", mf(cost["dd"]), "A whole segment's worth.")),
        ("mf-collect-head", ("Take a snowman's head", mf(cost["head"]),
                             f"Standing on a snowman ({_listed(GARDEN.snowmen)}): a ready-made Dirigible, "
                             "once per snowman.")),
    ]


def _line_id(label: str) -> str:
    """An anchor from a line's words: "Target on conifer hex" -> "line-target-on-conifer-hex"."""
    return "line-" + re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def _condition_words(words: str) -> str:
    """A condition of rule 13 as the orders form words it, for the page ("value" is the number you give)."""
    for engine_words, page_words in (("value hexes", "a given number of hexes"),
                                     ("value snowballs", "a given number of snowballs"),
                                     ("value", "a given number"), ("that seat", "a given player"),
                                     ("that hex", "a given hex")):
        words = words.replace(engine_words, page_words)
    return words[0].upper() + words[1:] + "."


def hit_chance_rows() -> list[tuple[str, tuple[str, ...]]]:
    rows = [(_line_id(label), (label, _pct(value))) for label, value in {**TARGET_LINES, **THROWER_LINES}.items()]
    rows += [("line-nearest", (R.M_NEAREST, _pct(R.NEAREST_PENALTY))),
             ("line-closer", ("Target closer than the throw's range, per hex", _pct(_CLOSER))),
             ("line-farther", ("Target beyond the throw's range, per hex", _pct(_FARTHER)))]
    return rows


BOOK: tuple[dict[str, Any], ...] = (
    {"id": "start", "title": "Start and goal",
     "text": (f"{MIN_PLAYERS} to {MAX_PLAYERS} players, each running one snow warrior with a nom de guerre, "
              f"{START_SS} simple snowballs and {START_HP} hit points (HP). If you choose no name you are given "
              f"one ({', '.join(DEFAULT_NAMES[:3])} and so on).",
              "Every HP of damage you deal scores you one victory point (VP); the Mendham Maniac scores none. "
              f"The first to {VICTORY_VPS} VPs wins, and everyone who reaches it in the same segment shares the "
              "win. The damage you take only matters because it can send you to the kitchen, and it feeds "
              "the others' VPs.")},
    {"id": "the-garden", "title": "The garden", "board": True,
     "text": (f"The garden is a map of hexes in {GARDEN.cols} straight columns (1 to {GARDEN.cols}, west to "
              f"east) with row letters A to {_GARDEN['rows'][-1]} from north to south, each row half a hex "
              f"below the last: {len(GARDEN.hexes)} hexes from A1 to W13. The house is to the south; its "
              f"kitchen door is below {GARDEN.kitchen_door}.",
              "Any number of combatants may pass through a hex in a move, but only one may end there. "
              "Before the first turn each player ranks the start hexes; clashes are settled at random."),
     "tables": (_table("garden-features", "What is in the garden", ("Feature", "Hexes", "What it means"), [
         ("feature-starts", ("Start hexes", _listed(GARDEN.starts), "Where the combatants begin.")),
         ("feature-path", ("The path", _listed(_path), f"No snow to collect; a step along it costs {PATH_MF} MF.")),
         ("feature-conifers", ("Conifers", _listed(GARDEN.conifers),
                               f"No throw passes through one. Standing on one: {_pct(TARGET_LINES[R.M_CONIFER])} "
                               "to be hit. Can be stormed.")),
         ("feature-near-conifers", ("Next to a conifer", _listed(_GARDEN["conifer_adjacent"]),
                                    f"{_pct(TARGET_LINES[R.M_NEAR_CONIFER])} to be hit there.")),
         ("feature-snowmen", ("Snowmen", _listed(GARDEN.snowmen),
                              f"{_pct(TARGET_LINES[R.M_SNOWMAN])} to be hit there; each head is a Dirigible.")),
         ("feature-shed", ("The shed", GARDEN.shed, "Nobody may enter it. Throws over it have half the chance; "
                                                    "its roof can avalanche.")),
         ("feature-avalanche", ("Under the roof", f"north: {_side_words['N']}; south: {_side_words['S']}",
                                f"Hit by a Shed Avalanche on that side. {_listed(_GARDEN['avalanche_safe'])} "
                                "is safe.")),
         ("feature-kitchen", ("The kitchen", f"below {GARDEN.kitchen_door}",
                              "A safe, warm place: nobody can be hit inside, snowballs melt there.")),
     ]),)},
    {"id": "turns", "title": "Turns and segments",
     "text": (f"A turn has {SEGMENTS} segments, and you do one thing a segment. At the start of a turn everyone "
              f"writes orders for all {SEGMENTS} segments in secret; when everyone is ready the site reveals "
              "them and plays them out as a game master would.",
              "Within a segment everything happens at once, in three steps: first all the moves, then all the "
              "collecting, then all the throws. When two combatants end a move on the same hex the faster one "
              "gets it: one that collects and moves in that segment is always the slower, whichever it does "
              "first; otherwise the one that spent fewer MF, a collector losing a tie, and otherwise chance "
              "decides; the other stops one hex short. After the turn everyone reads the report of what "
              "happened.")},
    {"id": "moving-and-collecting", "title": "Moving and collecting",
     "text": ("A segment's order can be a move, collecting snowballs, both (collect and move, in either order), "
              "a throw, or standing still. Moving and collecting are paid for in movement factors (MF):",),
     "tables": (_table("mf-costs", "What moving and collecting cost", ("Action", "MF", "Notes"), move_rows()),),
     "after": ("When you move you can carry two simple snowballs or one Dirigible; anything more you were "
               "holding is trampled where you stood, so pick up before you leave.",)},
    {"id": "throws", "title": "The throws",
     "text": ("A throw takes the whole segment. Range is counted in hexes along the shortest way that does not "
              "pass through a conifer; a target closer than the throw's range is easier to hit and one beyond "
              "it harder (see the hit chance). Each hit costs the target the damage and scores it for you in "
              "VPs.",),
     "tables": (_table("throw-table", "The table of throws",
                       ("Throw", "Range", "Chance", "Damage", "Uses", "What it does"), throw_rows()),)},
    {"id": "hit-chance", "title": "The chance to hit",
     "text": ("A throw's chance starts from the table of throws. Add every line below that applies, then halve "
              "it (rounding down) if the throw passes over the shed. The site rolls a d100: at or under the "
              f"number hits, but 01 to {R.ALWAYS_HITS:02d} always hits and {R.ALWAYS_MISSES} to 00 always "
              "misses. While you write your orders the site shows each throw's chance as far as it is known.",),
     "tables": (_table("hit-lines", "Hit chance adjustments", ("When", "Chance"), hit_chance_rows()),)},
    {"id": "snowballs", "title": "Snowballs",
     "text": ("Snowballs you have collected last for ever (it is very cold). A thrown snowball is gone, hit or "
              "miss. You may stand on a pile of any size, but moving away you take only two simple snowballs or "
              "one Dirigible and trample the rest.",)},
    {"id": "hit-points", "title": "Hit points and the kitchen",
     "text": ("At 0 HP you run for the kitchen as fast as you can, whatever your orders said; nobody may throw at "
              f"you on the way. There you dry your socks for {DRYING_SEGMENTS} segments, then come out at "
              f"{GARDEN.kitchen_door} with {START_HP} HP and {WINDOWSILL_SS} simple snowballs from the "
              "windowsill. You may also go into the kitchen to hide whenever you like.",)},
    {"id": "diplomacy", "title": "Diplomacy",
     "text": ("Talk, plot and make deals in the table talk, in public or in private messages; witty messages "
              "are encouraged. Nothing said binds anyone.",)},
    {"id": "nmr", "title": "No orders",
     "text": ("A player who sends no orders for a turn stands still and admires the sky all turn: throws at them "
              f"are at {_pct(NMR_LINE)}. Sending none again the next turn sends them running for the kitchen "
              "for good; they can still be hit until they get there.",)},
    {"id": "rule-12", "title": "Optional rule 12: 00 spells disaster",
     "text": ("If a throw's d100 comes up 00, the thrower slips: every snowball they hold breaks, they take "
              f"{R.DISASTER_DAMAGE} HP (no VPs to anyone) and spend the next segment getting up.",)},
    {"id": "rule-13", "title": "Optional rule 13: conditional orders",
     "text": ("The third segment's order may depend on what happened in the first two: up to three cases, tried "
              "in order, and an order for otherwise. Every throw in such an order is at "
              f"{_pct(CONDITIONAL_LINE)}. The cases you can write:",),
     "bullets": tuple(_condition_words(words) for words in CONDITIONS.values())},
    {"id": "rule-14", "title": "Optional rule 14: slip sliding away",
     "text": (f"A move at full tilt (one that uses all {SEGMENT_MF} MF) has a {R.SLIP_CHANCE}% chance of ending in "
              "a fall, with the same effect as a 00.",)},
    {"id": "fogbound", "title": "The Fogbound variant",
     "text": _fogbound_text()},
)

BOARD = {"players": 4, "seed": 2026, "caption": "The garden of a new game, as the game page draws it: "
                                                "the path in brown, conifers and snowmen, the shed with the "
                                                "hexes under its roof, the kitchen, and ★ on the start hexes."}


def board_state() -> dict[str, Any]:
    """The new game the page draws the garden from."""
    return new_game(players=BOARD["players"], options={}, seed=BOARD["seed"])
