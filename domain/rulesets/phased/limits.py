"""Size limits of a phased battle and the bounded types its setup, options and commands use,
so that every bound shows in their JSON Schema (GET /rulesets/phased).

The seed text (004, "Combat Round") sets none of these: they keep a command's work small
and a cached battle's memory bounded while leaving room far beyond a table-top round.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "MAX_COMBATANTS",
    "MAX_PHASES",
    "MAX_SIDES",
    "Coordinate",
    "DiceText",
    "Id",
    "Name",
    "Phases",
    "Points",
    "Rank",
    "Rounds",
    "SaveTarget",
    "Score",
    "Small",
    "Text",
]

MAX_SIDES = 16
MAX_COMBATANTS = 500
MAX_GRID = 1000
MAX_PHASES = 20  # phases an action may last or be delayed (two rounds of ten)
MAX_ROUNDS = 20  # rounds a spell may take to cast

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_:-]+$")]
Name = Annotated[str, msgspec.Meta(max_length=200)]
Text = Annotated[str, msgspec.Meta(max_length=2000)]
# A speed rank: -3 Lightning Fast ... 5 Glacially Slow (Combat Phases table)
Rank = Annotated[int, msgspec.Meta(ge=-3, le=5)]
Phases = Annotated[int, msgspec.Meta(ge=0, le=MAX_PHASES)]
Rounds = Annotated[int, msgspec.Meta(ge=0, le=MAX_ROUNDS)]
Score = Annotated[int, msgspec.Meta(ge=1, le=30)]  # an ability score such as Dexterity
Small = Annotated[int, msgspec.Meta(ge=-10, le=10)]  # a speed modifier
SaveTarget = Annotated[int, msgspec.Meta(ge=1, le=40)]  # a save or check: d20 + mod >= it
Points = Annotated[int, msgspec.Meta(ge=-9999, le=9999)]  # hit points, AC, to-hit
Coordinate = Annotated[int, msgspec.Meta(ge=0, le=MAX_GRID - 1)]
DiceText = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{0,2}d[0-9]{1,3}([+-][0-9]{1,3})?$")]
