"""Names players choose, as every other viewer reads them: a name that reads like the log's place
for a seat's name (``{p1}``) is shown as written, never as another player's; a name that would
make text read backwards, hide in plain sight or look like another's is refused wherever a name
is given, saying why, and signs nobody in."""
from __future__ import annotations

import time

import pytest
from django.test import Client

from games import selectors, services
from games.models import ApiToken, Game, Profile
from tests.platform.helpers import play_one, started_game

pytestmark = pytest.mark.django_db


def _view(user, game_id: int) -> dict:
    _, key = ApiToken.issue(user=user, name="bot")
    answer = Client(HTTP_AUTHORIZATION=f"Token {key}").get(f"/api/games/{game_id}/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def _log(user, game_id: int) -> list[str]:
    return [line["text"] for line in _view(user, game_id)["log"]]


@pytest.mark.parametrize("name", ["{p1}", "{p0}", "{p2}", "{p1}{p0}"])
def test_a_player_named_like_a_place_for_a_name_resigns_under_that_name_not_the_opponents(make_user, name):
    impostor, ben = make_user(name, guest=True), make_user("Ben", guest=True)
    game = started_game(impostor, ben)
    services.resign(game_id=game.pk, user=impostor)
    for viewer in (impostor, ben):
        view = _view(viewer, game.pk)
        assert f"{name} resigns" in [line["text"] for line in view["log"]]
        assert not any(line["text"].startswith("Ben resign") for line in view["log"])
        assert view["outcome"]["reason"] == f"{name} resigned"


def test_the_table_hands_over_the_seat_of_the_player_it_names(make_user, settings):
    settings.SNOWBALL_ABSENCE_GRACE = 60.0
    ana, impostor, cy = make_user("Ana"), make_user("{p0}", guest=True), make_user("Cy")
    game = started_game(ana, impostor, cy, game_type="snowball-fighting")
    left_at = time.time() - 1000
    services.note_away(game_id=game.pk, seat=1, now=left_at)
    for voter in (ana, cy):
        services.vote_handover(game_id=game.pk, user=voter, seat=1, now=left_at + 60)
    assert "the table hands {p0}'s seat to a computer player" in _log(cy, game.pk)
    assert "the table hands Ana's seat to a computer player" not in _log(cy, game.pk)


HIDDEN_OR_BACKWARDS = {
    "Ana\u202e": "invisible formatting characters",  # right-to-left override: the line reads backwards after it
    "\u2066Ana": "invisible formatting characters",  # left-to-right isolate
    "An\u200ba": "invisible formatting characters",  # zero-width space: passes for "Ana"
    "Ana\ufeff": "invisible formatting characters",
    "Ana\x07": "control characters",
    "Ana\x1b[31m": "control characters",
    "\u200d": "at least one visible character",
    "\u0301\u0301": "at least one visible character",
    "\u3164 \u2800": "at least one visible character",  # a Hangul filler and a blank Braille cell
}
WELL_FORMED = ["Ana", "Zoë", "سارا", "שרה", "\U0001f469\u200d\U0001f680 Ana", "Ana (watching)", "{p1}", "<b>Ana</b>"]


@pytest.mark.parametrize("name", HIDDEN_OR_BACKWARDS)
def test_a_guest_name_that_hides_or_turns_text_is_refused_saying_why_and_signs_nobody_in(name):
    visitor = Client()
    answer = visitor.post("/guest/", {"display_name": name, "next": "/"}, follow=True)
    assert HIDDEN_OR_BACKWARDS[name] in answer.content.decode()
    assert not answer.wsgi_request.user.is_authenticated
    assert not Profile.objects.exists()
    assert visitor.post("/api/tokens/", data={"name": "bot"}, content_type="application/json").status_code == 401


@pytest.mark.parametrize("name", HIDDEN_OR_BACKWARDS)
def test_the_learn_form_and_sign_up_refuse_the_same_names(name):
    learner = Client()
    answer = learner.post("/learn/snowball-fight/", {"display_name": name})
    assert answer.status_code == 400 and HIDDEN_OR_BACKWARDS[name] in answer.content.decode()
    answer = Client().post("/accounts/signup/", {"username": "ana", "password1": "snow-ball-1234x",
                                                 "password2": "snow-ball-1234x", "display_name": name})
    assert answer.status_code == 200 and HIDDEN_OR_BACKWARDS[name] in answer.content.decode()
    assert not Profile.objects.exists()


@pytest.mark.parametrize("name", WELL_FORMED)
def test_names_in_any_script_with_emoji_or_brackets_are_kept_as_written(name):
    visitor = Client()
    visitor.post("/guest/", {"display_name": name})
    assert Profile.objects.get().display_name == name


@pytest.mark.parametrize("space", ["\n", "\t", "\r\n", "\x0b", "\x85", "\u2028", "  ", "\u3000"])
def test_white_space_of_any_kind_in_a_name_is_one_space_as_the_api_document_says(space):
    visitor = Client()
    visitor.post("/guest/", {"display_name": f"{space}Ana{space}Ben{space}"})
    assert Profile.objects.get().display_name == "Ana Ben"


@pytest.mark.parametrize("name, why", [("{p1}", "a brace ({)"), ("{p0}'s Kid", "a brace ({)"),
                                       ("Cy\u202eXY", "a bidirectional override (U+202E)"),
                                       ("An\u200ba", "an invisible formatting character (U+200B)"),
                                       ("Bo\x07", "a control character (U+0007)"), ("<b>Bo</b>", "an angle bracket (<)")])
def test_a_kid_named_like_a_place_for_a_name_or_turning_text_is_refused_naming_the_kid_and_why(make_user, name, why):
    ana = make_user("Ana")
    _, key = ApiToken.issue(user=ana, name="bot")
    kids = [{"name": kid, "seat": index % 2} for index, kid in enumerate(["Holly", "Ivy", name, "Noel", "Robin", "Carol"])]
    answer = Client(HTTP_AUTHORIZATION=f"Token {key}").post(
        "/api/games/", data={"game_type": "what-a-snowball", "options": {"kids": kids}}, content_type="application/json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["error"]["message"]
    assert "Kid 3" in message and f"may not contain {why}" in message, message
    assert not Game.objects.exists()


@pytest.mark.parametrize("first, second", [("Ana", "Ana"), ("Ana", "ANA"), ("Ana", "Ａｎａ"), ("Ana ", "ana")])
def test_two_players_with_one_name_are_told_apart_by_their_seats_everywhere_the_table_reads_them(
        make_user, first, second):
    ana, other = make_user(first, guest=True), make_user(second, guest=True)
    game = started_game(ana, other)
    services.post_message(game_id=game.pk, user=ana, channel="table", text="good luck")
    services.resign(game_id=game.pk, user=other)
    view = _view(ana, game.pk)
    names = [p["name"] for p in view["players"]]
    assert names == [f"{first.strip()} (seat 1)", f"{second.strip()} (seat 2)"]
    assert f"{second.strip()} (seat 2) resigns" in [line["text"] for line in view["log"]]
    assert view["outcome"]["reason"] == f"{second.strip()} (seat 2) resigned"
    chat = Client(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user=other, name='c')[1]}").get(
        f"/api/games/{game.pk}/chat/")
    assert chat.status_code == 200, chat.content
    said = [m for m in chat.json()["messages"] if m["text"] == "good luck"]
    assert [m["name"] for m in said] == [f"{first.strip()} (seat 1)"]


