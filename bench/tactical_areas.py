"""`python -m bench.tactical_areas`: what the tactical grid helpers cost on a big map.

A 200 x 200 map with 500 occupied squares (a fixed seed): µs per area (each shape at
ratings 1..10, clipped to the map, with its occupants looked up), per line of sight and
cover check, per path (a few hundred random start/goal pairs, near and across the map,
the occupants blocking), per unreachable goal with a move budget, and per `reachable` of
a 6-square move. Not a test: it reports, it does not fail on a slow machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from domain.rulesets.tactical.areas import blast, burst, clip, close_burst, line
from domain.rulesets.tactical.geometry import DIRECTIONS, Metric, Square
from domain.rulesets.tactical.movement import path, reachable
from domain.rulesets.tactical.sight import cover_squares, line_of_sight

__all__ = ["main"]

SIZE = 200
OCCUPIED = 500
SEED = 2


def _report(label: str, fn: Callable[[], object], calls: int, rounds: int = 3) -> None:
    """Print the best of `rounds` runs of fn, in µs per call."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    print(f"  {label:<44} {best / calls * 1e6:9.1f} µs")


def _areas(origins: list[Square], occupied: set[Square]) -> None:
    names = list(DIRECTIONS)
    shapes: dict[str, Callable[[Square, int, str], tuple[Square, ...]]] = {
        "blast": lambda o, n, d: blast(o, d, n),
        "burst": lambda o, n, d: burst(o, n),
        "close_burst": lambda o, n, d: close_burst(o, n),
        "line": lambda o, n, d: line(o, d, n),
    }
    jobs = [(o, n, names[i % 8]) for i, o in enumerate(origins) for n in range(1, 11)]
    for name, shape in shapes.items():

        def run(shape: Callable[[Square, int, str], tuple[Square, ...]] = shape) -> None:
            for o, n, d in jobs:
                covered = clip(shape(o, n, d), SIZE, SIZE)
                [sq for sq in covered if sq in occupied]

        _report(f"{name}, ratings 1..10, with occupants", run, len(jobs))


def _sight(pairs: list[tuple[Square, Square]], occupied: set[Square]) -> None:
    blocks = occupied.__contains__
    _report("line of sight, random pairs", lambda: [line_of_sight(a, b, blocks) for a, b in pairs],
            len(pairs))  # fmt: skip
    _report("cover squares, random pairs", lambda: [cover_squares(a, b, blocks) for a, b in pairs],
            len(pairs))  # fmt: skip


def _paths(
    near: list[tuple[Square, Square]], far: list[tuple[Square, Square]], occupied: set[Square]
) -> None:
    def passable(sq: Square) -> bool:
        return sq not in occupied

    metrics: tuple[Metric, ...] = ("chebyshev", "alternating", "manhattan")
    for m in metrics:

        def walk(jobs: list[tuple[Square, Square]], m: Metric = m) -> None:
            for a, b in jobs:
                path(a, b, passable, width=SIZE, height=SIZE, metric=m)

        _report(f"path {m}, goal within 8", lambda: walk(near), len(near))
        _report(f"path {m}, goal across the map", lambda: walk(far), len(far), 1)
    # a goal walled in: the search gives up once the budget is spent
    ring = {(100 + dx, 100 + dy) for dx in range(-1, 2) for dy in range(-1, 2)} - {(100, 100)}

    def walled(sq: Square) -> bool:
        return sq not in occupied and sq not in ring

    around = [(100 + dx, 100 + dy) for dx in range(-8, 9) for dy in range(-8, 9)]
    jobs = [(o, (100, 100)) for o in around if max(abs(o[0] - 100), abs(o[1] - 100)) >= 3]
    _report("path to a walled-in goal, budget 12",
            lambda: [path(a, b, walled, width=SIZE, height=SIZE, max_cost=12) for a, b in jobs],
            len(jobs))  # fmt: skip
    starts = [a for a, _ in near]
    _report("reachable, 6 squares of movement",
            lambda: [reachable(o, 6, passable, width=SIZE, height=SIZE) for o in starts],
            len(starts))  # fmt: skip


def main() -> None:
    rng = random.Random(SEED)
    occupied: set[Square] = set()
    while len(occupied) < OCCUPIED:
        occupied.add((rng.randrange(SIZE), rng.randrange(SIZE)))
    free = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in occupied]
    origins = [rng.choice(free) for _ in range(200)]
    print(f"tactical grid on a {SIZE} x {SIZE} map with {OCCUPIED} occupied squares")
    _areas(origins, occupied)
    pairs = [(rng.choice(free), rng.choice(free)) for _ in range(300)]
    _sight(pairs, occupied)
    near = []
    for a in origins:
        b = (a[0] + rng.randrange(-8, 9), a[1] + rng.randrange(-8, 9))
        if 0 <= b[0] < SIZE and 0 <= b[1] < SIZE and b not in occupied:
            near.append((a, b))
    _paths(near, pairs[:60], occupied)


if __name__ == "__main__":
    main()
