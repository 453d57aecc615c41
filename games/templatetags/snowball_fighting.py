"""Drawing data for the Snowball Fighting board: the hex garden as SVG, built from one viewer's view.

Everything here is computed from the payload the viewer is allowed to see (``view`` and its
``you``), never from the game's state: a seat's own orders appear only because its own view
carries them. Geometry: flat-topped hexes in straight columns, a row letter every half hex.
"""
from __future__ import annotations

import math
from typing import Any

import orjson
from django import template
from django.utils.safestring import mark_safe

from games.caches import LRU
from games.engines.snowball_fighting.garden import MAPS
from games.engines.snowball_fighting.orders import move_routes
from games.engines.snowball_fighting.rules import DISASTER_DAMAGE, M_BOUNCE, THROWS, Throw, target_modifiers
from games.templatetags.games_tags import ws_vals

register = template.Library()

RADIUS = 20.0
HALF_HEIGHT = RADIUS * math.sqrt(3) / 2
MARGIN_X = 22.0
MARGIN_TOP = 26.0
KITCHEN_HEIGHT = 50.0
SEAT_COLOURS = ("#d33a2c", "#1f6fb2", "#e08a00", "#7b4bb7", "#138a8a", "#c2408f")

ACTION_NAMES = {
    "stand": "Stand still",
    "move": "Move",
    "collect": "Collect",
    "collect_move": "Collect and move",
    "rattlesnake": "Rogerson Rattlesnake",
    "baker": "Baker Bounce",
    "bolero": "Bowen Bolero",
    "maniac": "Mendham Maniac",
    "dirigible": "Doubleday Dirigible",
    "storm": "Conifer Storm",
    "avalanche": "Shed Avalanche",
    "conditional": "Conditional order",
}


def ammunition_words(throw: Throw) -> str:
    """What a throw takes from its thrower, as the engine spends it: "uses 1 snowball", "uses 1
    Dirigible", or "no snowball needed" (the Mendham Maniac scoops up snow as it goes)."""
    parts = [f"{throw.ss} snowball{'s' if throw.ss > 1 else ''}"] if throw.ss else []
    parts += [f"{throw.dd} Dirigible{'s' if throw.dd > 1 else ''}"] if throw.dd else []
    return "uses " + " and ".join(parts) if parts else "no snowball needed"


# What each action needs and does, as the rule book gives it (range in hexes, base chance, damage),
# and what it uses up, from the engine's own throws.
THROW_FACTS = {key: (*facts, ammunition_words(THROWS[key])) for key, facts in {
    "rattlesnake": ("range 6", "80%", "1 HP"),
    "baker": ("range 4", "60%", "1 HP"),
    "bolero": ("range 4", "50% each", "1 HP each"),
    "maniac": ("everyone within 2", "25% each", "1 HP, no VPs"),
    "dirigible": ("range 3", "55%", "3 HP"),
    "storm": ("range 4 to the conifer", "90%, then 70% it falls", "2 HP there, 1 HP around"),
    "avalanche": ("range 2 to the shed", "80%, then 80% your side", "2 HP"),
}.items()}
COLLECT_COST = {"ss": 2.0, "dd": 4.0, "head": 2.0}
# A Baker Bounce on the spot: the table's line for anyone throwing at the bouncer that segment.
BOUNCE_SPOT = dict(target_modifiers(MAPS["garden"], {"action": "baker", "bounce_spot": True}))[M_BOUNCE]


def _split(ref: str) -> tuple[str, int]:
    """("K", 7) for "K7": the row's letters and the column."""
    digits = len(ref) - len(ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return ref[:digits], int(ref[digits:])


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


class Geometry:
    """Where each hex of a map is drawn; the kitchen sits below its door (between its doors)."""

    def __init__(self, rows: list[str], cols: int, doors: list[str]):
        self.rows, self.cols = len(rows), cols
        self.row_of = {letters: i for i, letters in enumerate(rows)}
        self.width = MARGIN_X * 2 + (cols - 1) * 1.5 * RADIUS + 2 * RADIUS
        self.map_bottom = MARGIN_TOP + (self.rows + 1) * HALF_HEIGHT
        self.doors = list(doors)
        self.height = self.map_bottom + KITCHEN_HEIGHT + 12

    def centre(self, ref: str) -> tuple[float, float]:
        if ref == "KITCHEN":
            xs = [self.centre(door)[0] for door in self.doors]
            return (min(xs) + max(xs)) / 2, self.map_bottom + 8 + KITCHEN_HEIGHT / 2 + 6
        letters, col = _split(ref)
        row = self.row_of[letters]
        return MARGIN_X + RADIUS + (col - 1) * 1.5 * RADIUS, MARGIN_TOP + HALF_HEIGHT * (row + 1)

    def points(self, ref: str, shrink: float = 0.0) -> str:
        x, y = self.centre(ref)
        r, h = RADIUS - shrink, HALF_HEIGHT - shrink * math.sqrt(3) / 2
        corners = ((x - r, y), (x - r / 2, y - h), (x + r / 2, y - h), (x + r, y), (x + r / 2, y + h), (x - r / 2, y + h))
        return " ".join(f"{_fmt(a)},{_fmt(b)}" for a, b in corners)

    def line(self, refs: list[str]) -> str:
        return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (self.centre(r) for r in refs))


