"""The area patterns of seed 002 ([Ranges]): blast, burst, close burst, line and wall.

Every shape follows the text's own diagrams (RULINGS: "the diagrams decide every area
shape"; the prose of [Blast] loses to them, A71). Squares are (x, y), x east, y north;
a direction is a unit offset or a compass name ("N".."NW"). The functions return the
squares in a fixed order (row by row or along the line) and know nothing of the map:
`clip` keeps the ones on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from domain.rulesets.tactical.geometry import Square, unit

__all__ = [
    "blast",
    "burst",
    "clip",
    "close_burst",
    "line",
    "place_wall",
    "wall_problem",
]

_ORTHO: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _rating(n: int) -> None:
    if n < 1:
        raise ValueError(f"an area's rating is at least 1, not {n}")


def blast(origin: Square, direction: Square | str, n: int) -> tuple[Square, ...]:
    """Blast n from `origin` towards `direction` ([Blast]; diagrams, M56).

    The four diagrams (origin A at 0, 0): Blast 1 N covers x -1..1, y 1..2; Blast 1 NE
    x 1..2, y 1..2; Blast 2 E x 1..3, y -2..2; Blast 2 SW x -3..-1, y -3..-1. So an
    orthogonal blast is n + 1 squares deep from the chosen adjacent square and 2n + 1
    wide, centred on the origin's row or column, (n + 1)(2n + 1) squares; a diagonal one
    is the (n + 1) x (n + 1) square whose inner corner is the chosen diagonal square,
    (n + 1)^2 squares. The origin is never covered.
    """
    _rating(n)
    dx, dy = unit(direction)
    ox, oy = origin
    if dx and dy:
        return tuple((ox + dx * i, oy + dy * j) for j in range(1, n + 2) for i in range(1, n + 2))
    # the side axis is perpendicular to the facing: (dy, dx) up to sign
    sx, sy = abs(dy), abs(dx)
    return tuple(
        (ox + dx * depth + sx * side, oy + dy * depth + sy * side)
        for depth in range(1, n + 2)
        for side in range(-n, n + 1)
    )


def burst(center: Square, n: int) -> tuple[Square, ...]:
    """Burst n around `center` ([Burst]; M57): every square within n of it in each
    direction, the centre included, (2n + 1)^2 squares. The centre must be within the
    attack's range (the caller checks); the diagrams put it 4 squares from the caster."""
    _rating(n)
    cx, cy = center
    return tuple((cx + i, cy + j) for j in range(-n, n + 1) for i in range(-n, n + 1))


def close_burst(origin: Square, n: int) -> tuple[Square, ...]:
    """Close burst n around the caster ([Close Burst]; M58): the same square of side
    2n + 1, without the caster's own square, (2n + 1)^2 - 1 squares (8 for close burst 1,
    48 for close burst 3, as drawn)."""
    return tuple(sq for sq in burst(origin, n) if sq != origin)


def line(origin: Square, direction: Square | str, n: int) -> tuple[Square, ...]:
    """Line n ([Line]; M59): origin + k * direction for k = 1..n, nearest first.

    Diagrams: Line 3 N covers (0, 1)..(0, 3); Line 4 NE (1, 1)..(4, 4); Line 8 E
    (1, 0)..(8, 0). A diagonal line is n squares long, one per diagonal step.
    """
    _rating(n)
    dx, dy = unit(direction)
    ox, oy = origin
    return tuple((ox + dx * k, oy + dy * k) for k in range(1, n + 1))


def clip(squares: Iterable[Square], width: int, height: int) -> tuple[Square, ...]:
    """The squares that lie on a width x height map, in their order (an area off the
    edge of the map covers nothing there)."""
    return tuple(sq for sq in squares if 0 <= sq[0] < width and 0 <= sq[1] < height)


def _ortho(sq: Square) -> tuple[Square, ...]:
    x, y = sq
    return tuple((x + dx, y + dy) for dx, dy in _ORTHO)


