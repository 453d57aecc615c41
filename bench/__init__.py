"""Benchmarks for Snowball: engines alone, live play under load, and the bare-websockets floor.

Each one is a module with a ``main`` (``python -m bench.engines``, ``bench.live``,
``bench.floor``, ``bench.step``); see bench/README.md. Benchmarks report, they never
pass or fail the test suite.
"""
