"""Who may give which command (authorize), who sees which event (audience), and the state
as an actor may see it (view) for seed 001.

Hidden squads (a hero's successful stealth check) are known to their own side and the
referee only: their hiding check and their moves are side-only events, and the view of
every other actor leaves them out until they are revealed (attack, scouting, round end).
"""

from __future__ import annotations

from typing import Any

from domain.actors import ALL, Actor, side_audience
from domain.errors import NotPermitted
from domain.rulesets.quickstart.combat import candidates
from domain.rulesets.quickstart.commands import (
    AdjustSquad,
    Attack,
    ChooseCasualty,
    ChoosePriority,
    Command,
    EndBattle,
    EndStep,
    FireEngine,
    MoveSquad,
    PressAttack,
    PriorityCheck,
    RepositionHero,
    Retreat,
    ReviveHero,
    SkipPriorityChecks,
    UseSkill,
)
from domain.rulesets.quickstart.decide import decide
from domain.rulesets.quickstart.events import (
    Event,
    HeroRepositioned,
    HeroRetreated,
    HeroRevived,
    SkillChecked,
    SquadAdjusted,
    SquadMoved,
)
from domain.rulesets.quickstart.knowledge import PROBE_DICE, hidden_from, seen_by
from domain.rulesets.quickstart.model import Squad, State

__all__ = ["audience", "authorize", "legal_steps", "pending", "view"]

_REFEREE_ONLY = (EndBattle, AdjustSquad, ReviveHero, SkipPriorityChecks)
# A tuple made once: `SquadMoved | SquadAdjusted` in `audience` built a union per event.
_SQUAD_PLACED = (SquadMoved, SquadAdjusted)
# ... and a hero joining a squad: side-only when that squad is hidden.
_HIDEABLE = (*_SQUAD_PLACED, HeroRetreated, HeroRepositioned, HeroRevived)
# The event types that may be side-only (events are never subclassed).
_MAYBE_SECRET = frozenset((SkillChecked, *_HIDEABLE))


def _deny(actor: Actor, what: str) -> NotPermitted:
    return NotPermitted(f"{actor.side or actor.role} may not {what}", side=actor.side)


def _own(actor: Actor, side: str | None, what: str) -> None:
    if side is not None and side != actor.side:
        raise _deny(actor, what)


def authorize(state: State, command: Command, actor: Actor) -> None:
    """The referee may give every command; a side only orders its own units and answers the
    decisions addressed to it. Unknown ids pass through (decide answers UnknownEntity).

    No answer to a side may depend on what it cannot see (Hero Units: stealth): when a
    squad is hidden from it, its command is judged here, in full, on the state as it knows
    it (`seen_by`): a hidden squad's id is unknown to it like any id, and decide's refusals
    are those of that view. decide then resolves the command on the whole state and never
    refuses what the view accepted."""
    if actor.is_referee:
        return
    if actor.role != "side" or actor.side is None:
        raise NotPermitted("only the referee and the sides give commands")
    if isinstance(command, _REFEREE_ONLY):
        raise _deny(actor, f"give {type(command).__name__} (referee only)")
    seen = seen_by(state, actor.side)
    _own_units(seen, command, actor)
    if seen is not state:
        decide(seen, command, PROBE_DICE)  # raises the view's refusal, if any


def _own_units(state: State, command: Command, actor: Actor) -> None:
    """A side orders its own units and answers the decisions addressed to it."""
    c = state.combat
    match command:
        case MoveSquad(squad=sid) | ChooseCasualty(squad=sid):
            q = state.squads.get(sid)
            if isinstance(command, ChooseCasualty):
                if c is not None and c.queue:
                    _own(actor, c.queue[0].victim_side, "choose the other side's casualty")
            elif q is not None:
                _own(actor, q.side, "order another side's squad")
        case Attack(squads=sids):
            for sid in sids:
                q = state.squads.get(sid)
                _own(actor, q.side if q else None, "order another side's squad")
        case FireEngine(engine=eid, squad=sid):
            g = state.engines.get(eid)
            q = state.squads.get(sid)
            _own(actor, g.side if g else None, "fire another side's engine")
            _own(actor, q.side if q else None, "order another side's squad")
        case PriorityCheck(hero=hid) | UseSkill(hero=hid) | RepositionHero(hero=hid):
            h = state.heroes.get(hid)
            _own(actor, h.side if h else None, "act for another side's hero")
        case PressAttack() | Retreat():
            _own(actor, c.attacker_side if c else None, "decide the other side's attack")
        case ChoosePriority():
            _own(actor, state.chooser, "choose priority now")
        case EndStep():
            _own(actor, state.active_side, "end another side's step")


def audience(event: Event) -> str:
    """Side-only: a hiding (stealth) check, what a hidden squad does and a hero joining a
    hidden squad; else everyone."""
    if type(event) not in _MAYBE_SECRET:
        return ALL  # most events: one set lookup instead of two isinstance checks
    if isinstance(event, SkillChecked):
        if event.effect == "hide":
            return side_audience(event.side)
    elif isinstance(event, _HIDEABLE) and event.hidden:
        return side_audience(event.side)
    return ALL


def pending(state: State) -> dict[str, Any] | None:
    """The decision the battle waits for, if it waits for a particular one."""
    c = state.combat
    if c is not None:
        if c.queue:
            return {
                "kind": "choose_casualty",
                "side": c.queue[0].victim_side,
                "candidates": candidates(state),
                "source": c.queue[0].source,
                "only": c.queue[0].only,  # who may take it: any, circle or undead squads
                "hits_waiting": len(c.queue),
            }
        if c.awaiting:
            return {"kind": "press_or_retreat", "side": c.attacker_side}
    if state.phase == "priority":
        if state.step == "choose":
            return {"kind": "choose_priority", "side": state.chooser}
        return {
            "kind": "priority_checks",
            "heroes": sorted(
                h.id
                for h in state.heroes.values()
                if h.status != "removed" and h.id not in state.checks
            ),
        }
    return None


