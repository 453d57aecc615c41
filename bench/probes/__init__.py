"""Reliability probes: the site attacked and broken on purpose (docs/reliability.md)."""
