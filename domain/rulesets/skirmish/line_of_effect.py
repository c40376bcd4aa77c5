"""Who is in the way of a ranged attack, from the grid (seed 000, "Alterations to Standard
Combat" / Ranged Attacks: "Line of Effect & Indirect Fire", "Soft Cover & Firing Into Melee").

"Any time that a ranged attack is resolved through soft cover, meaning that the line of effect
is obstructed by other combatants": the armies whose squares the line of effect from the
attacking army to the targeted army crosses give soft cover. "If a ranged attack is made into
an army that is engaged in melee combat": the armies in melee with the target (either
threatens the other, `geometry.engaged`) are the ones the shots may strike instead.

Pure and exact: squares are unit cells [x, x+1] x [y, y+1] of the 10' grid; lines join exact
rational points (Fractions); a line crosses a square when it shares a stretch of positive
length with it (running along its edge counts, touching a corner does not).

Options (`Options`): `line_of_effect` "centres" (one line, between the centres of the two
footprints) or "any" (every line from the centre of one of the attacker's squares to the
centre of one of the target's squares); `soft_cover_from_defeated` (whether defeated armies,
lying on the field, still obstruct); `firing_into_melee_with` "any" (every army in melee with
the target) or "allies" (only the attacker's allies, as standard combat's penalty).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from domain.rulesets.skirmish.geometry import Square, army_box, army_squares, engaged
from domain.rulesets.skirmish.model import Army, State

__all__ = [
    "Point",
    "armies_in_the_way",
    "centre",
    "crossing",
    "in_melee_with",
    "lines_of_effect",
]

Point = tuple[Fraction, Fraction]
_HALF = Fraction(1, 2)


def centre(squares: Iterable[Square]) -> Point:
    """The centre of the rectangle holding `squares` (an army's footprint)."""
    xs, ys = zip(*squares, strict=True)
    return Fraction(min(xs) + max(xs) + 1, 2), Fraction(min(ys) + max(ys) + 1, 2)


def crossing(a: Point, b: Point, square: Square) -> Fraction | None:
    """Where the segment a -> b enters `square` (the fraction of the way from a, 0..1), if it
    shares a stretch of positive length with the closed square; None otherwise."""
    lo_t, hi_t = Fraction(0), Fraction(1)
    for p0, p1, lo in ((a[0], b[0], square[0]), (a[1], b[1], square[1])):
        d = p1 - p0
        if d == 0:
            if not lo <= p0 <= lo + 1:
                return None
            continue
        t1, t2 = (lo - p0) / d, (lo + 1 - p0) / d
        lo_t, hi_t = max(lo_t, min(t1, t2)), min(hi_t, max(t1, t2))
        if lo_t >= hi_t:
            return None
    return lo_t if lo_t < hi_t else None


def lines_of_effect(attacker: Army, target: Army, mode: str) -> list[tuple[Point, Point]]:
    """The lines of effect from `attacker` to `target`: "centres" one line between the two
    footprints' centres; "any" a line from every attacker square's centre to every target
    square's centre."""
    if mode == "any":
        return [
            ((ax + _HALF, ay + _HALF), (tx + _HALF, ty + _HALF))
            for ax, ay in sorted(army_squares(attacker))
            for tx, ty in sorted(army_squares(target))
        ]
    return [(centre(army_squares(attacker)), centre(army_squares(target)))]


def _box(points: Iterable[Point]) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def armies_in_the_way(state: State, attacker: Army, target: Army) -> tuple[str, ...]:
    """ "Soft Cover & Firing Into Melee": the placed armies other than the two whose squares
    a line of effect from `attacker` to `target` crosses, any side (allies too: "the same effect
    on morale modifiers as friendly fire"), nearest to the attacker first (ties by id)."""
    o = state.options
    segments = lines_of_effect(attacker, target, o.line_of_effect)
    x0, y0, x1, y1 = _box(p for seg in segments for p in seg)
    found: list[tuple[Fraction, str]] = []
    for b in state.armies.values():
        if b.id in (attacker.id, target.id) or not b.placed or b.destroyed:
            continue
        if b.defeated and not o.soft_cover_from_defeated:
            continue
        # x0 <= x + 1 and x <= x1 for an integer x, with integer bounds: the box's Fractions
        # compared once, not once per square (an army may cover a thousand squares).
        lx, hx, ly, hy = math.ceil(x0) - 1, math.floor(x1), math.ceil(y0) - 1, math.floor(y1)
        bx0, by0, bx1, by1 = army_box(b)
        if bx1 < lx or bx0 > hx or by1 < ly or by0 > hy:
            continue  # wholly outside the lines' box
        squares = [s for s in army_squares(b) if lx <= s[0] <= hx and ly <= s[1] <= hy]
        first: Fraction | None = None
        for sq in squares:
            for p, q in segments:
                t = crossing(p, q, sq)
                if t is not None and (first is None or t < first):
                    first = t
        if first is not None:
            found.append((first, b.id))
    return tuple(army_id for _, army_id in sorted(found))


def in_melee_with(state: State, attacker: Army, target: Army) -> tuple[str, ...]:
    """ "Soft Cover & Firing Into Melee": the armies the target "is engaged in melee combat"
    with (geometry's `engaged`: an enemy of the target, either threatening the other), the
    attacker itself aside; with `firing_into_melee_with` "allies", only the attacker's
    allies."""
    ids = [x for x in engaged(state, target) if x != attacker.id]
    if state.options.firing_into_melee_with == "allies":
        ids = [x for x in ids if state.armies[x].side == attacker.side]
    return tuple(ids)
