"""What a Snowball!'s board, prepared for its templates: SVG coordinates and the choices of one viewer.

The village is measured in inches with y growing north; the SVG draws north up, so every y is
flipped (``24 - y``). ``was_board`` turns one viewer's payload into plain rows the templates
only print: terrain with its properties, the Kids with their badges, the allowed area for
placing a Kid or ending a MOVE (as SVG paths), the lines of fire of the active Kid, the dice
tray with what each die can be spent on, and the activation order.
"""
from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

from games.caches import LRU
from games.engines.what_a_snowball import villages
from games.selectors.games import same_name

register = template.Library()
Box = tuple[float, float, float, float]  # left, top, right, bottom in SVG inches (y down)

PROPERTY_WORDS = (
    ("blocks_movement", "blocks movement"),
    ("blocks_sight", "blocks sight"),
    ("vaultable", "vaultable"),
    ("snowless", "snowless (no gathering)"),
    ("indoors", "indoors: no going in"),
)
SHORT_LABELS = {"tree": "tree", "hedge": "hedge", "stall": "stall", "car": "car", "wall": "wall", "fence": "fence",
                "bench": "bench", "fountain": "fountain", "house": "house", "shop": "shop", "church": "church"}
LABEL_CHAR_WIDTH = 0.27  # inches per character of a terrain label at its font size
CORNER_CHAR_WIDTH = 0.3  # the same for a corner's name
BADGE_PHONE_SCALE = 1.6  # the CSS scale of a Kid's badges on a phone (.was-kid-badges)
VIEW_MARGIN = 1.3        # the viewBox's margin round the village, in inches
FIRE_LABEL_PHONE_CHAR = 0.42    # inches per character of a line of fire's label on a phone (its largest)
FIRE_LABEL_HEIGHT = 0.8         # and the height of its box
FIRE_LABEL_DESCENT = 0.15       # from the box's bottom up to the baseline
TERRAIN_LABEL_PHONE_CHAR = 0.36  # a terrain label's characters on a phone
NAME_PHONE_CHAR = 0.62          # a Kid's name's characters on a phone (bold capitals included)
NAME_WIDE_CHAR = 0.92           # and its widest (M, W)
NAME_NARROW_CHAR = 0.38         # and its narrowest (i, l, a space)
NAME_ASCENT = 0.8               # a name's box above its baseline on a phone (font size 0.8)
NAME_DESCENT = 0.26             # and below it
NAME_GAP = 0.08                 # between a name's box and its own Kid's token
NAME_RINGS, NAME_RING_STEP = 4, 0.45  # how many rings of spots round a Kid, and how far apart
BASE_STROKE = 0.06              # a base's outline beyond its radius
ACTIVE_RING_REACH = 0.94        # the ring round the active Kid: radius 0.85 and half its 0.16 stroke
TEAM_MARK_BOX = (-0.77, -0.65, -0.07, 0.05)  # the team's shape at a base's top left, at its phone scale
CARD_TITLES_SHORT = {"pitch": "I've been practicing my pitch!", "ice": "Ice to see you!"}
ACTION_CLASS = {"move": "move", "vault": "move", "gather": "gather", "aim": "aim", "throw": "throw", "wild": "wild"}


def _compass_box(size: float) -> Box:
    """The north arrow's square: the village's north-east corner of the margin, outside the village."""
    return (size, -VIEW_MARGIN, size + VIEW_MARGIN, 0.0)


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _flip(size: float, point: list[float]) -> tuple[float, float]:
    return point[0], size - point[1]


