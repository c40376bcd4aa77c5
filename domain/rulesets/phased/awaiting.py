"""What a phased battle waits for now, as prompts (domain.prompts), for seed 004.

The windows, as `now` (access.py) tells them: in the Starting Phase each side's
declarations (a prompt per combatant that may declare, its carry-overs to sustain or
cancel, its declarations to withdraw, a prompt per combatant, and its EndDeclarations,
which rolls initiative when it is the last), or the referee's initiative roll first
(`initiative_first`) or by hand (`auto_initiative` off); in the phases the action whose
turn it is, to its side (or to the referee who records it); any time, the pending saves
and checks of combat events (the referee's RuleCheck), a side's choice of a Slip's
effects (ChooseEffects), the combat events' narrative prompts to close, and the
referee's own calls.

Each command and choice listed is asked of decide itself (domain.probing). Hidden
information stays hidden: a secret declaration shapes only its own side's prompts (and the
referee's); another side reads none of them, so its awaiting is the same whatever that
side declared.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import msgspec

from domain.actors import Actor
from domain.probing import refusal
from domain.prompts import DiceNeed, Prompt
from domain.rulesets.phased.access import now
from domain.rulesets.phased.commands import Command
from domain.rulesets.phased.decide import decide
from domain.rulesets.phased.holds import holding
from domain.rulesets.phased.model import Action, Combatant, State, label
from domain.rulesets.phased.rules import (
    R_EVENTS,
    R_INITIATIVE,
    R_MULTI,
    R_PHASES,
    R_REFEREE,
    R_SPEED,
    R_STARTING,
    parse_dice,
)

__all__ = ["awaiting"]

_KINDS = ("attack", "spell", "move", "other")


def _ok(state: State, command: dict[str, Any]) -> bool:
    cmd: Command = msgspec.convert(command, Command)
    return refusal(decide, state, cmd) is None


def _initiative_dice(state: State) -> tuple[DiceNeed, ...]:
    """[Initiative] each side's d10; a tie re-rolls and draws combat events (unknown)."""
    first = tuple(
        DiceNeed(sides=10, purpose=f"initiative of {s}, round {state.round}", subject=s)
        for s in state.board.sides
    )
    tie = "for each tie: a d10 re-roll per tied side"
    return (*first, DiceNeed(sides=10, purpose="initiative re-roll of <side> (tied)", when=tie))


def _declare_prompt(state: State, c: Combatant) -> Prompt | None:
    """A combatant's declaration: the kinds, weapons and spells decide accepts for it now
    (its own side's secret actions count its budget, so only its side reads this)."""
    base = {"type": "DeclareAction", "combatant": c.id}
    weapons = [w for w in c.weapons if _ok(state, {**base, "kind": "attack", "weapon": w})]
    spells = [s for s in c.spells if _ok(state, {**base, "kind": "spell", "spell": s})]
    kinds = [k for k in ("move", "other") if _ok(state, {**base, "kind": k})]
    kinds = (["attack"] if weapons else []) + (["spell"] if spells else []) + kinds
    if not kinds:
        return None
    choices: dict[str, list[str]] = {"kind": kinds}
    if weapons:
        choices["weapon"] = weapons
    if spells:
        choices["spell"] = spells
    foes = [o.id for o in state.combatants.values() if o.side != c.side and not o.down]
    if foes:
        choices["target"] = foes
    return Prompt(
        id=f"declare:{c.id}",
        role="side",
        side=c.side,
        subject=c.id,
        commands=("DeclareAction",),
        reason=f"{c.id} may declare its action this round (an attack names a weapon, a "
        "spell its spell)",
        choices=choices,
        optional=True,
        rule=R_SPEED,
    )


