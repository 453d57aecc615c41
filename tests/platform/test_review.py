"""Reviewing a game and checking its dice, through the JSON API and the pages: what a
player, a spectator and a script see, and what they must not see before the end."""
from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client

from games import selectors
from games.models import ActionRecord, Game
from tests.platform.helpers import api_client, play_one, play_to_end, started_game

pytestmark = pytest.mark.django_db


def _finished(make_user, game_type: str = "snowball-fight"):
    ana = make_user("Ana")
    game = started_game(ana, bots=1, game_type=game_type)
    return ana, play_to_end(game.pk, {0: ana})


def _secrets_in(text: str, game: Game) -> list[str]:
    return [s for s in (str(game.seed), game.seed_salt) if s in text]


def test_in_play_everyone_sees_the_commitment_and_no_one_the_seed_or_salt(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    for who in (ana, ben, None):
        client = api_client(who)
        view = client.get(f"/api/games/{game.pk}/").json()
        assert view["dice"] == {"commitment": game.seed_commitment, "seed": None, "salt": None}
        review = client.get(f"/api/games/{game.pk}/review/")
        assert review.status_code == 200 and review.json()["dice"]["seed"] is None
        verify = client.get(f"/api/games/{game.pk}/verify/")
        assert verify.status_code == 403 and verify.json()["error"]["code"] == "forbidden"
        for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/review/?step=0"):
            assert _secrets_in(client.get(url).content.decode(), game) == []
    page = Client()
    page.force_login(ben)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/review/", f"/games/{game.pk}/review/?step=0"):
        html = page.get(url).content.decode()
        assert _secrets_in(html, game) == [] and game.seed_commitment[:16] in html


def test_in_play_a_review_shows_only_what_a_spectator_saw(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    answer = api_client(ana).get(f"/api/games/{game.pk}/review/?seat=0")
    assert answer.status_code == 403
    assert "spectator" in answer.json()["error"]["message"]
    latest = api_client(ana).get(f"/api/games/{game.pk}/review/").json()
    assert latest["seat"] is None and latest["version"] == game.version
    assert latest["view"] == selectors.viewer_payload(game, None)["view"]
    assert latest["view"] != selectors.viewer_payload(game, 0)["view"]


def test_in_play_a_review_does_not_say_who_took_a_step_and_after_the_end_it_does(make_user):
    """Who marked a sealed card is no one's business but the table's log's until the end."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben)
    assert play_one(game.pk, {0: ana})
    step = selectors.get_game(game.pk).log_length
    for who in (ben, None):
        answer = api_client(who).get(f"/api/games/{game.pk}/review/?step={step}").json()
        assert answer["actor"] is None and answer["source"] is None
    page = Client()
    page.force_login(ben)
    assert not re.search(rf"Step {step} · ", page.get(f"/games/{game.pk}/review/?step={step}").content.decode())
    play_to_end(game.pk, {0: ana, 1: ben})
    answer = api_client(ben).get(f"/api/games/{game.pk}/review/?step={step}").json()
    assert answer["actor"] == 0 and answer["source"] == "player"
    assert re.search(rf"Step {step} · <a [^>]*>Ana</a>", page.get(f"/games/{game.pk}/review/?step={step}").content.decode())


def test_after_the_end_the_seed_is_published_and_the_game_verifies(make_user):
    ana, game = _finished(make_user)
    for who in (ana, None):
        answer = api_client(who).get(f"/api/games/{game.pk}/verify/").json()
        assert answer["match"] is True and all(answer["checks"].values())
        assert answer["seed"] == game.seed and answer["salt"] == game.seed_salt
        assert hashlib.sha256(f"{answer['seed']}:{answer['salt']}".encode()).hexdigest() == answer["commitment"]
        assert answer["actions"] == game.log_length and answer["outcome"] == game.outcome
        assert api_client(who).get(f"/api/games/{game.pk}/").json()["dice"]["seed"] == game.seed


def test_a_game_whose_log_was_changed_does_not_verify(make_user):
    ana, game = _finished(make_user)
    record = ActionRecord.objects.filter(game=game, seat=0, source="player").order_by("seq").first()
    original = record.action
    others = [a for a in _other_actions(game, record) if a != original]
    assert others, "the first move had a choice"
    ActionRecord.objects.filter(pk=record.pk).update(action=others[0])
    try:
        game = Game.objects.get(pk=game.pk)
        answer = api_client().get(f"/api/games/{game.pk}/verify/").json()
        assert answer["match"] is False
        html = Client().get(f"/games/{game.pk}/review/").content.decode()
        assert 'class="mismatch"' in html
    finally:
        ActionRecord.objects.filter(pk=record.pk).update(action=original)
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # a new replay for the new log
    assert api_client().get(f"/api/games/{game.pk}/verify/").json()["match"] is True


def _other_actions(game: Game, record: ActionRecord) -> list[dict]:
    from games import engines
    from games.selectors.review import build_replay

    ruleset = engines.get(game.game_type)
    replay = build_replay(game)
    before = replay.state_at([s.version for s in replay.steps].index(record.version) - 1)
    return ruleset.legal_actions(before, record.seat)


def test_after_the_end_each_seat_sees_its_own_hidden_cards_at_every_step(make_user):
    ana, game = _finished(make_user)
    client = api_client()
    summary = client.get(f"/api/games/{game.pk}/review/").json()
    assert summary["step"] == summary["steps"] - 1 and summary["marks"]["turns"][0] == 0
    middle = summary["marks"]["reveals"][0] - 1
    views = {seat: client.get(f"/api/games/{game.pk}/review/?step={middle}&seat={seat}").json()["view"]
             for seat in (0, 1)}
    spectator = client.get(f"/api/games/{game.pk}/review/?step={middle}").json()["view"]
    assert views[0] != views[1] and spectator not in (views[0], views[1])


@pytest.mark.parametrize("query, says", [
    ("step=-1", '"step" must be written with the digits 0-9 only'),
    ("step=abc", '"step" must be written with the digits 0-9 only'),
    ("step=99999", "step must be 0 to"),
    ("seat=9", "there is no seat 9"),
    ("seat=1.5", '"seat" must be written with the digits 0-9 only'),
])
def test_a_bad_step_or_seat_is_a_clear_error(make_user, query, says):
    _, game = _finished(make_user)
    answer = api_client().get(f"/api/games/{game.pk}/review/?{query}")
    assert answer.status_code == 400, answer.content
    assert says in answer.json()["error"]["message"]


def test_a_private_game_is_reviewed_only_by_those_who_may_watch_it(make_user):
    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1, is_public=False).pk, {0: ana})
    assert api_client().get(f"/api/games/{game.pk}/review/").status_code == 404
    assert api_client().get(f"/api/games/{game.pk}/verify/").status_code == 404
    assert api_client(ana).get(f"/api/games/{game.pk}/verify/").json()["match"] is True
    assert game.pk not in [g.pk for g in selectors.recently_finished_games()]
    assert [g.pk for g in selectors.finished_games_of(ana)] == [game.pk]


def test_the_lobby_and_my_games_link_finished_games_to_their_reviews(make_user):
    ana, game = _finished(make_user)
    review_url = f"/games/{game.pk}/review/"
    assert review_url in Client().get("/").content.decode()
    page = Client()
    page.force_login(ana)
    assert review_url in page.get("/me/games/").content.decode()
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert review_url in html and str(game.seed) in html and game.seed_salt in html


def test_the_review_page_draws_each_step_without_buttons(make_user):
    ana, game = _finished(make_user)
    page = Client()
    page.force_login(ana)
    last = page.get(f"/games/{game.pk}/review/?seat=0")
    assert last.status_code == 200
    html = last.content.decode()
    assert 'class="board-wrap review-board" inert' in html and "ws-send" not in html.split("review-board")[1]
    assert page.get(f"/games/{game.pk}/review/?step=999999").status_code == 302


def test_a_player_reviews_a_finished_game_through_their_own_eyes_until_they_choose_another(make_user):
    ana, game = _finished(make_user)
    page = Client()
    page.force_login(ana)
    html = page.get(f"/games/{game.pk}/review/?step=1").content.decode()
    assert 'data-seat="0"' in html and re.search(r'<option value="0" selected>', html)
    assert re.search(r'id="review-next"[^>]*href="[^"]*step=2&(amp;)?seat=0"', html)
    html = page.get(f"/games/{game.pk}/review/?step=1&seat=spectator").content.decode()
    assert 'data-seat=""' in html and re.search(r'<option value="spectator" selected>', html)
    assert re.search(r'id="review-next"[^>]*href="[^"]*step=2&(amp;)?seat=spectator"', html)  # it stays a spectator's
    html = Client().get(f"/games/{game.pk}/review/?step=1").content.decode()  # someone who did not play
    assert 'data-seat=""' in html and re.search(r'id="review-next"[^>]*href="[^"]*step=2"', html)


def test_the_documented_check_it_yourself_code_verifies_a_finished_game(make_user, monkeypatch, capsys):
    import io
    import re
    import urllib.request
    from pathlib import Path

    for game_type in ("snowball-fight", "jingle-bells"):
        ana, game = _finished(make_user, game_type)
        doc = (Path(__file__).resolve().parents[2] / "docs" / "verifiable-dice.md").read_text()
        code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
        code = re.sub(r'COMMITMENT = "[^"]*"', f'COMMITMENT = "{game.seed_commitment}"', code)
        fetched = []

        def urlopen(url):
            fetched.append(url)
            return io.BytesIO(Client().get(f"/api/games/{game.pk}/verify/").content)

        monkeypatch.setattr(urllib.request, "urlopen", urlopen)
        exec(compile(code, "verifiable-dice.md", "exec"), {})
        assert capsys.readouterr().out.strip() == "True" and fetched


@pytest.mark.parametrize("game_type", ["snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball"])
def test_each_game_draws_its_review_with_its_own_board_at_every_kind_of_step(make_user, game_type):
    ana, game = _finished(make_user, game_type)
    page = Client()
    page.force_login(ana)
    steps = api_client().get(f"/api/games/{game.pk}/review/").json()["steps"]
    for step in sorted({0, 1, steps // 2, steps - 1}):
        for seat in ("", "0", "1"):
            answer = page.get(f"/games/{game.pk}/review/?step={step}&seat={seat}")
            assert answer.status_code == 200, (step, seat)
            html = answer.content.decode()
            assert f'data-step="{step}"' in html and 'class="board-wrap review-board" inert' in html
            turn = api_client().get(f"/api/games/{game.pk}/review/?step={step}").json()["turn"]
            assert re.search(rf' selected>turn {turn} \(step \d+\)</option>', html), (step, turn)
    assert 'class="verified"' in html and "Game over" in html


@pytest.mark.parametrize("game_type", ["snowball-fight", "what-a-snowball"])
def test_a_game_ended_by_resigning_replays_to_its_result(make_user, game_type):
    from games import services

    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=game_type)
    services.resign(game_id=game.pk, user=ben)
    game = Game.objects.get(pk=game.pk)
    assert game.outcome["code"] == "resigned"
    answer = api_client(ana).get(f"/api/games/{game.pk}/verify/").json()
    assert answer["match"] is True, answer["checks"]
    assert answer["replayed_outcome"] == game.outcome
    assert answer["log"][-1]["source"] == "resign"


def test_a_game_not_started_has_nothing_to_review(make_user):
    from games import services

    ana = make_user("Ana")
    game = services.create_game(creator=ana, game_type="snowball-fight")
    answer = api_client(ana).get(f"/api/games/{game.pk}/review/")
    assert answer.status_code == 409 and "not started" in answer.json()["error"]["message"]
    page = Client().get(f"/games/{game.pk}/review/?step=0")
    assert page.status_code == 302 and page["Location"] == f"/games/{game.pk}/review/"
    page = Client().get(page["Location"])
    assert page.status_code == 302 and page["Location"] == f"/games/{game.pk}/"


def test_a_what_a_snowball_review_jumps_to_each_turns_initiative_and_names_each_reveal(make_user):
    from games.engines.what_a_snowball import RULESET as WAS
    from games.models import ActionRecord
    from tests.platform.helpers import play_one

    ana = make_user("Ana")
    game = started_game(ana, bots=1, game_type="what-a-snowball")
    while not any(event["type"] == "turn" for record in ActionRecord.objects.filter(game=game)
                  for event in record.events):
        assert play_one(game.pk, {0: ana})
    answer = api_client().get(f"/api/games/{game.pk}/review/").json()
    marks = answer["marks"]
    assert marks["reveals"] and [r["step"] for r in marks["reveal_lines"]] == marks["reveals"]
    first = marks["reveal_lines"][0]
    assert first["text"].startswith("Turn 1 of 6. Activation rolls:")
    step = api_client().get(f"/api/games/{game.pk}/review/?step={first['step']}").json()
    assert first["text"] in [line["text"] for line in step["log"]] and step["turn"] == 1
    assert set(WAS.review_reveals) >= {"turn", "card"}
    page = api_client().get(f"/games/{game.pk}/review/?step=0").content.decode()
    reveal_select = page.split('id="review-reveal"')[1].split("</select>")[0]
    assert f'<option value="{first["step"]}"' in reveal_select and "Turn 1 of 6" in reveal_select


def test_a_what_a_snowball_review_offers_no_settings_or_surrender_and_the_live_page_does(make_user):
    ana = make_user("Ana")
    live = started_game(ana, bots=1, game_type="what-a-snowball")
    page = Client()
    page.force_login(ana)
    assert "Settings and surrender" in page.get(f"/games/{live.pk}/").content.decode()
    ana, game = _finished(make_user, "what-a-snowball")
    page.force_login(ana)
    for step in (3, 30):  # through her own eyes, in the middle of the game
        html = page.get(f"/games/{game.pk}/review/?step={step}&seat=0").content.decode()
        assert 'data-seat="0"' in html and "Settings and surrender" not in html


def _seen_by(client: Client, game: Game) -> list[tuple[str, str, bool]]:
    """The review's "Seen by" list: each option's seat, words and whether it is the one chosen."""
    page = client.get(f"/games/{game.pk}/review/").content.decode()
    select = page.split('id="review-seat"', 1)[1].split("</select>", 1)[0]
    return [(value, words, bool(chosen)) for value, chosen, words
            in re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select)]


def test_the_seen_by_list_names_the_reviewing_player_as_you(make_user):
    ana, bob = make_user("Ana"), make_user("Bob")
    game = play_to_end(started_game(ana, bob).pk, {0: ana, 1: bob})
    client = Client()
    client.force_login(bob)
    assert _seen_by(client, game) == [("spectator", "a spectator", False), ("0", "Ana", False), ("1", "Bob (you)", True)]
    client.force_login(ana)
    assert _seen_by(client, game) == [("spectator", "a spectator", False), ("0", "Ana (you)", True), ("1", "Bob", False)]
    assert [words for _, words, _ in _seen_by(Client(), game)] == ["a spectator", "Ana", "Bob"]
    eve = Client()
    eve.force_login(make_user("Eve"))
    assert "(you)" not in " ".join(words for _, words, _ in _seen_by(eve, game))


@pytest.mark.parametrize("game_type", ["snowball-fight", "jingle-bells", "snowball-fighting", "what-a-snowball"])
def test_the_reveal_list_names_the_last_step_of_a_resigned_game_by_its_result(make_user, game_type):
    """Its last step, Ben's resignation, is in the Reveal list as "Game over: Ben resigned",
    chosen there when the review opens at the end (the list read "…")."""
    from games import services

    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=game_type)
    for _ in range(6):
        play_one(game.pk, {0: ana, 1: ben})
    services.resign(game_id=game.pk, user=ben)
    answer = api_client(ana).get(f"/api/games/{game.pk}/review/").json()
    last = answer["steps"] - 1
    assert answer["marks"]["reveal_lines"][-1] == {"step": last, "text": "Game over: Ben resigned"}
    assert answer["marks"]["reveals"] == [line["step"] for line in answer["marks"]["reveal_lines"]]
    page = Client()
    page.force_login(ana)
    reveal_select = page.get(f"/games/{game.pk}/review/").content.decode().split('id="review-reveal"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\d+)" selected[^>]*>([^<]*)</option>', reveal_select) == [
        (str(last), f"step {last}: Game over: Ben resigned")]
