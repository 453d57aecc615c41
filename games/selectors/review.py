"""Reviewing a game step by step, and checking that it replays from its published seed.

A review is rebuilt from the game's seed and its action log with the engine's own
``new_game``/``apply`` (and ``resign`` for a logged resignation), exactly as the moves were
applied live, never from stored pictures. Step 0 is the game as it started; step ``n`` is
the game after the ``n``-th logged action (while the game is in play, a private action,
which a spectator did not see, is folded into the step before it). Each viewer sees at each step what the engine's
``view`` gives that seat; while the game is in play a review shows only a spectator's view,
and the seed and its salt are published only once the game is over.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from games import engines
from games.caches import LRU
from games.engines.base import GameError, action_seen_only_by
from games.errors import BadRequest, Conflict, Forbidden
from games.models import ActionRecord, Game, Seat
from games.selectors.games import dice, fill_names, seat_names
from games.selectors.results import ended_before_turn
from games.selectors.snapshots import named_outcome, settled_view
from games.services.play import game_arguments, resigned_state
from games.services.resign import resignation_outcome


@dataclass(frozen=True)
class Step:
    """The game after one logged action (step 0: as it started)."""

    number: int
    version: int
    seat: int | None
    source: str | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    turn: Any
    new_turn: bool
    reveal: bool
    # while the game is in play, the private actions (``Ruleset.private_action``) that followed
    # this step's action, folded into it: a spectator saw no step there
    then: tuple[dict[str, Any], ...] = ()


CHECKPOINT_EVERY = 16  # a replay keeps every 16th state; the others are applied again when asked for
VIEWS_KEPT = 256


@dataclass
class Replay:
    """Every step of one game at one version, with some of its states and the latest views asked for."""

    game_id: int
    game_type: str
    version: int
    steps: list[Step]
    names: list[str]
    checkpoints: dict[int, dict[str, Any]]
    final_state: dict[str, Any]
    error: str | None = None  # why the log stopped replaying, if it did
    outcome: dict[str, Any] | None = None  # the finished game's recorded outcome
    finished: bool = False
    views: LRU[tuple[int, int | None], dict[str, Any]] = field(default_factory=lambda: LRU(VIEWS_KEPT))
    latest: tuple[int, dict[str, Any]] | None = None  # the last state asked for

    def state_at(self, step: int) -> dict[str, Any]:
        """The state after ``step``, applied again from the checkpoint before it."""
        if step == len(self.steps) - 1:
            return self.final_state
        start = step - step % CHECKPOINT_EVERY
        state = self.checkpoints[start]
        latest = self.latest
        if latest is not None and start <= latest[0] <= step:  # stepping forward from the last one
            start, state = latest
        ruleset = engines.get(self.game_type)
        for at in self.steps[start + 1:step + 1]:
            state = _apply_logged(ruleset, state, {"source": at.source, "seat": at.seat, "action": at.action})
            for record in at.then:
                state = _apply_logged(ruleset, state, record)
        self.latest = (step, state)
        return state

    def view(self, step: int, seat: int | None) -> dict[str, Any]:
        cached = self.views.get((step, seat))
        if cached is None:
            cached = engines.get(self.game_type).view(self.state_at(step), seat)
            self.views.put((step, seat), cached)
        return cached


REPLAYS: LRU[tuple[int, int, str], Replay] = LRU(16)


def replay_of(game: Game) -> Replay:
    """The game's replay at its current version; a finished game's never changes, so it is
    kept (with the views already drawn) until pushed out by other games."""
    key = (game.pk, game.version, game.seed_salt)  # the salt: a database rebuilt reuses ids
    cached = REPLAYS.get(key)
    if cached is not None:
        return cached
    replay = build_replay(game)
    REPLAYS.put(key, replay)
    return replay


def build_replay(game: Game) -> Replay:
    """Replay the whole log from the seed with the engine, keeping every 16th state and the last."""
    ruleset = engines.get(game.game_type)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile").order_by("number"))
    records = list(ActionRecord.objects.filter(game=game).order_by("seq")
                   .values("seq", "seat", "source", "action", "events", "version"))
    state = ruleset.new_game(**game_arguments(game, seats))
    start_version = records[0]["version"] - 1 if records else game.version
    turn = ruleset.view(state, None).get("turn")
    steps = [Step(number=0, version=start_version, seat=None, source=None, action=None, events=[],
                  turn=turn, new_turn=True, reveal=False)]
    checkpoints = {0: state}
    error = None
    reveal_types = review_reveals(ruleset)
    finished = game.status == Game.Status.FINISHED
    private = 0
    for record in records:
        try:
            before, state = state, _apply_logged(ruleset, state, record)
        except GameError as exc:
            error = f"action {record['seq']} no longer applies: {exc}"
            break
        seen_by = _seen_only_by(ruleset, before, state, record)
        if seen_by is not None and None not in seen_by:
            private += 1  # the version a spectator was shown did not count it
            if not finished:
                steps[-1] = replace(steps[-1], then=steps[-1].then + (record,))
                if len(steps) - 1 in checkpoints:
                    checkpoints[len(steps) - 1] = state
                continue
        new_turn_value = ruleset.view(state, None).get("turn")
        steps.append(Step(number=len(steps), version=record["version"] - private, seat=record["seat"], source=record["source"],
                          action=record["action"], events=record["events"], turn=new_turn_value,
                          new_turn=new_turn_value != turn,
                          reveal=any(e.get("type") in reveal_types for e in record["events"])))
        if (len(steps) - 1) % CHECKPOINT_EVERY == 0:
            checkpoints[len(steps) - 1] = state
        turn = new_turn_value
    return Replay(game_id=game.pk, game_type=game.game_type, version=game.version, steps=steps,
                  names=seat_names(game, seats), checkpoints=checkpoints, final_state=state, error=error,
                  outcome=game.outcome if finished else None, finished=finished)


def versions_told(game: Game) -> dict[int, int]:
    """Each logged action's version as its own seat counted it (``selectors.viewer_version``),
    by the action's ``seq``: what its ``ack`` said, replayed from the seed and the log."""
    ruleset = engines.get(game.game_type)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile").order_by("number"))
    state = ruleset.new_game(**game_arguments(game, seats))
    seen = [0] * game.num_seats
    restricted = 0
    told = {}
    for record in ActionRecord.objects.filter(game=game).order_by("seq").values("seq", "seat", "source", "action",
                                                                             "events", "version"):
        before, state = state, _apply_logged(ruleset, state, record)
        seen_by = _seen_only_by(ruleset, before, state, record)
        if seen_by is not None:
            restricted += 1
            for seat in seen_by:
                if seat is not None:
                    seen[seat] += 1
        told[record["seq"]] = record["version"] - restricted + seen[record["seat"]]
    return told


