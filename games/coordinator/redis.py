"""The Redis coordinator: one lock, presence and barrier for every worker process.

Keys (``P`` is the prefix, "snowball" by default):

- ``P:lock:game:<id>``: redis-py's :class:`~redis.lock.Lock`, a lease of ``lease`` seconds
  (1 s) that the holder renews while its block runs, up to the lock's ``timeout``; a killed
  holder's lease runs out within a second, so it cannot wedge the game.
- ``P:presence:game:<id>``: sorted set of connection ids scored by last-seen time,
  beside ``P:presence:game:<id>:meta``, a hash of connection id to its seat and user.
  Expired entries are pruned whenever the game's presence is written or read;
  both keys vanish once the game has been silent for a while.
- ``P:barrier:game:<id>:<key>``: set of the seats that arrived; gone a day after
  the last arrival, or a minute after the one that completed the round.

Multi-key changes run as Lua scripts, so each is atomic across workers. Presence
times come from the injected clock (wall time by default), so workers on
different hosts need roughly synchronised clocks, well within ``presence_ttl``.
"""
from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import redis
from redis.exceptions import LockError, LockNotOwnedError, NoScriptError, RedisError
from redis.lock import Lock

from games.coordinator.base import (
    DEFAULT_BARRIER_TTL,
    DEFAULT_COMPLETED_ROUND_TTL,
    DEFAULT_LOCK_LEASE,
    DEFAULT_PRESENCE_TTL,
    Clock,
    Coordinator,
    LockLost,
    LockTimeout,
    Presence,
    check_arrival,
    positive,
)

log = logging.getLogger(__name__)

_PRUNE = """
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for _, conn in ipairs(dead) do
  redis.call('ZREM', KEYS[1], conn)
  redis.call('HDEL', KEYS[2], conn)
end
"""

_JOIN = _PRUNE + """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
"""

_HEARTBEAT = _PRUNE + """
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

_PRESENCE = _PRUNE + """
local live = redis.call('ZRANGE', KEYS[1], 0, -1)
local meta = {}
for i, conn in ipairs(live) do
  meta[i] = redis.call('HGET', KEYS[2], conn) or ''
end
return meta
"""

_ARRIVE = """
local added = redis.call('SADD', KEYS[1], ARGV[1])
for i = 4, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 0 then
    redis.call('EXPIRE', KEYS[1], ARGV[2])
    return 0
  end
