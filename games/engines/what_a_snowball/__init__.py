"""What a Snowball!: the miniatures skirmish for 2-4 teams of Kids in a Christmas village (slug
``what-a-snowball``).
"""
from .engine import RULESET, WhatASnowball, line_of_fire_between

__all__ = ["RULESET", "WhatASnowball", "line_of_fire_between"]
