"""The routing phase and the end of the skirmish (seed 000 "Morale Checks", "Routing",
"Ending Skirmish Combat").

Routing: each army makes a Morale check (d20 + morale + Table 4's routing modifiers against
Table 3's DC). An army that fails with morale +0 or below routs at once; above +0 it gets the
standard mass combat save (a Will save) before routing. Dominated, summoned, mindless and
fear-immune armies cannot fail. A routed army stays routed until an allied commander rallies
it (the "rally" tactic); routed armies flee toward their camp zone (flight). Opposed Morale
checks (the tactics of `options.opposed_tactics`): each side rolls d20 + morale, ties to the
initiator.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.rulesets.skirmish.commands import EndSkirmish
from domain.rulesets.skirmish.common import check, violation
from domain.rulesets.skirmish.events import (
    ArmsRecovered,
    ArmyRouted,
    Check,
    Event,
    MoraleChecked,
    Opposition,
    PhaseBegan,
    SkirmishEnded,
)
from domain.rulesets.skirmish.flight import flee
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.rules import (
    R_END,
    R_MANEUVERS,
    R_MORALE_DCS,
    R_OPPOSED,
    R_PHASES,
    R_ROUTING,
)
from domain.rulesets.skirmish.specs import Term

__all__ = [
    "end_skirmish",
    "ending",
    "opposed_check",
    "routing_phase",
    "routing_terms",
    "standing_sides",
]


def opposed_check(
    dice: Dice, a: Army, opponents: list[Army], what: str
) -> tuple[Check, tuple[Opposition, ...]]:
    """ "Opposed Morale Checks": `a` (the initiator) and each opposing army roll d20 + morale;
    ties go to the initiator, which must prevail against every opponent. The initiator's
    Check has the highest opposing total as its DC."""
    terms = (Term(label="morale", value=a.morale, rule=R_MORALE_DCS),)
    die = dice.roll(20, f"opposed Morale check of {a.id}: {what}", subject=a.id)
    total = die.value + a.morale
    out: list[Opposition] = []
    for b in sorted(opponents, key=lambda x: x.id):
        b_die = dice.roll(20, f"opposed Morale check of {b.id} against {a.id}", subject=b.id)
        b_total = b_die.value + b.morale
        wins = total >= b_total
        b_check = Check(
            die=b_die,
            terms=(Term(label="morale", value=b.morale, rule=R_MORALE_DCS),),
            total=b_total,
            dc=total + 1,  # ties go to the initiator
            success=not wins,
            rule=R_OPPOSED,
        )
        out.append(Opposition(army=b.id, check=b_check, initiator_wins=wins))
    best = max(x.check.total for x in out)
    result = Check(
        die=die, terms=terms, total=total, dc=best, success=total >= best, rule=R_OPPOSED
    )
    return result, tuple(out)


def routing_terms(state: State, a: Army) -> list[Term]:
    """Morale and the routing modifiers (Table 4, lost: `options.routing`) that apply now."""
    r = state.options.routing
    terms = [Term(label="morale", value=a.morale, rule=R_MORALE_DCS)]

    def add(flag: bool, label: str, value: int) -> None:
        if flag and value:
            terms.append(Term(label=label, value=value, rule=R_ROUTING))

    hp, orig = a.total_hp, a.original_total_hp
    add(2 * hp < orig, "below half Total Army HP", r.below_half_hp)
    add(4 * hp < orig, "below a quarter Total Army HP", r.below_quarter_hp)
    add(a.lost_soldiers, "lost soldiers this round", r.lost_soldiers_this_round)
    add(a.flanked, "flanked this round", r.flanked_this_round)
    own_area = any(p.kind == "area" for p in a.spec.attacks)
    add(a.area_hit and not own_area, "struck by area effects", r.area_effects_this_round)
    add(a.friendly_fire, "friendly fire", r.friendly_fire_this_round)
    add(a.commander_lost, "commander lost", r.commander_lost)
    allies_routed = any(
        b.routed for b in state.armies.values() if b.side == a.side and b.id != a.id
    )
    add(allies_routed, "an allied army is routed", r.ally_routed_this_round)
    return terms


def _cannot_rout(a: Army) -> str:
    s = a.spec
    for flag, why in (
        (s.dominated, "dominated"),
        (s.summoned, "summoned"),
        (s.mindless, "mindless"),
        (s.immune_to_fear, "immune to fear"),
    ):
        if flag:
            return why
    return ""


def standing_sides(state: State) -> list[str]:
    """Sides with an army still able to fight (placed, not defeated, not routed)."""
    return sorted(
        {a.side for a in state.armies.values() if a.placed and a.fighting and not a.routed}
    )


def routing_phase(state: State, dice: Dice) -> list[Event]:
    o = state.options
    events: list[Event] = []
    for a in sorted(state.armies.values(), key=lambda x: x.id):
        if not a.placed or not a.fighting or a.routed:
            continue
        if o.rout_check == "below_half" and 2 * a.total_hp > a.original_total_hp:
            continue
        terms = routing_terms(state, a)
        why = _cannot_rout(a)
        result = check(
            dice,
            f"routing Morale check of {a.id}",
            terms,
            o.morale_dcs.rout,
            R_ROUTING,
            roll=not why,
            automatic=True if why else None,
            why=f"{why}: cannot fail" if why else "",
            subject=a.id,
        )
        will = None
        routed = False
        if not result.success:
            if a.morale <= 0:
                routed = True
            else:
                will = check(
                    dice,
                    f"Will save of {a.id} against routing",
                    [Term(label="Will", value=a.spec.will, rule=R_ROUTING)],
                    o.morale_dcs.will_on_failed_rout,
                    R_ROUTING,
                    subject=a.id,
                )
                routed = not will.success
        events.append(
            MoraleChecked(
                army=a.id,
                purpose="rout",
                check=result,
                will_save=will,
                routed=routed,
                rule=R_ROUTING,
            )
        )
        if routed:
            reason = (
                "failed its Morale check at morale +0 or below"
                if will is None
                else "failed its Morale check and its Will save"
            )
            events.append(ArmyRouted(army=a.id, reason=reason, rule=R_ROUTING))
    routed_now = {e.army for e in events if isinstance(e, ArmyRouted)}
    if o.auto_end:
        sides = {
            a.side
            for a in state.armies.values()
            if a.placed and a.fighting and not a.routed and a.id not in routed_now
        }
        if len(sides) <= 1:
            return events + ending(state, "one force alone can still fight", routed_now)
    # the skirmish goes on: routed armies flee toward their camp zone (flight)
    events += flee(state, routed_now)
    if o.disarm_recovery == "end_of_round":
        events += [
            ArmsRecovered(army=a.id, soldiers=a.disarmed, rule=R_MANEUVERS)
            for a in sorted(state.armies.values(), key=lambda x: x.id)
            if a.disarmed > 0
        ]
    return [*events, PhaseBegan(round=state.round + 1, phase="movement", rule=R_PHASES)]


def ending(state: State, reason: str, routed_now: set[str] | None = None) -> list[Event]:
    """ "Ending Skirmish Combat": armies once below half their original Total Army HP are
    bloodied (the standing ones: the losers are defeated or routed); routed ones stay routed."""
    routed_now = routed_now or set()
    routed = tuple(sorted(a.id for a in state.armies.values() if a.routed or a.id in routed_now))
    bloodied = tuple(sorted(a.id for a in state.armies.values() if a.was_below_half and a.fighting))
    standing = tuple(
        sorted(
            {
                a.side
                for a in state.armies.values()
                if a.placed and a.fighting and not a.routed and a.id not in routed_now
            }
        )
    )
    return [
        SkirmishEnded(
            reason=reason, bloodied=bloodied, still_routed=routed, standing=standing, rule=R_END
        )
    ]


def end_skirmish(state: State, c: EndSkirmish, dice: Dice) -> list[Event]:
    if state.phase == "over":
        raise violation("the skirmish is already over", R_END)
    if state.phase == "setup":
        raise violation("the skirmish has not started", R_END)
    return ending(state, c.reason)