end
if added == 0 then
  return 0
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class RedisCoordinator(Coordinator):
    """Coordinates every worker that shares one Redis and one key prefix."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "snowball",
        presence_ttl: float = DEFAULT_PRESENCE_TTL,
        barrier_ttl: float = DEFAULT_BARRIER_TTL,
        completed_round_ttl: float = DEFAULT_COMPLETED_ROUND_TTL,
        clock: Clock = time.time,
        lock_poll: float = 0.02,
        lease: float = DEFAULT_LOCK_LEASE,
        socket_timeout: float = 5.0,
        max_connections: int = 16,
    ) -> None:
        self.prefix = prefix
        self.lease = positive("lease", lease)
        self._renewer = _LeaseRenewer(self.lease)
        self.presence_ttl = positive("presence_ttl", presence_ttl)
        self.barrier_ttl = positive("barrier_ttl", barrier_ttl)
        self.completed_round_ttl = positive("completed_round_ttl", completed_round_ttl)
        self.clock = clock
        self.lock_poll = positive("lock_poll", lock_poll)
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=socket_timeout,
            decode_responses=True,
            socket_timeout=socket_timeout,
            socket_connect_timeout=socket_timeout,
            health_check_interval=30,
        )
        self.redis: redis.Redis = redis.Redis.from_pool(pool)
        self._join = self.redis.register_script(_JOIN)
        self._heartbeat_sha = self.redis.register_script(_HEARTBEAT).sha
        self._presence = self.redis.register_script(_PRESENCE)
        self._arrive = self.redis.register_script(_ARRIVE)
        self._presence_key_ttl = max(math.ceil(2 * self.presence_ttl), 60)

    @contextmanager
    def lock(self, game_id: int, *, timeout: float = 10.0, wait: float = 10.0) -> Iterator[None]:
        """The game's lock as a lease of ``lease`` seconds that this process renews while the
        block runs, for up to ``timeout`` seconds in all: a worker killed while holding it
        frees the game within one lease, a live one keeps it for its whole ``timeout``."""
        held = self._lock_of(game_id, timeout=min(self.lease, timeout), wait=wait)
        if not held.acquire():
            raise LockTimeout(game_id, wait)
        renewal = self._renewer.hold(held, until=time.monotonic() + timeout)
        try:
            yield
        except BaseException:
            self._unlock(game_id, held, renewal, timeout=timeout, failed=True)
            raise
        self._unlock(game_id, held, renewal, timeout=timeout, failed=False)

    def _unlock(self, game_id: int, held: Lock, renewal: object, *, timeout: float, failed: bool) -> None:
        self._renewer.drop(renewal)
        try:
            held.release()
        except LockNotOwnedError:
            lost = LockLost(game_id, timeout)
            if not failed:
                raise lost from None
            log.error("%s (while the block was raising)", lost)

    def _lock_of(self, game_id: int, *, timeout: float, wait: float) -> Lock:
        return self.redis.lock(
            self._key("lock", "game", game_id),
            timeout=timeout,
            sleep=self.lock_poll,
            blocking_timeout=max(wait, 0.0),
            thread_local=False,
        )

    def join(self, game_id: int, conn_id: str, *, seat: int | None, user_key: str) -> None:
        now = self.clock()
        meta = json.dumps({"seat": seat, "user": user_key})
        self._join(
            keys=self._presence_keys(game_id),
            args=[_score(now - self.presence_ttl), _score(now), conn_id, meta, self._presence_key_ttl],
        )

    def heartbeat(self, game_id: int, conn_id: str) -> bool:
        return self.heartbeats([(game_id, conn_id)])[0]

    def heartbeats(self, connections: Sequence[tuple[int, str]]) -> list[bool]:
        """All the beats in one pipeline: one round trip (two after Redis lost the script)."""
        if not connections:
            return []
        try:
            return self._heartbeats_pipelined(connections)
        except NoScriptError:
            self.redis.script_load(_HEARTBEAT)
            return self._heartbeats_pipelined(connections)

    def _heartbeats_pipelined(self, connections: Sequence[tuple[int, str]]) -> list[bool]:
        now = self.clock()
        cutoff, seen = _score(now - self.presence_ttl), _score(now)
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id, conn_id in connections:
                pipe.evalsha(self._heartbeat_sha, 2, *self._presence_keys(game_id),
                             cutoff, seen, conn_id, self._presence_key_ttl)
            return [bool(alive) for alive in pipe.execute()]

    def leave(self, game_id: int, conn_id: str) -> None:
        members, meta = self._presence_keys(game_id)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(members, conn_id)
            pipe.hdel(meta, conn_id)
            pipe.execute()

    def presence(self, game_id: int) -> Presence:
        cutoff = self.clock() - self.presence_ttl
        metas = self._presence(keys=self._presence_keys(game_id), args=[_score(cutoff)])
        return Presence.from_seats(_seat_of(m) for m in metas)

    def barrier_arrive(self, game_id: int, key: str, seat: int, expected: frozenset[int]) -> bool:
        check_arrival(seat, expected)
        completed = self._arrive(
            keys=[self._barrier_key(game_id, key)],
            args=[seat, math.ceil(self.barrier_ttl), math.ceil(self.completed_round_ttl), *sorted(expected)],
        )
        return bool(completed)

    def barrier_state(self, game_id: int, key: str) -> frozenset[int]:
        return frozenset(int(s) for s in self.redis.smembers(self._barrier_key(game_id, key)))

    def barrier_clear(self, game_id: int, key: str) -> None:
        self.redis.delete(self._barrier_key(game_id, key))

    def close(self) -> None:
        self._renewer.stop()
        self.redis.close()

    def _key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    def _presence_keys(self, game_id: int) -> list[str]:
        members = self._key("presence", "game", game_id)
        return [members, f"{members}:meta"]

    def _barrier_key(self, game_id: int, key: str) -> str:
        return self._key("barrier", "game", game_id, key)


class _LeaseRenewer:
    """One thread per coordinator that renews the leases of the locks held longer than a third
    of a lease, every third of a lease, until each one's block ends or its ``timeout`` has
    passed. Most moves hold their lock for milliseconds and are never renewed."""

    def __init__(self, lease: float) -> None:
        self.lease = lease
        self._held: dict[int, tuple[Lock, float, float]] = {}  # id -> (lock, taken at, renew until)
        self._guard = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def hold(self, lock: Lock, *, until: float) -> int:
        key = id(lock)
        with self._guard:
            self._held[key] = (lock, time.monotonic(), until)
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._run, name="snowball-lock-leases", daemon=True)
                self._thread.start()
        return key

    def drop(self, key: object) -> None:
        with self._guard:
            self._held.pop(key, None)

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def _run(self) -> None:
        step = self.lease / 3
        while not self._wake.wait(step):
            now = time.monotonic()
            with self._guard:
                due = [(key, lock, until) for key, (lock, taken, until) in self._held.items() if now - taken >= step]
            for key, lock, until in due:
                left = until - now
                if left <= 0:
                    self.drop(key)  # past its timeout: the lease runs out, the block may get LockLost
                    continue
                try:
                    lock.extend(min(self.lease, left), replace_ttl=True)
                except LockError:
                    self.drop(key)  # released meanwhile, or already expired
                except (RedisError, OSError) as error:
                    log.warning("renewing the lease of %s failed (%s); it may run out", lock.name, error)


def _score(seconds: float) -> str:
    return repr(float(seconds))


def _seat_of(meta: str) -> int | None:
    """The seat stored for a connection; None (a spectator) if the metadata is missing."""
    if not meta:
        return None
    seat = json.loads(meta).get("seat")
    return None if seat is None else int(seat)
