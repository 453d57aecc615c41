"""Computer players for Jingle Bells.

:func:`choose_action` is the computer opponent: it reads only the view its seat is
given (no sealed allocation, no generator state) and plays greedily: knock heads off
snowmen, hit what it can hit, dodge when it can, and move towards range and out of
enemy sight lines.

:func:`random_action` plays a uniformly chosen kind of legal action with random
details, from a ``random.Random`` it is handed; tests and benchmarks use it.
"""
from __future__ import annotations

import itertools
import math
import random
from typing import Any

from .geometry import distance, obstacle, placement_problem, sight_clear, within

Action = dict[str, Any]
View = dict[str, Any]

PICK_ORDER = ("Paul", "Stephen", "Robert", "Emily", "Natasha", "Bianca")
SHIFTER = "Stephen"


# --- reading the view -------------------------------------------------------------------

def _faces(view: View, name: str, value: int) -> list[str]:
    """Symbols a die can stand for on ``name``'s card (Stephen's one higher or lower included)."""
    faces = view["cards"][name]["faces"]
    values = [value] + ([v for v in (value - 1, value + 1) if 1 <= v <= 6] if name == SHIFTER else [])
    return [faces[str(v)] for v in values]


def _enemy_seat(view: View) -> int:
    return 1 - view["viewer"]


def _on_field(view: View, seat: int, kind: str | None = None) -> list[dict[str, Any]]:
    return [p for p in view["pieces"].values()
            if p["seat"] == seat and p["pos"] is not None and (kind is None or p["kind"] == kind)]


def _sees(view: View, pieces: dict[str, Any], a: str, b: str, limit: float) -> bool:
    if not within(distance(pieces[a]["pos"], pieces[b]["pos"]), limit):
        return False
    return sight_clear(pieces, view["obstructions"], a, b)


def _can_dodge(view: View, piece: dict[str, Any]) -> int:
    return sum(1 for v in piece["dice"] if "D" in _faces(view, piece["name"], v))


def _can_throw(view: View, piece: dict[str, Any]) -> bool:
    return any(sym in ("T", "TT") for v in piece["dice"] for sym in _faces(view, piece["name"], v))


# --- scoring places and dice ------------------------------------------------------------

def _spot_score(view: View, name: str, spot: list[float], dice_after: list[int]) -> float:
    """How good it is for ``name`` to stand at ``spot`` with ``dice_after`` still on its card."""
    me = view["viewer"]
    table = view["table"]
    pieces = dict(view["pieces"])
    pieces[name] = dict(pieces[name], pos=spot)
    throws_left = any(sym in ("T", "TT") for v in dice_after for sym in _faces(view, name, v))
    snowman = f"snowman{1 - me}"
    score = 0.0
    gap = distance(spot, pieces[snowman]["pos"])
    if _sees(view, pieces, name, snowman, table["snowball_distance"]):
        score += 6.0 + (3.0 if throws_left else 0.0)
    else:
        score -= 0.3 * max(0.0, gap - table["snowball_distance"] + 1.0)
    revealed = view["dice"][1 - me]["stage"] == "revealed"
    for enemy in _on_field(view, 1 - me, "character"):
        if _sees(view, pieces, name, enemy["id"], table["snowball_distance"]):
            score += 1.0 + (1.5 if throws_left else 0.0)
            if revealed:
                score -= 2.0 if _can_throw(view, enemy) else 0.0
            else:
                score -= 0.8
    return score


Situation = tuple[bool, bool, bool]
"""(can throw at something from here, an enemy could reach and hit it this turn, Emily can charge)."""


def _situation(view: View, name: str) -> Situation:
    table = view["table"]
    me = view["viewer"]
    pieces = view["pieces"]
    in_range = any(_sees(view, pieces, name, p["id"], table["snowball_distance"]) for p in _on_field(view, 1 - me))
    reach = table["snowball_distance"] + table["move_distance"]
    pos = pieces[name]["pos"]
    threatened = any(distance(pos, p["pos"]) <= reach for p in _on_field(view, 1 - me, "character"))
    charge = name == "Emily" and _sees(view, pieces, name, f"snowman{1 - me}", table["move_distance"])
    return in_range, threatened, charge


