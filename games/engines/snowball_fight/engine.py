"""The rules of Snowball Fight as pure functions over a JSON-safe state.

Read top to bottom: options and setup, the draft, the sealed card choice, the
resolution of a reveal (a short pipeline of stages, some of which ask one
player a question), the start of the next turn and the end of the game, then
the result (standing, outcome). Who is asked what, and what they may answer (to_act,
legal_actions, default_action), is in asking.py, re-exported here; each viewer's view is
in views.py.

State layout (every per-seat structure is a list indexed by seat; the top of a
pile is the *end* of its list):

    seed, rng_counter      randomness, see base.rng_for
    players, options       fixed at creation
    phase, step            "draft"/"play"/"over"; "pick"/"keep"/"choose"/"resolve"/"over"
    turn, final_round      turn number (0 during the draft)
    hands, draw, discard, cache, arsenal, abandoned   card ids
    face_down              per seat: ids in its discard that were placed face-down
    draws_next             per seat: cards it draws next turn (1 after a hit)
    whitewash              per seat: seats it must show its next draw to
    shown                  per seat: seats that see its hand this turn
    sealed, locked         per seat: tentative choice (dict or None), locked flag
    draft                  the draft in progress, else None
    battle                 the reveal being resolved, else None
    last_reveal, result    what the last reveal did; the final result

Nested dicts other than ``draft`` and ``battle``, and the inner lists of the per-seat
structures (the piles, ``whitewash``, ``shown``), are never mutated once stored (they
are replaced), so :func:`_copy` copies only what can change in place: the outer lists,
and the draft and battle in progress.
"""
from __future__ import annotations

from typing import Any, Callable

from games.engines.base import (
    Action,
    BadAction,
    Event,
    IllegalAction,
    NotYourTurn,
    Option,
    State,
    rng_for,
    shown,
)
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight.cards import card_name, side_of

SLUG = "snowball-fight"
SIDE_NAMES = ("top", "bottom")
MAX_TURNS = 100  # house ruling "Turn limit": after this turn the Arsenal piles count as depleted
LAST_TURN = 2 * MAX_TURNS  # ... and a final round still going after this turn ends the game there
TURN_LIMIT_WHY = (f"that began when the Arsenal piles counted as depleted after turn {MAX_TURNS} "
                  "(house ruling \"Turn limit\")")
ARSENAL_CLOSED_REASON = f"The Arsenal piles counted as depleted after turn {MAX_TURNS} (house ruling \"Turn limit\")"
LAST_TURN_REASON = (f"The final round was still going after turn {LAST_TURN}, where the house ruling "
                    "\"Turn limit\" ends every game")
SCORING_TEXT = ("Cards in draw piles and discard piles score; cards in a Weapons Cache do not")
MAX_SEATS = 6
HAND_SIZE = 2
PILE_SIZE = 4
KEEP = 2
CHOOSE_TIMEOUT = 90.0
DRAFT_TIMEOUT = 60.0
EFFECT_TIMEOUT = 40.0

_REPLACEMENTS = tuple(
    (f"{alt}:{std}", f"{C.KINDS[alt].name} replaces {C.KINDS[std].name}")
    for alt in C.ALTERNATE_EXTREMES
    for std in C.STANDARD_EXTREMES
)

OPTIONS: tuple[Option, ...] = (
    Option(
        name="draft",
        label="Advanced card draft",
        kind="choice",
        default="draft",
        choices=(
            ("draft", "Full draft"),
            ("quick", "Quick start"),
        ),
        help="How each player gets their two starting Advanced cards. Full draft: keep 1 of 4 and pass 3, "
        "keep 1 and pass 2, then keep 2 of 4. Quick start: each player is dealt 3, keeps 2 and returns 1.",
    ),
    Option(
        name="alternates",
        label="Alternate Extreme cards",
        kind="multichoice",
        default=(),
        choices=_REPLACEMENTS,
        help="Play with one or two alternate Extreme cards, each in place of the standard card it "
        "names: tick at most two, a different alternate replacing a different card.",
    ),
)

_ACTION_TYPES = (
    "choose", "lock", "play", "abandon", "upgrade", "second_card", "pass",
    "exchange", "cache", "restock", "raid", "deal",
)
_UPGRADES = ("ultra_upgrade", "upgrade", "refined_upgrade", "upgrade_dodge")
_DRAW_ONE_ON_HIT = ("snowball", "iceball", "offensive_dodge", "barrage")
_STAGES = ("cancel", "barrage", "attacks", "followups", "abandons", "steals", "upgrades",
           "specials", "end")


_NAME_SLOTS = tuple("{p%d}" % seat for seat in range(16))


def P(seat: int) -> str:
    """The placeholder for a player's name in event and prompt texts."""
    return _NAME_SLOTS[seat]


def _names(ids: list[str]) -> str:
    return ", ".join([card_name(c) for c in ids]) or "nothing"


def _titled(cid: str, side: str) -> str:
    """A card side as events name it, e.g. "Dodge (Dodge / Restock)"."""
    return f"{side_of(cid, side).title} ({card_name(cid)})"


# --------------------------------------------------------------------------- options


def normalize_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Check the creation options' values and return them in canonical form; BadAction says what
    is wrong. (An unknown name is refused by the platform before: ``base.check_option_names``.)"""
    options = dict(options or {})
    draft = options.get("draft", "draft")
    if draft not in ("draft", "quick"):
        raise BadAction(f"option draft must be 'draft' or 'quick', got {shown(draft)}")
    alternates = options.get("alternates", [])
    if not isinstance(alternates, (list, tuple)) or not all(isinstance(a, str) for a in alternates):
        raise BadAction(f"option alternates must be a list like ['raid:barrage'], got {shown(alternates)}")
    if len(alternates) > 2:
        raise BadAction(f"at most two Extreme cards may be replaced, got {len(alternates)}")
    replaced: dict[str, str] = {}
    for entry in alternates:
        alt, _, std = entry.partition(":")
        if alt not in C.ALTERNATE_EXTREMES:
            raise BadAction(
                f"unknown alternate Extreme card {shown(alt)} in {shown(entry)}; "
                f"choose from {', '.join(C.ALTERNATE_EXTREMES)}")
        if std not in C.STANDARD_EXTREMES:
            raise BadAction(
                f"unknown standard Extreme card {shown(std)} in {shown(entry)}; "
                f"choose from {', '.join(C.STANDARD_EXTREMES)}")
        if std in replaced:
            raise BadAction(f"{C.KINDS[std].name} is replaced twice")
        if alt in replaced.values():
            raise BadAction(f"{C.KINDS[alt].name} is used twice")
        replaced[std] = alt
    return {"draft": draft, "alternates": [f"{alt}:{std}" for std, alt in replaced.items()]}


def extremes_in_play(options: dict[str, Any]) -> list[str]:
    """Ids of the four Extreme cards used in a game with these (normalized) options."""
    swaps = dict(reversed(e.split(":")) for e in options["alternates"])
    return [C.ALTERNATE_EXTREMES[swaps[std]] if std in swaps else cid
            for std, cid in C.STANDARD_EXTREMES.items()]


# --------------------------------------------------------------------------- setup


def new_game(*, players: int, options: dict[str, Any] | None, seed: int,
             teams: list[int] | None = None) -> State:
    """A game at the start of the draft: Advanced cards dealt, nothing chosen yet.

    Two players play the rule book's game; 3-6 players the 3+ player variant; ``teams``
    (the team, 0 or 1, of each seat) the Team Play variant (see ``table.py``).
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadAction(f"seed must be an integer, got {shown(seed)}")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= MAX_SEATS:
        raise BadAction(f"Snowball Fight takes 2 to {MAX_SEATS} players, got {shown(players)}")
    if players != 2 or teams is not None:
        return table.new_table_game(players=players, options=options, seed=seed, teams=teams)
    opts = normalize_options(options)
    n = players
    s: State = {
        "seed": seed, "rng_counter": 0, "players": n, "options": opts,
        "phase": "draft", "step": "pick", "turn": 0, "final_round": False,
        "hands": [[] for _ in range(n)], "draw": [[] for _ in range(n)],
        "discard": [[] for _ in range(n)], "face_down": [[] for _ in range(n)],
        "cache": [[] for _ in range(n)], "arsenal": [[] for _ in range(n)], "abandoned": [],
        "draws_next": [HAND_SIZE] * n, "whitewash": [[] for _ in range(n)],
        "shown": [[] for _ in range(n)], "sealed": [None] * n, "locked": [False] * n,
        "draft": None, "battle": None, "last_reveal": None, "result": None,
    }
    advanced = list(C.ADVANCED)
    rng_for(s).shuffle(advanced)
    if opts["draft"] == "quick":
        deal = 3
        s["step"] = "keep"
    else:
        deal = 4
    packs = [advanced[i * deal:(i + 1) * deal] for i in range(n)]
    s["draft"] = {"round": 1, "packs": packs, "kept": [[] for _ in range(n)],
                  "returned": advanced[n * deal:], "extremes": extremes_in_play(opts)}
    s["draw"] = [list(C.STARTING_BASICS[seat]) for seat in range(n)]
    return s


