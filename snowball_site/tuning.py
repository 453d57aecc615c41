"""Interpreter settings for a long-running server process (measured in docs/performance.md)."""
from __future__ import annotations

import gc
import sys
import threading
import time


def tune_the_interpreter(full_collection_every: float = 0.0) -> None:
    """Hand the interpreter lock over sooner, and keep the cyclic collector's pauses short.

    Database calls run on threads (games/calls.py), and the event loop and those threads
    share one interpreter lock. A thread that
    wants it back (after a query or a socket write) waits up to the switch interval, 5 ms by
    default, while the other runs: every action crosses threads several times, so under load
    those waits were most of the latency. 0.5 ms measured best.

    A full collection walks every tracked object and stops the server meanwhile: with
    Django, the apps and the engines in the heap, and live games' states and payloads on top,
    each one paused it for 60-350 ms on the benchmark machine. What start-up built lives as
    long as the process: freeze it out of the collector's reach.

    The youngest generation is collected every 100,000 net allocations instead of 700. Under
    load the live games' snapshots and payloads are replaced about once a second, faster than
    the collector comes round, so every young collection walks the whole working set (some
    100,000 containers with 250 games) whatever its threshold: 25-75 ms each time. At 20,000
    that happened every 3 s and put about 2% of all moves behind a pause (p99 86 ms at 300
    moves a second); at 100,000 it happens every 15 s or so (p99 48 ms, same run otherwise).
    Cycles are still found, later: the garbage they hold (a few MB) waits for them.

    The oldest generation, left to those thresholds, was collected every few minutes, and
    every socket that closes leaves cycles (its protocol objects, queue and consumer) that
    only it frees: the worker's memory climbed a few MB a minute in steps. A full collection
    every ``full_collection_every`` seconds (``SNOWBALL_FULL_COLLECTION_SECONDS``; 0: never)
    keeps it flat, at the price of one pause each time, as long as the walk of every live
    object: 20 ms with 20 games, 160 ms with 250 (docs/reliability.md has the figures).
    """
    sys.setswitchinterval(0.0005)
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 20, 20)
    if full_collection_every > 0:
        collect_fully_every(full_collection_every)


_full_collections: threading.Thread | None = None


def collect_fully_every(seconds: float) -> None:
    """A full collection every ``seconds``, from a thread of its own (once per process)."""
    global _full_collections
    if _full_collections is not None:
        return

    def collect_forever() -> None:
        while True:
            time.sleep(seconds)
            gc.collect()

    _full_collections = threading.Thread(target=collect_forever, daemon=True, name="full collections")
    _full_collections.start()