def legal_steps(state: State) -> list[str]:
    """Hints: which commands fit now, as "<who>: <Command>"."""
    if state.phase == "over":
        return []
    p = pending(state)
    if p is not None:
        kind = p["kind"]
        if kind == "choose_casualty":
            return [f"{p['side']}: ChooseCasualty"]
        if kind == "press_or_retreat":
            return [f"{p['side']}: PressAttack", f"{p['side']}: Retreat"]
        if kind == "choose_priority":
            return [f"{p['side']}: ChoosePriority"]
        heroes = p["heroes"]
        if heroes:
            sides = sorted({state.heroes[h].side for h in heroes})
            return [f"{s}: PriorityCheck" for s in sides] + ["referee: SkipPriorityChecks"]
        return ["any: RollForPriority"]
    side = state.active_side
    if state.phase == "reposition":
        return [f"{side}: RepositionHero", f"{side}: EndStep"]
    if state.step == "move":
        return [f"{side}: MoveSquad", f"{side}: UseSkill", f"{side}: EndStep"]
    if state.step == "combat":
        return [f"{side}: Attack", f"{side}: FireEngine", f"{side}: UseSkill", f"{side}: EndStep"]
    return [f"{side}: MoveSquad", f"{side}: EndStep"]


def _squad_view(state: State, q: Squad, private: bool, hero: str | None) -> dict[str, Any]:
    d: dict[str, Any] = {
        "id": q.id,
        "side": q.side,
        "kind": q.kind,
        "level": q.level,
        "speed": state.options.speeds.get(q.kind, 6),
        "x": q.x,
        "y": q.y,
        "large": q.large,
        "undead": q.undead,
        "moves_used": q.moves_used,
        "standard_used": q.standard_used,
        "attacked": q.attacked,
        "skirmished": q.skirmished,
        "engines_fired": q.engines_fired,
        "wounds": q.wounds,
        "boosts": list(q.boosts),
        "heal_left": q.heal_left,
        "hero": hero,
    }
    if private:
        d["minor_used"] = q.minor_used
        d["hidden"] = q.hidden
    return d


def view(state: State, actor: Actor) -> dict[str, Any]:
    """The state as `actor` may see it: the referee sees everything; others do not see
    hidden enemy squads nor the minor actions of other sides (a stealth check is secret)."""
    own = actor.side if actor.role == "side" else None
    ref = actor.is_referee

    def private(side: str) -> bool:
        return ref or side == own

    unseen = set() if ref else hidden_from(state, own)
    hero_of: dict[str, str] = {}
    for h in state.heroes.values():
        if h.squad is not None and h.status == "active":
            hero_of.setdefault(h.squad, h.id)
    squads = [
        _squad_view(state, q, private(q.side), hero_of.get(q.id))
        for q in sorted(state.squads.values(), key=lambda q: q.id)
        if private(q.side) or not q.hidden
    ]
    heroes = []
    for h in sorted(state.heroes.values(), key=lambda h: h.id):
        d: dict[str, Any] = {
            "id": h.id,
            "side": h.side,
            # a squad hidden from the reader is named nowhere, not even as a hero's squad
            "squad": None if h.squad in unseen else h.squad,
            "watchtower": h.watchtower,
            "status": h.status,
            "surges": h.surges,
            "skills": dict(h.skills),
            "minor_lost": h.minor_lost,
            "repositioned": h.repositioned,
            "checked": h.id in state.checks,
        }
        if h.status == "trapped":
            d["x"], d["y"] = h.x, h.y
        if private(h.side):
            d["skill_used"] = h.skill_used
        heroes.append(d)
    c = state.combat
    return {
        "ruleset": "quickstart",
        "round": state.round,
        "phase": state.phase,
        "step": state.step,
        "order": list(state.order),
        "active_side": state.active_side,
        "priority_side": state.order[0] if state.order else None,
        "sides": list(state.sides),
        "checks": dict(state.checks),
        "pending": pending(state),
        "combat": None
        if c is None
        else {
            "attacker_side": c.attacker_side,
            "defender_side": c.defender_side,
            "attackers": [i for i in c.attackers if i in state.squads],
            "defenders": [i for i in c.defenders if i in state.squads],
            "exchanges": c.exchanges,
        },
        "width": state.width,
        "height": state.height,
        "squads": squads,
        "heroes": heroes,
        "engines": [
            {"id": g.id, "side": g.side, "level": g.level, "x": g.x, "y": g.y, "fired": g.fired}
            for g in sorted(state.engines.values(), key=lambda g: g.id)
        ],
        "barriers": [
            {"id": b.id, "side": b.side, "level": b.level, "x": b.x, "y": b.y}
            for b in sorted(state.barriers.values(), key=lambda b: b.id)
        ],
        "circles": [
            {"id": k.id, "side": k.side, "x": k.x, "y": k.y}
            for k in sorted(state.circles.values(), key=lambda k: k.id)
        ],
        "watchtower": None
        if state.watchtower is None
        else {
            "x": state.watchtower.x,
            "y": state.watchtower.y,
            "heroes": sorted(
                h.id for h in state.heroes.values() if h.watchtower and h.status == "active"
            ),
        },
        "over": state.phase == "over",
        "winner": state.winner,
        "end_reason": state.end_reason,
        "options": state.options,
        "legal": legal_steps(state),
    }
