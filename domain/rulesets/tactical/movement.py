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

# the orthogonal steps N, E, S, W; then the diagonals, each with the indices in _ORTHO of
# the two squares it passes between (east or west, north or south)
_ORTHO: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAG: tuple[tuple[int, int, int, int], ...] = (
    (1, 1, 1, 0),
    (1, -1, 1, 2),
    (-1, -1, 3, 2),
    (-1, 1, 3, 0),
)


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

    __slots__ = ("blocks", "corners", "diag_cost", "end", "height", "memo_block", "memo_end",
                 "memo_pass", "metric", "passable", "width")  # fmt: skip

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
        # a diagonal's (cost, parity after) by the parity before it (A46)
        if metric == "alternating":
            self.diag_cost: tuple[tuple[int, int], tuple[int, int]] = ((1, 1), (2, 0))
        elif metric == "manhattan":
            self.diag_cost = ((2, 0), (2, 0))
        else:
            self.diag_cost = ((1, 0), (1, 0))
        self.memo_pass: dict[Square, bool] = {}
        self.memo_block: dict[Square, bool] = {}
        self.memo_end: dict[Square, bool] = {}

    def _blocks(self, sq: Square) -> bool:
        """Whether an on-map square blocks a corner by the caller's own predicate."""
        b = self.memo_block.get(sq)
        if b is None:
            assert self.blocks is not None
            b = self.memo_block[sq] = bool(self.blocks(sq))
        return b

    def can_stop(self, sq: Square) -> bool:
        ok = self.memo_end.get(sq)
        if ok is None:
            ok = 0 <= sq[0] < self.width and 0 <= sq[1] < self.height and bool(self.end(sq))
            self.memo_end[sq] = ok
        return ok

    def moves(self, sq: Square, odd: int) -> list[tuple[Square, int, int, bool]]:
        """The legal steps from sq, having taken diagonals of parity `odd`: (square, cost,
        parity after, whether it may be passed through) for every square on the map that
        may be passed or ended on and that no corner rule forbids. Orthogonal steps come
        first; a diagonal's two corner squares are the orthogonal ones already looked at."""
        x, y = sq
        w, h = self.width, self.height
        memo = self.memo_pass
        own_blocks = self.blocks is not None
        out: list[tuple[Square, int, int, bool]] = []
        blocked = [True, True, True, True]
        for i, (dx, dy) in enumerate(_ORTHO):
            nx, ny = x + dx, y + dy
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            nxt = (nx, ny)
            through = memo.get(nxt)
            if through is None:
                through = memo[nxt] = bool(self.passable(nxt))
            blocked[i] = self._blocks(nxt) if own_blocks else not through
            if through or self.can_stop(nxt):
                out.append((nxt, 1, odd, through))
        rule = self.corners
        cost, nodd = self.diag_cost[odd]
        for dx, dy, across, along in _DIAG:
            nx, ny = x + dx, y + dy
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            if rule == "no_squeeze":
                if blocked[across] and blocked[along]:
                    continue
            elif rule == "no_corner" and (blocked[across] or blocked[along]):
                continue
            nxt = (nx, ny)
            through = memo.get(nxt)
            if through is None:
                through = memo[nxt] = bool(self.passable(nxt))
            if through or self.can_stop(nxt):
                out.append((nxt, cost, nodd, through))
        return out


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
    step_ok: Callable[[Square, Square], bool] | None = None,
) -> list[Square] | None:
    """A cheapest path from start to goal: the squares stepped into, start excluded, goal
    last; [] when start == goal; None when there is none (or none within max_cost).

    Every square but the goal must be `passable`; the goal must pass `can_end`
    (default `passable`) and lie on the map. The start itself is never tested.
    `step_ok(from, to)`, when given, must allow every step (a frightened mover, A31).
    """
    if start == goal:
        return []
    g = _Grid(passable, can_end, blocks_corner, width, height, metric, corners)
    if not g.can_stop(goal):
        return None
    gx, gy = goal
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
        for nxt, step, nodd, through in g.moves(sq, odd):
            if not through and nxt != goal:
                continue
            if step_ok is not None and not step_ok(sq, nxt):
                continue
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
    step_ok: Callable[[Square, Square], bool] | None = None,
    first: bool = False,
) -> dict[Square, int]:
    """Every square a move of at most `budget` can end on, with its least cost.
    `first`: stop at the first square besides the start found (whether there is any).

    The start is included at cost 0. Squares only passed through (`passable` but not
    `can_end`, like an ally's) are left out; a square that may be ended on but not
    passed is reached as a last step only. `step_ok(from, to)`, as for `path`, must
    allow every step (a frightened mover, A31): the squares `path` finds a way to.
    """
    g = _Grid(passable, can_end, blocks_corner, width, height, metric, corners)
    best: dict[tuple[Square, int], int] = {(start, 0): 0}
    out: dict[Square, int] = {start: 0}
    heap: list[tuple[int, Square, int]] = [(0, start, 0)]
    while heap:
        cost, sq, odd = heapq.heappop(heap)
        if best[(sq, odd)] != cost:
            continue
        for nxt, step, nodd, through in g.moves(sq, odd):
            ncost = cost + step
            if ncost > budget:
                continue
            if step_ok is not None and not step_ok(sq, nxt):
                continue
            if out.get(nxt, budget + 1) > ncost and g.can_stop(nxt):
                out[nxt] = ncost
                if first and nxt != start:
                    return out
            if not through:
                continue
            nstate = (nxt, nodd)
            known = best.get(nstate)
            if known is not None and known <= ncost:
                continue
            best[nstate] = ncost
            heapq.heappush(heap, (ncost, nxt, nodd))
    return out
