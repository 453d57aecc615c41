"""The computer player for What a Snowball!

:func:`choose_action` reads only its seat's view (no other seat's cards, no generator
state) and plays sensibly: gather before throwing, aim with spare dice, close to a good
range, throw when the odds are fair, cheat only where nobody can be caught (against a
Snowman, or as a Snowman), keep a Kid out of sight when it is low on Command Dice, and get
up when knocked down.

:func:`random_action` picks any legal action with random details, from a
``random.Random`` it is handed; tests use it to explore the rules.
"""
from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from .geometry import Walker, distance, line_of_fire, terrain_for

Action = dict[str, Any]
View = dict[str, Any]

GOOD_GAP = 5.0
LOW_DICE = 2
SIGHT_BONUS = 3.0  # inches off the good range a MOVE gives up to end where its target can be seen
SIGHT_CHECKED = 30  # the spots nearest the good range whose line of fire a MOVE checks
PLACE_FROM_CORNER = 4.0  # inches from its corner a Kid is set up at: out of the corner, with room to move
PLACE_APART = 3.0  # inches a Kid is set up from the Kids already placed, at most, before being nearer the mark


def hit_chance(needs: int, modifier: int) -> float:
    """Chance that 2D6 + ``modifier`` reaches ``needs`` (a natural 12 always hits, a natural 2 always misses)."""
    hits = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        total = a + b
        if total == 12 or (total != 2 and total + modifier >= needs):
            hits += 1
    return hits / 36


def _region(legal: Action) -> np.ndarray:
    """The MOVE's reachable area as the engine lists it: polygons that may overlap."""
    return np.array([Polygon(r["outer"], r["holes"]) for r in legal["region"]], dtype=object)


def _bases(view: View) -> list[tuple[str, list[float], float]]:
    return [(k["id"], k["pos"], k["radius"]) for k in view["kids"].values() if k["pos"] is not None and not k["home"]]


def _enemies(view: View, kid: dict[str, Any]) -> list[dict[str, Any]]:
    return [k for k in view["kids"].values() if k["team"] != kid["team"] and k["pos"] is not None and not k["home"]]


def _cheat_is_safe(me: dict[str, Any], them: dict[str, Any]) -> bool:
    return me["sheet"]["type"] == "snowman" and them["sheet"]["type"] != "penguin" or them["sheet"]["type"] == "snowman"


def choose_action(view: View) -> Action:
    """A sensible legal action for the viewing seat."""
    legal = view["legal_actions"]
    prompt = view["prompt"]
    kinds = {a["type"] for a in legal}
    if prompt is None:
        raise ValueError("the computer player is not being asked anything")
    if "corner" in kinds:
        return {"type": "corner", "corner": next(a["corner"] for a in legal if a["type"] == "corner")}
    if "place" in kinds:
        return _choose_placement(view, next(a for a in legal if a["type"] == "place"))
    if "roll" in kinds:  # asked at the start of an activation, whether or not it holds "I'm not done yet!"
        kid = view["kids"][view["activation"]["kid"]]
        not_done = {"type": "play_card", "card": "not_done"}
        if kid["command_dice"] <= 3 and not_done in legal:
            return not_done
        return {"type": "roll"}
    if "move_to" in kinds:
        return _choose_spot(view, next(a for a in legal if a["type"] == "move_to"))
    if prompt["kind"] == "reaction":  # asked whenever it holds a card: it may have none to play
        for card in ("dork", "grandma", "miracle"):
            if {"type": "play_card", "card": card} in legal:
                return {"type": "play_card", "card": card}
        return {"type": "decline"}
    return _spend(view, legal)


