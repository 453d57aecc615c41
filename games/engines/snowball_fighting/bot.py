"""A computer player that writes sensible orders from its own view only (it cannot peek).

For each segment it plans from where its own earlier orders leave it, assuming everyone
else stays where they stand now: collect when it has nothing to throw, throw the action
with the best expected damage when a target is in a fair range, otherwise close in to a
good throwing distance, preferring cover and keeping off the hexes of conifers that can
still be stormed. It is deterministic: it needs no randomness.

In the Fogbound garden it sees only its view: it never throws in the opening, keeps out of
the pond and away from the gnomes it has found (and marks its moves provisional), makes for
the wheelbarrow while it has no Dirigible and the barrow is not known to be empty, and with
nobody in sight walks towards the latest sound it heard, else towards the middle of the garden.
"""
from __future__ import annotations

import heapq
from typing import Any

from games.engines.base import Action, GameError, View
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import orders as O
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, MF_PER_SEGMENT, HexMap

BOT_NAMES = ("Snow Warrior", "Jack Frost", "Winter Wolf", "Ice Maiden", "Slush Puppy", "Frostbite")
THROW_WORTH_IT = 0.3  # expected HP a throw must promise before the bot throws rather than moves
GOOD_DISTANCE = 3


def choose_action(view: View) -> Action:
    """The bot's action for the viewer of ``view``; the viewer must be asked to act."""
    you = view["you"]
    if you is None or not you["asked"]:
        raise ValueError("the bot was asked to act for a seat that is not asked anything")
    if view["phase"] == "setup":
        seat = you["seat"]
        starts = view["map"]["starts"]
        rotated = starts[seat % len(starts):] + starts[:seat % len(starts)]
        return {"type": "setup", "name": BOT_NAMES[seat % len(BOT_NAMES)], "starts": rotated, "ready": True}
    if you["orders"] is not None:
        return {"type": "ready"}
    return {"type": "orders", "segments": write_orders(view), "ready": True}


def write_orders(view: View) -> list[dict[str, Any] | None]:
    """Three segment orders for the viewer."""
    garden = MAPS[view["map"]["name"]]
    you = view["you"]
    help_ = you["orders_help"]
    me = you["seat"]
    ctx = {"hex": help_["start"], "ss": help_["ss"], "dd": help_["dd"]}
    enemies = {c["seat"]: c["hex"] for c in view["combatants"]
               if c["seat"] != me and c.get("seen") and c["status"] in ("fighting", "fled") and c["hex"] != KITCHEN}
    nmr = {c["seat"] for c in view["combatants"] if c.get("seen") and c["status"] == "fled"}
    used = view["used"]
    fog = _FogPlan.of(view, garden) if view.get("fog") else None
    segments: list[dict[str, Any] | None] = []
    for k in (1, 2, 3):
        if k < help_["first_segment"]:
            segments.append(None)
            continue
        if fog:
            order = _fog_order(garden, ctx, enemies, nmr, used, fog)
        else:
            order = _one_order(garden, ctx, enemies, nmr, used)
        segments.append(order)
        ctx = _after(garden, ctx, order)
    return segments


class _FogPlan:
    """What the bot makes of its Fogbound view: where it must not step and where it is going."""

    IDEAL = {"near": 2, "middling": 5, "far": 9}

    def __init__(self, avoid: frozenset[str], goal: str | None, throwing: bool, barrow_left: int | None):
        self.avoid, self.goal, self.throwing, self.barrow_left = avoid, goal, throwing, barrow_left

    @classmethod
    def of(cls, view: View, garden: HexMap) -> "_FogPlan":
        fog = view["fog"]
        help_ = view["you"]["orders_help"]
        here = help_["start"]
        gnomes = fog["gnomes"]
        avoid = frozenset(garden.pond) | frozenset(gnomes) | frozenset(
            h for g in gnomes for h in garden.neighbours(g) if h != KITCHEN)
        goal = None
        if here != KITCHEN:
            heard = [x for x in fog["sounds"] if not x.get("yours") and x["direction"]]
            if heard:
                latest = heard[-1]
                goal = cls._guess(garden, here, latest["direction"], latest["distance"])
            if goal is None:
                goal = cls._middle(garden)
        return cls(avoid, goal, help_.get("throwing", True), fog.get("wheelbarrow"))

    @classmethod
    def _guess(cls, garden: HexMap, here: str, direction: str, distance: str) -> str | None:
        """The hex a sound most likely came from: that way and about that far."""
        ideal = cls.IDEAL[distance]
        found = [h for h in garden.hexes if h != here and h not in garden.pond
                 and F.compass(garden, here, h) == direction and F.band(garden.distance(here, h)) == distance]
        if not found:
            return None
        return min(found, key=lambda h: (abs(garden.distance(here, h) - ideal), garden.hexes.index(h)))

    @staticmethod
    def _middle(garden: HexMap) -> str:
        rows, cols = garden.rows, garden.cols
        return min((h for h in garden.hexes if h not in garden.pond),
                   key=lambda h: (abs(F.garden_coords(garden, h)[0] - rows / 2) / 2
                                  + abs(F.garden_coords(garden, h)[1] - cols / 2), garden.hexes.index(h)))


