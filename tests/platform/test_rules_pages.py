"""The rules pages (/rules/<slug>/): how to play and the house rulings of every game, the
links to them from the lobby, the new-game page, the game page and the result, and the
result of a game ended by a house ruling linking straight to that ruling."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from games import engines, rendering, selectors
from games.engines.snowball_fight import RULESET as SBF
from games.models import Game
from tests.platform.helpers import play_to_end, started_game

pytestmark = pytest.mark.django_db

SLUGS = ["jingle-bells", "snowball-fight", "snowball-fighting", "what-a-snowball"]


def test_every_game_has_a_rules_page():
    assert sorted(r.slug for r in engines.all_rulesets()) == SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_a_games_rules_page_has_how_to_play_and_its_house_rulings_with_anchors(slug):
    page = Client().get(f"/rules/{slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"<h1>{engines.get(slug).name}</h1>".replace("'", "&#x27;") in html
    assert "How to play</h2>" in html and "House rulings</h2>" in html
    how_to_play = html[html.index('id="how-to-play"'):html.index('id="house-rulings"')]
    assert how_to_play.count("<p>") >= 3
    ids = re.findall(r'<section class="ruling" id="([a-z0-9-]+)">', html)
    assert len(ids) >= 5 and len(set(ids)) == len(ids)
    for anchor in ids:
        assert f'href="#{anchor}"' in html
    assert f'href="/games/new/{slug}/"' in html


def test_the_snowball_fight_page_words_the_scoring_and_the_turn_limit():
    html = Client().get("/rules/snowball-fight/").content.decode()
    turn_limit = html[html.index('id="turn-limit"'):]
    turn_limit = turn_limit[:turn_limit.index("</section>")]
    assert "once turn 100 is" in turn_limit and "Arsenal piles count as depleted" in turn_limit
    assert "cards in a Weapons Cache do not" in html


def test_an_unknown_game_has_no_rules_page():
    assert Client().get("/rules/snowball-fights/").status_code == 404
    assert Client().get("/rules/what_a_snowball/").status_code == 404


def test_the_lobby_and_the_new_game_pages_link_to_the_rules():
    lobby = Client().get("/").content.decode()
    for slug in SLUGS:
        assert f'href="/rules/{slug}/"' in lobby
        assert f'href="/rules/{slug}/"' in Client().get(f"/games/new/{slug}/").content.decode()


def test_the_game_page_and_its_result_link_to_the_rules(make_user):
    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    assert game.status == Game.Status.FINISHED and game.outcome
    client = Client()
    client.force_login(ana)
    html = client.get(f"/games/{game.pk}/").content.decode()
    result = html[html.index('aria-label="Result"'):html.index("</section>", html.index('aria-label="Result"'))]
    assert 'href="/rules/snowball-fight/"' in html[:html.index('aria-label="Result"')]  # the page's head
    assert 'href="/rules/snowball-fight/"' in result
    assert "cards in a Weapons Cache do not" in result
    # the game's seed is random: the computer players may run it to the turn limit, rarely
    by_the_ruling = game.outcome["code"] == "turn_limit"
    assert ("#turn-limit" in html) == by_the_ruling
    assert ("ended by the house ruling" in result) == by_the_ruling


def turn_limit_outcome():
    """The outcome of a two-player game whose computer players never empty the Arsenal."""
    state = SBF.new_game(players=2, options={}, seed=169)
    while SBF.outcome(state) is None:
        seat = min(SBF.to_act(state))
        state, _ = SBF.apply(state, seat, SBF.bot_action(state, seat))
    outcome = SBF.outcome(state)
    assert outcome["code"] == "turn_limit" and state["turn"] > 100
    return outcome


def test_a_result_ended_by_the_turn_limit_links_straight_to_the_ruling(make_user):
    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    game.outcome = turn_limit_outcome()
    game.save(update_fields=["outcome"])
    for seat, user in ((0, ana), (None, None)):
        html = rendering.live_html(game, selectors.viewer_payload(game, seat), user)
        assert ('This game ended by the house ruling <a href="/rules/snowball-fight/#turn-limit"'
                in html)
        assert "“Turn limit”</a>" in html
        assert 'house ruling "Turn limit"' in html.replace("&quot;", '"')  # the reason, in words


def test_cached_cards_are_listed_in_the_result_as_not_scoring(make_user):
    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    outcome = dict(game.outcome)
    outcome["breakdown"] = [rows + ([{"id": "c20", "card": "Weapons Cache / Backfire", "points": 0,
                                      "cached": True, "note": "in a Weapons Cache: does not score"}]
                                    if seat == 0 else [])
                            for seat, rows in enumerate(outcome["breakdown"])]
    game.outcome = outcome
    game.save(update_fields=["outcome"])
    html = rendering.live_html(game, selectors.viewer_payload(game, None), None)
    assert ('Weapons Cache / Backfire <span class="muted">(in a Weapons Cache: does not score)</span> '
            '<span class="pts">0</span>') in html


def test_a_player_left_with_nothing_that_scores_is_told_so_in_the_result(make_user):
    ana = make_user("Ana")
    game = play_to_end(started_game(ana, bots=1).pk, {0: ana})
    outcome = dict(game.outcome)
    outcome["breakdown"] = [[] if seat == 1 else rows for seat, rows in enumerate(outcome["breakdown"])]
    outcome["scores"] = [score if seat != 1 else 0 for seat, score in enumerate(outcome["scores"])]
    game.outcome = outcome
    game.save(update_fields=["outcome"])
    html = rendering.live_html(game, selectors.viewer_payload(game, None), None)
    columns = html[html.index('class="score-columns"'):]
    second = columns[columns.index('class="score-col"', columns.index('class="score-col"') + 1):]
    assert ": 0 points</h3>" in second[:second.index("</div>")]
    assert "Nothing left that scores." in second[:second.index("</div>")]
