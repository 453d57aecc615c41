"""The Snowball Fighting board in the Fogbound garden, rendered from real engine states.

What a player notices: fog over every hex beyond its vision and nobody drawn there, the gnomes it
found, its vision, the sounds it heard in words, the pond, wheelbarrow, fence and the house with
its two kitchen doors, a provisional move to tick, no throws in the two opening turns; a
spectator sees fog everywhere (or nothing fogged when the creator let spectators see all). The
game's name says "Fogbound" in the lobby and on its page, and its table talk offers a shout.
"""
from __future__ import annotations

import html
import random
import re

import pytest

from games import services
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting.garden import KITCHEN, MAPS
from games.templatetags.games_tags import game_title, shout_range
from games.templatetags.snowball_fighting import describe_order, sound_text
from tests.platform.test_snowball_fighting_board import render, text_of

GARDEN = MAPS["fogbound"]
FOG = re.compile(r'<polygon class="sf-fog-hex" data-fog="([A-Z]+\d+)"')
TOKEN = re.compile(r'data-token-seat="(\d)" data-hex="([A-Z]+\d+|KITCHEN)"')


def fog_game(players: int = 3, seed: int = 5, see_all: bool = False, turns: int = 0):
    s = R.new_game(players=players, options={"map": "fogbound", "spectators_see_all": see_all}, seed=seed)
    for x in range(players):
        s, _ = R.apply(s, x, {"type": "setup", "name": f"Fog {x}", "starts": [], "ready": True})
    rng = random.Random(seed)
    while s["turn"] <= turns and R.outcome(s) is None:
        x = rng.choice(sorted(R.to_act(s)))
        s, _ = R.apply(s, x, R.bot_action(s, x))
    return s


def apart(seed_range=range(1, 60)):
    """A game in its orders with seat 0 seeing someone and not someone else."""
    for seed in seed_range:
        s = fog_game(seed=seed, turns=3)
        if s["phase"] != "orders":
            continue
        seen = {c["seat"] for c in R.view(s, 0)["combatants"] if c.get("seen")}
        if len(seen) == 2 and s["combatants"][0]["hex"] != KITCHEN:
            return s
    raise AssertionError("no game where seat 0 sees one opponent and not the other")


def test_a_seat_sees_the_hexes_in_its_vision_and_fog_over_the_rest_with_nobody_drawn_in_it():
    s = apart()
    view = R.view(s, 0)
    visible = set(view["fog"]["visible"])
    page = render(s, 0)
    fogged = set(FOG.findall(page))
    assert fogged == set(GARDEN.hexes) - visible and visible and fogged
    drawn = dict((int(seat), ref) for seat, ref in TOKEN.findall(page))
    hidden = next(c["seat"] for c in view["combatants"] if not c["seen"])
    assert hidden not in drawn and 0 in drawn
    assert all(ref in visible for seat, ref in drawn.items())
    words = text_of(page)
    assert f"Fogbound: you see {view['fog']['vision']} hex" in words
    row = re.search(rf'data-roster-seat="{hidden}".*?</tr>', page, re.S).group(0)
    assert "in the fog" in row and s["combatants"][hidden]["hex"] not in row
    assert "sf-pond" in page and "sf-wheelbarrow" in page and 'class="sf-fence"' in page
    assert "THE HOUSE: KITCHEN (doors at AC1, AD12)" in words
    assert re.search(r'data-hex="O7"[^>]*aria-label="O7: [^"]*the pond', page)
    assert re.search(r'data-hex="T8"[^>]*aria-label="T8: [^"]*wheelbarrow', page)


def test_a_spectator_sees_fog_everywhere_and_nobody_unless_spectators_see_all():
    s = fog_game(turns=2)
    page = render(s, None)
    assert len(FOG.findall(page)) == len(GARDEN.hexes)
    assert not TOKEN.findall(page)
    assert "spectators see only the garden" in text_of(page)
    assert "Spectators hear nothing: the whole garden is under the fog for them" in text_of(page)

    s = fog_game(see_all=True, turns=2)
    page = render(s, None)
    assert not FOG.findall(page)
    assert {int(seat) for seat, _ in TOKEN.findall(page)} == {x for x, c in enumerate(s["combatants"]) if c["status"] != "gone"}
    assert "spectators see everything" in text_of(page)