def _die_score(view: View, name: str, value: int, situation: Situation) -> float:
    in_range, threatened, charge = situation
    worth = {
        "T": 3.0 if in_range else 1.5,
        "TT": 4.0 if in_range else 2.0,
        "M": 1.0 if in_range else 2.5,
        "MM": 1.5 if in_range else 3.0,
        "D": 1.8 if threatened else 0.4,
    }
    return max([worth[sym] for sym in _faces(view, name, value)] + [5.0 if charge else 0.0])


def _pair_score(view: View, name: str, pair: tuple[int, int], situation: Situation) -> float:
    """Two dice for one character: their worth, plus a bonus for move-then-throw and Paul's double throw."""
    score = sum(_die_score(view, name, v, situation) for v in pair)
    first, second = (set(_faces(view, name, v)) for v in pair)
    moves, throws = {"M", "MM"}, {"T", "TT"}
    if not situation[0] and (first & moves and second & throws or second & moves and first & throws):
        score += 1.5
    if name == "Paul" and all(v in (4, 5) for v in pair):
        score += 1.0
    return score


def _best_allocation(view: View, dice: list[int], names: list[str]) -> dict[str, list[int]]:
    """The allocation with the highest total pair score, tried exhaustively (at most 90 ways)."""
    situations = {name: _situation(view, name) for name in names}

    def best_for(remaining: list[int], left: list[str]) -> tuple[float, dict[str, list[int]]]:
        if not left:
            return 0.0, {}
        name = left[0]
        found: tuple[float, dict[str, list[int]]] | None = None
        for pair in sorted(set(itertools.combinations(remaining, 2))):
            rest = list(remaining)
            rest.remove(pair[0])
            rest.remove(pair[1])
            score, allocation = best_for(rest, left[1:])
            score += _pair_score(view, name, pair, situations[name])
            if found is None or score > found[0]:
                found = (score, {name: list(pair), **allocation})
        assert found is not None
        return found

    return best_for(sorted(dice), names)[1]


# --- choosing -----------------------------------------------------------------------------

def choose_action(view: View) -> Action:
    """The computer player's action for the seat whose view this is."""
    view = dict(view, obstructions=[obstacle(o["points"], id=o["id"], label=o["label"]) for o in view["obstructions"]])
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    if "pick" in kinds:
        pool = [a["character"] for a in legal if a["type"] == "pick"]
        return {"type": "pick", "character": next(n for n in PICK_ORDER if n in pool)}
    if "deploy" in kinds:
        return next(a for a in legal if a["type"] == "deploy")["example"]
    if "react" in kinds:
        return _react(view, [a for a in legal if a["type"] == "react"])
    if "reroll" in kinds:
        return _reroll(view)
    if "allocate" in kinds:
        names = next(a for a in legal if a["type"] == "allocate")["characters"]
        return {"type": "allocate", "allocation": _best_allocation(view, view["dice"][view["viewer"]]["rolled"], names),
                "lock": True}
    if "return" in kinds:
        option = next(a for a in legal if a["type"] == "return")
        return {"type": "return", "character": option["character"], "y": option["example_y"]}
    if view.get("followup"):
        return _best_turn_action(view, legal, fallback=_second_half_fallback(view, legal))
    if "pass" in kinds:
        return _best_turn_action(view, legal, fallback={"type": "pass"})
    raise ValueError("the computer player is not being asked anything")


def _second_half_fallback(view: View, legal: list[Action]) -> Action:
    """A double's second half when nothing scores: stay put, throw at the first target, or skip
    a throw that has none."""
    first = legal[0]
    if first["type"] == "move":
        return {"type": "move", "character": first["character"], "to": first["center"]}
    if first["type"] == "throw":
        return {"type": "throw", "character": first["character"], "target": first["target"]}
    return {"type": "skip"}


