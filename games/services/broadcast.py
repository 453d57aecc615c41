"""Telling sockets and the lobby that a committed version exists.

Every announcement is sent after the commit it announces; a lost one is harmless, since
sockets that miss it catch up through :mod:`games.version_watch`.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    """The channel-layer group every socket watching this game belongs to."""
    return f"game.{game_id}"



def broadcast_after_commit(game_id: int, version: int, *, lobby: bool) -> None:
    transaction.on_commit(lambda: broadcast_version(game_id=game_id, version=version, lobby=lobby), robust=True)


def broadcast_version(*, game_id: int, version: int, lobby: bool = False) -> None:
    """Tell every socket of the game that ``version`` exists (and the lobby that it changed).

    Runs after the commit. On a thread called from an event loop (a socket's database thread,
    an HTTP view) it is handed to that loop, without waiting for it to be sent, so the thread
    goes on; on an event loop it is started as a task of that loop; elsewhere (tests,
    management commands) it is sent before this returns.
    """
    messages = [(game_group(game_id), {"type": "game.changed", "version": version})]
    if lobby:
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    send_to_groups(messages)


def announce_chat(game_id: int, notice: dict[str, Any]) -> None:
    """Tell the game's sockets of a chat change: ``chat.posted`` names the message's id and
    channel key, never its text; each socket reads what its own viewer may read."""
    send_to_groups([(game_group(game_id), notice)])


def send_to_groups(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message), from a thread or a loop, as ``broadcast_version`` says.

    In a socket's database call (``games.calls.db_call``) the messages go to the call's outbox
    instead, which the event loop sends once the call has returned: the move's broadcast and
    its result then cross from the thread to the loop in one wake-up, not two.
    """
    outbox = getattr(_OUTBOX, "messages", None)
    if outbox is not None:
        outbox.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    if _on_an_event_loop():
        send_from_the_loop(layer, messages)
        return
    loop = _serving_event_loop()
    if loop is None:
        async_to_sync(_group_send_all)(layer, messages)
    else:
        loop.call_soon_threadsafe(start_background, _group_send_all(layer, messages))


_OUTBOX = threading.local()


@contextmanager
def collecting_broadcasts(outbox: list[tuple[str, dict[str, Any]]]) -> Iterator[None]:
    """On this thread, until the block ends, ``send_to_groups`` adds its messages to ``outbox``."""
    _OUTBOX.messages = outbox
    try:
        yield
    finally:
        _OUTBOX.messages = None


def send_outbox(outbox: list[tuple[str, dict[str, Any]]]) -> None:
    """On the event loop: send what a database call collected (``collecting_broadcasts``)."""
    layer = get_channel_layer()
    if layer is not None and outbox:
        send_from_the_loop(layer, list(outbox))


def send_from_the_loop(layer, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """On the event loop: each message the layer can put in its members' inboxes at once
    (``group_send_now``: every member in this process) is put there before this returns,
    the others go in a task of their own. A move's sockets then hear of it with no task made
    and no turn of the loop in between."""
    send_now = getattr(layer, "group_send_now", None)
    later = messages
    if send_now is not None:
        later = []
        for group, message in messages:
            try:
                sent = send_now(group, message)
            except Exception:
                log.exception("broadcast to %s failed here; it is sent the usual way", group)
                sent = False
            if not sent:
                later.append((group, message))
    if later:
        start_background(_group_send_all(layer, later))


async def _group_send_all(layer, messages: list[tuple[str, dict[str, Any]]]) -> None:
    try:
        for group, message in messages:
            await layer.group_send(group, message)
    except (RedisError, OSError) as exc:  # the version rule makes a lost ping harmless; the data is committed
        log.warning("broadcast to %s lost, the layer unreachable (%s: %s); the version watch catches up",
                    [group for group, _ in messages], type(exc).__name__, exc)
    except Exception:
        log.exception("broadcast %s failed", messages)


_BACKGROUND: set[asyncio.Task] = set()


def start_background(coroutine) -> None:
    """Run ``coroutine`` as a task of its own, in an empty context: a broadcast started from a
    database thread must not inherit that call's context, in which asgiref marks the one
    database thread as busy (consumers it hands messages to may need that thread)."""
    task = asyncio.get_running_loop().create_task(coroutine, context=contextvars.Context())
    _BACKGROUND.add(task)  # the loop keeps only weak references to its tasks
    task.add_done_callback(_BACKGROUND.discard)


def _on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _serving_event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called this thread through ``sync_to_async``, if it still runs."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop
