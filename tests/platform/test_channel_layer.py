"""The in-process layer queues every message for its consumer; a slow consumer delays only itself."""
from __future__ import annotations

import asyncio

from games.channel_layers import InMemoryLayer, Inbox
from tests.platform.layer_helpers import receiving_consumer

PING = {"type": "game.changed", "version": 2}


async def test_a_slow_consumer_does_not_delay_the_others_of_its_group():
    layer = InMemoryLayer()
    slow, slow_task = await receiving_consumer(layer, "game.1", delay=2.0)
    fast, fast_task = await receiving_consumer(layer, "game.1")
    try:
        await layer.group_send("game.1", {"type": "game.changed", "version": 1})
        await layer.group_send("game.1", PING)  # the slow one is still busy with version 1
        await asyncio.wait_for(fast.until(2), 1.0)
        assert fast.seen == [1, 2] and slow.seen == []
    finally:
        slow_task.cancel()
        fast_task.cancel()


async def test_a_consumer_that_left_gets_nothing():
    layer = InMemoryLayer()
    consumer, task = await receiving_consumer(layer, "game.1")
    await layer.group_discard("game.1", consumer.channel)
    await layer.group_send("game.1", PING)
    await asyncio.sleep(0.1)
    task.cancel()
    assert consumer.seen == []


async def test_a_consumers_inbox_gets_its_group_messages_up_to_the_layers_capacity():
    from channels.exceptions import ChannelFull

    layer = InMemoryLayer(capacity=3)
    channel = await layer.new_channel()
    inbox = Inbox()
    layer.attach_inbox(channel, inbox)
    await layer.group_add("game.1", channel)
    for version in (1, 2, 3, 4):  # the fourth finds the inbox full and is dropped
        await layer.group_send("game.1", {"type": "game.changed", "version": version})
    try:
        await layer.send(channel, PING)
        raise AssertionError("a full inbox took one more message")
    except ChannelFull:
        pass
    assert [inbox.get_nowait()["version"] for _ in range(inbox.qsize())] == [1, 2, 3]
    layer.detach_inbox(channel)
    await layer.group_send("game.1", PING)  # detached: the channel's own queue again
    assert inbox.empty() and (await asyncio.wait_for(layer.receive(channel), 1.0))["version"] == 2


async def members_with_inboxes(layer: InMemoryLayer, group: str, count: int) -> list[Inbox]:
    """``count`` new members of ``group``, each with an attached inbox (as a consumer's)."""
    inboxes = []
    for _ in range(count):
        channel = await layer.new_channel()
        inboxes.append(Inbox())
        layer.attach_inbox(channel, inboxes[-1])
        await layer.group_add(group, channel)
    return inboxes


async def test_each_member_gets_its_own_copy_of_a_group_message():
    layer = InMemoryLayer()
    inboxes = await members_with_inboxes(layer, "game.1", 2)
    await layer.group_send("game.1", {"type": "game.changed", "version": 5})
    first, second = (inbox.get_nowait() for inbox in inboxes)
    first["version"] = 99  # one consumer changing what it got
    assert second == {"type": "game.changed", "version": 5}


async def test_a_broadcast_from_the_loop_is_in_every_inbox_of_the_group_before_it_returns():
    """A move's sockets hear of it with no task in between; a member reading its channel's own
    queue (no inbox) still gets it, a moment later."""
    from games.services.broadcast import send_from_the_loop

    layer = InMemoryLayer()
    inboxes = await members_with_inboxes(layer, "game.1", 2)
    send_from_the_loop(layer, [("game.1", PING)])
    assert [inbox.get_nowait() for inbox in inboxes] == [PING, PING]

    reader = await layer.new_channel()
    await layer.group_add("game.1", reader)
    send_from_the_loop(layer, [("game.1", {"type": "game.changed", "version": 3})])
    assert all(inbox.empty() for inbox in inboxes)  # sent the usual way, to every member alike
    assert (await asyncio.wait_for(layer.receive(reader), 1.0))["version"] == 3
    assert [inbox.get_nowait()["version"] for inbox in inboxes] == [3, 3]


async def test_an_inbox_hands_its_reader_every_message_in_order_however_its_waits_end():
    """The reader waiting on an empty inbox wakes for the next message; messages put meanwhile
    wait their turn; a wait given up (the socket closing) loses nothing put after it."""
    inbox = Inbox()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()
    for version in (1, 2, 3):
        inbox.put_nowait({"version": version})
    assert (await asyncio.wait_for(reader, 1.0))["version"] == 1
    assert [(await inbox.get())["version"], inbox.get_nowait()["version"]] == [2, 3]
    assert inbox.empty() and inbox.qsize() == 0

    given_up = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    given_up.cancel()
    await asyncio.sleep(0)
    inbox.put_nowait({"version": 4})
    assert inbox.qsize() == 1 and (await asyncio.wait_for(inbox.get(), 1.0))["version"] == 4
    try:
        inbox.get_nowait()
    except asyncio.QueueEmpty:
        pass
    else:
        raise AssertionError("an empty inbox gave a message")
