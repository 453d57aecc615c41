"""A move on a game this process holds (its sockets read it, or its last move was made here) is
computed on the row and state held and written guarded on the row's version, without reading
the row first: one statement on PostgreSQL. Whatever the held row no longer says (another
writer moved the game on, the action was sent before, the API token was revoked) the move is
made on the row read under its lock instead, as if nothing had been held."""
from __future__ import annotations

import orjson
import pytest
from django.db import connection

from games import engines, selectors, services, statements
from games.errors import StaleVersion, TokenRevoked
from games.models import ActionRecord, ApiToken, Game, Rating, RatingChange
from games.services import play, ratings
from games.services.locking import held_write
from games.state_cache import STATE_CACHE
from tests.platform.helpers import play_to_end, started_game

# outside a test's transaction, as a server runs a move: PostgreSQL's held write is then one statement
pytestmark = pytest.mark.django_db(transaction=True)


def _held(game: Game) -> selectors.GameSnapshot:
    """What a socket of this process leaves: the game's snapshot and state, at its version."""
    snap = selectors.snapshot(game.pk)
    assert STATE_CACHE.get(game.pk, snap.version) is not None
    return snap


def _choice(game_id: int, seat: int) -> dict:
    game = Game.objects.get(pk=game_id)
    ruleset = engines.get(game.game_type)
    return ruleset.bot_action(selectors.game_state(game), seat)


@pytest.fixture
def no_row_reads(monkeypatch):
    """Fail any move that reads the game's row under its lock."""
    def refuse(*args, **kwargs):
        raise AssertionError("the move read the game's row")
    monkeypatch.setattr(statements, "read_game", refuse)


@pytest.fixture
def table(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    _held(game)
    return game, ana, ben


def test_a_move_on_a_held_game_is_written_without_reading_its_row(table, no_row_reads):
    game, ana, ben = table
    first = services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a1",
                                   version=game.version)
    second = services.submit_action(game_id=game.pk, user=ben, action=_choice(game.pk, 1), action_id="b1",
                                    version=first.version)
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == second.version > first.version > game.version
    assert list(ActionRecord.objects.filter(game=game).order_by("-seq").values_list("action_id", flat=True)[:2]) \
        == ["b1", "a1"]
    assert stored.log_length == ActionRecord.objects.filter(game=game).count()
    assert selectors.SNAPSHOTS.get(game.pk).version == stored.version  # the next move holds it too


def _ended_and_rated_once(game: Game, ana, ben) -> None:
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == Game.Status.FINISHED and stored.outcome["winners"]
    assert stored.log_length == ActionRecord.objects.filter(game=game).count()
    assert sorted(RatingChange.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1]
    assert [Rating.objects.get(user=user, game_type=game.game_type).games for user in (ana, ben)] == [1, 1]


def test_the_move_that_ends_a_held_game_is_written_without_reading_its_row_and_rated_with_it(table, no_row_reads):
    game, ana, ben = table
    play_to_end(game.pk, {0: ana, 1: ben})
    _ended_and_rated_once(game, ana, ben)
    assert selectors.SNAPSHOTS.get(game.pk).game.status == Game.Status.FINISHED


def test_an_ending_move_whose_transaction_fails_writes_nothing_and_is_made_again_on_the_row_read(table, monkeypatch):
    """The rating is part of the ending move's transaction on the held row: when that
    transaction fails before its commit, neither the move nor the game's end was written, and
    the move is made again on the row read under its lock, once."""
    game, ana, ben = table
    real, tries = ratings.rate_when_finished, []

    def fails_the_first_time(*, game):
        tries.append(game.pk)
        if len(tries) == 1:
            raise RuntimeError("the process failed between the move's write and its commit")
        real(game=game)

    monkeypatch.setattr(ratings, "rate_when_finished", fails_the_first_time)
    play_to_end(game.pk, {0: ana, 1: ben})
    assert len(tries) == 2
    _ended_and_rated_once(game, ana, ben)


