"""The load generator times a move to the last socket of each kind, reads the page's socket
(which sends no ack) right, and adds up its processes' figures per table and socket kind."""
import random

import orjson
import pytest

from bench import loadgen
from bench.loadgen import Config, Slot, Sock, Worker


def page(version: int, *, asked: bool = False, status: str = "active") -> str:
    return (f'<div id="live" data-version="{version}" data-status="{status}" data-seat="" '
            f'data-your-turn="{"1" if asked else ""}" hx-swap-oob="true"><p>board</p></div>')


def flash(code: str) -> str:
    return f'<div id="flash" hx-swap-oob="true" class="flash flash-error" role="alert" data-code="{code}">no</div>'


def json_view(version: int) -> str:
    return orjson.dumps({"type": "view", "version": version, "status": "active", "legal_actions": []}).decode()


@pytest.fixture
def worker():
    cfg = Config(ws_urls=["ws://x"], http_url=None, games=1, rate=1.0, warmup=0, duration=10, drain=1, seed=1,
                 procs=1, socket="mix")
    w = Worker(cfg, 0, [0], [{"id": 7, "shape": "snowball-fight", "tokens": ["a", "b"], "sessions": ["c", "d"]}])
    w.t_measure, w.t_stop = 0.0, float("inf")
    return w


@pytest.fixture
def slot():
    """Seat 0 on the JSON socket, seat 1 on the page's, a spectator on each; all at version 5."""
    s = Slot(0, random.Random(1), 0.0, table="snowball-fight", ready=True)
    s.socks = [Sock(role, kind, version=5, view_version=5) for role, kind in
               (("p0", "json"), ("p1", "page"), ("s0", "json"), ("s1", "page"))]
    return s


def sent_by(slot, sock, t_send: float, action_id: str = "a1") -> None:
    slot.sent[action_id] = (t_send, sock, True)
    sock.inflight, sock.acted_version = action_id, sock.view_version


def frame(worker, slot, index: int, text: str, now: float) -> None:
    sock = slot.socks[index]
    if sock.kind == "page":
        worker.on_page_frame(slot, sock, text, now)
    else:
        worker.on_json_view(slot, sock, orjson.loads(text), now, len(text))


def test_a_page_players_move_is_answered_by_its_next_newer_view_and_timed_to_the_last_socket_of_each_kind(worker, slot):
    sent_by(slot, slot.socks[1], t_send=100.0)
    frame(worker, slot, 1, page(6), 100.010)  # the answer, on the actor's page
    frame(worker, slot, 0, json_view(6), 100.020)
    frame(worker, slot, 2, json_view(6), 100.030)
    assert worker.count["delivered"] == 0  # one page is still behind
    frame(worker, slot, 3, page(6), 100.050)

    assert worker.count["acks"] == worker.count["delivered"] == 1
    assert slot.socks[1].inflight is None and not slot.pending
    assert worker.latency.get_max_value() == pytest.approx(50_000, rel=0.01)
    assert worker.latency_kind["json"].get_max_value() == pytest.approx(30_000, rel=0.01)
    assert worker.latency_kind["page"].get_max_value() == pytest.approx(50_000, rel=0.01)
    tally = worker.by_table["snowball-fight"]
    assert tally["acks_in_window"] == 1
    assert tally["latency_by_socket"]["page"].get_total_count() == 1


def test_a_view_no_newer_than_the_one_acted_on_is_not_the_answer(worker, slot):
    sent_by(slot, slot.socks[1], t_send=100.0)
    frame(worker, slot, 1, page(5, asked=True), 100.005)  # the same version again: not an answer
    assert slot.socks[1].inflight == "a1" and worker.count["acks"] == 0


def test_a_refused_move_on_the_page_lets_its_player_choose_again_on_the_same_view(worker, slot):
    player = slot.socks[1]
    sent_by(slot, player, t_send=100.0)
    frame(worker, slot, 1, flash("illegal_action"), 100.01)
    assert worker.count["refused"] == 1 and worker.errors["illegal_action"] == 1
    assert player.inflight is None and player.acted_version < player.view_version


def test_a_stale_move_waits_for_a_newer_view(worker, slot):
    player = slot.socks[0]
    sent_by(slot, player, t_send=100.0)
    worker.on_error(slot, {"type": "error", "code": "stale_version", "action_id": "a1"})
    assert worker.count["refused"] == 1
    assert player.inflight is None and player.acted_version == player.view_version


