"""Helpers shared by the skirmish decide modules: lookups, violations, d20 checks."""

from __future__ import annotations

from collections.abc import Sequence

from domain.dice import Dice
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.skirmish.events import Check
from domain.rulesets.skirmish.model import Army, Force, State
from domain.rulesets.skirmish.specs import Term

__all__ = ["army_of", "check", "force_of", "need_phase", "violation"]


def violation(reason: str, rule: str, **context: object) -> RuleViolation:
    return RuleViolation(reason, rule=rule, **context)


def army_of(state: State, army_id: str) -> Army:
    a = state.armies.get(army_id)
    if a is None:
        raise UnknownEntity(f"no army {army_id!r}", army=army_id)
    return a


def force_of(state: State, side: str) -> Force:
    f = state.forces.get(side)
    if f is None:
        raise UnknownEntity(f"no force {side!r}", side=side)
    return f


def need_phase(state: State, phase: str, rule: str, what: str, step: str | None = None) -> None:
    """Raise unless the battle is in `phase` (and setup `step`)."""
    if state.phase != phase or (step is not None and state.step != step):
        now = state.phase if state.phase != "setup" else f"setup step {state.step!r}"
        wanted = phase if step is None else f"setup step {step!r}"
        raise violation(f"{what} belongs to {wanted}, not {now}", rule)


def check(
    dice: Dice,
    purpose: str,
    terms: Sequence[Term],
    dc: int,
    rule: str,
    *,
    roll: bool = True,
    automatic: bool | None = None,
    why: str = "",
    subject: str | None = None,
) -> Check:
    """A d20 check (d20 + terms >= dc). `roll=False`: the modifiers alone (no die drawn).
    `automatic`: the outcome regardless of the die (still rolled unless roll=False).
    `subject`: the army or force the die is for (table dice name it when they ask)."""
    die = dice.roll(20, purpose, subject=subject) if roll else None
    total = (die.value if die is not None else 0) + sum(t.value for t in terms)
    success = total >= dc if automatic is None else automatic
    return Check(
        die=die,
        terms=tuple(terms),
        total=total,
        dc=dc,
        success=success,
        rule=rule,
        automatic=why if automatic is not None else "",
    )
