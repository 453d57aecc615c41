"""The Redis layer sends a group message once per process and fans it out there.

Two layer instances stand for two worker processes sharing one Redis.
"""
from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync

from games import channel_layers
from games.channel_layers import Inbox, RedisFanoutLayer
from tests.conftest import REDIS_TEST_URL, require_redis
from tests.platform.layer_helpers import receiving_consumer

pytestmark = pytest.mark.redis


@pytest.fixture
async def two_workers():
    require_redis()
    prefix = f"sbtest-{uuid.uuid4().hex[:12]}"
    layers = [RedisFanoutLayer(hosts=[REDIS_TEST_URL], prefix=prefix) for _ in range(2)]
    receivers.clear()
    yield layers
    for task in receivers:
        task.cancel()
    for layer in layers:
        await layer.close_pools()


receivers: list[asyncio.Task] = []


async def member(layer: RedisFanoutLayer, group: str = "game.1", *, delay: float = 0.0):
    consumer, task = await receiving_consumer(layer, group, delay=delay)
    receivers.append(task)
    return consumer, consumer.channel


async def until(condition, timeout: float = 3.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_every_member_on_every_worker_gets_a_group_message_once(two_workers):
    here, there = two_workers
    local_a, _ = await member(here)
    local_b, _ = await member(here)
    remote, _ = await member(there)
    stranger, _ = await member(there, "game.2")

    await here.group_send("game.1", {"type": "game.changed", "version": 5})
    await until(lambda: remote.seen and local_a.seen and local_b.seen)
    await asyncio.sleep(0.2)  # nothing more is on its way: not the sender's own copy, not a second one
    assert local_a.seen == local_b.seen == remote.seen == [5]
    assert stranger.seen == []


async def test_messages_arrive_in_the_order_they_were_sent(two_workers):
    here, there = two_workers
    remote, _ = await member(there)
    for version in range(1, 31):
        await here.group_send("game.1", {"type": "game.changed", "version": version})
    await until(lambda: len(remote.seen) == 30)
    assert remote.seen == list(range(1, 31))


async def test_a_member_that_left_gets_nothing_and_its_worker_stops_listening(two_workers):
    here, there = two_workers
    remote, channel = await member(there)
    await there.group_discard("game.1", channel)
    client = redis.Redis.from_url(REDIS_TEST_URL)
    try:
        assert client.pubsub_numsub(there._topic("game.1")) == [(there._topic("game.1").encode(), 0)]
    finally:
        client.close()
    await here.group_send("game.1", {"type": "game.changed", "version": 1})
    await asyncio.sleep(0.2)
    assert remote.seen == []


async def test_a_message_waits_in_the_members_queue_until_it_receives(two_workers):
    here, _ = two_workers
    channel = await here.new_channel()
    await here.group_add("game.1", channel)
    await here.group_send("game.1", {"type": "game.changed", "version": 3})
    assert await asyncio.wait_for(here.receive(channel), 5) == {"type": "game.changed", "version": 3}


async def test_a_slow_member_delays_neither_the_sender_nor_the_other_members(two_workers):
    """The listener and ``group_send`` only queue: a member busy with a slow handler holds up
    its own messages, not those of the other sockets of its worker."""
    here, there = two_workers
    slow, _ = await member(there, delay=3.0)
    fast, _ = await member(there)
    local_fast, _ = await member(here)
    started = asyncio.get_running_loop().time()
    for version in (1, 2):
        await here.group_send("game.1", {"type": "game.changed", "version": version})
    await until(lambda: len(fast.seen) == 2 and len(local_fast.seen) == 2, timeout=1.0)
    assert asyncio.get_running_loop().time() - started < 1.0
    assert fast.seen == local_fast.seen == [1, 2] and slow.seen == []


async def test_after_the_listener_loses_redis_every_member_is_told_to_resync_and_hears_again(two_workers):
    here, there = two_workers
    remote, _ = await member(there)
    await here.group_send("game.1", {"type": "game.changed", "version": 1})
    await until(lambda: remote.seen)
    _kill_my_subscriptions()
    await until(lambda: "group.resync" in remote.seen)
    await here.group_send("game.1", {"type": "game.changed", "version": 2})
    await until(lambda: 2 in remote.seen)
    assert remote.seen == [1, "group.resync", 2]


async def test_a_channel_of_another_process_is_refused_with_a_reason(two_workers):
    here, there = two_workers
    theirs = await there.new_channel()
    with pytest.raises(ValueError, match="not a channel of this process"):
        await here.group_add("game.1", theirs)


async def test_a_send_from_a_thread_with_no_members_reaches_the_members_of_the_same_process(two_workers):
    """A management command or a sync thread sends through ``async_to_sync``: another event loop."""
    here, _ = two_workers
    local, _ = await member(here)
    await asyncio.to_thread(async_to_sync(here.group_send), "game.1", {"type": "game.changed", "version": 9})
    await until(lambda: local.seen)
    assert local.seen == [9]


def _kill_my_subscriptions() -> None:
    """Close this process's subscriptions from Redis' side, as a Redis restart would, and no one
    else's: the test run's other workers use the same Redis."""
    import psutil

    mine = {f"{c.laddr.ip}:{c.laddr.port}" for c in psutil.Process().net_connections(kind="tcp") if c.raddr}
    client = redis.Redis.from_url(REDIS_TEST_URL)
    try:
        killed = [c["addr"] for c in client.client_list(_type="pubsub") if c["addr"] in mine]
        assert killed, "no subscription of this process to close"
        for addr in killed:
            client.client_kill(addr)
    finally:
        client.close()


def _my_redis_connections() -> int:
    """This process's open connections to the test Redis."""
    import psutil
    from urllib.parse import urlparse

    port = urlparse(REDIS_TEST_URL).port or 6379
    return sum(1 for c in psutil.Process().net_connections(kind="tcp")
               if c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED)


async def test_a_burst_of_sends_waits_for_the_pool_instead_of_opening_connections():
    """300 group messages at once from one worker, to 30 games watched on another: every one
    arrives, and the sending worker never holds more than its pool's connections."""
    require_redis()
    prefix = f"sbtest-{uuid.uuid4().hex[:12]}"
    here = RedisFanoutLayer(hosts=[REDIS_TEST_URL], prefix=prefix, pool_size=4)
    there = RedisFanoutLayer(hosts=[REDIS_TEST_URL], prefix=prefix)
    receivers.clear()
    try:
        remote = [(await member(there, f"game.{i}"))[0] for i in range(30)]
        for i in range(30):
            await member(here, f"game.{i}")
        before = _my_redis_connections()
        counts: list[int] = []
        sending = threading.Event()

        def count_meanwhile() -> None:
            while not sending.is_set():
                counts.append(_my_redis_connections() - before)

        counter = threading.Thread(target=count_meanwhile)
        counter.start()
        try:
            async with asyncio.timeout(30):  # a pool that lost a wake-up fails here, not at pytest's timeout
                await asyncio.gather(*(here.group_send(f"game.{i % 30}", {"type": "game.changed",
                                                                          "version": i // 30 + 1})
                                       for i in range(300)))
        finally:
            sending.set()
            counter.join()
        await until(lambda: all(len(r.seen) == 10 for r in remote), timeout=10)
        assert max(counts) <= 4 - 1  # the subscription's connection was open before
        assert _my_redis_connections() - before <= 3
    finally:
        for task in receivers:
            task.cancel()
        for layer in (here, there):
            await layer.close_pools()


async def test_an_attached_inbox_gets_what_waited_for_its_channel_then_every_worker_s_messages(two_workers):
    here, there = two_workers
    channel = await here.new_channel()
    await here.group_add("game.1", channel)
    await here.group_send("game.1", {"type": "game.changed", "version": 1})  # before the consumer attached
    inbox = Inbox()
    here.attach_inbox(channel, inbox)
    await there.group_send("game.1", {"type": "game.changed", "version": 2})  # from the other worker
    await until(lambda: inbox.qsize() == 2, timeout=5.0)
    assert [inbox.get_nowait()["version"] for _ in range(2)] == [1, 2]
    here.detach_inbox(channel)
    await here.group_send("game.1", {"type": "game.changed", "version": 3})
    assert inbox.empty() and (await asyncio.wait_for(here.receive(channel), 5))["version"] == 3


def count_publishes(layer: RedisFanoutLayer) -> list[str]:
    """The groups this loop's fan-out publishes for, one entry a publish, from now on."""
    fanout = layer._here()
    published: list[str] = []
    publish = fanout.publisher.publish

    async def counted(topic, data):
        published.append(topic.removeprefix(layer._topic("")))
        return await publish(topic, data)

    fanout.publisher.publish = counted
    return published


async def alone_in(layer: RedisFanoutLayer, group: str, recorder, first_version: int) -> int:
    """Send to ``group`` from ``layer`` until a send is no longer published (the loop knows it
    is alone in the group); the next version to send."""
    published = count_publishes(layer)
    version = first_version
    for _ in range(50):
        before = len(published)
        await layer.group_send(group, {"type": "game.changed", "version": version})
        version += 1
        if len(published) == before:
            return version
        await until(lambda: len(recorder.seen) == version - first_version)
        await asyncio.sleep(0.02)  # its listener hears its own publish
    raise AssertionError(f"still publishing for {group} after 50 sends: {published}")


async def test_a_worker_alone_in_a_game_stops_publishing_and_its_members_still_hear_everything(two_workers):
    here, there = two_workers
    local, _ = await member(here)
    elsewhere, _ = await member(there, "game.2")  # another worker, subscribed to another game only
    version = await alone_in(here, "game.1", local, 1)
    published = count_publishes(here)
    for v in range(version, version + 20):
        await here.group_send("game.1", {"type": "game.changed", "version": v})
    await until(lambda: len(local.seen) == version + 19)
    assert published == []
    assert local.seen == list(range(1, version + 20))
    assert elsewhere.seen == []


async def test_a_member_joining_on_another_worker_catches_up_on_what_was_not_published(two_workers):
    """The lone worker may skip a publish before it hears that another worker subscribed: the
    newcomer is then told to resync, and from then on hears every message."""
    here, there = two_workers
    local, _ = await member(here)
    version = await alone_in(here, "game.1", local, 1)
    remote, _ = await member(there)
    await here.group_send("game.1", {"type": "game.changed", "version": version})  # most likely skipped
    await until(lambda: version in remote.seen or "group.resync" in remote.seen)
    published = count_publishes(here)
    await here.group_send("game.1", {"type": "game.changed", "version": version + 1})
    await until(lambda: version + 1 in remote.seen)
    assert published == ["game.1"]
    assert remote.seen[-1] == version + 1


async def test_a_worker_that_left_a_game_and_came_back_publishes_until_it_is_alone_again(two_workers):
    here, there = two_workers
    local, channel = await member(here)
    version = await alone_in(here, "game.1", local, 1)
    await here.group_discard("game.1", channel)
    remote, _ = await member(there)
    await asyncio.sleep(0.2)  # its hello is gone by while this worker was not listening
    again, _ = await member(here)
    await asyncio.sleep(0.2)
    await here.group_send("game.1", {"type": "game.changed", "version": version})
    await until(lambda: version in remote.seen)
    assert version in again.seen


async def test_a_worker_alone_in_a_game_whose_listener_lost_redis_catches_up_the_others(two_workers):
    """While its listener is cut off it misses a newcomer's hello: once subscribed again it
    tells the newcomer to resync (for what it skipped meanwhile) and publishes again."""
    here, there = two_workers
    here.resubscribe_delay = 1.0
    local, _ = await member(here)
    version = await alone_in(here, "game.1", local, 1)
    _kill_my_subscriptions()
    remote, _ = await member(there)  # its hello goes by while this worker is not listening
    await asyncio.sleep(0.2)
    await here.group_send("game.1", {"type": "game.changed", "version": version})  # skipped: still alone
    await until(lambda: "group.resync" in remote.seen)
    await here.group_send("game.1", {"type": "game.changed", "version": version + 1})
    await until(lambda: version + 1 in remote.seen)


async def test_a_broadcast_from_the_loop_of_a_lone_worker_is_in_its_members_inboxes_before_it_returns(two_workers):
    """Alone in a game, a worker puts a move's message in its members' inboxes at once, with
    nothing published; once another worker has a member, the message is published too."""
    from games.services.broadcast import send_from_the_loop

    here, there = two_workers
    local, _ = await member(here)
    version = await alone_in(here, "game.1", local, 1)
    channel = await here.new_channel()
    inbox = Inbox()
    here.attach_inbox(channel, inbox)
    await here.group_add("game.1", channel)
    published = count_publishes(here)
    send_from_the_loop(here, [("game.1", {"type": "game.changed", "version": version})])
    assert inbox.get_nowait()["version"] == version
    assert published == []

    remote, _ = await member(there)
    await until(lambda: "game.1" not in here._here().alone)  # its hello reached this worker
    await until(lambda: "group.resync" in remote.seen)
    published = count_publishes(here)
    send_from_the_loop(here, [("game.1", {"type": "game.changed", "version": version + 1})])
    await until(lambda: version + 1 in remote.seen)
    assert published == ["game.1"]
    assert (await asyncio.wait_for(inbox.get(), 1.0))["version"] == version + 1


async def test_closing_the_layer_returns_even_when_redis_never_answers_the_close(two_workers, monkeypatch, caplog):
    """A worker's shutdown (or a test's teardown) is bounded: a connection whose close hangs is
    abandoned after ``CLOSE_WAIT_SECONDS``, with a warning, and the listener stops."""
    here, _ = two_workers
    await member(here)
    fanout = here._here()
    listener = fanout.listener
    monkeypatch.setattr(channel_layers, "CLOSE_WAIT_SECONDS", 0.3)
    closes = fanout.pubsub.aclose

    async def never_answers():
        await asyncio.Event().wait()

    fanout.pubsub.aclose = never_answers
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(here.close_pools(), timeout=5)
    assert asyncio.get_running_loop().time() - started < 2
    assert "did not close within 0.3 s" in caplog.text
    assert listener.done() and fanout.closed
    await closes()
