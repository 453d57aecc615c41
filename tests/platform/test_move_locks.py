"""Where a move waits for its game: this process's lock, the database's ordering of writers,
and the socket's API token checked in the move's own read."""
from __future__ import annotations

import logging
import threading

import pytest

from games import services, statements
from games.coordinator import RedisCoordinator, get_coordinator
from games.errors import Busy, TokenRevoked
from games.models import ActionRecord, ApiToken, Game
from games.services import locking
from games.services.reveal import Arrival, tell_the_barrier
from tests.platform.helpers import started_game
from tests.platform.test_move_path import _asked

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_with_a_revoked_token_is_refused_and_changes_nothing(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    token, _ = ApiToken.issue(user=ana, name="bot")
    token_id = token.pk
    live = services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="a", version=game.version,
                                  token_id=token_id)
    assert live.version == game.version + 1
    token.delete()
    for action, action_id in ((_asked(Game.objects.get(pk=game.pk)).get(0, moves[0]), "b"), ({"no": "type"}, "c")):
        with pytest.raises(TokenRevoked):
            services.submit_action(game_id=game.pk, user=ana, action=action, action_id=action_id,
                                   version=live.version, token_id=token_id)
    assert Game.objects.get(pk=game.pk).version == live.version
    assert list(ActionRecord.objects.filter(game=game, source="player").values_list("action_id", flat=True)) == ["a"]


def test_a_reveal_told_before_an_earlier_lock_of_its_round_is_not_taken_for_two_writers(caplog):
    """Two workers commit a round's locks in order but tell the barrier in the other order:
    the reveal first, then the lock before it. Neither is an error."""
    coordinator = get_coordinator()
    expected = frozenset({0, 1})
    with caplog.at_level(logging.INFO, logger="games.services.reveal"):
        tell_the_barrier(4242, [Arrival(key="sealed-7", seat=1, expected=expected, revealed=True)])
        tell_the_barrier(4242, [Arrival(key="sealed-7", seat=0, expected=expected, revealed=False)])
    told = [r for r in caplog.records if r.name == "games.services.reveal"]
    assert [r.levelno for r in told] == [logging.INFO]
    assert coordinator.barrier_state(4242, "sealed-7") == expected
    coordinator.barrier_clear(4242, "sealed-7")


@pytest.mark.redis
def test_a_move_takes_no_lock_in_redis_unless_told_to(make_user, site_backend, settings, monkeypatch):
    if site_backend != "redis":
        pytest.skip("the lock in Redis is the Redis coordinator's")
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    coordinator = get_coordinator()
    assert isinstance(coordinator, RedisCoordinator)
    taken: list[int] = []
    redis_lock = coordinator.lock

    def lock(game_id, **kwargs):
        taken.append(game_id)
        return redis_lock(game_id, **kwargs)

    monkeypatch.setattr(coordinator, "lock", lock)
    first = services.submit_action(game_id=game.pk, user=ana, action=moves[0], action_id="a", version=game.version)
    assert taken == []
    settings.SNOWBALL_GAME_LOCK_IN_REDIS = True
    services.submit_action(game_id=game.pk, user=ben, action=moves[1], action_id="b", version=game.version)
    assert taken == [game.pk]
    assert Game.objects.get(pk=game.pk).version > first.version


def test_two_workers_moving_one_game_at_once_never_write_over_each_other(make_user, monkeypatch):
    """No lock shared between them (each worker has its own): the database orders the two
    writes, and a move read before the other's commit is refused whole (busy), never stored
    on top of it. Both players' moves end up logged once each, in one unbroken log."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    moves = _asked(game)
    monkeypatch.setattr(locking, "game_lock", lambda game_id: _NoLock())
    monkeypatch.setattr(locking, "sqlite_writer", _NoLock)
    both_read = threading.Barrier(2, timeout=5)
    read = statements.read_game

    def read_then_wait(*args, **kwargs):
        row = read(*args, **kwargs)
        try:
            both_read.wait()
        except threading.BrokenBarrierError:
            pass  # PostgreSQL held the second reader at its row lock until the first committed
        return row

    monkeypatch.setattr(statements, "read_game", read_then_wait)
    answers: dict[str, object] = {}

    def play(user, seat, action_id):
        from django.db import connections

        try:
            answers[action_id] = services.submit_action(game_id=game.pk, user=user, action=moves[seat],
                                                        action_id=action_id, version=game.version)
        except Exception as exc:
            answers[action_id] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(ana, 0, "a")), threading.Thread(target=play, args=(ben, 1, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    monkeypatch.setattr(statements, "read_game", read)
    refused = [action_id for action_id, answer in answers.items() if isinstance(answer, Exception)]
    assert all(isinstance(answers[action_id], Busy) for action_id in refused), answers
    for action_id in refused:  # the client sends it again with the same action_id
        seat = 0 if action_id == "a" else 1
        services.submit_action(game_id=game.pk, user=(ana, ben)[seat], action=moves[seat], action_id=action_id,
                               version=game.version)
    stored = Game.objects.get(pk=game.pk)
    log = list(ActionRecord.objects.filter(game=game).order_by("seq").values_list("seq", "source", "action_id"))
    assert [seq for seq, _, _ in log] == list(range(1, stored.log_length + 1))
    assert sorted(action_id for _, source, action_id in log if source == "player") == ["a", "b"]


class _NoLock:
    def __enter__(self):
        return None

    def __exit__(self, *exc_info):
        return False
