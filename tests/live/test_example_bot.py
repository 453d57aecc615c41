"""The bot docs/api.md offers as a complete client plays each game to its end against a computer
player on a real server, within the socket's limits."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.live.conftest import ROOT

MAKE_TOKEN = """
from django.contrib.auth import get_user_model
from games.models import ApiToken
user = get_user_model().objects.create_user("example-bot-{slug}", password="x")
print(ApiToken.issue(user=user, name="example")[1])
"""


@pytest.mark.parametrize("slug", ["snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball"])
def test_the_example_bot_plays_a_game_to_the_end(live_server_proc, slug):
    key = next(w for w in live_server_proc.manage("shell", "-c", MAKE_TOKEN.format(slug=slug)).split()
               if w.startswith("sb_"))
    run = subprocess.run([sys.executable, "docs/examples/random_bot.py", "--url", live_server_proc.url,
                          "--token", key, "--create", "--vs-computer", "--game", slug, "--seed", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "game over:" in run.stdout
    assert "error:" not in run.stdout, run.stdout[-2000:]
