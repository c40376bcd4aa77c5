"""Resolving the action whose turn it is (seed 004 schedules the round; it does not define
attack arithmetic, so the roll is an option): an attack rolls d20 + the combatant's and the
weapon's to-hit (+4 under Lucky Opening) against the target's AC (+4 under Lucky Break) and,
on a hit, the weapon's damage dice; any other action is recorded as completed. Or the
referee records the outcome.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.phased.events import ActionResolved, AttackRoll
from domain.rulesets.phased.model import Action, label
from domain.rulesets.phased.phases import check_end
from domain.rulesets.phased.rules import R_EVENTS, R_PHASES, Run, parse_dice

__all__ = ["record_outcome", "resolve_roll"]


def resolve_roll(run: Run, a: Action, dice: Dice) -> None:
    st = run.state
    c = st.combatants[a.combatant]
    base = {
        "action": a.id,
        "side": a.side,
        "combatant": a.combatant,
        "kind": a.kind,
        "round": st.round,
        "phase": label(st.phase),
    }
    if a.kind != "attack":
        run.emit(ActionResolved(**base, by="completed", outcome="completed", target=a.target))  # type: ignore[arg-type]
        return
    if st.options.resolution == "referee":
        raise RuleViolation(
            "the referee records attack outcomes (resolution: referee)", rule=R_PHASES
        )
    if a.target is None or a.weapon is None:
        raise RuleViolation(
            "an attack without a target is recorded by the referee (RecordOutcome)", rule=R_PHASES
        )
    w = c.weapons[a.weapon]
    it = c.items[a.weapon]
    if it.dropped or not it.held or it.stuck:
        raise RuleViolation(
            f"{c.id}'s {w.id} is not in hand: cancel the action or let the referee record it",
            rule=R_EVENTS,
        )
    t = st.combatants[a.target]
    die = dice.roll(20, f"attack of {c.id} with {w.id} on {t.id}", subject=c.id)
    to_hit = c.to_hit + w.to_hit
    bonus = 4 if c.has("lucky_opening") else 0  # Lucky Opening: +4 on To-Hit rolls
    ac_bonus = 4 if t.has("lucky_break") else 0  # Lucky Break: +4 to AC
    total = die.value + to_hit + bonus
    ac = t.ac + ac_bonus
    hit = total >= ac if st.options.hit_on == "at_least" else total > ac
    damage_roll = None
    damage = 0
    if hit:
        count, sides, plus = parse_dice(w.damage)
        damage_roll = dice.roll_many(
            count, sides, f"damage of {c.id}'s {w.id} on {t.id}", subject=c.id
        )
        damage = max(sum(damage_roll.values) + plus, 0)
    run.emit(
        ActionResolved(
            **base,  # type: ignore[arg-type]
            by="roll",
            attack=AttackRoll(
                weapon=w.id,
                target=t.id,
                die=die,
                to_hit=to_hit,
                bonus=bonus,
                total=total,
                ac=t.ac,
                ac_bonus=ac_bonus,
                hit=hit,
                damage_roll=damage_roll,
                damage=damage,
            ),
            outcome="hit" if hit else "miss",
            hit=hit,
            target=t.id,
            damage=damage,
            target_hp=None if t.hp is None else t.hp - damage,
        )
    )
    if hit and t.hp is not None:
        check_end(run)


def record_outcome(run: Run, a: Action, outcome: str, hit: bool | None, damage: int | None) -> None:
    st = run.state
    t = st.combatants.get(a.target) if a.target is not None else None
    dealt = damage or 0
    run.emit(
        ActionResolved(
            action=a.id,
            side=a.side,
            combatant=a.combatant,
            kind=a.kind,
            round=st.round,
            phase=label(st.phase),
            by="referee",
            outcome=outcome,
            hit=hit,
            target=a.target,
            damage=dealt,
            target_hp=None if t is None or t.hp is None or not dealt else t.hp - dealt,
        )
    )
    if dealt and t is not None and t.hp is not None:
        check_end(run)
