"""Interpreter settings for a long-running server process (measured in docs/performance.md)."""
from __future__ import annotations

import gc
import sys


def tune_the_interpreter() -> None:
    """Hand the interpreter lock over sooner, and keep the cyclic collector's pauses short.

    The event loop and Channels' database thread share one interpreter lock. A thread that
    wants it back (after a query or a socket write) waits up to the switch interval, 5 ms by
    default, while the other runs: every action crosses threads several times, so under load
    those waits were most of the latency. 0.5 ms measured best.

    A full collection walks every tracked object and stops the server meanwhile: with
    Django, the apps and the engines in the heap, and live games' states and payloads on top,
    each one paused it for 60-350 ms on the benchmark machine. What start-up built lives as
    long as the process: freeze it out of the collector's reach. Collect the youngest
    generation every 20,000 net allocations instead of 700, so that a request's short-lived
    objects die before they are promoted; cycles are still found.
    """
    sys.setswitchinterval(0.0005)
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
