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
    layer = fresh_layer(settings)

    async def scenario():
        socket = await layer.new_channel()
        await layer.group_add(services.game_group(7), socket)

        def commit_then_broadcast() -> int:
            services.broadcast_version(game_id=7, version=3)
            return layer.channels[socket].qsize() if socket in layer.channels else 0

        waiting_when_the_thread_moved_on = await sync_to_async(commit_then_broadcast, thread_sensitive=False)()
        message = await asyncio.wait_for(layer.receive(socket), timeout=2)
        return waiting_when_the_thread_moved_on, message

    waiting, message = in_a_fresh_thread(lambda: asyncio.run(scenario()))
    assert waiting == 0  # handed to the event loop, not awaited by the database thread
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
