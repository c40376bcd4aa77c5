"""Grid geometry for seed 001: adjacency ("base contact"), distance and path search.

Movement and contact share one adjacency option: with "eight" a diagonal step costs one
square like an orthogonal one; with "orthogonal" there are no diagonal steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

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
    seen = {start}
    frontier = deque([(start, 0)])
    while frontier:
        p, d = frontier.popleft()
        if d >= limit:
            continue
        for n in neighbours(p, width, height, eight):
            if n in seen or n in blocked:
                continue
            if n == goal:
                return d + 1
            seen.add(n)
            frontier.append((n, d + 1))
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
    seen = {start}
    frontier = deque([(start, 0)])
    best: int | None = None
    hits: list[Pos] = []
    while frontier:
        p, d = frontier.popleft()
        if best is not None and d + 1 > best:
            break
        for n in neighbours(p, width, height, eight):
            if found(n):
                if best is None:
                    best = d + 1
                if n not in hits:
                    hits.append(n)
            if n in seen or n in blocked:
                continue
            seen.add(n)
            frontier.append((n, d + 1))
    return None if best is None else (best, hits)
