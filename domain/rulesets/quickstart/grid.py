"""Grid geometry for seed 001: adjacency ("base contact"), distance and path search.

Movement and contact share one adjacency option: with "eight" a diagonal step costs one
square like an orthogonal one; with "orthogonal" there are no diagonal steps.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from functools import lru_cache

__all__ = [
    "Pos",
    "adjacent",
    "distance",
    "flood",
    "flood_to",
    "neighbours",
    "path_cost",
    "shortest_path",
]

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
        return (dx if dx > dy else dy) == 1  # max(dx, dy), without the cost of a call
    return dx + dy == 1


def distance(a: Pos, b: Pos, eight: bool) -> int:
    """Squares between two points ignoring obstacles (Chebyshev or Manhattan)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx if dx > dy else dy) if eight else dx + dy


def path_cost(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool, limit: int
) -> int | None:
    """Fewest steps from start to goal through free squares, or None beyond `limit`."""
    if start == goal:
        return 0
    straight = distance(start, goal, eight)
    if goal in blocked or straight > limit:
        return None  # no path enters a blocked square; none is shorter than the distance
    if not (0 <= goal[0] < width and 0 <= goal[1] < height):
        return None
    # Most moves have a path as short as the distance, and finding one takes a few steps;
    # the plainest such path is free more often than not, and walking it needs no search.
    # Only when there is none, search the whole budget.
    if _plain_path_free(start, goal, blocked, width, height, eight) or _as_short_as_distance(
        start, goal, blocked, width, height, eight, straight
    ):
        return straight
    if straight < limit:
        return _bounded_search(start, goal, blocked, _steps(width, height, eight), eight, limit)
    return None


def shortest_path(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool, limit: int
) -> list[Pos] | None:
    """The squares of one shortest path from start to goal through free squares (start
    left out, goal last), or None beyond `limit`. Breadth-first, each square's neighbours
    in a fixed order (orthogonal steps first), the first path found: one path, always the
    same for the same squares."""
    if start == goal:
        return []
    if goal in blocked or distance(start, goal, eight) > limit:
        return None
    table = _steps(width, height, eight)
    came: dict[Pos, Pos] = {start: start}
    frontier = [start]
    for _ in range(limit):
        ring: list[Pos] = []
        for p in frontier:
            for n in table[p]:
                if n in came or n in blocked:
                    continue
                came[n] = p
                if n == goal:
                    path = [n]
                    while came[path[-1]] != start:
                        path.append(came[path[-1]])
                    path.reverse()
                    return path
                ring.append(n)
        frontier = ring
    return None


def _plain_path_free(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool
) -> bool:
    """Whether the plainest path as short as the distance avoids every blocked square:
    straight along the longer axis until goal lies on a diagonal, then diagonally (without
    diagonal steps: a staircase). Its squares lie between start and goal, so on the grid
    when both are (goal is). Moving straight out first clears most formations."""
    x, y = start
    if not (0 <= x < width and 0 <= y < height):
        return False  # leave an off-grid start to the search
    gx, gy = goal
    sx = (gx > x) - (gx < x)
    sy = (gy > y) - (gy < y)
    ax, ay = abs(gx - x), abs(gy - y)  # the steps left along each axis
    while ax or ay:
        if ax > ay:
            x += sx
            ax -= 1
        elif ay > ax:
            y += sy
            ay -= 1
        elif eight:
            x += sx
            y += sy
            ax -= 1
            ay -= 1
        else:
            x += sx
            ax -= 1
        if (x, y) in blocked:
            return False
    return True


def _toward(eight: bool) -> dict[Pos, tuple[Pos, ...]]:
    """For each direction (sign of dx, sign of dy), the steps, those heading that way first."""
    steps = _EIGHT if eight else _FOUR
    return {
        (sx, sy): tuple(sorted(steps, key=lambda e: -(e[0] * sx + e[1] * sy)))
        for sx in (-1, 0, 1)
        for sy in (-1, 0, 1)
    }


