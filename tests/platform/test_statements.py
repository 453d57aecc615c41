"""The move's read and guarded write: what they store, and a write from an overtaken read failing whole."""
from __future__ import annotations

from datetime import timezone
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connections, transaction
from django.db.models import JSONField
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import statements
from games.models import ActionRecord, Game
from tests.depth import examples
from tests.platform.helpers import started_game

pytestmark = pytest.mark.django_db

def test_the_read_says_whether_this_users_seat_logged_the_action(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    record = ActionRecord(game=game, seq=game.log_length + 1, seat=0, action={"type": "x"}, action_id="1",
                          source=ActionRecord.Source.PLAYER, events=[], version=game.version + 1)
    game.log_length += 1
    statements.write_move(game, [record], ["log_length"])
    with transaction.atomic():
        assert statements.read_game(game.pk, action_id="1", user=ana).logged_already is True
        assert statements.read_game(game.pk, action_id="1", user=ben).logged_already is False
        assert statements.read_game(game.pk, action_id="2", user=ana).logged_already is False


def test_the_read_of_a_missing_game_is_none(db):
    with transaction.atomic():
        assert statements.read_game(987654, action_id="x") is None
        assert statements.read_game(987654) is None


def test_a_log_entry_built_in_the_fields_order_is_the_one_keywords_build(make_user):
    """``ActionRecord.logged`` (a move's entries) gives every column the value the keyword
    constructor gives it: a field added, removed or moved in the model shows here."""
    game = started_game(make_user("Ana"), make_user("Ben"))
    values = dict(seq=7, seat=1, action={"type": "play", "card": "snowball"}, action_id="a-7",
                  source=ActionRecord.Source.BOT, events=[{"type": "x", "text": "t"}], version=9)
    quick, usual = ActionRecord.logged(game=game, **values), ActionRecord(game=game, **values)
    assert [(f.attname, getattr(quick, f.attname)) for f in ActionRecord._meta.concrete_fields] == [
        (f.attname, getattr(usual, f.attname)) for f in ActionRecord._meta.concrete_fields]
    assert quick._state.adding and quick.game_id == game.pk


@pytest.mark.parametrize("count", [1, 3, statements.INSERT_ROWS_AT_MOST, 2 * statements.INSERT_ROWS_AT_MOST + 1])
def test_inserted_actions_read_back_as_written(make_user, count):
    """One entry (a player's move) or many (computer players answering after it), past what
    one statement takes: every entry stored once, in order."""
    game = started_game(make_user("Ana"), make_user("Ben"))
    action = {"type": "choose", "card": "snowball", "nested": [1, {"ü": None}]}
    events = [{"type": "locked", "text": "Ana has chosen", "visible_to": [0]}]
    first = game.log_length + 1
    records = [ActionRecord(game=game, seq=first + i, seat=i % 2, action={**action, "i": i}, action_id=f"a-{i}",
                            source=ActionRecord.Source.BOT, events=events, version=123 + i) for i in range(count)]
    game.log_length += count
    statements.write_move(game, records, ["log_length"])
    stored = list(ActionRecord.objects.filter(game=game, seq__gte=first).order_by("seq"))
    assert [(r.seq, r.seat, r.action, r.action_id, r.source, r.events, r.version) for r in stored] == [
        (first + i, i % 2, {**action, "i": i}, f"a-{i}", "bot", events, 123 + i) for i in range(count)]
    assert all(r.created_at is not None for r in stored)
    assert Game.objects.get(pk=game.pk).log_length == game.log_length


def test_an_update_writes_only_the_columns_it_names(make_user):
    game = started_game(make_user("Ana"), make_user("Ben"))
    before = Game.objects.get(pk=game.pk)
    game.version += 5
    game.prompts = {"seats": {"0": {"since": 3, "digest": "d", "deadline": None}}}
    game.is_public = not game.is_public  # changed in memory, not named: stays as it was
    statements.write_move(game, [], ["version", "prompts"])
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.prompts) == (before.version + 5, game.prompts)
    assert after.is_public == before.is_public


