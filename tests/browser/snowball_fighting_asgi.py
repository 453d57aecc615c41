"""The site's ASGI application with Snowball Fighting registered, for the browser test's server.

The engine is not in the built-in registry yet; the test's daphne child imports this module
instead of ``snowball_site.asgi`` so that only that server knows the game.
"""
from __future__ import annotations

from games import engines
from games.engines import snowball_fighting

engines.all_rulesets()  # the built-in games first: the registry loads them only while empty
engines.register(snowball_fighting.RULESET)

from snowball_site.asgi import application  # noqa: E402

__all__ = ["application"]
