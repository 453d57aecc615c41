"""Heap growth of a daphne worker, for the soak probe (``--tracemalloc``, ``--full-collections``):
found on PYTHONPATH, it does nothing unless the process is daphne and one of the variables
below is set.

``SNOWBALL_PROBE_COLLECT_EVERY=<seconds>``: a full collection (``gc.collect()``) that often,
its count of unreachable objects appended to ``SNOWBALL_TRACEMALLOC_OUT``-<pid>-gc.txt, to
tell garbage that waits for the collector from memory that something still holds.

Then tracemalloc starts 10 s after the interpreter (tracing the imports would slow the start
past the cluster's patience); after ``SNOWBALL_TRACEMALLOC_FIRST`` seconds a first snapshot is taken, and every ``SNOWBALL_TRACEMALLOC_EVERY`` seconds after that the
allocations that grew most since it (grouped by traceback) are written to
``SNOWBALL_TRACEMALLOC_OUT``-<pid>.txt.
"""
import os
import tempfile
import sys

_daphne = any("daphne" in part for part in sys.orig_argv[:2])

if _daphne and os.environ.get("SNOWBALL_PROBE_COLLECT_EVERY"):
    import gc
    import threading
    import time

    def _collect() -> None:
        every = float(os.environ["SNOWBALL_PROBE_COLLECT_EVERY"])
        out = os.environ.get("SNOWBALL_TRACEMALLOC_OUT", os.path.join(tempfile.gettempdir(), "snowball-tracemalloc")) + f"-{os.getpid()}-gc.txt"
        while True:
            time.sleep(every)
            found = gc.collect()
            with open(out, "a") as fh:
                fh.write(f"{time.time():.0f} unreachable {found}\n")

    threading.Thread(target=_collect, daemon=True, name="probe collections").start()

if _daphne and os.environ.get("SNOWBALL_TRACEMALLOC") == "1":
    import linecache
    import threading
    import time
    import tracemalloc

    def _watch() -> None:
        first_after = float(os.environ.get("SNOWBALL_TRACEMALLOC_FIRST", "60"))
        every = float(os.environ.get("SNOWBALL_TRACEMALLOC_EVERY", "60"))
        out = os.environ.get("SNOWBALL_TRACEMALLOC_OUT", os.path.join(tempfile.gettempdir(), "snowball-tracemalloc")) + f"-{os.getpid()}.txt"
        ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, linecache.__file__),
                  tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
        time.sleep(10)
        tracemalloc.start(12)
        time.sleep(max(0.0, first_after - 10))
        base = tracemalloc.take_snapshot().filter_traces(ignore)
        n = 0
        while True:
            time.sleep(every)
            n += 1
            now = tracemalloc.take_snapshot().filter_traces(ignore)
            stats = now.compare_to(base, "traceback")
            with open(out, "a") as fh:
                total = sum(s.size_diff for s in stats)
                fh.write(f"=== {n * every:.0f} s after the first snapshot: {total / 2**20:+.1f} MiB traced\n")
                for stat in stats[:15]:
                    fh.write(f"{stat.size_diff / 1024:+.0f} KiB in {stat.count_diff:+d} blocks\n")
                    for line in stat.traceback.format(limit=8, most_recent_first=True):
                        fh.write("    " + line + "\n")
                fh.flush()

    threading.Thread(target=_watch, daemon=True, name="tracemalloc watch").start()
