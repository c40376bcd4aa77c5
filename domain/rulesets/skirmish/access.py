"""Who may give which command (authorize), who sees which event (audience), and the state
as an actor may see it (view) for seed 000.

A side's key orders only its own force and armies; the referee orders everything and alone
advances the setup and resolves phases. Secret tactics ("These decisions are not made
public") and declared actions are seen by the referee and their own side until revealed; a
tactic learned (Adjust Tactics) or noticed (Profession (soldier)) is seen by that side too.
"""

from __future__ import annotations

from typing import Any

from domain.actors import ALL, Actor, side_audience
from domain.errors import NotPermitted
from domain.rulesets.skirmish.army import commander_defenses
from domain.rulesets.skirmish.commands import (
    AdvanceSetup,
    Command,
    EndSkirmish,
    LoseCommander,
    ResolvePhase,
    StopOperating,
)
from domain.rulesets.skirmish.events import (
    ActionDeclared,
    Event,
    TacticChosen,
    TacticIssued,
    TacticLearned,
    TacticNoticed,
)
from domain.rulesets.skirmish.geometry import zone_rows
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.morale import standing_sides
from domain.rulesets.skirmish.resolution import (
    army_density,
    bardic_performance_radius,
    show,
    soldier_hp,
    teamwork_participants,
)

__all__ = ["audience", "authorize", "legal_steps", "view"]

_REFEREE_ONLY = (AdvanceSetup, ResolvePhase, LoseCommander, StopOperating, EndSkirmish)


def authorize(state: State, command: Command, actor: Actor) -> None:
    """The referee gives every command; a side gives orders to its own force and armies.
    Unknown ids pass through (decide answers UnknownEntity)."""
    if actor.is_referee:
        return
    if actor.role != "side" or actor.side is None:
        raise NotPermitted("only the referee and the sides give commands")
    if isinstance(command, _REFEREE_ONLY):
        raise NotPermitted(f"{type(command).__name__} is for the referee only", side=actor.side)
    side = getattr(command, "side", None)
    if side is not None and side != actor.side:
        raise NotPermitted(f"{actor.side} may not give orders for {side}", side=actor.side)
    army_id = getattr(command, "army", None)
    if isinstance(army_id, str) and side is None:
        a = state.armies.get(army_id)
        if a is not None and a.side != actor.side:
            raise NotPermitted(
                f"{actor.side} may not order {army_id}, an army of {a.side}", side=actor.side
            )
    by = getattr(command, "by", None)
    if isinstance(by, str):
        b = state.armies.get(by)
        if b is not None and b.side != actor.side:
            raise NotPermitted(f"{by} is not an army of {actor.side}", side=actor.side)


def audience(event: Event) -> str:
    """Secret tactics, learned/noticed tactics and declared actions: one side; else all."""
    if isinstance(event, TacticChosen | TacticIssued | TacticLearned):
        return side_audience(event.side)
    if isinstance(event, TacticNoticed):
        return side_audience(event.by_side)
    if isinstance(event, ActionDeclared):
        return side_audience(event.declaration.side)
    return ALL


def legal_steps(state: State) -> list[str]:
    """Hints: which commands fit now, as "<who>: <Command>"."""
    steps = {
        "leaders": ["side: AppointLeader"],
        "armies": ["side: RaiseArmy"],
        "boons": ["side: GrantBoon"],
        "surprise": ["side: CheckSurprise"],
        "initiative": ["side: RollInitiative"],
        "zones": ["side: SetZones"],
        "placement": ["side: PlaceArmy"],
        "strategies": ["side: DeclareStrategy"],
        "tactics": ["side: ChooseTactic"],
        "adjust": ["side: AdjustTactic"],
    }
    if state.phase == "over":
        return []
    if state.phase == "setup":
        return [*steps.get(state.step, []), "referee: AdvanceSetup"]
    phase = {
        "movement": [
            "side: ChangeStrategy",
            "side: IssueTactic",
            "side: MoveArmy",
            "side: TurnArmy",
            "side: ChargeArmy",
        ],
        "ranged": ["side: DeclareAction"],
        "melee": ["side: DeclareAction"],
        "other": ["side: DeclareAction"],
    }
    return [*phase.get(state.phase, []), "referee: ResolvePhase", "referee: EndSkirmish"]


