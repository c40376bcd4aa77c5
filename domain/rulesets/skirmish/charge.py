"""A charge (seed 000 "Movement & Distance": "an army can take all of the same combination of
move and standard actions, including double-move with a charge, as per standard combat
rules"; "Running Skirmish Combat": a full-round action forfeits the move action "unless it is
part of a full-round action (i.e. charge)").

`ChargeArmy` in the movement phase: a full-round action (no move or standard action used
this round, none left after). The army moves in a straight line, within 45 degrees of its
front, up to `charge_speed_multiplier` x its speed (at least `charge_min_feet`), never through
another army (allies included; the model knows no difficult terrain), to the first position
from which it threatens the target with the charging profile's reach; it must see the target
at the start and may not be in melee already. The move provokes like any other. In the melee
phase the attack is declared for it (+2 attack); the army is at -2 AC until the next round
(`charge_attack`, `charge_ac`). If the target is no longer within reach then, the attack is
lost (ChargeFailed).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice
from domain.errors import DomainError
from domain.rulesets.skirmish.commands import ChargeArmy
from domain.rulesets.skirmish.common import army_of, need_phase, violation
from domain.rulesets.skirmish.events import ArmyMoved, ChargeDeclared, ChargeFailed, Event
from domain.rulesets.skirmish.geometry import (
    army_squares,
    direction_class,
    engaged,
    face_of,
    footprint,
    in_front,
    move_allowance,
    move_feet,
    path,
    sees,
    threatened,
)
from domain.rulesets.skirmish.model import Army, Declaration, State
from domain.rulesets.skirmish.moves import fits, provocations
from domain.rulesets.skirmish.rules import R_ACTIONS, R_CHARGE, R_FACING, R_MELEE
from domain.rulesets.skirmish.specs import AttackProfile

__all__ = ["charge_army", "charge_declarations", "may_charge", "melee_attack"]


def _reaches(a: Army, t: Army, profile: AttackProfile, square_feet: int) -> bool:
    return bool(threatened(a, profile.reach, square_feet) & army_squares(t))


def charge_army(state: State, c: ChargeArmy, dice: Dice) -> list[Event]:
    a, t, profile = _charger(state, c.army, c.target, c.profile)
    o = state.options
    sf = o.square_feet
    dx, dy = c.x - a.x, c.y - a.y
    if direction_class(a.facing, dx, dy) != "forward":
        raise violation("a charge moves straight ahead, within 45 degrees of the front", R_CHARGE)
    allowance = move_allowance(a.spec.speed * o.charge_speed_multiplier, (1, 1), sf)
    feet = move_feet(dx, dy, sf)
    if feet > allowance:
        raise violation(f"{a.id} can charge {allowance}', not {feet}'", R_CHARGE)
    if feet < o.charge_min_feet:
        raise violation(f"a charge moves at least {o.charge_min_feet}'", R_CHARGE)
    anchors = path(a, c.x, c.y)
    for i, (px, py) in enumerate(anchors):
        last = i == len(anchors) - 1
        where = fits(state, a, footprint(px, py, a.width, a.depth, a.facing), passing=not last)
        if where is not None:
            raise violation(f"{a.id} cannot charge {where.replace('onto', 'through')}", R_CHARGE)
        here = replace(a, x=px, y=py)
        if not last and o.charge_first_contact and _reaches(here, t, profile, sf):
            raise violation(
                f"{a.id} threatens {t.id} already at ({px}, {py}): a charge ends at the first "
                "position from which it can attack",
                R_CHARGE,
            )
    end = replace(a, x=c.x, y=c.y)
    if not _reaches(end, t, profile, sf):
        raise violation(f"from ({c.x}, {c.y}) {a.id} would not threaten {t.id}", R_CHARGE)
    return [
        ArmyMoved(
            army=a.id,
            x=c.x,
            y=c.y,
            feet=feet,
            allowance=allowance,
            direction="charge",
            provoked=provocations(state, a, "plain"),
            rule=R_CHARGE,
        ),
        ChargeDeclared(
            army=a.id,
            side=a.side,
            target=t.id,
            profile=profile.name,
            face=face_of(t, end),
            rule=R_CHARGE,
        ),
    ]


def _charger(state: State, army: str, target: str, name: str) -> tuple[Army, Army, AttackProfile]:
    """charge_army's checks that do not turn on where the charge ends (x, y): the army,
    its target and its charging profile."""
    need_phase(state, "movement", R_CHARGE, "charging")
    a = army_of(state, army)
    t = army_of(state, target)
    if not a.placed or not a.fighting or a.routed:
        raise violation(f"{a.id} cannot charge (unplaced, defeated or routing)", R_CHARGE)
    if t.side == a.side or not t.placed or not t.fighting:
        raise violation(f"{t.id} is not an enemy army that can be charged", R_CHARGE)
    if a.moves or a.acted:
        raise violation(
            f"{a.id} already moved or acted this round: a charge is a full-round action", R_CHARGE
        )
    profile = next((p for p in a.spec.attacks if p.name == name), None)
    if profile is None:
        raise violation(f"{a.id} has no action {name!r}", R_ACTIONS)
    if profile.kind not in ("melee", "maneuver") or profile.maneuver == "steal":
        raise violation(f"{profile.name} is not a melee attack or maneuver", R_CHARGE)
    foes = engaged(state, a)
    if foes:
        raise violation(
            f"{a.id} is already in melee with {', '.join(foes)}: it cannot charge", R_MELEE
        )
    if not sees(a, army_squares(t)):
        raise violation(
            f"{a.id} cannot see {t.id}: only within 45 degrees of its front corners", R_FACING
        )
    return a, t, profile


def may_charge(state: State, army: str, target: str, profile: str) -> bool:
    """Whether charge_army's checks before the end square pass for `army` charging
    `target` with `profile`: if not, decide refuses that charge wherever it ends (awaiting
    asks this before it probes the squares one by one)."""
    try:
        _charger(state, army, target, profile)
    except DomainError:
        return False
    return True


def charge_declarations(state: State) -> tuple[list[Declaration], list[Event]]:
    """The melee phase: the charging armies' attacks, or ChargeFailed when they cannot."""
    sf = state.options.square_feet
    out: list[Declaration] = []
    failed: list[Event] = []
    for a in sorted(state.armies.values(), key=lambda x: x.id):
        if a.charging is None:
            continue
        t = state.armies.get(a.charging)
        profile = next((p for p in a.spec.attacks if p.name == a.charge_profile), None)
        reason = ""
        if profile is None or t is None:
            reason = "nothing to attack with or no target"
        elif not a.fighting or a.routed:
            reason = f"{a.id} can no longer act"
        elif not t.placed or not t.fighting:
            reason = f"{t.id} can no longer be attacked"
        elif not _reaches(a, t, profile, sf):
            reason = f"{t.id} is out of reach"
        if reason or profile is None or t is None:
            failed.append(ChargeFailed(army=a.id, target=a.charging, reason=reason, rule=R_CHARGE))
            continue
        out.append(melee_attack(a, t, profile))
    return out, failed


def melee_attack(a: Army, t: Army, profile: AttackProfile) -> Declaration:
    """An attack the rules declare for an army (a charge, an attack of opportunity); it
    flanks unless it comes from the target's front ("Facing")."""
    return Declaration(
        army=a.id, side=a.side, profile=profile, target=t.id, flanking=not in_front(t, a)
    )
