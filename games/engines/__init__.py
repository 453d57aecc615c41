"""Registry of rule engines: one slug, one ruleset. Nothing here imports Django."""
from __future__ import annotations

from games.engines.base import Ruleset, shown

_REGISTRY: dict[str, Ruleset] = {}
_BUILTIN_LOADED = False


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.slug] = ruleset
    return ruleset


def get(slug: str) -> Ruleset:
    """The ruleset for ``slug``; KeyError names the unknown slug."""
    _load_builtin()
    try:
        return _REGISTRY[slug]
    except KeyError:
        raise KeyError(f"no game called {shown(slug)}; known games: {', '.join(sorted(_REGISTRY))}") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[slug] for slug in sorted(_REGISTRY)]


def _load_builtin() -> None:
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    from games.engines import jingle_bells, snowball_fight, snowball_fighting, what_a_snowball

    register(snowball_fight.RULESET)
    register(jingle_bells.RULESET)
    register(snowball_fighting.RULESET)
    register(what_a_snowball.RULESET)
    _BUILTIN_LOADED = True
