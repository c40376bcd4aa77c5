"""Line of sight and cover on the grid of seed 002 ([Cover], [Concealment]; A48, A49).

The text never defines line of sight (A48). A line runs from the centre of one square to
the centre of the other. It passes through a square when it crosses the square's
interior; the squares it merely touches at a single point are not passed through:
where it runs exactly through a grid corner (as every diagonal line does), it goes from
one square to the diagonally next one and only grazes the other two squares sharing
that corner. Grazing one square's corner is never blocked (A48: "grazing a corner
doesn't count"). Running through the point where two squares meet diagonally, with both
of them blocking (a "pinch"), is blocked by default: it is the same zero-width gap that
movement may not squeeze through (movement.py, `no_squeeze`); `pinch_blocks=False`
lets it through. Lines are exact (integer arithmetic), so the squares between a and b
are those between b and a, in reverse order.

[Cover]: "Objects, structures, and terrain can be used as cover logically ... If there is
a foe that is standing in between you and your target, the target has cover." Which
squares give cover is the caller's predicate (terrain, structures, creatures: A49);
`cover_squares` returns those the line passes through, so the attack event can name
the square that gave cover.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from domain.rulesets.tactical.geometry import Square

__all__ = ["corners_between", "cover_squares", "line_of_sight", "squares_between", "trace"]

Pred = Callable[[Square], bool]


def trace(a: Square, b: Square) -> tuple[tuple[Square, ...], tuple[tuple[Square, Square], ...]]:
    """The line from a's centre to b's centre: (squares passed through, endpoints
    excluded, from a to b; the pairs of squares whose shared corner it grazes)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    nx, ny = abs(dx), abs(dy)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    x, y = a
    ix = iy = 0
    passed: list[Square] = []
    grazed: list[tuple[Square, Square]] = []
    # the line crosses the k-th vertical edge at t = (2k + 1) / (2 nx), the k-th
    # horizontal edge at t = (2k + 1) / (2 ny); compare them without division
    while ix < nx or iy < ny:
        across = (1 + 2 * ix) * ny
        up = (1 + 2 * iy) * nx
        if ix < nx and iy < ny and across == up:
            grazed.append(((x + sx, y), (x, y + sy)))
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif iy >= ny or (ix < nx and across < up):
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if ix < nx or iy < ny:
            passed.append((x, y))
    return tuple(passed), tuple(grazed)


def squares_between(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares whose interior the centre-to-centre line from a to b crosses, a and b
    excluded, in order from a ([Cover], A48). Corner-grazed squares are not included
    (see corners_between); squares_between(b, a) is the same squares reversed."""
    return trace(a, b)[0]


def corners_between(a: Square, b: Square) -> tuple[tuple[Square, Square], ...]:
    """The pairs of squares the line from a to b grazes at a shared corner, in order."""
    return trace(a, b)[1]


def line_of_sight(a: Square, b: Square, blocks_sight: Pred, *, pinch_blocks: bool = True) -> bool:
    """Whether a sees b: no square the line passes through blocks sight, and (unless
    `pinch_blocks` is False) it does not run between two blocking squares meeting at a
    corner (A48). The endpoints never block; a square always sees itself."""
    passed, grazed = trace(a, b)
    if any(blocks_sight(sq) for sq in passed):
        return False
    if pinch_blocks:
        return not any(blocks_sight(p) and blocks_sight(q) for p, q in grazed)
    return True


def cover_squares(
    attacker: Square,
    target: Square,
    gives_cover: Pred,
    *,
    pinch_covers: bool = True,
    among: tuple[Container[Square], ...] = (),
) -> list[Square]:
    """The squares between attacker and target that give the target cover, nearest the
    attacker first ([Cover], M63: a foe or an object "standing in between").

    A square counts when the line passes through it; a grazed corner does not, unless
    both squares at that corner give cover (`pinch_covers`), when both are named.
    `among`, when given, holds every square that may give cover: the others on the line
    are passed over without asking `gives_cover` (an area's hundreds of lines stay cheap).
    """
    passed, grazed = trace(attacker, target)
    if among:
        maybe = {sq for squares in among for sq in passed if sq in squares}
        passed = tuple(sq for sq in passed if sq in maybe)
    out = [sq for sq in passed if gives_cover(sq)]
    if pinch_covers and grazed:
        pinched = [sq for p, q in grazed if gives_cover(p) and gives_cover(q) for sq in (p, q)]
        if pinched:
            # keep the attacker-to-target order: sort along the line's direction
            dx, dy = target[0] - attacker[0], target[1] - attacker[1]
            out = sorted(
                [*out, *pinched],
                key=lambda sq: (sq[0] - attacker[0]) * dx + (sq[1] - attacker[1]) * dy,
            )
    return out