def test_when_the_game_is_over_the_fog_lifts_for_everyone():
    s = fog_game(turns=99)
    assert R.outcome(s) is not None
    for viewer in (0, None):
        page = render(s, viewer)
        assert not FOG.findall(page) and "the fog has lifted" in text_of(page)


def test_only_the_gnomes_a_seat_found_are_drawn_for_it():
    for seed in range(1, 80):
        s = fog_game(seed=seed, turns=4)
        found = [set(f) for f in s["fog"]["found"]]
        if s["phase"] == "orders" and any(found) and not all(f == found[0] for f in found):
            break
    else:
        raise AssertionError("no game where the seats found different gnomes")
    for seat in range(3):
        drawn = set(re.findall(r'data-gnome="([A-Z]+\d+)"', render(s, seat)))
        assert drawn == found[seat]
    assert not re.findall(r'data-gnome=', render(s, None))


def test_sounds_are_listed_in_plain_words_never_as_a_hex():
    assert sound_text({"kind": "splash", "direction": "NE", "distance": "far", "text": "A splash to the north-east, far off."}) \
        == "A splash to the north-east, far off."
    assert sound_text({"kind": "shout", "direction": "SW", "distance": "near", "text": "Over here!"}) \
        == "A shout to the south-west, close by: “Over here!”"
    assert sound_text({"kind": "shout", "direction": None, "distance": None, "text": "Me!", "yours": True}) \
        == "You shouted: “Me!”"
    s = apart()
    near = next(c["seat"] for c in R.view(s, 0)["combatants"] if c["seat"] != 0 and c.get("seen"))
    s, _ = R.apply(s, near, {"type": "shout", "text": "Who goes there?"})
    page = render(s, 0)
    sounds = re.search(r'<section class="sf-sounds".*?</section>', page, re.S).group(0)
    assert re.search(r"A shout to the (north|south|east|west|north-east|north-west|south-east|south-west), close by: “Who goes there\?”",
                     html.unescape(sounds))
    assert not re.search(r"\b[A-Z]{1,2}\d{1,2}\b", text_of(sounds).replace("Turn", ""))
    assert "Who goes there?" not in html.unescape(render(s, None))


def test_the_opening_offers_no_throws_and_later_turns_do():
    s = fog_game(turns=0)
    page = render(s, 0)
    assert "no snow is thrown yet" in text_of(page)
    assert 'data-sf-tool="rattlesnake"' not in page and 'data-sf-tool="move"' in page
    assert "a Dirigible from the wheelbarrow (2 MF)" in text_of(page)
    s = fog_game(turns=2)
    page = render(s, 0)
    assert 'data-sf-tool="rattlesnake"' in page and "no snow is thrown yet" not in text_of(page)


def test_a_provisional_move_is_offered_on_a_move_and_shown_in_words():
    s = fog_game(turns=0)
    here = s["combatants"][0]["hex"]
    step = next(h for h in GARDEN.neighbours(here) if h != KITCHEN and h != GARDEN.shed)
    move = {"type": "move", "route": [step]}
    s1, _ = R.apply(s, 0, {"type": "orders", "segments": [move, None, None]})
    box = re.search(r'<input type="checkbox" data-sf-if-hazard="1"[^>]*>', render(s1, 0)).group(0)
    assert "checked" not in box
    s2, _ = R.apply(s, 0, {"type": "orders", "segments": [{**move, "if_hazard": "stand"}, None, None]})
    page = render(s2, 0)
    assert "checked" in re.search(r'<input type="checkbox" data-sf-if-hazard="1"[^>]*>', page).group(0)
    assert f"Move {step}; stand still instead if the first step meets the pond or a gnome found" in text_of(page)
    assert 'data-sf-if-hazard="2"' not in page  # nothing to look before on an unwritten segment
    assert describe_order({"type": "collect_move", "what": "barrow", "count": 1, "collect_at": "end",
                           "route": ["S9", "T8"]}, [], []) == "Move S9 → T8, then collect a Dirigible from the wheelbarrow"


