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


MAKE_TWO_TOKENS = """
from django.contrib.auth import get_user_model
from games.models import ApiToken
for name in ("ana", "ben"):
    user = get_user_model().objects.create_user(f"example-bot-{name}", password="x")
    print(ApiToken.issue(user=user, name="example")[1])
"""


def test_two_example_bots_play_each_other_to_the_end_without_a_refusal(live_server_proc):
    """Each decides only on a view at least as new as its own last action (docs/api.md): a view of
    the other's move that crossed its action in flight is not answered again."""
    keys = [w for w in live_server_proc.manage("shell", "-c", MAKE_TWO_TOKENS).split() if w.startswith("sb_")]
    bot = [sys.executable, "docs/examples/random_bot.py", "--url", live_server_proc.url]
    creator = subprocess.Popen(bot + ["--token", keys[0], "--create", "--game", "snowball-fight", "--seed", "5"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = creator.stdout.readline()
        game_id = first.split()[2].rstrip(";")
        joiner = subprocess.run(bot + ["--token", keys[1], "--join", game_id, "--seed", "6"],
                                cwd=ROOT, capture_output=True, text=True, timeout=300)
        out, err = creator.communicate(timeout=60)
    finally:
        creator.kill()
    assert creator.returncode == 0 and joiner.returncode == 0, (err + joiner.stderr)[-2000:]
    for said in (first + out, joiner.stdout):
        assert "game over:" in said
        assert "error:" not in said, said[-2000:]
