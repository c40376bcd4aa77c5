"""What a skirmish (seed 000) waits for now, as prompts in an actor's view (domain.prompts).

Setup steps: `awaiting_setup`. In a round ("Phases vs. Rounds") every army acts at once
within a phase, and the referee resolves the phase (ResolvePhase: the declared actions,
then in the opportunity phase the attacks movement provoked, in the routing phase the
Morale checks, routing and flight): the movement phase prompts each army's orders (move,
turn, charge, issue a tactic; "Movement & Tactics", "Movement & Distance") and each
force's strategy change; the ranged, melee and other phases each army's declared action
per attack profile, with the targets decide accepts. The referee's optional calls: end
the skirmish, dying soldiers that stop operating.

Every choice listed is one authorize and decide accept for the asking actor (probed,
domain.probing). Hidden information (secret tactics, declared actions) stays hidden: a
side is prompted for its own armies only, and another side's window is one coarse
prompt without choices; the referee's ResolvePhase is listed to a side without its dice
(they depend on what was declared).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec.structs import replace

from domain.actors import Actor
from domain.probing import Asker
from domain.prompts import Prompt
from domain.rulesets.skirmish.access import authorize
from domain.rulesets.skirmish.awaiting_setup import setup_prompts
from domain.rulesets.skirmish.charge import may_charge
from domain.rulesets.skirmish.commands import (
    ChangeStrategy,
    ChargeArmy,
    Command,
    DeclareAction,
    EndSkirmish,
    IssueTactic,
    LoseCommander,
    ResolvePhase,
    RevealTactic,
    StopOperating,
    TurnArmy,
)
from domain.rulesets.skirmish.decide import decide
from domain.rulesets.skirmish.geometry import FACINGS, direction_class, move_allowance, move_feet
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.moves import gap_feet
from domain.rulesets.skirmish.options import STRATEGIES
from domain.rulesets.skirmish.orders import may_issue
from domain.rulesets.skirmish.reach import can_move
from domain.rulesets.skirmish.rules import (
    R_ACTIONS,
    R_CHARGE,
    R_COMMANDER,
    R_END,
    R_MANEUVERS,
    R_MOVE_TACTICS,
    R_MOVEMENT,
    R_PHASES,
    R_STRATEGY_CHANGE,
    R_TACTICS,
)
from domain.rulesets.skirmish.turning import may_pivot, may_turn

__all__ = ["awaiting"]

_DECLARING = ("ranged", "melee", "other")
_ORDERS = ("MoveArmy", "TurnArmy", "ChargeArmy", "IssueTactic", "ChangeStrategy")
_PHASE_REASONS = {
    "movement": "the movement phase: the armies' orders, then the referee resolves it",
    "ranged": "the ranged phase: the declared ranged attacks resolve together",
    "melee": "the melee phase: the declared melee attacks (and charges) resolve together",
    "other": "the other phase: the declared other actions resolve together",
    "opportunity": "the opportunity phase: the attacks of opportunity movement provoked",
    "routing": "the routing phase: Morale checks, routing and flight toward the camp zone",
}


def _acting(s: State, side: str) -> list[Army]:
    return sorted(
        (x for x in s.armies.values() if x.side == side and x.placed and x.fighting),
        key=lambda x: x.id,
    )


def _orders(a: Asker, s: State, x: Army) -> list[Prompt]:
    """An army's movement-phase orders."""
    out: list[Prompt] = []
    base = Prompt(
        id=f"move:{x.id}",
        role="side",
        side=x.side,
        subject=x.id,
        commands=("MoveArmy",),
        reason=f"{x.id} may move in a straight line (the squares: its reach)",
        choices={"army": [x.id]},
        optional=True,
        rule=R_MOVEMENT,
    )
    if can_move(s, a.actor, x.id):
        out.append(base)
    # The checks every turn, charge and tactic of the army shares are asked once (decide's
    # own, factored out of it): when they refuse, no command of that kind is probed.
    pivots: tuple[Literal["left", "right"] | None, ...] = ()
    if may_turn(s, x.id):
        pivots = (None, "left", "right") if may_pivot(s, x.id) else (None,)
    for pivot in pivots:
        turns = [TurnArmy(army=x.id, facing=f, pivot=pivot) for f in FACINGS]
        facings: list[str] = [c.facing for c in turns if a.ok(c)]
        if facings:
            how = "a new front face" if pivot is None else f"rotating on its {pivot} front corner"
            choices: dict[str, list[str]] = {"army": [x.id], "facing": facings}
            if pivot is not None:
                choices["pivot"] = [pivot]
            pid = f"turn:{x.id}" + (f":{pivot}" if pivot else "")
            out.append(
                replace(
                    base,
                    id=pid,
                    commands=("TurnArmy",),
                    reason=f"{x.id} may turn: {how}",
                    choices=choices,
                )
            )
    out += _charges(a, s, x, base)
    names = sorted(s.options.tactics) if may_issue(s, x.id) else []
    cmds: list[Command] = [IssueTactic(army=x.id, tactic=t) for t in names]
    ok = [c for c in cmds if a.ok(c)]
    if ok:
        tactics = [c.tactic for c in ok if isinstance(c, IssueTactic)]
        out.append(
            replace(
                base,
                id=f"tactic:{x.id}",
                commands=("IssueTactic",),
                reason=f"{x.id}'s commander may issue a tactic (a Morale check)",
                choices={"army": [x.id], "tactic": tactics},
                dice=a.dice(ok),
                rule=R_MOVE_TACTICS,
            )
        )
    return out


