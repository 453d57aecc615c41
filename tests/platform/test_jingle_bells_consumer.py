"""Jingle Bells over the JSON websocket: two programs play a whole game while a spectator watches.

Each player decides from nothing but the view its socket sends (the game's own computer player
reading that view, as an API client would); the spectator checks that no sealed allocation
and no generator state ever reaches it, and both players check the same of each other.
"""
from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games.engines.jingle_bells import bot
from games.models import ApiToken, Game
from tests.platform.helpers import started_game
from tests.platform.test_consumers import Progress, api_socket, latest_view, next_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SLUG = "jingle-bells"


@database_sync_to_async
def _setup(make_user, options=None):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = started_game(ana, ben, game_type=SLUG, options=options or {"layout": "random"})
    _, ana_key = ApiToken.issue(user=ana, name="t")
    _, ben_key = ApiToken.issue(user=ben, name="t")
    return game, ana_key, ben_key


def _check_sealed(frame: dict, viewer: int | None) -> None:
    """What a viewer may see of the dice: rolls are public, another seat's allocation only once revealed."""
    view = frame["view"]
    assert "seed" not in view and "rng_counter" not in json.dumps(view)
    for seat, dice in enumerate(view["dice"]):
        if seat != viewer and dice["stage"] != "revealed":
            assert dice["allocation"] is None, f"seat {seat}'s sealed allocation reached viewer {viewer}"
    if view["phase"] == "dice":
        assert all(not p["dice"] for p in view["pieces"].values()), "dice on cards before the reveal"
    if viewer is None:
        assert frame["legal_actions"] == [] and frame["prompt"] is None and view["auto_dodge"] is None


async def test_full_game_two_programs_and_a_spectator(site_backend, make_user):
    game, ana_key, ben_key = await _setup(make_user)
    sockets = {0: await api_socket(game.pk, ana_key), 1: await api_socket(game.pk, ben_key)}
    spy = await api_socket(game.pk, None)
    views = {seat: await next_of(comm, "view") for seat, comm in sockets.items()}
    spectator = await next_of(spy, "view")
    assert [views[0]["seat"], views[1]["seat"], spectator["seat"]] == [0, 1, None]
    assert views[0]["game_type"] == SLUG and views[0]["view"]["phase"] == "draft"
    assert len(views[0]["view"]["obstructions"]) in (6, 7, 8)

    # Ben's program asks to dodge automatically: an action any seat may send at any time
    await sockets[1].send_json_to({"type": "action", "action": {"type": "set_auto_dodge", "on": True},
                                   "action_id": "auto-1", "version": views[1]["version"]})
    assert (await next_of(sockets[1], "ack"))["duplicate"] is False

    sent: dict[str, int] = {}
    acted_at: dict[int, int] = {}
    phases_seen: set[str] = set()
    sealed_seen = False
    progress = Progress()
    for _ in range(3000):
        if all(v["status"] == "finished" for v in views.values()):
            break
        progress.saw(*views.values())
        for seat, frame in views.items():
            if frame["legal_actions"] and acted_at.get(seat) != frame["version"]:
                action = bot.choose_action(frame["view"])
                dice = frame["view"]["dice"]
                if seat == 1 and action["type"] == "allocate" and dice[0]["stage"] != "locked":
                    continue  # Ben allocates once Ana has locked: the moment to look for a leak
                if seat == 1 and action["type"] == "allocate" and not sealed_seen:
                    watched = await latest_view(spy, timeout=0.3) or spectator
                    _check_sealed(watched, None)
                    assert [d["stage"] for d in watched["view"]["dice"]][0] == "locked"
                    assert watched["view"]["dice"][1]["stage"] in ("reroll", "allocate")
                    assert "has_allocation" in watched["view"]["dice"][0]
                    spectator, sealed_seen = watched, True
                acted_at[seat] = frame["version"]
                sent[action["type"]] = sent.get(action["type"], 0) + 1
                await sockets[seat].send_json_to({"type": "action", "action": action,
                                                  "action_id": f"{seat}-{frame['version']}", "version": frame["version"]})
        for seat in (0, 1):
            fresh = await latest_view(sockets[seat], timeout=0.05)
            if fresh is not None:
                _check_sealed(fresh, seat)
                views[seat] = fresh
        fresh = await latest_view(spy, timeout=0.01)
        if fresh is not None:
            _check_sealed(fresh, None)
            assert fresh["version"] >= spectator["version"]
            spectator = fresh
            phases_seen.add(fresh["view"]["phase"])

    final = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert final.status == Game.Status.FINISHED
    assert views[1]["view"]["auto_dodge"] is True and views[0]["view"]["auto_dodge"] is False
    assert {"pick", "deploy", "allocate", "throw"} <= set(sent), sent
    assert {"draft", "dice", "actions"} <= phases_seen
    assert sealed_seen, "the spectator never saw one side locked and the other still allocating"
    outcome = views[0]["outcome"]
    assert (outcome["winners"], outcome["scores"]) == (final.outcome["winners"], final.outcome["scores"])
    assert outcome["winners"] in ([0], [1])
    assert 4 in outcome["scores"], "the game ends on a snowman's fourth cold token"
    assert "lost its head" in outcome["reason"] and "{p" not in outcome["reason"]
    log = " ".join(line["text"] for line in views[0]["log"])
    assert "cold tokens" in log and "{p" not in log
    for comm in (*sockets.values(), spy):
        await comm.disconnect()


