"""The play service: seats, actions applied once, stale and foreign actions refused, replay."""
from __future__ import annotations

import uuid

import pytest
from games import engines, selectors, services
from games.engines.base import GameError
from games.errors import BadRequest, Conflict, NotSeated, StaleVersion
from games.models import ActionRecord, Game
from games.state_cache import STATE_CACHE
from tests.platform.helpers import SLUG, play_to_end, started_game

pytestmark = pytest.mark.django_db


def _first_move(game: Game, seat: int) -> dict:
    ruleset = engines.get(game.game_type)
    return ruleset.bot_action(selectors.game_state(game), seat)


def test_waiting_room_seats_and_start(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=ana, game_type=SLUG)
    assert [s["name"] for s in selectors.seats_summary(game)] == ["Ana", "(empty seat 2)"]
    with pytest.raises(Conflict, match="still empty"):
        services.start_game(game_id=game.pk, user=ana)
    services.join_seat(game_id=game.pk, user=ben, number=1)
    with pytest.raises(Conflict, match="every seat is taken"):
        services.join_seat(game_id=game.pk, user=cy)
    with pytest.raises(Conflict, match="already have a seat"):
        services.join_seat(game_id=game.pk, user=ben)
    services.leave_seat(game_id=game.pk, user=ben)
    services.join_seat(game_id=game.pk, user=cy)
    with pytest.raises(NotSeated):
        services.start_game(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=cy)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert selectors.viewer_payload(game, 0)["view"] is not None
    with pytest.raises(Conflict, match="already started"):
        services.leave_seat(game_id=game.pk, user=cy)


def test_bad_options_are_refused_before_anything_is_saved(make_user):
    ana = make_user("Ana")
    with pytest.raises(BadRequest):
        services.create_game(creator=ana, game_type="no-such-game")
    with pytest.raises(BadRequest, match="players"):
        services.create_game(creator=ana, game_type=SLUG, num_seats=9)
    with pytest.raises(BadRequest, match="bad options: Unknown village"):
        services.create_game(creator=ana, game_type="what-a-snowball", options={"village": [1]})
    assert Game.objects.count() == 0


