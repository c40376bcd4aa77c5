"""What a pending call holds (seed 004, Combat Events): a save or check the referee must
settle, or a side's choice, that a combat event left open decides something an action
depends on, so that action waits until it is settled.

Every pending call of the table is listed here with what it holds:

- Weapon Trouble 1-2 ("Disarmed unless they make a successful Save vs. Paralyzation") and
  3-5 ("Weapon must make a Saving Throw vs. Crushing Blow or be damaged"): the save names
  the weapon (`Pending.item`); it holds the combatant's attacks with that weapon.
- Knock Down (the nearest figure's Reflex Save or "fall down next to them"), Slip (the save,
  then the side's choice of being moved, dropping an item, falling prone), Mount or Vehicle
  Trouble (the Advanced Riding or Driving check and the save after it: prone, falling off,
  "Stunned for 1d6 rounds"): no item, or the whole combatant is moved, felled or stunned;
  it holds every action of that combatant.

The round's end waits for every pending call too (`phases.advance`): a result belongs to
the round its event was drawn in (a stun counts that round), and the next round's
declarations depend on it (a disarmed weapon cannot be declared).
"""

from __future__ import annotations

from domain.rulesets.phased.model import Action, Pending, State

__all__ = ["describe", "holding", "holding_declaration", "waiting_by"]


def _holds(p: Pending, combatant: str, kind: str, weapon: str | None) -> bool:
    if p.combatant != combatant:
        return False
    if p.kind == "test" and p.item is not None:
        return kind == "attack" and weapon == p.item
    return True


def holding_declaration(
    state: State, combatant: str, kind: str, weapon: str | None
) -> list[Pending]:
    """The pending calls an action of `combatant` (of `kind`, with `weapon`) waits for."""
    return [p for p in state.pending.values() if _holds(p, combatant, kind, weapon)]


def holding(state: State, a: Action) -> list[Pending]:
    """The pending calls the action `a` waits for."""
    return holding_declaration(state, a.combatant, a.kind, a.weapon)


def describe(p: Pending) -> str:
    """A pending call as a refusal names it: its id, what it is, whose, and who settles it."""
    if p.kind == "choice":
        return f"{p.id} (the choice of {p.combatant}'s side, ChooseEffects)"
    what = p.test + (f" of {p.item}" if p.item else "")
    return f"{p.id} ({what} of {p.combatant}, the referee's RuleCheck)"


def waiting_by(state: State, calls: list[Pending]) -> str:
    """Who settles `calls`: the referee when any is a save or check, else the side that
    chooses (the referee may choose for it too)."""
    if any(p.kind == "test" for p in calls) or not calls:
        return "referee"
    c = state.combatants.get(calls[0].combatant)
    return c.side if c is not None else "referee"
