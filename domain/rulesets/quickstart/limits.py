"""Size limits of a quickstart battle, and the bounded types the setup, options and commands
use, so that every bound shows in their JSON Schema (GET /rulesets/quickstart).

The seed text sets none of these: they keep any single command's work small (a squad rolls
one die per level, a move searches the grid) and a cached battle's memory bounded, while
leaving room far beyond a table-top battle. RULINGS.md ("Limits") gives the reasons;
`bench/worst_command.py` measures the worst command at these limits.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "MAX_BARRIERS",
    "MAX_CIRCLES",
    "MAX_DC",
    "MAX_DIE_SIDES",
    "MAX_ENGINES",
    "MAX_GRID",
    "MAX_HEROES",
    "MAX_ID",
    "MAX_LEVEL",
    "MAX_SIDES",
    "MAX_SKILLS",
    "MAX_SQUADS",
    "MAX_SURGES",
    "MAX_TEXT",
    "Coordinate",
    "Count",
    "DieFace",
    "GridSize",
    "Id",
    "Level",
    "Modifier",
    "Text",
]

MAX_GRID = 100  # squares per side of the grid: 10,000 squares for a path search
MAX_LEVEL = 30  # D&D 4e's highest level; a squad rolls one d6 per level
MAX_SIDES = 8
MAX_SQUADS = 400  # 8 sides of 50 squads
MAX_HEROES = 100
MAX_ENGINES = 100
MAX_BARRIERS = 400
MAX_CIRCLES = 100
MAX_SKILLS = 32  # skills a hero lists, skills an option table names
MAX_SURGES = 20
MAX_DIE_SIDES = 100  # the largest die an option may name (d100)
MAX_DC = 100
MAX_ID = 64  # characters of an id (a squad, a side, a skill)
MAX_TEXT = 2000  # characters of free text (a reason)

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID)]
Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
GridSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_GRID)]
Coordinate = Annotated[int, msgspec.Meta(ge=0, le=MAX_GRID - 1)]
Level = Annotated[int, msgspec.Meta(ge=1, le=MAX_LEVEL)]
DieFace = Annotated[int, msgspec.Meta(ge=1, le=6)]  # a face of the game's d6
Modifier = Annotated[int, msgspec.Meta(ge=-MAX_DC, le=MAX_DC)]  # a skill modifier
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_LEVEL)]  # bonus dice, hits, penalties
