"""What a side can see of a seed 001 battle, and a side's command judged on that alone.

Hidden information must not leak through an answer (Hero Units: a hero's stealth hides
its squad from the other sides): a side's command is refused or accepted as it would be
in `seen_by(state, side)`, the state without the squads hidden from that side, and decide
then resolves it on the full state without refusing anything the view accepted (a move
that meets a hidden squad stops before it, see decide's `_move`).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Roll
from domain.rulesets.quickstart.grid import Pos
from domain.rulesets.quickstart.model import Squad, State

__all__ = ["PROBE_DICE", "ProbeDice", "hidden_at", "hidden_from", "seen_by"]


def hidden_from(state: State, side: str | None) -> set[str]:
    """The ids of the squads `side` cannot see (every hidden squad for side None)."""
    out: set[str] = set()
    for q in state.squads.values():  # a loop: few squads are ever hidden
        if q.hidden and q.side != side:
            out.add(q.id)
    return out


def hidden_at(state: State, side: str) -> dict[Pos, Squad]:
    """The squads hidden from `side`, by square."""
    return {(q.x, q.y): q for q in state.squads.values() if q.hidden and q.side != side}


def seen_by(state: State, side: str | None) -> State:
    """The state as `side` knows it: the squads hidden from it are not there, and no hero
    is attached to them. `state` itself when nothing is hidden from `side`."""
    hidden = hidden_from(state, side)
    if not hidden:
        return state
    squads = {k: q for k, q in state.squads.items() if k not in hidden}
    heroes = {
        k: replace(h, squad=None) if h.squad in hidden else h for k, h in state.heroes.items()
    }
    return replace(state, squads=squads, heroes=heroes)


class ProbeDice:
    """Dice for judging a command on a view: every die shows 1. The events they decide are
    thrown away; decide refuses before it rolls, so the values never change a refusal."""

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return Roll(sides=sides, values=(1,) * count, purpose=purpose, source="client")


PROBE_DICE = ProbeDice()
