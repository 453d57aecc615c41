"""Jingle Bells WAR IS HELL SNOWMAN'S GONNA PAY: the two-player dice skirmish (slug ``jingle-bells``)."""
from .engine import RULESET, JingleBells, line_of_sight

__all__ = ["RULESET", "JingleBells", "line_of_sight"]
