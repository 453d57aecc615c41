"""Shared helpers: the machine a result was measured on, percentiles, result files."""
from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"

PACKAGES = ("django", "channels", "channels-redis", "daphne", "twisted", "redis", "websockets",
            "hdrhistogram", "psutil", "psycopg")


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _server_version(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=5).stdout.strip()
        return out.splitlines()[0] if out else None
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    """What the figures were measured on, including how busy the machine was."""
    info: dict[str, Any] = {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
        "packages": {name: _version(name) for name in PACKAGES if _version(name)},
        "when": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }
    try:
        import psutil

        info["ram_gb"] = round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        pass
    info["redis_server"] = _server_version(["redis-server", "--version"])
    info["postgres"] = _server_version(["psql", "--version"])
    try:
        info["git_commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                                            capture_output=True, text=True, timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "games", "snowball_site"], cwd=REPO,
                               capture_output=True, text=True, timeout=5).stdout.strip()
        info["git_dirty_app_files"] = len(dirty.splitlines()) if dirty else 0
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def median_spread(values: list[float]) -> dict[str, float]:
    """Median, min and max of several runs (the spread is max-min relative to the median)."""
    if not values:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan"), "spread_pct": float("nan")}
    med = statistics.median(values)
    return {"median": med, "min": min(values), "max": max(values),
            "spread_pct": 100.0 * (max(values) - min(values)) / med if med else float("nan")}


def write_result(kind: str, data: dict[str, Any], out: str | None) -> Path:
    """Write ``data`` as JSON to ``out`` or to bench/results/<kind>.json, over the last run of
    that kind (one file per reference run: the file records its own commit and time); return the path."""
    if out:
        path = Path(out)
    else:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{kind}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n")
    return path


def fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"
