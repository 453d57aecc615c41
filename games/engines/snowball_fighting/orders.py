"""Written orders: their JSON shapes, checking them, and the hit chance a written throw would have.

A turn's orders are three segment orders. Each is checked as the player writes it, from
where the player will stand and what it will carry if its own earlier orders go as written
(other players' orders are unknown, and may bump it or hit it; the engine then adapts the
written order, see README.md). A refused order raises ``BadAction`` (malformed) or
``IllegalAction`` (against the rules), naming the segment and the reason.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import Action, BadAction, IllegalAction, State, shown
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, MF_PER_SEGMENT, HexMap, mf

SEGMENTS = 3
SIMPLE_ORDERS = ("stand", "move", "collect", "collect_move", "rattlesnake", "baker", "bolero",
                 "maniac", "dirigible", "storm", "avalanche")
CONDITIONS: dict[str, str] = {
    "hit": "I was hit in segment 1 or 2",
    "not_hit": "I was not hit in segment 1 or 2",
    "hit_someone": "I hit someone in segment 1 or 2",
    "hp_at_most": "my HP is at most value",
    "snowballs_at_least": "I hold at least value snowballs (simple and Dirigibles)",
    "opponent_within": "an opponent I can hit stands within value hexes",
    "seat_within": "that seat stands within value hexes",
    "seat_away": "that seat cannot be hit (running, in the kitchen, gone)",
    "at": "I stand on that hex",
}
MAX_CASES = 3
COLLECT_KINDS = ("ss", "dd", "head", "barrow")


def where(segment: int) -> str:
    return f"segment {segment}"


# --------------------------------------------------------------------------- shapes


def _field(raw: dict[str, Any], key: str, segment: int) -> Any:
    if key not in raw:
        raise BadAction(f"{where(segment)}: the {raw.get('type')} order needs {shown(key)}")
    return raw[key]


def _seat_field(raw: dict[str, Any], key: str, segment: int, players: int) -> int:
    value = _field(raw, key, segment)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise BadAction(f"{where(segment)}: {key} must be a seat number 0..{players - 1}, got {shown(value)}")
    return value


def _route_field(raw: dict[str, Any], segment: int) -> list[str]:
    route = _field(raw, "route", segment)
    if not isinstance(route, list) or not route or not all(isinstance(h, str) for h in route):
        raise BadAction(f"{where(segment)}: route must be a non-empty list of hexes like ['K9', 'L10']")
    return [h if h == KITCHEN else h.upper() for h in route]


def _provisional(raw: dict[str, Any], order: dict[str, Any], segment: int) -> dict[str, Any]:
    """A Fogbound provisional move: ``"if_hazard": "stand"`` stands still instead when the first
    step would enter a hazard the mover sees then (the pond, or a hex at or next to a gnome it found)."""
    if "if_hazard" not in raw:
        return order
    if raw["if_hazard"] != "stand":
        raise BadAction(f"{where(segment)}: if_hazard must be 'stand' (stand still instead when the first "
                        f"step would enter a hazard you see), got {shown(raw['if_hazard'])}")
    return {**order, "if_hazard": "stand"}


def _carry_field(raw: dict[str, Any], segment: int) -> str | None:
    carry = raw.get("carry")
    if carry not in (None, "ss", "dd"):
        raise BadAction(f"{where(segment)}: carry must be 'ss' or 'dd', got {shown(carry)}")
    return carry


def _collect_fields(raw: dict[str, Any], segment: int) -> dict[str, Any]:
    what = raw.get("what", "ss")
    if what not in COLLECT_KINDS:
        raise BadAction(f"{where(segment)}: what must be 'ss' (simple snowballs), 'dd' (a Doubleday "
                        f"Dirigible), 'head' (a snowman's head) or 'barrow' (a Dirigible from the "
                        f"Fogbound wheelbarrow), got {shown(what)}")
    count = raw.get("count", 1)
    if what != "ss":
        if count != 1:
            raise BadAction(f"{where(segment)}: only one {'head' if what == 'head' else 'Dirigible'} "
                            "can be collected in a segment")
    elif count not in (1, 2) or isinstance(count, bool):
        raise BadAction(f"{where(segment)}: count must be 1 or 2 simple snowballs, got {shown(count)}")
    return {"what": what, "count": count}


def normalize(raw: Any, segment: int, players: int, *, allow_conditional: bool) -> dict[str, Any] | None:
    """The canonical form of one segment order (None: not written yet); BadAction if malformed."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise BadAction(f"{where(segment)}: an order is an object with a 'type', got {shown(raw)}")
    kind = raw["type"]
    if kind == "conditional":
        if not allow_conditional:
            raise BadAction(f"{where(segment)}: conditional orders are allowed only for segment 3, "
                            "and only with optional rule 13")
        cases = raw.get("cases")
        if not isinstance(cases, list) or not 1 <= len(cases) <= MAX_CASES:
            raise BadAction(f"{where(segment)}: cases must be a list of 1 to {MAX_CASES} "
                            "{'when': condition, 'then': order}")
        out = []
        for case in cases:
            if not isinstance(case, dict) or "when" not in case or "then" not in case:
                raise BadAction(f"{where(segment)}: each case is {{'when': condition, 'then': order}}")
            then = normalize(case["then"], segment, players, allow_conditional=False)
            if then is None:
                raise BadAction(f"{where(segment)}: a case's 'then' must be an order")
            out.append({"when": _condition(case["when"], segment, players), "then": then})
        otherwise = normalize(raw.get("otherwise", {"type": "stand"}), segment, players,
                              allow_conditional=False) or {"type": "stand"}
        return {"type": "conditional", "cases": out, "otherwise": otherwise}
    if kind not in SIMPLE_ORDERS:
        raise BadAction(f"{where(segment)}: unknown order {shown(kind)}; orders are "
                        f"{', '.join(SIMPLE_ORDERS)}" + (" and conditional" if allow_conditional else ""))
    if kind in ("stand", "maniac"):
        return {"type": kind}
    if kind == "move":
        order: dict[str, Any] = {"type": "move", "route": _route_field(raw, segment)}
        carry = _carry_field(raw, segment)
        return _provisional(raw, {**order, "carry": carry} if carry else order, segment)
    if kind == "collect":
        return {"type": "collect", **_collect_fields(raw, segment)}
    if kind == "collect_move":
        at = raw.get("collect_at", "end")
        if at not in ("start", "end"):
            raise BadAction(f"{where(segment)}: collect_at must be 'start' (collect, then move) or "
                            f"'end' (move, then collect), got {shown(at)}")
        order = {"type": "collect_move", **_collect_fields(raw, segment), "collect_at": at,
                 "route": _route_field(raw, segment)}
        carry = _carry_field(raw, segment)
        return _provisional(raw, {**order, "carry": carry} if carry else order, segment)
    if kind == "rattlesnake":
        target = raw.get("target")
        if target == "nearest":
            return {"type": kind, "target": "nearest"}
        return {"type": kind, "target": _seat_field(raw, "target", segment, players)}
    if kind == "baker":
        bounce = raw.get("bounce", "spot")
        if bounce != "spot" and not isinstance(bounce, str):
            raise BadAction(f"{where(segment)}: bounce must be 'spot' or the hex to bounce to, got {shown(bounce)}")
        return {"type": kind, "target": _seat_field(raw, "target", segment, players),
                "bounce": bounce if bounce == "spot" else bounce.upper()}
    if kind == "bolero":
        targets = _field(raw, "targets", segment)
        if not isinstance(targets, list) or len(targets) != 2:
            raise BadAction(f"{where(segment)}: a Bowen Bolero names exactly two targets, got {shown(targets)}")
        seats = [_seat_field({"t": t}, "t", segment, players) for t in targets]
        return {"type": kind, "targets": seats}
    if kind == "dirigible":
        return {"type": kind, "target": _seat_field(raw, "target", segment, players)}
    if kind == "storm":
        conifer = _field(raw, "conifer", segment)
        if not isinstance(conifer, str):
            raise BadAction(f"{where(segment)}: conifer must be a hex like 'E3', got {shown(conifer)}")
        return {"type": kind, "conifer": conifer.upper()}
    side = _field(raw, "side", segment)
    if side not in ("N", "S"):
        raise BadAction(f"{where(segment)}: side must be 'N' or 'S', got {shown(side)}")
    return {"type": "avalanche", "side": side}