def test_a_guest_named_like_a_computer_player_is_told_apart_from_it_and_a_lone_name_is_left_as_it_is(make_user):
    impostor, ben = make_user("computer 3", guest=True), make_user("Ben", guest=True)
    game = started_game(impostor, ben, game_type="snowball-fighting", bots=1)
    names = [p["name"] for p in _view(ben, game.pk)["players"]]
    assert names == ["computer 3 (seat 1)", "Ben", "Computer 3 (seat 3)"]


def test_a_kid_named_after_its_player_is_not_named_twice_in_the_log(make_user):
    """A Kid named as its player (Holly, played by " HOLLY ") reads "Holly" in the log, not
    "Holly (HOLLY)"; the player's other Kids still say whose they are ("Noel (HOLLY)")."""
    holly, ben = make_user(" HOLLY ", guest=True), make_user("Ben", guest=True)
    game = started_game(holly, ben, game_type="what-a-snowball")
    lines: set[str] = set()
    while not all(any(line.startswith(f"{who} takes position") for line in lines) for who in ("Holly", "Noel (HOLLY)")):
        assert play_one(game.pk, {0: holly, 1: ben}), "the Kids were never all placed"
        lines |= set(_log(ben, game.pk))
    assert [line for line in lines if line.startswith("Holly (")] == []


@pytest.mark.parametrize("text, read", [("Holly ({p0}) activates.", "Holly activates."),
                                        ("Noel knocks holly ({p0}) over.", "Noel knocks holly over."),
                                        ("Noel ({p0}) activates.", "Noel (HOLLY) activates."),
                                        ("MollyHolly ({p0}) activates.", "MollyHolly (HOLLY) activates."),
                                        ("Holly ({p1}) activates.", "Holly (Ben) activates.")])
def test_a_log_line_names_a_kid_s_player_unless_the_kid_has_the_player_s_name(text, read):
    assert selectors.fill_names(text, ["HOLLY", "Ben"]) == read
