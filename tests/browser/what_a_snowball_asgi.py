"""The site with What a Snowball! registered, for the browser test's server only.

The engine is not in games/engines/__init__.py yet, and the new-game form does not yet know
options of kind "roster"; this entry point adds both exactly as the wiring will (the
registry's ``register`` and ``RosterField`` for a roster option), so the test drives the
real pages.
"""
from __future__ import annotations

from snowball_site.asgi import application  # noqa: F401, I001  (sets Django up first)

from games import engines, forms  # noqa: E402
from games.engines.what_a_snowball import RULESET  # noqa: E402
from games.roster_field import RosterField  # noqa: E402

engines.all_rulesets()
engines.register(RULESET)

_plain_option_field = forms._option_field


def _option_field(option):
    if option.kind == "roster":
        return RosterField(label=option.label, help_text=option.help)
    return _plain_option_field(option)


forms._option_field = _option_field