def test_the_snowy_garden_board_has_no_fog_sounds_or_house():
    s = R.new_game(players=2, options={}, seed=3)
    for x in range(2):
        s, _ = R.apply(s, x, {"type": "setup", "name": f"Snow {x}", "starts": [], "ready": True})
    page = render(s, 0)
    assert not FOG.findall(page) and "sf-sounds" not in page and "Fogbound" not in page
    assert "KITCHEN (door at W11)" in text_of(page) and "THE HOUSE" not in page
    assert 'data-doors="W11"' in page and 'data-shed="K7"' in page


@pytest.mark.django_db
def test_a_fogbound_table_is_named_so_and_its_players_may_shout(client, make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    fog = services.create_game(creator=ana, game_type="snowball-fighting", options={"map": "fogbound"})
    snow = services.create_game(creator=ana, game_type="snowball-fighting", options={})
    assert game_title(fog) == f"Snowball Fighting: Fogbound #{fog.pk}" and shout_range(fog) == 6
    assert game_title(snow) == f"Snowball Fighting #{snow.pk}" and shout_range(snow) is None
    client.force_login(ana)
    page = client.get(f"/games/{fog.pk}/").content.decode()
    assert "<h1>Snowball Fighting: Fogbound" in page and 'id="talk-shout"' in page
    assert "Garden: Fogbound" in page  # the waiting room's options
    assert 'id="talk-shout"' not in client.get(f"/games/{snow.pk}/").content.decode()
    client.force_login(ben)
    assert 'id="talk-shout"' not in client.get(f"/games/{fog.pk}/").content.decode()  # not seated: a spectator
    lobby = client.get("/").content.decode()
    assert f"Snowball Fighting: Fogbound #{fog.pk}" in lobby


@pytest.mark.django_db
def test_spectators_see_all_without_the_fogbound_garden_is_refused_on_the_form(client, make_user):
    client.force_login(make_user("Ana"))
    answer = client.post("/games/new/snowball-fighting/", {"opt_map": "garden", "opt_spectators_see_all": "on",
                                                           "pace": "live", "num_seats": "2", "is_public": "on"})
    assert answer.status_code == 200
    assert "spectators_see_all is for the Fogbound garden" in html.unescape(answer.content.decode())


@pytest.mark.django_db
def test_the_rules_page_pictures_the_fogbound_garden_beside_the_variant(client):
    page = client.get("/rules/snowball-fighting/").content.decode()
    part = re.search(r'<section class="book-part" id="fogbound">.*?</figure>', page, re.S).group(0)
    figure = part[part.index('<figure class="rules-board sf" id="rules-board-fogbound">'):]
    assert len(re.findall(r'<g class="sf-hex[^"]*" data-hex="', figure)) == len(GARDEN.hexes)
    assert figure.count('class="sf-pond"') == 2 and "sf-wheelbarrow" in figure and 'class="sf-fence"' in figure
    assert "THE HOUSE: KITCHEN (doors at AC1, AD12)" in figure and "sf-gnome" not in figure and "sf-fog-hex" not in figure


@pytest.mark.django_db
def test_the_json_api_creates_a_fogbound_game_and_refuses_spectators_see_all_in_the_snow(make_user):
    import json

    from django.test import Client

    from games.models import ApiToken

    bot = Client(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user=make_user('Bot'), name='t')[1]}")

    def create(options: dict):
        return bot.post("/api/games/", data=json.dumps({"game_type": "snowball-fighting", "seats": 3, "options": options}),
                        content_type="application/json")

    made = create({"map": "fogbound", "spectators_see_all": True})
    assert made.status_code == 201 and made.json()["options"]["map"] == "fogbound"
    refused = create({"map": "garden", "spectators_see_all": True})
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_request"
    assert "spectators_see_all is for the Fogbound garden" in refused.json()["error"]["message"]
    assert create({"map": "foggy"}).status_code == 400
