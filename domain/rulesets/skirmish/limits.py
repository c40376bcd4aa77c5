"""Size limits of a skirmish battle, and the bounded types its setup, options, commands and
army specs use, so that every bound shows in their JSON Schema (GET /rulesets/skirmish).

The seed text sets none of these. Resolution is statistical (a volley costs the same for
100 soldiers as for 100,000), so the limits that bound a command's work are the number of
armies (every volley, provocation and line of effect looks at all of them), the grid (an
army's squares, its path) and the list lengths; the figures only need to keep exact
arithmetic small. RULINGS.md ("Limits") gives the reasons; `bench/worst_command.py`
measures the worst command at these limits.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "MAX_ARMIES",
    "MAX_ARMY_SIZE",
    "MAX_ARMY_SQUARES",
    "MAX_DAMAGE_TERMS",
    "MAX_FEET",
    "MAX_GRID",
    "MAX_ID",
    "MAX_LIST",
    "MAX_MOD",
    "MAX_NAME",
    "MAX_REACH",
    "MAX_SIDES",
    "MAX_SOLDIER_HP",
    "Coordinate",
    "Dc",
    "Feet",
    "GridSize",
    "Id",
    "Ids",
    "Mod",
    "Name",
    "Percent",
    "Reach",
    "Small",
    "Soldiers",
]

MAX_SIDES = 8
MAX_GRID = 500  # 10' squares per side of the map: 5,000 feet
MAX_ARMIES = 16  # armies in one battle, all forces together
MAX_ARMY_SQUARES = 1_000  # 10' squares one army covers (its representation)
MAX_ARMY_SIZE = 1_000_000  # soldiers in one army
MAX_SOLDIER_HP = 10_000
MAX_LIST = 32  # attack profiles, damage options, boons, tactics... in one list
MAX_DAMAGE_TERMS = 8  # dice terms of one damage roll (each type apart): every ADV sums them
MAX_MOD = 100  # a modifier, AC or DC: far beyond any Pathfinder statistic
MAX_FEET = 100_000  # a distance in feet (20 times the map)
MAX_REACH = 100  # feet of melee reach: the squares an army threatens grow with its square
MAX_ID = 64
MAX_NAME = 200

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID)]
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
Ids = Annotated[tuple[Id, ...], msgspec.Meta(max_length=MAX_LIST)]
GridSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_GRID)]
Coordinate = Annotated[int, msgspec.Meta(ge=-MAX_GRID, le=MAX_GRID)]
Mod = Annotated[int, msgspec.Meta(ge=-MAX_MOD, le=MAX_MOD)]
Dc = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOD)]
Feet = Annotated[int, msgspec.Meta(ge=0, le=MAX_FEET)]
Reach = Annotated[int, msgspec.Meta(ge=0, le=MAX_REACH)]
Percent = Annotated[int, msgspec.Meta(ge=0, le=10_000)]  # percent figures of tables (<= 100x)
Small = Annotated[int, msgspec.Meta(ge=0, le=MAX_MOD)]  # counts: actions, rounds, dice
Soldiers = Annotated[int, msgspec.Meta(ge=0, le=MAX_ARMY_SIZE)]
