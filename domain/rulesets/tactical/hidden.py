"""Creatures a mover cannot see, met on its way (seed 002 [Total Concealment],
[Invisibility]; DESIGN: no answer may depend on what the caller cannot see).

A move is planned and checked against what the mover can see: a creature of another side
that is totally concealed from it (invisible, in total concealment, not perceived nor
glimpsed) neither blocks the path the service finds nor makes the goal "occupied", so
no refusal and no detour tells the mover's side where it is. When the walk then reaches
its square, the mover stops in the last free square before it (not an ally's square,
where it may not end, A47), the creature is revealed (`CharacterRevealed`; like a hit
on an unseen square, [Targeting What You Can't See §4], it only has concealment until the
end of its next turn) and the action is recorded as interrupted (`ActionInterrupted`).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import totally_concealed

__all__ = ["first_unseen", "last_free", "unseen_squares"]


def unseen_squares(state: State, c: Char) -> set[Square]:
    """The squares of creatures of other sides that `c` cannot see."""
    out: set[Square] = set()
    for sq, cid in state.occupied.items():
        t = state.chars[cid]
        if t.side != c.side and totally_concealed(state, c, t):
            out.add(sq)
    return out


def first_unseen(state: State, c: Char, path: Sequence[Square]) -> tuple[int, str] | None:
    """The index in `path` of the first square holding a creature `c` cannot see, and
    that creature; None when the way is clear of them."""
    unseen = unseen_squares(state, c)
    if not unseen:
        return None
    for k, sq in enumerate(path):
        if sq in unseen:
            return k, state.occupied[sq]
    return None


def last_free(state: State, c: Char, path: Sequence[Square], k: int) -> int:
    """How many squares of `path` the mover walks when it must stop before `path[k]`: back
    to the last square no other creature stands on (or its start)."""
    j = k
    while j > 0 and state.occupied.get(path[j - 1], c.id) != c.id:
        j -= 1
    return j
