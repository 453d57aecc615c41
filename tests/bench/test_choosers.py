"""The load generator's players choose legal actions from what their own socket was sent, and
those actions play every table of the mix forward on the real play service."""
import random

import pytest

from bench import choosers
from bench.setup_games import make_game
from bench.tables import MIX, SHAPES, socket_kinds
from games import rendering, selectors, services
from games.errors import ServiceError
from games.engines.base import GameError
from games.models import Game

pytestmark = pytest.mark.django_db


def frame_of(game_id: int, seat: int) -> dict:
    import orjson

    return orjson.loads(selectors.view_frame(selectors.snapshot(game_id), seat))


def page_of(game_id: int, seat: int | None, user) -> str:
    snap = selectors.snapshot(game_id)
    return rendering.live_html(snap.game, selectors.payload_for(snap, seat), user)


def play(shape_name: str, kind: str, moves: int, seed: int = 3) -> tuple[int, int, Game]:
    """Seats act in turn with what their socket of ``kind`` offers; returns (accepted, refused, game)."""
    entry = make_game(SHAPES[shape_name], seed)
    game_id = entry["id"]
    users = {s.number: s.user for s in Game.objects.get(pk=game_id).seats.all()}
    rng = random.Random(seed)
    accepted = refused = 0
    for _ in range(moves):
        snap = selectors.snapshot(game_id)
        if snap.game.status != Game.Status.ACTIVE:
            break
        acted = False
        for seat in sorted(users):
            if not selectors.payload_for(snap, seat)["legal_actions"]:
                continue
            if kind == "json":
                action = choosers.json_action(SHAPES[shape_name].slug, frame_of(game_id, seat), rng)
            else:
                action = choosers.page_action(SHAPES[shape_name].slug, page_of(game_id, seat, users[seat]), rng)
            if action is None:
                continue
            try:
                services.submit_action(game_id=game_id, user=users[seat], action=action,
                                       action_id=f"t{accepted + refused}",
                                       version=selectors.viewer_version(selectors.snapshot(game_id).game, seat))
                accepted += 1
            except (ServiceError, GameError):
                refused += 1
            acted = True
            break
        assert acted, f"no seat of {shape_name} found an action on its {kind} socket"
    return accepted, refused, Game.objects.get(pk=game_id)


@pytest.mark.parametrize("kind", ["json", "page"])
@pytest.mark.parametrize("shape_name", MIX)
def test_players_find_legal_actions_that_move_every_table_on(shape_name, kind):
    accepted, refused, game = play(shape_name, kind, moves=24)
    assert accepted >= 18, (accepted, refused)
    assert refused <= accepted // 4
    assert game.version > 1
    # no private action (a card chosen again): every viewer counts the versions the load generator times
    assert not any(game.prompts.get("private") or ()), game.prompts.get("private")


def test_the_page_view_frame_gives_version_status_and_whether_the_viewer_is_asked():
    entry = make_game(SHAPES["snowball-fight"], 1)
    game = Game.objects.get(pk=entry["id"])
    user = game.seats.get(number=0).user
    seen = choosers.page_view(page_of(game.pk, 0, user))
    assert seen == choosers.PageView(version=game.version, status="active", asked=True)
    assert choosers.page_view(page_of(game.pk, None, None)).asked is False
    assert choosers.page_view(rendering.presence_html({"seats_connected": [0], "spectators": 1}, viewer_seat=0)) is None
    assert choosers.page_error(rendering.error_html("stale_version", "old")) == "stale_version"
    assert choosers.page_error(page_of(game.pk, 0, user)) is None


def test_a_spectators_page_offers_nothing_to_press():
    entry = make_game(SHAPES["snowball-fight-6"], 2)
    page = page_of(entry["id"], None, None)
    assert choosers.page_action("snowball-fight", page, random.Random(1)) is None


def test_settings_and_votes_are_never_chosen():
    frame = {"legal_actions": [{"type": "surrender"}, {"type": "set_never_ask", "card": "x"},
                               {"type": "set_auto_dodge", "on": True}]}
    assert choosers.json_action("snowball-fight", frame, random.Random(1)) is None
    frame["legal_actions"].append({"type": "play", "card": "c1"})
    assert {choosers.json_action("snowball-fight", frame, random.Random(i))["type"] for i in range(20)} == {"play"}


def test_mixed_sockets_give_each_kind_a_player_and_a_spectator():
    for seats in (2, 6, 12):
        kinds = socket_kinds("mix", seats + 2)
        assert {kinds[i] for i in range(seats)} == {"json", "page"}
        assert set(kinds[seats:]) == {"json", "page"}
    assert socket_kinds("page", 4) == ["page"] * 4
    with pytest.raises(ValueError):
        socket_kinds("html", 4)



