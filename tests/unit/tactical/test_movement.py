"""Shortest moves on the grid (movement.py; [Move Actions], A46, A47): costs by metric,
allies passed but not ended on, enemies and terrain blocking, the corner rules, budgets;
paths optimal against an exhaustive search on small random grids."""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.tactical.geometry import METRICS, Metric, Square, adjacent, distance
from domain.rulesets.tactical.movement import (
    CORNER_RULES,
    CornerRule,
    path,
    path_cost,
    reachable,
)


def _open(sq: Square) -> bool:
    return True


def test_open_grid_costs_the_distance_in_every_metric() -> None:
    for metric, goal in itertools.product(METRICS, [(7, 3), (4, 4), (0, 6), (6, 1)]):
        p = path((0, 0), goal, _open, width=10, height=10, metric=metric)
        assert p is not None and p[-1] == goal and (0, 0) not in p
        assert path_cost(p, metric, start=(0, 0)) == distance((0, 0), goal, metric)


def test_alternating_diagonals_cost_one_then_two() -> None:
    assert path_cost([(0, 0), (1, 1), (2, 2), (3, 3)], "alternating") == 4
    assert path_cost([(1, 1), (2, 2), (3, 2)], "alternating", start=(0, 0)) == 4
    # an orthogonal step between two diagonals does not reset the count
    assert path_cost([(1, 1), (2, 1), (3, 2)], "alternating", start=(0, 0)) == 4
    assert path_cost([(1, 1)], "manhattan", start=(0, 0)) == 2
    assert path_cost([(1, 1), (2, 2)], start=(0, 0)) == 2
    assert path_cost([], start=(0, 0)) == 0
    with pytest.raises(ValueError):
        path_cost([(0, 0), (2, 0)])
    with pytest.raises(ValueError):
        path_cost([(0, 0), (0, 0)])


def test_start_is_goal_and_goals_off_the_map_or_blocked() -> None:
    assert path((2, 2), (2, 2), _open, width=5, height=5) == []
    assert path((2, 2), (5, 2), _open, width=5, height=5) is None
    assert path((2, 2), (-1, 2), _open, width=5, height=5) is None
    assert path((2, 2), (4, 4), lambda sq: sq != (4, 4), width=5, height=5) is None


def test_allies_are_passed_but_not_ended_on_and_enemies_block() -> None:
    """A47: a corridor y = 1 between walls, an ally at (2, 1), an enemy at (4, 1)."""
    walls = {(x, y) for x in range(7) for y in (0, 2)}
    ally, enemy = (2, 1), (4, 1)

    def passable(sq: Square) -> bool:
        return sq not in walls and sq != enemy

    def can_end(sq: Square) -> bool:
        return passable(sq) and sq != ally

    def go(goal: Square) -> list[Square] | None:
        return path((0, 1), goal, passable, width=7, height=3, can_end=can_end)

    assert go((3, 1)) == [(1, 1), (2, 1), (3, 1)]
    assert go(ally) is None
    assert go((5, 1)) is None
    reach = reachable((0, 1), 10, passable, width=7, height=3, can_end=can_end)
    assert reach == {(0, 1): 0, (1, 1): 1, (3, 1): 3}


def test_a_wall_is_walked_round() -> None:
    wall = {(3, y) for y in range(0, 6)}
    p = path((0, 0), (6, 0), lambda sq: sq not in wall, width=8, height=8)
    assert p is not None and not set(p) & wall
    # 5 up to (2, 5), 1 over at (3, 6), 6 down to (6, 0)
    assert path_cost(p, start=(0, 0)) == 12
    assert path((0, 0), (6, 0), lambda sq: sq not in wall, width=8, height=6) is None


def test_corner_rules() -> None:
    """A47 and RULINGS corner_rule: no squeezing between two blocking squares by default;
    "no_corner" refuses a step past even one; "allowed" refuses none."""
    both = {(1, 0), (0, 1)}
    one = {(1, 0)}

    def go(blocked: set[Square], corners: CornerRule) -> list[Square] | None:
        return path(
            (0, 0), (1, 1), lambda sq: sq not in blocked, width=3, height=3, corners=corners
        )

    assert go(both, "no_squeeze") is None
    assert go(both, "no_corner") is None
    assert go(both, "allowed") == [(1, 1)]
    assert go(one, "no_squeeze") == [(1, 1)]
    assert go(one, "no_corner") == [(0, 1), (1, 1)]
    assert go(one, "allowed") == [(1, 1)]
    # enemies may be left out of the corner test: only walls pinch
    enemies = {(1, 0), (0, 1)}
    p = path(
        (0, 0),
        (1, 1),
        lambda sq: sq not in enemies,
        width=3,
        height=3,
        blocks_corner=lambda sq: False,
    )
    assert p == [(1, 1)]
    with pytest.raises(ValueError):
        go(one, "sideways")  # type: ignore[arg-type]


def test_max_cost() -> None:
    assert path((0, 0), (5, 0), _open, width=9, height=9, max_cost=5) == [
        (x, 0) for x in range(1, 6)
    ]
    assert path((0, 0), (5, 0), _open, width=9, height=9, max_cost=4) is None
    wall = {(3, y) for y in range(0, 6)}
    assert path((0, 0), (6, 0), lambda sq: sq not in wall, width=8, height=8, max_cost=11) is None
    assert path((0, 0), (6, 0), lambda sq: sq not in wall, width=8, height=8, max_cost=12)


