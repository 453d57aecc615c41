"""The in-process LRU: what a game's sockets leaving drops (``discard_group``) is exactly
that game's entries, whatever was evicted, popped or put again before."""
from __future__ import annotations

import random
import sys
import threading
import time
from collections import OrderedDict
from operator import itemgetter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.caches import LRU

keys = st.tuples(st.integers(0, 4), st.integers(0, 3))
operations = st.lists(st.one_of(
    st.tuples(st.just("put"), keys, st.integers()),
    st.tuples(st.just("get"), keys),
    st.tuples(st.just("pop"), keys),
    st.tuples(st.just("discard_group"), st.integers(0, 4)),
    st.tuples(st.just("clear"),),
), max_size=60)


@settings(max_examples=300, deadline=None)
@given(size=st.integers(1, 8), ops=operations)
def test_a_grouped_lru_holds_what_a_plain_ordered_map_of_the_same_size_would(size, ops):
    cache: LRU = LRU(size, group_of=itemgetter(0))
    model: OrderedDict = OrderedDict()
    for op in ops:
        if op[0] == "put":
            model[op[1]] = op[2]
            model.move_to_end(op[1])
            while len(model) > size:
                model.popitem(last=False)
            cache.put(op[1], op[2])
        elif op[0] == "get":
            assert cache.get(op[1]) == model.get(op[1])
            if op[1] in model:
                model.move_to_end(op[1])
        elif op[0] == "pop":
            model.pop(op[1], None)
            cache.pop(op[1])
        elif op[0] == "discard_group":
            for key in [k for k in model if k[0] == op[1]]:
                del model[key]
            cache.discard_group(op[1])
        else:
            model.clear()
            cache.clear()
        assert list(cache._data.items()) == list(model.items())
        grouped = {key for keys_of_group in cache._groups.values() for key in keys_of_group}
        assert grouped == set(model), "the group index names exactly the entries held"


def test_discarding_a_game_leaves_the_other_games_entries():
    cache: LRU = LRU(100, group_of=itemgetter(0))
    for game in (1, 2):
        for seat in (0, 1, None):
            cache.put((game, seat), f"view {game}/{seat}")
    cache.discard_group(1)
    assert [cache.get((1, seat)) for seat in (0, 1, None)] == [None, None, None]
    assert [cache.get((2, seat)) for seat in (0, 1, None)] == ["view 2/0", "view 2/1", "view 2/None"]


def test_reads_without_the_lock_survive_other_threads_writing():
    """``get`` takes no lock: threads reading while others put, pop and drop games see a held
    value or None, never an error, and the map and its group index stay consistent."""
    cache: LRU = LRU(6, group_of=itemgetter(0))
    failures: list[BaseException] = []
    stop = threading.Event()

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while not stop.is_set():
                key = (rng.randrange(3), rng.randrange(3))
                kind = rng.randrange(10)
                if kind < 6:
                    assert cache.get(key) in (None, f"value {key}")
                elif kind < 8:
                    cache.put(key, f"value {key}")
                elif kind < 9:
                    cache.pop(key)
                else:
                    cache.discard_group(key[0])
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # hand the interpreter over between almost every two steps
    try:
        threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert not failures, failures[:3]
    assert len(cache) <= 6
    grouped = {key for keys_of_group in cache._groups.values() for key in keys_of_group}
    assert grouped == set(cache._data)