def _fog_order(garden: HexMap, ctx: dict[str, Any], enemies: dict[int, str], nmr: set[int],
               used: dict[str, list[str]], fog: _FogPlan) -> dict[str, Any]:
    """One segment's order in the fog."""
    here, ss, dd = ctx["hex"], ctx["ss"], ctx["dd"]
    if here == KITCHEN:
        return {"type": "move", "route": [garden.neighbours(KITCHEN)[0]]}
    if fog.throwing:
        value, throw = _best_throw(garden, ctx, enemies, nmr, used)
        if throw is not None and value >= THROW_WORTH_IT:
            return throw
    barrow = garden.wheelbarrow
    if here == barrow and dd == 0 and fog.barrow_left != 0:
        return {"type": "collect", "what": "barrow"}
    if ss == 0 and dd == 0 and not garden.on_path(here) and (enemies or barrow is None or fog.barrow_left == 0):
        return {"type": "collect", "what": "ss", "count": 2}
    if enemies and fog.throwing:
        goal = min(enemies.values(), key=lambda h: (garden.distance(here, h), garden.hexes.index(h)))
    elif dd == 0 and barrow is not None and fog.barrow_left != 0:
        goal = barrow
    else:
        goal = fog.goal or here
    if ss < 2 and dd == 0 and not garden.on_path(here) and garden.distance(here, goal) <= GOOD_DISTANCE:
        return {"type": "collect", "what": "ss", "count": 2 - ss}
    routes = _reachable(garden, here, MF_PER_SEGMENT, fog.avoid)
    taken = set(enemies.values())
    want = GOOD_DISTANCE if enemies and fog.throwing else 0
    dest = min((h for h in routes if h not in taken),
               key=lambda h: (abs(garden.distance(h, goal) - want), len(routes[h]), garden.hexes.index(h)))
    if dest == here:
        if ss < 2 and dd == 0 and not garden.on_path(here):
            return {"type": "collect", "what": "ss", "count": 2 - ss}
        return {"type": "stand"}
    return {"type": "move", "route": routes[dest], "if_hazard": "stand"}


def _after(garden: HexMap, ctx: dict[str, Any], order: dict[str, Any]) -> dict[str, Any]:
    """Where the bot stands and what it holds after ``order``, as the engine will see it."""
    here, ss, dd = ctx["hex"], ctx["ss"], ctx["dd"]
    kind = order["type"]
    if kind == "collect":
        if order["what"] in ("dd", "head", "barrow"):
            return {"hex": here, "ss": ss, "dd": dd + 1}
        return {"hex": here, "ss": ss + order["count"], "dd": dd}
    if kind in ("move", "collect_move"):
        if kind == "collect_move" and order["collect_at"] == "start":
            ss += order["count"]
        ss, dd = R.carried_after_leaving(ss, dd, order.get("carry"))
        here = order["route"][-1]
        if here == KITCHEN:
            ss = dd = 0
        if kind == "collect_move" and order["collect_at"] == "end":
            ss += order["count"]
        return {"hex": here, "ss": ss, "dd": dd}
    if kind in R.THROWS:
        t = R.THROWS[kind]
        return {"hex": here, "ss": ss - t.ss, "dd": dd - t.dd}
    return ctx


def _chance(garden: HexMap, action: str, here: str, there: str, terrain: bool, nmr: bool) -> float:
    throw = R.THROWS[action]
    distance = garden.throw_range(here, there)
    if distance is None:
        return 0.0
    mods = []
    line = R.range_modifier(distance, throw.range)
    if line and action != "maniac":
        mods.append(line)
    if terrain:
        mods += R.target_modifiers(garden, {"hex": there, "nmr": nmr})
    return R.chance(throw.chance, mods, garden.over_shed(here, there))["percent"] / 100


