"""Jingle Bells through the play service: a person against the computer, timeouts, the HTML each viewer gets."""
from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from games import engines, rendering, selectors, services
from games.engines.jingle_bells import engine as jb_engine
from games.engines.jingle_bells import rulings as jb_rulings  # worded with the real limit before a test lowers it
from games.models import ActionRecord, Game
from games.selectors.ratings import player_profile
from tests.platform.helpers import play_one, play_to_end, started_game

pytestmark = pytest.mark.django_db

SLUG = "jingle-bells"


def test_the_lobby_and_the_api_list_jingle_bells_with_its_layouts(make_user):
    client = Client()
    assert "Jingle Bells" in client.get("/").content.decode()
    page = client.get(f"/games/new/{SLUG}/").content.decode()
    assert "Table layout" in page and "Random" in page
    types = {t["slug"]: t for t in client.get("/api/game-types/").json()["game_types"]}
    assert types[SLUG]["min_players"] == types[SLUG]["max_players"] == 2


def test_a_person_plays_a_whole_game_against_the_computer(make_user):
    ana = make_user("Ana")
    game = started_game(ana, game_type=SLUG, bots=1, options={"layout": "park"})
    seen_phases = set()
    for _ in range(2000):
        game = selectors.get_game(game.pk)
        state = selectors.game_state(game)
        seen_phases.add(state["phase"])
        if not play_one(game.pk, {0: ana}):
            break
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED
    assert {"draft", "deploy", "dice", "actions"} <= seen_phases
    assert services.replay(game=game) == game.state
    assert ActionRecord.objects.filter(game=game, source="bot").exists()
    outcome = game.outcome
    assert outcome["winners"] in ([0], [1]) and 4 in outcome["scores"]
    for seat, user in ((0, ana), (None, None)):
        payload = selectors.viewer_payload(game, seat)
        assert "{p" not in " ".join(line["text"] for line in payload["log"])
        html = rendering.live_html(game, payload, user)
        assert "Game over" in html and 'id="jb-board"' in html
        assert "lost its head" in html and "{p" not in html
        assert "4 cold tokens on the enemy snowman" in html and " points<" not in html


def test_a_game_started_in_the_browser_renders_for_players_and_spectators(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=SLUG)
    for _ in range(200):  # through the draft and the setup, until the fight is on
        if selectors.game_state(selectors.get_game(game.pk))["phase"] not in ("draft", "deploy"):
            break
        play_one(game.pk, {0: ana, 1: ben})
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.ACTIVE
    pages = {seat: rendering.live_html(game, selectors.viewer_payload(game, seat), user)
             for seat, user in ((0, ana), (1, ben), (None, None))}
    assert selectors.game_state(game)["phase"] not in ("draft", "deploy")  # the fight is on
    for seat, html in pages.items():
        assert f'data-seat="{"" if seat is None else seat}"' in html
        assert "Ana" in html and "Ben" in html and "{p" not in html
        assert "js/jingle-bells" in html  # the board's script loader
    assert "jb-toggle" in pages[0] and "jb-toggle" not in pages[None]
    # the spectator's page is shared: the same HTML for any spectator at this version
    assert rendering.live_html(game, selectors.viewer_payload(game, None), None) == pages[None]


def test_every_prompt_has_a_default_the_service_can_apply(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=SLUG)
    phases = []
    for _ in range(30):
        game = selectors.get_game(game.pk)
        deadline = services.next_deadline(game)
        if deadline is None:
            break
        assert services.apply_timeouts(game_id=game.pk, now=deadline + 1) is not None
        phases.append(selectors.game_state(selectors.get_game(game.pk))["phase"])
    assert "deploy" in phases and "dice" in phases and "actions" in phases
    assert ActionRecord.objects.filter(game=game, source="timeout").count() >= 8


