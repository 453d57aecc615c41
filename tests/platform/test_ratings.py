"""Ratings: every finished rated game moves its players' openskill ratings, exactly as the
library's Plackett-Luce model does, once; unrated games change nothing."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings as hsettings, strategies as st
from tests.depth import examples
from openskill.models import PlackettLuce

from games import services
from games.models import Game, Rating, RatingChange
from games.services import ratings
from tests.platform.helpers import play_to_end, started_game
from tests.platform.test_pages import _default_options
from tests.platform.test_results import _my_games_result

pytestmark = pytest.mark.django_db


def _rating(user, game_type):
    return Rating.objects.get(user=user, game_type=game_type)


def _close(rating, expected):
    assert rating.mu == pytest.approx(expected.mu, abs=1e-9)
    assert rating.sigma == pytest.approx(expected.sigma, abs=1e-9)


def _finish(game: Game, *, winners: list[int], scores: list[int], **extra) -> None:
    """End a started game with this outcome through the rating service, as the move path does."""
    game.status = Game.Status.FINISHED
    game.outcome = {"reason": "test", "winners": winners, "scores": scores, **extra}
    game.save(update_fields=["status", "outcome"])
    ratings.rate_finished_game(game=game)


def _table(host, others, *, game_type, num_teams=None, rated=False):
    game = services.create_game(creator=host, game_type=game_type, num_seats=1 + len(others), num_teams=num_teams,
                                rated=rated)
    for user in others:
        services.join_seat(game_id=game.pk, user=user)
    return game


def test_two_rated_games_between_two_players_move_their_ratings_as_openskill_does(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    model = PlackettLuce()
    expected = {ana.pk: model.rating(), ben.pk: model.rating()}
    for _ in range(2):
        game = started_game(ana, ben)
        users = {0: ana, 1: ben}
        game = play_to_end(game.pk, users)
        assert game.status == Game.Status.FINISHED and game.rated is True
        winners = game.outcome["winners"]
        ranks = [1 if seat in winners else 2 for seat in (0, 1)]
        [[a], [b]] = model.rate([[expected[ana.pk]], [expected[ben.pk]]], ranks=ranks)
        expected = {ana.pk: a, ben.pk: b}
    _close(_rating(ana, "snowball-fight"), expected[ana.pk])
    _close(_rating(ben, "snowball-fight"), expected[ben.pk])
    assert _rating(ana, "snowball-fight").games == 2
    assert RatingChange.objects.filter(user=ana).count() == 2


def test_a_six_player_free_for_all_ranks_winner_first_then_by_score(make_user):
    users = [make_user(f"P{n}") for n in range(6)]
    game = started_game(users[0], *users[1:], game_type="snowball-fighting")
    _finish(game, winners=[3], scores=[5, 3, 3, 8, 1, 0])
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(6)], ranks=[2, 3, 3, 1, 5, 6])
    for user, [exp] in zip(users, expected):
        _close(_rating(user, "snowball-fighting"), exp)
    assert [c.rank for c in RatingChange.objects.filter(game=game).order_by("seat")] == [2, 3, 3, 1, 5, 6]
    assert _rating(users[3], "snowball-fighting").wins == 1
    assert _rating(users[0], "snowball-fighting").losses == 1


def test_a_two_team_game_rates_each_team_as_a_team(make_user):
    users = [make_user(f"T{n}") for n in range(4)]
    game = _table(users[0], users[1:], game_type="what-a-snowball", num_teams=2)
    services.start_game(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    seats = list(game.seats.order_by("number"))
    team_of = {s.number: s.team for s in seats}
    assert sorted(team_of.values()) == [0, 0, 1, 1]
    winners = [n for n, t in team_of.items() if t == 1]
    _finish(game, winners=winners, scores=[10 if team_of[n] == 1 else 4 for n in range(4)])
    model = PlackettLuce()
    team0 = [model.rating() for n in range(4) if team_of[n] == 0]
    team1 = [model.rating() for n in range(4) if team_of[n] == 1]
    new0, new1 = model.rate([team0, team1], ranks=[2, 1])
    by_team = {0: iter(new0), 1: iter(new1)}
    for seat in seats:
        _close(_rating(seat.user, "what-a-snowball"), next(by_team[seat.team]))
    assert _rating(seats[0].user, "what-a-snowball").mu != _rating(
        next(s for s in seats if s.team != seats[0].team).user, "what-a-snowball").mu


def test_a_player_who_resigns_loses_and_the_other_wins(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    services.resign(game_id=game.pk, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == [1]
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    _close(_rating(ana, "snowball-fight"), a)
    _close(_rating(ben, "snowball-fight"), b)
    assert _rating(ana, "snowball-fight").losses == 1 and _rating(ben, "snowball-fight").wins == 1


def test_a_resigned_player_ranks_last_even_when_its_seat_goes_on_to_win(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = started_game(ana, ben, cy, game_type="snowball-fighting")
    services.resign(game_id=game.pk, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.prompts["resigned"] == [0]
    _finish(game, winners=[0], scores=[9, 2, 5])
    model = PlackettLuce()
    [[a], [b], [c]] = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 2, 1])
    _close(_rating(ana, "snowball-fighting"), a)
    _close(_rating(ben, "snowball-fighting"), b)
    _close(_rating(cy, "snowball-fighting"), c)
    assert _rating(ana, "snowball-fighting").wins == 0


def test_a_player_who_left_and_was_handed_over_ranks_last_even_when_the_computer_wins(make_user, client):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type="jingle-bells")
    game.prompts = {**game.prompts, "handed": [1]}  # Ben left; the table handed his seat to a computer player
    game.save(update_fields=["prompts"])
    _finish(game, winners=[1], scores=[0, 0])
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    _close(_rating(ana, "jingle-bells"), a)
    _close(_rating(ben, "jingle-bells"), b)
    assert _rating(ben, "jingle-bells").wins == 0 and _rating(ben, "jingle-bells").losses == 1
    page = client.get(f"/api/players/{ben.username}/").json()
    assert page["recent"][0]["result"] == "left" and page["games"][0]["losses"] == 1
    # every page tells the same story: Ben left and lost; the result panel says why the seat that won is his
    client.force_login(ben)
    assert "lost (left the game)" in client.get(f"/players/{ben.username}/").content.decode()
    assert _my_games_result(client, game.pk).startswith("Left · ")
    panel = " ".join(re.sub(r"<[^>]+>", " ", client.get(f"/games/{game.pk}/").content.decode()).split())
    assert "Ben left the game: the table handed the seat to a computer player, who played it to the end. Ben lost" in panel
    assert "a player who resigned or left the game ranks last" in panel


def test_games_with_a_computer_or_a_guest_are_unrated_unless_the_creator_asks(make_user):
    ana, guest = make_user("Ana"), make_user("Gus", guest=True)
    with_bot = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    with_guest = play_to_end(started_game(ana, guest).pk, {0: ana, 1: guest})
    assert with_bot.status == with_guest.status == Game.Status.FINISHED
    assert with_bot.rated is False and with_guest.rated is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()

    game = services.create_game(creator=ana, game_type="snowball-fighting", num_seats=3, rated=True)
    services.join_seat(game_id=game.pk, user=guest, number=1)
    services.add_bot(game_id=game.pk, user=ana)
    services.start_game(game_id=game.pk, user=ana)
    game.refresh_from_db()
    _finish(game, winners=[2], scores=[1, 2, 3])
    model = PlackettLuce()
    [[a], _, [computer]] = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 2, 1])
    _close(_rating(ana, "snowball-fighting"), a)
    assert not Rating.objects.filter(user=guest).exists()
    stored = Rating.objects.get(user=None, game_type="snowball-fighting")
    assert stored.games == 1 and stored.wins == 1


def test_finishing_again_rates_nothing_twice(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = play_to_end(started_game(ana, ben).pk, {0: ana, 1: ben})
    before = [(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("pk")]
    assert ratings.rate_finished_game(game=game) == []
    from games.services.play import _commit, _prepare_write, _load_state
    from games.services.locking import locked_game, ruleset_of

    with locked_game(game.pk) as locked:
        ruleset = ruleset_of(locked.game_type)
        write = _prepare_write(locked, ruleset, _load_state(locked, ruleset), [])
        write.columns = sorted(set(write.columns) | {"outcome"})
        _commit(write)
    assert [(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("pk")] == before
    assert RatingChange.objects.filter(game=game).count() == 2


@hsettings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_winners_rank_first_and_resigned_players_last(data):
    players = data.draw(st.integers(2, 6))
    scores = data.draw(st.lists(st.integers(0, 20), min_size=players, max_size=players))
    winners = data.draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True))
    resigned = data.draw(st.lists(st.integers(0, players - 1), max_size=players - 1, unique=True))
    game = Game(game_type="snowball-fighting", num_seats=players, num_teams=0,
                outcome={"winners": winners, "scores": scores}, prompts={"resigned": resigned})
    from games.models import Seat
    seats = [Seat(number=n) for n in range(players)]
    sides = {side.seats[0]: side for side in ratings.ranked_sides(game, seats)}
    assert sorted(sides) == list(range(players))
    standing = [n for n in range(players) if n not in resigned]
    for n in resigned:
        assert all(sides[n].rank > sides[m].rank for m in standing) and not sides[n].won
    for n in standing:
        if n in winners:
            assert sides[n].rank == 1
        else:
            assert all(sides[n].rank > sides[w].rank for w in standing if w in winners)
            assert all(sides[n].rank > sides[m].rank for m in standing if m not in winners and scores[m] > scores[n])


def test_the_player_and_leaderboard_api_show_games_wins_and_ratings(make_user, client):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    services.resign(game_id=game.pk, user=ben)
    data = client.get(f"/api/players/{ana.username}/").json()
    [row] = data["games"]
    assert (row["game_type"], row["games"], row["wins"], row["losses"]) == ("snowball-fight", 1, 1, 0)
    assert row["rating"] == round(_rating(ana, "snowball-fight").ordinal, 1)
    assert data["recent"][0]["id"] == game.pk and data["recent"][0]["result"] == "won"
    board = client.get("/api/leaderboard/snowball-fight/").json()["players"]
    assert [p["username"] for p in board] == [ana.username, ben.username]
    assert board[0]["rating"] > board[1]["rating"] and board[0]["games"] == 1
    assert client.get("/api/players/nobody-here/").status_code == 404
    missing = client.get("/api/leaderboard/chess/")
    assert missing.status_code == 404 and "chess" in json.dumps(missing.json())


def test_a_players_games_have_the_same_fields_whether_or_not_they_were_ever_rated(make_user, client):
    """A game the player never played rated has ``rating``, ``mu`` and ``sigma`` null, not missing,
    so that a client reads every row the same way."""
    ana, ben = make_user("Ana"), make_user("Ben")
    services.resign(game_id=started_game(ana, bots=1, game_type="jingle-bells").pk, user=ana)
    services.resign(game_id=started_game(ana, ben).pk, user=ben)
    rows = {row["game_type"]: row for row in client.get(f"/api/players/{ana.username}/").json()["games"]}
    unrated, rated = rows["jingle-bells"], rows["snowball-fight"]
    assert set(unrated) == set(rated)
    assert (unrated["rating"], unrated["mu"], unrated["sigma"], unrated["rated_games"]) == (None, None, None, 0)
    assert rated["mu"] == _rating(ana, "snowball-fight").mu and rated["rated_games"] == 1


def test_a_game_created_rated_through_the_api_says_so_and_a_bad_value_is_refused(make_user, client):
    ana = make_user("Ana")
    client.force_login(ana)
    made = client.post("/api/games/", {"game_type": "snowball-fight", "rated": True}, content_type="application/json")
    assert made.status_code == 201 and made.json()["rated"] is True
    plain = client.post("/api/games/", {"game_type": "snowball-fight"}, content_type="application/json")
    assert plain.status_code == 201 and plain.json()["rated"] is None
    bad = client.post("/api/games/", {"game_type": "snowball-fight", "rated": "yes"}, content_type="application/json")
    assert bad.status_code == 400 and "rated" in bad.json()["error"]["message"]
    assert Game.objects.count() == 2


def test_the_creation_form_and_the_waiting_room_say_whether_the_game_is_rated(make_user, client):
    ana = make_user("Ana")
    client.force_login(ana)
    form = client.get("/games/new/snowball-fight/").content.decode()
    assert 'name="rated"' in form and "every seat is a signed-in player is rated" in form
    client.post("/games/new/snowball-fight/", {"is_public": "on", **_default_options()})
    client.post("/games/new/snowball-fight/", {"is_public": "on", "rated": "on", **_default_options()})
    plain, rated = Game.objects.order_by("pk")
    assert (plain.rated, rated.rated) == (None, True)
    assert "will be rated" in client.get(f"/games/{plain.pk}/").content.decode()
    services.add_bot(game_id=plain.pk, user=ana)
    assert "will not be rated: a guest or a computer player" in client.get(f"/games/{plain.pk}/").content.decode()
    services.add_bot(game_id=rated.pk, user=ana)
    assert "This game is rated" in client.get(f"/games/{rated.pk}/").content.decode()


def test_a_game_whose_rating_fails_still_ends_and_rates_nobody(make_user, monkeypatch, caplog):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    real = ratings.rate_finished_game

    def half_then_fail(*, game):
        real(game=game)
        raise RuntimeError("rating broke")

    monkeypatch.setattr(ratings, "rate_finished_game", half_then_fail)
    services.resign(game_id=game.pk, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.outcome["winners"] == [1]
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert "rating failed" in caplog.text


RATING_JARGON = re.compile(r"\b(mu|sigma|ordinal|openskill|Plackett|Luce)\b|[μσ]", re.IGNORECASE)


def test_player_pages_leaderboards_and_the_result_speak_of_a_rating_in_plain_words(make_user, client):
    """What a player reads about ratings names no model, parameter or formula, and keeps the numbers."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    services.resign(game_id=game.pk, user=ben)
    rating = f"{round(_rating(ana, 'snowball-fight').ordinal, 1):.1f}"
    client.force_login(ben)
    for url in (f"/players/{ana.username}/", f"/players/{ben.username}/", "/leaderboard/snowball-fight/",
                f"/games/{game.pk}/"):
        page = client.get(url)
        assert page.status_code == 200
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", page.content.decode(), flags=re.S))
        assert not RATING_JARGON.findall(text), f"{url}: {RATING_JARGON.findall(text)}"
        assert "Rating" in text and (rating in text or url.endswith(f"/{ben.username}/")), url
