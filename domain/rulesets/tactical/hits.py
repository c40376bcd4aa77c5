"""What a hit does beyond its damage in seed 002: a Finisher's wound or failed death save
([Standard Actions] Finisher, A06), a power's condition on a hit, and the concentration
check of a damaged concentrator ([Concentration]) and the end of a concentration, which
ends the effect it kept up."""

from __future__ import annotations

from domain.dice import Dice
from domain.rulesets.tactical.events import (
    CharacterDamaged,
    ConcentrationChecked,
    ConcentrationEnded,
    ConditionEnded,
)
from domain.rulesets.tactical.model import Condition
from domain.rulesets.tactical.pools import fail_death_save, gain_condition, wound
from domain.rulesets.tactical.records import AttackRecord
from domain.rulesets.tactical.rules import R_CONCENTRATION, R_HEALTH, R_STANDARD, Run

__all__ = ["after_hit", "concentration_check", "end_concentration"]


def after_hit(run: Run, record: AttackRecord, tid: str) -> None:
    st = run.state
    t = st.chars[tid]
    if t.dead:
        return
    if record.action == "finisher":
        if t.has("dying"):
            spared = st.options.finisher_on_dying == "death_save_only"
            how = " (instead of its damage: finisher_on_dying)" if spared else ""
            fail_death_save(run, tid, f"finisher by {record.attacker}{how}")
        elif st.options.finisher_on_stable == "wound":
            why = f"finisher by {record.attacker}"
            if t.HEA.cur > 0:
                # [Health Damage]: dying is HEA 0 or lower, and HEA above 0 ends Unconscious,
                # so the wound first brings HEA to 0 (A06)
                run.emit(
                    CharacterDamaged(
                        character=tid,
                        pool="HEA",
                        amount=t.HEA.cur,
                        reason=f"{why}: a wound brings HEA to 0 (A06)",
                        rule=R_HEALTH,
                    )
                )
            wound(run, tid, why)
            if run.state.chars[tid].concentration is not None:
                end_concentration(run, tid, "unconscious (A41)")
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
        end_concentration(run, cid, "unconscious (A41)")
        return
    die = dice.roll(run.state.options.check_die, f"concentration check of {cid}", subject=cid)
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
        end_concentration(run, cid, f"failed the check ({total})")


def end_concentration(run: Run, cid: str, reason: str) -> None:
    """The concentration of `cid` ends, and with it the effect it kept up ([Concentration]:
    "If you fail, the effect ends"; [Types]: effects "must be maintained"): the power's
    condition ends on every character that has it from this caster."""
    st = run.state
    power_id = st.chars[cid].concentration
    if power_id is None:
        return
    run.emit(ConcentrationEnded(character=cid, power=power_id, reason=reason))
    power = st.board.powers.get(power_id)
    if power is None or power.condition is None:
        return
    name, source = power.condition.name, power.condition.source or cid
    for t in st.chars.values():
        cond = t.condition(name)
        if cond is not None and cond.source == source and not t.dead:
            run.emit(
                ConditionEnded(
                    character=t.id,
                    condition=name,
                    reason=f"{cid} no longer concentrates on {power_id}",
                    rule=R_CONCENTRATION,
                )
            )