def _condition(raw: Any, segment: int, players: int) -> dict[str, Any]:
    if not isinstance(raw, dict) or raw.get("if") not in CONDITIONS:
        raise BadAction(f"{where(segment)}: a condition is {{'if': one of {', '.join(CONDITIONS)}, ...}}, "
                        f"got {shown(raw)}")
    kind = raw["if"]
    cond: dict[str, Any] = {"if": kind}
    if kind in ("hp_at_most", "snowballs_at_least", "opponent_within", "seat_within"):
        value = raw.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 40:
            raise BadAction(f"{where(segment)}: condition {kind} needs a whole 'value' 0..40, got {shown(value)}")
        cond["value"] = value
    if kind in ("seat_within", "seat_away"):
        cond["seat"] = _seat_field(raw, "seat", segment, players)
    if kind == "at":
        hex_ref = raw.get("hex")
        if not isinstance(hex_ref, str):
            raise BadAction(f"{where(segment)}: condition 'at' needs a 'hex' like 'K9'")
        cond["hex"] = hex_ref.upper()
    return cond


# --------------------------------------------------------------------------- checking


def first_segment(state: State, seat: int) -> int | None:
    """The first segment of this turn in which ``seat`` acts on its orders (None: not this turn)."""
    c = state["combatants"][seat]
    if c["status"] == "fighting":
        return 1
    if c["status"] == "drying":
        k = c["dry_until"] - state["clock"] + 1
        return k if k <= SEGMENTS else None
    return None


