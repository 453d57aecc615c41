"""The in-process layer queues every message for its consumer; a slow consumer delays only itself."""
from __future__ import annotations

import asyncio

from games.channel_layers import InMemoryLayer
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