def _copy(state: State) -> State:
    """A copy ``apply`` may change freely: lists are copied, shared dicts are never mutated."""
    s = dict(state)
    # lists whose items are replaced rather than changed
    s["hands"] = state["hands"][:]
    s["draw"] = state["draw"][:]
    s["cache"] = state["cache"][:]
    s["arsenal"] = state["arsenal"][:]
    s["abandoned"] = state["abandoned"][:]
    s["discard"] = state["discard"][:]
    s["face_down"] = state["face_down"][:]
    s["draws_next"] = state["draws_next"][:]
    s["sealed"] = state["sealed"][:]
    s["locked"] = state["locked"][:]
    s["whitewash"] = state["whitewash"][:]
    s["shown"] = state["shown"][:]
    if "team_draw" in state:
        for key in table.TEAM_LISTS:
            s[key] = state[key][:]
    draft = state["draft"]
    if draft is not None:
        s["draft"] = {**draft, "packs": [p[:] for p in draft["packs"]],
                      "kept": [k[:] for k in draft["kept"]]}
    battle = state["battle"]
    if battle is not None:
        b = dict(battle)
        b["plays"] = [list(map(dict, plays)) for plays in battle["plays"]]
        b["face_down"] = battle["face_down"][:]
        b["todo"] = list(map(dict, battle["todo"]))
        for key in _BATTLE_LISTS:
            b[key] = battle[key][:]
        s["battle"] = b
    return s


_BATTLE_LISTS = ("hit", "draw_one", "abandons", "steals", "abandon_after", "closed", "whitewash",
                 "lines")


def _event(events: list[Event], s: State, type_: str, text: str, *,
           visible_to: list[int] | None = None, **data: Any) -> None:
    """Record an event; public events during a reveal also go into the reveal's summary."""
    event: Event = {"type": type_, "text": text, **data}
    if visible_to is not None:
        # seat numbers, sorted and without repeats (nothing to sort for a single seat)
        event["visible_to"] = sorted(set(visible_to)) if len(visible_to) > 1 else list(visible_to)
    elif s["battle"] is not None:
        s["battle"]["lines"].append(text)
    events.append(event)


def _opponent(s: State, seat: int) -> int:
    """The seat this seat battles: the other one of the battle being resolved."""
    battle = s["battle"]
    if battle is not None and "pair" in battle:
        a, b = battle["pair"]
        return b if seat == a else a
    return (seat + 1) % s["players"]


def _dk(s: State, seat: int) -> int:
    """The index of ``seat``'s discard pile in ``discard``/``face_down`` (a team shares one)."""
    return s["dpile"][seat] if "dpile" in s else seat


def _discard_name(s: State, seat: int) -> str:
    """How texts name ``seat``'s discard pile."""
    return f"{_NAME_SLOTS[seat]}'s team discard pile" if "dpile" in s else \
        f"{_NAME_SLOTS[seat]}'s discard pile"


# --------------------------------------------------------------------------- apply


