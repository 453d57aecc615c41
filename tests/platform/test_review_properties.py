"""Property: the review of any random finished game, at every step and from every seat's eyes
and a spectator's, is the view the engine gave at that version.

Each example plays a small table of one game to its end through the services (one player
choosing random legal moves, or resigning, the others computer players), recording the views
the live path served after each move; the review is then compared, step by step, with the
engine's own replay of seed + log and with those recorded views."""
from __future__ import annotations

import json
import random
import uuid

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from tests.depth import examples

from games import engines, selectors, services
from games.engines.base import GameError
from games.models import ActionRecord, Game
from games.selectors import review, seat_names
from games.selectors.snapshots import named_outcome, settled_view
from games.services.play import game_arguments, resigned_state

pytestmark = pytest.mark.django_db

SLUGS = [r.slug for r in engines.all_rulesets()]
GAMES = settings(max_examples=examples(3), deadline=None, database=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _play(game: Game, user, rnd: random.Random, resign_after: int | None) -> dict[int, dict]:
    """Play seat 0 to the end; the views served at each version the players saw, per viewer."""
    seen: dict[int, dict] = {}
    for moves in range(3000):
        game = selectors.get_game(game.pk)
        seen[game.version] = {seat: selectors.viewer_payload(game, seat)["view"]
                              for seat in [None, *range(game.num_seats)]}
        if game.status != Game.Status.ACTIVE:
            break
        if resign_after is not None and moves >= resign_after:
            services.resign(game_id=game.pk, user=user)
            continue
        ruleset = engines.get(game.game_type)
        state = selectors.game_state(game)
        if 0 not in ruleset.to_act(state):
            break
        legal = ruleset.legal_actions(state, 0)
        choices = [a for a in legal if rnd.random() < 0.5] or [ruleset.bot_action(state, 0)]
        for action in (rnd.choice(choices), ruleset.bot_action(state, 0)):
            try:
                services.submit_action(game_id=game.pk, user=user, action=action, action_id=uuid.uuid4().hex,
                                       version=game.version)
                break
            except GameError:
                continue
    return seen


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("game_type", SLUGS)
@GAMES
@given(data=st.data())
def test_the_review_of_a_random_finished_game_is_the_engines_view_at_every_step(make_user, game_type, data):
    ruleset = engines.get(game_type)
    seats = data.draw(st.integers(ruleset.min_players, min(ruleset.max_players, ruleset.min_players + 1)), "seats")
    rnd = random.Random(data.draw(st.integers(0, 2**32), "choices"))
    resign_after = data.draw(st.integers(0, 30) | st.none(), "resign after")
    ana = make_user()
    game = services.create_game(creator=ana, game_type=game_type, num_seats=seats)
    for _ in range(seats - 1):
        services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    seen = _play(game, ana, rnd, resign_after)
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED

    records = list(ActionRecord.objects.filter(game=game).order_by("seq"))
    state = ruleset.new_game(**game_arguments(game))
    first = review.review_data(game, step=0, seat=None)
    assert first["steps"] == len(records) + 1
    checked_live = 0
    for step in range(len(records) + 1):
        if step:
            record = records[step - 1]
            if record.source == ActionRecord.Source.RESIGN:
                if record.action["type"] != "handover":
                    state = resigned_state(ruleset, state, record.seat)[0]
            else:
                state = ruleset.apply(state, record.seat, record.action)[0]
        for seat in [None, *range(seats)]:
            shown = review.review_data(game, step=step, seat=seat)
            expected = ruleset.view(state, seat)
            if step == len(records):  # the finished game's view, as its page shows it
                expected = settled_view(expected, outcome=named_outcome(game.outcome, seat_names(game)))
            assert shown["view"] == expected, (step, seat)
            version = shown["version"]
            if version in seen:
                assert _same(shown["view"], seen[version][seat]), (step, version, seat)
                checked_live += 1
    assert checked_live >= seats + 1  # at least the final version was served live
    assert _same(state, game.state)
    assert review.verify(game)["match"] is True
