"""What a warfare battle waits for now, as prompts (domain.prompts), for seed 003.

The windows: the round's start (the referee; the sides' d20 roll-off, W01), the active
side's turn (EndTurn), each of its champions' one action, each of its units' orders
(facing, move, engage, attack, disengage, rest), its reserves' placing, and, open to
every side whatever the turn, a unit's retaliation on a melee attacker ([Retaliatory
Attacks]) and its pursuit of a unit that shattered ([Pursuit]); the referee's calls
(conditions, forced morale checks, a champion's other action) are optional prompts.

Every command and choice listed is one decide accepts now: each is asked of decide itself
(domain.probing) and moves come from reach.py, which shares the move's code. Seed 003 hides
nothing, so every actor gets the same prompts; `role`/`side` say who may answer.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.probing import refusal
from domain.prompts import DiceNeed, Prompt
from domain.rulesets.warfare.commands import Command
from domain.rulesets.warfare.decide import decide
from domain.rulesets.warfare.geometry import DELTA, distance
from domain.rulesets.warfare.model import State, Unit
from domain.rulesets.warfare.orders import MAX_INCREMENTS
from domain.rulesets.warfare.reach import can_move
from domain.rulesets.warfare.rules import (
    R_ACTIONS,
    R_ATTACKS,
    R_CHAMPIONS,
    R_ENGAGEMENT,
    R_MORALE,
    R_PROJECT,
    R_PURSUIT,
    R_REFEREE,
    R_RETALIATION,
    R_ZONES,
)

__all__ = ["awaiting"]

_MORALE_WHEN = (
    "if the damage leaves {t} at or below half health (or an ability of {u} forces a check)"
)


def _ok(state: State, command: dict[str, Any]) -> bool:
    cmd: Command = msgspec.convert(command, Command)
    return refusal(decide, state, cmd) is None


def _attack_dice(u: str, targets: list[str], what: str, when: str) -> tuple[DiceNeed, ...]:
    """The attack d20 and the morale d20 a hit that diminishes its target adds."""
    t = targets[0] if len(targets) == 1 else "<target>"
    subject = t if len(targets) == 1 else None
    return (
        DiceNeed(sides=20, purpose=f"{what}: {u} on {t}", subject=u, when=when),
        DiceNeed(
            sides=20,
            purpose=f"morale check: {t}",
            subject=subject,
            when=f"{when}, " + _MORALE_WHEN.format(t=t, u=u),
        ),
    )


def _automatic_retaliations(u: str, targets: list[str]) -> tuple[DiceNeed, ...]:
    """W09 automatic: the target's retaliation, then the attacker's on it (each with its
    own morale die), when a melee attack lets them."""
    t = targets[0] if len(targets) == 1 else "<target>"
    when = f"Attack in melee, if {t} may retaliate then (W09 automatic)"
    back = _attack_dice(t, [u], "retaliation attack", when)
    again = _attack_dice(u, [t], "retaliation attack", f"{when}, and {u} in turn")
    return back + again


def _free_attack_dice(u: Unit, when: str) -> tuple[DiceNeed, ...]:
    """[Engagement] a unit breaking away takes a free attack from each unit engaged."""
    return tuple(
        DiceNeed(
            sides=20,
            purpose=f"free attack: {o} on {u.id}",
            subject=o,
            when=f"{when} (breaking away from {o})",
        )
        for o in u.engaged
    )


def _round_prompt(state: State) -> Prompt:
    sides = [s for s in state.board.sides if s not in state.defeated]
    mode = state.options.side_order
    rolls = mode == "roll_off" or (mode == "roll_off_once" and not state.order)
    dice = tuple(
        DiceNeed(sides=20, purpose=f"roll-off: {s}", subject=s) for s in sides if rolls
    ) + (
        (DiceNeed(sides=20, purpose="roll-off: <tied side>", when="for each tie, again"),)
        if rolls
        else ()
    )
    return Prompt(
        id=f"round:{state.round + 1}",
        role="referee",
        commands=("StartRound",),
        reason=f"round {state.round + 1} starts: the sides' order",
        dice=dice,
        rule=R_PROJECT,
    )


def _unit_prompts(state: State, u: Unit) -> list[Prompt]:
    """A unit's orders on its side's turn: each a prompt whose commands all pass."""
    out: list[Prompt] = []
    side = u.side
    commands: list[str] = []
    choices: dict[str, list[str]] = {}
    dirs = list(DELTA)  # decide refuses a diagonal when units face four ways (W02)
    facings = [d for d in dirs if _ok(state, {"type": "Face", "unit": u.id, "facing": d})]
    if facings:
        commands.append("Face")
        choices["facing"] = facings
    if can_move(state, u):
        commands.append("Move")
    if _ok(state, {"type": "Rest", "unit": u.id}):
        commands.append("Rest")
    spared = list(u.engaged[:2]) if len(u.engaged) > 2 else []
    if _ok(state, {"type": "Disengage", "unit": u.id, "spared": spared}):
        commands.append("Disengage")
        if len(u.engaged) > 2:
            choices["spared"] = list(u.engaged)
    if commands:
        out.append(
            Prompt(
                id=f"turn:{u.id}",
                role="side",
                side=side,
                subject=u.id,
                commands=tuple(commands),
                reason=f"{u.id} may act"
                + (" (Disengage names two of `spared`)" if "spared" in choices else ""),
                choices=choices,
                dice=_free_attack_dice(u, "Move or Disengage"),
                optional=True,
                rule=R_ACTIONS,
            )
        )
    # only foes within the farthest an attack may reach are asked of decide: a battle of
    # hundreds of units asks a handful per unit, not every foe (decide still rules them)
    most = state.options.melee_reach
    if u.kind != "melee":
        most = max(most, (u.range_increment or 1) * MAX_INCREMENTS[u.kind])
    foes = [
        t
        for t in state.units.values()
        if t.side != side and t.on_field and (t.id in u.engaged or distance(u.tile, t.tile) <= most)
    ]
    for kind, rule in (("Engage", R_ENGAGEMENT), ("Attack", R_ATTACKS)):
        targets = [t.id for t in foes if _ok(state, {"type": kind, "unit": u.id, "target": t.id})]
        if not targets:
            continue
        dice: tuple[DiceNeed, ...] = ()
        if kind == "Attack":
            dice = _attack_dice(u.id, targets, "attack", "Attack")
            if state.options.retaliation == "automatic":
                dice += _automatic_retaliations(u.id, targets)
        out.append(
            Prompt(
                id=f"{kind.lower()}:{u.id}",
                role="side",
                side=side,
                subject=u.id,
                commands=(kind,),
                reason=f"{u.id} may {kind.lower()} a unit it faces",
                choices={"target": targets},
                dice=dice,
                optional=True,
                rule=rule,
            )
        )
    return out


def _reserve_tiles(state: State, u: Unit) -> list[str]:
    """The free tiles of `u`'s side's working zones: decide is asked for one free tile of
    each zone (whether the zone works); the other tiles differ from it only in being free."""
    out: set[tuple[int, int]] = set()
    seen: set[tuple[int, int]] = set()  # a tile of two zones is its first zone's (decide)
    for _, zone in state.board.zones[u.side]:
        free = sorted(t for t in zone if t not in state.occupied and t not in seen)
        seen |= zone
        if free and _ok(state, {"type": "PlaceReserve", "unit": u.id, "to": list(free[0])}):
            out.update(free)
    return [f"{x},{y}" for x, y in sorted(out)]


def _turn_prompts(state: State, side: str) -> list[Prompt]:
    out = [
        Prompt(
            id=f"turn:{side}",
            role="side",
            side=side,
            commands=("EndTurn",),
            reason=f"{side}'s turn: its champions and units act, then it ends its turn",
            rule=R_ACTIONS,
        )
    ]
    for c in state.champions.values():
        if c.side != side or c.acted:
            continue
        units = [
            u.id
            for u in state.units.values()
            if _ok(state, {"type": "JoinUnit", "champion": c.id, "unit": u.id})
        ]
        out.append(
            Prompt(
                id=f"champion:{c.id}",
                role="side",
                side=side,
                subject=c.id,
                commands=("PassChampion", "JoinUnit") if units else ("PassChampion",),
                reason=f"{c.id} takes its one action before its units act",
                choices={"unit": units} if units else {},
                optional=True,
                pass_with="PassChampion",
                rule=R_CHAMPIONS,
            )
        )
        out.append(
            Prompt(
                id=f"champion-action:{c.id}",
                role="referee",
                subject=c.id,
                commands=("ResolveChampionAction",),
                reason=f"the referee may resolve another action of {c.id} (at discretion)",
                optional=True,
                rule=R_REFEREE,
            )
        )
    for u in state.units.values():
        if u.side != side:
            continue
        if u.on_field:
            out.extend(_unit_prompts(state, u))
        elif u.status == "reserve":
            free = _reserve_tiles(state, u)
            if free:
                out.append(
                    Prompt(
                        id=f"reserve:{u.id}",
                        role="side",
                        side=side,
                        subject=u.id,
                        commands=("PlaceReserve",),
                        reason=f"{u.id} may enter at a working reinforcement zone (to: x,y)",
                        choices={"to": free},
                        optional=True,
                        rule=R_ZONES,
                    )
                )
    return out


def _windows(state: State) -> list[Prompt]:
    """Retaliations and pursuits: any side may take them, whose turn it is or not."""
    out: list[Prompt] = []
    for u in state.units.values():
        if not u.on_field:
            continue
        if not u.retaliated and u.melee_attackers:
            targets = [
                t
                for t in u.melee_attackers
                if _ok(state, {"type": "Retaliate", "unit": u.id, "target": t})
            ]
            if targets:
                out.append(
                    Prompt(
                        id=f"retaliation:{u.id}",
                        role="side",
                        side=u.side,
                        subject=u.id,
                        commands=("Retaliate",),
                        reason=f"{u.id} may retaliate once this round on a melee attacker",
                        choices={"target": targets},
                        dice=_attack_dice(u.id, targets, "retaliation attack", "Retaliate"),
                        optional=True,
                        rule=R_RETALIATION,
                    )
                )
        chased = [
            p.shattered
            for p in state.pursuits
            if p.unit == u.id
            and _ok(state, {"type": "Pursue", "unit": u.id, "shattered": p.shattered})
        ]
        if chased:
            out.append(
                Prompt(
                    id=f"pursuit:{u.id}",
                    role="side",
                    side=u.side,
                    subject=u.id,
                    commands=("Pursue",),
                    reason=f"{u.id} may pursue a unit that shattered while engaged with it",
                    choices={"shattered": chased},
                    dice=_free_attack_dice(u, "Pursue"),
                    optional=True,
                    rule=R_PURSUIT,
                )
            )
    return out


def _referee_calls(state: State) -> list[Prompt]:
    """The referee's calls at any time: a forced morale check ([Morale] "Some unit
    abilities force checks"), and conditions given or taken with a reason (free-form: the
    referee names the unit and the condition)."""
    units = [u.id for u in state.units.values() if u.on_field]
    return [
        Prompt(
            id="referee:morale",
            role="referee",
            commands=("ForceMoraleCheck",),
            reason="the referee may force a unit's morale check",
            choices={"unit": units},
            dice=(DiceNeed(sides=20, purpose="morale check: <unit>"),),
            optional=True,
            rule=R_MORALE,
        ),
        Prompt(
            id="referee:conditions",
            role="referee",
            commands=("ApplyCondition", "RemoveCondition"),
            reason="the referee may apply or remove a unit's condition, with the reason",
            optional=True,
            rule=R_REFEREE,
        ),
    ]


def awaiting(state: State, actor: Actor) -> list[Prompt]:
    """The prompts now, the same for every actor (seed 003 hides nothing)."""
    if state.over:
        return []
    active = state.active
    out = [_round_prompt(state)] if active is None else _turn_prompts(state, active)
    out.extend(_windows(state))
    out.extend(_referee_calls(state))
    return out