def _charges(a: Asker, s: State, x: Army, base: Prompt) -> list[Prompt]:
    """A charge at each enemy army in charging distance, to the first square (nearest)
    from which decide accepts it: choices "x" and "y" as decimal strings."""
    o = s.options
    sf = o.square_feet
    most = move_allowance(x.spec.speed * o.charge_speed_multiplier, (1, 1), sf)
    profiles = [p.name for p in x.spec.attacks if p.kind in ("melee", "maneuver")]
    radius = most // sf
    spots: list[tuple[int, int, int]] | None = None  # worked out for the first charge asked
    out = []
    for t in sorted(s.armies.values(), key=lambda t: t.id):
        if t.side == x.side or not t.placed or not t.fighting or gap_feet(x, t, sf) > most:
            continue
        for name in profiles:
            if not may_charge(s, x.id, t.id, name):
                continue  # refused wherever the charge ends
            if spots is None:
                spots = sorted(
                    (move_feet(dx, dy, sf), x.x + dx, x.y + dy)
                    for dx in range(-radius, radius + 1)
                    for dy in range(-radius, radius + 1)
                    if direction_class(x.facing, dx, dy) == "forward"
                    and move_feet(dx, dy, sf) <= most
                )
            for _, cx, cy in spots:
                c = ChargeArmy(army=x.id, target=t.id, profile=name, x=cx, y=cy)
                if a.ok(c):
                    choices = {"army": [x.id], "target": [t.id], "profile": [name]}
                    choices.update(x=[str(cx)], y=[str(cy)])
                    out.append(
                        replace(
                            base,
                            id=f"charge:{x.id}:{t.id}:{name}",
                            commands=("ChargeArmy",),
                            reason=f"{x.id} may charge {t.id} with {name} (a full-round action)",
                            choices=choices,
                            rule=R_CHARGE,
                        )
                    )
                    break
    return out


# A maneuver's extra fields and the values a table may give them (seed 000 "Combat
# Maneuvers"): sunder names the equipment it breaks; bull rush, drag and reposition may
# move the target army (reposition toward a named facing).
_EQUIPMENT = ("weapon", "shield", "armor")
_MOVERS = ("bull_rush", "drag", "reposition")
_TARGET_CAP = 6  # the targets a maneuver's extra-field prompt lists at most


# (prompt id suffix, fixed extra fields, the field a table chooses, its values)
_Way = tuple[str, dict[str, Any], str | None, tuple[str, ...]]


def _ways(maneuver: str | None) -> list[_Way]:
    """The ways to declare a profile: plain, and with a maneuver's extra fields."""
    if maneuver == "sunder":
        return [("", {}, "equipment", _EQUIPMENT)]
    moving: dict[str, Any] = {"move_target": True}
    if maneuver == "reposition":
        return [("", {}, None, ()), (":move", moving, "move_direction", FACINGS)]
    if maneuver in _MOVERS:
        return [("", {}, None, ()), (":move", moving, None, ())]
    return [("", {}, None, ())]


def _declarations(a: Asker, s: State, x: Army) -> list[Prompt]:
    """An army's action to declare this phase, one prompt per attack profile, and one
    more per maneuver that may move its target (bull rush, drag, reposition). A field a
    maneuver needs (the equipment a sunder breaks, where a reposition moves the army) is
    listed with the values decide accepts for every target listed."""
    out = []
    targets = sorted(s.armies)
    for p in x.spec.attacks:
        for suffix, fixed, field, values in _ways(p.maneuver):
            ok = targets
            picked: list[str] = []
            for v in values or (None,):
                extra = fixed if field is None else {**fixed, field: v}
                cmds = [DeclareAction(army=x.id, profile=p.name, target=t, **extra) for t in ok]
                accepted = [c.target for c in cmds if a.ok(c)]
                if accepted:  # a value no target accepts is not listed; the rest narrow
                    ok = accepted
                    if v is not None:
                        picked.append(v)
            if (not picked and field is not None) or ok is targets:
                continue
            choices = {"army": [x.id], "profile": [p.name], "target": ok}
            reason = f"{x.id} may declare {p.name} ({p.kind}) against an army"
            if fixed:
                choices["move_target"] = ["true"]
                reason += " and move it (`move_target`: a boolean, send true)"
            if field is not None:
                choices[field] = picked
            if len(ok) > _TARGET_CAP:
                reason += f" (the first {_TARGET_CAP} targets listed)"
                choices["target"] = ok[:_TARGET_CAP]
            out.append(
                Prompt(
                    id=f"declare:{x.id}:{p.name}{suffix}",
                    role="side",
                    side=x.side,
                    subject=x.id,
                    commands=("DeclareAction",),
                    reason=reason,
                    choices=choices,
                    optional=True,
                    rule=R_MANEUVERS if fixed or field else R_ACTIONS,
                )
            )
    return out


