"""[Conditions] Frightened of seed 002: "You are unable to move towards or attack the
creature/object frightening you. Make a SPI save to remove the condition."

A31: no step of a move may reduce the distance to the source (a creature's square, or
the nearest square of a structure); the source may not be the target of an attack or of
a standard action aimed at a creature (grapple, bull rush, charge), nor fall inside an
attack's area. A source that is gone (dead creatures stay on the map; a destroyed
structure does not) frightens no more. A creature the frightened character cannot see
([Total Concealment]) restricts nothing: it cannot know where it is, and a refusal would
tell its side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from domain.errors import RuleViolation
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import totally_concealed
from domain.rulesets.tactical.rules import R_CONDITIONS

__all__ = ["afraid_of", "check_area", "check_steps", "check_target", "fear_source", "step_test"]


def fear_source(st: State, c: Char) -> tuple[str, tuple[Square, ...]] | None:
    """What `c` is frightened of and the squares it stands on, or None."""
    f = c.condition("frightened")
    if f is None or f.source is None:
        return None
    src = st.chars.get(f.source)
    if src is not None:
        if totally_concealed(st, c, src):
            return None  # where it is cannot be known, nor told by a refusal (DESIGN: hidden)
        return src.id, (src.pos,)
    s = st.structures.get(f.source)
    if s is not None and not s.destroyed and s.squares:  # a wall of no section: nowhere
        return s.id, s.squares
    return None


def _away(st: State, sq: Square, squares: Sequence[Square]) -> int:
    m = st.options.metric
    return min(distance(sq, q, m) for q in squares)


def afraid_of(st: State, c: Char, what: str) -> bool:
    """Whether `what` is the (known) source of `c`'s fear: `c` may not attack it."""
    src = fear_source(st, c)
    return src is not None and src[0] == what


def check_target(st: State, c: Char, target: str | None, what: str = "attack") -> None:
    """A31: the source of `c`'s fear may not be attacked (nor grappled, bull rushed...)."""
    src = fear_source(st, c)
    if src is not None and target is not None and target == src[0]:
        raise RuleViolation(
            f"{c.id} is frightened of {target}: it cannot {what} it", rule=R_CONDITIONS
        )


def check_steps(st: State, c: Char, path: Iterable[Square], start: Square | None = None) -> None:
    """A31: no step of `path` (from `start`, default `c`'s square) may bring `c` closer to
    the source of its fear."""
    src = fear_source(st, c)
    if src is None:
        return
    here = c.pos if start is None else start
    for sq in path:
        if _away(st, sq, src[1]) < _away(st, here, src[1]):
            raise RuleViolation(
                f"{c.id} is frightened of {src[0]}: no step towards it (A31)",
                rule=R_CONDITIONS,
            )
        here = sq


def check_area(st: State, c: Char, squares: Iterable[Square]) -> None:
    """A31: an attack whose area includes the source of `c`'s fear is an attack on it."""
    src = fear_source(st, c)
    if src is None:
        return
    inside = set(squares) & set(src[1])
    if inside:
        raise RuleViolation(
            f"{c.id} is frightened of {src[0]}: its area covers {sorted(list(q) for q in inside)}"
            " (A31)",
            rule=R_CONDITIONS,
        )


def step_test(st: State, c: Char) -> Callable[[Square, Square], bool] | None:
    """For a path search: a step may not bring a frightened `c` closer to its source."""
    src = fear_source(st, c)
    if src is None:
        return None
    squares = src[1]
    return lambda a, b: _away(st, b, squares) >= _away(st, a, squares)
