"""The rules of Snowball Fighting as pure functions over a JSON-safe state.

A game has a setup step (each seat seals a nom de guerre and a preference list of start
hexes) and then turns: every seat still fighting writes sealed orders for three segments,
may revise them until it marks them ready, and when every asked seat is ready (or its
deadline has passed) the engine, as game master, resolves the three segments and writes
the report. README.md beside this file gives the rulings and the JSON shapes.

State layout::

    seed, rng_counter     randomness, see base.rng_for
    players, options      fixed at creation ({"map", "rule12", "rule13", "rule14"})
    phase                 "setup" | "orders" | "over"
    turn                  1.. during play (0 in setup); clock: segments resolved so far
    setup                 per seat {"name", "starts"} or None (sealed); ready: per seat
    combatants            per seat, see _combatant()
    orders                per seat: three canonical segment orders (None: unwritten) or None
    used                  {"conifers", "sides", "heads"}: features already used up
    report                the last turn's report (public), None before the first turn
    result                the outcome once the game is over
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from games.engines.base import (
    Action,
    BadAction,
    Event,
    IllegalAction,
    NotYourTurn,
    Option,
    Prompt,
    State,
    not_plain,
    rng_for,
    shown,
)
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import orders as O
from games.engines.snowball_fighting import rules as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS, MF_PER_SEGMENT, HexMap

SLUG = "snowball-fighting"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
START_HP = 10
START_SS = 2
WINDOWSILL_SS = 2
VICTORY_VPS = 15
DRYING_SEGMENTS = 3
MAX_TURNS = 60
NAME_LENGTH = 24
SETUP_TIMEOUT = 120.0
ORDERS_TIMEOUT = 300.0
DEFAULT_NAMES = ("Snow Warrior", "Jack Frost", "Winter Wolf", "Ice Maiden", "Slush Puppy", "Frostbite")

OPTIONS: tuple[Option, ...] = (
    Option(name="map", label="Garden", kind="choice", default="garden",
           choices=(("garden", "The snowy garden"), ("fogbound", "Fogbound: a foggy garden")),
           help="Fogbound is the rule book's variant: 15 x 12 hexes in a pea-souper fog, each player sees only "
           "a few hexes around them, with a pond, three hidden garden gnomes and a wheelbarrow of Dirigibles; "
           "first to 12 VPs, or the most after 10 turns."),
    Option(name="spectators_see_all", label="Spectators see the whole garden (Fogbound)", kind="bool",
           default=False,
           help="In a Fogbound game spectators see where everyone is while the game runs (and only read the "
           "table talk until it ends); without it they see the garden, the scores and the fog, and everything "
           "once the game is over. Only for a table you trust: a player could watch the game as a spectator."),
    Option(name="rule12", label="00 spells disaster (optional rule 12)", kind="bool", default=False,
           help="A thrower who rolls 00 slips: all their snowballs break, they take 2 HP and spend "
           "the next segment recovering."),
    Option(name="rule13", label="Conditional orders (optional rule 13)", kind="bool", default=False,
           help="The third segment's order may depend on what happened in the first two; "
           "throws from such an order are at -10%."),
    Option(name="rule14", label="Slip sliding away (optional rule 14)", kind="bool", default=False,
           help="A combatant moving at full tilt (all 4 MF) has a 10% chance of falling over, "
           "as if it had rolled 00."),
)
_MAP_NAMES = tuple(MAPS)
PLAYER_ACTION_TYPES = ("setup", "orders", "ready")
SERVER_ACTION_TYPES = ("deadline",)  # the prompt's default: the server plays it when time runs out
ACTION_TYPES = PLAYER_ACTION_TYPES + SERVER_ACTION_TYPES
FOG_ACTION_TYPES = ("shout",)  # Fogbound only, and sent whether or not the seat is asked
FIGHTING, RUNNING, DRYING, FLED, GONE = "fighting", "running", "drying", "fled", "gone"
TARGETABLE = (FIGHTING, FLED)


# --------------------------------------------------------------------------- creation


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The creation options in canonical form; BadAction names a mistyped one. (An unknown name
    is refused by the platform before: ``base.check_option_names``.)"""
    options = dict(options or {})
    out: dict[str, Any] = {}
    for name in ("rule12", "rule13", "rule14"):
        value = options.get(name, False)
        if not isinstance(value, bool):
            raise BadAction(f"option {name} must be true or false, got {shown(value)}")
        out[name] = value
    garden = options.get("map", "garden")
    if garden not in MAPS:
        raise BadAction(f"option map must be one of {', '.join(_MAP_NAMES)}, got {shown(garden)}")
    out["map"] = garden
    see_all = options.get("spectators_see_all", False)
    if not isinstance(see_all, bool):
        raise BadAction(f"option spectators_see_all must be true or false, got {shown(see_all)}")
    if garden == "fogbound":
        out["spectators_see_all"] = see_all
    elif see_all:
        raise BadAction("option spectators_see_all is for the Fogbound garden (map: fogbound), where "
                        "spectators could otherwise not see the combatants")
    return out


def _combatant(name: str, hex_ref: str) -> dict[str, Any]:
    return {
        "name": name, "hex": hex_ref, "hp": START_HP, "vp": 0, "ss": START_SS, "dd": 0,
        "status": FIGHTING, "dry_until": None, "recover": None, "big_hit": None,
        "nmr": False, "nmr_streak": 0, "dealt": 0, "taken": 0,
        "tally": {"collected": [START_SS, 0], "thrown": [0, 0], "trampled": [0, 0],
                  "broken": [0, 0], "melted": [0, 0]},
    }