def _own_actions(state: State, side: str) -> list[Prompt]:
    """Withdrawing a declaration, sustaining or cancelling a carry-over: the side's own."""
    out: list[Prompt] = []
    # only this round's open actions can be answered: the rest (a whole battle's) are
    # not asked of decide at all, which keeps awaiting's cost to the round's
    mine = sorted(
        (
            a
            for a in state.actions.values()
            if a.side == side
            and a.status == "declared"
            and (a.declared_round == state.round or (a.carried and not a.decided))
        ),
        key=lambda a: a.id,
    )
    # one prompt per combatant, its subject: a key limited to some combatants is told only
    # its own (service.battles.awaiting.for_units), as for its declarations
    withdraw: dict[str, list[str]] = {}
    for a in mine:
        if _ok(state, {"type": "WithdrawAction", "action": a.id}):
            withdraw.setdefault(a.combatant, []).append(a.id)
    for combatant, actions in withdraw.items():
        out.append(
            Prompt(
                id=f"withdraw:{combatant}",
                role="side",
                side=side,
                subject=combatant,
                commands=("WithdrawAction",),
                reason=f"{side} may take back {combatant}'s declaration before it ends its "
                "declarations",
                choices={"action": actions},
                optional=True,
                rule=R_STARTING,
            )
        )
    for a in mine:
        if _ok(state, {"type": "SustainAction", "action": a.id}):
            out.append(
                Prompt(
                    id=f"carry:{a.id}",
                    role="side",
                    side=side,
                    subject=a.combatant,
                    commands=("SustainAction", "CancelAction"),
                    reason=f"{a.id} carries over: sustain it or cancel it (unanswered: "
                    f"{state.options.carry_over_default})",
                    choices={"action": [a.id]},
                    optional=True,
                    rule=R_MULTI,
                )
            )
    return out


def _declaring(state: State) -> list[tuple[str | None, Prompt]]:
    o = state.options
    out: list[tuple[str | None, Prompt]] = []
    if o.initiative_first and not state.order:
        out.append((None, _roll_prompt(state, optional=False)))
        return out
    open_sides = [s for s in state.board.sides if s not in state.closed]
    last = len(open_sides) == 1 and o.auto_initiative and not o.initiative_first
    for side in open_sides:
        for c in state.combatants.values():
            p = _declare_prompt(state, c) if c.side == side else None
            if p is not None:
                out.append((side, p))
        out.extend((side, p) for p in _own_actions(state, side))
        dice = _initiative_dice(state) if last else ()
        out.append(
            (
                None,
                Prompt(
                    id=f"declarations:{side}",
                    role="side",
                    side=side,
                    commands=("EndDeclarations",),
                    reason=f"{side} declares, then ends its declarations"
                    + (": the last to do so rolls initiative" if last else ""),
                    dice=dice,
                    rule=R_STARTING,
                ),
            )
        )
    if not o.initiative_first:
        out.append((None, _roll_prompt(state, optional=o.auto_initiative)))
    return out


def _roll_prompt(state: State, optional: bool) -> Prompt:
    return Prompt(
        id=f"initiative:{state.round}",
        role="referee",
        commands=("RollInitiative",),
        reason="the referee rolls initiative"
        + (" (or the last side's EndDeclarations does)" if optional else ""),
        dice=_initiative_dice(state),
        optional=optional,
        rule=R_INITIATIVE,
    )


def _attack_dice(state: State, a: Action) -> tuple[DiceNeed, ...]:
    c = state.combatants[a.combatant]
    if a.weapon is None or a.target is None or a.weapon not in c.weapons:
        return ()
    count, sides, _ = parse_dice(c.weapons[a.weapon].damage)
    w, t = a.weapon, a.target
    return (
        DiceNeed(sides=20, purpose=f"attack of {c.id} with {w} on {t}", subject=c.id),
        DiceNeed(
            sides=sides,
            count=count,
            purpose=f"damage of {c.id}'s {w} on {t}",
            subject=c.id,
            when="if the attack hits",
        ),
    )