def test_setting_automatic_dodging_is_private_and_never_stale_for_the_waiting_seat(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=SLUG)
    waiting = 1 - next(iter(engines.get(SLUG).to_act(game.state)))
    user = (ana, ben)[waiting]
    logs = {seat: selectors.viewer_payload(game, seat)["log"] for seat in (0, 1, None)}
    services.submit_action(game_id=game.pk, user=user, action={"type": "set_auto_dodge", "on": True},
                           action_id=uuid.uuid4().hex, version=game.version)
    game = selectors.get_game(game.pk)
    assert game.state["auto_dodge"][waiting] is True
    mine = selectors.viewer_payload(game, waiting)
    theirs = selectors.viewer_payload(game, 1 - waiting)
    assert mine["view"]["auto_dodge"] is True and theirs["view"]["auto_dodge"] is False
    # a setting is not a game event: no one's log changes, not even its own player's
    assert {seat: selectors.viewer_payload(game, seat)["log"] for seat in (0, 1, None)} == logs
    html = rendering.live_html(game, mine, user)
    assert re.search(r'class="jb-toggle[^"]*"[^>]*aria-checked="true"', html)
    finished = play_to_end(game.pk, {0: ana, 1: ben})
    assert finished.status == Game.Status.FINISHED


def test_players_who_are_away_meet_the_turn_limit_and_the_result_says_it_is_a_draw(make_user, monkeypatch):
    """Nobody acts: every default is played at its deadline (a pass on every turn), so no snowball is
    ever thrown and the house ruling "Turn limit" ends the game, here after turn 2, in a draw."""
    monkeypatch.setattr(jb_engine, "MAX_TURNS", 2)
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=SLUG)
    for _ in range(200):
        game = selectors.get_game(game.pk)
        deadline = services.next_deadline(game)
        if deadline is None:
            break
        services.apply_timeouts(game_id=game.pk, now=deadline + 1)
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED and game.state["turn"] == 2
    assert game.outcome == {"code": "turn_limit", "winners": [], "losers": [], "scores": [0, 0],
                            "reason": 'Turn 2 was the last (house ruling "Turn limit") and both snowmen have no '
                                      "cold tokens: a draw."}
    assert services.replay(game=game) == game.state
    for seat, user in ((0, ana), (1, ben), (None, None)):
        html = rendering.live_html(game, selectors.viewer_payload(game, seat), user)
        result = html[html.index('aria-label="Result"'):]
        result = result[:result.index("</section>")]
        assert "No winner." in result and "a draw." in result
        assert ('This game ended by the house ruling <a href="/rules/jingle-bells/#turn-limit"' in result
                and "“Turn limit”</a>" in result)
        board = html[html.index('id="jb-board"'):]
        assert '<h3>A draw</h3>' in board and " wins</h3>" not in board
        assert 'the end of turn 2: the game ended by the house ruling <a href="/rules/jingle-bells/#turn-limit"' in board
        assert "{p" not in html
    page = Client()
    page.force_login(ana)  # a draw is a draw on the player's own pages too, not a loss
    assert re.search(r'<td class="my-result"[^>]*>\s*Drew', page.get("/me/games/").content.decode())
    assert player_profile(ana, viewer=ana)["recent"][0]["result"] == "drew"


def test_a_game_won_at_the_turn_limit_names_its_winner_and_the_ruling(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = play_to_end(started_game(ana, ben, game_type=SLUG).pk, {0: ana, 1: ben})
    game.outcome = {"code": "turn_limit", "winners": [1], "losers": [0], "scores": [1, 2],
                    "reason": f'Turn {jb_engine.MAX_TURNS} was the last (house ruling "Turn limit") and '
                              "{p0}'s snowman has more cold tokens: 2 against {p1}'s 1."}
    game.save(update_fields=["outcome"])
    for seat, user in ((0, ana), (None, None)):
        html = rendering.live_html(game, selectors.viewer_payload(game, seat), user)
        result = html[html.index('aria-label="Result"'):]
        result = result[:result.index("</section>")]
        assert "Ben</a> wins!" in result or "Ben wins!" in result
        assert "Ana&#x27;s snowman has more cold tokens: 2 against Ben&#x27;s 1." in result
        assert 'This game ended by the house ruling <a href="/rules/jingle-bells/#turn-limit"' in result
        board = html[html.index('id="jb-board"'):]
        assert "<h3>Ben wins</h3>" in board and f"the end of turn {jb_engine.MAX_TURNS}: the game ended" in board


def test_the_rules_page_words_the_turn_limit():
    html = Client().get(f"/rules/{SLUG}/").content.decode()
    section = html[html.index('id="turn-limit"'):]
    section = section[:section.index("</section>")]
    assert jb_rulings.OUTCOME_RULINGS == {"turn_limit": "turn-limit"}
    assert f"turn {jb_engine.MAX_TURNS}" in section and "fewer cold tokens wins" in section and "draw" in section
    assert 'href="#turn-limit"' in html
