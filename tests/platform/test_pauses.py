"""The pause log names each collection and each stall of the event loop."""
from __future__ import annotations

import asyncio
import gc
import json
import time

from snowball_site import pauses


def test_off_without_the_setting(monkeypatch):
    monkeypatch.delenv("SNOWBALL_PAUSE_LOG", raising=False)
    app = object()
    assert pauses.with_pause_log(app) is app


def test_collections_and_loop_stalls_are_logged_and_summarised(monkeypatch, tmp_path):
    path = tmp_path / "pauses.jsonl"
    monkeypatch.setenv("SNOWBALL_PAUSE_LOG", str(path))
    monkeypatch.setattr(pauses, "STALL_STACK_AFTER_S", 0.1)
    # the site's full collection every 30 s (snowball_site/tuning.py) runs on a thread of this
    # process too; over a whole test run's heap it can hold the interpreter through the stall,
    # and the watchdog could not look at the loop until the loop had moved on
    collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *args, **kwargs: 0)
    calls = []

    async def app(scope, receive, send):
        calls.append(scope)

    logged = pauses.with_pause_log(app)
    try:
        since = time.time()

        async def serve_then_stall():
            await logged({"type": "http"}, None, None)
            await asyncio.sleep(0.02)
            time.sleep(0.6)  # the loop is stuck here, six times the watchdog's threshold
            await asyncio.sleep(0.02)

        asyncio.run(serve_then_stall())
        collect(1)
    finally:
        gc.callbacks[:] = [c for c in gc.callbacks if getattr(c, "__self__", None) is None
                           or not isinstance(c.__self__, pauses.PauseLog)]
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert calls == [{"type": "http"}]
    assert any(e["kind"] == "gc" and e["generation"] == 1 for e in entries)
    assert any(e["kind"] == "lag" and e["ms"] >= 250 for e in entries)
    stalls = [e for e in entries if e["kind"] == "stall"]
    assert any("serve_then_stall" in e["stack"] for e in stalls), entries  # what the loop was doing
    summary = pauses.summarise(str(path), since=since - 1, until=time.time() + 1)  # times are rounded to ms
    assert summary["gc_generation_1"]["count"] >= 1
    assert summary["loop_lag"]["max_ms"] >= 250
    assert pauses.summarise(str(path), since=0, until=1) == {}


def test_a_log_read_while_a_line_is_being_written_counts_the_lines_written(tmp_path):
    """A benchmark reads the log of a server still writing it: a last line only partly
    written is not a pause yet, and is no error."""
    path = tmp_path / "pauses.jsonl"
    whole = json.dumps({"t": 100.0, "pid": 1, "kind": "lag", "ms": 30.0})
    path.write_text(whole + "\n" + '{"t": 100.5, "pid": 1, "kind": "stall", "ms": 274.36, "stack": "  File')
    assert pauses.summarise(str(path), since=99, until=101) == {
        "loop_lag": {"count": 1, "max_ms": 30.0, "total_ms": 30.0}}