def _choose_placement(view: View, place: Action) -> Action:
    """Where to set a Kid up: a point of the allowed area about ``PLACE_FROM_CORNER`` from its
    corner and apart from the Kids already placed, so that no Kid is boxed into the corner by
    its team mates; the engine's example spot when the area has no point with room around it."""
    size = float(view["village"]["size"][1])
    radius = place["piece_radius"]
    area = shapely.union_all([shapely.Point(c).buffer(place["within"], 32) for c in place["corners"]])
    area = area.intersection(shapely.box(radius, radius, size - radius, size - radius))
    blocked = [shapely.Point(a["center"]).buffer(a["radius"], 32) if a["kind"] == "circle"
               else Polygon(a["points"]).buffer(a["clearance"], 8) for a in place["must_avoid"]]
    if blocked:
        area = area.difference(shapely.union_all(blocked))
    inner = area.buffer(-0.1)
    if inner.is_empty:
        return dict(place["example"])
    x0, y0, x1, y1 = inner.bounds
    xs, ys = np.meshgrid(np.arange(math.floor(x0), x1 + 0.5, 0.5), np.arange(math.floor(y0), y1 + 0.5, 0.5))
    xs, ys = xs.ravel(), ys.ravel()
    inside = shapely.contains_xy(inner, xs, ys)
    if not inside.any():
        return dict(place["example"])
    spots = np.column_stack([xs[inside], ys[inside]])
    score = -np.abs(_nearest(spots, place["corners"]) - PLACE_FROM_CORNER)
    others = [a["center"] for a in place["must_avoid"] if a["kind"] == "circle"]
    if others:
        score += 2 * np.minimum(_nearest(spots, others), PLACE_APART)
    x, y = spots[int(np.argmax(score))]
    return {"type": "place", "kid": place["kid"], "to": [round(float(x), 4), round(float(y), 4)]}


def _nearest(spots: np.ndarray, points: list[list[float]]) -> np.ndarray:
    """Each spot's distance to the nearest of ``points``."""
    points = np.asarray(points, dtype=float)
    return np.min(np.hypot(spots[:, None, 0] - points[None, :, 0], spots[:, None, 1] - points[None, :, 1]), axis=1)


def _spend(view: View, legal: list[Action]) -> Action:
    kid = view["kids"][view["activation"]["kid"]]
    tray = view["activation"]["tray"]
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    wild = [a for a in by_type.get("wild", [])]
    if kid["down"]:
        get_up = [a for a in wild if a["use"] == "get_up"]
        return get_up[0] if get_up else {"type": "end_activation"}
    cards = by_type.get("play_card", [])
    if any(a["card"] == "miracle" for a in cards):
        return {"type": "play_card", "card": "miracle"}
    if not kid["snowballs"] and any(a["card"] == "saving" for a in cards):
        return {"type": "play_card", "card": "saving", "choice": "two_3"}
    throws = _good_throws(view, kid, by_type.get("throw", []))
    throw_dice = sorted({a["die"] for a in by_type.get("throw", [])})
    natural_throw_dice = [v for v in tray if v != 6 and "THROW" in kid["sheet"]["faces"][str(v)]]
    if throws:
        best_chance, best = throws[0]
        aims = [a for a in by_type.get("aim", []) if a["die"] != 6]
        spare_throws = len(natural_throw_dice) + tray.count(6)
        if aims and best_chance < 0.9 and spare_throws >= 1 and len(tray) >= 2:
            return aims[0]
        if best_chance >= 0.25 or len(tray) <= 1 or not by_type.get("move"):
            return best
    if kid["command_dice"] <= LOW_DICE and by_type.get("move") and _seen_by_enemies(view, kid, kid["pos"]):
        return _prefer_die(by_type["move"], 1)
    gathers = by_type.get("gather", [])
    if gathers and (len(kid["snowballs"]) < 2 or not throw_dice):
        natural = [a for a in gathers if a["die"] != 6] or gathers
        grow = [a for a in natural if a.get("make") == "grow" and a["size"] == max(kid["snowballs"])]
        new = [a for a in natural if a.get("make") == "new"]
        if kid["snowballs"] and grow and max(kid["snowballs"]) < 3:
            return grow[0]
        if new:
            return new[0]
    moves = [a for a in by_type.get("move", []) if not a.get("slide")]
    slides = [a for a in by_type.get("move", []) if a.get("slide")]
    if kid["snowballs"] and (moves or slides) and not _good_throws(view, kid, by_type.get("throw", []), 0.4) \
            and not _placed_well(view, kid):
        return _prefer_die(slides or moves, 1)
    aims = [a for a in by_type.get("aim", []) if a["die"] != 6]
    if aims and kid["snowballs"] and (throw_dice or 6 in tray):
        return aims[0]
    if gathers:
        natural = [a for a in gathers if a["die"] != 6]
        grow = [a for a in natural if a.get("make") == "grow"]
        if grow:
            return max(grow, key=lambda a: a["size"])
        if natural:
            return natural[0]
    recover = [a for a in wild if a["use"] == "recover"]
    if recover:
        return recover[0]
    if throws:
        return throws[0][1]
    prepare = [a for a in wild if a["use"] == "prepare"]
    if prepare:
        return prepare[0]
    if moves and len(tray) == 1 and 1 in tray:
        return _prefer_die(moves, 1)
    return {"type": "end_activation"}