def apply(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Validate ``action`` by ``seat`` and return the new state and what happened."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadAction(f"an action must be an object with a 'type', got {shown(action)}")
    kind = action["type"]
    if kind not in _ACTION_TYPES:
        raise BadAction(f"unknown action type {shown(kind)}; expected one of {', '.join(_ACTION_TYPES)}")
    if state["phase"] == "over":
        raise IllegalAction("the game is over")
    if not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise NotYourTurn(f"seat {shown(seat)} is not playing in this game")
    events: list[Event] = []
    if state["step"] == "resolve":
        s = _copy(state)
        _answer_prompt(s, seat, action, events)
    elif state["step"] == "deal":
        s = table.deal_action(state, seat, action, events)
    else:
        s = _sealed_action(state, seat, action, events)
    return s, events


def _sealed_action(state: State, seat: int, action: Action, events: list[Event]) -> State:
    """choose / lock / play during the draft or the card choice; returns the new state.

    Until the last seat locks only ``sealed`` and ``locked`` change, so only they are
    copied; the lock that ends the step copies the whole state before resolving it.
    """
    if state["locked"][seat]:
        if "active" in state and seat not in state["active"]:
            raise NotYourTurn("only the tied players play the final round")
        raise NotYourTurn("you have already locked your choice; waiting for the other player")
    kind = action["type"]
    if kind == "lock":
        if state["sealed"][seat] is None:
            raise IllegalAction("choose a card before you lock")
        choice = state["sealed"][seat]
    elif kind in ("choose", "play"):
        if state["step"] == "choose" and state.get("mode") == "ring":
            choice = table.parse_ring_choice(state, seat, action)
        else:
            choice = _parse_choice(state, seat, action)
    else:
        raise IllegalAction(f"{shown(kind)} is not possible now: you are choosing a card "
                            "(send choose, lock or play)")
    locked = state["locked"][:]
    if kind == "choose":
        events.append({"type": "choice", "text": f"{_NAME_SLOTS[seat]} is considering {_choice_text(choice)}",
                       "visible_to": [seat]})
    else:
        locked[seat] = True
        events.append({"type": "locked", "text": f"{_NAME_SLOTS[seat]} has chosen"})
        if all(locked):
            s = _copy(state)
            s["sealed"][seat] = choice
            s["locked"][seat] = True
            _finish_sealed(s, events)
            return s
    s = dict(state)
    s["sealed"] = state["sealed"][:]
    s["locked"] = locked
    s["sealed"][seat] = choice
    return s


def _finish_sealed(s: State, events: list[Event]) -> None:
    """Every seat has locked: end the draft round, the draft, or reveal the played cards."""
    step = s["step"]
    if step == "pick":
        _finish_pick(s, events)
    elif step == "keep":
        _finish_keep(s, events)
    elif "mode" in s:
        table.reveal(s, events)
    else:
        _reveal(s, events)


def _parse_choice(s: State, seat: int, action: Action) -> dict[str, Any]:
    """The sealed choice an action describes, checked against what the seat holds."""
    step = s["step"]
    if step == "keep":
        keep = action.get("keep")
        if not isinstance(keep, list) or len(keep) != KEEP or not all(isinstance(c, str) for c in keep):
            raise BadAction("keep must be a list of two card ids, e.g. {'type': 'play', "
                            "'keep': ['c07', 'c12']}")
        if keep[0] == keep[1]:
            raise IllegalAction(f"keep two different cards, not {keep[0]} twice")
        pack = s["draft"]["packs"][seat]
        for cid in keep:
            if cid not in pack:
                raise IllegalAction(f"card {cid} is not among the cards you can keep")
        return {"keep": sorted(keep)}
    cid = action.get("card")
    if not isinstance(cid, str):
        raise BadAction(f"{action['type']} needs 'card', a card id such as 'c07'; got {shown(cid)}")
    if step == "pick":
        if cid not in s["draft"]["packs"][seat]:
            raise IllegalAction(f"card {cid} is not among the cards you are drafting from")
        return {"card": cid}
    side = action.get("side")
    if side not in SIDE_NAMES:
        raise BadAction(f"side must be 'top' or 'bottom', got {shown(side)}")
    if cid not in s["hands"][seat] and cid not in s["cache"][seat]:
        raise IllegalAction(f"card {cid} is not in your hand")
    return {"card": cid, "side": side}


def _choice_text(choice: dict[str, Any]) -> str:
    if "left" in choice:
        return (f"{_titled(choice['left']['card'], choice['left']['side'])} to the left and "
                f"{_titled(choice['right']['card'], choice['right']['side'])} to the right")
    if "keep" in choice:
        return _names(choice["keep"])
    if "side" in choice:
        return _titled(choice["card"], choice["side"])
    return card_name(choice["card"])


def _clear_sealed(s: State) -> None:
    s["sealed"] = [None] * s["players"]
    if "active" in s:  # seats outside a tie-break's final round are never asked
        s["locked"] = [seat not in s["active"] for seat in range(s["players"])]
    else:
        s["locked"] = [False] * s["players"]


# --------------------------------------------------------------------------- draft


def _pick_rounds(players: int) -> int:
    """Rounds of keep-one-and-pass before the final keep: 2 with two players, 3 with more."""
    return 2 if players == 2 else 3


def _finish_pick(s: State, events: list[Event]) -> None:
    """Everyone picked one card: keep it and pass the rest on."""
    d = s["draft"]
    n = s["players"]
    passed = [[] for _ in range(n)]
    for seat in range(n):
        cid = s["sealed"][seat]["card"]
        d["kept"][seat].append(cid)
        rest = [c for c in d["packs"][seat] if c != cid]
        to = d["pass_to"][seat] if "pass_to" in d else (seat + 1) % n
        passed[to] = rest
        _event(events, s, "draft_pick", f"{_NAME_SLOTS[seat]} keeps {card_name(cid)}", visible_to=[seat])
        _event(events, s, "draft_pass",
               f"{_NAME_SLOTS[seat]} keeps a card and passes {len(rest)} to {_NAME_SLOTS[to]}")
    d["packs"] = passed
    d["round"] += 1
    _clear_sealed(s)
    if d["round"] > _pick_rounds(n):
        s["step"] = "keep"
        for seat in range(n):
            d["packs"][seat] = d["kept"][seat] + d["packs"][seat]
            d["kept"][seat] = []
        _event(events, s, "draft_keep", "Each player now keeps two of their four Advanced cards")


def _finish_keep(s: State, events: list[Event]) -> None:
    """Everyone kept two cards: build the Arsenal piles and the draw piles, start turn 1."""
    d = s["draft"]
    n = s["players"]
    returned = list(d["returned"])
    rng = rng_for(s)
    for seat in range(n):
        keep = s["sealed"][seat]["keep"]
        returned += [c for c in d["packs"][seat] if c not in keep]
        pile = s["draw"][seat] + keep
        rng.shuffle(pile)
        s["draw"][seat] = pile
        _event(events, s, "draft_done", f"{_NAME_SLOTS[seat]} keeps {_names(keep)}", visible_to=[seat])
    arsenal = returned + d["extremes"]
    rng.shuffle(arsenal)
    if "mode" in s:
        table.deal_arsenal(s, arsenal)
    else:
        s["arsenal"] = [arsenal[i * PILE_SIZE:(i + 1) * PILE_SIZE] for i in range(n)]
    s["draft"] = None
    s["phase"] = "play"
    _clear_sealed(s)
    tops = ", ".join(f"{card_name(p[-1])} {_pile_where(s, i)}" for i, p in enumerate(s["arsenal"]) if p)
    _event(events, s, "setup", f"The draft is over. The Arsenal piles show {tops}",
           arsenal=[p[-1] for p in s["arsenal"]])
    _start_turn(s, events)


# --------------------------------------------------------------------------- turns


def _pile_where(s: State, pile: int) -> str:
    """Where an Arsenal pile lies, in words: near its seat, or in the middle."""
    return f"near {_NAME_SLOTS[pile]}" if pile < s["players"] else "in the middle"


def _start_turn(s: State, events: list[Event]) -> None:
    """Turn limit, final-round check, end-of-game check, then everyone draws and chooses."""
    if "mode" in s:
        table.start_turn(s, events)
        return
    n = s["players"]
    closed = close_arsenal_at_turn_limit(s, events)
    if not s["final_round"] and not any(s["arsenal"]):
        s["final_round"] = True
        rng = rng_for(s)
        for seat in range(n):
            pile = s["draw"][seat] + s["discard"][seat]
            rng.shuffle(pile)
            s["draw"][seat], s["discard"][seat], s["face_down"][seat] = pile, [], []
        why = ("The Arsenal piles count as depleted (turn limit)" if closed
               else "Both Arsenal piles are empty")
        _event(events, s, "final_round",
               f"{why}: final round! Each player shuffles their draw and "
               "discard piles into a new draw pile; discards are no longer reshuffled")
    s["turn"] += 1
    if s["turn"] > LAST_TURN:
        _end_game(s, events, code="turn_limit", reason=LAST_TURN_REASON)
        return
    draws_next = s["draws_next"]
    short = [seat for seat in range(n) if _drawable(s, seat) < draws_next[seat]]
    if short:
        who = " and ".join(P(seat) for seat in short)
        if s.get("turn_limit"):
            _end_game(s, events, code="turn_limit",
                      reason=ended_because(s["turn"], f"{who} could not draw enough cards in the final round "
                                           f"{TURN_LIMIT_WHY}"))
        else:
            _end_game(s, events, code="cannot_draw",
                      reason=ended_because(s["turn"], f"{who} could not draw enough cards"))
        return
    shown, whitewash = s["shown"], s["whitewash"]
    for seat in range(n):
        _draw(s, seat, draws_next[seat], events)
        shown[seat], whitewash[seat] = whitewash[seat], []
        for watcher in shown[seat]:
            _event(events, s, "whitewash_show",
                   f"Whitewash: {_NAME_SLOTS[seat]} shows {_NAME_SLOTS[watcher]} the drawn cards: "
                   f"{_names(s['hands'][seat])}", visible_to=[seat, watcher])
    s["draws_next"] = [HAND_SIZE] * n
    s["step"] = "choose"


def ended_because(turn: int, why: str, *, winner: str = "the player") -> str:
    """An outcome's reason when a player (or team) could not draw: that the game ended there,
    who could not draw, and that points, not the running out, decide who wins."""
    return f"The game ended at the start of turn {turn} because {why}; {winner} with the most points wins"


def close_arsenal_at_turn_limit(s: State, events: list[Event]) -> bool:
    """The house ruling "Turn limit": once turn MAX_TURNS is over, the Arsenal piles count as depleted.

    Their cards are set aside, out of the game and unscored, and the game goes on by the rule
    book's own end: the two-player final round, the 3+ tie-break, the end of a team game.
    True when the piles were closed just now.
    """
    if s["turn"] < MAX_TURNS or s.get("turn_limit") or not any(s["arsenal"]) or s.get("tiebreak"):
        return False
    cards = [c for pile in s["arsenal"] for c in pile]
    s["arsenal"] = [[] for _ in s["arsenal"]]
    s["set_aside"] = s.get("set_aside", []) + cards
    s["turn_limit"] = True
    _event(events, s, "turn_limit",
           f"Turn {MAX_TURNS} is over: by the house ruling \"Turn limit\" the Arsenal piles now count as "
           f"depleted, and their {_count(len(cards), 'card')} are set aside, out of the game",
           count=len(cards))
    return True


def _drawable(s: State, seat: int) -> int:
    """Cards a seat could draw now (RULINGS 6): draw pile, plus discards outside the final round."""
    return len(s["draw"][seat]) + (0 if s["final_round"] else len(s["discard"][seat]))


def _draw(s: State, seat: int, count: int, events: list[Event]) -> None:
    """``seat`` draws ``count`` cards into its hand, between reveals (the events are no reveal lines)."""
    pile = s["draw"][seat]
    drawn = pile[:-count - 1:-1]
    if len(drawn) < count:
        _reshuffle(s, seat, events)
        pile = s["draw"][seat]
        more = count - len(drawn)
        drawn += pile[:-more - 1:-1]
        s["draw"][seat] = pile[:-more]
    else:
        s["draw"][seat] = pile[:-count]
    s["hands"][seat] = drawn
    events.append({"type": "draw", "text": f"{_NAME_SLOTS[seat]} draws {_count(count, 'card')}",
                   "seat": seat, "count": count})
    events.append({"type": "draw_private", "text": f"{_NAME_SLOTS[seat]} draws {_names(drawn)}",
                   "cards": drawn, "visible_to": [seat]})


def _reshuffle(s: State, seat: int, events: list[Event]) -> None:
    pile = s["discard"][seat][:]
    rng_for(s).shuffle(pile)
    s["draw"][seat], s["discard"][seat], s["face_down"][seat] = pile, [], []
    _event(events, s, "reshuffle",
           f"{_NAME_SLOTS[seat]} shuffles their discard pile ({_count(len(pile), 'card')}) into a new draw pile",
           seat=seat, count=len(pile))


def _count(n: int, noun: str) -> str:
    """``1, "card"`` -> "1 card"; ``4, "card"`` -> "4 cards"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def scoring_cards(s: State, seat: int) -> list[str]:
    """The cards that score for a seat (rule book, Scoring): its draw pile and discard pile.

    Weapons Cache cards do not score; hands are empty when a game ends (it ends at the
    start of a turn, before anyone draws), and No Effect cards are worth nothing.
    """
    return [c for c in s["draw"][seat] + s["discard"][seat] if not C.is_no_effect(c)]


def breakdown_rows(scoring: list[str], cached: list[str]) -> list[dict[str, Any]]:
    """The result's rows for one seat: each scoring card, then each cached card at 0 points."""
    rows = [{"id": c, "card": card_name(c), "points": C.points_of(c)} for c in sorted(scoring)]
    rows += [{"id": c, "card": card_name(c), "points": 0, "cached": True,
              "note": "in a Weapons Cache: does not score"} for c in sorted(cached)]
    return rows


def _end_game(s: State, events: list[Event], *, code: str, reason: str) -> None:
    n = s["players"]
    breakdown = [breakdown_rows(scoring_cards(s, seat), s["cache"][seat]) for seat in range(n)]
    scores = [sum(item["points"] for item in rows) for rows in breakdown]
    best = max(scores)
    winners = [seat for seat in range(n) if scores[seat] == best]
    s["result"] = {"code": code, "reason": reason, "scores": scores, "winners": winners,
                   "breakdown": breakdown}
    s["phase"] = s["step"] = "over"
    _clear_sealed(s)
    score_text = ", ".join(f"{_NAME_SLOTS[seat]} {scores[seat]}" for seat in range(n))
    if len(winners) > 1:
        verdict = "a tie: " + " and ".join(P(w) for w in winners) + " share the victory"
    else:
        verdict = f"{_NAME_SLOTS[winners[0]]} wins"
    _event(events, s, "game_over",
           f"{reason}. {SCORING_TEXT}: {score_text} — {verdict}",
           scores=scores, winners=winners)


# --------------------------------------------------------------------------- reveal


def _reveal(s: State, events: list[Event]) -> None:
    """Everyone locked a card: discard the rest face-down, show the played cards, resolve."""
    n = s["players"]
    plays: list[list[dict[str, Any]]] = []
    face_down: list[list[str]] = []
    parts: list[str] = []  # what the reveal event says and lists, seat by seat
    shown: list[dict[str, str]] = []
    hands, caches, discards, face_downs = s["hands"], s["cache"], s["discard"], s["face_down"]
    for seat, choice in enumerate(s["sealed"]):
        cid, side = choice["card"], choice["side"]
        rest = hands[seat][:]
        if cid in caches[seat]:
            caches[seat] = _without(caches[seat], cid)
            via = "cache"
        else:
            rest.remove(cid)
            via = "hand"
        hands[seat] = []
        discards[seat] = discards[seat] + rest + [cid]
        face_downs[seat] = face_downs[seat] + rest
        face_down.append(rest)
        plays.append([_play(cid, side, via)])
        parts.append(f"{_NAME_SLOTS[seat]} plays {_titled(cid, side)}{_VIA_TEXT[via]}")
        shown.append({"card": cid, "side": side})
    _clear_sealed(s)
    s["shown"] = [[] for _ in range(n)]
    s["step"] = "resolve"
    text = "Reveal: " + "; ".join(parts)
    s["battle"] = {
        "turn": s["turn"], "plays": plays, "face_down": face_down,
        "hit": [False] * n, "draw_one": [False] * n,
        "abandons": [], "steals": [], "abandon_after": [], "closed": [], "whitewash": [],
        "lines": [text], "todo": [],  # todo is filled in when a stage asks a question
    }
    events.append({"type": "reveal", "text": text, "plays": shown})
    _run_stages(s, events)


_VIA_TEXT = {"hand": "", "cache": " from their Weapons Cache", "barrage": "", "dodge": ""}


def _play(cid: str, side: str, via: str) -> dict[str, Any]:
    """One card side in action this reveal, with the flags the stages set on it."""
    props = side_of(cid, side)
    return {"card": cid, "side": side, "via": via, "ability": props.ability,
            "attack": props.is_attack, "dodges": props.dodges, "off": False, "done": False,
            "dodged": False, "backfired": False}


def _play_text(play: dict[str, Any]) -> str:
    return _titled(play["card"], play["side"]) + _VIA_TEXT[play["via"]]


def _run_stages(s: State, events: list[Event]) -> None:
    """Run a new reveal's stages in order; the first that asks a question hands over to ``_run``.

    Same as ``_run`` over a ``todo`` of every stage, without building it, and without calling
    the stages that have nothing to do (``_STAGE_NEEDS``).
    """
    plays = s["battle"]["plays"]
    in_play = {p["ability"] for seat_plays in plays for p in seat_plays}
    for i, (name, stage, needs) in enumerate(_STAGE_PLAN):
        if needs is not None and needs.isdisjoint(in_play):
            continue
        tasks = stage(s, events)
        if tasks:
            s["battle"]["todo"] = tasks + [{"do": later} for later in _STAGES[i + 1:]]
            _run(s, events)
            return
        if name == "followups":  # a Dodge's other side may have joined the plays
            in_play = {p["ability"] for seat_plays in plays for p in seat_plays}


def _run(s: State, events: list[Event]) -> None:
    """Work through the reveal's stages until one needs a player's answer or the turn ends."""
    todo = s["battle"]["todo"]  # changed in place; the battle ends only with the "end" stage
    while todo:
        task = todo[0]
        if "ask" in task:
            if "options" in task:
                return
            options = _OPTIONS_FOR[task["what"]](s, task)
            if len(options) > 1 or (options and task["what"] == "second_card"):
                task["options"] = options
                return
            todo.pop(0)
            _ANSWER[task["what"]](s, task, options[0] if options else None, events)
            continue
        todo.pop(0)
        new_tasks = _STAGE[task["do"]](s, events)
        if s["battle"] is None:
            return
        if new_tasks:
            todo[0:0] = new_tasks


def _answer_prompt(s: State, seat: int, action: Action, events: list[Event]) -> None:
    task = s["battle"]["todo"][0]
    if task["ask"] != seat:
        raise NotYourTurn(f"you are not being asked anything now; waiting for {_NAME_SLOTS[task['ask']]}")
    chosen = _match_option(task, action)
    s["battle"]["todo"].pop(0)
    _ANSWER[task["what"]](s, task, chosen, events)
    _run(s, events)


def _match_option(task: dict[str, Any], action: Action) -> Action:
    """The option ``action`` picks, or an error that says what may be sent instead."""
    options = task["options"]
    for option in options:
        if option.items() <= action.items():  # every field of the option, with the same value
            return option
    verb = _ASK_VERB[task["what"]]
    expected = sorted({o["type"] for o in options})
    if action["type"] not in expected:
        raise IllegalAction(f"you are asked to {verb}; send type "
                            f"{' or '.join(repr(e) for e in expected)}, not {shown(action['type'])}")
    if "side" in options[0] and action.get("side") not in SIDE_NAMES:
        raise BadAction(f"side must be 'top' or 'bottom', got {shown(action.get('side'))}")
    for field in ("give", "take", "card"):
        allowed = sorted({o[field] for o in options if field in o})
        if allowed and action.get(field) not in allowed:
            raise IllegalAction(f"card {action.get(field)} is not one you can {verb}; "
                                f"you can choose {', '.join(allowed)}")
    raise IllegalAction(f"that is not one of the answers you can give: {shown(action)}")


_ASK_VERB = {
    "abandon": "abandon from your discard pile",
    "upgrade": "take as an upgrade",
    "second_card": "play as Barrage's second card",
    "exchange": "exchange (Snatch and Run)",
    "cache": "put into your Weapons Cache",
    "restock": "shuffle back with Restock",
    "raid": "steal with Raid",
}


# --------------------------------------------------------------------------- stages


def _stage_cancel(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Snow Fort cancels the opponent's card; then Dud cancels attacks; Backfire turns them round."""
    all_plays = s["battle"]["plays"]
    n = s["players"]
    forts = [seat for seat in range(n) if _plays_ability(all_plays[seat], "snow_fort")]
    for seat in forts:
        foe = _opponent(s, seat)
        for p in all_plays[foe]:
            p["off"] = True
        _event(events, s, "cancel",
               f"Snow Fort: {_NAME_SLOTS[foe]}'s {_play_text(all_plays[foe][0])} is entirely ineffective")
    for seat in range(n):
        for p in all_plays[seat]:
            if p["ability"] in _REACTIONS:
                _react_to_attacks(s, seat, all_plays[seat], events)
                break
    return []


def _plays_ability(plays: list[dict[str, Any]], ability: str) -> bool:
    """Whether one of ``plays`` (live or not) is the ``ability`` side."""
    for p in plays:
        if p["ability"] == ability:
            return True
    return False


def _react_to_attacks(s: State, seat: int, plays: list[dict[str, Any]], events: list[Event]) -> None:
    """Dud and Backfire among ``plays`` act on the opponent's live attacks."""
    b = s["battle"]
    foe = _opponent(s, seat)
    for p in plays:
        ability = p["ability"]
        if p["off"] or ability not in _REACTIONS:
            continue
        for attack in b["plays"][foe]:
            if attack["off"] or not attack["attack"] or attack["done"]:
                continue
            if ability == "dud":
                attack["off"] = True
                b["abandon_after"].append(attack["card"])
                _event(events, s, "dud",
                       f"Dud: {_NAME_SLOTS[foe]}'s {_play_text(attack)} is ineffective and will be Abandoned")
            elif ability == "backfire":
                attack["backfired"] = True


_REACTIONS = ("dud", "backfire")


def _stage_barrage(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Barrage resolves before any other attack."""
    tasks: list[dict[str, Any]] = []
    for seat in range(s["players"]):
        for p in s["battle"]["plays"][seat]:
            if p["ability"] == "barrage" and not p["off"] and not p["done"]:
                tasks += _attack(s, seat, p, events)
    return tasks


def _stage_attacks(s: State, events: list[Event]) -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = []
    for seat in range(s["players"]):
        for p in s["battle"]["plays"][seat]:
            if p["attack"] and not p["off"] and not p["done"]:
                tasks += _attack(s, seat, p, events)
    return tasks


def _attack(s: State, seat: int, play: dict[str, Any], events: list[Event], *,
            dodgeable: bool = True) -> list[dict[str, Any]]:
    """Resolve one attack by ``seat``: backfired, dodged or a hit."""
    b = s["battle"]
    play["done"] = True
    foe = _opponent(s, seat)
    side = side_of(play["card"], play["side"])
    if play["backfired"]:
        _event(events, s, "backfire",
               f"Backfire: {_NAME_SLOTS[seat]}'s {side.title} turns back on {_NAME_SLOTS[seat]}")
        return _hit(s, side.ability, thrower=foe, target=seat, attacker=seat, events=events)
    if dodgeable and side.dodgeable:
        for guard in b["plays"][foe]:
            if guard["dodges"] and not guard["off"]:
                guard["dodged"] = True
                _event(events, s, "dodge",
                       f"{_NAME_SLOTS[foe]} dodges {_NAME_SLOTS[seat]}'s {side.title} with "
                       f"{side_of(guard['card'], guard['side']).title}")
                return []
    return _hit(s, side.ability, thrower=seat, target=foe, attacker=seat, events=events)


def _hit(s: State, ability: str, *, thrower: int, target: int, attacker: int,
         events: list[Event]) -> list[dict[str, Any]]:
    """What a hit does. ``attacker`` played the card; ``thrower`` gains from it (Backfire swaps)."""
    b = s["battle"]
    b["hit"][target] = True
    title = C.SIDES[ability].title
    b["hit_by"] = b.get("hit_by", []) + [[target, title]]
    effects: list[str] = []
    if ability in _DRAW_ONE_ON_HIT:
        b["draw_one"][target] = True
        effects.append(f"{_NAME_SLOTS[target]} may only draw one card next turn")
    if ability in ("sneak", "iceball"):
        b["abandons"].append([target, title])
        effects.append(f"{_NAME_SLOTS[target]} must Abandon a card from their discard pile")
    if ability == "slushball":
        b["steals"].append([thrower, target])
        effects.append(f"{_NAME_SLOTS[thrower]} steals a random card from {_NAME_SLOTS[target]}'s discard pile")
    if ability == "throwing_rocks":
        played = b["plays"][target][0]["card"]
        b["draw_one"][attacker] = True
        if C.is_no_effect(played):
            effects.append(f"{_NAME_SLOTS[target]} played their No Effect card, so nothing is Abandoned, "
                           f"but {_NAME_SLOTS[attacker]} may only draw one card next turn")
        else:
            b["abandon_after"].append(played)
            effects.append(f"{_NAME_SLOTS[target]} must Abandon the card they played ({card_name(played)}) "
                           f"and {_NAME_SLOTS[attacker]} may only draw one card next turn")
    if ability == "whitewash":
        b["whitewash"].append([target, thrower])
        effects.append(f"{_NAME_SLOTS[target]} must show {_NAME_SLOTS[thrower]} the cards they draw next turn")
    tasks: list[dict[str, Any]] = []
    if ability == "barrage" and thrower == attacker:
        if _second_cards(s, thrower) if "mode" in s else b["face_down"][thrower]:
            tasks.append({"ask": thrower, "what": "second_card"})
            effects.append(f"{_NAME_SLOTS[thrower]} may play their second card")
    _event(events, s, "hit", f"{title} hit {_NAME_SLOTS[target]}: " + "; ".join(effects),
           ability=ability, target=target)
    return tasks


def _stage_followups(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """A successful Dodge lets its card's other side act; Offensive Dodge adds Ultra Upgrade."""
    tasks: list[dict[str, Any]] = []
    for seat in range(s["players"]):
        plays = s["battle"]["plays"][seat]
        for p in list(plays):
            if not p["dodged"] or p["off"] or p["via"] == "dodge":
                continue
            ability = p["ability"]
            if ability not in ("dodge", "offensive_dodge"):
                continue
            other = "bottom" if p["side"] == "top" else "top"
            extra = _play(p["card"], other, "dodge")
            plays.append(extra)
            side = side_of(p["card"], other)
            _event(events, s, "counter", f"{_NAME_SLOTS[seat]} dodged, so also uses {side.title}")
            if side.is_attack:
                tasks += _attack(s, seat, extra, events, dodgeable=False)
    return tasks


def _stage_abandons(s: State, events: list[Event]) -> list[dict[str, Any]]:
    return [{"ask": target, "what": "abandon", "why": why}
            for target, why in s["battle"]["abandons"]]


def _stage_steals(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Slushball steals: all picked at random first, then moved (hits are simultaneous)."""
    b = s["battle"]
    if not b["steals"]:
        return []
    picks = []
    rng = rng_for(s)
    for thief, victim in b["steals"]:
        pile = s["discard"][_dk(s, victim)]
        picks.append((thief, victim, rng.choice(pile) if pile else None))
    for thief, victim, cid in picks:
        if cid is None or cid not in s["discard"][_dk(s, victim)]:
            _event(events, s, "steal", f"{_NAME_SLOTS[thief]} finds nothing to steal in {_discard_name(s, victim)}")
            continue
        _remove_from_discard(s, victim, cid)
        _add_to_discard(s, thief, cid)
        _event(events, s, "steal",
               f"Slushball: {_NAME_SLOTS[thief]} steals {card_name(cid)} from {_discard_name(s, victim)}",
               card=cid, thief=thief, victim=victim)
    return []


def _stage_upgrades(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Every upgrade in priority order: Ultra Upgrade, then higher level first (rule book Notes)."""
    b = s["battle"]
    wanted = []
    for seat in range(s["players"]):
        if b["hit"][seat]:
            for p in b["plays"][seat]:
                if p["ability"] in _UPGRADES and not p["off"]:
                    _hit_stops(s, seat, p, events)
            continue
        for p in b["plays"][seat]:
            ability = p["ability"]
            if ability in _UPGRADES and not p["off"]:
                rank = (0 if ability == "ultra_upgrade" else 1, -C.level_rank(p["card"]))
                wanted.append((rank, seat, p))
    if not wanted:
        return []
    tasks = []
    for rank, seat, p in wanted:
        ability = p["ability"]
        tied = len(wanted) > 1 and any(r == rank and other != seat for r, other, _ in wanted)
        # Tied upgraders take from their own pile; one whose own pile is empty goes last.
        falls_back = tied and not _pile_open(s, seat)
        tasks.append(((rank, falls_back, seat), {
            "ask": seat, "what": "upgrade", "ability": ability, "card": p["card"],
            "nearest_only": tied,
            "abandoned_ok": ability == "ultra_upgrade" or (ability == "upgrade_dodge" and p["dodged"]),
        }))
    return [task for _, task in sorted(tasks, key=lambda t: t[0])]


def _hit_stops(s: State, seat: int, play: dict[str, Any], events: list[Event]) -> None:
    """Say that a hit stopped ``seat``'s upgrade, Restock, Weapons Cache or Raid (R2: each needs
    its player not to have been hit); both cards are public, so the reason is too."""
    title = side_of(play["card"], play["side"]).title
    by = list(dict.fromkeys(attack for target, attack in s["battle"].get("hit_by", []) if target == seat))
    hit = f"hit by {_and_list(by)}" if by else "hit"
    _event(events, s, "stopped", f"{title}: {_NAME_SLOTS[seat]} was {hit}, so their {title} does nothing "
           "(it works only for a player who was not hit)", seat=seat, ability=play["ability"], by=by)


def _pile_open(s: State, pile: int) -> bool:
    """A pile offers a card now: not empty and its top was not taken this turn (no flip yet)."""
    return bool(s["arsenal"][pile]) and pile not in s["battle"]["closed"]


def _stage_specials(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Snatch and Run, Weapons Cache, Restock and Raid, in that order, seat by seat."""
    b = s["battle"]
    found = []
    for seat in range(s["players"]):
        for p in b["plays"][seat]:
            ability = p["ability"]
            if ability not in _SPECIALS or p["off"]:
                continue
            if ability != "snatch_and_run" and b["hit"][seat]:
                _hit_stops(s, seat, p, events)
                continue
            found.append((_SPECIALS[ability], seat, p["card"], p["via"] == "dodge"))
    if not found:
        return []
    return [{"ask": seat, "what": _SPECIAL_PROMPT[order], "card": cid, **({"optional": True} if optional else {})}
            for order, seat, cid, optional in sorted(found)]


_SPECIALS = {"snatch_and_run": 0, "weapons_cache": 1, "restock": 2, "raid": 3}
_SPECIAL_PROMPT = ("exchange", "cache", "restock", "raid")


def _flip_piles(s: State, events: list[Event]) -> None:
    """Flip the next card of every Arsenal pile whose top was taken this turn."""
    for pile in sorted(s["battle"]["closed"]):
        if s["arsenal"][pile]:
            _event(events, s, "flip",
                   f"The Arsenal pile {_pile_where(s, pile)} flips {card_name(s['arsenal'][pile][-1])} face-up",
                   card=s["arsenal"][pile][-1], pile=pile)
        else:
            _event(events, s, "flip", f"The Arsenal pile {_pile_where(s, pile)} is empty", pile=pile)


def _stage_end(s: State, events: list[Event]) -> list[dict[str, Any]]:
    """Abandon what must go, flip the Arsenal piles, record the reveal, start the next turn."""
    if "mode" in s:
        table.end_battle(s, events)
        return []
    b = s["battle"]
    if len(b["lines"]) == 1:
        _event(events, s, "no_effect", "Neither card has any effect")
    for cid in b["abandon_after"]:
        owner = _discard_holding(s, cid)
        if owner is not None:
            _remove_from_discard(s, owner, cid)
            s["abandoned"].append(cid)
            _event(events, s, "abandon", f"{card_name(cid)} is Abandoned from {_discard_name(s, owner)}",
                   card=cid, seat=owner)
    _flip_piles(s, events)
    for target, watcher in b["whitewash"]:
        if watcher not in s["whitewash"][target]:
            s["whitewash"][target] = s["whitewash"][target] + [watcher]
    s["draws_next"] = [1 if draw_one else HAND_SIZE for draw_one in b["draw_one"]]
    s["last_reveal"] = {
        "turn": b["turn"],
        "plays": [[{"card": p["card"], "side": p["side"], "via": p["via"], "cancelled": p["off"]}
                   for p in seat_plays] for seat_plays in b["plays"]],
        "lines": b["lines"],
    }
    s["battle"] = None
    _start_turn(s, events)
    return []


_STAGE: dict[str, Callable[[State, list[Event]], list[dict[str, Any]]]] = {
    "cancel": _stage_cancel, "barrage": _stage_barrage, "attacks": _stage_attacks,
    "followups": _stage_followups, "abandons": _stage_abandons, "steals": _stage_steals,
    "upgrades": _stage_upgrades, "specials": _stage_specials, "end": _stage_end,
}
# A stage with none of these abilities in play (live or not) does nothing.
_STAGE_NEEDS: dict[str, frozenset[str]] = {
    "cancel": frozenset(("snow_fort", *_REACTIONS)),
    "barrage": frozenset(("barrage",)),
    "followups": frozenset(("dodge", "offensive_dodge")),
    "upgrades": frozenset(_UPGRADES),
    "specials": frozenset(_SPECIALS),
}
_STAGE_PLAN = tuple((name, _STAGE[name], _STAGE_NEEDS.get(name)) for name in _STAGES)


# --------------------------------------------------------------------------- piles


def _remove_from_discard(s: State, seat: int, cid: str) -> None:
    seat = _dk(s, seat)
    s["discard"][seat] = _without(s["discard"][seat], cid)
    if cid in s["face_down"][seat]:
        s["face_down"][seat] = _without(s["face_down"][seat], cid)


def _add_to_discard(s: State, seat: int, cid: str) -> None:
    """Put a card face-up on top of ``seat``'s discard pile."""
    seat = _dk(s, seat)
    s["discard"][seat] = s["discard"][seat] + [cid]


def _without(pile: list[str], cid: str) -> list[str]:
    """A copy of ``pile`` without its first ``cid`` (``list.remove`` on a copy)."""
    pile = pile[:]
    pile.remove(cid)
    return pile


def _discard_holding(s: State, cid: str) -> int | None:
    """A seat whose discard pile holds ``cid`` (in team play: a seat of the team holding it)."""
    for seat in range(s["players"]):
        if cid in s["discard"][_dk(s, seat)]:
            return seat
    return None


def _shown_name(s: State, seat: int, cid: str) -> str:
    """How a card leaving ``seat``'s discard is named publicly: face-down cards stay unnamed."""
    return "a face-down card" if cid in s["face_down"][_dk(s, seat)] else card_name(cid)


# --------------------------------------------------------------------------- prompts: options


def _options_abandon(s: State, task: dict[str, Any]) -> list[Action]:
    return [{"type": "abandon", "card": c} for c in s["discard"][_dk(s, task["ask"])]]


def _options_upgrade(s: State, task: dict[str, Any]) -> list[Action]:
    seat = task["ask"]
    piles = [i for i in range(len(s["arsenal"])) if _pile_open(s, i)]
    if task["nearest_only"] and seat in piles:
        piles = [seat]
    cards = []
    for i in piles:
        cards.append(s["arsenal"][i][-1])
        if task["ability"] == "refined_upgrade" and len(s["arsenal"][i]) > 1:
            cards.append(s["arsenal"][i][-2])
    if task["abandoned_ok"]:
        cards += s["abandoned"]
    return [{"type": "upgrade", "card": c} for c in cards]


def _second_cards(s: State, seat: int) -> list[str]:
    """The cards Barrage's hit lets ``seat`` play: its face-down card (2 players), its other
    played card (3+ players), a card its team discarded this turn (teams)."""
    if s.get("mode") == "ring":  # unless Restock has shuffled it back into a draw pile
        return [c for c in s["battle"]["face_down"][seat] if not any(c in pile for pile in s["draw"])]
    if seat in s["battle"].get("second_done", ()):
        return []
    pile = _dk(s, seat)
    return [c for c in s["battle"]["face_down"][pile] if c in s["discard"][pile]]


def _options_second_card(s: State, task: dict[str, Any]) -> list[Action]:
    seat = task["ask"]
    cards = _second_cards(s, seat)
    return [{"type": "second_card", "card": c, "side": side} for c in cards for side in SIDE_NAMES] + (
        [{"type": "pass"}] if cards else [])


def _options_exchange(s: State, task: dict[str, Any]) -> list[Action]:
    seat = task["ask"]
    return [{"type": "exchange", "give": give, "take": take}
            for give in s["discard"][_dk(s, seat)] for take in s["abandoned"]]


def _options_cache(s: State, task: dict[str, Any]) -> list[Action]:
    """A discard to put into the Weapons Cache, or none: "you *may* place one card"."""
    cards = [{"type": "cache", "card": c} for c in s["discard"][_dk(s, task["ask"])]]
    return cards + [{"type": "pass"}] if cards else []


def _options_restock(s: State, task: dict[str, Any]) -> list[Action]:
    """The discards Restock may shuffle back with itself; after a Dodge ("you *may* take the
    action on the opposite side") also a bare Restock and a pass."""
    cards = [{"type": "restock", "card": c} for c in s["discard"][_dk(s, task["ask"])] if c != task["card"]]
    if task.get("optional"):
        return (cards or [{"type": "restock"}]) + [{"type": "pass"}]
    return cards


def _options_raid(s: State, task: dict[str, Any]) -> list[Action]:
    foe = _opponent(s, task["ask"])
    played = [p["card"] for p in s["battle"]["plays"][foe] if p["via"] != "dodge"]
    cards = [c for c in dict.fromkeys(played) if c in s["discard"][_dk(s, foe)]] + s["abandoned"]
    return [{"type": "raid", "card": c} for c in cards]


_OPTIONS_FOR: dict[str, Callable[[State, dict[str, Any]], list[Action]]] = {
    "abandon": _options_abandon, "upgrade": _options_upgrade, "second_card": _options_second_card,
    "exchange": _options_exchange, "cache": _options_cache, "restock": _options_restock,
    "raid": _options_raid,
}


# --------------------------------------------------------------------------- prompts: answers


def _answer_abandon(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    if option is None:
        _event(events, s, "abandon", f"{_NAME_SLOTS[seat]} has no discards to Abandon")
        return
    cid = option["card"]
    _remove_from_discard(s, seat, cid)
    s["abandoned"].append(cid)
    _event(events, s, "abandon", f"{task['why']}: {_NAME_SLOTS[seat]} Abandons {card_name(cid)} from their discard pile",
           card=cid, seat=seat)


def _answer_upgrade(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    title = C.SIDES[task["ability"]].title
    if option is None:
        _event(events, s, "upgrade",
               f"{title}: there is no card {_NAME_SLOTS[seat]} can take: {_nothing_to_take(s, task)}", seat=seat)
        return
    cid = option["card"]
    if cid in s["abandoned"]:
        s["abandoned"].remove(cid)
        where = "the Abandoned pile"
    else:
        pile = next(i for i, p in enumerate(s["arsenal"]) if cid in p)
        where = f"the Arsenal pile {_pile_where(s, pile)}"
        cards = s["arsenal"][pile]
        if cards[-1] == cid:
            s["arsenal"][pile] = cards[:-1]
            s["battle"]["closed"].append(pile)
            # who took it, for a later upgrader who finds the pile without a face-up card
            s["battle"]["taken_by"] = s["battle"].get("taken_by", []) + [[pile, seat]]
        else:
            s["arsenal"][pile] = _without(cards, cid)
            where += " (second card; the top card goes back)"
    _add_to_discard(s, seat, cid)
    _event(events, s, "upgrade", f"{title}: {_NAME_SLOTS[seat]} takes {card_name(cid)} from {where}",
           card=cid, seat=seat)


def _and_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` -> "a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _nothing_to_take(s: State, task: dict[str, Any]) -> str:
    """Why an upgrade found no card, in words: which piles lost their face-up card this turn
    (and to whom), which are empty (RULINGS 1: the next card flips only after every upgrade)."""
    b = s["battle"]
    taken_by = {pile: seat for pile, seat in b.get("taken_by", [])}
    why = []
    for pile in b["closed"]:
        if pile in taken_by:
            why.append(f"{_NAME_SLOTS[taken_by[pile]]} took the face-up card of the Arsenal pile "
                       f"{_pile_where(s, pile)} earlier this turn")
        else:
            why.append(f"the face-up card of the Arsenal pile {_pile_where(s, pile)} was taken earlier this turn")
    if why:
        why[-1] += (", and a pile's next card is turned face-up only after all of this turn's upgrades"
                    if len(why) == 1 else
                    ", and each pile's next card is turned face-up only after all of this turn's upgrades")
    empty = [pile for pile, cards in enumerate(s["arsenal"]) if not cards and pile not in b["closed"]]
    near = [_NAME_SLOTS[pile] for pile in empty if pile < s["players"]]
    middle = bool(empty) and empty[-1] >= s["players"]
    if near:
        piles = "the Arsenal pile" if len(near) == 1 else "the Arsenal piles"
        why.append(f"{piles} near {_and_list(near)} {'is' if len(near) == 1 else 'are'} empty"
                   + (", and so is the one in the middle" if middle else ""))
    elif middle:
        why.append("the Arsenal pile in the middle is empty")
    if task["abandoned_ok"]:
        why.append("the Abandoned pile is empty")
    return "; ".join(why)


def _answer_second_card(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    b = s["battle"]
    if s.get("mode") == "ring":  # the other played card serves one Barrage only
        b["face_down"][seat] = []
    if option is None or option["type"] == "pass":
        _event(events, s, "second_card", f"Barrage: {_NAME_SLOTS[seat]} does not play a second card")
        return
    cid = option["card"]
    pile = _dk(s, seat)
    if cid in s["face_down"][pile]:
        s["face_down"][pile] = _without(s["face_down"][pile], cid)
    extra = _play(cid, option["side"], "barrage")
    if "dpile" in s:  # a team's discarded card serves one Barrage only, a seat one second card
        b["face_down"][pile] = _without(b["face_down"][pile], cid)
        b["second_done"] = b.get("second_done", []) + [seat]
    b["plays"][seat].append(extra)
    _event(events, s, "second_card", f"Barrage: {_NAME_SLOTS[seat]} plays a second card: {_play_text(extra)}",
           card=cid, side=option["side"])
    foe = _opponent(s, seat)
    if extra["ability"] == "snow_fort":
        for p in b["plays"][foe]:
            p["off"] = True
        _event(events, s, "cancel", f"Snow Fort: {_NAME_SLOTS[foe]}'s {_play_text(b['plays'][foe][0])} "
               "is entirely ineffective")
    _react_to_attacks(s, seat, [extra], events)
    if side_of(cid, option["side"]).is_attack:
        b["todo"][0:0] = _attack(s, seat, extra, events)


def _answer_exchange(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    if option is None:
        _event(events, s, "exchange", f"Snatch and Run: {_NAME_SLOTS[seat]} has nothing to exchange")
        return
    give, take = option["give"], option["take"]
    _remove_from_discard(s, seat, give)
    s["abandoned"].remove(take)
    s["abandoned"].append(give)
    _add_to_discard(s, seat, take)
    _event(events, s, "exchange",
           f"Snatch and Run: {_NAME_SLOTS[seat]} Abandons {card_name(give)} and takes {card_name(take)} "
           "from the Abandoned pile", give=give, take=take, seat=seat)


def _answer_cache(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    if option is None:
        _event(events, s, "cache", f"Weapons Cache: {_NAME_SLOTS[seat]} has no discard to cache")
        return
    if option["type"] == "pass":
        _event(events, s, "cache", f"Weapons Cache: {_NAME_SLOTS[seat]} chooses to cache nothing", seat=seat)
        return
    cid = option["card"]
    _remove_from_discard(s, seat, cid)
    s["cache"][seat] = s["cache"][seat] + [cid]
    _event(events, s, "cache", f"Weapons Cache: {_NAME_SLOTS[seat]} puts {card_name(cid)} into their Weapons Cache",
           card=cid, seat=seat)


def _answer_restock(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    if option is not None and option["type"] == "pass":
        _event(events, s, "restock", f"Restock: {_NAME_SLOTS[seat]} dodged and chooses not to Restock",
               seat=seat, count=0)
        return
    moved = [c for c in (task["card"], option.get("card") if option else None)
             if c is not None and c in s["discard"][_dk(s, seat)]]
    names = [_shown_name(s, seat, c) for c in moved]
    for cid in moved:
        _remove_from_discard(s, seat, cid)
    key, index = table.restock_pile(s, seat) if "dpile" in s else ("draw", seat)
    pile = s[key][index] + moved
    rng_for(s).shuffle(pile)
    s[key][index] = pile
    _event(events, s, "restock",
           f"Restock: {_NAME_SLOTS[seat]} shuffles {' and '.join(names) or 'nothing'} into their draw pile",
           seat=seat, count=len(moved))
    if len(moved) > 1 and names[1] != card_name(moved[1]):
        _event(events, s, "restock_private", f"Restock: {_NAME_SLOTS[seat]} shuffles back {card_name(moved[1])}",
               visible_to=[seat])


def _answer_raid(s: State, task: dict[str, Any], option: Action | None, events: list[Event]) -> None:
    seat = task["ask"]
    if option is None:
        _event(events, s, "raid", f"Raid: there is nothing {_NAME_SLOTS[seat]} can steal")
        return
    cid = option["card"]
    if cid in s["abandoned"]:
        s["abandoned"].remove(cid)
        where = "the Abandoned pile"
    else:
        owner = _discard_holding(s, cid)
        _remove_from_discard(s, owner, cid)
        where = f"{_NAME_SLOTS[owner]}'s played cards"
    _add_to_discard(s, seat, cid)
    _event(events, s, "raid", f"Raid: {_NAME_SLOTS[seat]} steals {card_name(cid)} from {where}", card=cid, seat=seat)


_ANSWER: dict[str, Callable[[State, dict[str, Any], Action | None, list[Event]], None]] = {
    "abandon": _answer_abandon, "upgrade": _answer_upgrade, "second_card": _answer_second_card,
    "exchange": _answer_exchange, "cache": _answer_cache, "restock": _answer_restock,
    "raid": _answer_raid,
}


# --------------------------------------------------------------------------- result


def standing(state: State) -> dict[str, Any]:
    """The scores as the cards lie now, for a game ended before its end (every player of one
    side resigned): each seat's (in team play, each team's) draw and discard piles, as at the
    end, and the cards in hand, which would have gone to the discard pile; Weapons Cache cards
    at 0 points. ``scores`` (one per seat) and ``breakdown``, and ``team_scores`` in team play."""
    if state.get("mode") == "teams":
        return table.team_standing(state)
    breakdown = [breakdown_rows(scoring_cards(state, seat) + [c for c in state["hands"][seat] if not C.is_no_effect(c)],
                                state["cache"][seat]) for seat in range(state["players"])]
    return {"scores": [sum(item["points"] for item in rows) for rows in breakdown], "breakdown": breakdown}


def outcome(state: State) -> dict[str, Any] | None:
    """None while the game runs; else reason, scores, winners and each seat's scoring cards."""
    result = state["result"]
    if result is None:
        return None
    out = {
        "code": result["code"],
        "reason": result["reason"],
        "scores": list(result["scores"]),
        "winners": list(result["winners"]),
        "breakdown": [[dict(item) for item in rows] for rows in result["breakdown"]],
    }
    if "tiebreak" in result:
        tb = result["tiebreak"]
        out["tiebreak"] = None if tb is None else {"tied": list(tb["tied"]), "scores": list(tb["scores"])}
    if "team_scores" in result:
        out["team_scores"] = list(result["team_scores"])
    return out


from games.engines.snowball_fight import table  # noqa: E402  (the 3+ and team variants use this module)
from games.engines.snowball_fight.asking import (  # noqa: E402  (who is asked, read from the rules above)
    asked_seats,
    default_action,
    legal_actions,
    prompt_text,
    safe_side,
    to_act,
)
