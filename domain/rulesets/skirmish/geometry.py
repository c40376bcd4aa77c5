"""Map geometry of seed 000: footprints, facing, threatened squares, flanks, zones, movement.

Squares are (x, y) on a grid of 10' squares, x east, y south. An army covers the rectangle
whose top-left square is (army.x, army.y); its front face is `width` squares wide and it is
`depth` squares deep, turned by its facing. Facing is one of the four grid directions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal

from domain.rulesets.skirmish.model import Army, Force, State, Zones
from domain.rulesets.skirmish.specs import Facing

__all__ = [
    "FORWARD",
    "DirectionClass",
    "Square",
    "Zone",
    "anchored",
    "army_squares",
    "dims",
    "direction_class",
    "engaged",
    "footprint",
    "front_arc",
    "in_front",
    "move_allowance",
    "move_feet",
    "reach_squares",
    "swept",
    "threatened",
    "threatens",
    "zone_of",
]

Square = tuple[int, int]
Zone = Literal["command", "camp", "ranged", "melee", "none"]
FORWARD: dict[str, tuple[int, int]] = {
    "north": (0, -1),
    "south": (0, 1),
    "east": (1, 0),
    "west": (-1, 0),
}


def dims(width: int, depth: int, facing: Facing) -> tuple[int, int]:
    """(columns, rows) of a rectangle `width` wide at the front and `depth` deep."""
    return (width, depth) if facing in ("north", "south") else (depth, width)


def footprint(x: int, y: int, width: int, depth: int, facing: Facing) -> frozenset[Square]:
    cols, rows = dims(width, depth, facing)
    return frozenset((x + i, y + j) for i in range(cols) for j in range(rows))


def anchored(a: Army, width: int, depth: int) -> tuple[int, int]:
    """Top-left square of the army reshaped to `width` x `depth` with its front face kept in
    place (it grows or shrinks toward its back)."""
    cols, rows = dims(a.width, a.depth, a.facing)
    new_cols, new_rows = dims(width, depth, a.facing)
    if a.facing == "south":
        return a.x, a.y + rows - new_rows
    if a.facing == "east":
        return a.x + cols - new_cols, a.y
    return a.x, a.y


def army_squares(a: Army) -> frozenset[Square]:
    return footprint(a.x, a.y, a.width, a.depth, a.facing)


def reach_squares(feet: int, square_feet: int) -> int:
    """Reach in squares: 5' increments rounded up to the next 10' square ("Distance")."""
    return max(1, math.ceil(feet / square_feet))


def _front(a: Army, depth: int) -> set[Square]:
    """The squares within `depth` of the army's front face and 45 degrees from its corners."""
    cols, rows = dims(a.width, a.depth, a.facing)
    x0, y0, x1, y1 = a.x, a.y, a.x + cols - 1, a.y + rows - 1
    out: set[Square] = set()
    for d in range(1, depth + 1):
        if a.facing == "north":
            out.update((x, y0 - d) for x in range(x0 - d, x1 + d + 1))
        elif a.facing == "south":
            out.update((x, y1 + d) for x in range(x0 - d, x1 + d + 1))
        elif a.facing == "east":
            out.update((x1 + d, y) for y in range(y0 - d, y1 + d + 1))
        else:
            out.update((x0 - d, y) for y in range(y0 - d, y1 + d + 1))
    return out


def threatened(a: Army, reach_feet: int, square_feet: int) -> frozenset[Square]:
    """ "Facing": the army threatens its own squares and those along its front face up to its
    soldiers' reach, widening 45 degrees from the corners."""
    return frozenset(_front(a, reach_squares(reach_feet, square_feet)) | army_squares(a))


def front_arc(a: Army, depth: int = 200) -> frozenset[Square]:
    """What the army sees clearly enough to target: within 45 degrees of its front corners."""
    return frozenset(_front(a, depth))


def in_front(target: Army, attacker: Army) -> bool:
    """Whether `attacker` stands in front of `target` (else it attacks a flank or the back)."""
    return bool(army_squares(attacker) & front_arc(target))


def threatens(a: Army, b: Army, square_feet: int) -> bool:
    return (
        a.placed and b.placed and bool(threatened(a, a.spec.reach, square_feet) & army_squares(b))
    )


def engaged(state: State, a: Army) -> list[str]:
    """Enemy armies in melee with `a` (either threatens the other)."""
    sf = state.options.square_feet
    return sorted(
        b.id
        for b in state.armies.values()
        if b.side != a.side and b.fighting and (threatens(a, b, sf) or threatens(b, a, sf))
    )


DirectionClass = Literal["forward", "sideways", "backward", "none"]


def direction_class(facing: Facing, dx: int, dy: int) -> DirectionClass:
    """ "Movement & Distance": within 45 degrees of forward (full), up to 90 (half), any
    backward component (a third)."""
    if dx == 0 and dy == 0:
        return "none"
    fx, fy = FORWARD[facing]
    f = dx * fx + dy * fy
    lateral = abs(dx * fy - dy * fx)
    if f < 0:
        return "backward"
    if f > 0 and lateral <= f:
        return "forward"
    return "sideways"


def move_feet(dx: int, dy: int, square_feet: int) -> int:
    """Distance of a straight move; every second diagonal counts double (standard combat)."""
    a, b = abs(dx), abs(dy)
    return square_feet * (max(a, b) + min(a, b) // 2)


def move_allowance(speed: int, fraction: tuple[int, int], square_feet: int) -> int:
    """speed x fraction, rounded down, then 5' increments rounded up to a full square."""
    feet = speed * fraction[0] // fraction[1]
    return math.ceil(feet / square_feet) * square_feet


def swept(a: Army, x: int, y: int) -> Iterable[frozenset[Square]]:
    """The footprints the army passes through moving in a straight line to (x, y)."""
    dx, dy = x - a.x, y - a.y
    n = max(abs(dx), abs(dy))
    for k in range(1, n + 1):
        px = a.x + (2 * dx * k + n) // (2 * n) if dx >= 0 else a.x - (2 * -dx * k + n) // (2 * n)
        py = a.y + (2 * dy * k + n) // (2 * n) if dy >= 0 else a.y - (2 * -dy * k + n) // (2 * n)
        yield footprint(px, py, a.width, a.depth, a.facing)


def _bands(force: Force, z: Zones, square_feet: int) -> dict[str, tuple[int, int]]:
    """Zone -> [first row, last row + 1) along y, in squares (may extend off the map)."""
    m = z.melee_edge // square_feet
    r = z.ranged_width // square_feet
    c = z.camp_width // square_feet
    if force.home == "north":
        return {"ranged": (m - r, m), "camp": (m - r - c, m - r), "melee": (m, 10**9)}
    return {"ranged": (m, m + r), "camp": (m + r, m + r + c), "melee": (-(10**9), m)}


def zone_of(force: Force, squares: Iterable[Square], square_feet: int) -> Zone:
    """The one zone of `force` holding every square, or "none" if they straddle zones."""
    if force.zones is None:
        return "none"
    rows = {y for _, y in squares}
    for name, (lo, hi) in _bands(force, force.zones, square_feet).items():
        if all(lo <= y < hi for y in rows):
            return name  # type: ignore[return-value]
    return "none"
