"""What every probe shares: its summary printed as JSON, and saved on ``--save`` as
bench/results/probe-<name>.json, over the previous run's."""
from __future__ import annotations

import json
import os
import time
from typing import Any

from bench.common import RESULTS, machine, write_result

LOADAVG_AT_START = [round(x, 2) for x in os.getloadavg()]  # when the probe was started


def finish(name: str, summary: dict[str, Any], *, save: bool) -> dict[str, Any]:
    """Print the probe's summary (with the machine it ran on); write it when asked."""
    result = {"probe": name, **summary, "machine": machine() | {"loadavg_at_start": LOADAVG_AT_START},
              "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]}
    if save:
        path = write_result(f"probe-{name}", result, str(RESULTS / f"probe-{name}.json"))
        result["saved_to"] = str(path)
    print(json.dumps(result, indent=2, sort_keys=False, default=str))
    return result


def seconds(t: float | None) -> float | None:
    return None if t is None else round(t, 2)


def now() -> float:
    return time.monotonic()


def well_behaved_load(*, ws_url: str, http_url: str, pool: list[dict[str, Any]], games: int, rate: float,
                      duration: float, warmup: float = 3.0, seed: int = 7) -> dict[str, Any]:
    """Other, well-behaved games played by bench/loadgen.py for ``duration`` seconds: the p99
    from a move's send until all four of its game's sockets have its version. Blocking (the
    generator runs in its own process): call it from a thread while an attack runs."""
    from bench.loadgen import Config, LoadGenerator

    cfg = Config(ws_urls=[ws_url], http_url=http_url, games=games, rate=rate, warmup=warmup, duration=duration,
                 drain=5.0, seed=seed, procs=1)
    generator = LoadGenerator(cfg, pool)
    generator.connect()
    generator.go()
    result = generator.results()
    latency = result["latency_ms"]
    return {"games": games, "actions_per_s": rate, "window_s": duration, "p50_ms": latency["p50"],
            "p99_ms": latency["p99"], "max_ms": latency["max"], "moves": latency["count"], "lost": result["lost"],
            "unexpected_closes": result["count"].get("unexpected_closes", 0), "errors": result["errors"]}