def doors_of(m: dict[str, Any]) -> list[str]:
    """The kitchen's doors on a map: one in the snowy garden, one at the end of each path in the fog."""
    return list(m.get("kitchen_doors") or [m["kitchen_door"]])


def geometry_of(m: dict[str, Any]) -> Geometry:
    return Geometry(m["rows"], m["cols"], doors_of(m))


def _step_costs(route_from: str, route: list[str], path: set[str]) -> list[float]:
    costs, here = [], route_from
    for step in route:
        costs.append(0.5 if here in path and step in path else 1.0)
        here = step
    return costs


def _seat_name(combatants: list[dict[str, Any]], seat: Any, names: list[str]) -> str:
    if seat is None:
        return "someone out of the fog"
    if isinstance(seat, int) and 0 <= seat < len(combatants):
        return combatants[seat].get("name") or (names[seat] if seat < len(names) else f"Seat {seat}")
    if isinstance(seat, int) and seat < len(names):
        return names[seat]
    return str(seat)


def _look_first(order: dict[str, Any]) -> str:
    """A provisional move's condition, in words (Fogbound)."""
    return "; stand still instead if the first step meets the pond or a gnome found" if order.get("if_hazard") == "stand" else ""


def describe_order(order: dict[str, Any] | None, combatants: list[dict[str, Any]], names: list[str]) -> str:
    """One segment's order in words, as the player wrote it."""
    if order is None:
        return "Not written (stands still)"
    kind = order["type"]
    who = lambda s: "the nearest opponent" if s == "nearest" else _seat_name(combatants, s, names)  # noqa: E731
    if kind == "stand":
        return "Stand still"
    if kind == "move":
        carry = {"ss": ", keeping simple snowballs", "dd": ", keeping the Dirigible"}.get(order.get("carry") or "", "")
        return "Move " + " → ".join(order["route"]) + carry + _look_first(order)
    if kind in ("collect", "collect_move"):
        what = {"ss": f"{order.get('count', 1)} simple snowball{'s' if order.get('count', 1) == 2 else ''}",
                "dd": "a Doubleday Dirigible", "head": "the snowman's head",
                "barrow": "a Dirigible from the wheelbarrow"}.get(order["what"], order["what"])
        if kind == "collect":
            return f"Collect {what}"
        route = " → ".join(order["route"])
        return (f"Collect {what}, then move {route}" if order["collect_at"] == "start"
                else f"Move {route}, then collect {what}") + _look_first(order)
    if kind in ("rattlesnake", "dirigible"):
        return f"{ACTION_NAMES[kind]} at {who(order['target'])}"
    if kind == "baker":
        bounce = "bouncing on the spot" if order.get("bounce", "spot") == "spot" else f"bouncing to {order['bounce']}"
        return f"Baker Bounce at {who(order['target'])}, {bounce}"
    if kind == "bolero":
        a, b = order["targets"]
        return f"Bowen Bolero at {who(a)} and {who(b)}"
    if kind == "maniac":
        return "Mendham Maniac (everyone within 2 hexes)"
    if kind == "storm":
        return f"Conifer Storm on the conifer at {order['conifer']}"
    if kind == "avalanche":
        return f"Shed Avalanche on the {'north' if order['side'] == 'N' else 'south'} side"
    if kind == "conditional":
        return "Conditional: " + "; ".join(
            f"case {i}: {describe_order(c['then'], combatants, names)}" for i, c in enumerate(order["cases"], 1)
        ) + f"; otherwise: {describe_order(order['otherwise'], combatants, names)}"
    return ACTION_NAMES.get(kind, kind)


CONDITIONS = (
    ("hit", "I was hit in segment 1 or 2"),
    ("not_hit", "I was not hit in segment 1 or 2"),
    ("hit_someone", "I hit someone in segment 1 or 2"),
    ("hp_at_most", "my HP are at most N"),
    ("snowballs_at_least", "I carry at least N snowballs"),
    ("opponent_within", "an opponent is within N hexes"),
    ("seat_within", "this opponent is within N hexes"),
    ("seat_away", "this opponent is out of the fight"),
    ("at", "I stand at this hex"),
)


def describe_condition(cond: dict[str, Any], combatants: list[dict[str, Any]], names: list[str]) -> str:
    """A rule 13 condition in words."""
    kind = cond["if"]
    who = _seat_name(combatants, cond.get("seat"), names) if "seat" in cond else ""
    words = {
        "hit": "if I was hit in segments 1-2", "not_hit": "if I was not hit in segments 1-2",
        "hit_someone": "if I hit someone in segments 1-2",
        "hp_at_most": f"if I have at most {cond.get('value')} HP",
        "snowballs_at_least": f"if I carry at least {cond.get('value')} snowballs",
        "opponent_within": f"if an opponent is within {cond.get('value')} hexes",
        "seat_within": f"if {who} is within {cond.get('value')} hexes",
        "seat_away": f"if {who} is out of the fight", "at": f"if I stand at {cond.get('hex')}",
    }
    return words.get(kind, kind)