def _best_throw(garden: HexMap, ctx: dict[str, Any], enemies: dict[int, str], nmr: set[int],
                used: dict[str, list[str]]) -> tuple[float, dict[str, Any] | None]:
    here, ss, dd = ctx["hex"], ctx["ss"], ctx["dd"]
    options: list[tuple[float, int, dict[str, Any]]] = []
    ranked = sorted(enemies.items(),
                    key=lambda kv: -_chance(garden, "rattlesnake", here, kv[1], True, kv[0] in nmr))
    if dd:
        for seat, there in ranked:
            p = _chance(garden, "dirigible", here, there, True, seat in nmr)
            options.append((p * 3, 0, {"type": "dirigible", "target": seat}))
        for side in ("N", "S"):
            if side in used["sides"]:
                continue
            victims = sum(1 for h in enemies.values() if h in garden.avalanche[side])
            if here in garden.avalanche[side] or not victims:
                continue
            p = _chance(garden, "avalanche", here, garden.shed, False, False)
            options.append((p * 0.8 * 0.8 * 2 * victims, 1, {"type": "avalanche", "side": side}))
    if ss:
        for seat, there in ranked:
            p = _chance(garden, "rattlesnake", here, there, True, seat in nmr)
            options.append((p, 2, {"type": "rattlesnake", "target": seat}))
        if ss >= 2 and len(ranked) >= 2:
            (a, ha), (b, hb) = ranked[0], ranked[1]
            p = (_chance(garden, "bolero", here, ha, True, a in nmr) + _chance(garden, "bolero", here, hb, True, b in nmr))
            options.append((p, 3, {"type": "bolero", "targets": [a, b]}))
        for conifer in garden.conifers:
            if conifer in used["conifers"] or here == conifer or here in garden.conifer_surroundings(conifer):
                continue
            worth = sum(2 if h == conifer else 1 for h in enemies.values()
                        if h == conifer or h in garden.conifer_surroundings(conifer))
            if worth:
                p = _chance(garden, "storm", here, conifer, False, False)
                options.append((p * 0.7 * worth, 4, {"type": "storm", "conifer": conifer}))
    if not options:
        return 0.0, None
    value, _, order = max(options, key=lambda o: (o[0], -o[1]))
    return value, order


