"""[Facing] "a unit faces a single tile" of eight directions: a unit faces a tile when the
direction to it lies within 22.5 degrees of its facing's (geometry's sectors, worked out in
integers). Checked against the angle itself for every tile within six of the unit: near a
sector's edge, (1, -2) is 26.6 degrees from north (NE's) and (2, -5) 21.8 degrees (N's)."""

from __future__ import annotations

import math

from domain.rulesets.warfare.geometry import faces

EIGHT = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _by_angle(dx: int, dy: int) -> str:
    """The facing whose direction is nearest that of (dx, dy), y growing south."""
    degrees = math.degrees(math.atan2(dx, -dy)) % 360
    return EIGHT[round(degrees / 45) % 8]


def test_each_tile_is_faced_from_the_one_facing_within_22_5_degrees_of_it() -> None:
    at = (10, 10)
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            if (dx, dy) == (0, 0):
                continue
            target = (at[0] + dx, at[1] + dy)
            facing = {f for f in EIGHT if faces(at, f, target)}
            assert facing == {_by_angle(dx, dy)}, (dx, dy)


def test_near_a_sectors_edge() -> None:
    assert faces((5, 5), "NE", (6, 3)) and not faces((5, 5), "N", (6, 3))  # (1, -2)
    assert faces((5, 5), "N", (7, 0)) and not faces((5, 5), "NE", (7, 0))  # (2, -5)
    assert faces((5, 5), "SE", (7, 6)) and not faces((5, 5), "E", (7, 6))  # (2, 1)


def test_with_four_facings_a_diagonal_facing_faces_nothing() -> None:
    # W02: four facings are N, E, S, W; a diagonal (which no unit then has) covers no tile
    around = [(5 + dx, 5 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    for facing in ("NE", "SE", "SW", "NW"):
        assert not any(faces((5, 5), facing, t, 4) for t in around), facing