def new_game(*, players: int, options: dict[str, Any] | None, seed: int) -> State:
    """A game in its setup step: every seat is asked for a nom de guerre and start hexes."""
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadAction(f"Snowball Fighting is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {shown(players)}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadAction(f"seed must be an integer, got {shown(seed)}")
    options = normalize_options(options)
    state = {
        "seed": seed, "rng_counter": 0, "players": players, "options": options,
        "phase": "setup", "turn": 0, "clock": 0,
        "setup": [None] * players, "ready": [False] * players,
        "combatants": [], "orders": [None] * players,
        "used": {"conifers": [], "sides": [], "heads": []},
        "report": None, "result": None,
    }
    if options["map"] == "fogbound":
        state["fog"] = F.new_fog(players, options["spectators_see_all"])
    return state


garden_of = O.garden_of


def _copy(state: State) -> State:
    """A copy ``apply`` may change freely (combatants, orders and lists are copied)."""
    s = dict(state)
    s["setup"] = list(state["setup"])
    s["ready"] = list(state["ready"])
    s["orders"] = list(state["orders"])
    s["combatants"] = [{**c, "tally": {k: list(v) for k, v in c["tally"].items()}} for c in state["combatants"]]
    s["used"] = {k: list(v) for k, v in state["used"].items()}
    if F.is_fogbound(state):
        fog = state["fog"]
        s["fog"] = {**fog, "gnomes": list(fog["gnomes"]), "found": [list(f) for f in fog["found"]],
                    "sounds": [list(x) for x in fog["sounds"]]}
    return s


# --------------------------------------------------------------------------- asking


def asked_seats(state: State) -> list[int]:
    """Seats that must still seal their setup or orders now."""
    if state["phase"] == "setup":
        return [x for x in range(state["players"]) if not state["ready"][x]]
    if state["phase"] == "orders":
        return [x for x in range(state["players"])
                if not state["ready"][x] and O.first_segment(state, x) is not None]
    return []


def to_act(state: State) -> dict[int, Prompt]:
    """Every seat still to seal its choice; the default at a deadline is ``{"type": "deadline"}``."""
    ready = [x for x in range(state["players"]) if state["ready"][x]]
    prompts = {}
    for seat in asked_seats(state):
        if state["phase"] == "setup":
            text = "Choose your nom de guerre and list the start hexes you prefer, then mark yourself ready."
            timeout = SETUP_TIMEOUT
        else:
            first = O.first_segment(state, seat)
            text = (f"Write your orders for the three segments of turn {state['turn']}, then mark them ready."
                    if first == 1 else
                    f"Write your orders for turn {state['turn']}: you come out of the kitchen in segment {first}.")
            timeout = ORDERS_TIMEOUT
        prompts[seat] = Prompt("sealed", text, timeout, {"type": "deadline"},
                               {"ready": ready, "written": _has_written(state, seat)})
    return prompts


def _has_written(state: State, seat: int) -> bool:
    if state["phase"] == "setup":
        return state["setup"][seat] is not None
    return state["orders"][seat] is not None


def legal_actions(state: State, seat: int) -> list[Action]:
    """What ``seat`` may send now: templates with descriptions (orders are too many to list).
    ``{"type": "deadline"}``, the prompt's default, is not among them: the server plays it."""
    if seat not in asked_seats(state):
        return []
    if state["phase"] == "setup":
        garden = garden_of(state)
        out: list[Action] = [{
            "type": "setup", "name": f"your nom de guerre, 1 to {NAME_LENGTH} characters",
            "starts": f"a preference list of start hexes from {', '.join(garden.starts)} (may be empty)",
            "ready": "optional: true to seal it at once",
            "example": {"type": "setup", "name": DEFAULT_NAMES[seat % len(DEFAULT_NAMES)],
                        "starts": list(garden.starts), "ready": True},
        }]
    else:
        out = [orders_description(state, seat)]
    if _has_written(state, seat):
        out.append({"type": "ready"})
    return out


def orders_description(state: State, seat: int) -> Action:
    """The ``orders`` action described for a bot or the page: where the seat starts, what it
    holds, whom and what it may aim at, and an example."""
    garden = garden_of(state)
    start = O.starting_point(state, seat)
    common = {
        "type": "orders",
        "segments": "three segment orders, see the package README (null: not written yet)",
        "ready": "optional: true to mark them ready at once",
        "first_segment": O.first_segment(state, seat),
        "start": start["hex"], "ss": start["ss"], "dd": start["dd"],
        "mf_per_segment": MF_PER_SEGMENT // 2,
    }
    if F.is_fogbound(state):
        return {**common, **_fog_orders_description(state, seat, garden)}
    others = [x for x, c in enumerate(state["combatants"]) if x != seat and c["status"] != GONE]
    return {
        **common,
        "targets": others,
        "conifers": [c for c in garden.conifers if c not in state["used"]["conifers"]],
        "shed_sides": [s for s in ("N", "S") if s not in state["used"]["sides"]],
        "snowman_heads": [h for h in garden.snowmen if h not in state["used"]["heads"]],
        "conditional_third_segment": state["options"]["rule13"],
        "example": O.example_orders(state, seat),
    }


def _fog_orders_description(state: State, seat: int, garden: HexMap) -> dict[str, Any]:
    """The fog's part of the orders description: nothing that depends on what the seat cannot see."""
    sight = F.visible_now(state, seat)
    opening = state["turn"] <= F.OPENING_TURNS
    return {
        "targets": [x for x in range(state["players"]) if x != seat],
        "in_sight": [x for x in range(state["players"]) if x != seat and F.eye(state, x) in sight],
        "conifers": [c for c in garden.conifers if not (c in state["used"]["conifers"] and c in sight)],
        "shed_sides": [x for x in ("N", "S") if not (x in state["used"]["sides"] and garden.shed in sight)],
        "snowman_heads": [h for h in garden.snowmen if not (h in state["used"]["heads"] and h in sight)],
        "conditional_third_segment": state["options"]["rule13"],
        "throwing": not opening,
        "provisional": "a move or collect_move may add \"if_hazard\": \"stand\": stand still instead when "
                       "its first step would enter the pond or a hex at or next to a gnome you have found",
        "wheelbarrow": garden.wheelbarrow,
        "example": O.example_orders(state, seat),
    }


# --------------------------------------------------------------------------- apply


def apply(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Validate and apply one action; the given state is never changed."""
    if not isinstance(action, dict) or action.get("type") not in ACTION_TYPES + FOG_ACTION_TYPES:
        kind = action.get("type") if isinstance(action, dict) else action
        raise BadAction(f"unknown action {shown(kind)}; actions are {', '.join(PLAYER_ACTION_TYPES + FOG_ACTION_TYPES)}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["players"]:
        raise NotYourTurn(f"there is no seat {shown(seat)} in this game")
    if state["phase"] == "over":
        raise IllegalAction("the game is over")
    if action["type"] == "shout":
        s = _copy(state)
        return s, _shout(s, seat, action)
    if seat not in asked_seats(state):
        if state["ready"][seat]:
            raise NotYourTurn("you have already marked yourself ready; wait for the others")
        raise NotYourTurn("you have nothing to decide this turn; you are out of the fight for now")
    kind = action["type"]
    s = _copy(state)
    events: list[Event] = []
    if state["phase"] == "setup":
        if kind == "orders":
            raise IllegalAction("orders come after the setup; send your nom de guerre and start hexes first")
        _do_setup(s, seat, action, events)
    else:
        if kind == "setup":
            raise IllegalAction("the setup is over; send orders")
        _do_orders(s, seat, action, events)
    if not asked_seats(s):
        if s["phase"] == "setup":
            _finish_setup(s, events)
        else:
            _resolve_turns(s, events)
    return s, events


def _mark_ready(s: State, seat: int, events: list[Event], how: str) -> None:
    s["ready"][seat] = True
    events.append({"type": "ready", "seat": seat, "text": f"{{p{seat}}} is ready{how}"})


def _do_setup(s: State, seat: int, action: Action, events: list[Event]) -> None:
    kind = action["type"]
    if kind == "setup":
        s["setup"][seat] = _parse_setup(s, action)
        events.append({"type": "setup_saved", "seat": seat, "text": "setup saved", "visible_to": [seat]})
        if action.get("ready", False) is True:
            _mark_ready(s, seat, events, "")
        elif action.get("ready", False) is not False:
            raise BadAction(f"ready must be true or false, got {shown(action.get('ready'))}")
    elif kind == "ready":
        if s["setup"][seat] is None:
            raise IllegalAction("choose a nom de guerre and start hexes before marking yourself ready")
        _mark_ready(s, seat, events, "")
    else:  # deadline
        if s["setup"][seat] is None:
            s["setup"][seat] = {"name": None, "starts": []}
        _mark_ready(s, seat, events, " (its time ran out)")


def _parse_setup(s: State, action: Action) -> dict[str, Any]:
    garden = garden_of(s)
    name = action.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BadAction("name must be your nom de guerre, e.g. 'Jack Frost'")
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH:
        raise IllegalAction(f"a nom de guerre has at most {NAME_LENGTH} characters; {shown(name)} has {len(name)}")
    if (why := not_plain(name)) is not None:
        raise IllegalAction(f"a nom de guerre may not contain {why}: {shown(name)}")
    starts = action.get("starts", [])
    if not isinstance(starts, list) or not all(isinstance(h, str) for h in starts):
        raise BadAction("starts must be a list of start hexes like ['A7', 'W9']")
    starts = [h.upper() for h in starts]
    for i, h in enumerate(starts):
        if h not in garden.starts:
            raise IllegalAction(f"start choice {i + 1}, {shown(h)}, is not a start hex; "
                                f"the start hexes are {', '.join(garden.starts)}")
    if len(set(starts)) != len(starts):
        raise IllegalAction("each start hex may appear only once in your preference list")
    return {"name": name, "starts": starts}


def _finish_setup(s: State, events: list[Event]) -> None:
    """Name every combatant and give each a start hex, then start turn 1."""
    garden = garden_of(s)
    rng = rng_for(s)
    n = s["players"]
    names: list[str] = []
    for seat in range(n):
        wanted = s["setup"][seat]["name"]
        if wanted is None:
            wanted = next(d for d in DEFAULT_NAMES + tuple(f"Combatant {i}" for i in range(1, 7))
                          if d.lower() not in {x.lower() for x in names}
                          and d.lower() not in {(p["name"] or "").lower() for p in s["setup"]})
        name, i = wanted, 2
        while name.lower() in {x.lower() for x in names}:
            name, i = f"{wanted} {_roman(i)}", i + 1
        names.append(name)
    clashes: list[Event] = []
    hexes = assign_starts([s["setup"][seat]["starts"] for seat in range(n)], list(garden.starts), rng, clashes)
    for clash in clashes:
        if F.is_fogbound(s):
            clash["visible_to"] = _readers(s, clash["seats"])
        events.append(clash)
    s["combatants"] = [_combatant(names[x], hexes[x]) for x in range(n)]
    fogbound = F.is_fogbound(s)
    if fogbound:
        s["fog"]["gnomes"] = F.gnome_hexes(garden, rng)
    for seat in range(n):
        start = {"type": "start", "seat": seat, "hex": hexes[seat],
                 "text": f"{{p{seat}}} fights as {names[seat]}, starting at {hexes[seat]}"}
        if fogbound:
            start["visible_to"] = _start_readers(s, seat)
        events.append(start)
    s["phase"] = "orders"
    s["turn"] = 1
    s["ready"] = [False] * n


def _readers(s: State, seats: Any) -> list[int | None]:
    """``visible_to`` for a Fogbound event the given seats may read (and spectators, if they see all)."""
    out: list[int | None] = sorted(set(seats))
    if s["fog"]["spectators_see_all"]:
        out.append(None)
    return out


def _start_readers(s: State, seat: int) -> list[int | None]:
    here = s["combatants"][seat]["hex"]
    return _readers(s, [x for x in range(s["players"]) if here in F.visible_now(s, x)])


def _shout(s: State, seat: int, action: Action) -> list[Event]:
    """A Fogbound shout: heard by every combatant within the shout range, as a direction and a
    rough distance, and listed in the shouter's own sounds. Orders and ready marks stay as they are."""
    if not F.is_fogbound(s):
        raise IllegalAction("shouting is part of the Fogbound variant; in the snowy garden everyone sees everyone")
    text = action.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BadAction("text must be what you shout, 1 to 200 characters")
    text = " ".join(text.split())
    if len(text) > F.SHOUT_LENGTH:
        raise BadAction(f"a shout has at most {F.SHOUT_LENGTH} characters; this one has {len(text)}")
    if (why := not_plain(text, brackets=False)) is not None:
        raise BadAction(f"a shout may not contain {why}")
    if s["phase"] != "orders":
        raise IllegalAction("you can shout only while orders are being written")
    here = F.eye(s, seat)
    if here is None:
        raise IllegalAction("nobody in the garden can hear you from where you are")
    garden = garden_of(s)
    turn = s["turn"]
    s["fog"]["sounds"][seat].append({"turn": turn, "kind": "shout", "direction": None, "distance": None,
                                     "text": text, "yours": True})
    hearers = []
    for x in range(s["players"]):
        there = F.eye(s, x)
        if x == seat or there is None or garden.distance(here, there) > F.SHOUT_RANGE:
            continue
        where = F.heard(garden, there, here) if there != here else {"direction": "N", "distance": "near"}
        s["fog"]["sounds"][x].append({"turn": turn, "kind": "shout", **where, "text": text})
        hearers.append(x)
    return [{"type": "shout", "seat": seat, "text": "a shout rings out through the fog",
             "visible_to": _readers(s, [seat, *hearers])}]


def _roman(i: int) -> str:
    return ("", "", "II", "III", "IV", "V", "VI")[i] if i <= 6 else str(i)


def assign_starts(preferences: list[list[str]], starts: list[str], rng: Any, events: list[Event]) -> list[str]:
    """Start hexes per seat: round by round every unplaced seat claims its next preference;
    a hex claimed by one seat is its, a hex claimed by several goes to one of them at random;
    seats whose lists run out get the free start hexes at random."""
    n = len(preferences)
    placed: list[str | None] = [None] * n
    taken: set[str] = set()
    for rank in range(max((len(p) for p in preferences), default=0)):
        claims: dict[str, list[int]] = defaultdict(list)
        for seat in range(n):
            if placed[seat] is None and rank < len(preferences[seat]) and preferences[seat][rank] not in taken:
                claims[preferences[seat][rank]].append(seat)
        for hex_ref in sorted(claims):
            seats = claims[hex_ref]
            winner = seats[rng.randrange(len(seats))] if len(seats) > 1 else seats[0]
            if len(seats) > 1:
                events.append({"type": "start_clash", "hex": hex_ref, "seats": seats, "winner": winner,
                               "text": f"{len(seats)} players wanted {hex_ref}; the tealeaves gave it to {{p{winner}}}"})
            placed[winner] = hex_ref
            taken.add(hex_ref)
    free = [h for h in starts if h not in taken]
    rng.shuffle(free)
    for seat in range(n):
        if placed[seat] is None:
            placed[seat] = free.pop()
    return [p for p in placed if p is not None]


def _do_orders(s: State, seat: int, action: Action, events: list[Event]) -> None:
    kind = action["type"]
    if kind == "orders":
        segments = O.parse_segments(s, action.get("segments"))
        O.plan(s, seat, segments)
        ready = action.get("ready", False)
        if not isinstance(ready, bool):
            raise BadAction(f"ready must be true or false, got {shown(ready)}")
        first = s["orders"][seat] is None
        s["orders"][seat] = segments
        if ready:
            _mark_ready(s, seat, events, "")
        elif first:
            events.append({"type": "orders_saved", "seat": seat, "turn": s["turn"], "visible_to": [seat],
                           "text": f"orders for turn {s['turn']} written: change them as often as you like "
                                   "until you mark them ready"})
    elif kind == "ready":
        if s["orders"][seat] is None:
            raise IllegalAction("write your orders before marking them ready")
        _mark_ready(s, seat, events, "")
    else:  # deadline
        _mark_ready(s, seat, events, " (its time ran out)")


# --------------------------------------------------------------------------- resolution


def _resolve_turns(s: State, events: list[Event]) -> None:
    """Resolve the turn; then keep resolving while nobody has anything to decide."""
    while True:
        _resolve_turn(s, events)
        if s["phase"] == "over" or asked_seats(s):
            return


def victory_vps(state: State) -> int:
    return F.VICTORY_VPS if F.is_fogbound(state) else VICTORY_VPS


def max_turns(state: State) -> int:
    return F.MAX_TURNS if F.is_fogbound(state) else MAX_TURNS


def _resolve_turn(s: State, events: list[Event]) -> None:
    rng = rng_for(s)
    n = s["players"]
    report: dict[str, Any] = {"turn": s["turn"], "segments": [], "notes": []}
    fogbound = F.is_fogbound(s)
    if fogbound:
        s["fog"]["sounds"] = [[x for x in heard if x["turn"] >= s["turn"]] for heard in s["fog"]["sounds"]]
    planned = [_planned_starts(s, seat) for seat in range(n)]
    for seat in range(n):
        c = s["combatants"][seat]
        asked = O.first_segment(s, seat) is not None
        if asked and s["orders"][seat] is None:
            c["nmr"] = True
            c["nmr_streak"] += 1
            if c["nmr_streak"] >= 2:
                c["status"] = GONE if c["hex"] == KITCHEN else FLED
                report["notes"].append({"seat": seat, "type": "nmr", "text": (
                    f"{c['name']} sent no orders for the second turn running and runs for the kitchen, "
                    "never to return.")})
            else:
                report["notes"].append({"seat": seat, "type": "nmr",
                                        "text": f"{c['name']} sent no orders and stands admiring the sky."})
        else:  # orders sent, or a turn it was not asked in: the next NMR is not "in a row"
            c["nmr_streak"] = 0
    turn_log = {seat: {"hit": False, "hit_someone": False} for seat in range(n)}
    for k in range(1, O.SEGMENTS + 1):
        seg = _resolve_segment(s, k, rng, turn_log, planned)
        report["segments"].append(seg)
        events.extend(_fog_log(s, seg) if fogbound else seg["events"])
        if s["phase"] == "over":
            break
    for c in s["combatants"]:
        c["nmr"] = False
    if fogbound and s["phase"] != "over":
        _end_of_fog_turn(s, report, rng, events)
    s["report"] = report
    events.append({"type": "report", "turn": report["turn"],
                   "text": f"Turn {report['turn']} has been resolved."})
    if s["phase"] == "over":
        return
    s["orders"] = [None] * n
    s["ready"] = [False] * n
    s["turn"] += 1
    staying = [x for x, c in enumerate(s["combatants"]) if c["status"] not in (FLED, GONE)]
    if len(staying) < 2:
        _finish(s, "abandoned", "fewer than two combatants are left in the garden", events,
                among=staying or list(range(n)))
    elif s["turn"] > max_turns(s) and F.is_fogbound(s):  # the rule book's own end (Fogbound 6), no house ruling
        _finish(s, "fogbound_turns", f"{F.MAX_TURNS} turns have been played, the end of a Fogbound game by the "
                                     "rule book", events, among=staying)
    elif s["turn"] > max_turns(s):  # the house ruling "Turn limit"
        _finish(s, "turn_limit", f"{max_turns(s)} turns have been played", events, among=staying)


def _finish(s: State, code: str, reason: str, events: list[Event], *, among: list[int],
            winners: list[int] | None = None) -> None:
    cs = s["combatants"]
    if winners is None:
        best = max(cs[x]["vp"] for x in among)
        winners = [x for x in among if cs[x]["vp"] == best]
    s["phase"] = "over"
    s["ready"] = [False] * s["players"]
    s["result"] = {
        "code": code, "reason": reason, "winners": winners,
        "scores": [c["vp"] for c in cs],
        "names": [c["name"] for c in cs],
        "damage_dealt": [c["dealt"] for c in cs],
        "damage_taken": [c["taken"] for c in cs],
    }
    names = " and ".join(cs[x]["name"] for x in winners)
    events.append({"type": "game_over", "code": code, "winners": winners,
                   "text": f"The game is over ({reason}): {names} {'win' if len(winners) > 1 else 'wins'}."})


def _planned_starts(s: State, seat: int) -> list[str | None]:
    """Where ``seat``'s orders expect it to stand at the start of each segment (from the state the
    orders were checked against, before anything of this turn has happened)."""
    segments = s["orders"][seat]
    if segments is None:
        return [None] * O.SEGMENTS
    return [ctx["hex"] for ctx in O.plan(s, seat, segments)]


def _effective_order(s: State, seat: int, k: int, g: int, turn_log: dict) -> tuple[dict[str, Any], bool, str]:
    """The order ``seat`` carries out in segment ``k`` (global ``g``), whether it came from a
    conditional order, and why it differs from what was written (empty if it does not)."""
    c = s["combatants"][seat]
    if c["status"] in (RUNNING, FLED):
        return {"type": "run"}, False, "running for the kitchen"
    if c["status"] != FIGHTING:
        return {"type": "away"}, False, ""
    if c["recover"] == g:
        return {"type": "stand"}, False, "recovering from the fall"
    if c["nmr"]:
        return {"type": "stand"}, False, "no orders: admiring the sky"
    written = (s["orders"][seat] or [None] * O.SEGMENTS)[k - 1]
    if written is None:
        return {"type": "stand"}, False, ""
    if written["type"] == "conditional":
        for case in written["cases"]:
            if _condition_holds(s, seat, case["when"], turn_log):
                return case["then"], True, ""
        return written["otherwise"], True, ""
    return written, False, ""


def _condition_holds(s: State, seat: int, cond: dict[str, Any], turn_log: dict) -> bool:
    garden = garden_of(s)
    me = s["combatants"][seat]
    kind = cond["if"]
    if kind == "hit":
        return turn_log[seat]["hit"]
    if kind == "not_hit":
        return not turn_log[seat]["hit"]
    if kind == "hit_someone":
        return turn_log[seat]["hit_someone"]
    if kind == "hp_at_most":
        return me["hp"] <= cond["value"]
    if kind == "snowballs_at_least":
        return me["ss"] + me["dd"] >= cond["value"]
    if kind == "at":
        return me["hex"] == cond["hex"]
    if kind == "seat_away":
        return not _can_aim(s, seat, cond["seat"])
    if me["hex"] == KITCHEN:
        return False
    others = [cond["seat"]] if kind == "seat_within" else [x for x in range(s["players"]) if x != seat]
    for x in others:
        if _can_aim(s, seat, x):
            d = garden.throw_range(me["hex"], s["combatants"][x]["hex"])
            if d is not None and d <= cond["value"]:
                return True
    return False


def _targetable(s: State, seat: int) -> bool:
    c = s["combatants"][seat]
    return c["status"] in TARGETABLE and c["hex"] != KITCHEN


def _sees_feature(s: State, thrower: int, feature: str) -> bool:
    """In the fog a conifer or the shed is a target only when the thrower sees it."""
    return not F.is_fogbound(s) or feature in F.visible_now(s, thrower)


def _can_aim(s: State, thrower: int, target: int) -> bool:
    """Can ``thrower`` aim at ``target`` now: it can be hit and, in the fog, the thrower sees it."""
    if not _targetable(s, target):
        return False
    return not F.is_fogbound(s) or F.eye(s, target) in F.visible_now(s, thrower)


def _line(seg: dict[str, Any], text: str, **data: Any) -> None:
    """One line of the game master's report, kept as a public event with its data."""
    seg["events"].append({"type": data.pop("kind", "report_line"), "text": text, "segment": seg["segment"],
                          "turn": seg["turn"], **data})


def _resolve_segment(s: State, k: int, rng: Any, turn_log: dict, planned: list[list[str | None]]) -> dict[str, Any]:
    garden = garden_of(s)
    g = s["clock"] + 1
    cs = s["combatants"]
    n = s["players"]
    seg: dict[str, Any] = {"turn": s["turn"], "segment": k, "moves": [], "throws": [], "events": [],
                           "positions": {}}
    fogbound = F.is_fogbound(s)
    if fogbound:
        seg["_stood"] = [[c["hex"]] for c in cs]
        seg["_sounds"] = []

    # 0. back from the kitchen, at the door's hex or the free hex nearest to it
    for seat, c in enumerate(cs):
        if c["status"] == DRYING and g > c["dry_until"]:
            occupied = {x["hex"] for x in cs if x["hex"] != KITCHEN and x["status"] != GONE}
            own_door = c.get("door") or garden.kitchen_door
            door = _nearest_free(garden, own_door, occupied)
            c.update(status=FIGHTING, hp=START_HP, ss=WINDOWSILL_SS, dd=0, dry_until=None, hex=door)
            c["tally"]["collected"][0] += WINDOWSILL_SS
            seg["moves"].append({"seat": seat, "from": KITCHEN, "route": [door], "to": door, "planned": [door],
                                 "bumped": door != own_door})
            if fogbound:
                seg["_stood"][seat].append(door)
            _line(seg, f"{c['name']} has dry socks again, scoops two snowballs from the windowsill and comes "
                       f"back out at {door} with {START_HP} HP.", kind="back", seat=seat, hex=door)

    # 1. what everyone does
    plans: list[dict[str, Any]] = []
    for seat in range(n):
        order, conditional, why = _effective_order(s, seat, k, g, turn_log)
        if fogbound and order.get("if_hazard") and cs[seat]["status"] == FIGHTING:
            order, why = _provisional(s, seat, order, planned[seat][k - 1], why)
        if why and cs[seat]["status"] == FIGHTING:
            _line(seg, f"{cs[seat]['name']}: {why}.", seat=seat)
        plans.append({"order": order, "conditional": conditional, "moved": 0, "collected": 0,
                      "planned_start": planned[seat][k - 1]})

    # 2. moves
    _move_phase(s, seg, plans, rng, g)
    if fogbound:
        seg["_after_moves"] = [c["hex"] for c in cs]

    # 3. collects
    for seat in range(n):
        order = plans[seat]["order"]
        if order["type"] == "collect" or (order["type"] == "collect_move" and order["collect_at"] == "end"):
            _collect(s, seg, seat, order, plans[seat])

    # 4. throws
    _throw_phase(s, seg, plans, rng, g, turn_log)

    # 5. bounces
    _bounce_phase(s, seg, plans, rng)

    seg["positions"] = {str(x): c["hex"] for x, c in enumerate(cs) if c["status"] != GONE}
    if fogbound:
        _segment_sight(s, seg)
    s["clock"] = g
    goal = victory_vps(s)
    winners = [x for x, c in enumerate(cs) if c["vp"] >= goal]
    if winners:
        names = " and ".join(cs[x]["name"] for x in winners)
        _line(seg, f"{names} {'reach' if len(winners) > 1 else 'reaches'} {goal} VPs!", kind="victory",
              seats=winners)
        _finish(s, "victory", f"{names} reached {goal} VPs in segment {k} of turn {s['turn']}",
                seg["events"], among=winners, winners=winners)
    return seg


def _nearest_free(garden: HexMap, start: str, occupied: set[str]) -> str:
    """``start`` if nobody stands there, else the free hex fewest steps from it (map order breaks ties)."""
    ring, seen = [start], {start}
    while ring:
        free = [h for h in ring if h not in occupied and h != garden.shed]
        if free:
            return min(free, key=garden.hexes.index)
        ring = [nxt for h in ring for nxt in garden.neighbours(h) if nxt != KITCHEN and nxt not in seen
                and not seen.add(nxt)]
    raise AssertionError("the garden is full")


def _walk(garden: HexMap, start: str, route: list[str], budget: int) -> tuple[list[str], list[int]]:
    """The hexes entered (and cumulative half-MF) of ``route`` from ``start`` within ``budget``."""
    taken, costs, spent, here = [], [], 0, start
    for step in route:
        if not garden.adjacent(here, step) or step == garden.shed:
            break
        cost = spent + garden.step_cost(here, step)
        if cost > budget:
            break
        taken.append(step)
        costs.append(cost)
        spent, here = cost, step
    return taken, costs


def _move_phase(s: State, seg: dict[str, Any], plans: list[dict[str, Any]], rng: Any, g: int) -> None:
    garden = garden_of(s)
    cs = s["combatants"]
    fogbound = F.is_fogbound(s)
    opening = fogbound and s["turn"] <= F.OPENING_TURNS
    wet = garden.pond if fogbound else frozenset()
    claims: dict[int, dict[str, Any]] = {}
    for seat, c in enumerate(cs):
        if c["status"] in (DRYING, GONE):
            continue
        order = plans[seat]["order"]
        start = c["hex"]
        route: list[str] = []
        budget = MF_PER_SEGMENT
        spent_before_moving = 0
        collector = order["type"] in ("collect", "collect_move")
        if order["type"] == "run":
            route = garden.cheapest_route(start, KITCHEN, avoid=wet) or []
        elif order["type"] in ("move", "collect_move"):
            if order["type"] == "collect_move":
                budget -= R.COLLECT_COST[order["what"]] * order["count"]
                if order["collect_at"] == "start":
                    spent_before_moving = MF_PER_SEGMENT - budget
                    _collect(s, seg, seat, order, plans[seat])
            if start == plans[seat]["planned_start"]:
                route = order["route"]
            else:
                route = garden.cheapest_route(start, order["route"][-1], avoid=wet) or []
            if opening and any(h in wet for h in route):
                route = _swerve(s, seg, seat, start, route)
        taken, costs = _walk(garden, start, route, budget)
        if fogbound:
            taken, costs = _fog_hazards(s, seg, seat, order, taken, costs, rng, plans[seat])
        plans[seat]["full_tilt"] = order["type"] in ("move", "collect_move") and bool(costs) and costs[-1] == MF_PER_SEGMENT
        claims[seat] = {"hexes": [start] + taken, "costs": [0] + [spent_before_moving + x for x in costs],
                        "at": len(taken), "collector": collector, "planned": route,
                        "collect_move": order["type"] == "collect_move"}
    # contested hexes: fewer MF wins, collectors lose ties, then the tealeaves
    while True:
        by_hex: dict[str, list[int]] = defaultdict(list)
        for seat, cl in claims.items():
            h = cl["hexes"][cl["at"]]
            if h != KITCHEN:
                by_hex[h].append(seat)
        clashes = [h for h in sorted(by_hex) if len(by_hex[h]) > 1]
        if not clashes or not any(claims[x]["at"] for h in clashes for x in by_hex[h]):
            break
        for h in clashes:
            seats = sorted(by_hex[h])
            key = {x: (claims[x]["collect_move"] and claims[x]["at"] > 0, claims[x]["costs"][claims[x]["at"]],
                       claims[x]["collector"]) for x in seats}
            best = min(key.values())
            tied = [x for x in seats if key[x] == best]
            winner = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
            for x in seats:
                if x != winner and claims[x]["at"] > 0:
                    claims[x]["at"] -= 1
                    claims[x]["bumped"] = True
            why = "the tealeaves favour" if len(tied) > 1 else "the quicker is"
            who = " and ".join(cs[x]["name"] for x in seats)
            rest = "the other stops" if len(seats) == 2 else "the rest stop"
            _line(seg, f"{who} {'both' if len(seats) == 2 else 'all'} make for {h}; {why} {cs[winner]['name']}, "
                       f"{rest} a hex short.", kind="contest", hex=h,
                  seats=seats, winner=winner, random=len(tied) > 1)
    for seat, cl in claims.items():
        c = cs[seat]
        entered = cl["hexes"][1:cl["at"] + 1]
        plans[seat]["moved"] = len(entered)
        if not entered:
            continue
        order = plans[seat]["order"]
        keep_ss, keep_dd = R.carried_after_leaving(c["ss"], c["dd"], order.get("carry"))
        if (keep_ss, keep_dd) != (c["ss"], c["dd"]):
            lost_ss, lost_dd = c["ss"] - keep_ss, c["dd"] - keep_dd
            c["tally"]["trampled"][0] += lost_ss
            c["tally"]["trampled"][1] += lost_dd
            c["ss"], c["dd"] = keep_ss, keep_dd
            _line(seg, f"{c['name']} leaves {_balls(lost_ss, lost_dd)} behind at {c['hex']}: trampled underfoot.",
                  kind="trampled", seat=seat, hex=c["hex"], ss=lost_ss, dd=lost_dd)
        frm = c["hex"]
        c["hex"] = entered[-1]
        seg["moves"].append({"seat": seat, "from": frm, "route": entered, "to": c["hex"],
                             "planned": cl["planned"], "bumped": cl.get("bumped", False)})
        if fogbound:
            seg["_stood"][seat] += entered
            if c["hex"] == KITCHEN:
                c["door"] = entered[-2] if len(entered) > 1 else frm
        verb = "runs" if order["type"] == "run" else "moves"
        _line(seg, f"{c['name']} {verb} {frm} - {' - '.join(entered)}"
                   + (" (bumped a hex short)" if cl.get("bumped") else "") + ".",
              kind="move", seat=seat, route=[frm] + entered)
        if c["hex"] == KITCHEN:
            if c["ss"] or c["dd"]:
                c["tally"]["melted"][0] += c["ss"]
                c["tally"]["melted"][1] += c["dd"]
                c["ss"] = c["dd"] = 0
            if c["status"] == RUNNING:
                c["status"], c["dry_until"] = DRYING, g + DRYING_SEGMENTS
                _line(seg, f"{c['name']} reaches the kitchen and starts drying their socks.", kind="kitchen",
                      seat=seat)
            elif c["status"] == FLED:
                c["status"] = GONE
                _line(seg, f"{c['name']} reaches the kitchen and stays there for good.", kind="gone", seat=seat)
            else:
                _line(seg, f"{c['name']} hides in the kitchen, a safe, warm place for cowards.", kind="hide",
                      seat=seat)
    if fogbound:
        for seat in range(len(cs)):
            _after_fog_move(s, seg, seat, plans[seat], opening)
    if s["options"]["rule14"]:
        for seat in range(len(cs)):
            if plans[seat].get("full_tilt") and cs[seat]["status"] == FIGHTING:
                roll = rng.randint(1, 100)
                fell = roll <= R.SLIP_CHANCE
                _line(seg, f"{cs[seat]['name']} runs at full tilt: d100 {roll:02d} against {R.SLIP_CHANCE}, "
                           + ("slips and falls!" if fell else "stays upright."),
                      kind="slip_roll", seat=seat, roll=roll, needed=R.SLIP_CHANCE, fell=fell)
                if fell:
                    plans[seat]["disaster"] = "slipped"


def _balls(ss: int, dd: int) -> str:
    parts = []
    if ss:
        parts.append("a simple snowball" if ss == 1 else f"{ss} simple snowballs")
    if dd:
        parts.append("a Dirigible" if dd == 1 else f"{dd} Dirigibles")
    return " and ".join(parts) or "nothing"


def _collect(s: State, seg: dict[str, Any], seat: int, order: dict[str, Any], plan: dict[str, Any]) -> None:
    garden = garden_of(s)
    c = s["combatants"][seat]
    if c["status"] != FIGHTING:
        return
    here = c["hex"]
    what = order["what"]
    if here == KITCHEN:
        _line(seg, f"{c['name']} looks for snow in the kitchen and finds none.", seat=seat)
        return
    if garden.on_path(here):
        _line(seg, f"{c['name']} is on the path at {here}, where there is no snow to collect.", seat=seat)
        return
    if what == "head":
        if here not in garden.snowmen or here in s["used"]["heads"]:
            _line(seg, f"{c['name']} reaches for a snowman's head at {here}, but there is none.", seat=seat)
            return
        s["used"]["heads"].append(here)
        c["dd"] += 1
        c["tally"]["collected"][1] += 1
        plan["collected"] += R.COLLECT_COUNTS_AS["head"]
        _line(seg, f"{c['name']} takes the head off the snowman at {here}: a ready-made Dirigible.",
              kind="collect", seat=seat, what="head", hex=here)
        return
    if what == "barrow":
        if here != garden.wheelbarrow:
            _line(seg, f"{c['name']} looks for the wheelbarrow at {here}, but it is not there.", seat=seat)
            return
        if s["fog"]["barrow"] == 0:
            _line(seg, f"{c['name']} reaches into the wheelbarrow at {here}: it is empty.", seat=seat,
                  kind="barrow_empty", hex=here)
            return
        s["fog"]["barrow"] -= 1
        c["dd"] += 1
        c["tally"]["collected"][1] += 1
        plan["collected"] += R.COLLECT_COUNTS_AS["barrow"]
        _line(seg, f"{c['name']} lifts a Doubleday Dirigible out of the wheelbarrow at {here}.", kind="collect",
              seat=seat, what="barrow", hex=here)
        return
    if what == "dd":
        c["dd"] += 1
        c["tally"]["collected"][1] += 1
        plan["collected"] += R.COLLECT_COUNTS_AS["dd"]
        _line(seg, f"{c['name']} rolls a Doubleday Dirigible at {here}.", kind="collect", seat=seat,
              what="dd", hex=here)
        return
    c["ss"] += order["count"]
    c["tally"]["collected"][0] += order["count"]
    plan["collected"] += order["count"]
    _line(seg, f"{c['name']} collects {_balls(order['count'], 0)} at {here}.", kind="collect", seat=seat,
          what="ss", count=order["count"], hex=here)


def _facts(s: State, seat: int, plan: dict[str, Any], g: int) -> dict[str, Any]:
    c = s["combatants"][seat]
    order = plan["order"]
    return {
        "hex": c["hex"], "moved": plan["moved"], "collected": plan["collected"],
        "action": order["type"], "bounce_spot": order["type"] == "baker" and order.get("bounce") == "spot",
        "big_hit_last": c["big_hit"] == g - 1, "nmr": c["nmr"],
    }


def _throw_phase(s: State, seg: dict[str, Any], plans: list[dict[str, Any]], rng: Any, g: int,
                 turn_log: dict) -> None:
    garden = garden_of(s)
    cs = s["combatants"]
    n = s["players"]
    damage: list[tuple[int | None, int, int, bool, str]] = []  # thrower, victim, hp, scores VPs, cause
    big_hits: set[int] = set()
    # a segment's throws are simultaneous (book 5): a conifer or roof side bare before them is held
    # at, and snow brought down by two throwers falls once (``_snow_falls``)
    bare_conifers, bare_sides = set(s["used"]["conifers"]), set(s["used"]["sides"])
    falls: dict[tuple[str, str], list[int]] = {}

    def roll_for(seat: int, what: str, chance: dict[str, Any], **data: Any) -> bool:
        roll = rng.randint(1, 100)
        hit = R.roll_hits(roll, chance["needed"])
        mods = ", ".join(f"{m['label']} {m['value']:+d}%" for m in chance["modifiers"]) or "no modifiers"
        shown = "00" if roll == 100 else f"{roll:02d}"
        shed = f", halved over the shed to {chance['needed']}" if chance["over_shed"] else ""
        _line(seg, f"{cs[seat]['name']}: {what}. Base {chance['base']}% ({mods}) = {chance['adjusted']}{shed}; "
                   f"d100 rolls {shown}: {'HIT' if hit else 'miss'}.",
              kind="roll", seat=seat, roll=roll, hit=hit, **chance, **data)
        if roll == R.DISASTER_ROLL and s["options"]["rule12"]:
            plans[seat]["disaster"] = "00"
        return hit

    def spend(seat: int, throw: R.Throw, balls: int | None = None) -> bool:
        """Take the throw's ammunition (``balls`` simple snowballs, if given) from the thrower."""
        c = cs[seat]
        ss = throw.ss if balls is None else balls
        if c["ss"] < ss or c["dd"] < throw.dd:
            _line(seg, f"{c['name']} reaches for a snowball to throw a {throw.name}, but has none.",
                  kind="no_ammo", seat=seat)
            return False
        c["ss"] -= ss
        c["dd"] -= throw.dd
        c["tally"]["thrown"][0] += ss
        c["tally"]["thrown"][1] += throw.dd
        return True

    for seat in range(n):
        plan = plans[seat]
        order = plan["order"]
        kind = order["type"]
        c = cs[seat]
        if kind not in R.THROWS or c["status"] != FIGHTING:
            continue
        if c["hex"] == KITCHEN:
            _line(seg, f"{c['name']} is still in the kitchen and cannot throw.", seat=seat)
            continue
        throw = R.THROWS[kind]
        thrower = {"big_hit_last": c["big_hit"] == g - 1, "conditional": plan["conditional"]}

        def aimed(target_hex: str, facts: dict[str, Any] | None, nearest: bool = False) -> dict[str, Any] | None:
            return O.aimed_chance(garden, action=kind, thrower_hex=c["hex"], target_hex=target_hex,
                                  target_facts=facts, nearest=nearest, **thrower)

        if kind in ("rattlesnake", "baker", "dirigible", "bolero"):
            if kind == "bolero":
                targets = [t for t in order["targets"] if _can_aim(s, seat, t)]
            elif order["target"] == "nearest":
                targets = _nearest(s, seat, rng)
            else:
                targets = [order["target"]] if _can_aim(s, seat, order["target"]) else []
            if not targets:
                _line(seg, f"{c['name']} holds the {throw.name}: {_nobody_to_hit(s, order)}.", kind="no_target",
                      seat=seat)
                continue
            if not spend(seat, throw, len(targets) if kind == "bolero" else None):
                continue
            plan["thrown"] = True  # a Baker Bounce bounces after throwing (book 5.5), not after a held throw
            for t in targets:
                chance = aimed(cs[t]["hex"], _facts(s, t, plans[t], g),
                               nearest=kind == "rattlesnake" and order["target"] == "nearest")
                if chance is None:
                    _line(seg, f"{c['name']} has no throwing route to {cs[t]['name']}.", seat=seat)
                    continue
                hit = roll_for(seat, f"{throw.name} at {cs[t]['name']}", chance, action=kind, victim=t)
                seg["throws"].append({"seat": seat, "action": kind, "from": c["hex"], "to": cs[t]["hex"],
                                      "target": t, "hit": hit})
                if hit:
                    damage.append((seat, t, throw.damage, True, throw.name))
                    if kind == "dirigible":
                        big_hits.add(t)
        elif kind == "maniac":
            _line(seg, f"{c['name']} goes Mendham Maniac, flinging snow at all and sundry!", kind="maniac", seat=seat)
            seg["throws"].append({"seat": seat, "action": kind, "from": c["hex"], "to": c["hex"], "target": None,
                                  "hit": None})
            for t in range(n):
                if t == seat or not _targetable(s, t):
                    continue
                distance = garden.throw_range(c["hex"], cs[t]["hex"])
                if distance is None or distance > throw.range:
                    continue
                chance = aimed(cs[t]["hex"], _facts(s, t, plans[t], g))
                if chance is None:
                    continue
                if roll_for(seat, f"Mendham Maniac at {cs[t]['name']}", chance, action=kind, victim=t):
                    damage.append((seat, t, throw.damage, False, throw.name))
        elif kind == "storm":
            conifer = order["conifer"]
            if not _sees_feature(s, seat, conifer):
                _line(seg, f"{c['name']} holds the Conifer Storm: no conifer there can be seen in the fog.",
                      kind="no_target", seat=seat)
                continue
            if conifer in bare_conifers:
                _line(seg, f"{c['name']} holds the Conifer Storm: the conifer at {conifer} is already bare.",
                      kind="no_target", seat=seat)
                continue
            chance = aimed(conifer, None)
            if chance is None or not spend(seat, throw):
                continue
            hit = roll_for(seat, f"Conifer Storm at the conifer at {conifer}", chance, action=kind, conifer=conifer)
            seg["throws"].append({"seat": seat, "action": kind, "from": c["hex"], "to": conifer, "target": conifer,
                                  "hit": hit})
            if not hit:
                continue
            roll = rng.randint(1, 100)
            falls_now = roll <= R.STORM_FALL_CHANCE
            _line(seg, f"The snowball thumps the conifer at {conifer}: d100 {roll:02d} against "
                       f"{R.STORM_FALL_CHANCE} for the snow to fall: " + ("it falls!" if falls_now else "it holds."),
                  kind="storm_roll", seat=seat, roll=roll, needed=R.STORM_FALL_CHANCE, falls=falls_now,
                  conifer=conifer)
            if falls_now:
                falls.setdefault(("conifer", conifer), []).append(seat)
        elif kind == "avalanche":
            side = order["side"]
            if not _sees_feature(s, seat, garden.shed):
                _line(seg, f"{c['name']} holds the Shed Avalanche: the shed cannot be seen in the fog.",
                      kind="no_target", seat=seat)
                continue
            if side in bare_sides:
                _line(seg, f"{c['name']} holds the Shed Avalanche: that side of the roof is already bare.",
                      kind="no_target", seat=seat)
                continue
            chance = aimed(garden.shed, None)
            if chance is None or not spend(seat, throw):
                continue
            hit = roll_for(seat, f"Shed Avalanche on the {_side(side)} side of the shed roof", chance,
                           action=kind, side=side)
            seg["throws"].append({"seat": seat, "action": kind, "from": c["hex"], "to": garden.shed, "target": side,
                                  "hit": hit})
            if not hit:
                continue
            roll = rng.randint(1, 100)
            slides = roll <= R.AVALANCHE_CHANCE
            _line(seg, f"The Dirigible lands on the shed roof: d100 {roll:02d} against {R.AVALANCHE_CHANCE} for "
                       "an avalanche: " + ("it slides!" if slides else "it sticks."),
                  kind="avalanche_roll", seat=seat, roll=roll, needed=R.AVALANCHE_CHANCE, slides=slides)
            if not slides:
                continue
            roll = rng.randint(1, 100)
            fell = side if roll <= R.AVALANCHE_SIDE_CHANCE else ("S" if side == "N" else "N")
            _line(seg, f"d100 {roll:02d} against {R.AVALANCHE_SIDE_CHANCE} for the {_side(side)} side: the snow "
                       f"comes off the {_side(fell)} side.",
                  kind="avalanche_side", seat=seat, roll=roll, needed=R.AVALANCHE_SIDE_CHANCE, side=fell)
            if fell in bare_sides:
                _line(seg, f"The {_side(fell)} side is already bare; nothing more falls.", seat=seat)
                continue
            falls.setdefault(("side", fell), []).append(seat)

    _snow_falls(s, seg, falls, rng, damage, big_hits)
    # every throw of the segment lands together
    for thrower, victim, hp, scores, cause in damage:
        v = cs[victim]
        v["hp"] = max(0, v["hp"] - hp)
        v["taken"] += hp
        turn_log[victim]["hit"] = True
        own = thrower == victim
        if thrower is not None and not own:
            cs[thrower]["dealt"] += hp
            turn_log[thrower]["hit_someone"] = True
            if scores:
                cs[thrower]["vp"] += hp
        note = " (no VPs for a Maniac)" if not scores else (" (their own doing: no VPs)" if own else "")
        whose = "their own" if own else f"{cs[thrower]['name']}'s"
        fogged = {"unseen_text": f"{v['name']} takes {hp} HP from a {cause} out of the fog: {v['hp']} HP left."
                  } if F.is_fogbound(s) else {}
        _line(seg, f"{v['name']} takes {hp} HP from {whose} {cause}{note}: {v['hp']} HP left.",
              kind="damage", seat=victim, thrower=thrower, hp=hp, vps=hp if scores and not own else 0, cause=cause,
              **fogged)
    for t in big_hits:
        cs[t]["big_hit"] = g
    for seat in range(n):
        why = plans[seat].get("disaster")
        if why and cs[seat]["status"] == FIGHTING:
            c = cs[seat]
            c["tally"]["broken"][0] += c["ss"]
            c["tally"]["broken"][1] += c["dd"]
            c["ss"] = c["dd"] = 0
            c["hp"] = max(0, c["hp"] - R.DISASTER_DAMAGE)
            c["taken"] += R.DISASTER_DAMAGE
            c["recover"] = g + 1
            what = "rolled 00 and slips" if why == "00" else "fell over"
            if "_sounds" in seg:
                seg["_sounds"].append(("fall", c["hex"]))
            _line(seg, f"{c['name']} {what}: every snowball breaks, {R.DISASTER_DAMAGE} HP lost ({c['hp']} left), "
                       "and the next segment goes on getting up.", kind="disaster", seat=seat, cause=why)
    for seat, c in enumerate(cs):
        if c["hp"] == 0 and c["status"] == FIGHTING:
            if c["hex"] == KITCHEN:  # fell in the kitchen (a slip at its door): no run, the socks dry at once
                c["status"], c["dry_until"] = DRYING, g + DRYING_SEGMENTS
                _line(seg, f"{c['name']} is down to 0 HP in the kitchen and starts drying their socks.",
                      kind="knocked_out", seat=seat)
                continue
            c["status"] = RUNNING
            _line(seg, f"{c['name']} is down to 0 HP and will run for the kitchen, immune on the way.",
                  kind="knocked_out", seat=seat)


def _snow_falls(s: State, seg: dict[str, Any], falls: dict[tuple[str, str], list[int]], rng: Any,
                damage: list[tuple[int | None, int, int, bool, str]], big_hits: set[int]) -> None:
    """The snow each conifer and roof side lets go this segment, once, whoever brought it down:
    its damage scores for the one thrower who did, or, when two did at once, for the one the
    tealeaves pick (as they settle every other tie)."""
    garden = garden_of(s)
    cs = s["combatants"]
    for (what, where), seats in sorted(falls.items()):
        thrower = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
        place = f"the conifer at {where}" if what == "conifer" else f"the {_side(where)} side of the shed roof"
        if len(seats) > 1:
            _line(seg, f"{' and '.join(cs[x]['name'] for x in seats)} bring the snow down from {place} at once: "
                       f"it falls once, and the tealeaves give it to {cs[thrower]['name']}.",
                  kind="shared_fall", seat=thrower, seats=list(seats))
        if what == "conifer":
            s["used"]["conifers"].append(where)
            for t in range(s["players"]):
                if _targetable(s, t):
                    if cs[t]["hex"] == where:
                        damage.append((thrower, t, R.STORM_CONIFER_DAMAGE, True, "Conifer Storm"))
                    elif cs[t]["hex"] in garden.conifer_surroundings(where):
                        damage.append((thrower, t, R.STORM_AROUND_DAMAGE, True, "Conifer Storm"))
        else:
            s["used"]["sides"].append(where)
            for t in range(s["players"]):
                if _targetable(s, t) and cs[t]["hex"] in garden.avalanche[where]:
                    damage.append((thrower, t, 2, True, "Shed Avalanche"))
                    big_hits.add(t)


def _side(side: str) -> str:
    return "north" if side == "N" else "south"


def _nobody_to_hit(s: State, order: dict[str, Any]) -> str:
    """Why an aimed throw is held, in words that read whatever it was aimed at: "no opponent can be
    hit now" ("nearest opponent"), "Jack Frost cannot be hit now", "neither Jack Frost nor Ice Maiden
    can be hit now" (a Bowen Bolero)."""
    cs = s["combatants"]
    if order.get("target") == "nearest":
        return f"no opponent{' in sight' if F.is_fogbound(s) else ''} can be hit now"
    if order["type"] == "bolero":
        first, second = (cs[t]["name"] for t in order["targets"])
        return f"neither {first} nor {second} can be hit now"
    return f"{cs[order['target']]['name']} cannot be hit now"


def _nearest(s: State, seat: int, rng: Any) -> list[int]:
    garden = garden_of(s)
    here = s["combatants"][seat]["hex"]
    best: list[int] = []
    best_d = None
    for x in range(s["players"]):
        if x == seat or not _can_aim(s, seat, x):
            continue
        d = garden.throw_range(here, s["combatants"][x]["hex"])
        if d is None:
            continue
        if best_d is None or d < best_d:
            best, best_d = [x], d
        elif d == best_d:
            best.append(x)
    if len(best) > 1:
        return [best[rng.randrange(len(best))]]
    return best


def _bounce_phase(s: State, seg: dict[str, Any], plans: list[dict[str, Any]], rng: Any) -> None:
    garden = garden_of(s)
    cs = s["combatants"]
    wanted: dict[str, list[int]] = defaultdict(list)
    for seat, plan in enumerate(plans):
        order = plan["order"]
        if (order["type"] != "baker" or order.get("bounce") == "spot" or cs[seat]["status"] != FIGHTING
                or not plan.get("thrown")):
            continue
        if cs[seat]["hex"] == KITCHEN or not garden.adjacent(cs[seat]["hex"], order["bounce"]):
            continue
        wanted[order["bounce"]].append(seat)
    occupied = {c["hex"] for c in cs if c["status"] != GONE}
    for h in sorted(wanted):
        seats = wanted[h]
        if h in occupied:
            for seat in seats:
                _line(seg, f"{cs[seat]['name']} cannot bounce to {h}: someone is standing there.", seat=seat)
            continue
        winner = seats[rng.randrange(len(seats))] if len(seats) > 1 else seats[0]
        c = cs[winner]
        keep = R.carried_after_leaving(c["ss"], c["dd"], None)
        if keep != (c["ss"], c["dd"]):
            c["tally"]["trampled"][0] += c["ss"] - keep[0]
            c["tally"]["trampled"][1] += c["dd"] - keep[1]
            c["ss"], c["dd"] = keep
        seg["moves"].append({"seat": winner, "from": c["hex"], "route": [h], "to": h, "planned": [h],
                             "bumped": False, "bounce": True})
        _line(seg, f"{c['name']} bounces from {c['hex']} to {h}.", kind="bounce", seat=winner, route=[c["hex"], h])
        c["hex"] = h
        occupied.add(h)
        if "_stood" in seg:
            seg["_stood"][winner].append(h)
            if h in garden.pond:
                _splash(s, seg, winner)


# --------------------------------------------------------------------------- the fog


def _gnome_zone(s: State, gnomes: list[str]) -> set[str]:
    """The hexes holding or next to one of ``gnomes``."""
    garden = garden_of(s)
    return set(gnomes) | {h for g in gnomes for h in garden.neighbours(g) if h != KITCHEN}


def _provisional(s: State, seat: int, order: dict[str, Any], planned_start: str | None,
                 why: str) -> tuple[dict[str, Any], str]:
    """A provisional move stands still instead when its first step would enter a hazard the
    seat sees: the pond, or a hex at or next to a gnome it has found."""
    garden = garden_of(s)
    start = s["combatants"][seat]["hex"]
    if start == planned_start:
        first: str | None = order["route"][0]
    else:
        route = garden.cheapest_route(start, order["route"][-1], avoid=garden.pond) or []
        first = route[0] if route else None
    if first is not None and (first in garden.pond or first in _gnome_zone(s, s["fog"]["found"][seat])):
        return {"type": "stand"}, "sees a hazard ahead and stands still instead, as provisionally ordered"
    return order, why


def _swerve(s: State, seg: dict[str, Any], seat: int, start: str, route: list[str]) -> list[str]:
    """In the opening a route into the pond swerves round it, to the route's last dry place."""
    garden = garden_of(s)
    dry = [h for h in route if h not in garden.pond]
    target = dry[-1] if dry else None
    new = garden.cheapest_route(start, target, avoid=garden.pond) or [] if target and target != start else []
    _line(seg, f"{s['combatants'][seat]['name']} swerves to keep out of the pond.", kind="swerve", seat=seat)
    return new


def _fog_hazards(s: State, seg: dict[str, Any], seat: int, order: dict[str, Any], taken: list[str],
                 costs: list[int], rng: Any, plan: dict[str, Any]) -> tuple[list[str], list[int]]:
    """A move ends in the first pond hex it enters; a mover entering hexes at or next to a gnome
    rolls once (30% a hex) and, on a fall, stops at the hex where the running chance reached the roll."""
    garden = garden_of(s)
    wet = next((i for i, h in enumerate(taken) if h in garden.pond), None)
    if wet is not None:
        taken, costs = taken[:wet + 1], costs[:wet + 1]
    if order["type"] == "run" or s["combatants"][seat]["status"] != FIGHTING:
        return taken, costs
    zone = _gnome_zone(s, s["fog"]["gnomes"])
    risky = [i for i, h in enumerate(taken) if h in zone]
    if not risky:
        return taken, costs
    roll = rng.randint(1, 100)
    needed = F.GNOME_CHANCE * len(risky)
    if roll > needed:
        return taken, costs
    at = risky[next(j for j in range(len(risky)) if F.GNOME_CHANCE * (j + 1) >= roll)]
    plan["tripped"] = {"roll": roll, "needed": needed}
    return taken[:at + 1], costs[:at + 1]


def _splash(s: State, seg: dict[str, Any], seat: int) -> None:
    c = s["combatants"][seat]
    lost = c["hp"]
    c["hp"] = 0
    c["taken"] += lost
    c["status"] = RUNNING
    _line(seg, f"{c['name']} splashes into the pond at {c['hex']}: soaked through, every HP lost, and off to the "
               "kitchen to change.", kind="splash", seat=seat, hex=c["hex"], hp=lost)
    seg["_sounds"].append(("splash", c["hex"]))


def _after_fog_move(s: State, seg: dict[str, Any], seat: int, plan: dict[str, Any], opening: bool) -> None:
    """A gnome's fall (every carried snowball lost) and a splash into the pond, after the moves."""
    garden = garden_of(s)
    c = s["combatants"][seat]
    if c["status"] != FIGHTING:
        return
    tripped = plan.get("tripped")
    if tripped:
        lost_ss, lost_dd = c["ss"], c["dd"]
        c["tally"]["broken"][0] += lost_ss
        c["tally"]["broken"][1] += lost_dd
        c["ss"] = c["dd"] = 0
        _line(seg, f"{c['name']} trips over a garden gnome and falls flat at {c['hex']}: d100 {tripped['roll']:02d} "
                   f"against {tripped['needed']}; {_balls(lost_ss, lost_dd)} lost.",
              kind="fall", seat=seat, hex=c["hex"], roll=tripped["roll"], needed=tripped["needed"],
              ss=lost_ss, dd=lost_dd)
        seg["_sounds"].append(("fall", c["hex"]))
    if not opening and plan["moved"] and c["hex"] in garden.pond:
        _splash(s, seg, seat)


def _segment_sight(s: State, seg: dict[str, Any]) -> None:
    """Record what each seat saw in the segment (``sight``, ``seen``) and give each the sounds of
    it that it did not see."""
    garden = garden_of(s)
    n = s["players"]
    vision = s["fog"]["vision"]
    sights = [F.sight_along(garden, seg["_stood"][x], vision) for x in range(n)]
    after = seg.pop("_after_moves", [c["hex"] for c in s["combatants"]])
    seg["sight"] = [[h for h in garden.hexes if h in sights[x]] for x in range(n)]
    seg["seen"] = [sorted(y for y in range(n) if y != x and (after[y] in sights[x]
                          or seg["positions"].get(str(y)) in sights[x])) for x in range(n)]
    sounds = seg.pop("_sounds")
    sounds += sorted({(t["seat"], t["from"]) for t in seg["throws"]})
    seg.pop("_stood")
    for entry in sounds:
        kind, source = ("throw", entry[1]) if isinstance(entry[0], int) else entry
        if not garden.is_hex(source):
            continue  # inside the kitchen, nobody in the garden hears it
        for x in range(n):
            here = F.eye(s, x)
            if here is None or source in sights[x]:
                continue
            where = F.heard(garden, here, source)
            s["fog"]["sounds"][x].append({"turn": seg["turn"], "segment": seg["segment"], "kind": kind, **where,
                                          "text": F.sound_text(kind, where["direction"], where["distance"])})


def _fog_log(s: State, seg: dict[str, Any]) -> list[Event]:
    """The segment's events for the game log, each marked with the seats that saw it (a hit from
    out of sight is logged to its victim in the fog's words); ``seg["readers"]`` keeps, per
    event, None (public) or [the seats that read it, the seats that read it in the fog's words]
    for the views."""
    garden = garden_of(s)
    out: list[Event] = []
    sights = [frozenset(h) for h in seg["sight"]]
    seens = [frozenset(x) for x in seg["seen"]]
    seg["readers"] = []
    for e in seg["events"]:
        if e["type"] in F.PUBLIC_EVENTS:
            seg["readers"].append(None)
            out.append(e)
            continue
        plain, variants = [], []
        for x in range(s["players"]):
            shown_to_x = F.readable(garden, e, x, sights[x], seens[x])
            if shown_to_x is e:
                plain.append(x)
            elif shown_to_x is not None:
                variants.append((x, shown_to_x))
        seg["readers"].append([plain, [x for x, _ in variants]])
        out.append({**e, "visible_to": _readers(s, plain)})
        out += [{**v, "visible_to": [x]} for x, v in variants]
    return out


def _end_of_fog_turn(s: State, report: dict[str, Any], rng: Any, events: list[Event]) -> None:
    """The turn's one vision roll for everyone, then everyone looks around for gnomes."""
    fog = s["fog"]
    garden = garden_of(s)
    roll = rng.randint(1, 100)
    before = fog["vision"]
    if roll <= F.VISION_UP:
        fog["vision"] = before + 1
        words = "thins"
    elif roll <= F.VISION_DOWN:
        fog["vision"] = max(F.VISION_MIN, before - 1)
        words = "thickens" if fog["vision"] < before else "thickens, but nobody can see less than one hex"
    else:
        words = "holds"
    report["vision"] = {"roll": roll, "before": before, "vision": fog["vision"]}
    hexes = "hex" if fog["vision"] == 1 else "hexes"
    events.append({"type": "vision", "turn": report["turn"], "roll": roll, "before": before, "vision": fog["vision"],
                   "text": f"The fog {words} (d100 {roll:02d}: up to {F.VISION_UP} it thins, up to {F.VISION_DOWN} "
                           f"it thickens): everyone now sees {fog['vision']} {hexes}."})
    for x in range(s["players"]):
        new = [g for g in fog["gnomes"] if g in F.visible_now(s, x) and g not in fog["found"][x]]
        if new:
            fog["found"][x] = sorted(fog["found"][x] + new, key=garden.hexes.index)
            events.append({"type": "gnome_found", "seat": x, "hexes": new, "visible_to": [x],
                           "text": f"Looking around, {s['combatants'][x]['name']} spots a garden gnome at "
                                   f"{' and '.join(new)}."})


# --------------------------------------------------------------------------- reading


def standing(state: State) -> dict[str, Any]:
    """VPs (``scores``), names and damage dealt and taken as they stand (nothing yet during the setup)."""
    cs = state["combatants"]
    if not cs:
        n = state["players"]
        return {"scores": [0] * n, "names": [None] * n, "damage_dealt": [0] * n, "damage_taken": [0] * n}
    return {"scores": [c["vp"] for c in cs], "names": [c["name"] for c in cs],
            "damage_dealt": [c["dealt"] for c in cs], "damage_taken": [c["taken"] for c in cs]}


def outcome(state: State) -> dict[str, Any] | None:
    """None while the game runs; the winners, VPs and damage dealt and taken once it is over."""
    return state["result"]
