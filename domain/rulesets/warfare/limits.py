"""Size limits of a warfare battle (seed 003), and the bounded types its setup, options and
commands use, so that every bound shows in their JSON Schema (GET /rulesets/warfare).

The seed text sets none of these: they keep one command's work small (a move searches at
most `MAX_SPEED` tiles around a unit, a shatter hits from at most eight engaged units) and
a cached battle's memory bounded, while leaving room far beyond a table-top battle (the
benchmark plays 200 units a side). RULINGS.md ("## warfare (seed 003)") gives the reasons.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "MAX_CHAMPIONS",
    "MAX_GRID",
    "MAX_HEALTH",
    "MAX_ID",
    "MAX_SIDES",
    "MAX_SPEED",
    "MAX_STAT",
    "MAX_TEXT",
    "MAX_UNITS",
    "MAX_ZONE_TILES",
    "Coordinate",
    "GridSize",
    "Health",
    "Id",
    "Ids",
    "Speed",
    "Stat",
    "Text",
    "Tile",
]

MAX_GRID = 500  # tiles per side of the map
MAX_SIDES = 8
MAX_UNITS = 2000  # 8 sides of 250 units; the benchmark plays 2 x 200
MAX_CHAMPIONS = 400
MAX_ZONE_TILES = 2500  # tiles of one reinforcement zone (a 50 x 50 square)
MAX_SPEED = 50  # tiles a unit moves in a round: bounds a move's search
MAX_STAT = 1000  # attack modifiers, defenses, damage: far above any printed unit
MAX_HEALTH = 100_000
MAX_ID = 64
MAX_TEXT = 2000

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID, pattern=r"^[A-Za-z0-9_.:-]+$")]
Ids = Annotated[tuple[Id, ...], msgspec.Meta(max_length=MAX_UNITS)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
GridSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_GRID)]
Coordinate = Annotated[int, msgspec.Meta(ge=0, le=MAX_GRID - 1)]
Tile = tuple[Coordinate, Coordinate]
Stat = Annotated[int, msgspec.Meta(ge=-MAX_STAT, le=MAX_STAT)]
Speed = Annotated[int, msgspec.Meta(ge=0, le=MAX_SPEED)]
Health = Annotated[int, msgspec.Meta(ge=1, le=MAX_HEALTH)]