def _declaring(state: State, a: Army) -> bool:
    """Whether `a`'s `acted` comes from a declaration still secret: declaring a ranged or
    melee action spends the standard action at once, and the declaration is seen by its
    side only until the phase is resolved ("Combat Phases"), so others must not learn it
    from the flag either."""
    return state.phase in ("ranged", "melee") and any(d.army == a.id for d in state.declared)


def _army_view(state: State, a: Army, actor: Actor) -> dict[str, Any]:
    o = state.options
    own = actor.is_referee or (actor.role == "side" and actor.side == a.side)
    knows = own or a.tactic_public or (actor.side is not None and actor.side in a.known_by)
    c = a.spec.commander
    n = a.numbers
    d: dict[str, Any] = {
        "id": a.id,
        "name": a.spec.name,
        "side": a.side,
        "alignment": a.spec.alignment,
        "army_type": a.army_type,
        "size": a.spec.size,
        "army_size": n.army_size,
        "max_army_size": n.maximum_army_size,
        "total_hp": n.total_army_hp,
        "temp_hp": n.temporary_hp,
        "original_total_hp": a.original_total_hp,
        "soldier_hp": show(soldier_hp(n)),
        "dying_operating": n.dying_operating,
        "morale": a.morale,
        "placed": a.placed,
        "x": a.x,
        "y": a.y,
        "facing": a.facing,
        "width": a.width,
        "depth": a.depth,
        "squares": a.squares,
        "formation": a.formation,
        "strategy": a.strategy,
        "tactic": a.tactic if knows else "secret",
        "tactic_public": a.tactic_public,
        "boons": list(a.boons),
        "ambush": a.ambush,
        "flat_footed": a.flat_footed,
        "routed": a.routed,
        "defeated": a.defeated,
        "destroyed": a.destroyed,
        "below_half": a.was_below_half,
        "disarmed": a.disarmed,
        "broken": dict(a.broken),
        "moves": a.moves,
        "acted": a.acted if own or not _declaring(state, a) else False,
        "commander": {
            "name": c.name,
            "lost": a.commander_lost,
            "command_range": a.command_range,
            **commander_defenses(a.spec, o),
        },
    }
    if c.bard:
        feet, squares, _ = bardic_performance_radius(c.cha_mod, o.resolution)
        d["bardic_radius"] = {"feet": feet, "squares": squares}
    if a.spec.teamwork_feats:
        density, _ = army_density(a.spec.size, o.resolution.density)
        participants, _allies, _ = teamwork_participants(density)
        d["teamwork"] = {"feats": list(a.spec.teamwork_feats), "participants": participants}
    if own:
        d["known_by"] = list(a.known_by)
    return d


def view(state: State, actor: Actor) -> dict[str, Any]:
    """The state as `actor` may see it: other sides' secret tactics and declarations hidden."""
    ref = actor.is_referee
    forces = []
    for f in state.forces.values():
        own = ref or actor.side == f.id
        forces.append(
            {
                "id": f.id,
                "home": f.home,
                "leader": None if f.leader is None else f.leader.name,
                "surprised": f.surprised,
                "initiative": f.initiative,
                "zones": None
                if f.zones is None
                else {
                    "melee_edge": f.zones.melee_edge,
                    "ranged_width": f.zones.ranged_width,
                    "camp_width": f.zones.camp_width,
                    "command_distance": f.zones.command_distance,
                    "command_size": f.zones.command_size,
                    # the same in squares, where the viewer draws them (public, as above)
                    "rows": zone_rows(f, state.board.height, state.options.square_feet),
                },
                "strategy": f.strategy,
                "adjust_allowance": f.adjust_allowance if own else None,
                "adjust_used": list(f.adjust_used) if own else None,
            }
        )
    declared = [
        {
            "army": d.army,
            "profile": d.profile.name,
            "target": d.target,
            "flanking": d.flanking,
        }
        for d in state.declared
        if ref or d.side == actor.side
    ]
    return {
        "ruleset": "skirmish",
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "initiative_order": list(state.initiative_order),
        "forces": forces,
        "armies": [
            _army_view(state, a, actor) for a in sorted(state.armies.values(), key=lambda a: a.id)
        ],
        "declared": declared,
        "provoked": [{"provoker": p.provoker, "attacker": p.attacker} for p in state.provoked],
        "standing": standing_sides(state),
        "over": state.phase == "over",
        "bloodied": list(state.bloodied),
        "still_routed": list(state.still_routed),
        "end_reason": state.end_reason,
        "width": state.board.width,
        "height": state.board.height,
        "options": state.options,
        "legal": legal_steps(state),
    }