def test_a_move_after_another_writer_moved_the_game_on_keeps_that_writers_change(table):
    """Another worker marks Ben away (the row's prompts and version change, no log entry): Ana's
    move, computed on the row held before, is made again on the row read, and the mark stays."""
    game, ana, ben = table
    stored, choice = Game.objects.get(pk=game.pk), _choice(game.pk, 0)
    Game.objects.filter(pk=game.pk).update(prompts={**stored.prompts, "away": {"1": 12345.0}},
                                           version=stored.version + 1)
    result = services.submit_action(game_id=game.pk, user=ana, action=choice, action_id="a1",
                                    version=stored.version)  # sent before the mark's broadcast reached her
    after = Game.objects.get(pk=game.pk)
    assert after.version == result.version == stored.version + 2
    assert after.prompts["away"] == {"1": 12345.0}
    assert ActionRecord.objects.filter(game=game, action_id="a1").count() == 1
    assert after.log_length == ActionRecord.objects.filter(game=game).count()


def test_a_resent_action_is_answered_as_a_duplicate_and_logged_once(table, no_row_reads, monkeypatch):
    game, ana, ben = table
    action = _choice(game.pk, 0)
    first = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="a1", version=game.version)
    monkeypatch.undo()  # the resend is answered from the row read: its log says it was made
    _held(Game.objects.get(pk=game.pk))
    again = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="a1", version=game.version)
    assert again.duplicate and again.version == first.version
    assert ActionRecord.objects.filter(game=game, action_id="a1").count() == 1
    assert Game.objects.get(pk=game.pk).version == first.version


def _next_entry(game: Game, action_id: str) -> tuple[Game, ActionRecord]:
    moved = Game.objects.get(pk=game.pk)
    moved.version += 1
    moved.log_length += 1
    record = ActionRecord(game=moved, seq=moved.log_length, seat=0, action={"type": "x"}, action_id=action_id,
                          source=ActionRecord.Source.PLAYER, events=[], version=moved.version)
    return moved, record


@pytest.mark.parametrize("case", ["resent action id", "row moved on", "token revoked"])
def test_a_held_write_the_row_refuses_writes_nothing(table, case):
    """The write itself, whatever the move computed: an action id the seat already logged (a
    resend the held row could not tell), a row no longer at the held version, a revoked token:
    ``ConcurrentWrite``, and neither the row nor the log changed (on PostgreSQL the log's
    insert is in the same statement as the row's guarded update)."""
    game, ana, ben = table
    services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a1",
                           version=game.version)
    before = Game.objects.get(pk=game.pk)
    entries = ActionRecord.objects.filter(game=game).count()
    moved, record = _next_entry(before, "a1" if case == "resent action id" else "a2")
    token, _key = ApiToken.issue(user=ana, name="bot")
    token_id = token.pk
    if case == "token revoked":
        token.delete()
    with pytest.raises(statements.ConcurrentWrite), held_write():
        statements.write_held_move(moved, [record], ["log_length", "version"], token_id=token_id,
                                   held_version=before.version - (1 if case == "row moved on" else 0))
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.log_length) == (before.version, before.log_length)
    assert ActionRecord.objects.filter(game=game).count() == entries


def test_a_held_write_the_row_takes_writes_the_row_and_its_entries(table):
    game, ana, ben = table
    before = Game.objects.get(pk=game.pk)
    moved, record = _next_entry(before, "a9")
    token, _key = ApiToken.issue(user=ana, name="bot")
    with held_write():
        statements.write_held_move(moved, [record], ["log_length", "version"], held_version=before.version,
                                   token_id=token.pk)
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.log_length) == (before.version + 1, before.log_length + 1)
    stored = ActionRecord.objects.get(game=game, action_id="a9")
    assert (stored.seq, stored.seat, stored.action, stored.source) == (record.seq, 0, {"type": "x"}, "player")


def test_a_revoked_token_moves_nothing_on_a_held_game(table):
    game, ana, ben = table
    token, _key = ApiToken.issue(user=ana, name="bot")
    token_id = token.pk
    token.delete()
    with pytest.raises(TokenRevoked):
        services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a1",
                               version=game.version, token_id=token_id)
    assert Game.objects.get(pk=game.pk).version == game.version
    assert not ActionRecord.objects.filter(game=game, action_id="a1").exists()


def test_a_stale_move_on_a_held_game_is_refused_as_stale(table):
    game, ana, ben = table
    services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a1",
                           version=game.version)
    moved = services.submit_action(game_id=game.pk, user=ben, action=_choice(game.pk, 1), action_id="b1",
                                   version=Game.objects.get(pk=game.pk).version)
    with pytest.raises(StaleVersion):
        services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a2",
                               version=game.version)
    assert Game.objects.get(pk=game.pk).version == moved.version


