"""The version ping after a commit: sent from the database thread without holding it up."""
from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import channel_layers, get_channel_layer

from games import services


async def test_a_broadcast_from_the_database_thread_reaches_the_group_without_holding_the_thread(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layers.InMemoryLayer"}}
    channel_layers.backends.clear()
    layer = get_channel_layer()
    socket = await layer.new_channel()
    await layer.group_add(services.game_group(7), socket)

    def commit_then_broadcast() -> int:
        services.broadcast_version(game_id=7, version=3)
        return layer.channels[socket].qsize() if socket in layer.channels else 0

    waiting_when_the_thread_moved_on = await sync_to_async(commit_then_broadcast)()
    assert waiting_when_the_thread_moved_on == 0  # handed to the event loop, not awaited
    message = await asyncio.wait_for(layer.receive(socket), timeout=2)
    assert message == {"type": "game.changed", "version": 3}
    channel_layers.backends.clear()


def test_a_broadcast_outside_a_server_is_sent_before_it_returns(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layers.InMemoryLayer"}}
    channel_layers.backends.clear()
    layer = get_channel_layer()
    socket = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.game_group(8), socket)
    services.broadcast_version(game_id=8, version=5, lobby=False)
    assert layer.channels[socket].qsize() == 1
    channel_layers.backends.clear()
