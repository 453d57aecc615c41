"""The sealed rounds of simultaneous choices, and the shared reveal barrier they are told to."""
from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from dataclasses import dataclass
from typing import Any

from games.coordinator import get_coordinator
from games.engines.base import Ruleset
from games.models import Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Arrival:
    """A seat's lock of its sealed choice, to be told to the reveal barrier once committed."""

    key: str
    seat: int
    expected: frozenset[int]
    revealed: bool


def note_sealed_lock(game: Game, ruleset: Ruleset, state: dict, seat: int, asked_before: dict[int, Any],
                     events: list[dict[str, Any]], arrivals: list[Arrival]) -> bool:
    """Keep the open sealed round in ``game.prompts`` (written with the move), add a seat's
    lock to ``arrivals``; True when the engine revealed.

    A round opens with its first lock and waits for every seat that was being asked anything
    then (a seat still re-rolling is part of it); a seat has locked when it is no longer asked
    or the engine revealed. The round's key (the version of its first lock) and its seats are
    kept with the game's prompts, so every worker agrees on them; the round closes whenever
    the engine reveals (and when the game ends, ``play._prepare_write``).
    """
    engine_revealed = any(event["type"] in ruleset.reveal_events for event in events)
    open_round = game.prompts.get("sealed_round")
    sealed_step = open_round or engine_revealed or any(p.kind == "sealed" for p in asked_before.values())
    locked = seat in asked_before and (engine_revealed or seat not in ruleset.to_act(state))
    if sealed_step and locked:
        if not open_round:
            game.prompts = {**game.prompts, "sealed_round": game.version, "sealed_seats": sorted(asked_before)}
        expected = frozenset(game.prompts.get("sealed_seats") or asked_before) | {seat}
        arrivals.append(Arrival(key=f"sealed-{game.prompts['sealed_round']}", seat=seat, expected=expected,
                                 revealed=engine_revealed))
    if engine_revealed:
        game.prompts = {**game.prompts, "sealed_round": None, "sealed_seats": None}
    return engine_revealed


def tell_the_barrier(game_id: int, arrivals: list[Arrival]) -> None:
    """After the commit: record each committed lock at the reveal barrier, after the game's
    locks that committed on an event loop of this process and wait there to be told
    (``tell_the_barrier_soon``): a computer player that locks at once, on a database thread,
    right after a player's lock made on the loop, reveals the round with its move, and the
    player's lock is told first."""
    _tell(game_id, [*_take_untold(game_id), *arrivals])


def _tell(game_id: int, arrivals: list[Arrival]) -> None:
    """Record each lock at the reveal barrier, in order, and check its answer.

    The engine decides when a round reveals; the barrier is the coordinator's shared record
    of which seats locked in which round, which every worker can read. Its answer is checked
    against the engine's:

    - the engine revealed but the barrier is missing earlier locks of the round: the
      barrier's record was lost (Redis restarted empty, or the key expired), which changes
      nothing in play; logged at INFO, with the seats it lacks;
    - the barrier completed a round the engine did not reveal: two writers recorded locks of
      one round, which the database's ordering of a game's writes and the conditional write
      should make impossible; an error.

    A game's moves commit in order, but two workers (an HTTP move on one, the game's sockets
    on the other) may tell their commits in the other order: the reveal is then told first
    and records the seats it lacks, so the earlier lock, told last, counts as a repeat.
    """
    coordinator = get_coordinator()
    for arrival in arrivals:
        completed = coordinator.barrier_arrive(game_id, arrival.key, arrival.seat, arrival.expected)
        if completed == arrival.revealed:
            continue
        if arrival.revealed:
            missing = sorted(arrival.expected - coordinator.barrier_state(game_id, arrival.key))
            if not missing:
                log.info("game %s: the reveal barrier had counted seat %s of round %s before; the engine revealed "
                         "the round", game_id, arrival.seat, arrival.key)
                continue
            log.info("game %s: the reveal barrier lost its record of round %s (no locks of seats %s: Redis "
                     "restarted or the key expired, or another worker's commit is still to tell it); the "
                     "engine revealed the round, play is unaffected", game_id, arrival.key, missing)
            for seat in missing:  # a late telling of these locks is then a repeat, not a second round
                coordinator.barrier_arrive(game_id, arrival.key, seat, arrival.expected)
        else:
            log.error("game %s: the reveal barrier completed round %s, which the engine did not reveal: "
                      "two writers recorded locks of one round", game_id, arrival.key)


BARRIER_BATCH_SECONDS = 0.05
# per event loop, the committed locks not yet told to the barrier (``tell_the_barrier_soon``)
_UNTOLD: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[tuple[int, list[Arrival]]]] = \
    weakref.WeakKeyDictionary()
_TELLING: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
_UNTOLD_GUARD = threading.Lock()  # the loops add and take their batches; a database thread takes a game's


def tell_the_barrier_soon(game_id: int, arrivals: list[Arrival]) -> None:
    """From the event loop, after a commit made there: ``tell_the_barrier`` on a coordinator
    thread (its calls may wait on Redis), within ``BARRIER_BATCH_SECONDS``, for every commit of
    the loop meanwhile in one hand-off, in the order they committed. A hand-off per move cost
    the loop about what its move's own hop to a database thread had; the barrier is a record
    kept beside play, which nothing waits for."""
    loop = asyncio.get_running_loop()
    with _UNTOLD_GUARD:
        _UNTOLD.setdefault(loop, []).append((game_id, arrivals))
    if loop not in _TELLING:
        from games.services.broadcast import start_background

        _TELLING.add(loop)
        start_background(_tell_untold(loop))


async def _tell_untold(loop: asyncio.AbstractEventLoop) -> None:
    from games.calls import coordinator_call

    try:
        await asyncio.sleep(BARRIER_BATCH_SECONDS)
        while batch := _pop_untold(loop):
            await coordinator_call(_tell_each)(batch)
    finally:
        _TELLING.discard(loop)


def _pop_untold(loop: asyncio.AbstractEventLoop) -> list[tuple[int, list[Arrival]]] | None:
    with _UNTOLD_GUARD:
        return _UNTOLD.pop(loop, None)


def _take_untold(game_id: int) -> list[Arrival]:
    """The locks of ``game_id`` waiting in the loops' batches, in the order they committed,
    taken out of the batches: whoever takes them tells them."""
    taken: list[Arrival] = []
    with _UNTOLD_GUARD:
        for batch in _UNTOLD.values():
            kept = []
            for untold_game, arrivals in batch:
                if untold_game == game_id:
                    taken += arrivals
                else:
                    kept.append((untold_game, arrivals))
            batch[:] = kept
    return taken


def _tell_each(batch: list[tuple[int, list[Arrival]]]) -> None:
    for game_id, arrivals in batch:
        try:
            _tell(game_id, arrivals)
        except Exception:  # the barrier is a record kept beside play: play goes on without it
            log.exception("game %s: the reveal barrier could not be told of seats %s", game_id,
                          [arrival.seat for arrival in arrivals])
