"""The contract every rule engine keeps, and the errors it raises.

An engine is pure Python: no Django, no I/O, no clock, no global ``random``.
A game's state is a JSON-safe ``dict`` owned by the engine; ``apply`` never
mutates the state it is given, so a cached state can be shared safely. Nor does
anyone else: an engine may remember what it worked out for a state object (its
views, its legal actions) and hand it out again for that same object. A view is
read, never changed: the views of one state may share their common parts.
Randomness comes from :func:`rng_for`, seeded by the state's seed and a
counter kept in the state, so a game replays exactly from seed + actions.
"""
from __future__ import annotations

import random
import re
import reprlib
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 40
_SHORT_REPR.maxlong = 30
_SHORT_REPR.maxlist = _SHORT_REPR.maxdict = _SHORT_REPR.maxtuple = _SHORT_REPR.maxset = 4
_SHORT_REPR.maxlevel = 2


def shown(value: Any, longest: int = 80) -> str:
    """``repr`` of something a client sent, cut short for an error message: long strings, deep or
    long lists and dicts and huge numbers are elided with "...", and the whole is at most ``longest``
    characters."""
    text = _SHORT_REPR.repr(value)
    return text if len(text) <= longest else text[:longest - 3] + "..."


class GameError(Exception):
    """Base of every error an engine raises for a bad action; the message is for players."""

    code = "game_error"


class BadAction(GameError):
    """The action is malformed: unknown type, missing or mistyped field."""

    code = "bad_action"


def action_field(action: dict[str, Any], key: str) -> Any:
    """``action[key]``, or ``BadAction`` naming the action's type and the missing field."""
    if key not in action:
        raise BadAction(f'A "{action["type"]}" action needs a "{key}" field.')
    return action[key]


def action_int(action: dict[str, Any], key: str) -> int:
    """``action[key]`` as a whole number (not a bool), or ``BadAction`` naming the field and the value."""
    value = action_field(action, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadAction(f'"{key}" must be a whole number, not {shown(value)}.')
    return value


def action_str(action: dict[str, Any], key: str) -> str:
    """``action[key]`` as text, or ``BadAction`` naming the field and the value."""
    value = action_field(action, key)
    if not isinstance(value, str):
        raise BadAction(f'"{key}" must be a name, not {shown(value)}.')
    return value


BIDI_CONTROLS = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
"""The bidirectional overrides and isolates: text after one can read backwards."""


def not_plain(text: str, *, brackets: bool = True) -> str | None:
    """What first keeps ``text`` from showing as written, in an error message's words ("a
    bidirectional override (U+202E)"), or None: a control character, an invisible formatting
    character (a zero-width space, a bidirectional override) and, with ``brackets``, a brace
    (the log's ``{p1}``) or an angle bracket."""
    for ch in text:
        if brackets and ch in "{}":
            return f"a brace ({ch})"
        if brackets and ch in "<>":
            return f"an angle bracket ({ch})"
        if ch.isprintable():
            continue
        code = f"U+{ord(ch):04X}"
        if BIDI_CONTROLS.fullmatch(ch):
            return f"a bidirectional override ({code})"
        if unicodedata.category(ch) == "Cf":
            return f"an invisible formatting character ({code})"
        if ch.isspace():
            return f"a line break or other special space ({code})"
        return f"a control character ({code})"
    return None


class NotYourTurn(GameError):
    """The seat is not being asked to act now."""

    code = "not_your_turn"


class IllegalAction(GameError):
    """The action is well formed but the rules forbid it now."""

    code = "illegal_action"


@dataclass(frozen=True)
class Option:
    """One choice offered when a game is created (a variant, an optional rule, a map)."""

    name: str
    label: str
    kind: str  # "bool" | "choice" | "multichoice"
    default: Any
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""


def check_option_names(options: dict[str, Any], declared: tuple[Option, ...]) -> None:
    """Refuse a creation option whose name the game does not declare (``Ruleset.options``):
    BadAction names the first unknown one and lists the known ones. The platform checks the
    names of every game's options when a game is created; the engine checks their values."""
    known = [option.name for option in declared]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise BadAction(f"unknown option {shown(unknown[0])}; known options: {', '.join(known) or 'none'}")


@dataclass(frozen=True)
class Prompt:
    """What one seat is asked to do now.

    ``kind`` is a short machine name ("turn", "sealed", "reaction", "effect");
    ``text`` says it to the player; ``timeout`` is the seconds the player has
    before ``default`` (an action the engine accepts) is applied for them, or
    None for no limit.

    ``timeout`` is the engine's suggestion for a live game left on "the game's own timers";
    the game's pace (games/pacing.py) may replace it: a live game's chosen seconds per
    decision, or a game by the day's time per turn, are given to every prompt that has a
    ``default``. The server applies ``default`` when the deadline passes, whether or not
    anyone is connected, and at once for a seat whose player has been away past the grace
    period of a live game. ``default`` is also what the seat plays when its player is absent,
    so it should be the rule book's answer for a player who does not answer (Snowball
    Fighting's ``{"type": "deadline"}``: no orders this turn, one of the ruleset's
    ``server_actions``, which no player may send). Without a ``default`` a prompt has no deadline.
    """

    kind: str
    text: str
    timeout: float | None = None
    default: Action | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "timeout": self.timeout,
            "default": self.default,
            **({"extra": self.extra} if self.extra else {}),
        }