def _prefer_die(actions: list[Action], value: int) -> Action:
    return next((a for a in actions if a["die"] == value), next((a for a in actions if a["die"] != 6), actions[0]))


def _good_throws(view: View, kid: dict[str, Any], throws: list[Action], least: float = 0.0) -> list[tuple[float, Action]]:
    """Throws worth making, best first: (chance to hit, action)."""
    lines = {line["to"]: line for line in view["lines_of_fire"]}
    scored = []
    for action in throws:
        target = view["kids"][action["target"]]
        line = lines.get(action["target"])
        if line is None:
            continue
        if line["too_close"] and not _cheat_is_safe(kid, target):
            continue
        size = 4 if action["snowball"] == "self" else action["snowball"]
        modifier = sum(m["value"] for m in line["modifiers_without_size"]) + (1 if size in (2, 3) else 2 if size >= 4 else 0)
        chance = 1.0 if line["too_close"] else hit_chance(line["needs"], modifier)
        if "pitch" in action["cards"]:
            chance = min(1.0, chance + 0.15)
        value = chance * (1 + size / 5) + (0.05 if "ice" in action["cards"] else 0) \
            - (0.3 if action["snowball"] == "self" else 0) - 0.01 * len(action["cards"]) \
            - (0.02 if action["die"] == 6 else 0)
        if chance >= least:
            scored.append((value, chance, action))
    scored.sort(key=lambda t: -t[0])
    return [(chance, action) for _, chance, action in scored]


def _seen_by_enemies(view: View, kid: dict[str, Any], spot: list[float]) -> bool:
    terrain = terrain_for(view["village"]["terrain"])
    bases = [(i, spot if i == kid["id"] else pos, r) for i, pos, r in _bases(view)]
    return any(line_of_fire(terrain, bases, enemy["id"], kid["id"])["visible"] for enemy in _enemies(view, kid)
               if enemy["snowballs"] or enemy["sheet"]["type"] == "snowman")


def _choose_spot(view: View, legal: Action) -> Action:
    """Where to move: close to a good range of the nearest enemy, where it can be seen to throw
    at, or out of sight when low on dice. The reachable spots are ranked by their range alone,
    and only the ``SIGHT_CHECKED`` best are looked at for lines of fire."""
    kid = view["kids"][legal["kid"]]
    region = _region(legal)
    start = legal["from"]
    terrain = terrain_for(view["village"]["terrain"])
    bases = _bases(view)
    walker = Walker(terrain, bases, kid["id"], start, kid["radius"],
                    extra=tuple(p["id"] for p in view["village"]["terrain"] if p["snowless"])
                    if legal["keeps_off_snowless"] else (), extra_radius=0.0)
    enemies = _enemies(view, kid)
    hide = kid["command_dice"] <= LOW_DICE

    def score(spot: list[float]) -> float:
        return _range_score(kid, spot, enemies, hide) + _sight_score(kid, spot, enemies, hide, bases, terrain)

    ranked = sorted(_candidates(region, start, legal["roll"]), key=lambda p: _range_score(kid, p, enemies, hide),
                    reverse=True)[:SIGHT_CHECKED]
    best, best_score = list(start), score(start)
    for spot_score, spot in sorted(((score(p), p) for p in ranked), key=lambda sp: -sp[0])[:12]:
        if walker.path_length(spot, legal["roll"]) is not None:
            if spot_score > best_score:
                best = [round(spot[0], 4), round(spot[1], 4)]
            break
    return {"type": "move_to", "to": best}


def _placed_well(view: View, kid: dict[str, Any]) -> bool:
    """Whether the Kid already stands about ``GOOD_GAP`` from its nearest enemy, with that enemy
    in its line of fire: a MOVE would end where it started."""
    enemies = _enemies(view, kid)
    if not enemies:
        return False
    gap = min(distance(kid["pos"], e["pos"]) - kid["radius"] - e["radius"] for e in enemies)
    return abs(gap - GOOD_GAP) <= 1.5 and _sight_score(kid, kid["pos"], enemies, False, _bases(view),
                                                       terrain_for(view["village"]["terrain"])) > 0


