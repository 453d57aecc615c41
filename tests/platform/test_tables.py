"""Tables of 2-12 seats and teams in the waiting room, driven by the test engine."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games import selectors, services, tables
from games.errors import BadRequest, Conflict, Forbidden, NotSeated, ServiceError
from games.models import Game
from tests.engines.table_engine import MAYBE_PAIRS_TABLE, PAIRS_TABLE, TABLE, TEAM_TABLE, registered_table_engines
from tests.platform.helpers import play_to_end


@pytest.fixture(scope="module", autouse=True)
def table_engines():
    """For the whole module, so that finished games still replay when each test ends."""
    with registered_table_engines():
        yield


def _seats(game: Game) -> list[dict]:
    return selectors.seats_summary(Game.objects.get(pk=game.pk))


def _version(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


# ---------------------------------------------------------------- the rules, without a database


@given(st.integers(min_value=-3, max_value=20))
def test_a_table_has_any_number_of_seats_the_engine_allows_and_no_other(seats):
    if 2 <= seats <= 12:
        assert tables.seat_count(TABLE, seats) == seats
    else:
        with pytest.raises(BadRequest, match=rf"Snowball Pile takes 2-12 players, got {seats}"):
            tables.seat_count(TABLE, seats)


@given(st.integers(min_value=2, max_value=12), st.integers(min_value=-1, max_value=14))
def test_the_number_of_teams_is_one_the_engine_allows_and_no_more_than_the_seats(seats, teams):
    if teams in TEAM_TABLE.team_counts and teams <= seats:
        assert tables.team_count(TEAM_TABLE, teams, seats=seats) == teams
    else:
        with pytest.raises(BadRequest, match="teams"):
            tables.team_count(TEAM_TABLE, teams, seats=seats)


def test_a_game_without_teams_refuses_teams_and_one_with_a_single_count_fixes_it():
    assert tables.team_count(TABLE, None, seats=4) == 0
    with pytest.raises(BadRequest, match="played without teams, got teams=2"):
        tables.team_count(TABLE, 2, seats=4)
    assert tables.team_count(PAIRS_TABLE, None, seats=4) == 2
    with pytest.raises(BadRequest, match="played with 2 teams, got teams=3"):
        tables.team_count(PAIRS_TABLE, 3, seats=6)
    with pytest.raises(BadRequest, match="played with 2, 3 or 4 teams, got teams=True"):
        tables.team_count(TEAM_TABLE, True, seats=6)


def test_a_game_whose_teams_are_optional_is_played_without_them_unless_the_creator_asks():
    assert tables.team_count(MAYBE_PAIRS_TABLE, None, seats=4) == 0
    assert tables.team_count(MAYBE_PAIRS_TABLE, 0, seats=4) == 0
    assert tables.team_count(MAYBE_PAIRS_TABLE, 2, seats=4) == 2
    with pytest.raises(BadRequest, match="played with 0 or 2 teams, got teams=3"):
        tables.team_count(MAYBE_PAIRS_TABLE, 3, seats=6)
    assert tables.team_count_words(MAYBE_PAIRS_TABLE) == "each for themselves or in 2 teams"
    assert tables.team_count_words(TEAM_TABLE) == "in 2, 3 or 4 teams"
    assert tables.team_count_words(TABLE) == ""


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=12), st.integers(min_value=1, max_value=4))
def test_a_newcomer_joins_the_smallest_team(taken, num_teams):
    taken = [t for t in taken if t < num_teams]
    team = tables.team_for_newcomer(taken, num_teams)
    sizes = [taken.count(t) for t in range(num_teams)]
    assert sizes[team] == min(sizes)
    assert team == sizes.index(min(sizes))


# ---------------------------------------------------------------- seats


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [2, 5, 12])
def test_the_creator_picks_the_seats_and_the_waiting_room_lists_every_one(make_user, seats):
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type=TABLE.slug, num_seats=seats)
    listed = _seats(game)
    assert [p["seat"] for p in listed] == list(range(seats))
    assert listed[0]["name"] == "Ana" and all(p["empty"] for p in listed[1:])
    assert all(p["team"] is None for p in listed)
    assert selectors.viewer_payload(game, 0)["players"] == listed


@pytest.mark.django_db
def test_a_table_outside_the_games_range_is_not_created(make_user):
    ana = make_user("Ana")
    for seats in (1, 13):
        with pytest.raises(BadRequest, match="takes 2-12 players"):
            services.create_game(creator=ana, game_type=TABLE.slug, num_seats=seats)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_players_sit_in_a_chosen_seat_move_and_leave(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=ana, game_type=TABLE.slug, num_seats=5)
    services.join_seat(game_id=game.pk, user=ben, number=3)
    services.join_seat(game_id=game.pk, user=cy)
    assert [p["name"] for p in _seats(game)][:4] == ["Ana", "Cy", "(empty seat 3)", "Ben"]

    services.move_seat(game_id=game.pk, user=ben, number=4)
    names = [p["name"] for p in _seats(game)]
    assert names[3] == "(empty seat 4)" and names[4] == "Ben"

    before = _version(game)
    with pytest.raises(Conflict, match="Seat 2 is taken"):
        services.move_seat(game_id=game.pk, user=ben, number=1)
    with pytest.raises(Conflict, match="already in Seat 5"):
        services.move_seat(game_id=game.pk, user=ben, number=4)
    with pytest.raises(BadRequest, match="seat must be 0 to 4, got 5"):
        services.move_seat(game_id=game.pk, user=ben, number=5)
    with pytest.raises(Conflict, match="already have a seat"):
        services.join_seat(game_id=game.pk, user=ben, number=2)
    dee = make_user("Dee")
    with pytest.raises(NotSeated, match="sit down first"):
        services.move_seat(game_id=game.pk, user=dee, number=2)
    assert _version(game) == before
    assert [p["name"] for p in _seats(game)][4] == "Ben"

    services.leave_seat(game_id=game.pk, user=ben)
    assert _seats(game)[4]["empty"]


@pytest.mark.django_db
def test_the_creator_or_a_seated_player_fills_empty_seats_with_computer_players(make_user):
    ana, ben, stranger = make_user("Ana"), make_user("Ben"), make_user("Stranger")
    game = services.create_game(creator=ana, game_type=TABLE.slug, num_seats=4, take_seat=False)
    services.add_bot(game_id=game.pk, user=ana, number=2)  # the creator, not seated
    services.join_seat(game_id=game.pk, user=ben, number=0)
    services.add_bot(game_id=game.pk, user=ben)
    assert [p["is_bot"] for p in _seats(game)] == [False, True, True, False]
    before = _version(game)
    with pytest.raises(Forbidden):
        services.add_bot(game_id=game.pk, user=stranger, number=3)
    with pytest.raises(Forbidden):
        services.remove_bot(game_id=game.pk, user=stranger, number=2)
    with pytest.raises(BadRequest, match="Seat 1 has no computer player"):
        services.remove_bot(game_id=game.pk, user=ana, number=0)
    with pytest.raises(BadRequest, match="say which seat's computer player"):
        services.remove_bot(game_id=game.pk, user=ana, number=None)
    with pytest.raises(BadRequest, match="seat must be 0 to 3, got 4"):
        services.remove_bot(game_id=game.pk, user=ana, number=4)
    assert _version(game) == before
    services.remove_bot(game_id=game.pk, user=ana, number=2)
    assert [p["is_bot"] for p in _seats(game)] == [False, True, False, False]


@pytest.mark.django_db
def test_a_five_seat_table_starts_full_and_plays_to_the_end(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=ana, game_type=TABLE.slug, num_seats=5)
    services.join_seat(game_id=game.pk, user=ben, number=2)
    services.add_bot(game_id=game.pk, user=ana, number=4)
    with pytest.raises(Conflict, match="Seats 2, 4 are still empty"):
        services.start_game(game_id=game.pk, user=ana)
    services.join_seat(game_id=game.pk, user=cy, number=1)
    services.add_bot(game_id=game.pk, user=ben, number=3)
    services.start_game(game_id=game.pk, user=ben)
    game = play_to_end(game.pk, {0: ana, 1: cy, 2: ben})
    assert game.status == Game.Status.FINISHED
    assert sum(game.outcome["scores"]) == 15
    assert services.replay(game=game) == game.state


# ---------------------------------------------------------------- teams


@pytest.mark.django_db
def test_players_choose_their_team_and_the_engine_receives_the_teams(make_user):
    ana, ben, cy, dee = (make_user(n) for n in ("Ana", "Ben", "Cy", "Dee"))
    game = services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=6, num_teams=3)
    assert Game.objects.get(pk=game.pk).num_teams == 3
    for user in (ben, cy, dee):
        services.join_seat(game_id=game.pk, user=user)
    services.add_bot(game_id=game.pk, user=ana)
    services.add_bot(game_id=game.pk, user=ana, team=0)
    assert [p["team"] for p in _seats(game)] == [0, 1, 2, 0, 1, 0]

    services.choose_team(game_id=game.pk, user=dee, team=2)
    services.choose_team(game_id=game.pk, user=ben, team=1, number=5)  # a seated player, for a computer player
    services.choose_team(game_id=game.pk, user=ana, team=0, number=4)
    teams = [p["team"] for p in _seats(game)]
    assert teams == [0, 1, 2, 2, 0, 1]
    payload = selectors.viewer_payload(Game.objects.get(pk=game.pk), 0)
    assert [t["name"] for t in payload["teams"]] == ["Red", "Blue", "Green"]

    services.start_game(game_id=game.pk, user=dee)
    started = Game.objects.get(pk=game.pk)
    assert started.status == Game.Status.ACTIVE
    assert selectors.viewer_payload(started, None)["view"]["teams"] == teams
    finished = play_to_end(game.pk, {0: ana, 1: ben, 2: cy, 3: dee})
    assert finished.status == Game.Status.FINISHED
    winning_team = teams[finished.state["last"]]
    assert finished.outcome["winners"] == [s for s, t in enumerate(teams) if t == winning_team]
    assert services.replay(game=finished) == finished.state


@pytest.mark.django_db
def test_a_player_keeps_its_team_when_it_moves_and_loses_it_when_it_leaves(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=4, num_teams=2)
    services.join_seat(game_id=game.pk, user=ben, number=1, team=0)
    services.move_seat(game_id=game.pk, user=ben, number=3)
    assert [(p["name"], p["team"]) for p in _seats(game)][1:] == [
        ("(empty seat 2)", None), ("(empty seat 3)", None), ("Ben", 0)]
    services.leave_seat(game_id=game.pk, user=ben)
    assert _seats(game)[3]["team"] is None


@pytest.mark.django_db
def test_a_bad_team_choice_is_refused_and_changes_nothing(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=4, num_teams=2)
    services.join_seat(game_id=game.pk, user=ben, number=1)
    services.add_bot(game_id=game.pk, user=ana, number=2)
    before, seats_before = _version(game), _seats(game)
    with pytest.raises(BadRequest, match="team must be 0 to 1, got 2"):
        services.choose_team(game_id=game.pk, user=ben, team=2)
    with pytest.raises(BadRequest, match="team must be 0 to 1, got -1"):
        services.join_seat(game_id=game.pk, user=cy, team=-1)
    with pytest.raises(Forbidden, match="Seat 1 is another player's"):
        services.choose_team(game_id=game.pk, user=ben, team=1, number=0)
    with pytest.raises(Forbidden, match="Seat 4 is empty"):
        services.choose_team(game_id=game.pk, user=ben, team=1, number=3)
    with pytest.raises(NotSeated):
        services.choose_team(game_id=game.pk, user=cy, team=1)
    with pytest.raises(Forbidden):
        services.choose_team(game_id=game.pk, user=cy, team=1, number=2)
    assert _version(game) == before and _seats(game) == seats_before

    plain = services.create_game(creator=ana, game_type=TABLE.slug, num_seats=3)
    with pytest.raises(BadRequest, match="played without teams"):
        services.choose_team(game_id=plain.pk, user=ana, team=0)


@pytest.mark.django_db
def test_the_start_is_refused_while_a_team_is_empty_or_the_engine_finds_them_unbalanced(make_user):
    ana, ben, cy, dee = (make_user(n) for n in ("Ana", "Ben", "Cy", "Dee"))
    game = services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=4, num_teams=2)
    for user in (ben, cy, dee):
        services.join_seat(game_id=game.pk, user=user, team=0)
    with pytest.raises(Conflict, match="Blue has nobody yet"):
        services.start_game(game_id=game.pk, user=ana)
    services.choose_team(game_id=game.pk, user=dee, team=1)
    with pytest.raises(Conflict, match="teams may differ by one player at most: Red has 3, Blue has 1"):
        services.start_game(game_id=game.pk, user=ana)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    services.choose_team(game_id=game.pk, user=cy, team=1)
    services.start_game(game_id=game.pk, user=ana)
    started = Game.objects.get(pk=game.pk)
    assert started.status == Game.Status.ACTIVE
    assert selectors.viewer_payload(started, 1)["view"]["teams"] == [0, 0, 1, 1]
    with pytest.raises(Conflict, match="already started"):
        services.choose_team(game_id=game.pk, user=cy, team=0)


@pytest.mark.django_db
def test_an_engine_that_allows_one_team_count_fixes_it(make_user):
    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type=PAIRS_TABLE.slug, num_seats=6)
    assert Game.objects.get(pk=game.pk).num_teams == 2
    with pytest.raises(BadRequest, match="played with 2 teams"):
        services.create_game(creator=ana, game_type=PAIRS_TABLE.slug, num_seats=6, num_teams=3)
    with pytest.raises(BadRequest, match="4 teams need at least 4 seats"):
        services.create_game(creator=ana, game_type=TEAM_TABLE.slug, num_seats=3, num_teams=4)


@pytest.mark.django_db
def test_a_table_of_a_game_with_optional_teams_starts_with_or_without_them(make_user):
    ana = make_user("Ana")
    alone = services.create_game(creator=ana, game_type=MAYBE_PAIRS_TABLE.slug, num_seats=3)
    paired = services.create_game(creator=ana, game_type=MAYBE_PAIRS_TABLE.slug, num_seats=4, num_teams=2)
    for game in (alone, paired):
        while any(p["empty"] for p in _seats(game)):
            services.add_bot(game_id=game.pk, user=ana)
        services.start_game(game_id=game.pk, user=ana)
    alone, paired = Game.objects.get(pk=alone.pk), Game.objects.get(pk=paired.pk)
    assert alone.status == paired.status == Game.Status.ACTIVE
    assert alone.num_teams == 0 and alone.state["teams"] is None
    assert [p["team"] for p in _seats(alone)] == [None, None, None]
    assert paired.state["teams"] == [0, 1, 0, 1] == [p["team"] for p in _seats(paired)]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["jingle-bells"])
def test_the_two_player_games_have_no_teams_and_refuse_them(make_user, slug):
    ana, ben = make_user("Ana"), make_user("Ben")
    with pytest.raises(BadRequest, match="played without teams"):
        services.create_game(creator=ana, game_type=slug, num_teams=2)
    with pytest.raises(BadRequest, match="takes 2 players, got 3"):
        services.create_game(creator=ana, game_type=slug, num_seats=3)
    game = services.create_game(creator=ana, game_type=slug)
    services.join_seat(game_id=game.pk, user=ben)
    services.start_game(game_id=game.pk, user=ben)
    game = Game.objects.get(pk=game.pk)
    assert game.num_teams == 0 and [p["team"] for p in _seats(game)] == [None, None]
    assert selectors.viewer_payload(game, 0)["teams"] == []


# ---------------------------------------------------------------- any sequence of waiting-room moves


WAITING_ROOM_STEPS = ("join", "move", "leave", "team", "add_bot", "remove_bot")


@pytest.mark.django_db
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_sequence_of_seat_and_team_choices_keeps_the_table_sound(make_user, data):
    """Whatever players ask, in any order: a refusal changes nothing; a success bumps the
    version once, leaves every player in one seat at most, and every filled seat (only
    those) on one of the table's teams; moves keep the team, leaving gives up the seat."""
    users = [make_user(name, guest=True) for name in ("Ana", "Ben", "Cy", "Dee")]
    seats = data.draw(st.integers(min_value=2, max_value=12), label="seats")
    num_teams = data.draw(st.sampled_from([0] + [k for k in TEAM_TABLE.team_counts if k <= seats]), label="teams")
    game = services.create_game(creator=users[0], game_type=TEAM_TABLE.slug if num_teams else TABLE.slug,
                                num_seats=seats, num_teams=num_teams or None)
    seat_numbers = st.one_of(st.none(), st.integers(min_value=-1, max_value=seats))  # and a likely seat, below
    team_numbers = st.one_of(st.none(), st.integers(min_value=-1, max_value=max(num_teams, 1)))
    for _ in range(data.draw(st.integers(min_value=1, max_value=20), label="steps")):
        step = data.draw(st.sampled_from(WAITING_ROOM_STEPS))
        before, version = _seats(game), _version(game)
        seated = [u for u in users if any(p["user_id"] == u.pk for p in before)]
        user = data.draw(st.sampled_from(seated if seated and step != "join" else users))
        likely = [p["seat"] for p in before if (p["is_bot"] if step in ("remove_bot", "team") else p["empty"])]
        number = data.draw(st.one_of(st.sampled_from(likely), seat_numbers) if likely else seat_numbers)
        team = data.draw(team_numbers)
        mine_before = next((p for p in before if p["user_id"] == user.pk), None)
        calls = {
            "join": lambda: services.join_seat(game_id=game.pk, user=user, number=number, team=team),
            "move": lambda: services.move_seat(game_id=game.pk, user=user, number=number),
            "leave": lambda: services.leave_seat(game_id=game.pk, user=user),
            "team": lambda: services.choose_team(game_id=game.pk, user=user, team=team, number=number),
            "add_bot": lambda: services.add_bot(game_id=game.pk, user=user, number=number, team=team),
            "remove_bot": lambda: services.remove_bot(game_id=game.pk, user=user, number=number),
        }
        try:
            calls[step]()
        except ServiceError as exc:
            event(f"{step} refused: {type(exc).__name__}")
            assert _seats(game) == before and _version(game) == version, f"refused {step} changed the table"
            continue
        event(f"{step} done")
        after = _seats(game)
        assert _version(game) == version + 1
        users_seated = [p["user_id"] for p in after if p["user_id"] is not None]
        assert len(users_seated) == len(set(users_seated))
        for p in after:
            assert not (p["is_bot"] and p["user_id"]), p
            if p["empty"] or not num_teams:
                assert p["team"] is None, p
            else:
                assert p["team"] in range(num_teams), p
        mine = next((p for p in after if p["user_id"] == user.pk), None)
        if step == "move":
            assert mine["seat"] == number and mine["team"] == mine_before["team"] and after[mine_before["seat"]]["empty"]
        if step == "join":
            assert mine is not None and (number is None or mine["seat"] == number)
            assert team is None or mine["team"] == team
        if step == "leave":
            assert mine is None and after[mine_before["seat"]]["empty"]
        if step == "add_bot":
            assert sum(p["is_bot"] for p in after) == sum(p["is_bot"] for p in before) + 1