def test_a_crossing_view_taken_for_the_answer_is_withdrawn_when_the_refusal_follows(worker, slot):
    player = slot.socks[1]
    sent_by(slot, player, t_send=100.0)
    frame(worker, slot, 1, page(6), 100.01)  # another player's move, sent before ours arrived
    assert len(slot.pending) == 1
    frame(worker, slot, 1, flash("stale_version"), 100.02)
    assert not slot.pending
    assert worker.count["page_answers_retracted"] == 1
    assert worker.count["refused"] == 1 and worker.count["acks_in_window"] == 0
    assert worker.by_table["snowball-fight"]["acks_in_window"] == 0


def test_sockets_left_unsent_are_given_up_after_a_while_and_the_move_timed_to_the_last_that_got_it(worker, slot):
    sent_by(slot, slot.socks[0], t_send=100.0)
    worker.on_ack(slot, {"type": "ack", "action_id": "a1", "version": 6}, 100.01)
    frame(worker, slot, 0, json_view(6), 100.02)
    frame(worker, slot, 1, page(6), 100.03)
    worker.settle(slot, 100.5, give_up_after=loadgen.UNSENT_AFTER)
    assert worker.count["delivered"] == 0
    worker.settle(slot, 106.0, give_up_after=loadgen.UNSENT_AFTER)
    assert worker.count["delivered"] == 1 and worker.count["viewers_not_sent"] == 2
    assert worker.latency.get_max_value() == pytest.approx(30_000, rel=0.01)


def test_the_processes_tallies_add_up_per_table_and_socket_kind(worker, slot):
    sent_by(slot, slot.socks[1], t_send=100.0)
    for index, kind_time in enumerate((100.02, 100.01, 100.03, 100.04)):
        frame(worker, slot, index, page(6) if slot.socks[index].kind == "page" else json_view(6), kind_time)
    one = {"by_table": {name: {**{k: v for k, v in t.items() if not k.startswith("latency")},
                               "latency": t["latency"].encode(),
                               "latency_by_socket": {k: h.encode() for k, h in t["latency_by_socket"].items()}}
                        for name, t in worker.by_table.items()}}
    tables = loadgen.merge_tables([one, one], duration=2.0)
    row = tables["snowball-fight"]
    assert row["actions_per_s"] == 1.0  # two acks over two seconds
    assert row["latency_ms"]["count"] == 2
    assert row["latency_by_socket_ms"]["json"]["max"] == pytest.approx(30, rel=0.01)
    assert row["latency_by_socket_ms"]["page"]["max"] == pytest.approx(40, rel=0.01)


def test_a_move_that_changed_only_some_views_is_timed_to_those_not_to_the_next_move(worker, slot):
    """Seat 0 marks a card (only its own view changes); seat 1 plays 3 s later, which every socket shows."""
    sent_by(slot, slot.socks[0], t_send=100.0, action_id="mark")
    worker.on_ack(slot, {"type": "ack", "action_id": "mark", "version": 6}, 100.01)
    frame(worker, slot, 0, json_view(6), 100.02)
    sent_by(slot, slot.socks[1], t_send=103.0, action_id="play")
    frame(worker, slot, 1, page(7), 103.01)
    frame(worker, slot, 0, json_view(7), 103.02)
    frame(worker, slot, 2, json_view(7), 103.03)
    frame(worker, slot, 3, page(7), 103.04)

    assert worker.count["delivered"] == 2
    assert worker.count["viewers_not_sent"] == 3  # the mark reached only its own player
    assert worker.latency.get_max_value() == pytest.approx(40_000, rel=0.01)  # neither is 3 s
    assert worker.latency_kind["json"].get_total_count() == 2
    assert worker.latency_kind["page"].get_total_count() == 1


def test_a_move_is_not_timed_to_the_next_move_of_a_page_player_whose_own_view_comes_last(worker, slot):
    """A page's player marks a card (only its own view changes), then plays 3 s later; every
    other socket shows the play before the player's own page does, so its version is not yet
    known when they have it."""
    player = slot.socks[1]
    sent_by(slot, player, t_send=100.0, action_id="mark")
    frame(worker, slot, 1, page(6), 100.01)
    sent_by(slot, player, t_send=103.0, action_id="play")
    frame(worker, slot, 0, json_view(7), 103.01)
    frame(worker, slot, 2, json_view(7), 103.02)
    frame(worker, slot, 3, page(7), 103.03)
    frame(worker, slot, 1, page(7), 103.04)

    assert worker.count["delivered"] == 2
    assert worker.latency.get_max_value() == pytest.approx(40_000, rel=0.01)  # neither is 3 s
