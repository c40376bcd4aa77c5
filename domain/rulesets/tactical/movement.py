"""Shortest moves on the grid of seed 002 ([Move Actions]; tactical-reading A46, A47).

A move is a chain of steps to one of the 8 adjacent squares. A step costs what the
`metric` counts for it (geometry.distance, A46): 1 for an orthogonal step; a diagonal
costs 1 ("chebyshev", the default), 2 ("manhattan"), or alternately 1 and 2 along the
path ("alternating": the first diagonal 1, the second 2, ...), so that on an open grid
the cheapest path costs exactly `distance`. Every square costs 1 otherwise (A47).

Who may be passed and who may be stood on are two predicates (A47: "you may pass through
allies but not end there; no passing through enemies or blocking terrain"):
`passable(sq)` for a square stepped through, `can_end(sq)` for the last one (default:
`passable`). Squares off the map never are.

Corners (A47 "no cutting corners past blocking squares", RULINGS `corner_rule`):
"no_squeeze" (default) refuses a diagonal step between two blocking squares, the two
squares orthogonal to both ends of the step; "no_corner" refuses it past even one;
"allowed" never refuses it. A square blocks a corner when `blocks_corner(sq)` is true
(default: when it is not `passable`).

The search is A* with a binary heap and dictionaries keyed by the squares it touches,
never an array of the whole map, with the exact open-grid cost as its heuristic (which
is consistent, so the first time the goal is popped its cost is the least).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Sequence
from typing import Literal

from domain.rulesets.tactical.geometry import Metric, Square

__all__ = ["CORNER_RULES", "CornerRule", "path", "path_cost", "reachable", "step_cost"]

CornerRule = Literal["no_squeeze", "no_corner", "allowed"]
CORNER_RULES: tuple[CornerRule, ...] = ("no_squeeze", "no_corner", "allowed")

Pred = Callable[[Square], bool]

# (dx, dy): orthogonal steps first so that ties prefer them
_STEPS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))


def step_cost(diagonal: bool, metric: Metric, diagonals_before: int = 0) -> int:
    """The cost of one step: 1, or for a diagonal 1 / 2 / 1 or 2 by the metric (A46)."""
    if not diagonal:
        return 1
    if metric == "chebyshev":
        return 1
    if metric == "manhattan":
        return 2
    if metric == "alternating":
        return 2 if diagonals_before % 2 else 1
    raise ValueError(f"unknown metric {metric!r}")


def path_cost(
    squares: Sequence[Square], metric: Metric = "chebyshev", *, start: Square | None = None
) -> int:
    """The cost of walking `squares` in order (from `start` first when it is given).

    Raises ValueError when two consecutive squares are not adjacent.
    """
    walk = [start, *squares] if start is not None else list(squares)
    cost = 0
    diagonals = 0
    for a, b in itertools.pairwise(walk):
        dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
        if dx > 1 or dy > 1 or dx + dy == 0:
            raise ValueError(f"{list(a)} to {list(b)} is not a step to an adjacent square")
        diagonal = dx == 1 and dy == 1
        cost += step_cost(diagonal, metric, diagonals)
        diagonals += diagonal
    return cost


class _Grid:
    """The step rules of one search: bounds, the predicates (memoised), corners, metric."""

    __slots__ = ("blocks", "corners", "end", "height", "memo_block", "memo_end", "memo_pass",
                 "metric", "passable", "width")  # fmt: skip

    def __init__(
        self,
        passable: Pred,
        can_end: Pred | None,
        blocks_corner: Pred | None,
        width: int,
        height: int,
        metric: Metric,
        corners: CornerRule,
    ) -> None:
        if metric not in ("chebyshev", "alternating", "manhattan"):
            raise ValueError(f"unknown metric {metric!r}")
        if corners not in CORNER_RULES:
            raise ValueError(f"unknown corner rule {corners!r}")
        self.passable = passable
        self.end = can_end if can_end is not None else passable
        self.blocks = blocks_corner
        self.width = width
        self.height = height
        self.metric = metric
        self.corners = corners
        self.memo_pass: dict[Square, bool] = {}
        self.memo_block: dict[Square, bool] = {}
        self.memo_end: dict[Square, bool] = {}

    def can_pass(self, sq: Square) -> bool:
        ok = self.memo_pass.get(sq)
        if ok is None:
            ok = 0 <= sq[0] < self.width and 0 <= sq[1] < self.height and self.passable(sq)
            self.memo_pass[sq] = ok
        return ok

    def blocks_corner(self, sq: Square) -> bool:
        b = self.memo_block.get(sq)
        if b is None:
            if self.blocks is None:
                b = not self.can_pass(sq)
            else:
                b = not (0 <= sq[0] < self.width and 0 <= sq[1] < self.height) or self.blocks(sq)
            self.memo_block[sq] = b
        return b

    def corner_ok(self, x: int, y: int, dx: int, dy: int) -> bool:
        if self.corners == "allowed":
            return True
        a = self.blocks_corner((x + dx, y))
        b = self.blocks_corner((x, y + dy))
        if self.corners == "no_squeeze":
            return not (a and b)
        return not (a or b)

    def can_stop(self, sq: Square) -> bool:
        ok = self.memo_end.get(sq)
        if ok is None:
            ok = 0 <= sq[0] < self.width and 0 <= sq[1] < self.height and self.end(sq)
            self.memo_end[sq] = ok
        return ok


def _heuristic(metric: Metric, dx: int, dy: int, odd: int) -> int:
    hi, lo = (dx, dy) if dx > dy else (dy, dx)
    if metric == "chebyshev":
        return hi
    if metric == "manhattan":
        return hi + lo
    return hi + (lo + odd) // 2


def path(
    start: Square,
    goal: Square,
    passable: Pred,
    *,
    width: int,
    height: int,
    metric: Metric = "chebyshev",
    max_cost: int | None = None,
    can_end: Pred | None = None,
    corners: CornerRule = "no_squeeze",
    blocks_corner: Pred | None = None,
) -> list[Square] | None:
    """A cheapest path from start to goal: the squares stepped into, start excluded, goal
    last; [] when start == goal; None when there is none (or none within max_cost).

    Every square but the goal must be `passable`; the goal must pass `can_end`
    (default `passable`) and lie on the map. The start itself is never tested.
    """
    if start == goal:
        return []
    g = _Grid(passable, can_end, blocks_corner, width, height, metric, corners)
    if not g.can_stop(goal):
        return None
    gx, gy = goal
    alt = metric == "alternating"
    # a state is (square, parity of the diagonals taken so far); parity only matters
    # for the alternating metric, elsewhere it stays 0
    first = (start, 0)
    h0 = _heuristic(metric, abs(gx - start[0]), abs(gy - start[1]), 0)
    if max_cost is not None and h0 > max_cost:
        return None
    best: dict[tuple[Square, int], int] = {first: 0}
    parent: dict[tuple[Square, int], tuple[Square, int]] = {}
    heap: list[tuple[int, int, int, Square, int]] = [(h0, h0, 0, start, 0)]
    seq = 0
    limit = max_cost
    while heap:
        _f, _h, _s, sq, odd = heapq.heappop(heap)
        state = (sq, odd)
        cost = best[state]
        if _f - _h != cost:
            continue  # a stale entry: this state was reached more cheaply since
        if sq == goal:
            out: list[Square] = []
            while state != first:
                out.append(state[0])
                state = parent[state]
            out.reverse()
            return out
        x, y = sq
        for dx, dy in _STEPS:
            nxt = (x + dx, y + dy)
            if nxt == goal:
                pass  # can_stop was checked once above
            elif not g.can_pass(nxt):
                continue
            diagonal = dx != 0 and dy != 0
            if diagonal:
                if not g.corner_ok(x, y, dx, dy):
                    continue
                if metric == "chebyshev":
                    step, nodd = 1, 0
                elif alt:
                    step, nodd = (2, 0) if odd else (1, 1)
                else:
                    step, nodd = 2, 0
            else:
                step, nodd = 1, odd
            ncost = cost + step
            nstate = (nxt, nodd)
            known = best.get(nstate)
            if known is not None and known <= ncost:
                continue
            h = _heuristic(metric, abs(gx - nxt[0]), abs(gy - nxt[1]), nodd)
            if limit is not None and ncost + h > limit:
                continue
            best[nstate] = ncost
            parent[nstate] = state
            seq += 1
            heapq.heappush(heap, (ncost + h, h, seq, nxt, nodd))
    return None


def reachable(
    start: Square,
    budget: int,
    passable: Pred,
    *,
    width: int,
    height: int,
    metric: Metric = "chebyshev",
    can_end: Pred | None = None,
    corners: CornerRule = "no_squeeze",
    blocks_corner: Pred | None = None,
) -> dict[Square, int]:
    """Every square a move of at most `budget` can end on, with its least cost.

    The start is included at cost 0. Squares only passed through (`passable` but not
    `can_end`, like an ally's) are left out; a square that may be ended on but not
    passed is reached as a last step only.
    """
    g = _Grid(passable, can_end, blocks_corner, width, height, metric, corners)
    alt = metric == "alternating"
    best: dict[tuple[Square, int], int] = {(start, 0): 0}
    out: dict[Square, int] = {start: 0}
    heap: list[tuple[int, Square, int]] = [(0, start, 0)]
    while heap:
        cost, sq, odd = heapq.heappop(heap)
        if best[(sq, odd)] != cost:
            continue
        x, y = sq
        for dx, dy in _STEPS:
            nxt = (x + dx, y + dy)
            through = g.can_pass(nxt)
            if not through and not g.can_stop(nxt):
                continue
            diagonal = dx != 0 and dy != 0
            if diagonal:
                if not g.corner_ok(x, y, dx, dy):
                    continue
                if metric == "chebyshev":
                    step, nodd = 1, 0
                elif alt:
                    step, nodd = (2, 0) if odd else (1, 1)
                else:
                    step, nodd = 2, 0
            else:
                step, nodd = 1, odd
            ncost = cost + step
            if ncost > budget:
                continue
            if out.get(nxt, budget + 1) > ncost and g.can_stop(nxt):
                out[nxt] = ncost
            if not through:
                continue
            nstate = (nxt, nodd)
            known = best.get(nstate)
            if known is not None and known <= ncost:
                continue
            best[nstate] = ncost
            heapq.heappush(heap, (ncost, nxt, nodd))
    return out
