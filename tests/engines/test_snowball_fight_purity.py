"""Rule engines stay pure Python: no module under games/engines imports Django or the site."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "games" / "engines"
MODULES = sorted(ENGINES.rglob("*.py"))
FORBIDDEN = ("django", "channels", "daphne", "redis", "snowball_site")


def imported_modules(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_modules_are_found():
    assert ENGINES / "snowball_fight" / "engine.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINES)) for p in MODULES])
def test_engine_module_imports_nothing_from_django_or_the_site(path):
    bad = [name for name in imported_modules(path)
           if name.split(".")[0] in FORBIDDEN
           or (name.startswith("games.") and not name.startswith("games.engines"))]
    assert bad == [], f"{path.relative_to(ENGINES)} imports {', '.join(bad)}"
