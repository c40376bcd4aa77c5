"""Map geometry of seed 000: footprints, facing, threatened squares, flanks, zones, movement.

Squares are (x, y) on a grid of 10' squares, x east, y south. An army's front face is `width`
squares wide and it is `depth` ranks deep. Facing is one of eight directions 45 degrees apart
(RULINGS.md, "Map and facing"):

- the four grid directions: the army covers the rectangle whose top-left square is
  (army.x, army.y), turned by its facing;
- the four diagonals: (army.x, army.y) is the front-left square of the front rank; each rank
  is `width` squares touching corner to corner along the diagonal, and the ranks are packed
  half a diagonal apart (a rank's squares share edges with the next rank's), so the army
  still covers width x depth squares with `width` of them on its front face.

Both are boxes in the army's own frame: f = forward . p along its facing, l = right . p
across it. The front rank is the largest f; "45 degrees in either direction from the
corners" is the cone of squares ahead of the front rank whose lateral excess beyond the
front rank's ends is at most their distance ahead, which holds for the eight facings alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal, NamedTuple

from domain.rulesets.skirmish.model import Army, Force, State, Zones
from domain.rulesets.skirmish.specs import Facing

__all__ = [
    "FACINGS",
    "FORWARD",
    "DirectionClass",
    "Face",
    "Square",
    "Zone",
    "anchored",
    "army_box",
    "army_squares",
    "dims",
    "direction_class",
    "engaged",
    "face_of",
    "footprint",
    "front_arc",
    "front_corners",
    "in_front",
    "is_diagonal",
    "move_allowance",
    "move_feet",
    "path",
    "reach_squares",
    "right_of",
    "sees",
    "swept",
    "threatened",
    "threatens",
    "turned",
    "zone_of",
    "zone_rows",
]

Square = tuple[int, int]
Zone = Literal["command", "camp", "ranged", "melee", "none"]
Face = Literal["front", "left", "right", "back"]
# The eight facings, clockwise from north, 45 degrees apart.
FACINGS: tuple[Facing, ...] = (
    "north",
    "northeast",
    "east",
    "southeast",
    "south",
    "southwest",
    "west",
    "northwest",
)
FORWARD: dict[str, tuple[int, int]] = {
    "north": (0, -1),
    "northeast": (1, -1),
    "east": (1, 0),
    "southeast": (1, 1),
    "south": (0, 1),
    "southwest": (-1, 1),
    "west": (-1, 0),
    "northwest": (-1, -1),
}


def is_diagonal(facing: str) -> bool:
    fx, fy = FORWARD[facing]
    return fx != 0 and fy != 0


def right_of(facing: str) -> tuple[int, int]:
    """The army's right hand (its front face runs this way, left to right)."""
    fx, fy = FORWARD[facing]
    return -fy, fx


def _dot(v: tuple[int, int], p: Square) -> int:
    return v[0] * p[0] + v[1] * p[1]


def dims(width: int, depth: int, facing: Facing) -> tuple[int, int]:
    """(columns, rows) of a grid-facing rectangle `width` wide at the front and `depth` deep
    (for a diagonal facing: width and depth, which have no columns and rows)."""
    return (depth, width) if facing in ("east", "west") else (width, depth)


