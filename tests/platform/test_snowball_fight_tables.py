"""Snowball Fight tables of 3 to 6 seats and in two teams: creation, teams, team leaders, start."""
from __future__ import annotations

import pytest

from games import engines, selectors, services
from games.errors import BadRequest, Conflict, Forbidden
from games.models import Game
from tests.platform.helpers import play_to_end

SLUG = "snowball-fight"


def _table(make_user, seats: int, teams: int = 0, *, splits: list[int] | None = None):
    """A full table: the host and ``seats - 1`` more players, on ``splits`` teams when given."""
    users = [make_user(f"P{n}") for n in range(seats)]
    game = services.create_game(creator=users[0], game_type=SLUG, num_seats=seats, num_teams=teams)
    if splits:
        services.choose_team(game_id=game.pk, user=users[0], team=splits[0])
    for n, user in enumerate(users[1:], start=1):
        services.join_seat(game_id=game.pk, user=user, number=n, team=splits[n] if splits else None)
    return game, users


def _state(game: Game) -> dict:
    return selectors.game_state(selectors.get_game(game.pk))


def test_the_game_is_offered_for_two_to_six_seats_alone_or_in_two_teams():
    ruleset = engines.get(SLUG)
    assert (ruleset.min_players, ruleset.max_players, ruleset.team_counts) == (2, 6, (0, 2))


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_a_table_of_three_to_six_starts_a_ring_game_with_everyone_playing(make_user, seats):
    game, users = _table(make_user, seats)
    services.start_game(game_id=game.pk, user=users[0])
    state = _state(game)
    assert state["mode"] == "ring" and state["players"] == seats
    over = play_to_end(game.pk, dict(enumerate(users)))
    assert over.status == Game.Status.FINISHED and len(over.outcome["scores"]) == seats


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [1, 7])
def test_fewer_than_two_or_more_than_six_seats_are_refused(make_user, seats):
    with pytest.raises(BadRequest, match="takes 2-6 players"):
        services.create_game(creator=make_user("Ana"), game_type=SLUG, num_seats=seats)


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_teams_need_an_even_table_of_four_or_six(make_user, seats):
    with pytest.raises(BadRequest, match="two teams of the same size"):
        services.create_game(creator=make_user("Ana"), game_type=SLUG, num_seats=seats, num_teams=2)


@pytest.mark.django_db
def test_uneven_teams_cannot_start_and_say_why(make_user):
    game, users = _table(make_user, 4, 2, splits=[0, 0, 0, 1])
    with pytest.raises(Conflict, match="two teams of the same size"):
        services.start_game(game_id=game.pk, user=users[0])
    services.choose_team(game_id=game.pk, user=users[2], team=1)
    services.start_game(game_id=game.pk, user=users[0])
    state = _state(game)
    assert state["mode"] == "teams" and state["teams"] == [0, 0, 1, 1] and state["opponents"] == [2, 3, 0, 1]


@pytest.mark.django_db
def test_each_team_is_led_by_its_first_seat_until_a_team_mate_chooses_another(make_user):
    game, users = _table(make_user, 6, 2, splits=[0, 1, 0, 1, 0, 1])
    leaders = [p["seat"] for p in selectors.seats_summary(selectors.get_game(game.pk)) if p["team_leader"]]
    assert leaders == [0, 1]
    services.choose_leader(game_id=game.pk, user=users[0], number=4)
    services.choose_leader(game_id=game.pk, user=users[5], number=3)
    seats = selectors.seats_summary(selectors.get_game(game.pk))
    assert [p["seat"] for p in seats if p["team_leader"]] == [3, 4]
    services.start_game(game_id=game.pk, user=users[0])
    state = _state(game)
    assert state["leaders"] == [4, 3]
    assert engines.get(SLUG).view(state, None)["teams"][0]["leader"] == 4


@pytest.mark.django_db
def test_only_the_teams_own_players_choose_its_leader(make_user):
    game, users = _table(make_user, 4, 2, splits=[0, 1, 0, 1])
    version = selectors.get_game(game.pk).version
    with pytest.raises(Forbidden, match="only its own team chooses its leader"):
        services.choose_leader(game_id=game.pk, user=users[1], number=2)
    with pytest.raises(BadRequest, match="seat must be 0 to 3"):
        services.choose_leader(game_id=game.pk, user=users[0], number=9)
    assert selectors.get_game(game.pk).version == version


@pytest.mark.django_db
def test_a_leader_who_changes_team_or_leaves_hands_the_lead_back_to_the_first_seat(make_user):
    game, users = _table(make_user, 4, 2, splits=[0, 1, 0, 1])
    services.choose_leader(game_id=game.pk, user=users[0], number=2)
    services.choose_team(game_id=game.pk, user=users[2], team=1)
    seats = selectors.seats_summary(selectors.get_game(game.pk))
    assert [p["seat"] for p in seats if p["team_leader"]] == [0, 1]
    services.choose_team(game_id=game.pk, user=users[2], team=0)
    services.choose_leader(game_id=game.pk, user=users[0], number=2)
    services.leave_seat(game_id=game.pk, user=users[2])
    seats = selectors.seats_summary(selectors.get_game(game.pk))
    assert [p["seat"] for p in seats if p["team_leader"]] == [0, 1]


@pytest.mark.django_db
def test_a_game_without_teams_has_no_leaders(make_user):
    game, users = _table(make_user, 3)
    with pytest.raises(BadRequest, match="has no team leaders"):
        services.choose_leader(game_id=game.pk, user=users[0], number=1)
    assert not any(p["team_leader"] for p in selectors.seats_summary(selectors.get_game(game.pk)))


@pytest.mark.django_db
@pytest.mark.parametrize("splits", [[0, 1, 0, 1], [0, 0, 0, 1, 1, 1]])
def test_team_games_play_to_the_end_through_the_services(make_user, splits):
    game, users = _table(make_user, len(splits), 2, splits=splits)
    services.start_game(game_id=game.pk, user=users[0])
    over = play_to_end(game.pk, dict(enumerate(users)))
    assert over.status == Game.Status.FINISHED
    assert len(set(over.outcome["scores"][x] for x in range(len(splits)) if splits[x] == 0)) == 1


@pytest.mark.django_db
def test_the_new_game_form_says_in_a_sentence_why_three_seats_cannot_play_in_teams(client, make_user):
    """The form's words are a player's: no "bad options:" prefix, a capital and a full stop."""
    import html

    from tests.platform.test_pages import _default_options

    client.force_login(make_user("Ana"))
    page = client.post(f"/games/new/{SLUG}/", {**_default_options(), "is_public": "on", "pace": "live",
                                               "num_seats": "3", "num_teams": "2"})
    assert page.status_code == 200 and not Game.objects.exists()
    text = html.unescape(page.content.decode())
    assert ("Team play needs two teams of the same size, two players or more each (4 or 6 seats); "
            "these teams would have 2 and 1 players.") in text
    assert "bad options" not in text