def wall_problem(sections: Sequence[Square], *, no_loops: bool = False) -> str | None:
    """Why these wall sections break [Wall], or None when they form a valid wall.

    Read on the final shape (A61): no section twice; "you cannot place a piece that is
    orthogonal to three or more sections at the same time"; "you cannot place sections
    diagonal of each other" and "the wall must be continuous", so every section is
    joined to the others through orthogonal neighbours. A closed loop (the 2 x 2 one
    among them) passes: no section in it touches three; the text does not say whether
    a wall may close on itself (A61), so `no_loops` (option `wall_no_loops`) refuses
    one. The reason names the rule and the square.
    """
    if not sections:
        return "[Wall] a wall has at least one section"
    seen: set[Square] = set()
    for sq in sections:
        if sq in seen:
            return f"[Wall] section {list(sq)} is placed twice"
        seen.add(sq)
    for sq in sections:
        touching = [nb for nb in _ortho(sq) if nb in seen]
        if len(touching) >= 3:
            return (
                f"[Wall] section {list(sq)} is orthogonal to {len(touching)} sections (at most 2)"
            )
    joined = {sections[0]}
    todo = [sections[0]]
    while todo:
        for nb in _ortho(todo.pop()):
            if nb in seen and nb not in joined:
                joined.add(nb)
                todo.append(nb)
    for sq in sections:
        if sq in joined:
            continue
        x, y = sq
        if any((x + dx, y + dy) in joined for dx in (-1, 1) for dy in (-1, 1)):
            return (
                f"[Wall] section {list(sq)} touches the wall only diagonally "
                "(sections cannot be placed diagonal of each other)"
            )
        return f"[Wall] section {list(sq)} is not joined to the wall (it must be continuous)"
    return _loop(sections) if no_loops else None


def _loop(sections: Sequence[Square]) -> str | None:
    """The section that closes the wall on itself (joined orthogonally to two sections
    already joined to each other), in the order asked; None for a wall with two ends."""
    root: dict[Square, Square] = {}

    def find(sq: Square) -> Square:
        while root[sq] != sq:
            root[sq] = root[root[sq]]
            sq = root[sq]
        return sq

    for sq in sections:
        root[sq] = sq
        for nb in _ortho(sq):
            if nb not in root:
                continue
            a, b = find(nb), find(sq)
            if a == b:
                return (
                    f"[Wall] section {list(sq)} closes the wall on itself "
                    "(a loop; option wall_no_loops)"
                )
            root[a] = b
    return None


def place_wall(
    requested: Sequence[Square], free: Callable[[Square], bool]
) -> tuple[list[Square], list[Square]]:
    """Place the requested sections that can go, in order: (placed, discarded) ([Wall]).

    Each section goes "in an unoccupied square" (`free`), joined orthogonally to a
    section already placed, and only if afterwards no section is orthogonal to three or
    more. The first free requested section starts the wall (A61: it sits on the origin,
    which alone needs range). A section refused on one pass is tried again once a later
    one has made room for it; "if you have more sections to place, but no more valid
    placements, then they are discarded". The placed wall always passes wall_problem.
    """
    placed: list[Square] = []
    have: set[Square] = set()
    count: dict[Square, int] = {}
    pending = list(requested)

    def fits(sq: Square) -> bool:
        if sq in have or not free(sq):
            return False
        if not placed:
            return True
        touching = [nb for nb in _ortho(sq) if nb in have]
        return 1 <= len(touching) <= 2 and all(count[nb] < 2 for nb in touching)

    progress = True
    while pending and progress:
        progress = False
        rest: list[Square] = []
        for sq in pending:
            if fits(sq):
                placed.append(sq)
                have.add(sq)
                count[sq] = 0
                for nb in _ortho(sq):
                    if nb in have and nb != sq:
                        count[nb] += 1
                        count[sq] += 1
                progress = True
            else:
                rest.append(sq)
        pending = rest
    return placed, pending