def starting_point(state: State, seat: int) -> dict[str, Any]:
    """Where ``seat`` will stand and what it will hold when its orders begin this turn."""
    c = state["combatants"][seat]
    if c["status"] == "drying":
        garden = garden_of(state)
        return {"hex": c.get("door") or garden.kitchen_door, "ss": 2, "dd": 0}
    return {"hex": c["hex"], "ss": c["ss"], "dd": c["dd"]}


def garden_of(state: State) -> HexMap:
    """The game's map."""
    return MAPS[state["options"]["map"]]


def plan(state: State, seat: int, segments: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """Check a seat's orders; return for each segment where it starts and what it holds then.

    Raises IllegalAction naming the segment and the rule at the first order that breaks one.
    """
    garden = garden_of(state)
    first = first_segment(state, seat)
    if first is None:
        raise IllegalAction("you have no orders to write this turn")
    ctx = starting_point(state, seat)
    out = []
    for k, order in enumerate(segments, start=1):
        out.append(dict(ctx))
        if k < first:
            if order is not None and order["type"] != "stand":
                raise IllegalAction(
                    f"{where(k)}: you are drying your socks in the kitchen; your orders start in "
                    f"segment {first}, at {garden.kitchen_door}")
            continue
        if order is None:
            continue
        if order["type"] == "conditional":
            for case in order["cases"]:
                check_condition(state, seat, case["when"], k)
                check_order(state, seat, case["then"], ctx, k)
            check_order(state, seat, order["otherwise"], ctx, k)
            continue
        ctx = check_order(state, seat, order, ctx, k)
    return out


def check_condition(state: State, seat: int, cond: dict[str, Any], segment: int) -> None:
    garden = garden_of(state)
    if "seat" in cond and cond["seat"] == seat:
        raise IllegalAction(f"{where(segment)}: a condition about a seat must name another seat, not yours")
    if cond["if"] == "at" and not garden.is_place(cond["hex"]):
        raise IllegalAction(f"{where(segment)}: there is no hex {shown(cond['hex'])} to stand on in the garden")


def _targetable_seat(state: State, seat: int, target: int, segment: int, fogbound: bool = False) -> None:
    if target == seat:
        raise IllegalAction(f"{where(segment)}: you cannot throw at yourself")
    if not fogbound and state["combatants"][target]["status"] == "gone":
        name = state["combatants"][target]["name"]
        raise IllegalAction(f"{where(segment)}: {name} has left the garden for good")


def check_order(state: State, seat: int, order: dict[str, Any], ctx: dict[str, Any],
                segment: int) -> dict[str, Any]:
    """One (non-conditional) order from ``ctx``; returns where the seat stands and what it holds after."""
    garden = garden_of(state)
    kind = order["type"]
    here, ss, dd = ctx["hex"], ctx["ss"], ctx["dd"]
    fogbound = state.get("fog") is not None
    if "if_hazard" in order and not fogbound:
        raise IllegalAction(f"{where(segment)}: provisional moves (if_hazard) are part of the Fogbound variant")
    if kind == "stand":
        return ctx
    if kind in ("move", "collect_move"):
        budget = MF_PER_SEGMENT
        if kind == "collect_move":
            cost = R.COLLECT_COST[order["what"]] * order["count"]
            if cost >= MF_PER_SEGMENT:
                raise IllegalAction(
                    f"{where(segment)}: collecting {_collect_words(order)} takes {mf(cost)} MF, leaving "
                    "nothing to move with; order a plain collect instead")
            budget -= cost
            if order["collect_at"] == "start":
                ss, dd = _collect_at(state, order, here, ss, dd, segment)
        problem = garden.route_problem(here, order["route"], budget)
        if problem is not None:
            raise IllegalAction(f"{where(segment)}: {problem}")
        ss, dd = R.carried_after_leaving(ss, dd, order.get("carry"))
        here = order["route"][-1]
        if here == KITCHEN:
            ss = dd = 0
        if kind == "collect_move" and order["collect_at"] == "end":
            ss, dd = _collect_at(state, order, here, ss, dd, segment)
        return {"hex": here, "ss": ss, "dd": dd}
    if kind == "collect":
        ss, dd = _collect_at(state, order, here, ss, dd, segment)
        return {"hex": here, "ss": ss, "dd": dd}
    # a throw
    throw = R.THROWS[kind]
    if fogbound and state["turn"] <= F.OPENING_TURNS:
        raise IllegalAction(f"{where(segment)}: no snow is thrown in the first {F.OPENING_TURNS} turns, while "
                            "everyone runs out into the garden; move, collect or stand")
    if here == KITCHEN:
        raise IllegalAction(f"{where(segment)}: nobody can throw from inside the kitchen")
    if ss < throw.ss:
        raise IllegalAction(
            f"{where(segment)}: a {throw.name} needs {throw.ss} simple snowball{'s' if throw.ss > 1 else ''}, "
            f"and you will have {ss}")
    if dd < throw.dd:
        raise IllegalAction(f"{where(segment)}: a {throw.name} needs a Doubleday Dirigible, and you will have none")
    if kind in ("rattlesnake", "baker", "dirigible") and order["target"] != "nearest":
        _targetable_seat(state, seat, order["target"], segment, fogbound)
    if kind == "bolero":
        a, b = order["targets"]
        if a == b:
            raise IllegalAction(f"{where(segment)}: a Bowen Bolero needs two different targets")
        _targetable_seat(state, seat, a, segment, fogbound)
        _targetable_seat(state, seat, b, segment, fogbound)
    if kind == "baker" and order["bounce"] != "spot":
        bounce = order["bounce"]
        if not garden.is_hex(bounce) or bounce == garden.shed or not garden.adjacent(here, bounce):
            raise IllegalAction(f"{where(segment)}: you can bounce only to a hex next to {here}, "
                                f"not {bounce}")
    if kind == "storm":
        conifer = order["conifer"]
        if conifer not in garden.conifers:
            raise IllegalAction(f"{where(segment)}: {conifer} is not a conifer; the conifers are "
                                f"{', '.join(garden.conifers)}")
        if conifer in state["used"]["conifers"] and not fogbound:
            raise IllegalAction(f"{where(segment)}: the conifer at {conifer} has already been stormed")
    if kind == "avalanche" and order["side"] in state["used"]["sides"] and not fogbound:
        side = "north" if order["side"] == "N" else "south"
        raise IllegalAction(f"{where(segment)}: the {side} side of the shed roof has already avalanched")
    return {"hex": here, "ss": ss - throw.ss, "dd": dd - throw.dd}


def _collect_words(order: dict[str, Any]) -> str:
    if order["what"] == "dd":
        return "a Doubleday Dirigible"
    if order["what"] == "head":
        return "a snowman's head"
    return "two simple snowballs" if order["count"] == 2 else "a simple snowball"


def _collect_at(state: State, order: dict[str, Any], here: str, ss: int, dd: int,
                segment: int) -> tuple[int, int]:
    garden = garden_of(state)
    if here == KITCHEN:
        raise IllegalAction(f"{where(segment)}: there is no snow inside the kitchen")
    if garden.on_path(here):
        raise IllegalAction(f"{where(segment)}: snowballs cannot be collected on the path ({here})")
    if order["what"] == "head":
        if here not in garden.snowmen:
            raise IllegalAction(f"{where(segment)}: a snowman's head can be taken only on the snowman's "
                                f"hex ({' or '.join(garden.snowmen)}), not {here}")
        if here in state["used"]["heads"] and state.get("fog") is None:  # in the fog it is found gone on arrival
            raise IllegalAction(f"{where(segment)}: the snowman at {here} has already lost its head")
        return ss, dd + 1
    if order["what"] == "barrow":
        if here != garden.wheelbarrow:
            raise IllegalAction(f"{where(segment)}: Dirigibles come out of the wheelbarrow only on its hex"
                                + (f" ({garden.wheelbarrow}), not {here}" if garden.wheelbarrow else
                                   "; this garden has no wheelbarrow"))
        return ss, dd + 1
    if order["what"] == "dd":
        return ss, dd + 1
    return ss + order["count"], dd


def move_routes(garden: HexMap, from_hex: str, *, budget: int = MF_PER_SEGMENT) -> dict[str, dict[str, Any]]:
    """Every place a move from ``from_hex`` can end on within ``budget`` half-MF, with the cheapest
    route there (the hexes entered) and its cost in MF as a number (2.5): ``{place: {"route", "mf"}}``.
    Costs are the book's: 1 MF a hex, ½ MF from path to path, never into the shed, the kitchen only
    by its door; ties go to the earlier hexes in map order."""
    if not garden.is_place(from_hex):
        return {}
    return {place: {"route": route, "mf": cost / 2}
            for place, (cost, route) in garden.cheapest_routes(from_hex, budget).items()}


def shortest_route(state: State, seat: int, from_hex: str, to_hex: str, *,
                   budget: int = MF_PER_SEGMENT) -> list[str] | None:
    """The cheapest route ``seat`` can walk from ``from_hex`` to ``to_hex`` in one segment (every
    seat moves by the same rules in the snow); None when no move ends there: the same place, the
    shed, not a place, or more than ``budget`` half-MF away."""
    found = move_routes(garden_of(state), from_hex, budget=budget).get(to_hex)
    return found["route"] if found else None


def parse_segments(state: State, raw: Any) -> list[dict[str, Any] | None]:
    """The canonical three segment orders of an ``orders`` action; BadAction if malformed."""
    if not isinstance(raw, list) or len(raw) != SEGMENTS:
        raise BadAction(f"segments must be a list of {SEGMENTS} orders (null for one not written yet)")
    rule13 = state["options"]["rule13"]
    return [normalize(o, k, state["players"], allow_conditional=rule13 and k == SEGMENTS)
            for k, o in enumerate(raw, start=1)]


# --------------------------------------------------------------------------- hit chances


def aimed_chance(garden: HexMap, *, action: str, thrower_hex: str, target_hex: str,
                 target_facts: dict[str, Any] | None, big_hit_last: bool, conditional: bool,
                 nearest: bool = False) -> dict[str, Any] | None:
    """The hit chance of one aimed throw (at a combatant, a conifer or the shed), or None when
    no throwing route joins the two hexes. ``target_facts`` None: a conifer or the shed."""
    throw = R.THROWS[action]
    distance = garden.throw_range(thrower_hex, target_hex)
    if distance is None:
        return None
    mods: list[tuple[str, int]] = []
    if action != "maniac":
        line = R.range_modifier(distance, throw.range)
        if line:
            mods.append(line)
    if nearest:
        mods.append((R.M_NEAREST, R.NEAREST_PENALTY))
    if target_facts is not None:
        mods += R.target_modifiers(garden, target_facts)
    mods += R.thrower_modifiers(big_hit_last=big_hit_last, conditional=conditional)
    result = R.chance(throw.chance, mods, garden.over_shed(thrower_hex, target_hex))
    result["distance"] = distance
    return result


UNKNOWN_TARGET_LINES = ("what the target does this segment (moving, collecting, Mendham Maniac, "
                        "Baker Bounce, Bowen Bolero) and where it will stand")


def preview(state: State, seat: int, segments: list[dict[str, Any] | None]) -> list[list[dict[str, Any]]]:
    """For each written segment, the hit chance of each throw it makes as far as it is known now.

    Uses the thrower's planned hex, the targets' hexes now, and every modifier known when the
    orders are written; the lines that depend on the target's own orders are listed under
    ``unknown`` (and a target's terrain may change if it moves).
    """
    garden = garden_of(state)
    contexts = plan(state, seat, segments)
    rule13_penalty = state["options"]["rule13"]
    if F.is_fogbound(state):
        sight = F.visible_now(state, seat)
        state = {**state, "combatants": [c if x == seat or F.eye(state, x) in sight else {**c, "hex": KITCHEN}
                                         for x, c in enumerate(state["combatants"])]}
    out: list[list[dict[str, Any]]] = []
    for k, (order, ctx) in enumerate(zip(segments, contexts), start=1):
        rows: list[dict[str, Any]] = []
        if order is not None and ctx["hex"] != KITCHEN:
            branches = ([c["then"] for c in order["cases"]] + [order["otherwise"]]
                        if order["type"] == "conditional" else [order])
            for branch in branches:
                conditional = order["type"] == "conditional" and rule13_penalty
                rows += _preview_order(state, seat, garden, branch, ctx["hex"], k, conditional)
        out.append(rows)
    return out


def _known_facts(state: State, target: int, segment: int) -> dict[str, Any]:
    c = state["combatants"][target]
    facts: dict[str, Any] = {"hex": c["hex"], "nmr": False}
    if segment == 1:
        facts["big_hit_last"] = c["big_hit"] == state["clock"]
    return facts


def _preview_order(state: State, seat: int, garden: HexMap, order: dict[str, Any], here: str,
                   segment: int, conditional: bool) -> list[dict[str, Any]]:
    kind = order["type"]
    if kind not in R.THROWS:
        return []
    me = state["combatants"][seat]
    big_hit = segment == 1 and me["big_hit"] == state["clock"]
    rows = []

    def row(label: str, target_hex: str, facts: dict[str, Any] | None, *, target: Any = None,
            nearest: bool = False) -> None:
        c = aimed_chance(garden, action=kind, thrower_hex=here, target_hex=target_hex, target_facts=facts,
                         big_hit_last=big_hit, conditional=conditional, nearest=nearest)
        if c is None:
            return
        c.update({"segment": segment, "action": kind, "target": target, "label": label,
                  "unknown": [UNKNOWN_TARGET_LINES] if facts is not None else []})
        if facts is not None and segment > 1:
            c["unknown"].append("whether the target is hit by an Avalanche or Dirigible the segment before")
        rows.append(c)

    def targets() -> list[int]:
        return [x for x, c in enumerate(state["combatants"])
                if x != seat and c["status"] in ("fighting", "fled") and c["hex"] != KITCHEN]

    if kind in ("rattlesnake", "baker", "dirigible"):
        target = order["target"]
        if target == "nearest":
            near = _nearest_now(state, garden, seat, here)
            for x in near:
                row(f"nearest opponent now: {state['combatants'][x]['name']}", state["combatants"][x]["hex"],
                    _known_facts(state, x, segment), target=x, nearest=True)
        elif state["combatants"][target]["hex"] != KITCHEN:
            row(state["combatants"][target]["name"], state["combatants"][target]["hex"],
                _known_facts(state, target, segment), target=target)
    elif kind == "bolero":
        for target in order["targets"]:
            if state["combatants"][target]["hex"] != KITCHEN:
                row(state["combatants"][target]["name"], state["combatants"][target]["hex"],
                    _known_facts(state, target, segment), target=target)
    elif kind == "maniac":
        for x in targets():
            distance = garden.throw_range(here, state["combatants"][x]["hex"])
            if distance is not None and distance <= R.THROWS["maniac"].range:
                row(state["combatants"][x]["name"], state["combatants"][x]["hex"],
                    _known_facts(state, x, segment), target=x)
    elif kind == "storm":
        row(f"the conifer at {order['conifer']}", order["conifer"], None, target=order["conifer"])
    elif kind == "avalanche":
        row(f"the shed roof ({order['side']} side)", garden.shed, None, target=order["side"])
    return rows


def _nearest_now(state: State, garden: HexMap, seat: int, here: str) -> list[int]:
    best: list[int] = []
    best_d = None
    for x, c in enumerate(state["combatants"]):
        if x == seat or c["status"] not in ("fighting", "fled") or c["hex"] == KITCHEN:
            continue
        d = garden.throw_range(here, c["hex"])
        if d is None:
            continue
        if best_d is None or d < best_d:
            best, best_d = [x], d
        elif d == best_d:
            best.append(x)
    return best


def example_orders(state: State, seat: int) -> Action:
    """A legal orders action for ``seat``: stand still for three segments."""
    first = first_segment(state, seat) or 1
    return {"type": "orders", "segments": [{"type": "stand"} if k >= first else None for k in (1, 2, 3)]}
