"""Every skirmish test works its geometry out afresh.

`geometry`'s footprints, boxes, frames and threatened squares are kept in `lru_cache`s
(pure functions of a few ints, asked again and again within a command). Kept across tests,
a footprint an earlier test filled in is answered from the cache: under mutmut (which forks
each mutant from the process that ran the suite) a mutant of a helper the cached function
calls (`dims`, `_diagonal_box`, `_ahead`, `reach_squares`, ...) would never run for those
armies, and mutmut's trace would not tie the test to the helper at all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.rulesets.skirmish import geometry

_CACHED = (geometry.footprint, geometry._box_at, geometry._frame_at, geometry._threatened_at)


@pytest.fixture(autouse=True)
def _fresh_geometry() -> Iterator[None]:
    for cached in _CACHED:
        cached.cache_clear()
    yield
    for cached in _CACHED:
        cached.cache_clear()