def _sight_score(kid: dict[str, Any], spot: list[float], enemies: list[dict[str, Any]], hide: bool, bases: list,
                 terrain: Any) -> float:
    """What the lines of fire from ``spot`` add to its score: hiding, -4 for each enemy that could
    throw at the Kid there; otherwise ``SIGHT_BONUS`` when the nearest enemy could be thrown at."""
    if not enemies:
        return 0.0
    moved = [(i, spot if i == kid["id"] else pos, r) for i, pos, r in bases]
    if hide:
        return -4.0 * sum(1 for e in enemies if line_of_fire(terrain, moved, e["id"], kid["id"])["visible"])
    target = min(enemies, key=lambda e: distance(spot, e["pos"]) - e["radius"])
    return SIGHT_BONUS if line_of_fire(terrain, moved, kid["id"], target["id"])["visible"] else 0.0


def _candidates(region: np.ndarray, start: list[float], roll: float) -> list[list[float]]:
    """Grid points a little inside one of the reachable region's polygons."""
    steps = np.linspace(-roll, roll, 25)
    xs, ys = np.meshgrid(start[0] + steps, start[1] + steps)
    xs, ys = xs.ravel(), ys.ravel()
    inside = np.zeros(len(xs), dtype=bool)
    for inner in shapely.buffer(region, -0.05):
        inside |= shapely.contains_xy(inner, xs, ys)
    return [[float(x), float(y)] for x, y in zip(xs[inside], ys[inside])]


def _range_score(kid: dict[str, Any], spot: list[float], enemies: list[dict[str, Any]], hide: bool) -> float:
    """How good ``spot``'s range to the nearest enemy is: near ``GOOD_GAP``, or far when hiding;
    never within reach of a shove."""
    if not enemies:
        return 0.0
    nearest = min(distance(spot, e["pos"]) - kid["radius"] - e["radius"] for e in enemies)
    score = -abs(nearest - GOOD_GAP) if not hide else min(nearest, 10.0)
    return score - 5 if nearest < 1.2 else score


def random_action(view: View, rng: random.Random) -> Action:
    """Any legal action with random details (a random reachable spot for a move)."""
    legal = [a for a in view["legal_actions"] if a["type"] not in ("set_never_ask", "surrender")]
    choice = rng.choice(legal)
    if choice["type"] == "place":
        return dict(choice["example"])
    if choice["type"] == "move_to":
        region = _region(choice)
        points = _candidates(region, choice["from"], choice["roll"])
        kid = view["kids"][choice["kid"]]
        terrain = terrain_for(view["village"]["terrain"])
        walker = Walker(terrain, _bases(view), kid["id"], choice["from"], kid["radius"],
                        extra=tuple(p["id"] for p in view["village"]["terrain"] if p["snowless"])
                        if choice["keeps_off_snowless"] else (), extra_radius=0.0)
        rng.shuffle(points)
        if choice["shove"] and rng.random() < 0.6:
            for enemy_id in choice["shove"]:
                enemy = view["kids"][enemy_id]
                reach = kid["radius"] + enemy["radius"]
                dx, dy = choice["from"][0] - enemy["pos"][0], choice["from"][1] - enemy["pos"][1]
                length = math.hypot(dx, dy) or 1.0
                spot = [round(enemy["pos"][0] + dx / length * reach, 4), round(enemy["pos"][1] + dy / length * reach, 4)]
                if walker.path_length(spot, choice["roll"]) is not None:
                    return {"type": "move_to", "to": spot, "shove": enemy_id}
        for spot in points[:10]:
            if walker.path_length(spot, choice["roll"]) is not None:
                action: Action = {"type": "move_to", "to": [round(spot[0], 4), round(spot[1], 4)]}
                touching = [e for e in choice["shove"] if math.isclose(
                    distance(spot, view["kids"][e]["pos"]), kid["radius"] + view["kids"][e]["radius"], abs_tol=0.01)]
                if touching and rng.random() < 0.5:
                    action["shove"] = touching[0]
                return action
        return {"type": "move_to", "to": list(choice["from"])}
    return {k: v for k, v in choice.items()}
