"""What every probe shares: its summary printed as JSON, and saved under bench/results/ on ``--save``."""
from __future__ import annotations

import json
import os
import time
from typing import Any

from bench.common import machine, write_result


def finish(name: str, summary: dict[str, Any], *, save: bool) -> dict[str, Any]:
    """Print the probe's summary (with the machine it ran on); write it when asked."""
    result = {"probe": name, **summary, "machine": machine(), "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]}
    if save:
        path = write_result(f"probe-{name}", result, None)
        result["saved_to"] = str(path)
    print(json.dumps(result, indent=2, sort_keys=False, default=str))
    return result


def seconds(t: float | None) -> float | None:
    return None if t is None else round(t, 2)


def now() -> float:
    return time.monotonic()
