"""The JSON socket's view frame is the viewer's payload, as the HTTP API gives it, with its type:
the same keys and values for every viewer at every version, whichever of the two this process
built first, and the log lines each viewer may read (a player's own draws, not another's)."""
from __future__ import annotations

import random
import uuid

import orjson
import pytest

from games import engines, selectors, services
from games.models import Game
from games.selectors import snapshots
from tests.platform.test_pace import _table

pytestmark = pytest.mark.django_db


def _forget_views() -> None:
    snapshots.PAYLOADS.clear()


@pytest.mark.parametrize("frame_first", [True, False], ids=["frame-first", "payload-first"])
def test_every_viewers_frame_is_its_payload(make_user, frame_first):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fight")
    ruleset = engines.get(game.game_type)
    rng = random.Random(7)
    users = {0: ana, 1: ben}
    private_lines_seen = False
    for _ in range(40):
        game = Game.objects.get(pk=game.pk)
        snap = selectors.snapshot(game.pk, version=game.version)
        _forget_views()
        for seat in (0, 1, None):
            if frame_first:
                frame = orjson.loads(selectors.view_frame(snap, seat))
                payload = selectors.payload_for(snap, seat)
            else:
                payload = selectors.payload_for(snap, seat)
                frame = orjson.loads(selectors.view_frame(snap, seat))
            assert frame == {"type": "view", **payload}, f"seat {seat} at version {snap.version}"
        logs = {seat: [line["text"] for line in selectors.payload_for(snap, seat)["log"]] for seat in (0, 1, None)}
        private_lines_seen |= set(logs[0]) != set(logs[1]) or set(logs[0]) != set(logs[None])
        if game.status != Game.Status.ACTIVE:
            break
        state = selectors.game_state(game)
        seat = rng.choice(sorted(ruleset.to_act(state)))
        action = rng.choice(ruleset.legal_actions(state, seat))
        services.submit_action(game_id=game.pk, user=users[seat], action=action, action_id=uuid.uuid4().hex,
                               version=selectors.viewer_version(game, seat))
    assert private_lines_seen, "no version showed the players different log lines: the test saw no hidden line"


def test_a_game_without_a_state_shows_no_log(make_user):
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type="snowball-fight", num_seats=2)
    snap = selectors.snapshot(game.pk)
    _forget_views()
    frame = orjson.loads(selectors.view_frame(snap, 0))
    assert frame["log"] == [] and frame == {"type": "view", **selectors.payload_for(snap, 0)}