def test_reachable_budgets() -> None:
    assert len(reachable((5, 5), 1, _open, width=10, height=10)) == 9
    assert len(reachable((5, 5), 2, _open, width=10, height=10)) == 25
    alt = reachable((5, 5), 2, _open, width=10, height=10, metric="alternating")
    assert alt[(6, 6)] == 1 and alt[(7, 6)] == 2 and (7, 7) not in alt
    man = reachable((5, 5), 2, _open, width=10, height=10, metric="manhattan")
    assert len(man) == 13 and man[(6, 6)] == 2
    corner = reachable((0, 0), 3, _open, width=10, height=10)
    assert len(corner) == 16 and corner[(0, 0)] == 0


def test_an_end_only_square_is_reached_but_not_crossed() -> None:
    """A square that may be ended on but not passed through is a last step only."""
    reach = reachable(
        (0, 0),
        5,
        lambda sq: sq != (1, 0),
        width=3,
        height=1,
        can_end=lambda sq: True,
    )
    assert reach == {(0, 0): 0, (1, 0): 1}

    def go(goal: Square) -> list[Square] | None:
        return path(
            (0, 0), goal, lambda sq: sq != (1, 0), width=3, height=1, can_end=lambda sq: True
        )

    assert go((1, 0)) == [(1, 0)]
    assert go((2, 0)) is None


# --- optimality against an exhaustive search ------------------------------------------


def _legal(a: Square, b: Square, blocked: set[Square], w: int, h: int, corners: CornerRule) -> bool:
    if not (0 <= b[0] < w and 0 <= b[1] < h) or b in blocked:
        return False
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx and dy:
        sides = [(a[0] + dx, a[1]) in blocked, (a[0], a[1] + dy) in blocked]
        if corners == "no_squeeze" and all(sides):
            return False
        if corners == "no_corner" and any(sides):
            return False
    return True


def _bfs(start: Square, blocked: set[Square], w: int, h: int, corners: CornerRule) -> dict:
    """Chebyshev costs by breadth-first search (every step costs 1)."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in [(a[0] + dx, a[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
            if b != a and b not in seen and _legal(a, b, blocked, w, h, corners):
                seen[b] = seen[a] + 1
                todo.append(b)
    return seen


def _relax(
    start: Square, blocked: set[Square], w: int, h: int, corners: CornerRule, metric: Metric
) -> dict[Square, int]:
    """Least costs by relaxing every step until nothing improves (Bellman-Ford over
    (square, diagonals taken mod 2))."""
    best: dict[tuple[Square, int], int] = {(start, 0): 0}
    changed = True
    while changed:
        changed = False
        for (a, odd), c in list(best.items()):
            for dx, dy in itertools.product((-1, 0, 1), repeat=2):
                b = (a[0] + dx, a[1] + dy)
                if b == a or not _legal(a, b, blocked, w, h, corners):
                    continue
                diag = dx != 0 and dy != 0
                step = 1
                if diag and metric == "manhattan":
                    step = 2
                if diag and metric == "alternating":
                    step = 1 + odd
                key = (b, (odd + diag) % 2 if metric == "alternating" else 0)
                if best.get(key, 10**9) > c + step:
                    best[key] = c + step
                    changed = True
    out: dict[Square, int] = {}
    for (sq, _), c in best.items():
        out[sq] = min(c, out.get(sq, c))
    return out


grids = st.tuples(st.integers(2, 7), st.integers(2, 7)).flatmap(
    lambda wh: st.tuples(
        st.just(wh),
        st.frozensets(st.tuples(st.integers(0, wh[0] - 1), st.integers(0, wh[1] - 1))),
        st.tuples(st.integers(0, wh[0] - 1), st.integers(0, wh[1] - 1)),
        st.tuples(st.integers(0, wh[0] - 1), st.integers(0, wh[1] - 1)),
    )
)


@settings(max_examples=300, deadline=None)
@given(grids, st.sampled_from(METRICS), st.sampled_from(CORNER_RULES))
def test_paths_are_optimal(
    grid: tuple[tuple[int, int], frozenset[Square], Square, Square],
    metric: Metric,
    corners: CornerRule,
) -> None:
    (w, h), blocked_, start, goal = grid
    blocked = set(blocked_) - {start}
    truth = _relax(start, blocked, w, h, corners, metric)
    if metric == "chebyshev":
        assert truth == _bfs(start, blocked, w, h, corners)

    def open_(sq: Square) -> bool:
        return sq not in blocked

    def find(max_cost: int | None = None) -> list[Square] | None:
        return path(
            start, goal, open_, width=w, height=h, metric=metric, corners=corners, max_cost=max_cost
        )

    p = find()
    if goal not in truth:
        assert p is None
        return
    assert p is not None
    prev = start
    for sq in p:
        assert adjacent(prev, sq) and _legal(prev, sq, blocked, w, h, corners)
        prev = sq
    assert prev == goal
    assert path_cost(p, metric, start=start) == truth[goal]
    # a budget one short of the cost finds nothing; the exact cost finds it
    assert find(truth[goal]) is not None
    if truth[goal] > 0:
        assert find(truth[goal] - 1) is None
    budget = 4
    found = reachable(start, budget, open_, width=w, height=h, metric=metric, corners=corners)
    assert found == {sq: c for sq, c in truth.items() if c <= budget}
