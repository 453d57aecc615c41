"""Learn to play: one click from the home page or a rules page starts a private game against
computer players for the clicking player (a visitor gives a guest name in the same form), and its
page shows hints built from the engine's own prompt and legal actions, each linked to a part of
the rules page that exists; a game that is not a Learn game, and a spectator, see no hints."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from games import engines
from games.engines.what_a_snowball import RULESET as WAS
from games.engines.what_a_snowball.hints import hints as was_hints
from games.models import Game
from games.selectors import viewer_payload
from games.selectors.learn import hints_for, hints_function
from games.services.learn import start_learn_game
from tests.engines.what_a_snowball_scenes import piece, rect, scene

pytestmark = pytest.mark.django_db

SLUGS = ["jingle-bells", "snowball-fight", "snowball-fighting", "what-a-snowball"]


def rule_ids(client: Client, slug: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', client.get(f"/rules/{slug}/").content.decode()))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_learn_game_is_a_private_started_game_against_computer_players_with_hints_on_its_page(slug, make_user):
    user = make_user("Ana", guest=True)
    game = start_learn_game(user=user, game_type=slug)
    game.refresh_from_db()
    seats = list(game.seats.order_by("number"))
    assert game.is_learn and not game.is_public and game.status == Game.Status.ACTIVE
    assert seats[0].user == user and all(s.is_bot for s in seats[1:])
    assert len(seats) == engines.get(slug).min_players

    client = Client()
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    payload = viewer_payload(game, 0)
    assert payload["prompt"] is not None  # the computer players have moved; the player is asked
    assert 'id="hints"' in html and "Show hints" in html
    assert payload["prompt"]["text"].split(":")[0].replace("'", "&#x27;") in html
    for kind in {a["type"] for a in payload["legal_actions"]} - {"deadline"}:
        assert f'<li data-type="{kind}">' in html
    panel = html.split('id="hints"', 1)[1].split("</section>", 1)[0]
    assert 'data-type="deadline"' not in panel and "Let the time run out" not in panel  # no clock in a Learn game

    ids = rule_ids(client, slug)
    hints = hints_for(game, payload)
    links = [o["rule"] for o in hints["options"]] + [m["rule"] for m in hints["not_offered"]]
    assert links and all(anchor in ids for anchor in links), set(links) - ids


@pytest.mark.parametrize("slug", SLUGS)
def test_every_action_the_hints_explain_links_a_part_of_the_rules_page(slug, client):
    module = __import__(hints_function(slug).__module__, fromlist=["EXPLAINED"])
    anchors = {anchor for _, anchor in module.EXPLAINED.values()} | set(getattr(module, "ANCHORS", {}).values())
    assert anchors <= rule_ids(client, slug)


def test_a_game_that_is_not_a_learn_game_and_a_spectator_of_a_learn_game_see_no_hints(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = start_learn_game(user=ana, game_type="jingle-bells")
    Game.objects.filter(pk=game.pk).update(is_learn=False)
    client = Client()
    client.force_login(ana)
    assert 'id="hints"' not in client.get(f"/games/{game.pk}/").content.decode()
    Game.objects.filter(pk=game.pk).update(is_learn=True)
    Game.objects.filter(pk=game.pk).update(is_public=True)
    client.force_login(ben)
    assert 'id="hints"' not in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(ana)
    assert 'id="hints"' in client.get(f"/games/{game.pk}/").content.decode()


def test_the_home_page_and_each_rules_page_offer_learn_to_play_and_a_visitor_starts_one_as_a_guest(client):
    home = client.get("/").content.decode()
    for slug in SLUGS:
        assert f'href="/learn/{slug}/"' in home
        assert f'href="/learn/{slug}/"' in client.get(f"/rules/{slug}/").content.decode()
    refused = client.post("/learn/snowball-fight/", {"display_name": ""})
    assert refused.status_code == 400 and not Game.objects.exists()
    response = client.post("/learn/snowball-fight/", {"display_name": "Cy"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.is_learn and game.seats.get(number=0).user.profile.display_name == "Cy"
    assert client.get("/rules/snowball-fight/").content.decode().count('method="post" action="/learn/snowball-fight/"') == 1
    assert client.get("/learn/no-such-game/").status_code == 404


def test_what_a_snowball_hints_say_why_a_throw_is_not_offered_in_the_engines_words():
    house = piece("house", "house", rect(10, 8, 14, 16))
    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [1], "name": "Holly"},
               {"team": 1, "pos": [18, 12], "name": "Noel"}], tray=[1, 4], terrain=[house])
    seat = WAS.view(s, None)["waiting_for"][0]
    prompt = WAS.to_act(s)[seat].as_dict()
    hints = was_hints(prompt=prompt, legal_actions=WAS.legal_actions(s, seat), state=s)
    assert hints["asks"] == prompt["text"]
    missing = {m["type"]: m["why"] for m in hints["not_offered"]}
    assert missing["throw"] == "no enemy Kid in sight: the house hides Noel"
    assert "throw" not in {o["type"] for o in hints["options"]}
    s = scene([{"team": 0, "pos": [6, 12], "snowballs": [1], "name": "Holly"},
               {"team": 1, "pos": [18, 12], "name": "Noel"}], tray=[1, 4], terrain=[])  # the house gone
    hints = was_hints(prompt=prompt, legal_actions=WAS.legal_actions(s, seat), state=s)
    assert "throw" in {o["type"] for o in hints["options"]}
    assert "throw" not in {m["type"] for m in hints["not_offered"]}


def test_a_client_starts_a_learn_game_and_reads_its_hints_over_the_json_api(make_user):
    from tests.platform.test_http_api import _bot, _post

    api, other = _bot(make_user("Ana")), _bot(make_user("Ben"))
    bad = _post(api, "/api/learn/", {"game_type": "no-such-game"})
    assert bad.status_code == 400 and "no-such-game" in bad.json()["error"]["message"] and not Game.objects.exists()
    created = _post(api, "/api/learn/", {"game_type": "what-a-snowball"})
    assert created.status_code == 201 and created.json()["learn"] and created.json()["status"] == "active"
    game_id = created.json()["id"]
    answer = api.get(f"/api/games/{game_id}/hints/").json()
    view = api.get(f"/api/games/{game_id}/").json()
    assert answer["learn"] and answer["hints"]["asks"] == view["prompt"]["text"]
    assert {o["type"] for o in answer["hints"]["options"]} == {a["type"] for a in view["legal_actions"]}
    watcher = other.get(f"/api/games/{game_id}/hints/?invite={created.json()['invite_code']}").json()
    assert watcher["hints"] is None  # a spectator is asked nothing
    anonymous = Client().get(f"/api/games/{game_id}/hints/?invite={created.json()['invite_code']}")
    assert anonymous.status_code == 200 and anonymous.json()["hints"] is None, anonymous.content
    assert Client().get(f"/api/games/{game_id}/hints/").status_code == 404  # no invite: no such game


def _button_texts(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", re.sub(r"<small\b.*?</small>", " ", inner, flags=re.S)).split())
            for inner in re.findall(r"<button\b[^>]*>(.*?)</button>", html, flags=re.S)]


@pytest.mark.parametrize("slug, kind, label", [
    ("jingle-bells", "pick", "Pick "), ("snowball-fight", "play", "Keep now"),
    ("snowball-fighting", "setup", "Save"), ("what-a-snowball", "corner", "-"),
])
def test_hints_name_each_option_by_the_label_of_its_button_on_the_board(slug, kind, label, make_user):
    import html as html_lib

    user = make_user("Ana")
    game = start_learn_game(user=user, game_type=slug)
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    board = html_lib.unescape(page.split('class="board-wrap"')[1])
    buttons = _button_texts(board)
    panel = html_lib.unescape(page.split('id="hints"')[1].split("</aside>")[0])
    shown = dict(re.findall(r'<li data-type="([\w-]+)"><strong class="hint-label">([^<]+)</strong>', panel))
    assert kind in shown and label in shown[kind] and f"<code>{kind}</code>" not in panel
    for text in shown[kind].rstrip(" …").split(" · "):
        assert text in buttons, (text, buttons)
    answer = client.get(f"/api/games/{game.pk}/hints/").json()["hints"]
    assert {o["type"]: o["label"] for o in answer["options"]}[kind] == shown[kind]


def test_snowball_fightings_setup_hints_name_ready_as_the_step_that_starts_the_game(make_user):
    """The setup asks for a nom de guerre and start hexes "then mark yourself ready": the hints
    say that Ready starts the game, in Save's words before anything is saved and as Ready after."""
    import html as html_lib

    user = make_user("Ana")
    game = start_learn_game(user=user, game_type="snowball-fighting")
    client = Client()
    client.force_login(user)

    def options() -> dict[str, str]:
        page = html_lib.unescape(client.get(f"/games/{game.pk}/").content.decode())
        panel = page.split('id="hints"')[1].split("</aside>")[0]
        assert "then mark yourself ready" in panel
        items = re.findall(r'<li data-type="([\w-]+)"><strong class="hint-label">([^<]+)</strong>:([^<]*)', panel)
        return {kind: f"{label}:{does}" for kind, label, does in items}

    before = options()
    assert before["setup"].startswith("Save:") and "the game starts once everyone is ready" in before["setup"]
    from games import services

    game.refresh_from_db()
    services.submit_action(game_id=game.pk, user=user, action={"type": "setup", "name": "Ana", "starts": []},
                           action_id="setup-1", version=game.version)
    after = options()
    assert after["ready"].startswith("Ready:") and "once everyone is ready" in after["ready"]
    assert "orders" not in after["ready"]  # not the orders' Ready