def _side_prompts(a: Asker, s: State, side: str) -> list[Prompt]:
    out: list[Prompt] = []
    armies = _acting(s, side)
    if s.phase == "movement":
        for x in armies:
            out += _orders(a, s, x)
        cmds = [ChangeStrategy(side=side, strategy=t) for t in STRATEGIES]
        ok = [c for c in cmds if a.ok(c)]
        if ok:
            out.append(
                Prompt(
                    id=f"strategy:{side}",
                    role="side",
                    side=side,
                    commands=("ChangeStrategy",),
                    reason=f"{side} may change its strategy",
                    choices={"side": [side], "strategy": [c.strategy for c in ok]},
                    dice=a.dice(ok),
                    optional=True,
                    rule=R_STRATEGY_CHANGE,
                )
            )
    elif s.phase in _DECLARING:
        for x in armies:
            out += _declarations(a, s, x)
    for x in armies:
        if not x.tactic_public and a.ok(RevealTactic(army=x.id)):
            out.append(
                Prompt(
                    id=f"reveal:{x.id}",
                    role="side",
                    side=side,
                    subject=x.id,
                    commands=("RevealTactic",),
                    reason=f"{x.id} may make its tactic public",
                    choices={"army": [x.id]},
                    optional=True,
                    rule=R_TACTICS,
                )
            )
    return out


def _round(a: Asker, s: State) -> list[Prompt]:
    out: list[Prompt] = []
    acts = s.phase == "movement" or s.phase in _DECLARING
    for side in s.forces:
        if not acts or not _acting(s, side):
            continue
        if a.answers(side):
            out += _side_prompts(a, s, side)
        else:
            kinds = ("DeclareAction",) if s.phase in _DECLARING else _ORDERS
            out.append(
                Prompt(
                    id=f"{s.phase}:{side}",
                    role="side",
                    side=side,
                    commands=kinds,
                    reason=f"{side}'s armies act in {_PHASE_REASONS[s.phase]}",
                    optional=True,
                    rule=R_PHASES,
                )
            )
    resolve = Prompt(
        id=f"resolve:{s.round}:{s.phase}",
        role="referee",
        commands=("ResolvePhase",),
        reason=f"the referee resolves {_PHASE_REASONS.get(s.phase, s.phase)}",
        rule=R_PHASES,
    )
    if not a.actor.is_referee:
        return [*out, resolve]
    if a.ok(ResolvePhase()):
        out.append(replace(resolve, dice=a.dice([ResolvePhase()])))
    return out


def _referee(a: Asker, s: State) -> list[Prompt]:
    out = []
    for x in sorted(s.armies.values(), key=lambda x: x.id):
        if x.numbers.dying_operating and a.ok(StopOperating(army=x.id)):
            out.append(
                Prompt(
                    id=f"stop-operating:{x.id}",
                    role="referee",
                    subject=x.id,
                    commands=("StopOperating",),
                    reason=f"{x.id}'s dying soldiers kept fighting: the referee may stop them",
                    choices={"army": [x.id]},
                    optional=True,
                    rule=R_END,
                )
            )
    # decide refuses LoseCommander only for an army whose commander is lost already
    # ("000 Roles / The Commander"): one probe stands for the others, keeping awaiting fast.
    lose = [x for x in sorted(s.armies) if not s.armies[x].commander_lost]
    if lose and a.ok(LoseCommander(army=lose[0])):
        out.append(
            Prompt(
                id="lose-commander",
                role="referee",
                commands=("LoseCommander",),
                reason="the referee may rule an army's commander lost (slain, captured, fled):"
                " `reason` is free text, 'slain' if left out",
                choices={"army": lose},
                optional=True,
                rule=R_COMMANDER,
            )
        )
    if a.ok(EndSkirmish()):
        out.append(
            Prompt(
                id="end-skirmish",
                role="referee",
                commands=("EndSkirmish",),
                reason="the referee may end the skirmish",
                optional=True,
                rule=R_END,
            )
        )
    return out


def awaiting(state: State, actor: Actor) -> list[Prompt]:
    """What the skirmish waits for now, in `actor`'s view; [] once it is over."""
    if state.phase == "over":
        return []
    a = Asker(state, actor, authorize, decide)
    out = setup_prompts(a, state) if state.phase == "setup" else _round(a, state)
    if actor.is_referee:
        out += _referee(a, state)
    return out