def _diagonal_box(x: int, y: int, width: int, depth: int, facing: Facing) -> set[Square]:
    """The lattice squares with f in (f0 - depth, f0] and l in [l0, l0 + 2 width) where
    (x, y) is the front-left square: `width` squares per rank, `depth` ranks."""
    fwd, right = FORWARD[facing], right_of(facing)
    f0, l0 = _dot(fwd, (x, y)), _dot(right, (x, y))
    out: set[Square] = set()
    for r in range(depth):
        f = f0 - r
        for lat in range(l0, l0 + 2 * width):
            if (f - lat) % 2 == 0:
                out.add(((f * fwd[0] + lat * right[0]) // 2, (f * fwd[1] + lat * right[1]) // 2))
    return out


# Pure functions of a few ints, asked again and again for the same armies within one command
# (a volley phase weighs every army against every other): cached. The sizes bound memory by
# a few hundred footprints of at most MAX_ARMY_SQUARES squares (`limits`).
_CACHE = 256


@lru_cache(maxsize=_CACHE)
def footprint(x: int, y: int, width: int, depth: int, facing: Facing) -> frozenset[Square]:
    if is_diagonal(facing):
        return frozenset(_diagonal_box(x, y, width, depth, facing))
    cols, rows = dims(width, depth, facing)
    return frozenset((x + i, y + j) for i in range(cols) for j in range(rows))


def army_squares(a: Army) -> frozenset[Square]:
    return footprint(a.x, a.y, a.width, a.depth, a.facing)


def army_box(a: Army) -> tuple[int, int, int, int]:
    """The smallest x, y and the largest x, y of the army's squares."""
    return _box_at(a.x, a.y, a.width, a.depth, a.facing)


@lru_cache(maxsize=_CACHE)
def _box_at(x: int, y: int, width: int, depth: int, facing: Facing) -> tuple[int, int, int, int]:
    squares = footprint(x, y, width, depth, facing)
    xs, ys = [p[0] for p in squares], [p[1] for p in squares]
    return min(xs), min(ys), max(xs), max(ys)


class _Frame(NamedTuple):
    """An army seen in its own frame: its front and back ranks and their lateral ends."""

    fwd: tuple[int, int]
    right: tuple[int, int]
    front: int  # f of the front rank
    lmin: int
    lmax: int
    back: int  # f of the back rank
    bmin: int
    bmax: int
    front_rank: tuple[Square, ...]  # left to right


def _frame(a: Army) -> _Frame:
    return _frame_at(a.x, a.y, a.width, a.depth, a.facing)


@lru_cache(maxsize=_CACHE)
def _frame_at(x: int, y: int, width: int, depth: int, facing: Facing) -> _Frame:
    fwd, right = FORWARD[facing], right_of(facing)
    squares = footprint(x, y, width, depth, facing)
    front = max(_dot(fwd, p) for p in squares)
    back = min(_dot(fwd, p) for p in squares)
    rank = sorted((p for p in squares if _dot(fwd, p) == front), key=lambda p: _dot(right, p))
    rear = [_dot(right, p) for p in squares if _dot(fwd, p) == back]
    return _Frame(
        fwd=fwd,
        right=right,
        front=front,
        lmin=_dot(right, rank[0]),
        lmax=_dot(right, rank[-1]),
        back=back,
        bmin=min(rear),
        bmax=max(rear),
        front_rank=tuple(rank),
    )


def _ahead(fr: _Frame, p: Square) -> bool:
    """ "Facing": ahead of the front face and within 45 degrees of its corners."""
    d = _dot(fr.fwd, p) - fr.front
    lat = _dot(fr.right, p)
    return d > 0 and max(0, fr.lmin - lat, lat - fr.lmax) <= d


def _behind(fr: _Frame, p: Square) -> bool:
    """Behind the back face, within 45 degrees of its corners."""
    d = fr.back - _dot(fr.fwd, p)
    lat = _dot(fr.right, p)
    return d > 0 and max(0, fr.bmin - lat, lat - fr.bmax) <= d


def front_corners(a: Army) -> tuple[Square, Square]:
    """The front-left and front-right squares (the corners an army rotates along)."""
    rank = _frame(a).front_rank
    return rank[0], rank[-1]


def anchored(a: Army, width: int, depth: int) -> tuple[int, int]:
    """Anchor of the army reshaped to `width` x `depth` with its front face kept in place (it
    grows or shrinks toward its back; a diagonal army keeps its front-left square)."""
    if is_diagonal(a.facing):
        return a.x, a.y
    cols, rows = dims(a.width, a.depth, a.facing)
    new_cols, new_rows = dims(width, depth, a.facing)
    if a.facing == "south":
        return a.x, a.y + rows - new_rows
    if a.facing == "east":
        return a.x + cols - new_cols, a.y
    return a.x, a.y


def turned(a: Army, facing: Facing, pivot: str | None) -> tuple[int, int, int, int] | None:
    """ "Movement & Distance": the army's anchor, width and depth after changing its facing
    (up to 180 degrees) by "designating a new front face" (`pivot` None: the squares stay,
    so only between grid facings, or a diagonal army turning about) or by "rotating along one
    of the front corners" (`pivot` "left" / "right": that corner square stays, the front
    rank swings round it, width and depth are kept). None when the new face cannot keep the
    squares."""
    if pivot is None:
        if not is_diagonal(a.facing) and not is_diagonal(facing):
            cols, rows = dims(a.width, a.depth, a.facing)
            width, depth = (rows, cols) if facing in ("east", "west") else (cols, rows)
            return a.x, a.y, width, depth
        fx, fy = FORWARD[a.facing]
        if FORWARD[facing] != (-fx, -fy):
            return None
        squares = army_squares(a)
        fr = _frame(a)
        rear = [p for p in squares if _dot(fr.fwd, p) == fr.back]
        x, y = max(rear, key=lambda p: _dot(fr.right, p))  # its new front-left square
        return x, y, a.width, a.depth
    left, right = front_corners(a)
    rx, ry = right_of(facing)
    px, py = left if pivot == "left" else right
    if pivot == "right":
        px, py = px - (a.width - 1) * rx, py - (a.width - 1) * ry
    if is_diagonal(facing):
        return px, py, a.width, a.depth
    fx, fy = FORWARD[facing]
    corners = [
        (px + k * rx - r * fx, py + k * ry - r * fy)
        for k in (0, a.width - 1)
        for r in (0, a.depth - 1)
    ]
    return min(x for x, _ in corners), min(y for _, y in corners), a.width, a.depth


def reach_squares(feet: int, square_feet: int) -> int:
    """Reach in squares: 5' increments rounded up to the next 10' square ("Distance")."""
    return max(1, math.ceil(feet / square_feet))


def threatened(a: Army, reach_feet: int, square_feet: int) -> frozenset[Square]:
    """ "Facing": the army threatens its own squares and those along its front face up to its
    soldiers' reach (squares from a front-rank square), widening 45 degrees from the
    corners."""
    return _threatened_at(a.x, a.y, a.width, a.depth, a.facing, reach_feet, square_feet)


@lru_cache(maxsize=_CACHE)
def _threatened_at(
    x0: int, y0: int, width: int, depth: int, facing: Facing, reach_feet: int, square_feet: int
) -> frozenset[Square]:
    n = reach_squares(reach_feet, square_feet)
    fr = _frame_at(x0, y0, width, depth, facing)
    out = set(footprint(x0, y0, width, depth, facing))
    for x, y in fr.front_rank:
        for dx in range(-n, n + 1):
            for dy in range(-n, n + 1):
                if _ahead(fr, (x + dx, y + dy)):
                    out.add((x + dx, y + dy))
    return frozenset(out)


def front_arc(a: Army, depth: int = 200) -> frozenset[Square]:
    """What the army sees clearly enough to target: within 45 degrees of its front corners,
    up to `depth` squares ahead (the set form of `sees`)."""
    fr = _frame(a)
    scale = 2 if is_diagonal(a.facing) else 1
    out: set[Square] = set()
    for d in range(1, depth * scale + 1):
        f = fr.front + d
        for lat in range(fr.lmin - d, fr.lmax + d + 1):
            if scale == 1:
                out.add((f * fr.fwd[0] + lat * fr.right[0], f * fr.fwd[1] + lat * fr.right[1]))
            elif (f - lat) % 2 == 0:
                out.add(
                    (
                        (f * fr.fwd[0] + lat * fr.right[0]) // 2,
                        (f * fr.fwd[1] + lat * fr.right[1]) // 2,
                    )
                )
    return frozenset(out)


def sees(a: Army, squares: Iterable[Square]) -> bool:
    """Whether any of `squares` is within 45 degrees of the army's front corners."""
    fr = _frame(a)
    return any(_ahead(fr, p) for p in squares)


def in_front(target: Army, attacker: Army) -> bool:
    """Whether `attacker` stands in front of `target` (else it attacks a flank or the back)."""
    return sees(target, army_squares(attacker))


def face_of(target: Army, attacker: Army) -> Face:
    """Which face of `target` the attacker is at: the front cone, the back cone (45 degrees
    from the back corners), else the left or right flank by its lateral position."""
    fr = _frame(target)
    squares = army_squares(attacker)
    if any(_ahead(fr, p) for p in squares):
        return "front"
    if any(_behind(fr, p) for p in squares):
        return "back"
    lateral = sum(_dot(fr.right, p) for p in squares)
    return "left" if 2 * lateral < (fr.lmin + fr.lmax) * len(squares) else "right"


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
    backward component (a third); the same test for the eight facings."""
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


def path(a: Army, x: int, y: int) -> list[tuple[int, int]]:
    """The anchors the army passes through moving in a straight line to (x, y), in order."""
    dx, dy = x - a.x, y - a.y
    n = max(abs(dx), abs(dy))
    out: list[tuple[int, int]] = []
    for k in range(1, n + 1):
        px = a.x + (2 * dx * k + n) // (2 * n) if dx >= 0 else a.x - (2 * -dx * k + n) // (2 * n)
        py = a.y + (2 * dy * k + n) // (2 * n) if dy >= 0 else a.y - (2 * -dy * k + n) // (2 * n)
        out.append((px, py))
    return out


def swept(a: Army, x: int, y: int) -> Iterable[frozenset[Square]]:
    """The footprints the army passes through moving in a straight line to (x, y)."""
    for px, py in path(a, x, y):
        yield footprint(px, py, a.width, a.depth, a.facing)


def _bands(force: Force, z: Zones, square_feet: int) -> dict[str, tuple[int, int]]:
    """Zone -> [first row, last row + 1) along y, in squares (may extend off the map)."""
    m = z.melee_edge // square_feet
    r = z.ranged_width // square_feet
    c = z.camp_width // square_feet
    if force.home == "north":
        return {"ranged": (m - r, m), "camp": (m - r - c, m - r), "melee": (m, 10**9)}
    return {"ranged": (m, m + r), "camp": (m + r, m + r + c), "melee": (-(10**9), m)}


def zone_rows(force: Force, height: int, square_feet: int) -> dict[str, list[int] | int | None]:
    """Where `force`'s zones lie on a map `height` squares tall, for drawing: the ranged,
    camp and command zones as [first row, last row + 1) clipped to the map (None when off
    it), and `melee_edge`, the row line where its melee zone begins (None off the map).

    The command zone is `command_distance` behind the ranged zone's rear edge and
    `command_size` deep, rounded up to whole squares ("The Battlefield / Command Zone");
    where along the front it lies is the leader's and is not modelled, so it is a band."""
    z = force.zones
    if z is None:
        return {}
    bands = _bands(force, z, square_feet)
    d = z.command_distance // square_feet
    size = -(-z.command_size // square_feet)
    if force.home == "north":
        rear = bands["ranged"][0]
        bands["command"] = (rear - d - size, rear - d)
    else:
        rear = bands["ranged"][1]
        bands["command"] = (rear + d, rear + d + size)
    out: dict[str, list[int] | int | None] = {}
    for name in ("ranged", "camp", "command"):
        lo, hi = max(0, bands[name][0]), min(height, bands[name][1])
        out[name] = [lo, hi] if lo < hi else None
    m = z.melee_edge // square_feet
    out["melee_edge"] = m if 0 <= m <= height else None
    return out


def zone_of(force: Force, squares: Iterable[Square], square_feet: int) -> Zone:
    """The one zone of `force` holding every square, or "none" if they straddle zones."""
    if force.zones is None:
        return "none"
    rows = {y for _, y in squares}
    for name, (lo, hi) in _bands(force, force.zones, square_feet).items():
        if all(lo <= y < hi for y in rows):
            return name  # type: ignore[return-value]
    return "none"
