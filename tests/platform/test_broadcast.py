"""The version ping after a commit: sent from a database thread without holding it up.

Each scenario runs in a thread of its own, so that no event loop or asgiref thread state
left by earlier tests decides which path the broadcast takes.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import channel_layers, get_channel_layer

from games import services


def in_a_fresh_thread(function):
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result(timeout=30)


def fresh_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layers.InMemoryLayer"}}
    channel_layers.backends.clear()
    return get_channel_layer()


def test_a_broadcast_from_a_database_thread_reaches_the_group_without_holding_the_thread(settings):
    """The thread returns before the group send can finish: the send waits for that return."""
    layer = fresh_layer(settings)
    real_group_send = layer.group_send

    async def scenario():
        socket = await layer.new_channel()
        await layer.group_add(services.game_group(7), socket)
        thread_returned = asyncio.Event()
        sends = []

        async def group_send_once_the_thread_returned(group, message):
            try:
                await asyncio.wait_for(thread_returned.wait(), timeout=1)
                sends.append("after the thread returned")
            except asyncio.TimeoutError:  # the thread is still waiting for this send
                sends.append("while the thread waited")
            await real_group_send(group, message)

        layer.group_send = group_send_once_the_thread_returned
        await sync_to_async(services.broadcast_version, thread_sensitive=False)(game_id=7, version=3)
        thread_returned.set()
        message = await asyncio.wait_for(layer.receive(socket), timeout=2)
        return sends, message

    sends, message = in_a_fresh_thread(lambda: asyncio.run(scenario()))
    assert sends == ["after the thread returned"]  # handed to the event loop, not awaited by the thread
    assert message == {"type": "game.changed", "version": 3}
    channel_layers.backends.clear()


def test_a_broadcast_outside_a_server_is_sent_before_it_returns(settings):
    layer = fresh_layer(settings)

    def scenario() -> int:
        socket = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(services.game_group(8), socket)
        services.broadcast_version(game_id=8, version=5)
        return layer.channels[socket].qsize()

    assert in_a_fresh_thread(scenario) == 1
    channel_layers.backends.clear()


def test_a_broadcast_on_the_event_loop_itself_is_sent_by_a_task_of_that_loop(settings):
    """The one-process mode commits on the loop's thread: the ping goes out once the call returns."""
    layer = fresh_layer(settings)

    async def scenario():
        socket = await layer.new_channel()
        await layer.group_add(services.game_group(9), socket)
        services.broadcast_version(game_id=9, version=4)  # as an after-commit callback on the loop
        queued_before_yielding = layer.channels[socket].qsize() if socket in layer.channels else 0
        message = await asyncio.wait_for(layer.receive(socket), timeout=2)
        return queued_before_yielding, message

    queued, message = in_a_fresh_thread(lambda: asyncio.run(scenario()))
    assert queued == 0  # not sent inside the database call
    assert message == {"type": "game.changed", "version": 4}
    channel_layers.backends.clear()
