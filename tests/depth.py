"""How many examples a property test tries.

``make test`` tries each property on a quarter of its full count (at least one example), so the
whole suite fits its time; ``make test-full-games`` sets ``SNOWBALL_TEST_DEPTH=1`` and tries the
full counts written in the tests, and a longer soak sets more (``SNOWBALL_TEST_DEPTH=10``).
"""
from __future__ import annotations

import os

DEPTH = float(os.environ.get("SNOWBALL_TEST_DEPTH", "0.25"))


def examples(full: int) -> int:
    """The number of examples to try of a property whose full count is ``full``."""
    return max(1, round(full * DEPTH))
