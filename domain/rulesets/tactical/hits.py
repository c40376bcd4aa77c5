"""What a hit does beyond its damage in seed 002: a Finisher's wound or failed death save
([Standard Actions] Finisher, A06), a power's condition on a hit, and the concentration
check of a damaged concentrator ([Concentration])."""

from __future__ import annotations

from domain.dice import Dice
from domain.rulesets.tactical.events import ConcentrationChecked, ConcentrationEnded
from domain.rulesets.tactical.model import Condition
from domain.rulesets.tactical.pools import fail_death_save, gain_condition, wound
from domain.rulesets.tactical.records import AttackRecord
from domain.rulesets.tactical.rules import R_STANDARD, Run

__all__ = ["after_hit", "concentration_check"]


def after_hit(run: Run, record: AttackRecord, tid: str) -> None:
    st = run.state
    t = st.chars[tid]
    if t.dead:
        return
    if record.action == "finisher":
        if t.has("dying"):
            fail_death_save(run, tid, f"finisher by {record.attacker}")
        elif st.options.finisher_on_stable == "wound":
            wound(run, tid, f"finisher by {record.attacker}")
    power = st.board.powers.get(record.weapon)
    if power is not None and power.condition is not None:
        c = power.condition
        gain_condition(
            run,
            tid,
            Condition(
                name=c.name,
                rating=c.rating,
                source=c.source or record.attacker,
                from_wound=c.from_wound,
            ),
            f"{power.id} hit",
            R_STANDARD,
        )


def concentration_check(run: Run, cid: str, damage: int, dice: Dice) -> None:
    """[Concentration] (R_CONCENTRATION): a MIN check less the damage sustained; on a
    failure the effect ends."""
    c = run.state.chars[cid]
    if c.concentration is None or damage <= 0:
        return
    if c.down:
        run.emit(
            ConcentrationEnded(character=cid, power=c.concentration, reason="unconscious (A41)")
        )
        return
    die = dice.roll(run.state.options.check_die, f"concentration check of {cid}")
    total = die.value + c.stats.MIN - damage
    ok = total >= run.state.dc
    run.emit(
        ConcentrationChecked(
            character=cid,
            power=c.concentration,
            die=die,
            bonus=c.stats.MIN,
            damage=damage,
            total=total,
            dc=run.state.dc,
            success=ok,
        )
    )
    if not ok:
        run.emit(
            ConcentrationEnded(
                character=cid, power=c.concentration, reason=f"failed the check ({total})"
            )
        )
