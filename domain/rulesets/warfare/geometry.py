"""Tiles, facing and paths for seed 003: a unit "faces a single tile" ([Facing]).

Facing is one of eight directions (W02: or four). A unit faces another when the direction
from it to the other falls in the sector its facing points into: 45 degrees wide with eight
directions (the adjacent tile straight ahead, and the wedge behind that tile), 90 degrees
with four (its edges included). The sums are integers: no float decides a facing. Distance
is in tiles, a diagonal step counting one; a move steps to any of the eight neighbours.
"""

from __future__ import annotations

from collections import deque

from domain.rulesets.warfare.model import Tile
from domain.rulesets.warfare.setup import Direction

__all__ = ["DELTA", "direction_of", "distance", "faces", "find_path", "is_step", "reachable"]

DELTA: dict[str, Tile] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
_NEIGHBOURS = tuple(DELTA.values())


def distance(a: Tile, b: Tile) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def is_step(a: Tile, b: Tile) -> bool:
    return distance(a, b) == 1


def direction_of(dx: int, dy: int) -> Direction:
    """The eight-direction sector of the vector (dx, dy) != (0, 0), y growing south.

    Within 22.5 degrees of an axis: |minor| < tan(22.5) |major|, i.e.
    (|dx| + |dy|)^2 < 2 major^2 (exact in integers; never equal for integer vectors).
    """
    ax, ay = abs(dx), abs(dy)
    s = (ax + ay) * (ax + ay)
    if s < 2 * ay * ay:
        return "N" if dy < 0 else "S"
    if s < 2 * ax * ax:
        return "W" if dx < 0 else "E"
    if dy < 0:
        return "NW" if dx < 0 else "NE"
    return "SW" if dx < 0 else "SE"


def faces(at: Tile, facing: str, target: Tile, directions: int = 8) -> bool:
    """Whether a unit at `at` facing `facing` faces the tile `target`."""
    dx, dy = target[0] - at[0], target[1] - at[1]
    if dx == 0 and dy == 0:
        return False
    if directions == 8:
        return direction_of(dx, dy) == facing
    ax, ay = abs(dx), abs(dy)
    if facing == "N":
        return dy < 0 and ax <= ay
    if facing == "S":
        return dy > 0 and ax <= ay
    if facing == "E":
        return dx > 0 and ay <= ax
    if facing == "W":
        return dx < 0 and ay <= ax
    return False


def _steps(tile: Tile, width: int, height: int, blocked: dict[Tile, str]) -> list[Tile]:
    """The tiles one step from `tile` a move may enter: on the map and not blocked (the one
    rule of a step, shared by `find_path` and `reachable` so they never disagree)."""
    out = []
    for dx, dy in _NEIGHBOURS:
        nxt = (tile[0] + dx, tile[1] + dy)
        if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in blocked:
            out.append(nxt)
    return out


def find_path(
    start: Tile, goal: Tile, budget: int, width: int, height: int, blocked: dict[Tile, str]
) -> tuple[Tile, ...] | None:
    """A shortest path (tiles entered) from `start` to `goal` of at most `budget` steps,
    around the `blocked` tiles; None when there is none. Searches only within `budget`
    of the start, so its cost is bounded by the speed limit, not the map."""
    if distance(start, goal) > budget:
        return None
    if goal == start:
        return ()
    came: dict[Tile, Tile] = {start: start}
    frontier: deque[tuple[Tile, int]] = deque([(start, 0)])
    while frontier:
        tile, steps = frontier.popleft()
        if steps >= budget:
            continue
        for nxt in _steps(tile, width, height, blocked):
            if nxt in came or distance(nxt, goal) > budget - steps - 1:
                continue
            came[nxt] = tile
            if nxt == goal:
                path = [nxt]
                while came[path[-1]] != start:
                    path.append(came[path[-1]])
                return tuple(reversed(path))
            frontier.append((nxt, steps + 1))
    return None


def reachable(
    start: Tile, budget: int, width: int, height: int, blocked: dict[Tile, str]
) -> dict[Tile, int]:
    """Every tile `find_path` reaches from `start` within `budget` steps, with the length
    of its shortest path (the same steps, one breadth-first search for all of them)."""
    seen: dict[Tile, int] = {start: 0}
    frontier: deque[Tile] = deque([start])
    while frontier:
        tile = frontier.popleft()
        steps = seen[tile]
        if steps >= budget:
            continue
        for nxt in _steps(tile, width, height, blocked):
            if nxt not in seen:
                seen[nxt] = steps + 1
                frontier.append(nxt)
    del seen[start]
    return seen