from hypothesis import given, settings, strategies as st  # noqa: E402
from tests.depth import examples


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=400))
def test_any_frame_text_reads_as_no_view_no_error_and_nothing_to_press_or_as_what_it_is(text):
    seen = choosers.page_view(text)
    assert seen is None or isinstance(seen.version, int)
    assert choosers.page_error(text) is None or isinstance(choosers.page_error(text), str)
    action = choosers.page_action("snowball-fight", text, random.Random(0))
    assert action is None or "type" in action


@settings(max_examples=examples(100), deadline=None)
@given(version=st.integers(0, 10**12), status=st.sampled_from(["open", "active", "finished"]), asked=st.booleans(),
       rest=st.text(max_size=200))
def test_a_live_region_reads_back_its_version_status_and_prompt(version, status, asked, rest):
    text = (f'<div id="live" data-version="{version}" data-status="{status}" data-seat="2" '
            f'data-your-turn="{"1" if asked else ""}" hx-swap-oob="true">{rest}</div>')
    assert choosers.page_view(text) == choosers.PageView(version=version, status=status, asked=asked)


@settings(max_examples=examples(100), deadline=None)
@given(st.dictionaries(st.sampled_from(["card", "side", "n", "to"]), st.integers() | st.text(max_size=8), max_size=3),
       st.sampled_from(["play", "choose", "lock"]))
def test_a_button_offers_exactly_the_action_it_carries(fields, kind):
    from games.templatetags.games_tags import ws_vals
    from django.utils.html import escape

    action = {"type": kind, **fields}
    text = f'<div id="live"><button type="button" ws-send hx-vals="{escape(ws_vals(action))}">x</button></div>'
    assert choosers.page_offer(text).buttons == [action]


def test_the_page_player_aims_jingle_bells_moves_clear_of_everything_the_page_says_to_avoid():
    """A browser's player is told before sending that a spot overlaps an obstruction (the page's
    script checks each legal placement's ``must_avoid``): the load generator's page player aims
    as it does, so that no move it sends is refused for a spot the page marked as taken."""
    from games.engines.jingle_bells.engine import HEIGHT, WIDTH
    from games.engines.jingle_bells.geometry import placement_problem

    entry = make_game(SHAPES["jingle-bells"], 5)
    game_id = entry["id"]
    users = {s.number: s.user for s in Game.objects.get(pk=game_id).seats.all()}
    rng = random.Random(5)
    aimed = 0
    for turn in range(60):
        snap = selectors.snapshot(game_id)
        if snap.game.status != Game.Status.ACTIVE:
            break
        seat = next(s for s in sorted(users) if selectors.payload_for(snap, s)["legal_actions"])
        page = page_of(game_id, seat, users[seat])
        moves = {o["character"]: o for o in choosers.page_offer(page).scripts["jb-legal"]
                 if o["type"] == "move" and "center" in o}
        for draw in range(40):
            action = choosers.page_action("jingle-bells", page, random.Random(draw))
            if action["type"] != "move" or action["character"] not in moves:
                continue
            aimed += 1
            radius = moves[action["character"]]["piece_radius"]
            assert placement_problem(snap.state["pieces"], snap.state["obstructions"], WIDTH, HEIGHT, action["to"],
                                     radius, ignore=(action["character"],)) is None, (turn, draw, action)
        action = choosers.page_action("jingle-bells", page, rng)
        services.submit_action(game_id=game_id, user=users[seat], action=action, action_id=f"t{turn}",
                               version=selectors.viewer_version(snap.game, seat))
    assert aimed >= 200, aimed


@pytest.mark.parametrize("shape_name", ["snowball-fight", "snowball-fighting"])
def test_an_aged_game_starts_part_way_through_as_the_generators_players_would_have_played_it(shape_name):
    from bench.setup_games import age_game

    entry = make_game(SHAPES[shape_name], 7)
    assert age_game(entry, SHAPES[shape_name], 12, seed=7) == 12
    game = Game.objects.get(pk=entry["id"])
    assert game.status == Game.Status.ACTIVE and game.log_length == 12
    assert not any(game.prompts.get("private") or ())  # every version counted by every viewer
    played = age_game(entry, SHAPES[shape_name], 1000, seed=8)  # on to its end, and no further
    game = Game.objects.get(pk=entry["id"])
    assert played < 1000 and game.status == Game.Status.FINISHED and game.log_length == 12 + played
