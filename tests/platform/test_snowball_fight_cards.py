"""How a Snowball Fight card reads on the page: its level and its points."""
from __future__ import annotations

import copy
import re

import pytest
from django.template.loader import render_to_string

from games import rendering, selectors, services
from games.engines.snowball_fight import views as fight_views
from games.engines.snowball_fight.cards import _CARD_DICTS, NO_EFFECT, card_dict
from games.models import Game
from django.test import Client

from tests.platform.helpers import play_one, started_game


def _band_and_label(card_id: str) -> tuple[str, str]:
    html = render_to_string("games/snowball-fight/card.html", {"card": card_dict(card_id)})
    band = re.search(r'<div class="sbf-band">(.*?)</div>', html).group(1)
    label = re.search(r'aria-label="([^"]*)"', html).group(1)
    return re.sub(r"<[^>]+>", " ", band).split(), label


def test_a_no_effect_card_shows_its_points_and_no_level():
    band, label = _band_and_label(NO_EFFECT[0])
    assert band == ["0", "pts"]
    assert label == "No Effect / No Effect, 0 points"
    assert "none" not in label.lower()


def test_a_card_with_a_level_shows_it_before_its_points():
    band, label = _band_and_label("c07")
    assert band == ["Advanced", "2", "pts"]
    assert label == "Slushball Attack / Dodge, advanced, 2 points"


_CARD_ID = re.compile(r"\bc\d\d[a-z]?\b")


def _visible_text(html: str) -> str:
    """What a player reads: the page's text, without tags, attributes, scripts or styles."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_a_card_face_shows_its_sides_level_and_points_but_not_the_sites_card_id():
    html = render_to_string("games/snowball-fight/card.html", {"card": card_dict("c12b")})
    text = _visible_text(html)
    assert "c12b" not in text
    card = card_dict("c12b")
    for words in (card["level"].capitalize(), f'{card["points"]} pts', card["top"]["title"], card["top"]["text"],
                  card["bottom"]["title"], card["bottom"]["text"]):
        assert words in text
    assert 'data-card="c12b"' in html, "the page's script still finds the card by its id"


@pytest.mark.django_db
def test_no_card_id_is_shown_to_a_player_through_a_whole_game(make_user):
    """The game page a player sees, from the draft to the result, names cards by their sides
    and never by the site's ids ("c07", "c12b")."""
    ana, bob = make_user("Ana"), make_user("Bob")
    game = started_game(ana, bob)
    client = Client()
    client.force_login(ana)
    seen = 0
    for step in range(MOVES_AT_MOST):
        if step % 15 == 0 or selectors.get_game(game.pk).status != Game.Status.ACTIVE:
            text = _visible_text(client.get(f"/games/{game.pk}/").content.decode())
            assert not _CARD_ID.findall(text), f"card ids shown at move {step}: {sorted(set(_CARD_ID.findall(text)))}"
            seen += 1
        if not play_one(game.pk, {0: ana, 1: bob}):
            break
    assert selectors.get_game(game.pk).status == Game.Status.FINISHED
    text = _visible_text(client.get(f"/games/{game.pk}/").content.decode())
    assert not _CARD_ID.findall(text)
    assert seen > 3


# More than any game takes: a six-seat game is some 500 moves, and its seed is drawn anew each run.
MOVES_AT_MOST = 3000


@pytest.mark.django_db
@pytest.mark.parametrize("players, teams", [(2, 0), (6, 2)], ids=["two-players", "three-against-three"])
def test_every_viewers_payload_and_page_leave_the_shared_cards_as_they_were(make_user, players, teams, monkeypatch):
    """A card's dict, a play's and a reveal line's pieces are shared by every view that shows
    them: drawing every viewer's payload, JSON frame and page through a whole game must change
    none of them."""
    before = copy.deepcopy(_CARD_DICTS)
    shared: dict[int, tuple[object, object]] = {}
    for name in ("_play_dict", "_text_parts"):
        monkeypatch.setattr(fight_views, name, _keeping_what_it_gives(getattr(fight_views, name), shared))
    users = [make_user(f"P{seat}") for seat in range(players)]
    game = services.create_game(creator=users[0], game_type="snowball-fight", num_seats=players, num_teams=teams)
    if teams:
        services.choose_team(game_id=game.pk, user=users[0], team=0)
    for seat in range(1, players):
        services.join_seat(game_id=game.pk, user=users[seat], number=seat, team=seat % 2 if teams else None)
    services.start_game(game_id=game.pk, user=users[0])
    by_seat = dict(enumerate(users))
    for _ in range(MOVES_AT_MOST):
        game = selectors.get_game(game.pk)
        for seat, user in [*by_seat.items(), (None, None)]:
            snap = selectors.snapshot(game.pk)
            rendering.live_html(game, selectors.payload_for(snap, seat), user)
            selectors.view_frame(snap, seat)
        if not play_one(game.pk, by_seat):
            break
    assert selectors.get_game(game.pk).status == Game.Status.FINISHED
    assert _CARD_DICTS == before
    assert len(shared) > 20, "the reveals' plays and lines were shown"
    changed = [was for value, was in shared.values() if value != was]
    assert not changed, f"a view changed what it shares with others: {changed[:3]}"


def _keeping_what_it_gives(shares, shared: dict[int, tuple[object, object]]):
    """``shares`` (a function whose results every view shares), noting each result as it was first given."""
    def giving(*args):
        value = shares(*args)
        shared.setdefault(id(value), (value, copy.deepcopy(value)))
        return value
    return giving