def _reroll(view: View) -> Action:
    me = view["viewer"]
    names = [p["name"] for p in _on_field(view, me, "character")]
    situations = {name: _situation(view, name) for name in names}

    def worth(value: int) -> float:
        return max(_die_score(view, n, value, situations[n]) for n in names)

    expected = sum(worth(v) for v in range(1, 7)) / 6
    rolled = view["dice"][me]["rolled"]
    return {"type": "reroll", "dice": sorted(v for v in rolled if worth(v) < expected - 0.3)}


def _react(view: View, options: list[Action]) -> Action:
    dodges = [o for o in options if o["choice"] == "dodge"]
    pending = view["pending"]
    target = view["pieces"][pending["target"]]
    if dodges:
        return next((d for d in dodges if "as" not in d), dodges[0])
    intercepts = [o for o in options if o["choice"] == "intercept"]
    if intercepts:
        robert = view["pieces"]["Robert"]
        about_to_run = target["cold"] + 1 >= target["cold_limit"]
        robert_safe = robert["cold"] + 1 < robert["cold_limit"]
        if target["kind"] == "snowman" or (about_to_run and robert_safe):
            return min(intercepts, key=lambda o: _die_value_to(view, "Robert", o["die"]))
    return {"type": "react", "choice": "take"}


def _die_value_to(view: View, name: str, value: int) -> float:
    return _die_score(view, name, value, _situation(view, name))


def _best_turn_action(view: View, legal: list[Action], fallback: Action) -> Action:
    best: tuple[float, Action] = (0.0, fallback)
    for option in legal:
        scored = _score_option(view, option)
        if scored is not None and scored[0] > best[0]:
            best = scored
    return best[1]


def _score_option(view: View, option: Action) -> tuple[float, Action] | None:
    kind = option["type"]
    if kind == "throw":
        return _target_value(view, option["target"], 1) - _spend_cost(view, option), option
    if kind == "ability":
        return _ability_value(view, option), option
    if kind == "move":
        return _best_move(view, option)
    return None


def _spend_cost(view: View, option: Action) -> float:
    """A small price for using a die that could also dodge, so the bot spends plain dice first."""
    if "die" not in option:
        return 0.0
    return 0.3 if "D" in _faces(view, option["character"], option["die"]) else 0.0


def _target_value(view: View, target_id: str, hits: int) -> float:
    target = view["pieces"][target_id]
    if target["kind"] == "snowman":
        return 10.0 * hits + 5.0 * (target["cold"] + hits >= target["cold_limit"])
    dodges = _can_dodge(view, target)
    landing = max(0, hits - dodges)
    value = 2.0 + 2.0 * landing
    if target["cold"] + landing >= target["cold_limit"]:
        value += 3.0
    return value


def _ability_value(view: View, option: Action) -> float:
    name = option["character"]
    if name in ("Paul", "Emily"):
        return _target_value(view, option["target"], 2) + 0.5
    if name == "Bianca":
        target = view["pieces"][option["target"]]
        mine = target["seat"] == view["viewer"]
        own_die_useless = _faces(view, "Bianca", option["die"]) == ["D"]
        if mine or not own_die_useless:
            return 0.0
        return 1.0 * _can_dodge(view, target)
    return 0.0


def _best_move(view: View, option: Action) -> tuple[float, Action] | None:
    name = option["character"]
    piece = view["pieces"][name]
    dice_after = list(piece["dice"])
    if "die" in option:
        dice_after.remove(option["die"])
    here = piece["pos"]
    base = _spot_score(view, name, here, dice_after)
    best: tuple[float, list[float]] | None = None
    for spot in _candidate_spots(view, name, option):
        score = _spot_score(view, name, spot, dice_after) - 0.01 * distance(here, spot)
        if best is None or score > best[0]:
            best = (score, spot)
    if best is None or best[0] <= base + 0.25:
        return None
    action = {"type": "move", "character": name, "to": best[1]}
    if "die" in option:
        action["die"] = option["die"]
        if "as" in option:
            action["as"] = option["as"]
    return best[0] - base - _spend_cost(view, option) * 0.5, action