def _seen_only_by(ruleset, before: dict[str, Any], after: dict[str, Any], record: dict[str, Any]) -> list | None:
    """Who alone saw a logged action (``engines.base.action_seen_only_by``), as it was judged
    when it was played; everyone saw a resignation."""
    if record["source"] == ActionRecord.Source.RESIGN:
        return None
    return action_seen_only_by(ruleset, before, after, record["seat"], record["action"], record["events"])


def review_reveals(ruleset) -> set[str]:
    """The event types a review can jump to as reveals: the engine's ``review_reveals`` where it
    has them (a game without sealed choices), else its sealed choices' ``reveal_events``."""
    return set(getattr(ruleset, "review_reveals", None) or getattr(ruleset, "reveal_events", ()) or ())


def _apply_logged(ruleset, state: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """What the live path applied for this log entry: the engine's resign for a resignation,
    nothing for a seat handed to a computer player, the engine's apply for everything else."""
    if record["source"] == ActionRecord.Source.RESIGN:
        if record["action"].get("type") == "handover":
            return state
        return resigned_state(ruleset, state, record["seat"])[0]
    return ruleset.apply(state, record["seat"], record["action"])[0]


def check_viewer(game: Game, seat: int | None) -> None:
    """A seat's eyes only once the game is over; before that, a spectator's; nothing before the start."""
    if game.status == Game.Status.OPEN:
        raise Conflict("the game has not started; there is nothing to review yet")
    if seat is None:
        return
    if not 0 <= seat < game.num_seats:
        raise BadRequest(f"there is no seat {seat} at this table (seats 0 to {game.num_seats - 1})")
    if game.status != Game.Status.FINISHED:
        raise Forbidden("a game in play is reviewed as a spectator sees it; "
                        "a seat's eyes are shown once the game is over")


def step_data(replay: Replay, *, step: int, seat: int | None) -> dict[str, Any]:
    """One step as ``seat`` (None: a spectator) saw it: its view and the log lines of the action.
    Who took the step (``actor``, ``source``) is told once the game is over: before that, only
    the step's log lines tell it, as they told the table (a sealed choice changed, an
    anonymous shout in the fog)."""
    if not 0 <= step < len(replay.steps):
        raise BadRequest(f"step must be 0 to {len(replay.steps) - 1}, got {step}")
    at = replay.steps[step]
    lines = [{"type": e.get("type", ""), "text": fill_names(ended_before_turn(e.get("text", "")), replay.names)}
             for e in at.events if e.get("visible_to") is None or seat in e["visible_to"]]
    view = replay.view(step, seat)
    if step == len(replay.steps) - 1 and replay.outcome is not None:  # as the finished game's page shows it
        view = settled_view(view, outcome=named_outcome(replay.outcome, replay.names))
    told = replay.finished
    return {"step": step, "version": at.version, "turn": at.turn, "seat": seat, "actor": at.seat if told else None,
            "source": at.source if told else None, "log": lines, "view": view}


def marks(replay: Replay) -> dict[str, Any]:
    """The steps a review can jump to: where a turn begins, where something hidden or rolled is
    revealed (:func:`review_reveals`: sealed choices; a roll-off, a turn's initiative, a card
    played from the hand), and for each reveal its first public log line; a finished game's
    last step, where it ended, is a reveal too if it is not one already, named by its result
    ("Game over: Ben resigned")."""
    reveal_types = review_reveals(engines.get(replay.game_type))
    lines = [{"step": s.number, "text": _reveal_line(s, reveal_types, replay.names)} for s in replay.steps if s.reveal]
    last = replay.steps[-1]
    if replay.outcome is not None and last.number and not last.reveal:
        reason = (named_outcome(replay.outcome, replay.names) or {}).get("reason")
        lines.append({"step": last.number, "text": f"Game over: {reason}" if reason else "Game over"})
    return {"turns": [s.number for s in replay.steps if s.new_turn],
            "reveals": [line["step"] for line in lines], "reveal_lines": lines}


def _reveal_line(step: Step, reveal_types: set[str], names: list[str]) -> str:
    """The step's first public log line of a reveal, with players' names."""
    public = [e for e in step.events if e.get("visible_to") is None and e.get("text")]
    line = next((e for e in public if e.get("type") in reveal_types), public[0] if public else None)
    return fill_names(line["text"], names) if line else f"step {step.number}"


def review_data(game: Game, *, step: int | None, seat: int | None) -> dict[str, Any]:
    """The JSON API's review: the steps there are, where turns and reveals are, one step's view."""
    check_viewer(game, seat)
    replay = replay_of(game)
    last = len(replay.steps) - 1
    return {"game_id": game.pk, "game_type": game.game_type, "status": game.status, "steps": last + 1,
            "players": replay.names, "marks": marks(replay), "dice": dice(game),
            **step_data(replay, step=last if step is None else step, seat=seat)}


def verify(game: Game) -> dict[str, Any]:
    """Replay a finished game from its published seed and log and say whether it comes to the
    recorded result: the outcome, the number of actions, and the final state."""
    if game.status != Game.Status.FINISHED:
        raise Forbidden("the seed is published, and the game can be checked, once the game is over")
    replay = replay_of(game)
    ruleset = engines.get(game.game_type)
    final = replay.steps[-1]
    replayed_outcome = _replayed_outcome(game, ruleset, replay.final_state, replay)
    checks = {
        "all_actions_replay": replay.error is None and len(replay.steps) - 1 == game.log_length,
        "same_outcome": _same(replayed_outcome, game.outcome),
        "same_final_state": game.state is None or _same(replay.final_state, game.state),
    }
    arguments = {k: v for k, v in game_arguments(game).items() if k != "seed"}
    log = list(ActionRecord.objects.filter(game=game).order_by("seq").values("seq", "seat", "source", "action"))
    return {"game_id": game.pk, "game_type": game.game_type, "match": all(checks.values()), "checks": checks,
            "error": replay.error, "actions": len(replay.steps) - 1, "final_version": final.version,
            "outcome": game.outcome, "replayed_outcome": replayed_outcome, **dice(game),
            "new_game": arguments, "log": log}


def _replayed_outcome(game: Game, ruleset, state: dict[str, Any], replay: Replay) -> dict[str, Any] | None:
    """The engine's outcome of the replayed state; for a game that ended because all but one
    side resigned, the platform's result worked out again from the logged resignations."""
    outcome = ruleset.outcome(state)
    if outcome is not None or (game.outcome or {}).get("code") != "resigned":
        return outcome
    resigned = [s.seat for s in replay.steps if s.source == ActionRecord.Source.RESIGN
                and (s.action or {}).get("type") == "resign"]
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    side = {s.number: (s.team if game.num_teams else s.number) for s in seats}
    standing = {side[n] for n in side if n not in resigned}
    if len(standing) != 1:
        return None
    (winner,) = standing
    return resignation_outcome(ruleset, state, winners=[n for n, team in side.items() if team == winner],
                               resigned=sorted(resigned), seats=game.num_seats)


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
