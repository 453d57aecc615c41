"""Where the tests find the house's shared folder (rule books, rulings, data files).

The folder sits beside the checkout, as ``../shared``; tests read it relative to this
file, never through an absolute path. A test that needs a file that is not there is
skipped, or fails when ``SNOWBALL_REQUIRE_SHARED`` is set (as in CI), so that a missing
folder cannot pass unnoticed.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
SHARED = (CHECKOUT / ".." / "shared").resolve()


def shared_path(*parts: str) -> Path:
    """The path of ``parts`` inside the shared folder; skips (or fails, when required) if it is missing."""
    path = SHARED.joinpath(*parts)
    if path.is_file():
        return path
    problem = f"{path} is missing (the shared folder is read from ../shared beside the checkout {CHECKOUT})"
    if os.environ.get("SNOWBALL_REQUIRE_SHARED", "") not in ("", "0"):
        pytest.fail(f"{problem}, and SNOWBALL_REQUIRE_SHARED is set")
    pytest.skip(f"{problem}; set SNOWBALL_REQUIRE_SHARED=1 to make this a failure")
