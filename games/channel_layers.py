"""Channel layer tweaks for the single-process mode."""
from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class InMemoryLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, with its expiry sweep run at most once a second.

    ``InMemoryChannelLayer._clean_expired`` walks every channel and every group membership
    on each ``send``, ``receive`` and ``group_send``: with N sockets connected every message
    costs O(N). Expiry (of messages after ``expiry`` seconds, of memberships after
    ``group_expiry``) only needs noticing eventually; sweeping once a second keeps it within
    a second of its limits.
    """

    sweep_interval = 1.0
    _last_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()
