"""The site as daphne serves it, in a worker that dies the moment its first move has
committed, before it broadcasts (for tests/live/test_unannounced_commit.py)."""
from __future__ import annotations

import os

from snowball_site.asgi import application  # noqa: F401  (what daphne serves; sets Django up)

from games.services import broadcast  # noqa: E402


def _die_before_broadcasting(**kwargs) -> None:
    os._exit(9)


broadcast.broadcast_version = _die_before_broadcasting
