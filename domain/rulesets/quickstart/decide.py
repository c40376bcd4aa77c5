"""decide for seed 001: validate a command against the state and return its events.

Raises RuleViolation (citing the seed section) or UnknownEntity, nothing else. Every die
drawn is stored in the returned events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from domain.actors import side_audience
from domain.dice import Dice, dice_for
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.quickstart.combat import attack, choose_casualty, fire_engine, press, retreat
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
    RollForPriority,
    SkipPriorityChecks,
    UseSkill,
)
from domain.rulesets.quickstart.events import (
    BattleEnded,
    Event,
    HeroRepositioned,
    HeroRevived,
    PriorityChecked,
    PriorityDecided,
    SkillChecked,
    SquadAdjusted,
    SquadMoved,
    SquadRevealed,
)
from domain.rulesets.quickstart.grid import flood_to, path_cost, shortest_path
from domain.rulesets.quickstart.knowledge import hidden_at
from domain.rulesets.quickstart.model import Hero, Squad, State
from domain.rulesets.quickstart.rules import (
    R_ACTION,
    R_COMBAT,
    R_HEROES,
    R_PRIORITY,
    R_REFEREE,
    R_REPOSITION,
    R_TROOPS,
    R_WATCHTOWER,
    Run,
    advance_step,
    begin_turn,
    blocked,
    hero_count,
    resolve_priority,
)

__all__ = [
    "MoveAction",
    "adjustable",
    "decide",
    "decide_folded",
    "move_action",
    "usable_skills",
]

_COMBAT_COMMANDS = (ChooseCasualty, PressAttack, Retreat, EndBattle)


def _squad(state: State, sid: str) -> Squad:
    q = state.squads.get(sid)
    if q is None:
        raise UnknownEntity(f"no squad {sid!r} (or it was destroyed)", squad=sid)
    return q


def _hero(state: State, hid: str) -> Hero:
    h = state.heroes.get(hid)
    if h is None:
        raise UnknownEntity(f"no hero {hid!r}", hero=hid)
    return h


def _all_checked(state: State) -> bool:
    """Whether every hero still in the fight has made its priority check this round."""
    checks = state.checks
    # A loop: all() over a generator costs more for a few heroes.
    for h in state.heroes.values():  # noqa: SIM110
        if h.status != "removed" and h.id not in checks:
            return False
    return True


def _in_checks(state: State) -> None:
    if state.phase != "priority" or state.step != "checks":
        raise RuleViolation("not in the priority phase's checks", rule=R_PRIORITY)


def _priority_check(run: Run, cmd: PriorityCheck, dice: Dice) -> None:
    st = run.state
    h = _hero(st, cmd.hero)
    _in_checks(st)
    if h.status == "removed":
        raise RuleViolation(f"{h.id} is removed from the fight", rule=R_HEROES)
    if h.id in st.checks:
        raise RuleViolation(f"{h.id} has already checked this round", rule=R_PRIORITY)
    o = st.board.options  # not the read-through property: one call fewer per command
    if cmd.skill not in o.priority_skills:
        raise RuleViolation(f"priority checks use {', '.join(o.priority_skills)}", rule=R_PRIORITY)
    die = dice.roll(20, f"priority check of {h.id} ({cmd.skill})", subject=h.id)
    mod = h.skills.get(cmd.skill, 0)
    dc = o.priority_dc
    run.emit(
        PriorityChecked(
            hero=h.id,
            side=h.side,
            skill=cmd.skill,
            die=die,
            modifier=mod,
            total=die.value + mod,
            dc=dc,
            success=die.value + mod >= dc,
        )
    )
    if _all_checked(run.state):
        resolve_priority(run, dice)


def _roll_for_priority(run: Run, cmd: RollForPriority, dice: Dice) -> None:
    st = run.state
    _in_checks(st)
    if not _all_checked(st):
        raise RuleViolation("heroes still have to make their priority checks", rule=R_PRIORITY)
    resolve_priority(run, dice)


def _choose_priority(run: Run, cmd: ChoosePriority, dice: Dice) -> None:
    st = run.state
    if st.phase != "priority" or st.step != "choose" or st.chooser is None:
        raise RuleViolation("no side may choose priority now", rule=R_PRIORITY)
    if cmd.first not in st.sides:
        raise UnknownEntity(f"no side {cmd.first!r}", side=cmd.first)
    order = (cmd.first, *(s for s in st.sides if s != cmd.first))
    run.emit(PriorityDecided(order=order, method="chosen"))
    begin_turn(run)


def _acting(state: State, side: str) -> None:
    if state.phase != "action":
        raise RuleViolation("squads act in the action phase", rule=R_ACTION)
    if state.active_side != side:
        raise RuleViolation(
            f"it is {state.active_side}'s turn: sides act in priority order", rule=R_ACTION
        )


MoveAction = Literal["move", "standard", "skirmish"]


def move_action(st: State, q: Squad) -> MoveAction:
    """The action `q`'s next move would spend now, or the RuleViolation that says why it
    cannot move (shared with `reach`, so that both judge a move alike)."""
    if st.phase == "over":
        raise RuleViolation("the battle is over", rule=R_REFEREE)
    if st.combat is not None:
        raise RuleViolation(
            "a combat is being resolved: choose casualties, press or retreat first", rule=R_COMBAT
        )
    _acting(st, q.side)
    if st.step == "move":
        if q.moves_used == 0:
            return "move"
        if q.moves_used == 1 and not q.standard_used:
            return "standard"  # a standard action converted into a second move
        raise RuleViolation(
            f"{q.id} has no move left (move action and converted standard used)",
            rule=R_ACTION,
        )
    if st.step == "skirmish":
        if q.kind != "skirmisher":
            raise RuleViolation("only skirmishers move after combats", rule=R_TROOPS)
        if q.skirmished:
            raise RuleViolation(f"{q.id} has made its move after combats", rule=R_TROOPS)
        return "skirmish"
    raise RuleViolation("squads move before combats are resolved", rule=R_ACTION)


def _move(run: Run, cmd: MoveSquad, dice: Dice) -> None:
    st = run.state
    q = _squad(st, cmd.squad)
    action = move_action(st, q)
    board = st.board  # width, height and options, read once
    dest = (cmd.x, cmd.y)
    if not (0 <= cmd.x < board.width and 0 <= cmd.y < board.height):
        raise RuleViolation("the destination is off the battlefield", rule=R_ACTION)
    if dest == (q.x, q.y):
        raise RuleViolation(f"{q.id} is already there", rule=R_ACTION)
    # The move is judged on what the squad's side sees: a squad hidden from it is not in
    # the way until the move meets it (then `_meet`), never a refusal.
    unseen = hidden_at(st, q.side)
    occupied = blocked(st, q.side) if unseen else blocked(st)
    if dest in occupied:
        raise RuleViolation("the destination is occupied (squad, engine or barrier)", rule=R_ACTION)
    o = board.options
    speed = o.speeds.get(q.kind, 6)
    eight = o.adjacency == "eight"
    cost = path_cost((q.x, q.y), dest, occupied, board.width, board.height, eight, speed)
    if cost is None:
        raise RuleViolation(
            f"the destination is beyond {q.id}'s speed {speed} (or blocked)", rule=R_ACTION
        )
    if unseen:
        path = shortest_path((q.x, q.y), dest, occupied, board.width, board.height, eight, speed)
        assert path is not None and len(path) == cost
        for i, p in enumerate(path):
            if p in unseen:
                _meet(run, q, path[i - 1] if i else (q.x, q.y), i, action, unseen[p])
                return
    run.emit(
        SquadMoved(
            squad=q.id, side=q.side, x=cmd.x, y=cmd.y, action=action, cost=cost, hidden=q.hidden
        )
    )


def _meet(
    run: Run,
    q: Squad,
    stop: tuple[int, int],
    cost: int,
    action: Literal["move", "standard", "skirmish"],
    met: Squad,
) -> None:
    """Hero Units (stealth), ruling: a move whose path (a shortest one over the squares
    its side sees free) meets a squad hidden from that side stops on the square before it,
    having spent its move; the met squad is revealed, and so is the mover if it was hidden
    itself (the two squads now face each other)."""
    run.emit(
        SquadMoved(
            squad=q.id,
            side=q.side,
            x=stop[0],
            y=stop[1],
            action=action,
            cost=cost,
            hidden=q.hidden,
            met=met.id,
        )
    )
    if q.hidden:
        run.emit(
            SquadRevealed(squad=q.id, side=q.side, x=stop[0], y=stop[1], reason=f"met {met.id}")
        )
    run.emit(SquadRevealed(squad=met.id, side=met.side, x=met.x, y=met.y, reason=f"met by {q.id}"))


def usable_skills(st: State, h: Hero, names: Iterable[str]) -> list[str]:
    """The skills of `names` hero `h` may use now (a minor action: "Hero Units"): those
    whose `UseSkill` decide accepts, answered by the checks `_use_skill` makes before its
    die, without running it or raising a refusal for each name (awaiting asks it of every
    skill; tests/unit/quickstart/test_usable_skills.py holds it to decide's answers)."""
    if st.phase != "action" or st.combat is not None or st.active_side != h.side:
        return []
    if st.step not in ("move", "combat") or h.status != "active":
        return []
    o = st.board.options
    if h.watchtower:
        effects = o.watchtower_effects
        return [] if h.skill_used else [n for n in names if n in effects]
    q = st.squads.get(h.squad) if h.squad is not None else None
    if q is None or h.minor_lost or q.minor_used:
        return []
    effects = o.skill_effects
    caster = q.kind == "caster"
    return [n for n in names if n in effects and (caster or effects[n] != "arcana")]


def _use_skill(run: Run, cmd: UseSkill, dice: Dice) -> None:
    st = run.state
    o = st.board.options
    h = _hero(st, cmd.hero)
    _acting(st, h.side)
    if st.step not in ("move", "combat"):
        raise RuleViolation("minor actions are taken during the side's action", rule=R_ACTION)
    if h.status != "active":
        raise RuleViolation(f"{h.id} is {h.status}", rule=R_HEROES)
    squad: str | None
    if h.watchtower:
        effect = o.watchtower_effects.get(cmd.skill)
        if effect is None:
            raise RuleViolation(
                f"from the watchtower a hero may use {', '.join(sorted(o.watchtower_effects))}",
                rule=R_WATCHTOWER,
            )
        if h.skill_used:
            raise RuleViolation(f"{h.id} has used its skill this round", rule=R_WATCHTOWER)
        squad = None
    else:
        if h.squad is None or h.squad not in st.squads:
            raise RuleViolation(f"{h.id} is not attached to a squad", rule=R_HEROES)
        q = st.squads[h.squad]
        if h.minor_lost:
            raise RuleViolation(f"{h.id} lost its minor action this round", rule=R_HEROES)
        if q.minor_used:
            raise RuleViolation(f"{q.id} has used its minor action", rule=R_ACTION)
        found = o.skill_effects.get(cmd.skill)
        if found is None:
            raise RuleViolation(
                f"heroes augment squads with {', '.join(sorted(o.skill_effects))}", rule=R_HEROES
            )
        effect = found
        if effect == "arcana" and q.kind != "caster":
            raise RuleViolation("arcana extends a magical attack: a caster squad", rule=R_HEROES)
        squad = q.id
    # A hiding check is its side's secret (access.audience): its die comes from that
    # side's sub-seed, which another side revealing the dice never learns.
    own = dice_for(dice, side_audience(h.side)) if effect == "hide" else dice
    die = own.roll(20, f"{cmd.skill} check of {h.id}", subject=h.id)
    mod = h.skills.get(cmd.skill, 0)
    ok = die.value + mod >= o.skill_dc
    run.emit(
        SkillChecked(
            hero=h.id,
            side=h.side,
            squad=squad,
            skill=cmd.skill,
            effect=effect,
            die=die,
            modifier=mod,
            total=die.value + mod,
            dc=o.skill_dc,
            success=ok,
        )
    )
    if ok and effect == "scout":
        for e in sorted(st.squads.values(), key=lambda q: q.id):
            if e.side != h.side and e.hidden:
                run.emit(SquadRevealed(squad=e.id, side=e.side, x=e.x, y=e.y, reason="scouted"))


def _end_step(run: Run, cmd: EndStep, dice: Dice) -> None:
    st = run.state
    if st.phase not in ("action", "reposition"):
        raise RuleViolation("the priority phase ends with the priority checks", rule=R_PRIORITY)
    advance_step(run, dice)


def _reposition(run: Run, cmd: RepositionHero, dice: Dice) -> None:
    st = run.state
    h = _hero(st, cmd.hero)
    if st.phase != "reposition" or st.active_side != h.side:
        raise RuleViolation("heroes reposition in their side's reposition phase", rule=R_REPOSITION)
    if h.status != "active":
        raise RuleViolation(f"{h.id} is {h.status}", rule=R_REPOSITION)
    if h.repositioned:
        raise RuleViolation(f"{h.id} has repositioned this round", rule=R_REPOSITION)
    if (cmd.squad is None) == (not cmd.watchtower):
        raise RuleViolation("name either a squad or the watchtower", rule=R_REPOSITION)
    if h.watchtower:
        assert st.watchtower is not None
        start = (st.watchtower.x, st.watchtower.y)
    elif h.squad is not None and h.squad in st.squads:
        start = (st.squads[h.squad].x, st.squads[h.squad].y)
    else:
        raise RuleViolation(f"{h.id} has no position to move from", rule=R_REPOSITION)
    if cmd.squad is not None:
        q = _squad(st, cmd.squad)
        if q.side != h.side:
            raise RuleViolation("heroes join squads of their own side", rule=R_REPOSITION)
        if q.id == h.squad:
            raise RuleViolation(f"{h.id} is already with {q.id}", rule=R_REPOSITION)
        if hero_count(st, q.id) >= st.options.max_heroes_per_squad:
            raise RuleViolation(f"{q.id} already has a hero", rule=R_REPOSITION)
        dest = (q.x, q.y)
    else:
        if st.watchtower is None:
            raise UnknownEntity("this battlefield has no watchtower", rule=R_WATCHTOWER)
        if h.watchtower:
            raise RuleViolation(f"{h.id} is already in the watchtower", rule=R_WATCHTOWER)
        occupants = sum(1 for x in st.heroes.values() if x.watchtower and x.status == "active")
        if occupants >= st.options.watchtower_capacity:
            raise RuleViolation("the watchtower is occupied", rule=R_WATCHTOWER)
        dest = (st.watchtower.x, st.watchtower.y)
    reach = flood_to(
        start,
        blocked(st, h.side),  # what the hero's side sees: a hidden enemy does not stop it
        st.width,
        st.height,
        st.options.adjacency == "eight",
        (dest,),
    )
    if reach is None and start != dest:
        raise RuleViolation(f"{h.id} is surrounded or blocked in", rule=R_REPOSITION)
    run.emit(
        HeroRepositioned(
            hero=h.id,
            side=h.side,
            squad=cmd.squad,
            watchtower=cmd.watchtower,
            hidden=cmd.squad is not None and st.squads[cmd.squad].hidden,
        )
    )


def _revive(run: Run, cmd: ReviveHero, dice: Dice) -> None:
    st = run.state
    h = _hero(st, cmd.hero)
    q = _squad(st, cmd.squad)
    if h.status == "active":
        raise RuleViolation(f"{h.id} is not removed or trapped", rule=R_HEROES)
    if q.side != h.side or hero_count(st, q.id) >= st.options.max_heroes_per_squad:
        raise RuleViolation(f"{q.id} cannot take {h.id}", rule=R_HEROES)
    run.emit(
        HeroRevived(
            hero=h.id, squad=q.id, surges=st.options.revive_surges, side=h.side, hidden=q.hidden
        )
    )


def adjustable(st: State) -> bool:
    """Whether decide accepts an `AdjustSquad` that changes nothing (level, x and y left
    out) for a squad of `st`: whenever the battle goes on and no combat is being
    resolved, as `_adjust`'s checks then all pass (the squad's own level, at least 1, and
    its own square). The referee's awaiting asks this instead of running decide
    (tests/unit/quickstart/test_referee_prechecks.py holds it to decide's answers)."""
    return st.phase != "over" and st.combat is None


def _adjust(run: Run, cmd: AdjustSquad, dice: Dice) -> None:
    st = run.state
    q = _squad(st, cmd.squad)
    level = q.level if cmd.level is None else cmd.level
    x = q.x if cmd.x is None else cmd.x
    y = q.y if cmd.y is None else cmd.y
    if level < 1:
        raise RuleViolation("a squad's level is at least 1", rule=R_REFEREE)
    if not (0 <= x < st.width and 0 <= y < st.height):
        raise RuleViolation("off the battlefield", rule=R_REFEREE)
    if (x, y) != (q.x, q.y) and (x, y) in blocked(st):
        raise RuleViolation("that square is occupied", rule=R_REFEREE)
    run.emit(SquadAdjusted(squad=q.id, side=q.side, level=level, x=x, y=y, hidden=q.hidden))


def _end_battle(run: Run, cmd: EndBattle, dice: Dice) -> None:
    if cmd.winner is not None and cmd.winner not in run.state.sides:
        raise UnknownEntity(f"no side {cmd.winner!r}", side=cmd.winner)
    run.emit(BattleEnded(winner=cmd.winner, reason=cmd.reason))


def _skip_priority_checks(run: Run, cmd: SkipPriorityChecks, dice: Dice) -> None:
    _in_checks(run.state)
    resolve_priority(run, dice)


def _attack(run: Run, cmd: Attack, dice: Dice) -> None:
    if run.state.phase != "action":
        raise RuleViolation("attacks happen in the action phase", rule=R_ACTION)
    attack(run, cmd, dice)


def _fire_engine(run: Run, cmd: FireEngine, dice: Dice) -> None:
    if run.state.phase != "action":
        raise RuleViolation("engines fire in the action phase", rule=R_ACTION)
    fire_engine(run, cmd, dice)


def _press(run: Run, cmd: PressAttack, dice: Dice) -> None:
    press(run, dice)


def _retreat(run: Run, cmd: Retreat, dice: Dice) -> None:
    retreat(run)


# Each command's step, by its exact type: one lookup, where a match statement tested the
# command against each class in turn. Every step takes (run, command, dice).
_STEPS: dict[type[Any], Callable[[Run, Any, Dice], None]] = {
    PriorityCheck: _priority_check,
    SkipPriorityChecks: _skip_priority_checks,
    RollForPriority: _roll_for_priority,
    ChoosePriority: _choose_priority,
    MoveSquad: _move,
    UseSkill: _use_skill,
    EndStep: _end_step,
    Attack: _attack,
    FireEngine: _fire_engine,
    ChooseCasualty: choose_casualty,
    PressAttack: _press,
    Retreat: _retreat,
    RepositionHero: _reposition,
    ReviveHero: _revive,
    AdjustSquad: _adjust,
    EndBattle: _end_battle,
}


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events `command` produces in `state` (seed 001)."""
    return _run(state, command, dice).events


def decide_folded(state: State, command: Command, dice: Dice) -> tuple[list[Event], State]:
    """`decide`, and the state after its events (each step already folded them)."""
    run = _run(state, command, dice)
    return run.events, run.state


def _run(state: State, command: Command, dice: Dice) -> Run:
    if state.phase == "over":
        raise RuleViolation("the battle is over", rule=R_REFEREE)
    if state.combat is not None and not isinstance(command, _COMBAT_COMMANDS):
        raise RuleViolation(
            "a combat is being resolved: choose casualties, press or retreat first", rule=R_COMBAT
        )
    run = Run(state)
    _STEPS[type(command)](run, command, dice)
    return run