def _current(state: State) -> list[Prompt]:
    """The action whose turn it is, to whoever `now` says gives its command."""
    a = state.current
    if a is None:
        return []
    by = now(state)
    if "waiting" in by:
        return []  # held: the calls it waits for are prompts of their own
    phase = label(state.phase)
    if by["by"] == "referee":
        return [
            Prompt(
                id=f"action:{a.id}",
                role="referee",
                subject=a.combatant,
                commands=("RecordOutcome",),
                reason=f"{a.id} ({a.combatant}'s {a.kind}) acts in phase {phase}: the referee "
                "records its outcome",
                choices={"action": [a.id]},
                rule=R_PHASES,
            )
        ]
    dice = _attack_dice(state, a) if a.kind == "attack" else ()
    # [Initiative] a side's 1 delays its actions a phase, a 10 advances them
    moved = {1: ", a phase late: its side rolled a 1", -1: ", a phase early: its side rolled a 10"}
    return [
        Prompt(
            id=f"action:{a.id}",
            role="side",
            side=a.side,
            subject=a.combatant,
            commands=("ResolveAction", "CancelAction"),
            reason=f"{a.id} ({a.combatant}'s {a.kind}) acts in phase {phase}"
            + moved.get(a.shift, ""),
            choices={"action": [a.id]},
            dice=dice,
            rule=R_PHASES,
        )
    ]


def _calls(state: State) -> list[Prompt]:
    """Pending saves and checks (the referee's), choices (the side's), narrative prompts."""
    out: list[Prompt] = []
    # [Combat Events] the action due waits for a call about its combatant (holds.py)
    cur = state.current
    held = {p.id for p in holding(state, cur)} if cur is not None else set()
    results = ["success", "fail"] + (["glancing"] if state.options.glancing_band else [])
    for p in state.pending.values():
        c = state.combatants.get(p.combatant)
        if p.kind == "test":
            out.append(
                Prompt(
                    id=f"call:{p.id}",
                    role="referee",
                    subject=p.combatant,
                    commands=("RuleCheck",),
                    reason=f"{p.test} of {p.combatant}"
                    + (f" ({p.item})" if p.item else "")
                    + ": the setup has no value for it, the referee rules it"
                    + (f" ({cur.id} waits for it)" if cur is not None and p.id in held else ""),
                    choices={"check": [p.id], "result": results},
                    rule=R_EVENTS,
                )
            )
        else:
            out.append(
                Prompt(
                    id=f"call:{p.id}",
                    role="side",
                    side=c.side if c is not None else None,
                    subject=p.combatant,
                    commands=("ChooseEffects",),
                    reason=f"choose {p.count} of the effects for {p.combatant}: `effects` "
                    "lists each allowed pick as comma-separated 0-based indexes"
                    + (f" ({cur.id} waits for it)" if cur is not None and p.id in held else ""),
                    choices={
                        "choice": [p.id],
                        "effects": [
                            ",".join(map(str, pick))
                            for pick in combinations(range(len(p.effects)), p.count)
                        ],
                    },
                    rule=R_EVENTS,
                )
            )
    for q in state.prompts.values():
        out.append(
            Prompt(
                id=f"narrative:{q.id}",
                role="referee",
                commands=("ClosePrompt",),
                reason=q.text,
                choices={"prompt": [q.id]},
                optional=True,
                rule=R_EVENTS,
            )
        )
    out.append(
        Prompt(
            id="referee",
            role="referee",
            commands=("AdjustCombatant", "SetEngagement", "EndBattle"),
            reason="the referee may adjust a combatant, set an engagement or end the battle "
            "(winner: a side, or none)",
            choices={"winner": list(state.board.sides)},
            optional=True,
            rule=R_REFEREE,
        )
    )
    return out


def awaiting(state: State, actor: Actor) -> list[Prompt]:
    """The prompts now in `actor`'s view: the referee reads all; a side its own and the
    public ones (another side's declarations are its secret)."""
    if state.stage == "over":
        return []
    scoped: list[tuple[str | None, Prompt]] = []
    if state.stage == "declare":
        scoped += _declaring(state)
    else:
        scoped += [(None, p) for p in _current(state)]
    scoped += [(None, p) for p in _calls(state)]
    if actor.is_referee:
        return [p for _, p in scoped]
    side = actor.side if actor.role == "side" else None
    return [p for owner, p in scoped if owner is None or owner == side]
