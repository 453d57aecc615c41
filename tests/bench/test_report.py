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
    live_tables = 2 + (report.RESULTS / report.LIVE_REDIS_4).exists()
    for row in ("actions/s sustained", "| p50 |", "| lost / out of order |", "| memory per idle socket |"):
        assert printed.count(row) == live_tables, row
    for shape, name in (("one process", report.STEP_MEMORY), ("two workers", report.STEP_REDIS)):
        best = json.loads((report.RESULTS / name).read_text())["largest_held"]
        assert f"| {shape} | {best['games']} games, {best['rate']:,.0f} actions/s" in printed


def _pcts(p50, p99):
    return {"count": 10, "p50": p50, "p90": p99, "p99": p99, "p999": p99, "max": p99, "mean": p50}


def test_the_mix_table_gives_each_tables_p99_per_socket_kind_and_the_runs_cpu_beside_the_channels_floor():
    machine = {"when": "2026-11-28 18:00:00 +0000", "git_commit": "abc1234", "loadavg_at_start": [1.0]}
    ours = {"by_table": {"jingle-bells": {"actions_per_s": 4.0, "latency_by_socket_ms": {
                "json": _pcts(10, 40), "page": _pcts(20, 90)}}},
            "latency_by_socket_ms": {"json": _pcts(10, 40), "page": _pcts(20, 90)},
            "latency_ms": _pcts(20, 95), "sustained_actions_per_s": 4.0, "nominal_actions_per_s": 4,
            "server_cpu_ms_per_action": 12.5, "sockets": 40, "lost": 0, "out_of_order": 0,
            "cpu_cores": {"everything_else": 0.5, "cores": 2}}
    channels = {"server_cpu_ms_per_action": 1.25, "latency_ms": _pcts(5, 19)}
    run = {"machine": machine, "args": {"mode": "memory", "games": 6, "rate": 4, "duration": 30, "mix": True,
                                        "socket": "mix", "channels_floor": True},
           "ours": ours, "channels_floor": channels}
    text = report.mix_table(report.LIVE_MIX, run).markdown()
    assert "`python -m bench.live --mode memory --games 6 --rate 4 --duration 30 --mix --channels-floor`" in text
    assert "other work kept 0.50 of the 2 cores busy" in text
    assert "| jingle-bells | json | 4.0 | 10 ms | 40 ms |" in text
    assert "| jingle-bells | page | 4.0 | 20 ms | 90 ms |" in text
    assert "| every table | every socket | 4.0 of 4 | 20 ms | 95 ms (floor 19 ms, 5.0x) | 12.50 ms | 1.25 ms (10x) |" in text


def test_each_table_alone_gives_the_servers_cpu_per_move_by_table_and_socket():
    machine = {"when": "2026-11-28 18:00:00 +0000", "git_commit": "abc1234", "loadavg_at_start": [1.0]}
    row = {"table": "what-a-snowball", "socket": "page", "sustained_actions_per_s": 5.9, "nominal_actions_per_s": 6,
           "server_cpu_ms_per_action": 48.0, "latency_ms": _pcts(30, 120), "mean_view_bytes": {"player": 41000,
           "spectator": 39000}, "lost": 0, "refused": 2, "generator_bound": False,
           "cpu_cores": {"everything_else": 1.25}}
    run = {"machine": machine, "args": {"mode": "memory", "games": 12, "rate": 6, "duration": 20, "each_table": True},
           "tables": [row]}
    text = report.each_table_table(report.EACH_TABLE, run).markdown()
    assert "--each-table" in text
    assert "| what-a-snowball | page | 5.9 of 6 | 48.00 ms | 30 ms | 120 ms | 41.0 / 39.0 kB | 0 / 2 | 1.25 |" in text