async def test_illegal_moves_are_explained_and_change_nothing(site_backend, make_user):
    game, ana_key, ben_key = await _setup(make_user, {"layout": "garden"})
    sockets = {0: await api_socket(game.pk, ana_key), 1: await api_socket(game.pk, ben_key)}
    views = {seat: await next_of(comm, "view") for seat, comm in sockets.items()}
    picker = next(seat for seat, v in views.items() if v["prompt"])
    other = 1 - picker
    # the other seat is not asked: not its turn, and the message names who is
    await sockets[other].send_json_to({"type": "action", "action": {"type": "pick", "character": "Paul"},
                                       "action_id": "x1", "version": views[other]["version"]})
    error = await next_of(sockets[other], "error")
    assert error["code"] == "not_your_turn" and ("Ana" in error["message"] or "Ben" in error["message"])
    # a character that does not exist
    await sockets[picker].send_json_to({"type": "action", "action": {"type": "pick", "character": "Rudolph"},
                                        "action_id": "x2", "version": views[picker]["version"]})
    error = await next_of(sockets[picker], "error")
    assert error["code"] == "illegal_action" and "Rudolph" in error["message"]
    final = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert final.version == views[picker]["version"]
    for comm in sockets.values():
        await comm.disconnect()


async def test_the_browser_socket_sends_the_board_and_takes_its_buttons(site_backend, make_user):
    """The page's own socket: the board arrives as an out-of-band swap, a pick button's frame plays."""
    import html as htmlmod
    import re

    from tests.platform.test_html_socket import _html_socket, _next_live, _session_cookie

    @database_sync_to_async
    def setup():
        ana, ben = make_user("Ana"), make_user("Ben")
        game = started_game(ana, ben, game_type=SLUG)
        return game, _session_cookie(ana), _session_cookie(ben)

    game, ana_cookie, ben_cookie = await setup()
    pages = {0: await _html_socket(game.pk, ana_cookie), 1: await _html_socket(game.pk, ben_cookie)}
    spy = await _html_socket(game.pk, None)
    boards = {seat: await _next_live(comm) for seat, comm in pages.items()}
    watched = await _next_live(spy)
    assert 'id="jb-board"' in watched and 'class="jb-pick"' not in watched
    picker = next(seat for seat, page in boards.items() if 'class="jb-pick"' in page)
    button = re.search(r'<button type="button" class="jb-pick" ws-send hx-vals="([^"]*)"', boards[picker])
    vals = json.loads(htmlmod.unescape(button.group(1)))
    version = int(re.search(r'data-version="(\d+)"', boards[picker]).group(1))
    await pages[picker].send_json_to({**vals, "action_id": "pick-1", "version": version, "HEADERS": {"HX-Request": "true"}})
    after = await _next_live(pages[picker])
    assert int(re.search(r'data-version="(\d+)"', after).group(1)) > version
    assert "picked by" in after
    seen = await _next_live(spy)
    assert "picked by" in seen
    for comm in (*pages.values(), spy):
        await comm.disconnect()