def test_a_stored_state_reads_back_with_its_keys_in_their_order(make_user):
    """The board draws a state's objects in their order: reloaded from the database (a
    reconnect, another worker) it must draw as the process that held it drew it."""
    game = started_game(make_user("Ana"), make_user("Ben"))
    game.state = {"zeta": 1, "pieces": {"snowman1": {"b": 2, "a": 1}, "Paul": {}, "snowman0": {}}, "alpha": [{"y": 0, "x": 1}]}
    statements.write_move(game, [], ["state"])
    stored = Game.objects.get(pk=game.pk).state
    assert stored == game.state
    assert list(stored) == ["zeta", "pieces", "alpha"]
    assert list(stored["pieces"]) == ["snowman1", "Paul", "snowman0"]
    assert list(stored["pieces"]["snowman1"]) == ["b", "a"] and list(stored["alpha"][0]) == ["y", "x"]


def _entry(game: Game, action_id: str) -> ActionRecord:
    game.version += 1
    game.log_length += 1
    return ActionRecord(game=game, seq=game.log_length, seat=0, action={"type": "x"}, action_id=action_id,
                        source=ActionRecord.Source.PLAYER, events=[], version=game.version)


def test_a_write_from_a_read_that_another_writer_overtook_fails_and_stores_nothing(make_user):
    game = started_game(make_user("Ana"), make_user("Ben"))
    first_reader, second_reader = Game.objects.get(pk=game.pk), Game.objects.get(pk=game.pk)
    statements.write_move(second_reader, [_entry(second_reader, "second")], ["version", "log_length"])
    with pytest.raises(statements.ConcurrentWrite, match=f"game {game.pk}: its log already holds entry"):
        with transaction.atomic():
            statements.write_move(first_reader, [_entry(first_reader, "first")], ["version", "log_length"])
    stale = Game.objects.get(pk=game.pk)
    stale.log_length -= 1  # as read before "second" was logged
    stale.version += 7
    with pytest.raises(statements.ConcurrentWrite, match=f"its log is no longer {stale.log_length} entries long"):
        with transaction.atomic():
            statements.write_move(stale, [], ["version"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.log_length) == (second_reader.version, second_reader.log_length)
    assert list(stored.actions.values_list("action_id", flat=True)) == ["second"]


def test_a_write_to_a_vanished_game_is_an_error_and_logs_nothing(make_user):
    game = started_game(make_user("Ana"), make_user("Ben"))
    record = ActionRecord(game=game, seq=game.log_length + 1, seat=0, action={"type": "x"}, action_id="gone",
                          source=ActionRecord.Source.PLAYER, events=[], version=game.version + 1)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match=f"game {game.pk}"):
        with transaction.atomic():
            statements.write_move(game, [record], ["version"])
    assert not ActionRecord.objects.filter(action_id="gone").exists()


_PLAIN_VALUES = st.one_of(st.integers(min_value=-(2**63), max_value=2**63 - 1), st.floats(allow_nan=False),
                          st.text(max_size=20), st.sampled_from(list(ActionRecord.Source)), st.booleans(), st.none(),
                          st.datetimes(timezones=st.sampled_from([timezone.utc, ZoneInfo("UTC"),
                                                                  ZoneInfo("Pacific/Chatham")])))


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=_PLAIN_VALUES)
def test_a_moves_parameters_are_what_the_orm_would_send(db, value):
    """The move's own preparation of a column's value (a shortcut for what passes unchanged) sends
    the driver what the field's ``get_db_prep_save`` would, for every column a move writes."""
    connection = connections["default"]
    fields = [*statements._insert_fields(), *(f for f in Game._meta.concrete_fields if not f.primary_key)]
    for field in fields:
        if isinstance(field, JSONField):
            continue  # written with orjson; test_inserted_actions_read_back_as_written reads them back
        try:
            expected = field.get_db_prep_save(value, connection)
        except (TypeError, ValueError, OverflowError, ValidationError):
            continue
        got = statements._prep_of(connection, field)(value)
        assert got == expected and type(got) is type(expected), f"{field.name}: {value!r}"