# ---------------------------------------------------------------- the games on the site


@pytest.mark.django_db
@pytest.mark.parametrize(("seats", "num_teams", "chosen"), [(4, 2, [0, 0, 1, 1]), (6, 3, [2, 0, 1, 0, 1, 2])])
def test_what_a_snowball_is_played_in_the_teams_chosen_in_the_waiting_room(make_user, seats, num_teams, chosen):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = services.create_game(creator=ana, game_type="what-a-snowball", num_seats=seats, num_teams=num_teams)
    services.join_seat(game_id=game.pk, user=ben, number=1)
    while any(p["empty"] for p in _seats(game)):
        services.add_bot(game_id=game.pk, user=ana)
    for seat, team in enumerate(chosen):
        user = {0: ana, 1: ben}.get(seat, ana)
        services.choose_team(game_id=game.pk, user=user, team=team, number=None if seat in (0, 1) else seat)
    assert [p["team"] for p in _seats(game)] == chosen
    services.start_game(game_id=game.pk, user=ben)
    started = Game.objects.get(pk=game.pk)
    assert started.status == Game.Status.ACTIVE
    kids_teams = {kid["seat"]: kid["team"] for kid in started.state["kids"].values()}
    assert [kids_teams[seat] for seat in range(seats)] == chosen
    assert selectors.viewer_payload(started, 1)["view"]["seat_team"] is not None


@pytest.mark.django_db
def test_snowball_fighting_seats_up_to_six_without_teams(make_user):
    ana = make_user("Ana")
    with pytest.raises(BadRequest, match="played without teams"):
        services.create_game(creator=ana, game_type="snowball-fighting", num_seats=4, num_teams=2)
    game = services.create_game(creator=ana, game_type="snowball-fighting", num_seats=6)
    while any(p["empty"] for p in _seats(game)):
        services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    started = Game.objects.get(pk=game.pk)
    assert started.status == Game.Status.ACTIVE and len(_seats(started)) == 6


def test_every_team_colour_has_its_own_shape_drawn_in_svg():
    marks = [tables.team_mark(colour) for colour in tables.TEAM_COLOURS]
    assert marks[:4] == ["circle", "square", "triangle", "diamond"]
    assert len(set(marks)) == len(tables.TEAM_COLOURS) and all(tables.MARK_PATHS[m].startswith("M") for m in marks)
    assert tables.team_mark("no such colour") == ""
