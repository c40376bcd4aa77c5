"""Grid geometry for seed 001: adjacency ("base contact"), distance and path search.

Movement and contact share one adjacency option: with "eight" a diagonal step costs one
square like an orthogonal one; with "orthogonal" there are no diagonal steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

__all__ = ["Pos", "adjacent", "distance", "flood", "neighbours", "path_cost"]

Pos = tuple[int, int]

_EIGHT = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))


def neighbours(p: Pos, width: int, height: int, eight: bool) -> Iterable[Pos]:
    x, y = p
    for dx, dy in _EIGHT if eight else _FOUR:
        nx, ny = x + dx, y + dy
        if 0 <= nx < width and 0 <= ny < height:
            yield (nx, ny)


class _Steps(dict[Pos, tuple[Pos, ...]]):
    """Each square's `neighbours`, in the same order, worked out on first use."""

    def __init__(self, width: int, height: int, eight: bool) -> None:
        super().__init__()
        self.width, self.height, self.eight = width, height, eight

    def __missing__(self, p: Pos) -> tuple[Pos, ...]:
        steps = tuple(neighbours(p, self.width, self.height, self.eight))
        if 0 <= p[0] < self.width and 0 <= p[1] < self.height:
            self[p] = steps  # squares of the grid only: the table never outgrows it
        return steps


_SHARED_SQUARES = 4096  # grids up to this size keep their table from one search to the next


@lru_cache(maxsize=32)
def _shared_steps(width: int, height: int, eight: bool) -> _Steps:
    return _Steps(width, height, eight)


def _steps(width: int, height: int, eight: bool) -> _Steps:
    if width * height <= _SHARED_SQUARES:
        return _shared_steps(width, height, eight)
    return _Steps(width, height, eight)  # a huge grid: only the squares this search visits


def adjacent(a: Pos, b: Pos, eight: bool) -> bool:
    """Base contact: neighbouring squares (8-neighbour or orthogonal)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if eight:
        return max(dx, dy) == 1
    return dx + dy == 1


def distance(a: Pos, b: Pos, eight: bool) -> int:
    """Squares between two points ignoring obstacles (Chebyshev or Manhattan)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) if eight else dx + dy


def path_cost(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool, limit: int
) -> int | None:
    """Fewest steps from start to goal through free squares, or None beyond `limit`."""
    if start == goal:
        return 0
    if goal in blocked or distance(start, goal, eight) > limit:
        return None  # no path enters a blocked square; none is shorter than the distance
    if not (0 <= goal[0] < width and 0 <= goal[1] < height):
        return None
    table = _steps(width, height, eight)
    seen = set(blocked)
    seen.add(start)
    frontier = [start]
    gx, gy = goal
    d = 0
    while frontier and d < limit:  # breadth-first, one ring of squares at a time
        d += 1
        left = limit - d  # steps left after this one: squares farther from goal are dead ends
        ring: list[Pos] = []
        for p in frontier:
            for n in table[p]:
                if n not in seen:
                    if n == goal:
                        return d
                    seen.add(n)
                    dx, dy = abs(n[0] - gx), abs(n[1] - gy)
                    if ((dx if dx > dy else dy) if eight else dx + dy) <= left:
                        ring.append(n)
        frontier = ring
    return None


def flood(
    start: Pos,
    blocked: set[Pos],
    width: int,
    height: int,
    eight: bool,
    found: Callable[[Pos], bool],
) -> tuple[int, list[Pos]] | None:
    """Breadth-first from `start` through free squares; the nearest squares next to which
    `found` holds (distance, all such target squares at that distance), or None."""
    table = _steps(width, height, eight)
    seen = {start}
    frontier = [start]
    d = 0
    hits: list[Pos] = []
    while frontier:
        ring: list[Pos] = []
        for p in frontier:
            for n in table[p]:
                if found(n) and n not in hits:
                    hits.append(n)
                if n in seen or n in blocked:
                    continue
                seen.add(n)
                ring.append(n)
        if hits:
            return d + 1, hits
        d += 1
        frontier = ring
    return None
