"""[Damage] of seed 002: what a pool at 0 or less does (dying, drained, dazed), death saves,
checks and saves, healing, and the end of combat when a side is out ([Sequence §5]).
"""

from __future__ import annotations

from domain.dice import Dice, Roll
from domain.rulesets.tactical.conditions import merge
from domain.rulesets.tactical.events import (
    CharacterDied,
    CombatEnded,
    ConditionEnded,
    ConditionGained,
    DeathSaveRolled,
    Stabilized,
    WoundRecorded,
)
from domain.rulesets.tactical.model import Char, Condition
from domain.rulesets.tactical.rules import R_CONDITIONS, R_HEALTH, R_STAMINA, Run

__all__ = [
    "after_loss",
    "after_restore",
    "check",
    "check_end",
    "death_save",
    "fail_death_save",
    "gain_condition",
    "wound",
]


def gain_condition(
    run: Run, cid: str, cond: Condition, reason: str, rule: str, hidden_side: str | None = None
) -> None:
    c = run.state.chars[cid]
    # a side-only condition adds to the side-only one of its name only (evolve keeps them
    # apart from a public one, which the others saw and still see)
    hidden = hidden_side is not None
    old = next((k for k in c.conditions if k.name == cond.name and k.hidden == hidden), None)
    run.emit(
        ConditionGained(
            character=cid,
            condition=merge(old, cond, run.state.options.stack_ratings),
            reason=reason,
            rule=rule,
            hidden_side=hidden_side,
        )
    )


def wound(run: Run, cid: str, reason: str) -> None:
    """A05: a wound; unconscious (from the wound) and dying."""
    c = run.state.chars[cid]
    run.emit(WoundRecorded(character=cid, wounds=c.wounds + 1, reason=reason, rule=R_HEALTH))
    if not c.has("unconscious"):
        gain_condition(
            run,
            cid,
            Condition(name="unconscious", from_wound=True, unsaveable=True),
            reason,
            R_HEALTH,
        )
    if not c.has("dying"):
        gain_condition(
            run, cid, Condition(name="dying", from_wound=True, unsaveable=True), reason, R_HEALTH
        )


def after_loss(run: Run, cid: str, pool: str, before: int, reason: str) -> None:
    """A pool fell: [Health Damage] at HEA <= 0, [Stamina Damage] at STA <= 0, A08 at WIL <= 0."""
    c = run.state.chars[cid]
    if c.dead:
        return
    now = getattr(c, pool).cur
    if now > 0 or before <= 0:
        down = pool == "HEA" and before <= 0 and now < before and c.has("dying")
        if down and run.state.options.damage_while_down == "failed_save":
            fail_death_save(run, cid, "damage while dying (option damage_while_down)")
        return
    if pool == "HEA":
        wound(run, cid, f"HEA fell to {now} ({reason})")
    elif pool == "STA":
        if not c.has("exposed") or c.drained_at is None:
            gain_condition(
                run,
                cid,
                Condition(name="exposed", unsaveable=True),
                f"STA fell to {now}: drained ({reason})",
                R_STAMINA,
                # an invisible character's STA is its side's ([Invisibility]): so is its
                # drain, whatever drained it (a public hit's damage stays public)
                c.side if c.has("invisible") else None,
            )
    elif run.state.options.wil_zero == "dazed":
        gain_condition(
            run,
            cid,
            Condition(name="dazed", unsaveable=True, source="WIL"),
            f"WIL fell to {now} ({reason}; A08)",
            R_CONDITIONS,
        )


def after_restore(run: Run, cid: str, pool: str) -> None:
    """[Health Damage]: HEA above 0 ends Unconscious and throws out the death saves."""
    c = run.state.chars[cid]
    if pool == "HEA" and c.HEA.cur > 0:
        for name in ("dying", "unconscious"):
            if c.has(name):
                run.emit(
                    ConditionEnded(
                        character=cid, condition=name, reason="HEA restored above 0", rule=R_HEALTH
                    )
                )
    if pool == "WIL" and c.WIL.cur > 0:
        d = c.condition("dazed")
        if d is not None and d.source == "WIL":
            run.emit(
                ConditionEnded(
                    character=cid, condition="dazed", reason="WIL above 0", rule=R_CONDITIONS
                )
            )


def check(run: Run, dice: Dice, c: Char, stat: str, purpose: str) -> tuple[Roll, int, int, bool]:
    """A01: d12 + the named stat >= DC. Returns (die, bonus, total, success)."""
    die = dice.roll(run.state.options.check_die, purpose, subject=c.id)
    bonus = getattr(c.stats, stat) if stat else 0
    total = die.value + bonus
    return die, bonus, total, total >= run.state.dc


def _tally(run: Run, c: Char, die: Roll | None, success: bool, reason: str) -> None:
    s = c.death_successes + (1 if success else 0)
    f = c.death_failures + (0 if success else 1)
    run.emit(
        DeathSaveRolled(
            character=c.id,
            die=die,
            dc=run.state.options.death_save_dc,
            success=success,
            successes=s,
            failures=f,
            reason=reason,
        )
    )
    if f >= 3:
        run.emit(CharacterDied(character=c.id, reason="three failed death saves"))
    elif s >= 3:
        run.emit(Stabilized(character=c.id))
        run.emit(
            ConditionEnded(
                character=c.id, condition="dying", reason="three death saves", rule=R_HEALTH
            )
        )


def death_save(run: Run, dice: Dice, c: Char) -> None:
    """[Health Damage]: a d12 with no bonuses; A02: success on >= death_save_dc."""
    die = dice.roll(12, f"death save of {c.id}", subject=c.id)
    _tally(run, c, die, die.value >= run.state.options.death_save_dc, "death save")


def fail_death_save(run: Run, cid: str, reason: str) -> None:
    _tally(run, run.state.chars[cid], None, False, reason)


def check_end(run: Run) -> None:
    """[Sequence §5] / A45: the combat ends when at most one side has anyone standing."""
    st = run.state
    if st.phase != "combat" or not st.options.auto_end:
        return
    standing: list[str] = []
    for c in st.chars.values():
        if c.side not in standing and not c.down:
            standing.append(c.side)
            if len(standing) > 1:
                return  # two sides still stand: the usual case, found after a few characters
    if len(standing) == 1:
        run.emit(CombatEnded(winner=standing[0], reason=f"only {standing[0]} has anyone standing"))
    elif not standing:
        run.emit(CombatEnded(winner=None, reason="no side has anyone standing"))
