"""Channel layers: Channels' own, made cheaper for what Snowball sends through them.

``InMemoryLayer`` serves the one-process mode; ``RedisFanoutLayer`` the workers that share a
Redis (docker compose). Both only queue messages: each consumer takes its own from its own
queue in its own task, so a slow socket delays nobody else. A consumer may hand the layer its
inbox (``attach_inbox``): the layer then puts the channel's messages there, beside the
client's frames (games/consumers.py, ``ArrivalControlMixin``), and ``receive`` is not used for
that channel. An inbox holds at most ``capacity`` messages; past that, a message to it is
dropped: ``InMemoryLayer.send`` raises ``ChannelFull``, as Channels' in-memory layer does, and
the fan-out layer logs it.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import uuid
import weakref
from collections import deque
from typing import Any

import redis.asyncio as aioredis
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import BoundedQueue, RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


class Inbox:
    """A consumer's queue of messages: its client's frames and its channel's messages, put by
    the loop's callbacks and tasks, taken by the consumer alone.

    ``asyncio.Queue``'s part that is used (``put_nowait``, ``get``, ``get_nowait``, ``qsize``,
    ``empty``) for one reader: one deque and, while the reader waits, one future, where a
    Queue keeps four deques and an event for any number of readers and writers, 3 KB of each
    idle socket's memory."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[dict[str, Any]] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, message: dict[str, Any]) -> None:
        self._items.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> dict[str, Any]:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> dict[str, Any]:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()


class InMemoryLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, with a cheaper sweep.

    ``InMemoryChannelLayer._clean_expired`` walks every channel and every group membership
    on each ``send``, ``receive`` and ``group_send``: with N sockets connected every message
    costs O(N). Expiry (of messages after ``expiry`` seconds, of memberships after
    ``group_expiry``) only needs noticing eventually; sweeping once a second keeps it within
    a second of its limits.
    """

    sweep_interval = 1.0
    _last_sweep = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inboxes: dict[str, Inbox] = {}

    def attach_inbox(self, channel: str, inbox: Inbox) -> None:
        """From now on, put ``channel``'s messages in ``inbox`` (its consumer's own queue)."""
        self.inboxes[channel] = inbox

    def detach_inbox(self, channel: str) -> None:
        self.inboxes.pop(channel, None)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        inbox = self.inboxes.get(channel)
        if inbox is None:
            await super().send(channel, message)
            return
        assert isinstance(message, dict), "message is not a dict"
        if not self._put_in_inbox(channel, inbox, message):
            raise ChannelFull(channel)

    def _put_in_inbox(self, channel: str, inbox: Inbox, message: dict[str, Any]) -> bool:
        """A copy of ``message`` in ``inbox``, unless it holds the channel's capacity already (False)."""
        if inbox.qsize() >= self.get_capacity(channel):
            return False
        inbox.put_nowait(dict(message))
        return True

    async def queue_here(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for a channel of this process (games/version_watch.py)."""
        try:
            await self.send(channel, message)
        except ChannelFull:
            log.info("channel %s is full; dropped %s", channel, message.get("type"))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Each member in turn, without a task per member (Channels' version makes one)."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass

    def group_send_now(self, group: str, message: dict[str, Any]) -> bool:
        """``group_send``, done before this returns, when every member has an inbox (a
        consumer's; games/consumers.py): True. False, having sent nothing, otherwise."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        members = list(self.groups.get(group, {}))
        inboxes = [self.inboxes.get(channel) for channel in members]
        if None in inboxes:
            return False
        for channel, inbox in zip(members, inboxes):
            if not self._put_in_inbox(channel, inbox, message):
                log.info("channel %s is full; dropped %s", channel, message.get("type"))
        return True

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()


RESYNC = {"type": "group.resync"}
"""What a member gets when the layer may have missed messages for its group: its consumer
should send its viewer a fresh view (every message Snowball sends is "something changed")."""


CLOSE_WAIT_SECONDS = 2.0


class _LoopFanout:
    """What the fan-out layer keeps for one event loop: its members, connections and listener,
    and the groups it is known to be alone in (``RedisFanoutLayer``, "Alone in a group")."""

    def __init__(self, layer: RedisFanoutLayer) -> None:
        self.origin = uuid.uuid4().hex
        self.members: dict[str, set[str]] = {}
        self.alone: set[str] = set()
        self.only_one_heard: dict[str, int] = {}  # group -> this loop's publish that one subscription got
        self.heard_own: dict[str, int] = {}  # group -> this loop's publish its listener heard last
        self.published = 0
        self.publisher = aioredis.Redis.from_pool(layer.create_pool(0))
        self.pubsub = self.new_subscription()
        self.listener: asyncio.Task | None = None
        self.subscriptions = asyncio.Lock()
        self.closed = False

    def forget_alone(self, group: str | None = None) -> None:
        """Forget what proves this loop alone in ``group`` (in every group: None)."""
        if group is None:
            self.alone.clear()
            self.only_one_heard.clear()
            self.heard_own.clear()
        else:
            self.alone.discard(group)
            self.only_one_heard.pop(group, None)
            self.heard_own.pop(group, None)

    def note_alone_if(self, group: str, number: int) -> None:
        """This loop's publish ``number`` was got by one subscription, and heard by this loop's
        listener: the two halves of the proof, in whichever order they came."""
        if self.only_one_heard.get(group) == number and self.heard_own.get(group) == number:
            self.alone.add(group)
            del self.only_one_heard[group], self.heard_own[group]

    async def close(self) -> None:
        """Stop the listener and close the connections, each given at most
        ``CLOSE_WAIT_SECONDS``: a worker shutting down (or a test's teardown) must not wait
        on Redis, or on a listener that missed its cancellation, for ever."""
        self.closed = True
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.cancel()
            done, _ = await asyncio.wait({listener}, timeout=CLOSE_WAIT_SECONDS)
            if not done:
                log.warning("the fan-out listener had not stopped %s s after it was cancelled; left to stop "
                            "at its next message", CLOSE_WAIT_SECONDS)
        self.forget_alone()
        for closing in (self.pubsub, self.publisher):
            try:
                await asyncio.wait_for(closing.aclose(), CLOSE_WAIT_SECONDS)
            except asyncio.TimeoutError:
                log.warning("a fan-out connection to Redis did not close within %s s; abandoned",
                            CLOSE_WAIT_SECONDS)
            except (RedisError, OSError, RuntimeError):
                pass
        self.members.clear()

    def new_subscription(self) -> aioredis.client.PubSub:
        return self.publisher.pubsub()  # its listener reads the confirmations too: "Alone in a group"


class RedisFanoutLayer(RedisChannelLayer):
    """channels_redis, with each group message sent once per process and fanned out there.

    ``RedisChannelLayer.group_send`` costs four Redis round trips to send (expire the group,
    read it, expire the channels' queues, push) and four more to receive (restore the backup,
    pop, back up, clean the backup), whatever the number of sockets. A game's version ping
    paid those eight on every move, plus a wake-up of Channels' receive loop for each socket.

    Here the members of a group are known in the process (the event loop) that holds them;
    a process that has members subscribes to the group's Redis pub/sub channel.
    ``group_send`` puts the message in the queue of each of this process's members at once
    and publishes it once for the other processes, whose listeners queue it for theirs. The
    listener never runs a consumer's handler, so a slow socket delays only itself.

    The channels this layer makes (``new_channel``) live in this process: each has an
    asyncio queue (of ``capacity`` messages; the oldest is dropped when it is full), which
    ``receive`` reads without asking Redis, and ``send`` to one of them queues there.
    Channels of other processes are not reachable with ``send`` (Snowball sends only to
    groups). Pub/sub keeps nothing for a listener that
    is cut off; when the listener's connection fails, it reconnects, subscribes again and
    sends every member ``RESYNC``, so no viewer is left on an old version (../shared/ARCHITECTURE.md:
    the version rule makes a lost message harmless, once the viewer hears of something newer).

    Groups take this process's own channels only (``new_channel``); messages to a single
    channel (``send``) go through channels_redis as before. A ``group_send`` from an event
    loop with no members (``async_to_sync`` in a management command) only publishes. All
    fan-out traffic uses the first Redis host, on a pool of its own (publishing through
    channels_redis' pool took 5.2-5.5 against 4.8-4.9 ms per action in five
    back-to-back runs).

    Alone in a group: nginx routes all of a game's sockets to one worker, so a game's group
    usually has members in one process only, and a publish for it reaches no one. A loop stops
    publishing for a group once it is known to be alone in it: ``PUBLISH`` answers how many
    subscriptions got the message, and a publish that got one, which this loop's own
    listener then hears, proves that at that moment no other subscription existed. A loop
    whose subscription to a group is confirmed (its listener reads the confirmation) publishes
    a hello on it; a loop alone in the group, hearing the hello, stops being alone and
    publishes ``RESYNC``, so the newcomer's members catch up on anything it skipped before
    the hello arrived.
    A loop that leaves a group, or whose listener lost Redis, forgets every such proof; after
    a lost listener it also sends ``RESYNC`` to the other subscribers of each group it was
    alone in, whose hellos it may have missed. A send from a loop without members (a thread,
    a management command) always publishes.

    Each pool the layer makes holds at most ``pool_size`` connections
    (``SNOWBALL_REDIS_CONNECTIONS``; in the fan-out's pool the subscription keeps one of them
    for good): past that, a publish waits up to ``pool_wait`` seconds for one to come back. redis-py's plain pool opens another connection instead whenever all
    are busy, and keeps it: a worker then held as many as its busiest moment needed (39 of
    them after 40 sockets connected at once), for as long as it ran.
    """

    brpop_timeout = 2
    """Seconds a receive blocks in Redis before asking again. channels_redis waits 5, which
    redis-py 8's default socket timeout (also 5) cuts first: after five quiet seconds the
    socket that was receiving died with ``TimeoutError``."""

    resubscribe_delay = 0.5

    def __init__(self, *args: Any, pool_size: int = 16, pool_wait: float = 5.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if pool_size < 2:
            raise ValueError("pool_size must be at least 2: the subscription keeps one connection")
        self.pool_size, self.pool_wait = pool_size, pool_wait
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopFanout] = weakref.WeakKeyDictionary()
        self._queues: dict[str, BoundedQueue] = {}
        self._inboxes: dict[str, Inbox] = {}
        self._groups_of: dict[str, int] = {}

    # ------------------------------------------------------------ this process's channels

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        if not self._is_mine(channel):
            raise ValueError(f"{channel!r} is not a channel of this process: RedisFanoutLayer sends only "
                             "to its own channels and to groups")
        self._put(channel, message)

    queue_here = send

    def attach_inbox(self, channel: str, inbox: Inbox) -> None:
        """From now on, put ``channel``'s messages in ``inbox`` (its consumer's own queue)."""
        self._inboxes[channel] = inbox
        stale = self._queues.pop(channel, None)
        while stale is not None and not stale.empty():
            inbox.put_nowait(stale.get_nowait())

    def detach_inbox(self, channel: str) -> None:
        self._inboxes.pop(channel, None)

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        inbox = self._inboxes.get(channel)
        if inbox is None:
            self._queue(channel).put_nowait(dict(message))
        elif inbox.qsize() < self.capacity:
            inbox.put_nowait(dict(message))
        else:
            log.info("channel %s is full; dropped %s", channel, message.get("type"))

    async def receive(self, channel: str) -> dict[str, Any]:
        if not self._is_mine(channel):
            raise ValueError(f"{channel!r} is not a channel of this process")
        queue = self._queue(channel)
        try:
            return await queue.get()
        finally:
            if not self._groups_of.get(channel) and queue.empty():
                self._queues.pop(channel, None)  # it left its groups, or never joined one

    def _queue(self, channel: str) -> BoundedQueue:
        queue = self._queues.get(channel)
        if queue is None:
            queue = self._queues[channel] = BoundedQueue(self.capacity)
        return queue

    def _is_mine(self, channel: str) -> bool:
        return channel.startswith(f"specific.{self.client_prefix}!")

    # ------------------------------------------------------------ groups

    async def group_add(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        if not self._is_mine(channel):
            raise ValueError(f"{channel!r} is not a channel of this process: RedisFanoutLayer's groups "
                             "take only channels made by its own new_channel()")
        here = self._here(create=True)
        members = here.members.setdefault(group, set())
        if channel not in members:
            self._groups_of[channel] = self._groups_of.get(channel, 0) + 1
        members.add(channel)
        if len(members) == 1:
            async with here.subscriptions:
                if here.members.get(group):
                    await here.pubsub.subscribe(self._topic(group))
        if here.listener is None:
            here.listener = asyncio.get_running_loop().create_task(self._listen(here), context=contextvars.Context())

    async def group_discard(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        here = self._here()
        members = here.members.get(group) if here else None
        if not members or channel not in members:
            return
        members.discard(channel)
        left = self._groups_of.pop(channel, 1) - 1
        if left:
            self._groups_of[channel] = left
        if not members:
            del here.members[group]
            here.forget_alone(group)
            async with here.subscriptions:
                if group not in here.members:
                    await here.pubsub.unsubscribe(self._topic(group))

    def group_send_now(self, group: str, message: dict[str, Any]) -> bool:
        """``group_send``, done before this returns, when this loop is known to be alone in
        ``group`` (every member is here, nothing to publish): True. False, having sent
        nothing, otherwise."""
        assert isinstance(message, dict), "Message is not a dict"
        here = self._here()
        if here is None or group not in here.alone:
            return False
        self._deliver_here(here, group, message)
        return True

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        assert self.require_valid_group_name(group), "Group name not valid"
        here = self._here()
        if here is None:  # None as the origin: every loop's listener delivers it
            publisher = aioredis.Redis.from_pool(self.create_pool(0))
            try:
                await publisher.publish(self._topic(group), self._envelope(None, group, message))
            finally:
                await publisher.aclose()
            return
        self._deliver_here(here, group, message)
        if group not in here.alone:
            await self._publish(here, group, message)

    async def _publish(self, here: _LoopFanout, group: str, message: dict[str, Any]) -> None:
        """Publish for the other processes; a publish that only one subscription heard may be
        the proof that this loop is alone in the group (confirmed when its listener hears it)."""
        here.published += 1
        number = here.published
        heard = await here.publisher.publish(self._topic(group), self._envelope(here.origin, group, message, number))
        if heard == 1 and here.members.get(group):
            here.only_one_heard[group] = number
            here.note_alone_if(group, number)
        else:
            here.only_one_heard.pop(group, None)

    # ------------------------------------------------------------ delivery in this process

    def _deliver_here(self, here: _LoopFanout, group: str, message: dict[str, Any]) -> None:
        for channel in list(here.members.get(group, ())):
            self._put(channel, message)

    async def _listen(self, here: _LoopFanout) -> None:
        """Hand every other process's group messages to this loop's members."""
        while not here.closed:
            pubsub = here.pubsub
            if pubsub.connection is None:  # nothing subscribed since a reconnect
                here.listener = None
                return
            try:
                if not pubsub.connection.is_connected:  # redis-py would reconnect without telling
                    raise RedisConnectionError("the subscription's connection was closed")
                received = await pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
                if received is not None and received.get("type") == "subscribe":
                    await self._say_hello(here, received["channel"])
            except (RedisError, OSError) as error:
                log.warning("fan-out listener lost Redis (%s); subscribing again", error)
                await self._resubscribe(here)
                continue
            if received is None or received.get("type") != "message":
                continue
            try:
                envelope = self.deserialize(received["data"])
            except Exception:
                log.exception("fan-out listener could not read a message on %s", received.get("channel"))
                continue
            group = envelope["group"]
            if envelope["origin"] == here.origin:
                if envelope.get("number") is not None and group in here.members:
                    here.heard_own[group] = envelope["number"]
                    here.note_alone_if(group, envelope["number"])
            elif envelope.get("hello"):
                await self._welcome(here, group)
            else:
                self._deliver_here(here, group, envelope["message"])

    async def _say_hello(self, here: _LoopFanout, topic: bytes | str) -> None:
        """Tell a group's other subscribers that this loop's subscription to it now holds."""
        group = (topic.decode() if isinstance(topic, bytes) else topic).removeprefix(self._topic(""))
        if here.members.get(group):
            await here.publisher.publish(self._topic(group), self.serialize(
                {"origin": here.origin, "group": group, "hello": True}))

    async def _welcome(self, here: _LoopFanout, group: str) -> None:
        """Another loop subscribed to ``group``: stop being alone in it, and, if this loop was,
        have the newcomer's members catch up on whatever was not published for them."""
        was_alone = group in here.alone
        here.forget_alone(group)
        if was_alone and here.members.get(group):
            await self._resync_the_others(here, group)

    async def _resync_the_others(self, here: _LoopFanout, group: str) -> None:
        """``RESYNC`` to the other processes' members of ``group``: this loop may have skipped
        publishing for them."""
        try:
            await self._publish(here, group, dict(RESYNC))
        except (RedisError, OSError) as error:
            log.warning("fan-out listener could not resync the other subscribers of %s (%s)", group, error)

    async def _resubscribe(self, here: _LoopFanout) -> None:
        """A new subscription for every group with members here; each member gets ``RESYNC``,
        and so does every other subscriber of a group this loop was alone in (it may have
        missed their hellos)."""
        was_alone = set(here.alone)
        here.forget_alone()
        while True:
            await asyncio.sleep(self.resubscribe_delay)
            if here.closed:
                return
            old, here.pubsub = here.pubsub, here.new_subscription()
            try:
                await old.aclose()
            except (RedisError, OSError):
                pass
            try:
                async with here.subscriptions:
                    if here.members:
                        await here.pubsub.subscribe(*(self._topic(group) for group in here.members))
            except (RedisError, OSError) as error:
                log.warning("fan-out listener could not subscribe again (%s); retrying", error)
                continue
            break
        for group in list(here.members):
            self._deliver_here(here, group, dict(RESYNC))
        for group in was_alone & set(here.members):
            await self._resync_the_others(here, group)

    # ------------------------------------------------------------ plumbing

    def create_pool(self, index: int) -> aioredis.ConnectionPool:
        """A pool of at most ``pool_size`` connections; a caller past that waits for one."""
        host = dict(self.hosts[index])
        if "address" not in host:  # a Sentinel host: channels_redis' own pool
            return super().create_pool(index)
        address = host.pop("address")
        host.pop("max_connections", None)
        return aioredis.BlockingConnectionPool.from_url(address, max_connections=self.pool_size,
                                                        timeout=self.pool_wait, **host)

    def _topic(self, group: str) -> str:
        return f"{self.prefix}:fanout:{group}"

    def _envelope(self, origin: str | None, group: str, message: dict[str, Any], number: int | None = None) -> bytes:
        return self.serialize({"origin": origin, "group": group, "message": message, "number": number})

    def _here(self, *, create: bool = False) -> _LoopFanout | None:
        loop = asyncio.get_running_loop()
        here = self._loops.get(loop)
        if here is None and create:
            here = self._loops[loop] = _LoopFanout(self)
        return here

    async def flush(self) -> None:
        await self._stop_fanout()
        await super().flush()

    async def close_pools(self) -> None:
        await self._stop_fanout()
        await super().close_pools()

    async def _stop_fanout(self) -> None:
        here = self._loops.pop(asyncio.get_running_loop(), None)
        if here is not None:
            await here.close()
