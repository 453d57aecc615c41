"""The headline table of docs/performance.md regenerates from the reference runs kept in bench/results/."""
import json

from bench import report
from bench.engines import table_label


def test_report_prints_every_headline_row_from_the_kept_runs(capsys):
    assert report.main([]) == 0
    printed = capsys.readouterr().out

    engines = json.loads((report.RESULTS / report.ENGINES).read_text())["results"]
    for engine in engines:
        assert f"| {table_label(engine)} | a random game | {engine['summary']['ms_per_game']['median']:.2f} ms" in printed
        act = engine["actions"]["action"]
        assert f"| {table_label(engine)} | an action (what a player waits for): p50, p99, slowest | " \
               f"{act['p50_ms']:.2f}, {act['p99_ms']:.2f}, {act['max_ms']:.2f} ms" in printed
        if engine.get("regions"):
            assert f"| {table_label(engine)} | its spotlit call: median, 90th percentile, slowest | " \
                   f"{engine['regions']['p50_ms']:.2f}, " in printed
    for shape, name in (("one process", report.LIVE_MEMORY), ("two workers", report.LIVE_REDIS)):
        run = json.loads((report.RESULTS / name).read_text())
        assert f"**Live play, {shape}** (`{report.command_of(name, run)}`; bench/results/{name}" in printed
        assert f"| p99 | {report.ms(run['ours']['latency_ms']['p99'])} | {report.ms(run['floor']['latency_ms']['p99'])} |" in printed
        assert f"| server CPU per action | {run['ours']['server_cpu_ms_per_action']:.2f} ms |" in printed
    for row in ("actions/s sustained", "| p50 |", "| lost / out of order |", "| memory per idle socket |"):
        assert printed.count(row) == 2, row
    for shape, name in (("one process", report.STEP_MEMORY), ("two workers", report.STEP_REDIS)):
        best = json.loads((report.RESULTS / name).read_text())["largest_held"]
        assert f"| {shape} | {best['games']} games, {best['rate']:,.0f} actions/s" in printed
