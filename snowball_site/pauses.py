"""Where a server stops: the cyclic collector's pauses and the event loop's lag, to a file.

Off unless ``SNOWBALL_PAUSE_LOG`` names a file (``bench.live --pauses`` sets it). Then every
collection and every loop stall over ``LAG_REPORTED_MS`` is appended to it as a JSON line,
``{"t": epoch seconds, "pid", "kind": "gc"|"lag"|"stall", "ms", ...}``, so a latency tail
can be matched with what stopped the server at that moment (docs/performance.md, "What would move it next").
When the loop has not ticked for ``STALL_STACK_AFTER_S``, a watchdog thread writes what the
loop's thread is running then (a "stall" line with its stack).
"""
from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
import traceback
from typing import Any, TextIO

LAG_TICK_S = 0.005
LAG_REPORTED_MS = 10.0
STALL_STACK_AFTER_S = 0.25


class PauseLog:
    """Appends the process's collector pauses and loop stalls to one file."""

    def __init__(self, path: str) -> None:
        self.out: TextIO = open(path, "a", buffering=1)
        self.pid = os.getpid()
        self._started_at = 0.0
        self._young = 0
        self._lag_task: asyncio.Task | None = None

    def write(self, kind: str, ms: float, **extra: Any) -> None:
        self.out.write(json.dumps({"t": round(time.time(), 3), "pid": self.pid, "kind": kind,
                                   "ms": round(ms, 2), **extra}) + "\n")

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._young = gc.get_count()[0]
            self._started_at = time.perf_counter()
            return
        self.write("gc", (time.perf_counter() - self._started_at) * 1000, generation=info["generation"],
                   collected=info["collected"], young_count=self._young)

    def watch_the_loop(self) -> None:
        """Start timing the running loop's ticks, and the watchdog over them (once)."""
        if self._lag_task is None:
            self._last_tick = time.monotonic()
            self._lag_task = asyncio.get_running_loop().create_task(self._watch())
            threading.Thread(target=self._watchdog, args=(threading.get_ident(),), daemon=True,
                             name="pause-log watchdog").start()

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_TICK_S)
            self._last_tick = time.monotonic()
            late_ms = (loop.time() - before - LAG_TICK_S) * 1000
            if late_ms > LAG_REPORTED_MS:
                self.write("lag", late_ms)

    def _watchdog(self, loop_thread: int) -> None:
        reported_tick = None
        while self._lag_task is not None and not self._lag_task.done():
            time.sleep(STALL_STACK_AFTER_S / 5)
            tick = self._last_tick
            stalled_s = time.monotonic() - tick
            if stalled_s < STALL_STACK_AFTER_S or tick == reported_tick or self._lag_task.done():
                continue  # a loop that has closed is not stalled
            reported_tick = tick
            frame = sys._current_frames().get(loop_thread)
            stack = traceback.format_stack(frame)[-25:] if frame is not None else []
            self.write("stall", stalled_s * 1000, stack="".join(stack))


def with_pause_log(application):
    """``application`` unchanged, or, with ``SNOWBALL_PAUSE_LOG`` set, wrapped so that its
    process logs collector pauses at once and loop stalls from its first connection on."""
    path = os.environ.get("SNOWBALL_PAUSE_LOG")
    if not path:
        return application
    pause_log = PauseLog(path)
    gc.callbacks.append(pause_log.on_collection)

    async def logged(scope, receive, send):
        pause_log.watch_the_loop()
        return await application(scope, receive, send)

    return logged


def summarise(path: str, *, since: float, until: float) -> dict[str, Any]:
    """Pauses between two epoch times in a pause log: per collector generation and for loop
    stalls, how many, the longest and the total milliseconds."""
    summary: dict[str, dict[str, float]] = {}
    try:
        lines = open(path).read().splitlines()
    except FileNotFoundError:
        return {}
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:  # the line the server is writing as the log is read: not one yet
            continue
        if not since <= entry["t"] <= until:
            continue
        if entry["kind"] == "stall":
            continue  # the same stall is counted as loop lag when the loop comes back
        key = f"gc_generation_{entry['generation']}" if entry["kind"] == "gc" else "loop_lag"
        row = summary.setdefault(key, {"count": 0, "max_ms": 0.0, "total_ms": 0.0})
        row["count"] += 1
        row["max_ms"] = max(row["max_ms"], entry["ms"])
        row["total_ms"] = round(row["total_ms"] + entry["ms"], 2)
    return summary