def _reachable(garden: HexMap, start: str, budget: int, avoid: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """Every hex within ``budget`` half-MF of ``start`` (entering none of ``avoid``), with a
    cheapest route to it."""
    best = {start: 0}
    routes: dict[str, list[str]] = {start: []}
    queue = [(0, start)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here]:
            continue
        for nxt in garden.neighbours(here):
            if nxt in (garden.shed, KITCHEN) or nxt in avoid:
                continue
            c = cost + garden.step_cost(here, nxt)
            if c <= budget and c < best.get(nxt, 10**6):
                best[nxt] = c
                routes[nxt] = routes[here] + [nxt]
                heapq.heappush(queue, (c, nxt))
    return routes


def _one_order(garden: HexMap, ctx: dict[str, Any], enemies: dict[int, str], nmr: set[int],
               used: dict[str, list[str]]) -> dict[str, Any]:
    here, ss, dd = ctx["hex"], ctx["ss"], ctx["dd"]
    if here == KITCHEN:
        return {"type": "move", "route": [garden.kitchen_door]}
    value, throw = _best_throw(garden, ctx, enemies, nmr, used)
    if throw is not None and value >= THROW_WORTH_IT:
        return throw
    if ss == 0 and dd == 0:
        if not garden.on_path(here):
            return {"type": "collect", "what": "ss", "count": 2}
        off = [h for h in _reachable(garden, here, 2) if not garden.on_path(h) and h not in enemies.values()]
        if off:
            return {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end",
                    "route": _reachable(garden, here, 2)[sorted(off, key=garden.hexes.index)[0]]}
    if not enemies:
        if ss < 2 and dd == 0 and not garden.on_path(here):
            return {"type": "collect", "what": "ss", "count": 2 - ss}
        return {"type": "stand"}
    topping_up = ss == 1 and dd == 0
    budget = MF_PER_SEGMENT - (R.COLLECT_COST["ss"] if topping_up else 0)
    routes = _reachable(garden, here, budget)
    taken = set(enemies.values())

    def score(h: str) -> tuple[float, int]:
        nearest = min(garden.throw_range(h, e) or 99 for e in enemies.values())
        cover = 0.0
        if h in garden.conifers:
            cover = -1.0 if h not in used["conifers"] else 1.0
        elif garden.near_conifer(h):
            cover = 0.5
        if topping_up and garden.on_path(h):
            cover -= 5
        return (abs(nearest - GOOD_DISTANCE) - cover, garden.hexes.index(h))

    choices = [h for h in routes if h not in taken]
    dest = min(choices, key=score)
    if dest == here:
        if ss < 2 and dd == 0 and not garden.on_path(here):
            return {"type": "collect", "what": "ss", "count": 2 - ss}
        return throw or {"type": "stand"}
    if topping_up and not garden.on_path(dest):
        return {"type": "collect_move", "what": "ss", "count": 1, "collect_at": "end", "route": routes[dest]}
    return {"type": "move", "route": routes[dest]}


def random_orders(state: dict[str, Any], seat: int, rng: Any, *, conditional_share: float = 0.3) -> Action:
    """Random legal orders for ``seat`` (for tests and benchmarks), checked against the state.

    ``rng`` is the caller's own generator, never the game's.
    """
    garden = MAPS[state["options"]["map"]]
    first = O.first_segment(state, seat)
    ctx = O.starting_point(state, seat)
    others = [x for x in range(state["players"]) if x != seat]
    segments: list[dict[str, Any] | None] = []
    for k in (1, 2, 3):
        if first is None or k < first:
            segments.append(None)
            continue
        if k == 3 and state["options"]["rule13"] and rng.random() < conditional_share:
            cases, fallback = [], {"type": "stand"}
            for _ in range(rng.randint(1, 2)):
                order = _random_order(garden, state, seat, ctx, others, rng)
                cond = rng.choice([{"if": "hit"}, {"if": "not_hit"}, {"if": "hit_someone"},
                                   {"if": "hp_at_most", "value": rng.randint(0, 10)},
                                   {"if": "snowballs_at_least", "value": rng.randint(0, 3)},
                                   {"if": "opponent_within", "value": rng.randint(1, 8)},
                                   {"if": "at", "hex": ctx["hex"]}])
                cases.append({"when": cond, "then": order})
            fallback = _random_order(garden, state, seat, ctx, others, rng)
            segments.append({"type": "conditional", "cases": cases, "otherwise": fallback})
            continue
        order = _random_order(garden, state, seat, ctx, others, rng)
        segments.append(order)
        ctx = O.check_order(state, seat, order, ctx, k)
    return {"type": "orders", "segments": segments, "ready": True}


def _random_order(garden: HexMap, state: dict[str, Any], seat: int, ctx: dict[str, Any], others: list[int],
                  rng: Any) -> dict[str, Any]:
    """A random order that is legal from ``ctx`` (standing still when none turns up quickly)."""
    for _ in range(12):
        kind = rng.choice(["stand", "move", "move", "collect", "collect_move", "rattlesnake", "rattlesnake",
                           "baker", "bolero", "maniac", "dirigible", "storm", "avalanche", "collect"])
        if kind == "move" or kind == "collect_move":
            budget = MF_PER_SEGMENT - (4 if kind == "collect_move" else 0)
            route, here, spent = [], ctx["hex"], 0
            for _ in range(rng.randint(1, 8)):
                steps = [h for h in garden.neighbours(here) if h != garden.shed]
                nxt = rng.choice(steps)
                if spent + garden.step_cost(here, nxt) > budget:
                    break
                spent += garden.step_cost(here, nxt)
                route.append(nxt)
                here = nxt
            if not route:
                continue
            order: dict[str, Any] = {"type": kind, "route": route}
            if kind == "collect_move":
                order.update(what="ss", count=1, collect_at=rng.choice(["start", "end"]))
        elif kind == "collect":
            what = rng.choice(["ss", "ss", "dd", "head"])
            order = {"type": "collect", "what": what, "count": rng.randint(1, 2) if what == "ss" else 1}
        elif kind in ("rattlesnake", "dirigible"):
            order = {"type": kind, "target": rng.choice(others + (["nearest"] if kind == "rattlesnake" else []))}
        elif kind == "baker":
            around = [h for h in garden.neighbours(ctx["hex"]) if h not in (garden.shed, KITCHEN)]
            order = {"type": kind, "target": rng.choice(others),
                     "bounce": rng.choice(["spot"] + around) if around else "spot"}
        elif kind == "bolero":
            if len(others) < 2:
                continue
            order = {"type": kind, "targets": rng.sample(others, 2)}
        elif kind == "storm":
            order = {"type": kind, "conifer": rng.choice(garden.conifers)}
        elif kind == "avalanche":
            order = {"type": kind, "side": rng.choice(["N", "S"])}
        else:
            order = {"type": kind}
        try:
            order = O.normalize(order, 1, state["players"], allow_conditional=False)
            O.check_order(state, seat, order, ctx, 1)
        except GameError:
            continue
        return order
    return {"type": "stand"}