def test_full_game_finishes_and_replays_from_seed_and_log(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    game = play_to_end(game.pk, {0: ana, 1: ben})
    assert game.status == Game.Status.FINISHED
    assert game.outcome["winners"]
    assert len(game.outcome["scores"]) == 2
    assert services.replay(game=game) == game.state
    assert game.actions.count() == game.actions.order_by("-seq").first().seq
    assert game in selectors.my_games(ana)


def test_resent_action_id_is_applied_once(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    action = _first_move(game, 0)
    first = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="same-id", version=game.version)
    again = services.submit_action(game_id=game.pk, user=ana, action=action, action_id="same-id", version=game.version)
    assert not first.duplicate and again.duplicate
    assert again.version == first.version
    assert ActionRecord.objects.filter(game=game, action_id="same-id").count() == 1


def test_a_used_action_id_with_another_action_is_refused_and_nothing_changes(make_user):
    """A resend is a duplicate; another action under an id already logged would never be
    played, so it is refused rather than acked as if it had been."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    action = _first_move(game, 0)
    services.submit_action(game_id=game.pk, user=ana, action=action, action_id="p1", version=game.version)
    after = selectors.get_game(game.pk)
    other = {**action, "type": "something-else"}
    with pytest.raises(BadRequest, match="action_id 'p1' already names another action of your seat") as refused:
        services.submit_action(game_id=game.pk, user=ana, action=other, action_id="p1", version=after.version)
    assert refused.value.details == {"field": "action_id"}
    assert selectors.get_game(game.pk).version == after.version
    again = services.submit_action(game_id=game.pk, user=ana, action=dict(action), action_id="p1",
                                   version=after.version)
    assert again.duplicate and again.version == after.version


def test_action_based_on_an_old_prompt_is_refused_as_stale(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    old_version = game.version
    play_to_end(game.pk, {0: ana, 1: ben}, max_steps=6)
    game.refresh_from_db()
    ruleset = engines.get(game.game_type)
    seat = min(ruleset.to_act(game.state))
    user = ana if seat == 0 else ben
    since = game.prompts["seats"][str(seat)]["since"]
    assert since > old_version
    with pytest.raises(StaleVersion, match="moved on"):
        services.submit_action(game_id=game.pk, user=user, action=_first_move(game, seat),
                               action_id=uuid.uuid4().hex, version=old_version)
    game.refresh_from_db()
    assert game.version == game.actions.order_by("-seq").first().version


def test_a_move_from_the_view_just_before_the_seat_was_asked_is_stale_and_one_from_that_view_is_not(make_user):
    """The boundary of staleness: the first version whose view asks the seat is current, the
    version before it is not, however close."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    play_to_end(game.pk, {0: ana, 1: ben}, max_steps=6)
    game.refresh_from_db()
    seat = min(engines.get(game.game_type).to_act(game.state))
    user = ana if seat == 0 else ben
    asked_at = game.prompts["seats"][str(seat)]["since"]
    assert asked_at > 1
    with pytest.raises(StaleVersion):
        services.submit_action(game_id=game.pk, user=user, action=_first_move(game, seat),
                               action_id=uuid.uuid4().hex, version=asked_at - 1)
    result = services.submit_action(game_id=game.pk, user=user, action=_first_move(game, seat),
                                    action_id=uuid.uuid4().hex, version=asked_at)
    assert not result.duplicate and result.version > game.version


def test_a_move_claiming_a_version_the_game_has_not_reached_is_refused_and_changes_nothing(make_user):
    """A client cannot have seen a view newer than the game: even one version ahead is refused."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    before = (game.version, game.state)
    with pytest.raises(BadRequest, match="ahead of the game"):
        services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="ahead",
                               version=game.version + 1)
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert not ActionRecord.objects.filter(game=game).exists()


def test_simultaneous_choices_are_not_stale_for_the_other_seat(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    ruleset = engines.get(game.game_type)
    assert set(ruleset.to_act(game.state)) == {0, 1}
    seen = game.version
    services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="a1", version=seen)
    game.refresh_from_db()
    result = services.submit_action(game_id=game.pk, user=ben, action=_first_move(game, 1), action_id="b1", version=seen)
    assert result.version > seen


def test_strangers_and_illegal_actions_change_nothing(make_user):
    ana, ben, eve = make_user("Ana"), make_user("Ben"), make_user("Eve")
    game = started_game(ana, ben)
    before = (game.version, game.state)
    with pytest.raises(NotSeated):
        services.submit_action(game_id=game.pk, user=eve, action=_first_move(game, 0), action_id="x", version=game.version)
    with pytest.raises(GameError):
        services.submit_action(game_id=game.pk, user=ana, action={"type": "play", "card": "nope", "side": "top"},
                               action_id="y", version=game.version)
    with pytest.raises(BadRequest):
        services.submit_action(game_id=game.pk, user=ana, action="not a dict", action_id="z", version=game.version)
    with pytest.raises(BadRequest):
        services.submit_action(game_id=game.pk, user=ana, action=_first_move(game, 0), action_id="w", version="7")
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert not ActionRecord.objects.filter(game=game).exists()


def test_overdue_prompts_get_the_rule_books_default(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    deadline = services.next_deadline(game)
    assert deadline is not None
    assert services.apply_timeouts(game_id=game.pk, now=deadline - 1) is None
    new_version = services.apply_timeouts(game_id=game.pk, now=deadline + 1)
    assert new_version is not None and new_version > game.version
    assert ActionRecord.objects.filter(game=game, source="timeout").exists()


def test_computer_player_answers_by_itself(make_user):
    ana = make_user("Ana")
    game = started_game(ana, bots=1)
    game = play_to_end(game.pk, {0: ana})
    assert game.status == Game.Status.FINISHED
    assert ActionRecord.objects.filter(game=game, source="bot").exists()
    assert services.replay(game=game) == game.state


def test_state_survives_a_process_losing_its_memory(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    play_to_end(game.pk, {0: ana, 1: ben}, max_steps=10)
    STATE_CACHE.clear()
    game = play_to_end(game.pk, {0: ana, 1: ben})
    assert game.status == Game.Status.FINISHED
    assert services.replay(game=game) == game.state


def test_guest_registers_later_and_keeps_its_games(make_user):
    guest = make_user("Gus", guest=True)
    ben = make_user("Ben")
    game = started_game(guest, ben)
    user = services.register_user(username="gus", password="snow-ball-1234", guest=guest)
    assert user.pk == guest.pk and not user.profile.is_guest
    assert game in selectors.my_games(user)


# The events with which each engine ends a sealed round (everyone's choice is shown at once).
ROUND_ENDS = {SLUG: {"draft_pick", "draft_done", "reveal"}, "jingle-bells": {"reveal"}}


@pytest.mark.parametrize("game_type", sorted(ROUND_ENDS))
def test_exactly_the_lock_that_completes_a_sealed_round_reports_the_reveal(make_user, game_type, caplog):
    """The reveal barrier agrees with the engine on every round, including one that runs into the next."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=game_type)
    ruleset = engines.get(game_type)
    users = {0: ana, 1: ben}
    reveals = 0
    for _ in range(3000):
        game = selectors.get_game(game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        state = selectors.game_state(game)
        seat = min(ruleset.to_act(state))
        result = services.submit_action(game_id=game.pk, user=users[seat], action=ruleset.bot_action(state, seat),
                                        action_id=uuid.uuid4().hex, version=game.version)
        events = ActionRecord.objects.filter(game=game, version__gt=game.version).values_list("events", flat=True)
        round_ended = any(e["type"] in ROUND_ENDS[game_type] for batch in events for e in batch)
        assert result.revealed == round_ended, f"at version {game.version}, seat {seat}"
        reveals += result.revealed
    assert game.status == Game.Status.FINISHED
    assert reveals >= 2
    assert "barrier" not in caplog.text