_TOWARD = {True: _toward(True), False: _toward(False)}


def _as_short_as_distance(
    start: Pos, goal: Pos, blocked: set[Pos], width: int, height: int, eight: bool, straight: int
) -> bool:
    """Whether a path of `straight` (the distance) steps leads from start to goal.

    On such a path every step brings the goal one square closer, so a square lies the
    same number of steps from start on every such path: depth-first search, taking the
    first step that brings the goal closer, never needs to try a square twice. Steps
    heading for the goal are tried first: on open ground the first try always succeeds.
    """
    gx, gy = goal
    sx, sy = start
    order = _TOWARD[eight][((gx > sx) - (gx < sx), (gy > sy) - (gy < sy))]
    tried: set[Pos] = set()
    # At depth k: the k-th square, its steps not yet tried, and the box holding exactly
    # its neighbours that are one step closer to goal.
    stack = [(start, iter(order), _closer(start, goal, straight - 1, eight))]
    while stack:
        (x, y), steps, (x0, x1, y0, y1) = stack[-1]
        for dx, dy in steps:
            nx, ny = x + dx, y + dy
            if x0 <= nx <= x1 and y0 <= ny <= y1 and 0 <= nx < width and 0 <= ny < height:
                n = (nx, ny)
                if n in tried or n in blocked:
                    continue
                if n == goal:
                    return True
                tried.add(n)
                left = straight - len(stack) - 1  # the distance to goal one step beyond n
                stack.append((n, iter(order), _closer(n, goal, left, eight)))
                break
        else:
            stack.pop()  # a dead end: back one square
    return False


def _closer(p: Pos, goal: Pos, left: int, eight: bool) -> tuple[int, int, int, int]:
    """For a square p that is left + 1 steps from goal, the box (x from, x to, y from, y to)
    holding exactly those of its neighbours that are `left` steps from goal: with diagonal
    steps, the squares within `left` of goal; without, those between p and goal."""
    gx, gy = goal
    if eight:
        return gx - left, gx + left, gy - left, gy + left
    px, py = p
    x0, x1 = (px, gx) if px < gx else (gx, px)
    y0, y1 = (py, gy) if py < gy else (gy, py)
    return x0, x1, y0, y1


def _bounded_search(
    start: Pos, goal: Pos, blocked: set[Pos], table: _Steps, eight: bool, limit: int
) -> int | None:
    """Breadth-first from start, one ring of squares at a time, through squares from which
    the goal is still within `limit` steps in all: the fewest steps, or None."""
    seen = set(blocked)
    seen.add(start)
    frontier = [start]
    gx, gy = goal
    d = 0
    while frontier and d < limit:
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
    return flood_to(start, blocked, width, height, eight, _Holding(found))


class _Holding:
    """The squares for which `found` holds, as a container: `flood` through `flood_to`."""

    __slots__ = ("found",)

    def __init__(self, found: Callable[[Pos], bool]) -> None:
        self.found = found

    def __contains__(self, p: object) -> bool:
        return self.found(p)  # type: ignore[arg-type]  # flood_to only asks about squares


def flood_to(
    start: Pos,
    blocked: set[Pos],
    width: int,
    height: int,
    eight: bool,
    targets: Container[Pos],
) -> tuple[int, list[Pos]] | None:
    """`flood` to the squares in `targets`: a membership test per square costs less than
    calling a predicate."""
    table = _steps(width, height, eight)
    seen = set(blocked)  # blocked squares count as seen: one test per square, not two
    seen.add(start)
    frontier = [start]
    d = 0
    hits: list[Pos] = []
    while frontier:
        ring: list[Pos] = []
        for p in frontier:
            for n in table[p]:
                if n in targets and n not in hits:
                    hits.append(n)
                if n in seen:
                    continue
                seen.add(n)
                ring.append(n)
        if hits:
            return d + 1, hits
        d += 1
        frontier = ring
    return None
