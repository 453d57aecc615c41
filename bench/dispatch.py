"""Handing a socket's consumer one message: Channels' receive loop against one inbox.

    python -m bench.dispatch [--messages 20000] [--rounds 3]

Microseconds per message, one message in flight at a time (as a move's ``game.changed``
reaches each socket), the loop's own turn included:

- ``loop turn``: the event loop going round once, with nothing handed over (the floor);
- ``Channels``: ``InMemoryLayer.send`` to a consumer's channel, read as Channels'
  ``AsyncConsumer.__call__`` reads it (``await_many_dispatch`` over the client's frames and the
  layer's channel, ``asyncio.wait`` and a new task for every message);
- ``one inbox``: the same message put by the layer in the consumer's inbox
  (``attach_inbox``) and taken by one loop, as ``games.consumers.ArrivalControlMixin`` does.

No sockets and no handler work: what the two ways of receiving cost, and nothing else.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time


async def _loop_turn(messages: int) -> float:
    started = time.perf_counter()
    for _ in range(messages):
        await asyncio.sleep(0)
    return time.perf_counter() - started


async def _deliver(messages: int, *, inbox: bool) -> float:
    from channels.utils import await_many_dispatch

    from games.channel_layers import Inbox, InMemoryLayer

    layer = InMemoryLayer(capacity=1000)
    channel = await layer.new_channel()
    frames: Inbox | asyncio.Queue = Inbox() if inbox else asyncio.Queue()  # Channels' path: a queue like daphne's
    handled = 0

    async def dispatch(message: dict) -> None:
        nonlocal handled
        handled += 1

    async def one_inbox() -> None:
        while True:
            await dispatch(await frames.get())

    if inbox:
        layer.attach_inbox(channel, frames)
        consumer = asyncio.create_task(one_inbox())
    else:
        consumer = asyncio.create_task(await_many_dispatch([frames.get, lambda: layer.receive(channel)], dispatch))
    await asyncio.sleep(0)
    started = time.perf_counter()
    for version in range(messages):
        await layer.send(channel, {"type": "game.changed", "version": version})
        while handled <= version:
            await asyncio.sleep(0)
    elapsed = time.perf_counter() - started
    consumer.cancel()
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dispatch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
    import django

    django.setup()
    runs = {"loop turn": [], "Channels": [], "one inbox": []}
    for _ in range(args.rounds):
        runs["loop turn"].append(asyncio.run(_loop_turn(args.messages)))
        runs["Channels"].append(asyncio.run(_deliver(args.messages, inbox=False)))
        runs["one inbox"].append(asyncio.run(_deliver(args.messages, inbox=True)))
    for name, seconds in runs.items():
        print(f"{name:>10}: {statistics.median(seconds) / args.messages * 1e6:6.2f} µs a message "
              f"(median of {args.rounds})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
