"""The log's window: the records a snapshot keeps are enough for every viewer's newest lines."""
from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from games.selectors import snapshots
from games.selectors.snapshots import LogRecord, log_record, log_window

SEATS = range(4)
VIEWERS = [None, *SEATS]

readers = st.one_of(st.none(), st.sets(st.sampled_from(SEATS), min_size=1).map(lambda s: tuple(sorted(s))))
record_lines = st.lists(readers, max_size=4)


def _records(lines_by_record: list[list[tuple[int, ...] | None]]) -> list[LogRecord]:
    """Records newest first, each line's text naming its record and place."""
    count = len(lines_by_record)
    return [log_record(count - n, [(who, f'"{count - n}.{i}"') for i, who in enumerate(lines)])
            for n, lines in enumerate(lines_by_record)]


@settings(max_examples=300, deadline=None)
@given(lines_by_record=st.lists(record_lines, max_size=40), log_length=st.integers(min_value=1, max_value=8))
def test_every_viewer_reads_in_the_window_the_lines_it_reads_in_the_whole_log(lines_by_record, log_length):
    """Each viewer's newest ``LOG_LENGTH`` lines, its own private lines among them and no one
    else's, read from the kept records, are its newest lines of the whole log; and the window
    keeps no record older than the one holding the ``LOG_LENGTH``-th line everyone reads."""
    records = _records(lines_by_record)
    with mock.patch.object(snapshots, "LOG_LENGTH", log_length):
        window = log_window(records)
        for viewer in VIEWERS:
            readable = [f'"{len(records) - n}.{i}"' for n, lines in reversed(list(enumerate(lines_by_record)))
                        for i, who in enumerate(lines) if who is None or viewer in who]
            assert list(snapshots._seat_log(window, viewer).lines) == readable[-log_length:], viewer
        assert sum(record.lines_read_by_all for record in window[:-1]) < log_length
