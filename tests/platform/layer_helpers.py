"""A consumer's receive loop without a socket, for the channel layers' tests."""
from __future__ import annotations

import asyncio
from typing import Any


class Recorder:
    """Takes its channel's messages one at a time, as a consumer's receive loop does, and
    records each ``game.changed`` version after ``delay`` seconds of handling."""

    def __init__(self, channel: str, delay: float = 0.0) -> None:
        self.channel = channel
        self.delay = delay
        self.seen: list[Any] = []

    async def handle(self, message: dict[str, Any]) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.seen.append(message.get("version", message["type"]))

    async def until(self, count: int) -> None:
        while len(self.seen) < count:
            await asyncio.sleep(0.01)


async def receiving_consumer(layer, group: str, *, delay: float = 0.0) -> tuple[Recorder, asyncio.Task]:
    """A member of ``group`` whose receive loop runs as a task (cancel it when done)."""
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    recorder = Recorder(channel, delay)

    async def receive_forever() -> None:
        while True:
            await recorder.handle(await layer.receive(channel))

    return recorder, asyncio.get_running_loop().create_task(receive_forever())
