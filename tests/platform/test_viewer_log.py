"""Each viewer's log lines, carried from version to version, are the lines built afresh."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import selectors
from games.selectors import LOG_RECORDS, LogRecord, game_log, viewer_log

SEATS = (0, 1, 2, None)

readers = st.one_of(st.none(), st.sets(st.integers(0, 2), max_size=2).map(lambda s: tuple(sorted(s))))
entry_events = st.lists(readers, max_size=4)
# each step: the entries logged since the last one, and which viewers look at that version
steps = st.lists(st.tuples(st.lists(entry_events, min_size=1, max_size=45), st.sets(st.sampled_from(SEATS))),
                 min_size=1, max_size=12)


def _record(seq: int, events: list, *, who: str = "Ana") -> LogRecord:
    return LogRecord(seq=seq, lines=tuple(
        (seen_by, {"seq": seq, "type": "note", "text": f"{who}: entry {seq}, line {n}"})
        for n, seen_by in enumerate(events)))


def _snapshot(log: list[LogRecord], *, names=("Ana", "Ben", "Cid"), started_at="t0"):
    window = list(reversed(log))[:LOG_RECORDS]  # newest first, as snapshots keep it
    return SimpleNamespace(game=SimpleNamespace(pk=1, started_at=started_at), names=list(names), records=window)


@pytest.fixture(autouse=True)
def _no_logs_kept():
    selectors.VIEWER_LOGS.clear()
    yield
    selectors.VIEWER_LOGS.clear()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_carried_lines_equal_lines_built_afresh(history):
    selectors.VIEWER_LOGS.clear()
    log: list[LogRecord] = []
    for logged, viewers in history:
        for events in logged:
            log.append(_record(len(log) + 1, events))
        snap = _snapshot(log)
        for seat in sorted(viewers, key=lambda s: -1 if s is None else s):
            assert viewer_log(snap, seat) == game_log(snap.records, seat), (len(log), seat)


def test_lines_hidden_from_a_viewer_stay_hidden_when_carried():
    log = [_record(1, [None]), _record(2, [(0,)])]
    assert [line["seq"] for line in viewer_log(_snapshot(log), 1)] == [1]
    log += [_record(3, [(0,), None])]

    seen_by_ben = viewer_log(_snapshot(log), 1)
    seen_by_ana = viewer_log(_snapshot(log), 0)

    assert [line["text"] for line in seen_by_ben] == ["Ana: entry 1, line 0", "Ana: entry 3, line 1"]
    assert [line["seq"] for line in seen_by_ana] == [1, 2, 3, 3]


def test_a_new_timeline_or_new_names_start_afresh():
    log = [_record(seq, [None]) for seq in range(1, 4)]
    viewer_log(_snapshot(log), 0)
    other_game = [_record(seq, [(1,)]) for seq in range(1, 6)]  # the same id in another database

    assert viewer_log(_snapshot(other_game, started_at="t1"), 0) == []

    viewer_log(_snapshot(log), 0)
    renamed = [_record(seq, [None], who="Ann") for seq in range(1, 6)]
    lines = viewer_log(_snapshot(renamed, names=("Ann", "Bo", "Cy")), 0)
    assert [line["text"][:4] for line in lines] == ["Ann:"] * 5
