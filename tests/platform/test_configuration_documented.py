"""Every environment variable the server reads is in the README's configuration table."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTING = re.compile(r"""(?:environ\.get|environ\[|getenv|_env_bool)\(?\s*["']((?:SNOWBALL|DJANGO|EMAIL|DATABASE|REDIS|DEFAULT)_[A-Z0-9_]+)["']""")


def _read_by_the_server() -> set[str]:
    names: set[str] = set()
    for folder in ("snowball_site", "games"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(SETTING.findall(path.read_text()))
    return names


def _documented() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration"):]
    table = table[:table.index("\n## ", 1)]
    return set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))


def test_every_setting_the_server_reads_is_documented():
    read = _read_by_the_server()
    assert {"DATABASE_URL", "SNOWBALL_GAME_LOCK_IN_REDIS", "EMAIL_USE_TLS"} <= read  # the scan finds them
    assert sorted(read - _documented()) == []