class Ruleset(Protocol):
    """A game: a declarative description plus pure functions over its state.

    ``min_players``..``max_players`` are the seats a table may have (2-12).
    ``team_counts`` are the numbers of teams the game allows; empty: no teams; a 0 among
    them: teams are a variant the creator may leave out. For a table in teams the platform
    calls ``new_game(..., teams=[team of seat 0, team of seat 1, ...])`` with team numbers
    0..k-1; a table without teams is created without ``teams``. Before it
    starts a team game, the platform asks the optional ``check_teams(players=n,
    teams=[...])``, which raises GameError saying why that split is not allowed (e.g. too
    uneven); without it every split with no empty team is allowed.

    The optional ``canonical_options(options) -> options`` gives the creation options as the
    game stores them, for a game that takes a value in more than one spelling (What a
    Snowball!'s Traits in any letter case); the platform saves what it returns once ``new_game``
    took the options, so the summary and the view echo the canonical form. Without it the
    options are saved as sent.

    Three optional members concern a game's pace (docs/api.md, "Pace, deadlines, ready and
    resign"):

    ``ready_action``: for a game whose decisions stay revisable until the player says they
    are final (Snowball Fighting's orders until ``{"type": "ready"}``, Snowball Fight's chosen
    card until ``{"type": "lock"}``), the action that says so. The platform's "ready" sends
    it for the player when it is among the seat's ``legal_actions``; the engine resolves the
    turn as soon as every asked seat has sent it, as it does anyway. Without it a decision
    is final when it is sent (a sealed one-shot choice is its own "ready").

    ``server_actions``: the action types only the server plays, never a player (Snowball
    Fighting's ``{"type": "deadline"}``, a prompt's ``default`` when its time runs out). They are
    not among ``legal_actions``, and the platform refuses them from a player (``bad_action``)
    before the engine sees them; ``apply`` takes them from the platform (timeouts, replays).

    ``resign(state, seat) -> (state, events)``: what resigning does to the game, e.g. a
    combatant leaving the field; pure, like ``apply``, and replayed from the log like any
    action. Whatever it returns, the seat then passes to the computer player (``bot_action``)
    for whatever it is still asked. Without it the state is unchanged and only the seat
    passes. Either way, when only one side (a team at a team table, else a seat) still has a
    player who has not resigned, and the engine's ``outcome`` is still None, the platform
    ends the game with that side as the winner (outcome code ``"resigned"``). The optional
    ``resigned_outcome(state, winners) -> dict`` gives that outcome's scores as they stand, one
    per seat, with whatever else the game's outcome holds (breakdowns, team totals); without it
    every seat scores 0. At a team table each seat's ``scores`` entry is its team's total.

    ``private_action(before, after, seat, action, events) -> bool``: whether an action changed
    what no viewer but its own seat sees (a sealed choice revised, Jingle Bells' automatic
    dodge switched): every other seat's ``view``, a spectator's, who is asked, and every event
    but those ``visible_to`` the seat alone, the same before and after. The platform does not
    count such an action in the version it shows the others (docs/api.md), so that how often
    a player revised a secret is as hidden as what they chose. Without it no action is
    private. :func:`changes_only_own` and :func:`seen_by_seat_alone` are its usual parts.

    ``seen_only_by(before, after, seat, action, events) -> list[int | None] | None``: for an
    action that is not private, the viewers who alone see that it happened (seats, and None
    for the spectators), or None when everyone does: a Fogbound shout changes only its
    shouter's and its hearers' views. The others do not count it either
    (:func:`action_seen_only_by`).
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    team_counts: tuple[int, ...] = ()
    options: tuple[Option, ...]
    score_unit: str  # what the outcome's scores count, e.g. "points"
    score_unit_one: str  # the same for a score of 1, e.g. "point"
    reveal_events: frozenset[str]  # event types with which sealed choices are shown together
    # optional ``review_reveals``: the event types a review jumps to as reveals, if not those

    def new_game(self, *, players: int, options: dict[str, Any], seed: int) -> State: ...
    # a team game's new_game also takes ``teams: list[int]`` (see the class docstring)

    def to_act(self, state: State) -> dict[int, Prompt]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...

    def view(self, state: State, seat: int | None) -> View: ...

    def outcome(self, state: State) -> dict[str, Any] | None: ...

    def bot_action(self, state: State, seat: int) -> Action: ...


def changes_only_own(before: State, after: State, seat: int, keys: tuple[str, ...]) -> bool:
    """Whether ``after`` differs from ``before`` at most in ``seat``'s entry of the per-seat
    lists ``keys`` (for ``private_action``)."""
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old is new:
            continue
        if key not in keys:
            if old != new:
                return False
        elif (not isinstance(old, list) or not isinstance(new, list) or len(old) != len(new)
              or any(x != y for n, (x, y) in enumerate(zip(old, new)) if n != seat)):
            return False
    return True


def seen_by_seat_alone(events: list[Event], seat: int) -> bool:
    """Whether every event is ``visible_to`` ``seat`` alone (for ``private_action``)."""
    return all(event.get("visible_to") == [seat] for event in events)


def action_seen_only_by(ruleset: Any, before: State, after: State, seat: int, action: Action,
                        events: list[Event]) -> list[int | None] | None:
    """The viewers (seats, None for the spectators) who alone see that an action happened:
    its own seat for a private one (``private_action``), the engine's ``seen_only_by`` for
    another; None when every viewer does. Only they count it in their versions."""
    private_action = getattr(ruleset, "private_action", None)
    if private_action is not None and private_action(before, after, seat, action, events):
        return [seat]
    seen_only_by = getattr(ruleset, "seen_only_by", None)
    return seen_only_by(before, after, seat, action, events) if seen_only_by is not None else None


def team_counts_of(ruleset: Ruleset) -> tuple[int, ...]:
    """The numbers of teams ``ruleset`` allows; empty for a game without teams."""
    return tuple(getattr(ruleset, "team_counts", ()))


def rng_for(state: State) -> random.Random:
    """A generator for the next random step of this game; advances the state's counter.

    The state must hold ``seed`` (int) and ``rng_counter`` (int). Call it on the
    new (copied) state inside ``apply``, never on the caller's state.
    """
    counter = state["rng_counter"]
    state["rng_counter"] = counter + 1
    return random.Random(f"{state['seed']}:{counter}")