def _roll_row(event: dict[str, Any], combatants: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    target = event.get("victim")
    if target is not None:
        aimed = _seat_name(combatants, target, names)
    elif event.get("conifer"):
        aimed = f"conifer {event['conifer']}"
    elif event.get("side"):
        aimed = f"shed, {'north' if event['side'] == 'N' else 'south'} side"
    else:
        aimed = ""
    return {
        "thrower": _seat_name(combatants, event.get("seat"), names),
        "seat": event.get("seat"),
        "action": ACTION_NAMES.get(event.get("action", ""), event.get("action", "")),
        "aimed": aimed,
        "distance": event.get("distance"),
        "base": event.get("base"),
        "modifiers": event.get("modifiers") or [],
        "adjusted": event.get("adjusted"),
        "over_shed": event.get("over_shed"),
        "needed": event.get("needed"),
        "roll": "00" if event.get("roll") == 100 else f"{event.get('roll', 0):02d}",
        "hit": event.get("hit"),
        "text": event.get("text", ""),
    }


def _your_turn(report: dict[str, Any], seat: int | None, combatants: list[dict[str, Any]]) -> str | None:
    """One sentence for a seat on what the last turn did to it: HP lost and left, HP dealt and VPs won."""
    me = next((c for c in combatants if c.get("seat") == seat), None)
    if me is None:
        return None
    events = [e for seg in report["segments"] for e in seg["events"]]
    lost = sum(e.get("hp", 0) for e in events if e["type"] == "damage" and e.get("seat") == seat)
    lost += sum(DISASTER_DAMAGE for e in events if e["type"] == "disaster" and e.get("seat") == seat)
    dealt = [e for e in events if e["type"] == "damage" and e.get("thrower") == seat and e.get("seat") != seat]
    dealt_hp, vps = sum(e.get("hp", 0) for e in dealt), sum(e.get("vps", 0) for e in dealt)
    took = f"you lost {lost} HP ({me['hp']} left)" if lost else "nobody hurt you"
    gave = f"you hit for {dealt_hp} HP (+{vps} VP{'s' if vps != 1 else ''})" if dealt_hp else "you hit nobody"
    sentence = f"{took}; {gave}."
    if any(e["type"] == "knocked_out" and e.get("seat") == seat for e in events):
        sentence += " At 0 HP you run for the kitchen to dry your socks, immune on the way."
    return sentence[0].upper() + sentence[1:]


def _report(view: dict[str, Any], geo: Geometry, names: list[str], seat: int | None = None) -> dict[str, Any] | None:
    report = view.get("report")
    if not report:
        return None
    combatants = view.get("combatants") or []
    segments = []
    for seg in report["segments"]:
        moves = []
        for m in seg["moves"]:
            # in the fog a move is only its part in the viewer's sight (no start or end hex when out of it)
            hexes = [h for h in ([m["from"], m["to"]] if m.get("bounce") else [m["from"], *m["route"]]) if h]
            if not hexes:
                continue
            end = m.get("to") or hexes[-1]
            moves.append({"seat": m["seat"], "points": geo.line(hexes), "bumped": m.get("bumped"),
                          "bounce": bool(m.get("bounce")), "ends": bool(m.get("to")),
                          "ex": _fmt(geo.centre(end)[0]), "ey": _fmt(geo.centre(end)[1])})
        throws = []
        for t in seg["throws"]:
            if not t.get("from") or not t.get("to"):
                continue
            (x1, y1), (x2, y2) = geo.centre(t["from"]), geo.centre(t["to"])
            throws.append({"seat": t["seat"], "x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2), "y2": _fmt(y2),
                           "hit": t["hit"], "area": t["action"] == "maniac",
                           "action": ACTION_NAMES.get(t["action"], t["action"])})
        positions = []
        for key, ref in seg["positions"].items():
            x, y = geo.centre(ref)
            positions.append({"seat": int(key), "x": _fmt(x), "y": _fmt(y), "hex": ref})
        entries = []
        for e in seg["events"]:
            if e["type"] == "roll":
                entries.append({"kind": "roll", **_roll_row(e, combatants, names)})
            else:
                entries.append({"kind": e["type"], "text": e["text"], "seat": e.get("seat")})
        segments.append({"segment": seg["segment"], "turn": seg["turn"], "moves": moves, "throws": throws,
                         "positions": positions, "entries": entries})
    return {"turn": report["turn"], "notes": report["notes"], "segments": segments,
            "yours": _your_turn(report, seat, combatants)}


def _my_orders(view: dict[str, Any], geo: Geometry, names: list[str]) -> list[dict[str, Any]]:
    """The viewer's own written orders, segment by segment, for the orders panel and the map."""
    you = view.get("you") or {}
    help_ = you.get("orders_help")
    if not help_:
        return []
    orders = you.get("orders") or [None, None, None]
    plan = you.get("plan") or []
    previews = you.get("preview") or [[], [], []]
    combatants = view.get("combatants") or []
    path = set(view["map"]["path"])
    first = help_["first_segment"]
    out = []
    ss, dd = help_["ss"], help_["dd"]
    for k in range(3):
        order = orders[k] if k < len(orders) else None
        step = plan[k] if k < len(plan) else None
        start = step["start"] if step else help_["start"]
        if step:
            ss, dd = step["ss"], step["dd"]
        entry: dict[str, Any] = {
            "segment": k + 1, "order": order, "start": start, "ss": ss, "dd": dd,
            "active": k + 1 >= first, "text": describe_order(order, combatants, names),
            "preview": previews[k] if k < len(previews) else [],
            "mf_left": step["mf_left"] if step else None, "route_points": None, "mf_lines": [],
            "type": order["type"] if order else None,
        }
        if order and order["type"] in ("move", "collect_move"):
            entry["route_points"] = geo.line([start, *order["route"]])
            costs = _step_costs(start, order["route"], path)
            half = sum(1 for c in costs if c == 0.5)
            lines = [f"{len(costs)} step{'s' if len(costs) != 1 else ''}"
                     + (f" ({half} along the path at ½ MF)" if half else "") + f": {_fmt(sum(costs))} MF"]
            spent = sum(costs)
            if order["type"] == "collect_move":
                cost = COLLECT_COST[order["what"]] * order.get("count", 1)
                lines.append(f"collecting: {_fmt(cost)} MF")
                spent += cost
            lines.append(f"{_fmt(spent)} of 4 MF used, {entry['mf_left'] or _fmt(4 - spent)} MF left")
            entry["mf_lines"] = lines
            x, y = geo.centre(order["route"][-1])
            entry["end_x"], entry["end_y"] = _fmt(x), _fmt(y)
        if order and order["type"] == "conditional":
            entry["cases"] = [{"when": case["when"], "then_text": describe_order(case["then"], combatants, names),
                               "when_text": describe_condition(case["when"], combatants, names)}
                              for case in order["cases"]]
            entry["otherwise_text"] = describe_order(order["otherwise"], combatants, names)
        throw_lines = []
        for row in entry["preview"]:
            tx = row.get("target")
            if isinstance(tx, int) and tx < len(combatants) and combatants[tx].get("hex"):
                to = combatants[tx]["hex"]
            elif isinstance(tx, str) and tx in ("N", "S"):
                to = view["map"]["shed"]
            elif isinstance(tx, str):
                to = tx
            else:
                continue
            (x1, y1), (x2, y2) = geo.centre(start), geo.centre(to)
            along = CHIP_ALONG.get(entry["segment"], 0.5)  # two segments' throws down one line keep their chips apart
            throw_lines.append({"x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2), "y2": _fmt(y2),
                                "percent": row.get("percent"), "mx": _fmt(x1 + (x2 - x1) * along),
                                "my": _fmt(y1 + (y2 - y1) * along)})
        entry["throw_lines"] = throw_lines
        x, y = geo.centre(start)
        entry["start_x"], entry["start_y"] = _fmt(x), _fmt(y)
        out.append(entry)
    return out


# Where along its line a throw's chance is written, by segment.
CHIP_ALONG = {1: 0.38, 2: 0.62, 3: 0.5}

_HEX_LAYERS: dict[tuple[str, tuple[str, ...]], Any] = {}


def _hex_words(ref: str, m: dict[str, Any], path: set[str], conifers: set[str], adjacent: set[str],
               snowmen: set[str], starts: set[str], safe: set[str], side: str, side_used: bool) -> str:
    """What a hex is, in words, for its label: the ground and the features on it."""
    words = []
    if ref == m["shed"]:
        words.append("the shed, which nobody may enter")
    words += ["the path, no snow, half an MF a step along it"] if ref in path else []
    words += ["a conifer"] if ref in conifers else ["next to a conifer"] if ref in adjacent else []
    words += ["a snowman"] if ref in snowmen else []
    if side:
        words.append(f"under the {'north' if side == 'N' else 'south'} side of the shed roof"
                     + (", already avalanched" if side_used else ""))
    words += ["safe from avalanches"] if ref in safe else []
    words += ["the pond: whoever walks in loses every HP and goes to change in the kitchen"] if ref in (m.get("pond") or ()) else []
    words += ["the wheelbarrow full of snow, with Doubleday Dirigibles in it"] if ref == m.get("wheelbarrow") else []
    words += ["a start hex"] if ref in starts else []
    doors = doors_of(m)
    words += ["the kitchen door" if len(doors) == 1 else "a kitchen door"] if ref in doors else []
    return ", ".join(words) or "snow"


def _hex_layer(m: dict[str, Any], used_sides: tuple[str, ...]) -> Any:
    """The garden's hexes as SVG: the same for every page of a map while the same roof sides are bare."""
    key = (m["name"], used_sides)
    cached = _HEX_LAYERS.get(key)
    if cached is not None:
        return cached
    geo = geometry_of(m)
    path, conifers, adjacent = set(m["path"]), set(m["conifers"]), set(m["conifer_adjacent"])
    snowmen, starts, safe = set(m["snowmen"]), set(m["starts"]), set(m["avalanche_safe"])
    pond, doors = set(m.get("pond") or ()), set(doors_of(m))
    side_of = {h: side for side, cells in m["avalanche"].items() for h in cells}
    parts = []
    for ref in m["hexes"]:
        x, y = geo.centre(ref)
        classes = ["sf-hex"]
        classes += ["is-path"] if ref in path else []
        classes += ["is-conifer"] if ref in conifers else ["is-near-conifer"] if ref in adjacent else []
        classes += ["is-snowman"] if ref in snowmen else []
        classes += ["is-shed"] if ref == m["shed"] else []
        side = side_of.get(ref, "")
        if side:
            classes += [f"is-avalanche is-avalanche-{side}"] + (["is-used"] if side in used_sides else [])
        classes += ["is-safe"] if ref in safe else []
        classes += ["is-pond"] if ref in pond else []
        classes += ["is-wheelbarrow"] if ref == m.get("wheelbarrow") else []
        classes += ["is-start"] if ref in starts else []
        classes += ["is-door"] if ref in doors else []
        side_attr = f' data-side="{side}"' if side else ""
        what = _hex_words(ref, m, path, conifers, adjacent, snowmen, starts, safe, side, side in used_sides)
        parts.append(f'<g class="{" ".join(classes)}" data-hex="{ref}"{side_attr} role="button" tabindex="-1" '
                     f'data-what="{what}" aria-label="{ref}: {what}"><polygon points="{geo.points(ref)}"/>'
                     f'<text class="sf-ref" x="{_fmt(x)}" y="{_fmt(y - HALF_HEIGHT + 7.5)}">{ref}</text></g>')
    layer = mark_safe("".join(parts))
    if len(_HEX_LAYERS) < 64:
        _HEX_LAYERS[key] = layer
    return layer


# --------------------------------------------------------------------------- combatants' labels
# A token is its body (a circle), its snowballs to the right, a Dirigible to the left, a badge of
# HP, VPs and snowballs above it and a label with its name. Tokens a hex apart are closer than a
# label is wide, so each label goes where it covers the least of the other tokens, their badges
# and the labels placed before it: under its token when that is free, else above, beside or
# diagonally off it, shortened to the name's first word when nothing else fits.

BODY_R = 9.5
TAG_FONT = 5.5  # px, as .sf-tagtext
TAG_H = 9.0
STAT_FONT = 5.6  # px, as .sf-stattext
STAT_H = 9.0
STAT_TOP = -18.0  # the badge's top edge, from the token's centre
# Widths of characters in em, a little generous (measured on DejaVu Sans, a wide font), by kind.
_NARROW = set(" !'(),-./:;IJijlf|[]\\tr\"`")
_WIDE = set("MWmw@%")


def text_width(text: str, size: float, bold: bool = True) -> float:
    """An estimate of ``text``'s width in px at font size ``size``: enough for its box to hold it."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += 0.42 if bold else 0.38
        elif ch in _WIDE:
            em += 1.02 if bold else 0.98
        elif ch.isupper() or ch.isdigit() or not ch.isascii():
            em += 0.80 if bold else 0.74
        else:
            em += 0.67 if bold else 0.62
    return em * size


def _label_text(name: str, limit: int = 15) -> str:
    """The name as its label shows it (as the truncatechars filter cuts it)."""
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _stat_text(c: dict[str, Any]) -> str:
    snow = f" {c['ss']}●" + (f"{c['dd']}◉" if c["dd"] else "") if c["ss"] or c["dd"] else ""
    return f"{c['hp']}♥ {c['vp']}★{snow}"


Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _token_boxes(c: dict[str, Any]) -> list[Box]:
    """What a token draws, as boxes in the map's coordinates: body, badge, snowballs, Dirigible."""
    x, y = float(c["x"]), float(c["y"])
    half = c["stat_w"] / 2
    boxes = [(x - BODY_R - 0.5, y - BODY_R - 0.5, x + BODY_R + 0.5, y + BODY_R + 0.5),
             (x - half, y + STAT_TOP, x + half, y + STAT_TOP + STAT_H)]
    if c["ball_xs"]:
        boxes.append((x + 10, y - 2, x + float(c["ball_xs"][-1]) + 2, y + 2))
    if c["dd"]:
        boxes.append((x - 16.2, y - 3.2, x - 9.8, y + 3.2))
    return boxes


def _label_spots(c: dict[str, Any], w: float) -> list[tuple[float, float]]:
    """Where a label ``w`` wide may go, as its centre from the token's centre, best first."""
    below, above = BODY_R + 1 + TAG_H / 2, STAT_TOP - 0.5 - TAG_H / 2
    right = (float(c["ball_xs"][-1]) + 3 if c["ball_xs"] else BODY_R + 1.5) + w / 2
    left = -((16.7 if c["dd"] else BODY_R + 1.5) + w / 2)
    return [(0.0, below), (0.0, above), (right, 0.0), (left, 0.0),
            (4 + w / 2, below), (-4 - w / 2, below), (4 + w / 2, above), (-4 - w / 2, above)]


def place_labels(combatants: list[dict[str, Any]], width: float, height: float,
                 keep_off: list[Box] = (), short: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """Each drawn combatant's label (its seat, text, width and centre), placed where it covers the
    least of the other tokens, their badges, the boxes in ``keep_off`` (the kitchen's own words) and
    the labels placed before it (the viewer's own first); the seats in ``short`` get their name's
    first word only (the kitchen left room for no more).
    Kept apart from the tokens' own values, so that a token looks alike to every viewer who sees it
    alike and is drawn once for them all."""
    fixed = {c["seat"]: _token_boxes(c) for c in combatants}
    placed: list[Box] = list(keep_off)
    tags = []
    for c in sorted(combatants, key=lambda c: (not c["me"], c["seat"])):
        x, y = float(c["x"]), float(c["y"])
        others = [b for seat, boxes in fixed.items() if seat != c["seat"] for b in boxes] + placed
        own = fixed[c["seat"]]
        full = _label_text(c["name"])
        short_text = _label_text(c["name"].split()[0], 9) if " " in c["name"].strip() else full
        best = None
        for text, penalty in ((short_text, 0.0),) if c["seat"] in short else (
                ((full, 0.0), (short_text, 40.0)) if short_text != full else ((full, 0.0),)):
            w = round(text_width(text, TAG_FONT) + 4, 1)
            for rank, (dx, dy) in enumerate(_label_spots(c, w)):
                box = (x + dx - w / 2, y + dy - TAG_H / 2, x + dx + w / 2, y + dy + TAG_H / 2)
                inside = _overlap(box, (0.0, 0.0, width, height))
                score = (sum(_overlap(box, b) for b in others) + sum(_overlap(box, b) for b in own)
                         + 2 * (w * TAG_H - inside) + penalty + rank * 0.5)
                if best is None or score < best[0]:
                    best = (score, text, w, dx, dy, box)
        _, text, w, dx, dy, box = best
        placed.append(box)
        tags.append({"seat": c["seat"], "status": c["status"], "colour": c["colour"], "text": text, "w": _fmt(w),
                     "half": _fmt(w / 2), "x": _fmt(x + dx), "y": _fmt(y + dy)})
    return sorted(tags, key=lambda t: t["seat"])


# What a label's place depends on, of each combatant drawn (``place_labels``).
LABEL_INPUTS = ("seat", "x", "y", "me", "name", "stat_w", "ball_xs", "dd", "status", "colour")
PLACED_LABELS: LRU[bytes, list[dict[str, Any]]] = LRU(1024)


def placed_labels(combatants: list[dict[str, Any]], width: float, height: float, keep_off: list[Box],
                  short: frozenset[int]) -> list[dict[str, Any]]:
    """``place_labels``, remembered by everything it reads: while orders are written the tokens
    stay where they are, and each viewer's labels are placed once, not again at every version.
    Shared: read them, do not change them."""
    key = orjson.dumps([[[c[name] for name in LABEL_INPUTS] for c in combatants], width, height, keep_off,
                        sorted(short)])
    tags = PLACED_LABELS.get(key)
    if tags is None:
        tags = place_labels(combatants, width, height, keep_off=keep_off, short=short)
        PLACED_LABELS.put(key, tags)
    return tags


KITCHEN_GAP = 4.0  # px between two neighbours' badges or labels in the kitchen
KITCHEN_FONT = 5.4  # px, as .sf-tiny


def _kitchen_words(doors: list[str]) -> str:
    """The kitchen's own label, as kitchen.html writes it."""
    if len(doors) > 1:
        return f"THE HOUSE: KITCHEN (doors at {', '.join(doors)})"
    return f"KITCHEN (door at {', '.join(doors)})"


def _kitchen_half(c: dict[str, Any], short: bool) -> float:
    """Half the room a combatant in the kitchen takes: its body and snowballs, its badge, its name."""
    name = c["name"].split()[0] if short and " " in c["name"].strip() else c["name"]
    label = text_width(_label_text(name, 9 if short else 15), TAG_FONT) + 4
    reach = max((max(abs(b[0] - float(c["x"])), abs(b[2] - float(c["x"]))) for b in _token_boxes(c)[2:]), default=0.0)
    return max(BODY_R + 0.5, reach, c["stat_w"] / 2, label / 2)


def _seat_the_kitchen(geo: Geometry, doors: list[str], players: int,
                      inside: list[dict[str, Any]]) -> tuple[float, float, Box, frozenset[int]]:
    """Lay out the combatants in the kitchen side by side, in seat order, each given the width of
    its badge and its name's label (its first word's when the whole names do not fit), as near
    under the door as the walls allow; the snowy garden's kitchen grows (up to the garden's width)
    to hold them. Moves each one's x and y; returns the kitchen's left edge, its width, the box
    of its own label, which the names keep off, and the seats whose names must be shortened."""
    inside = sorted(inside, key=lambda c: c["seat"])
    kx, _ = geo.centre("KITCHEN")
    top = geo.map_bottom + 8
    room = geo.width - 2 * MARGIN_X
    halves: list[float] = []
    short = False
    for short in (False, True):
        halves = [_kitchen_half(c, short) for c in inside]
        if 2 * sum(halves) + KITCHEN_GAP * (len(halves) + 1) <= room:
            break
    row = 2 * sum(halves) + KITCHEN_GAP * max(len(halves) - 1, 0)
    if len(doors) > 1:  # the house fills the south end, a kitchen door at the end of each path
        left, width = MARGIN_X, room
    else:
        width = min(room, max(70.0, 24.0 * players + 20, row + 2 * KITCHEN_GAP))
        left = min(max(kx - width / 2, MARGIN_X), geo.width - MARGIN_X - width)
    squeeze = min(1.0, (width - 2 * KITCHEN_GAP) / row) if row else 1.0
    start = min(max(kx - row * squeeze / 2, left + KITCHEN_GAP), left + width - KITCHEN_GAP - row * squeeze)
    for c, half in zip(inside, halves):
        c["x"], c["y"] = _fmt(start + half * squeeze), _fmt(top + KITCHEN_HEIGHT / 2 + 4)
        start += (2 * half + KITCHEN_GAP) * squeeze
    words = text_width(_kitchen_words(doors), KITCHEN_FONT)
    middle = left + width / 2
    shortened = frozenset(c["seat"] for c in inside) if short else frozenset()
    return left, width, (middle - words / 2, top + 2, middle + words / 2, top + 9.5), shortened


@register.simple_tag
def sf_board(view: dict[str, Any], seat: int | None, names: list[str]) -> dict[str, Any]:
    """Everything the board template draws, for one viewer's view."""
    m = view["map"]
    geo = geometry_of(m)
    used = view.get("used") or {"conifers": [], "sides": [], "heads": []}
    starts = m["starts"]
    you = view.get("you") or {}
    my_starts = ((you.get("setup") or {}).get("starts") or []) if view["phase"] == "setup" else []
    hex_layer = _hex_layer(m, tuple(sorted(used["sides"])))
    combatants = []
    for c in view.get("combatants") or []:
        if not c.get("seen") or not c.get("hex") or c.get("status") == "gone":
            continue
        x, y = geo.centre(c["hex"])
        stat = _stat_text(c)
        combatants.append({**c, "x": _fmt(x), "y": _fmt(y), "colour": SEAT_COLOURS[c["seat"] % 6],
                           "initial": "".join(w[0] for w in c["name"].split()[:2]).upper() or "?",
                           "ball_xs": [_fmt(12 + 4.4 * i) for i in range(min(c["ss"], 4))], "me": c["seat"] == seat,
                           "stat": stat, "stat_w": round(text_width(stat, STAT_FONT, bold=False) + 5, 1)})
    sx, sy = geo.centre(m["shed"])
    kx, ky = geo.centre("KITCHEN")
    players = view.get("players") or len(names)
    doors = doors_of(m)
    kitchen_left, kitchen_w, kitchen_label, shortened = _seat_the_kitchen(
        geo, doors, players, [c for c in combatants if c["hex"] == "KITCHEN"])
    tags = placed_labels(combatants, geo.width, geo.height, [kitchen_label], shortened)
    for c in combatants:
        c["stat_half"] = _fmt(c["stat_w"] / 2)
        c["stat_w"] = _fmt(c["stat_w"])
    features = {
        "conifers": [{"ref": c, "x": _fmt(geo.centre(c)[0]), "y": _fmt(geo.centre(c)[1]), "used": c in used["conifers"]}
                     for c in m["conifers"]],
        "snowmen": [{"ref": s, "x": _fmt(geo.centre(s)[0]), "y": _fmt(geo.centre(s)[1]), "used": s in used["heads"]}
                    for s in m["snowmen"]],
        "shed": {"ref": m["shed"], "x": _fmt(sx), "y": _fmt(sy), "n_used": "N" in used["sides"], "s_used": "S" in used["sides"],
                 "n_y": _fmt(sy - HALF_HEIGHT + 2), "s_y": _fmt(sy + 1), "half": _fmt(HALF_HEIGHT - 3),
                 "left": _fmt(sx - RADIUS + 3), "w": _fmt(2 * RADIUS - 6)},
        "doors": [{"ref": d, "x": _fmt(geo.centre(d)[0]), "y": _fmt(geo.centre(d)[1] + HALF_HEIGHT)} for d in doors],
        "kitchen": {"x": _fmt(kitchen_left), "y": _fmt(geo.map_bottom + 8), "w": _fmt(kitchen_w),
                    "h": _fmt(KITCHEN_HEIGHT), "cx": _fmt(kitchen_left + kitchen_w / 2), "cy": _fmt(ky),
                    "doors": ", ".join(doors),
                    "house": len(doors) > 1},
        "pond": [{"ref": h, "points": geo.points(h, 3)} for h in m.get("pond") or ()],
        "wheelbarrow": _spot(geo, m.get("wheelbarrow")),
        "fence": _fence(geo) if m.get("fences") else None,
        "starts": [{"ref": s, "x": _fmt(geo.centre(s)[0]), "y": _fmt(geo.centre(s)[1]),
                    "rank": (my_starts.index(s) + 1) if s in my_starts else None} for s in starts],
    }
    col_labels = [{"n": c, "x": _fmt(MARGIN_X + RADIUS + (c - 1) * 1.5 * RADIUS)} for c in range(1, m["cols"] + 1)]
    row_labels = [{"l": letter, "y": _fmt(MARGIN_TOP + HALF_HEIGHT * (i + 1))} for i, letter in enumerate(m["rows"])]
    orders = _my_orders(view, geo, names)
    # where each segment's move can end, by the engine's cheapest routes from where it starts
    routes = [move_routes(MAPS[m["name"]], o["start"]) if o["active"] else None for o in orders]
    fog = _fog(view, geo, seat)
    return {
        "width": _fmt(geo.width), "height": _fmt(geo.height), "hex_layer": hex_layer, "combatants": combatants,
        "tags": tags,
        "features": features, "cols": col_labels, "rows": row_labels, "routes": routes,
        "report": _report(view, geo, names, seat), "orders": orders, "fog": fog,
        "report_fog_hides": bool(fog) and not fog.get("see_all"),
        "targets": _targets(view, names),
        "colours": SEAT_COLOURS, "throw_facts": THROW_FACTS, "bounce_spot": BOUNCE_SPOT, "conditions": CONDITIONS, "label_left": _fmt(MARGIN_X / 2 + 1),
        "label_right": _fmt(geo.width - MARGIN_X / 2 - 1),
    }


def _targets(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """Whom the viewer may aim at; in the fog, marked when out of its sight now."""
    help_ = (view.get("you") or {}).get("orders_help") or {}
    in_sight = help_.get("in_sight")
    combatants = view.get("combatants") or []
    return [{"seat": t, "name": _seat_name(combatants, t, names), "fogged": in_sight is not None and t not in in_sight}
            for t in help_.get("targets") or ()]


def _spot(geo: Geometry, ref: str | None) -> dict[str, str] | None:
    if not ref:
        return None
    x, y = geo.centre(ref)
    return {"ref": ref, "x": _fmt(x), "y": _fmt(y)}


def _fence(geo: Geometry) -> str:
    """The fence along the west side, the back (north) and the east side, as a polyline."""
    left, right = MARGIN_X - 3, geo.width - MARGIN_X + 3
    top, bottom = MARGIN_TOP - 2, geo.map_bottom + 4
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in ((left, bottom), (left, top), (right, top), (right, bottom)))


COMPASS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east",
           "S": "south", "SW": "south-west", "W": "west", "NW": "north-west"}
SOUND_WORDS = {"splash": "A splash", "throw": "A snowball thrown", "fall": "Someone falling over",
               "shout": "A shout"}
DISTANCE_WORDS = {"near": "close by", "middling": "a little way off", "far": "far off"}


def sound_text(sound: dict[str, Any]) -> str:
    """A sound in plain words: "A splash, far to the north-east"; a shout with what was shouted
    (a shout's ``text`` is the words shouted, any other sound's the engine's sentence)."""
    kind = sound.get("kind")
    if kind != "shout" and sound.get("text"):
        return sound["text"]
    if kind == "shout" and sound.get("yours"):
        return f"You shouted: “{sound.get('text', '')}”"
    what = SOUND_WORDS.get(kind, "A sound")
    where = COMPASS.get(sound.get("direction"), "")
    distance = DISTANCE_WORDS.get(sound.get("distance"), "")
    said = f"{what} to the {where}, {distance}" if where else what
    return f"{said}: “{sound['text']}”" if kind == "shout" and sound.get("text") else said


def _fog(view: dict[str, Any], geo: Geometry, seat: int | None) -> dict[str, Any] | None:
    """What the fog hides from this viewer (drawn over every hex it cannot see), the gnomes it
    found, its vision, and the sounds it heard, newest turn first."""
    fog = view.get("fog")
    if not fog:
        return None
    m = view["map"]
    visible = set(fog.get("visible") or ())
    everything = view["phase"] == "over" or (seat is None and fog.get("spectators_see_all"))
    hidden = [] if everything else [h for h in m["hexes"] if h not in visible]
    sounds = [{**sound, "said": sound_text(sound)} for sound in fog.get("sounds") or ()]
    sounds.sort(key=lambda sound: (-(sound.get("turn") or 0), -(sound.get("segment") or 0)))
    turns: dict[Any, list[dict[str, Any]]] = {}
    for sound in sounds:
        turns.setdefault(sound.get("turn"), []).append(sound)
    return {
        "vision": fog.get("vision"),
        "see_all": bool(everything),
        "spectator": seat is None,
        "hidden": [{"ref": h, "points": geo.points(h)} for h in hidden],
        "hidden_count": len(hidden),
        "gnomes": [_spot(geo, g) for g in fog.get("gnomes") or ()],
        "sounds": [{"turn": turn, "sounds": group} for turn, group in turns.items()],
    }


@register.filter
def seat_colour(seat: Any) -> str:
    try:
        return SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]
    except (TypeError, ValueError):
        return "#555"


@register.filter
def signed(value: Any) -> str:
    """A modifier as the table writes it: +10, -5."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"+{number}" if number > 0 else str(number)


STAND_STILL_ALL_TURN = {"type": "orders", "segments": [{"type": "stand"}] * 3, "ready": True}


@register.simple_tag
def sf_stand_still_all_turn() -> str:
    """The ``hx-vals`` of the button that stands still all turn and seals it: orders, not an NMR
    (no +10% to be hit, and no second NMR in a row)."""
    return ws_vals(STAND_STILL_ALL_TURN)