def test_a_failure_after_a_held_write_neither_loses_nor_repeats_the_move(table, monkeypatch):
    """What follows a held write failing (its broadcast's hand-off, say) comes after the commit,
    on SQLite as on PostgreSQL: the move stands, answered once as made, not again as a duplicate."""
    game, ana, ben = table

    def fails(write):
        raise RuntimeError("what follows the commit failed")

    monkeypatch.setattr(play, "_after_commit", fails)
    result = services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a1",
                                    version=game.version)
    stored = Game.objects.get(pk=game.pk)
    assert ActionRecord.objects.filter(game=game, action_id="a1").count() == 1
    assert (stored.version, result.duplicate) == (result.version, False)
    assert result.version == game.version + 1


def test_a_failed_statement_in_a_held_write_leaves_no_transaction_open(table):
    """A held write that fails is rolled back whole, and the connection is left as it was:
    the next move on it is written."""
    game, ana, ben = table
    before = Game.objects.get(pk=game.pk)
    moved, record = _next_entry(before, "a7")
    with pytest.raises(statements.ConcurrentWrite), held_write():
        statements.write_held_move(moved, [record], ["log_length", "version"], held_version=before.version - 1)
    assert not connection.in_atomic_block
    assert connection.vendor != "sqlite" or not connection.connection.in_transaction
    result = services.submit_action(game_id=game.pk, user=ana, action=_choice(game.pk, 0), action_id="a8",
                                    version=game.version)
    assert Game.objects.get(pk=game.pk).version == result.version == before.version + 1
    assert not ActionRecord.objects.filter(game=game, action_id="a7").exists()


def test_a_move_by_the_day_or_a_malformed_frame_is_not_made_where_it_cannot_wait(table):
    """``submit_held_action`` (the event loop's) leaves to a database thread a move by the day,
    which mails the players it asks, and a malformed frame, whose answer reads the token:
    nothing is written."""
    game, ana, _ = table
    choice = _choice(game.pk, 0)
    assert services.submit_held_action(game_id=game.pk, user=ana, action=choice, action_id="",
                                       version=game.version) is None
    Game.objects.filter(pk=game.pk).update(pace=Game.Pace.DAILY)
    selectors.forget_game(game.pk)
    _held(Game.objects.get(pk=game.pk))
    assert services.submit_held_action(game_id=game.pk, user=ana, action=choice, action_id="a1",
                                       version=game.version) is None
    assert not ActionRecord.objects.filter(game=game).exclude(action_id="").filter(action_id="a1").exists()
    Game.objects.filter(pk=game.pk).update(pace=Game.Pace.LIVE)
    selectors.forget_game(game.pk)
    _held(Game.objects.get(pk=game.pk))
    made = services.submit_held_action(game_id=game.pk, user=ana, action=choice, action_id="a1",
                                       version=game.version)
    assert made is not None and ActionRecord.objects.filter(game=game, action_id="a1").count() == 1


@pytest.mark.parametrize("page, lines", [(3, 30), (12, 4)])  # read in many pages, then in one
def test_each_viewers_log_after_moves_made_here_is_the_log_a_fresh_reader_gets(table, monkeypatch, page, lines):
    """A seat's log lines are carried from one version to the next in this process (the
    private lines of its own draws included); they must be exactly what a socket that reads the
    game afresh is shown, as the log's window of records moves past them."""
    monkeypatch.setattr(selectors.snapshots, "LOG_PAGE", page)
    monkeypatch.setattr(selectors.snapshots, "LOG_LENGTH", lines)
    game, ana, ben = table
    users = {0: ana, 1: ben}
    seen_private = 0
    for move in range(60):
        stored = Game.objects.get(pk=game.pk)
        if stored.status != Game.Status.ACTIVE:
            break
        snap = selectors.SNAPSHOTS.get(game.pk)
        assert snap is not None and snap.version == stored.version  # carried from the last move, not read
        afresh = selectors.snapshots.read_log(game.pk, snap.names)
        for seat in (0, 1, None):
            assert orjson.loads(snap.log_json(seat)) == selectors.game_log(afresh, seat, lines), (move, seat)
        seen_private += not snap.log_is_public
        seat = min(engines.get(stored.game_type).to_act(selectors.game_state(stored)))
        services.submit_action(game_id=game.pk, user=users[seat], action=_choice(game.pk, seat),
                               action_id=f"m{move}", version=stored.version)
    assert move > 10 and seen_private > 5