def _points(size: float, points: list[list[float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in (_flip(size, p) for p in points))


def _ring_path(size: float, ring: list[list[float]] | Any) -> str:
    pts = [_flip(size, p) for p in ring]
    if not pts:
        return ""
    return "M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in pts) + " Z"


def region_path(size: float, region: list[dict[str, Any]]) -> str:
    """The engine's region description (polygons that may overlap, outer rings counter-clockwise,
    holes clockwise) as one SVG path to fill with the nonzero rule, which fills their union."""
    parts = []
    for piece in region or []:
        parts.append(_ring_path(size, piece["outer"]))
        parts += [_ring_path(size, hole) for hole in piece.get("holes", [])]
    return " ".join(p for p in parts if p)


def _shape_path(size: float, shape: Any) -> str:
    polygons = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape] if isinstance(shape, Polygon) else []
    parts = []
    for polygon in polygons:
        if polygon.is_empty:
            continue
        parts.append(_ring_path(size, [list(c) for c in polygon.exterior.coords[:-1]]))
        parts += [_ring_path(size, [list(c) for c in ring.coords[:-1]]) for ring in polygon.interiors]
    return " ".join(parts)


def placement_area(size: float, place: dict[str, Any], tolerance: float) -> str:
    """Where a Kid's centre may go at set-up: within ``within`` of a team corner, in the village,
    off every other base and every piece that blocks movement, with the engine's tolerance
    (an SVG path)."""
    radius = place["piece_radius"]
    near = unary_union([Point(c).buffer(place["within"] + tolerance, 64) for c in place["corners"]])
    area = near.intersection(box(radius - tolerance, radius - tolerance, size - radius + tolerance, size - radius + tolerance))
    blocked = []
    for shape in place.get("must_avoid", []):
        if shape["kind"] == "circle":
            blocked.append(Point(shape["center"]).buffer(shape["radius"] - tolerance, 32))
        else:
            blocked.append(Polygon(shape["points"]).buffer(shape["clearance"] - tolerance, 16))
    if blocked:
        area = area.difference(unary_union(blocked))
    return _shape_path(size, area)


def _kid_label(kids: dict[str, Any], kid_id: str) -> str:
    kid = kids.get(kid_id)
    return kid["name"] if kid else kid_id


def _object_label(view: dict[str, Any], object_id: str) -> str:
    if object_id in view["kids"]:
        return view["kids"][object_id]["name"]
    for piece in view["village"]["terrain"]:
        if piece["id"] == object_id:
            return piece["label"]
    return object_id


def _terrain_rows(view: dict[str, Any], size: float) -> list[dict[str, Any]]:
    rows = []
    for piece in view["village"]["terrain"]:
        xs = [p[0] for p in piece["points"]]
        ys = [p[1] for p in piece["points"]]
        cx, cy = (min(xs) + max(xs)) / 2, size - (min(ys) + max(ys)) / 2
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        props = [words for key, words in PROPERTY_WORDS if piece.get(key)]
        vertical = height > width * 1.6
        room = (height if vertical else width) - 0.3
        short = SHORT_LABELS.get(piece["kind"], "")
        # its own words if they fit across it, else its kind's word, overhanging a piece too small for it (a fountain)
        label = next((words for words in (piece["label"], short) if words and len(words) * LABEL_CHAR_WIDTH <= room), short)
        classes = ["was-t", f"was-t-{piece['kind']}"]
        classes += [f"is-{key.replace('_', '-')}" for key, _ in PROPERTY_WORDS if piece.get(key)]
        rows.append({
            "id": piece["id"], "kind": piece["kind"], "label": piece["label"], "points": _points(size, piece["points"]),
            "classes": " ".join(classes), "properties": ", ".join(props) or "open ground",
            "cx": _n(cx), "cy": _n(cy), "short_label": label if not piece.get("snowless") else "",
            "vertical": vertical, "snowless": piece.get("snowless", False),
        })
    # snowless ground first (underneath), then everything else
    rows.sort(key=lambda r: not r["snowless"])
    return rows


def _terrain_rows_of(view: dict[str, Any], size: float) -> list[dict[str, Any]]:
    """``_terrain_rows``, remembered by the terrain it reads: a game's terrain never changes, and
    every viewer of every version in play needs its rows (to keep lines of fire's labels off
    the terrain's). Shared: read them, do not change them."""
    return _terrain_rows_for(_terrain_key(view, size))


def _terrain_key(view: dict[str, Any], size: float) -> bytes:
    """The village's size and terrain as a key for what is drawn from them alone."""
    return orjson.dumps([size, view["village"]["terrain"]], option=orjson.OPT_SORT_KEYS)


@lru_cache(maxsize=128)
def _terrain_rows_for(drawing: bytes) -> list[dict[str, Any]]:
    size, terrain = orjson.loads(drawing)
    return _terrain_rows({"village": {"terrain": terrain}}, size)


def _badge_end(kid: dict[str, Any]) -> float:
    """How far east of a Kid's centre its badges reach, in inches, at their drawn size."""
    x_at = 0.82 + sum(0.62 + (0.55 if count > 1 else 0) for count in Counter(kid["snowballs"]).values())
    return x_at + 0.6 if kid["aims"] else x_at - 0.3


def _badge_row(kid: dict[str, Any], size: float) -> tuple[list[dict[str, Any]], float, bool]:
    """The snowball badges beside a Kid (one per Size, with a count), where its AIM badge goes, and
    whether the row goes west of the base because east of it would run out of the drawing on a phone."""
    rows, x_at = [], 0.82
    for size_, count in sorted(Counter(kid["snowballs"]).items()):
        rows.append({"x": x_at, "size": size_, "count": count, "count_x": x_at + 0.3})
        x_at += 0.62 + (0.55 if count > 1 else 0)
    end = _badge_end(kid)
    west = kid["pos"] is not None and kid["pos"][0] + end * BADGE_PHONE_SCALE > size + VIEW_MARGIN
    shift = -(0.54 + end) if west else 0.0
    return ([{**r, "x": _n(r["x"] + shift), "count_x": _n(r["count_x"] + shift)} for r in rows],
            x_at + shift, west)


def _name_width(text: str) -> float:
    """How wide a Kid's name is drawn at its largest (on a phone), in inches, a little generously."""
    return sum(NAME_WIDE_CHAR if c in "MWmw@" else NAME_NARROW_CHAR if c in "iIjlft.,:;'!|() " else NAME_PHONE_CHAR
               for c in text)


def _token_boxes(kid: dict[str, Any], size: float, active: bool) -> list[Box]:
    """What a Kid's token covers, as boxes round its centre (SVG inches, y down), at the larger of its
    desktop and phone sizes: its base (or the ring round the active Kid), its team's shape and its badges."""
    x, y = kid["pos"][0], size - kid["pos"][1]
    reach = ACTIVE_RING_REACH if active else kid["radius"] + BASE_STROKE
    boxes = [(x - reach, y - reach, x + reach, y + reach),
             (x + TEAM_MARK_BOX[0], y + TEAM_MARK_BOX[1], x + TEAM_MARK_BOX[2], y + TEAM_MARK_BOX[3])]
    if kid["snowballs"] or kid["aims"]:
        end = _badge_end(kid) * BADGE_PHONE_SCALE
        near, far = (-end, -0.54) if _badge_row(kid, size)[2] else (0.54, end)
        boxes.append((x + near, y - 0.3 * BADGE_PHONE_SCALE, x + far, y + 0.3 * BADGE_PHONE_SCALE))
    return boxes


def _name_choices(width: float, reach: float, badges: Box | None) -> list[tuple[int, Box]]:
    """Where a name's box may go round its Kid (relative to the centre), nearest first: above, below,
    right, left, then half off to each side above and below, each again further out, ring by ring."""
    height = NAME_ASCENT + NAME_DESCENT
    above = -max(reach, -TEAM_MARK_BOX[1]) - NAME_GAP
    below = reach + NAME_GAP
    right = max(reach, badges[2] if badges and badges[2] > 0 else 0) + NAME_GAP
    left = -max(reach, -TEAM_MARK_BOX[0], -badges[0] if badges and badges[0] < 0 else 0) - NAME_GAP
    choices = []
    for ring in range(NAME_RINGS):
        out = ring * NAME_RING_STEP
        for x0, y0 in ((-width / 2, above - out - height), (-width / 2, below + out),  # above, below
                       (right + out, -height / 2), (left - out - width, -height / 2),  # right, left
                       (0.2 + out, above - out - height), (-0.2 - out - width, above - out - height),
                       (0.2 + out, below + out), (-0.2 - out - width, below + out)):
            choices.append((ring, (x0, y0, x0 + width, y0 + height)))
    return choices


def _name_spots(view: dict[str, Any], size: float, active: str | None) -> dict[str, tuple[float, float, Box]]:
    """Where each Kid's name goes (see ``_place_names``). Every viewer of a version sees the same
    Kids, so the names are placed once for all of them: the placement is remembered by all it reads."""
    village = view["village"]
    return _placed_names(orjson.dumps([size, active, view["kids"], village["corners"], village["corner_names"]],
                                      option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=512)
def _placed_names(placing: bytes) -> dict[str, tuple[float, float, Box]]:
    size, active, kids, corners, corner_names = orjson.loads(placing)
    return _place_names({"kids": kids, "village": {"corners": corners, "corner_names": corner_names}}, size, active)


def _place_names(view: dict[str, Any], size: float, active: str | None) -> dict[str, tuple[float, float, Box]]:
    """Where each Kid's name goes (its middle and baseline relative to the centre, and its box in the
    village): the nearest spot round the Kid whose box, at the phone's larger lettering, covers no
    Kid's token (base, active ring, team shape, badges), no name placed before, no corner name and not
    the compass, else the spot covering least. Kids with the fewest free spots are named first."""
    kids = [k for k in view["kids"].values() if k["pos"] is not None and k["home"] is None]
    fixed: list[Box] = [_compass_box(size)]
    for index, (cx, cy) in enumerate(view["village"]["corners"]):  # the corner names in the margin
        width = (len(view["village"]["corner_names"][index]) + 8) * CORNER_CHAR_WIDTH
        top = -1.1 if cy == size else size + 0.15
        fixed.append((0.0, top, width, top + 0.95) if cx == 0 else (size - width, top, size, top + 0.95))
    tokens = {k["id"]: _token_boxes(k, size, k["id"] == active) for k in kids}
    fixed += [b for boxes in tokens.values() for b in boxes]
    limits = (-VIEW_MARGIN + 0.05, -VIEW_MARGIN + 0.05, size + VIEW_MARGIN - 0.05, size + VIEW_MARGIN - 0.05)
    options: dict[str, list[tuple[float, Box]]] = {}
    near_free: dict[str, int] = {}
    for kid in kids:
        x, y = kid["pos"][0], size - kid["pos"][1]
        name = kid["name"] + (" (down)" if kid["down"] else "")
        reach = ACTIVE_RING_REACH if kid["id"] == active else kid["radius"] + BASE_STROKE
        badges = tokens[kid["id"]][2] if len(tokens[kid["id"]]) > 2 else None
        if badges:
            badges = (badges[0] - x, badges[1] - y, badges[2] - x, badges[3] - y)
        spots = []
        choices = [(ring, (x + x0, y + y0, x + x1, y + y1))
                   for ring, (x0, y0, x1, y1) in _name_choices(_name_width(name), reach, badges)]
        near = _boxes_meeting(fixed, _around(box_ for _, box_ in choices))
        for ring, box_ in choices:
            if box_[0] < limits[0] or box_[1] < limits[1] or box_[2] > limits[2] or box_[3] > limits[3]:
                continue
            spots.append((sum(_overlap(box_, b) for b in near), box_))
            near_free[kid["id"]] = near_free.get(kid["id"], 0) + (ring == 0 and spots[-1][0] == 0)
        options[kid["id"]] = spots
    placed: dict[str, tuple[float, float, Box]] = {}
    taken: list[Box] = []
    for kid in sorted(kids, key=lambda k: (near_free.get(k["id"], 0), k["pos"][0], -k["pos"][1])):
        x, y = kid["pos"][0], size - kid["pos"][1]
        best, least = None, math.inf
        for cost, box_ in options[kid["id"]]:
            cost += sum(_overlap(box_, b) for b in taken)
            if cost < least - 1e-9:
                best, least = box_, cost
            if cost == 0:
                break
        if best is None:
            width = _name_width(kid["name"])
            best = (x - width / 2, y - 1.7, x + width / 2, y - 1.7 + NAME_ASCENT + NAME_DESCENT)
        taken.append(best)
        placed[kid["id"]] = ((best[0] + best[2]) / 2 - x, best[1] + NAME_ASCENT - y, best)
    return placed


def _kid_rows(view: dict[str, Any], size: float, active: str | None, names: list[str]) -> list[dict[str, Any]]:
    """Every Kid's row as every viewer sees it (``mine`` false): where it is drawn, its badges, and
    the values its token (``token``) and its sheet's line (``sheet_row``) are drawn from, so that
    ``render_once`` draws each once for all the viewers who see it alike."""
    rows = []
    names_at = _name_spots(view, size, active)
    for kid_id, kid in view["kids"].items():
        x, y = (None, None) if kid["pos"] is None else _flip(size, kid["pos"])
        balls = sorted(kid["snowballs"])
        ball_rows, x_at, _ = _badge_row(kid, size)
        row = {
            **kid, "x": None if x is None else _n(x), "y": None if y is None else _n(y),
            "name_x": _n(names_at[kid_id][0]) if kid_id in names_at else "0",
            "name_y": _n(names_at[kid_id][1]) if kid_id in names_at else "-1",
            "name_box": names_at[kid_id][2] if kid_id in names_at else None,
            "mine": False, "active": kid_id == active,
            "balls": balls, "ball_rows": ball_rows, "aim_x": _n(x_at),
            "balls_words": ", ".join(f"Size {b}" for b in balls) or "no snowballs",
            "player": names[kid["seat"]] if kid["seat"] < len(names) else f"Seat {kid['seat'] + 1}",
            "pips": range(kid["command_dice"]), "lost_pips": range(6 - kid["command_dice"]) if kid["command_dice"] < 6 else (),
            "in_village": kid["pos"] is not None and kid["home"] is None,
        }
        row["owner"] = "" if same_name(kid["name"], row["player"]) else row["player"]
        row["token"] = {key: row[key] for key in TOKEN_KEYS}
        row["token"].update(type_label=kid["sheet"]["type_label"], traits=kid["sheet"]["traits"])
        row["sheet_row"] = {**{key: row[key] for key in SHEET_ROW_KEYS}, "placed": kid["pos"] is not None}
        rows.append(row)
    return rows


# What a Kid's token (kid.html) and its line of its team's sheet (sheet.html) are drawn from; ``owner``
# is its player's name, or "" when the Kid has the player's name (the name is not said twice).
TOKEN_KEYS = ("id", "colour", "name", "owner", "x", "y", "radius", "active", "down", "command_dice", "aims",
              "points", "balls", "ball_rows", "aim_x", "balls_words", "name_x", "name_y")
SHEET_ROW_KEYS = ("id", "colour", "name", "owner", "sheet", "active", "home", "down", "prepare", "command_dice",
                  "pips", "lost_pips", "balls", "aims", "points")


@dataclass(frozen=True)
class _Shared:
    """What a version's board draws alike for every viewer: its Kids' rows and its lines of fire.
    Shared by the viewers: read it, do not change it."""

    kids: list[dict[str, Any]]
    fire: list[dict[str, Any]]


SHARED_ROWS: LRU[bytes, _Shared] = LRU(256)


def _shared_rows(view: dict[str, Any], size: float, active: str | None, names: list[str]) -> _Shared:
    """``_Shared`` for this view, worked out for its first viewer and remembered by everything it reads."""
    village = view["village"]
    play = view["phase"] == "play"
    key = orjson.dumps([size, active, names, view["kids"], village["corners"], village["corner_names"],
                        view["lines_of_fire"] if play else None, village["terrain"] if play else None],
                       option=orjson.OPT_SORT_KEYS)
    shared = SHARED_ROWS.get(key)
    if shared is None:
        kids = _kid_rows(view, size, active, names)
        shared = _Shared(kids=kids, fire=_fire_rows(view, size, _terrain_rows_of(view, size), kids) if play else [])
        SHARED_ROWS.put(key, shared)
    return shared


def _under_way(view: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The activation and the question pending (``{}``: none) that the board draws as happening
    now: none in a game that is over (a resignation can end it in the middle of either)."""
    if view.get("phase") == "over":
        return None, {}
    return view["activation"], view.get("pending") or {}


def _order_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    order = view["order"]
    totals: dict[str, int] = {}
    for roll in view["order_rolls"][:1]:
        totals = {k: v for k, v in roll["totals"].items()}
    tie_breaks: dict[str, list[int]] = defaultdict(list)
    for roll in view["order_rolls"][1:]:
        for k, v in roll["rolls"].items():
            tie_breaks[k].append(v)
    activation, _ = _under_way(view)
    current = activation["kid"] if activation else None
    position = order.index(current) if current in order else view["next_index"]
    rows = []
    for index, kid_id in enumerate(order):
        kid = view["kids"][kid_id]
        bonus = (view["order_rolls"][0]["bonus"].get(kid_id, 0) if view["order_rolls"] else 0)
        state = "now" if kid_id == current else "done" if index < position else "next"
        rows.append({"id": kid_id, "name": kid["name"], "colour": kid["colour"], "total": totals.get(kid_id),
                     "bonus": bonus, "tie": tie_breaks.get(kid_id, []), "state": state, "home": kid["home"]})
    return rows


def _die_word(kid: dict[str, Any], value: int) -> str:
    return kid["sheet"]["faces"].get(str(value), "")


def _action_text(view: dict[str, Any], kid: dict[str, Any], action: dict[str, Any]) -> str:
    kind = action["type"]
    native = kid["sheet"]["faces"].get(str(action.get("die")), "")
    as_words = ""
    if action.get("die") == 6 and kind in ("move", "vault", "gather", "aim", "throw"):
        as_words = " (Wild)"
    if kind == "move":
        return ("SLIDE 2D6 (Penguin)" if action.get("slide") else "MOVE: roll 1D6") + as_words
    if kind == "vault":
        return f"Vault the {_object_label(view, action['terrain'])}{as_words}"
    if kind == "gather":
        make = action["make"]
        if make == "new":
            return f"GATHER: a new snowball{as_words}"
        if make == "grow":
            return f"GATHER: grow Size {action['size']}{as_words}"
        if make == "give":
            return f"GATHER: give Size {action['size']} to {_kid_label(view['kids'], action['to'])}{as_words}"
        return f"GATHER: mend (Snowman){as_words}"
    if kind == "aim":
        return f"AIM: +1 to the next throw{as_words}"
    if kind == "wild":
        return {"recover": "Recover a Command Die", "prepare": "Prepare: +1 activation next turn",
                "get_up": "Get up"}[action["use"]]
    del native
    return kind


def _throw_groups(view: dict[str, Any], throws: list[dict[str, Any]]) -> list[dict[str, Any]]:
    lines = {line["to"]: line for line in view["lines_of_fire"]}
    groups: dict[str, dict[str, Any]] = {}
    for action in throws:
        target = action["target"]
        group = groups.get(target)
        if group is None:
            line = lines.get(target, {})
            group = groups[target] = {
                "target": target, "name": _kid_label(view["kids"], target), "line": line,
                "modifiers": line.get("modifiers_without_size", []),
                "objects": [_object_label(view, o) for o in line.get("objects", [])],
                "options": [],
            }
        ball = action["snowball"]
        words = "Throw a piece of itself (Size 4)" if ball == "self" else f"Throw a Size {ball}"
        if action.get("cards"):
            words += " + " + " + ".join(f"\u201c{CARD_TITLES_SHORT.get(c, c)}\u201d" for c in action["cards"])
        group["options"].append({"action": action, "text": words, "die": action["die"]})
    return list(groups.values())


def _tray(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    activation = view["activation"]
    if activation is None or activation["stage"] != "turn" or not any(a["type"] == "end_activation" for a in legal):
        return None
    kid = view["kids"][activation["kid"]]
    by_die: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for action in legal:
        if "die" in action:
            by_die[action["die"]].append(action)
    dice = []
    for value in sorted(set(activation["tray"])):
        actions = by_die.get(value, [])
        plain = [{"action": a, "text": _action_text(view, kid, a), "kind": ACTION_CLASS.get(a["type"], a["type"])}
                 for a in actions if a["type"] != "throw"]
        throws = _throw_groups(view, [a for a in actions if a["type"] == "throw"])
        dice.append({"value": value, "count": activation["tray"].count(value), "means": _die_word(kid, value),
                     "plain": plain, "throws": throws, "usable": bool(actions),
                     "why_not": "" if actions else activation.get("unspendable", {}).get(str(value), "")})
    return {"kid": kid, "dice": dice, "all": list(activation["tray"]),
            "cards": [a for a in legal if a["type"] == "play_card"],
            "end": next((a for a in legal if a["type"] == "end_activation"), None)}


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes (left, top, right, bottom) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _around(boxes) -> Box:
    """The smallest box round ``boxes``."""
    left, top, right, bottom = zip(*boxes)
    return min(left), min(top), max(right), max(bottom)


def _meets(bounds: Box, area: Box) -> bool:
    """Whether ``bounds`` share some of ``area``'s inside. What lies within bounds that do not
    (a box, a circle, a line) is clear of everything inside ``area``: it adds 0 to a placement there."""
    return bounds[0] < area[2] and area[0] < bounds[2] and bounds[1] < area[3] and area[1] < bounds[3]


def _boxes_meeting(boxes: list[Box], area: Box) -> list[Box]:
    """Those of ``boxes`` that share some of ``area``, in their order: a box inside ``area``
    overlaps only these, so a placement need not weigh the rest."""
    return [b for b in boxes if _meets(b, area)]


def _circle_cost(box: Box, circle: tuple[float, float, float]) -> float:
    """How deep a box reaches into a circle, in inches (0 when clear)."""
    cx, cy, r = circle
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return max(0.0, r - math.dist((cx, cy), (nx, ny)))


def _fire_label_obstacles(terrain: list[dict[str, Any]], kids: list[dict[str, Any]],
                          size: float) -> tuple[list[Box], list[tuple[float, float, float]]]:
    """What a line of fire's label must not cover, at its phone size: terrain labels, Kids' names and
    badges (boxes) and Kids' bases with their team shapes (circles)."""
    boxes: list[Box] = [_compass_box(size)]
    for t in terrain:
        if t["short_label"]:
            half_long, half_short = len(t["short_label"]) * TERRAIN_LABEL_PHONE_CHAR / 2 + 0.05, 0.38
            dx, dy = (half_short, half_long) if t["vertical"] else (half_long, half_short)
            cx, cy = float(t["cx"]), float(t["cy"])
            boxes.append((cx - dx, cy - dy, cx + dx, cy + dy))
    circles = []
    for k in kids:
        if not k["in_village"]:
            continue
        x, y = float(k["x"]), float(k["y"])
        circles.append((x, y, k["radius"] + 0.2))
        boxes.append(k["name_box"])
        if k["balls"] or k["aims"]:
            end = _badge_end(k) * BADGE_PHONE_SCALE
            near, far = (-end, -0.54) if _badge_row(k, size)[2] else (0.54, end)
            boxes.append((x + near, y - 0.3 * BADGE_PHONE_SCALE, x + far, y + 0.3 * BADGE_PHONE_SCALE))
    return boxes, circles


def _fire_label_spots(a: tuple[float, float], b: tuple[float, float], width: float):
    """Where a line's label may go, best first: on the line round its middle, then beside it further
    out (with a leader back to the line). Each spot: the box's centre, how far it is off the line, the
    point of the line it belongs to and whether it needs a leader."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = (uy, -ux) if ux >= 0 else (-uy, ux)
    half = abs(nx) * width / 2 + abs(ny) * FIRE_LABEL_HEIGHT / 2
    for extra in (0.0, 0.2, 1.2, 2.4, 3.6):
        for f in (0.5, 0.6, 0.4, 0.7, 0.3, 0.8, 0.2):
            on = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
            for side in ((0.0,) if extra == 0.0 else (1.0, -1.0)):
                d = side * (half + extra)
                yield (on[0] + nx * d, on[1] + ny * d), extra, on, extra > 1.0


def _place_fire_label(a, b, text: str, boxes: list[Box], circles, other_lines: list[LineString],
                      size: float) -> tuple[Box, Any]:
    """The first spot whose box covers nothing in ``boxes`` or ``circles`` and stays in the drawing, else
    the least covering one; a label moved off its line also keeps off ``other_lines`` and on its own side
    of them, so that it cannot be taken for theirs. The box and the leader's end (or None)."""
    width = len(text) * FIRE_LABEL_PHONE_CHAR
    spots = [((cx - width / 2, cy - FIRE_LABEL_HEIGHT / 2, cx + width / 2, cy + FIRE_LABEL_HEIGHT / 2), (cx, cy), off, on,
              needs_leader) for (cx, cy), off, on, needs_leader in _fire_label_spots(a, b, width)]
    reach = _around(area for area, *_ in spots)
    boxes = _boxes_meeting(boxes, reach)
    circles = [c for c in circles if _meets((c[0] - c[2], c[1] - c[2], c[0] + c[2], c[1] + c[2]), reach)]
    other_lines = [line for line in other_lines if _meets(line.bounds, reach)]
    best = None
    for area, (cx, cy), off, on, needs_leader in spots:
        inside = _overlap(area, (-VIEW_MARGIN, -VIEW_MARGIN, size + VIEW_MARGIN, size + VIEW_MARGIN))
        covered = 10 * (sum(_overlap(area, o) for o in boxes) + sum(_circle_cost(area, c) for c in circles)
                        + width * FIRE_LABEL_HEIGHT - inside)
        if off and best is not None and covered + 0.1 * off >= best[0] - 1e-9:
            continue  # the other lines only add to its cost: it cannot come below the best
        crossed = 0
        if off:
            spot, leader = box(*area), LineString([(cx, cy), on])
            crossed = 0.1 * (sum(line.intersection(spot).length + 10 * line.intersects(leader)
                                 for line in other_lines) + off)
        cost = covered + crossed
        if best is None or cost < best[0] - 1e-9:
            best = (cost, area, on if needs_leader else None)
        if cost == 0:
            break
    return best[1], best[2]


def _leader(box: Box, to: tuple[float, float] | None) -> tuple[float, float, float, float] | None:
    """A line from a label's box to the point of its line of fire it was moved off."""
    if to is None:
        return None
    frm = (min(max(to[0], box[0]), box[2]), min(max(to[1], box[1]), box[3]))
    return (*frm, *to) if math.dist(frm, to) > 0.2 else None


def _fire_rows(view: dict[str, Any], size: float, terrain: list[dict[str, Any]],
               kids: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The active Kid's lines of fire, the visible ones labelled with their target and the roll it
    needs, each label placed clear of Kids, terrain labels and the labels placed before it."""
    boxes, circles = _fire_label_obstacles(terrain, kids, size)
    ends = [(_flip(size, view["kids"][line["from"]]["pos"]), _flip(size, view["kids"][line["to"]]["pos"]))
            for line in view["lines_of_fire"]]
    rows = []
    for index, line in enumerate(view["lines_of_fire"]):
        (ax, ay), (bx, by) = ends[index]
        modifier = sum(m["value"] for m in line.get("modifiers_without_size", []))
        target_name = _kid_label(view["kids"], line["to"])
        row = {**line, "x1": _n(ax), "y1": _n(ay), "x2": _n(bx), "y2": _n(by), "modifier": modifier,
               "object_count": len(line.get("objects", [])), "target_name": target_name,
               "blocker_name": _object_label(view, line["blocker"]) if line.get("blocker") else ""}
        if line["visible"]:
            odds = "too close!" if line.get("too_close") else f"needs {line['needs']}" + (f", {modifier:+d}" if modifier else "")
            row["label"] = f"{target_name}: {odds}"
        rows.append(row)
    placed = _placed_fire_labels(size, tuple(tuple(b) for b in boxes), tuple(circles),
                                 tuple((a, b, row.get("label")) for (a, b), row in zip(ends, rows)))
    for row, spot in zip(rows, placed):
        if spot is not None:
            box, leader_to = spot
            row["mx"], row["my"] = _n((box[0] + box[2]) / 2), _n(box[3] - FIRE_LABEL_DESCENT)
            leader = _leader(box, leader_to)
            row["leader"] = [_n(v) for v in leader] if leader else None
    rows.sort(key=lambda r: r["visible"])
    return rows


@lru_cache(maxsize=512)
def _placed_fire_labels(size: float, boxes: tuple[Box, ...], circles: tuple[tuple[float, float, float], ...],
                        lines: tuple[tuple[tuple[float, float], tuple[float, float], str | None], ...]
                        ) -> tuple[tuple[Box, Any] | None, ...]:
    """Each line's label box and leader end (None for a line without a label), each placed clear of
    ``boxes``, ``circles`` and the labels before it. Every viewer of a version has the same lines
    and obstacles, so a version's labels are placed once, not once a seat (most of a board's cost)."""
    taken = list(boxes)
    ends = [(a, b) for a, b, _ in lines]
    placed: list[tuple[Box, Any] | None] = []
    for index, (a, b, label) in enumerate(lines):
        if label is None:
            placed.append(None)
            continue
        other_lines = [LineString(e) for i, e in enumerate(ends) if i != index]
        spot = _place_fire_label(a, b, label, taken, circles, other_lines, size)
        taken.append(spot[0])
        placed.append(spot)
    return tuple(placed)


def _within_reach(view: dict[str, Any], move_to: dict[str, Any], kid_id: str) -> bool:
    """Whether a MOVE of this roll could end in base contact with ``kid_id`` (as the crow flies)."""
    other = view["kids"][kid_id]
    gap = math.dist(move_to["from"], other["pos"]) - move_to["piece_radius"] - other["radius"]
    return gap <= move_to["roll"] + move_to.get("tolerance", 0.0)


@lru_cache(maxsize=64)
def _corner_zone(size: float, cx: float, cy: float) -> str:
    """The SVG path of the ground within 6 inches of a corner (a corner's deployment zone)."""
    return _shape_path(size, Point(cx, cy).buffer(6.0, 64).intersection(box(0, 0, size, size)))


@register.simple_tag
def was_ground(view: dict[str, Any], size: float) -> str:
    """The village's ground (patterns, snow, grid, terrain) as SVG: the same for every viewer and
    version while the terrain is unchanged, so rendered once for all of them."""
    return _ground_html(_terrain_key(view, size))


@lru_cache(maxsize=128)
def _ground_html(drawing: bytes) -> str:
    size = orjson.loads(drawing)[0]
    ground = {"size_str": _n(size), "grid": [_n(i) for i in range(1, int(size))],
              "grid_major": [_n(i) for i in range(6, int(size), 6)], "terrain": _terrain_rows_for(drawing)}
    return mark_safe(render_to_string("games/what-a-snowball/ground.html", {"b": ground}))  # noqa: S308 (a template's output)


@register.simple_tag
def was_board(view: dict[str, Any], legal: list[dict[str, Any]], seat: int | None, names: list[str]) -> dict[str, Any]:
    """Everything the board templates print for one viewer's view and legal actions."""
    size = float(view["village"]["size"][1])
    activation, pending = _under_way(view)
    active = activation["kid"] if activation else None
    legal = legal or []
    place = [a for a in legal if a["type"] == "place"]
    move_to = next((a for a in legal if a["type"] == "move_to"), None)
    corner_actions = {a["corner"]: a for a in legal if a["type"] == "corner"}
    taken = {c: t for t in view["teams"] for c in t["corners"]}
    corners = []
    for index, (cx, cy) in enumerate(view["village"]["corners"]):
        x, y = _flip(size, [cx, cy])
        team = taken.get(index)
        corners.append({"index": index, "name": view["village"]["corner_names"][index], "x": _n(x), "y": _n(y),
                        "zone": _corner_zone(size, cx, cy),
                        "team": {"colour": team["colour"], "name": team["name"]} if team else None,
                        "action": corner_actions.get(index),
                        "label_x": _n(x), "label_y": _n(-0.4 if y == 0 else size + 0.85),
                        "label_anchor": "start" if x == 0 else "end"})
    team_of_seat = view["seat_team"]
    my_team = team_of_seat[seat] if seat is not None and seat < len(team_of_seat) else None
    corner_names = view["village"]["corner_names"]
    my_corners = [corner_names[c] for t in view["teams"] if t["team"] == my_team for c in t["corners"]]
    shared = _shared_rows(view, size, active, names)
    kids = [row if seat is None or row["seat"] != seat else {**row, "mine": True} for row in shared.kids]
    teams = []
    for t in view["teams"]:
        rolls = [r["totals"].get(str(t["team"])) for r in view["team_rolls"] if str(t["team"]) in r["totals"]]
        team_kids = [k for k in kids if k["team"] == t["team"]]
        players = [names[s] if s < len(names) else f"Seat {s + 1}" for s in t["seats"]]
        mine = t["team"] == my_team
        teams.append({**t, "kids": team_kids, "mine": mine, "players": players, "rolls": rolls,
                      "pick": view["team_order"].index(t["team"]) + 1 if t["team"] in view["team_order"] else None,
                      "sheet": {"colour": t["colour"], "name": t["name"], "players": players, "mine": mine,
                                "surrendered": t.get("surrendered"), "corners": t["corners"], "seats": t["seats"],
                                "kids": [k["sheet_row"] for k in team_kids]}})
    tray = _tray(view, legal)
    rolloff = [[{"name": view["teams"][int(t)]["name"], "colour": view["teams"][int(t)]["colour"], "total": total}
                for t, total in roll["totals"].items()] for roll in view["team_rolls"]]
    move_from = None
    if move_to is not None:
        fx, fy = _flip(size, move_to["from"])
        move_from = {"x": _n(fx), "y": _n(fy), "roll": move_to["roll"],
                     "shove": [{"id": k, "name": _kid_label(view["kids"], k)} for k in move_to.get("shove", [])
                               if _within_reach(view, move_to, k)]}
    moving = None
    if pending.get("kind") == "move_to" and view["kids"][pending["kid"]]["pos"] is not None:
        mx, my = _flip(size, view["kids"][pending["kid"]]["pos"])
        moving = {"x": _n(mx), "y": _n(my), "roll": pending["roll"], "name": view["kids"][pending["kid"]]["name"]}
    click = None
    if place:
        click = {"mode": "place", "actions": place}
    elif move_to is not None:
        click = {"mode": "move_to", "actions": [move_to]}
    outcome = view.get("outcome")
    reaction = [a for a in legal if a["type"] in ("play_card", "decline")] if pending.get("kind") == "reaction" \
        and seat is not None and pending["seat"] == seat else []
    return {
        "size": size, "size_str": _n(size), "viewbox": f"-1.3 -1.3 {_n(size + 2.6)} {_n(size + 2.6)}",
        "compass_x": _n(size + VIEW_MARGIN / 2), "compass_y": _n(-VIEW_MARGIN / 2), "kids": kids,
        "kids_by_id": {k["id"]: k for k in kids}, "teams": teams, "my_team": my_team, "corners": corners,
        "teams_key": [{"team": t["team"], "colour": t["colour"], "name": t["name"]} for t in view["teams"]],
        "my_corners": villages.corners_words(my_corners, "your"),
        "corners_each": max((len(t["corners"]) for t in view["teams"]), default=0),
        "order": _order_rows(view), "active": view["kids"].get(active) if active else None,
        "tray": tray, "rolloff": rolloff,
        "team_order": [view["teams"][t]["name"] for t in view["team_order"]], "fire": shared.fire,
        "place": place, "place_path": placement_area(size, place[0], view["village"]["tolerance"]) if place else "",
        "move_to": move_to, "move_path": region_path(size, move_to["region"]) if move_to else "", "move_from": move_from, "moving": moving,
        "click_json": json.dumps(click) if click else "",
        "start": [a for a in legal if a["type"] in ("roll", "play_card") and (activation or {}).get("stage") == "start"],
        "reaction": reaction,
        "reaction_cards": [a for a in reaction if a["type"] == "play_card"],
        "reaction_decline": next((a for a in reaction if a["type"] == "decline"), None),
        "never_ask": [a for a in legal if a["type"] == "set_never_ask"],
        "surrender": next((a for a in legal if a["type"] == "surrender"), None),
        "hand_sizes": view.get("hand_sizes") if (view.get("options") or {}).get("ability_cards") != "none" else None,
        "kid_players": len(view.get("seat_team") or ()) != len(view.get("teams") or ()),
        "outcome_teams": (outcome or {}).get("teams", []),
        "winning_teams": (outcome or {}).get("winning_teams", []),
        "verdict": _verdict(teams, (outcome or {}).get("winning_teams", [])),
    }


def _verdict(teams: list[dict[str, Any]], winning: list[int]) -> str:
    """The result's heading: "Red wins!", "Red and Blue share the victory!"."""
    names = [t["name"] for t in teams if t["team"] in winning]
    if not names:
        return "Game over"
    if len(names) == 1:
        return f"{names[0]} wins!"
    return f"{', '.join(names[:-1])} and {names[-1]} share the victory!"


@register.filter
def card_title(view: dict[str, Any], card: str) -> str:
    """The title of an ability card by its short name."""
    return view["cards"].get(card, {}).get("title", card)


@register.filter
def json_attr(value: Any) -> str:
    """``value`` as JSON, for a data attribute (the template escapes the quotes)."""
    return json.dumps(value, sort_keys=True)