def _candidate_spots(view: View, name: str, option: Action) -> list[list[float]]:
    """Legal places within one Move: 16 directions starting towards the enemy snowman, at full and half reach."""
    cx, cy = option["center"]
    reach = option["radius"] - 0.05
    table = view["table"]
    enemy_snowman = view["pieces"][f"snowman{_enemy_seat(view)}"]["pos"]
    heading = math.atan2(enemy_snowman[1] - cy, enemy_snowman[0] - cx)
    points = []
    for step in range(16):
        angle = heading + step * math.pi / 8
        for fraction in (1.0, 0.5):
            points.append([cx + reach * fraction * math.cos(angle), cy + reach * fraction * math.sin(angle)])
    spots = []
    for point in points:
        point = [round(point[0], 3), round(point[1], 3)]
        if placement_problem(view["pieces"], view["obstructions"], table["width"], table["height"], point,
                             option["piece_radius"], ignore=(name,)) is None:
            spots.append(point)
    return spots


# --- random play --------------------------------------------------------------------------

RARE = {"pass": 0.05, "skip": 0.05, "set_auto_dodge": 0.01}


def random_action(legal: list[Action], pieces: dict[str, Any], obstructions: list[dict[str, Any]],
                  rng: random.Random, table: tuple[float, float] = (50.0, 30.0), forward: float = 0.0) -> Action:
    """A random legal action from ``legal`` (as ``legal_actions`` gives it) with random details.

    ``pieces`` and ``obstructions`` (from the state or a view) let continuous choices be
    checked before they are sent. Passing and changing settings are chosen rarely.
    ``forward`` is the chance that a move heads for the enemy's side rather than anywhere
    in reach, so that random games reach their end sooner.
    """
    by_kind: dict[str, list[Action]] = {}
    for option in legal:
        by_kind.setdefault(option["type"], []).append(option)
    kinds = sorted(by_kind)
    weights = [RARE.get(k, 1.0) for k in kinds]
    kind = rng.choices(kinds, weights)[0]
    option = rng.choice(by_kind[kind])
    width, height = table
    if kind == "deploy":
        return option["example"]
    if kind == "reroll":
        return {"type": "reroll", "dice": [v for v in option["from"] if rng.random() < 0.4]}
    if kind == "allocate":
        dice = list(option["dice"])
        rng.shuffle(dice)
        allocation = {name: sorted(dice[2 * i:2 * i + 2]) for i, name in enumerate(option["characters"])}
        return {"type": "allocate", "allocation": allocation, "lock": rng.random() < 0.9}
    if kind == "move" and "center" in option:
        action = {k: option[k] for k in ("type", "character", "die", "as") if k in option}
        action["to"] = list(option["center"])
        ahead = 0.0 if pieces[option["character"]]["seat"] == 0 else math.pi
        spread = math.pi / 2 if rng.random() < forward else math.pi
        for _ in range(8):
            angle = ahead + rng.uniform(-spread, spread)
            r = option["radius"] * math.sqrt(rng.random())
            spot = [option["center"][0] + r * math.cos(angle), option["center"][1] + r * math.sin(angle)]
            if placement_problem(pieces, obstructions, width, height, spot, option["piece_radius"],
                                 ignore=(option["character"],)) is None:
                action["to"] = spot
                break
        return action
    if kind == "return":
        action = {"type": "return", "character": option["character"], "y": option["example_y"]}
        for _ in range(8):
            y = rng.uniform(*option["y_range"])
            if placement_problem(pieces, obstructions, width, height, [option["x"], y], option["radius"]) is None:
                action["y"] = y
                break
        return action
    return option
