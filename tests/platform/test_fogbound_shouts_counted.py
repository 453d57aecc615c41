"""A Fogbound shout is counted by those who hear it: one that nobody hears moves no one's
version but its shouter's, one that some hear moves theirs and its shouter's alone (so nobody
can count shouts they did not hear), and a seat that is ready, asked nothing, may shout again
from the view it has."""
from __future__ import annotations

import random
import uuid

import pytest

from games import engines, selectors, services
from games.engines.snowball_fighting.fog import SHOUT_RANGE, eye
from games.engines.snowball_fighting.garden import MAPS
from games.selectors import review
from tests.platform.test_fogbound_privacy import SLUG, _shouting_position, _start

pytestmark = pytest.mark.django_db(transaction=True)

GARDEN = MAPS["fogbound"]


def _orders_with_a_lonely_seat(make_user) -> tuple[int, dict, int]:
    """A Fogbound game writing orders (turn 2 or later) with a seat that has nobody within a
    shout's range and is asked, with another seat, for its orders; and that seat."""
    ruleset = engines.get(SLUG)
    for seed in range(1, 40):
        game_id, users = _start(make_user, seed, False)
        rng = random.Random(seed)
        for _ in range(150):
            state = selectors.game_state(selectors.get_game(game_id))
            if ruleset.outcome(state) is not None:
                break
            asked = ruleset.to_act(state)
            if state["phase"] == "orders" and state["turn"] >= 2 and len(asked) >= 2:
                where = {x: eye(state, x) for x in range(state["players"])}
                for x, here in where.items():
                    if x in asked and here is not None and all(there is None or GARDEN.distance(here, there) > SHOUT_RANGE
                                                for y, there in where.items() if y != x):
                        return game_id, users, x
            seat = rng.choice(sorted(asked))
            services.submit_action(game_id=game_id, user=users[seat], action=ruleset.bot_action(state, seat),
                                   action_id=uuid.uuid4().hex, version=selectors.viewer_version(
                                       selectors.get_game(game_id), seat))
    raise AssertionError("no Fogbound position with a seat out of everyone's shout range")


def _versions(game_id: int) -> dict[int | None, int]:
    game = selectors.get_game(game_id)
    return {seat: selectors.viewer_version(game, seat) for seat in (*range(game.num_seats), None)}


def _shout(game_id: int, user, text: str, version: int) -> int:
    return services.submit_action(game_id=game_id, user=user, action={"type": "shout", "text": text},
                                  action_id=uuid.uuid4().hex, version=version).version


def test_a_shout_nobody_hears_moves_only_its_shouters_version(make_user):
    game_id, users, lonely = _orders_with_a_lonely_seat(make_user)
    before = _versions(game_id)
    assert _shout(game_id, users[lonely], "Anyone there?", before[lonely]) == before[lonely] + 1
    after = _versions(game_id)
    assert after == {**before, lonely: before[lonely] + 1}, "a shout nobody heard moved another viewer's version"


def test_a_heard_shout_moves_its_hearers_versions_alone_and_the_log_replays_what_was_told(make_user):
    game_id, users, _, _, shouter, near, far = _shouting_position.func(make_user, 5)
    before = _versions(game_id)
    told = _shout(game_id, users[shouter], "Over here!", before[shouter])
    after = _versions(game_id)
    assert after == {**before, **{seat: before[seat] + 1 for seat in (shouter, *near)}}, \
        f"only the shouter {shouter} and its hearers {near} count the shout; not {far} nor spectators"
    game = selectors.get_game(game_id)
    assert review.versions_told(game)[game.log_length] == told == after[shouter]


def test_a_ready_seat_may_shout_twice_from_the_same_view(make_user):
    game_id, users, seat = _orders_with_a_lonely_seat(make_user)
    game = selectors.get_game(game_id)
    services.submit_action(game_id=game_id, user=users[seat], action={"type": "orders", "segments": [{"type": "stand"}, None, None]},
                           action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, seat))
    game = selectors.get_game(game_id)
    services.submit_action(game_id=game_id, user=users[seat], action={"type": "ready"},
                           action_id=uuid.uuid4().hex, version=selectors.viewer_version(game, seat))
    seen = selectors.viewer_version(selectors.get_game(game_id), seat)
    assert seat not in engines.get(SLUG).to_act(selectors.game_state(selectors.get_game(game_id)))
    first = _shout(game_id, users[seat], "one", seen)
    second = _shout(game_id, users[seat], "two", seen)
    assert second == first + 1
