"""The in-process layer hands messages straight to idle consumers, and queues them for busy ones."""
from __future__ import annotations

import asyncio

from games.channel_layers import InMemoryLayer
from games.consumers import DirectDispatchMixin

PING = {"type": "game.changed", "version": 2}


class Recorder(DirectDispatchMixin):
    """A consumer's message handling, without a socket."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []

    async def game_changed(self, message):
        self.seen.append(("handled", message["version"]))


async def a_registered_consumer() -> tuple[InMemoryLayer, Recorder, str]:
    """A layer, and a consumer in group "game.1" that takes direct deliveries."""
    layer = InMemoryLayer()
    consumer = Recorder()
    channel = await layer.new_channel()
    await layer.group_add("game.1", channel)
    layer.deliver_directly(channel, consumer)
    return layer, consumer, channel


async def test_an_idle_consumer_gets_a_group_message_at_once():
    layer, consumer, channel = await a_registered_consumer()
    await layer.group_send("game.1", PING)
    assert consumer.seen == [("handled", 2)]  # before the sender went on, with no queue in between
    assert channel not in layer.channels or layer.channels[channel].empty()


async def test_a_busy_consumer_gets_the_message_queued_and_handles_it_after_its_current_one():
    layer, consumer, channel = await a_registered_consumer()
    release = asyncio.Event()

    async def slow_handler(message):
        await release.wait()
        consumer.seen.append(("handled", message["version"]))

    consumer.game_changed_slowly = slow_handler
    busy = asyncio.create_task(consumer.dispatch({"type": "game.changed.slowly", "version": 1}))
    await asyncio.sleep(0)
    assert not consumer.ready_for_direct_delivery()
    await layer.group_send("game.1", PING)
    assert consumer.seen == []  # not handled inside the busy one
    release.set()
    await busy
    await consumer.dispatch(await layer.receive(channel))  # what the consumer's own loop does next
    assert consumer.seen == [("handled", 1), ("handled", 2)]


async def test_a_consumer_that_left_is_no_longer_handed_anything():
    layer, consumer, channel = await a_registered_consumer()
    layer.stop_delivering_directly(channel)
    await layer.group_send("game.1", PING)
    assert consumer.seen == []
    assert await layer.receive(channel) == PING
