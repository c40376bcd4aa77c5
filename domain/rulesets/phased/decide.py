"""decide for seed 004: validate a command against the state and return its events.

Raises RuleViolation (citing the seed section) or UnknownEntity, nothing else. Every die
drawn is stored in the returned events. A refusal never depends on another side's secret
declarations: only the command's own combatant's actions and public state are consulted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.dice import Dice
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.phased.commands import (
    AdjustCombatant,
    CancelAction,
    ChooseEffects,
    ClosePrompt,
    Command,
    DeclareAction,
    EndBattle,
    EndDeclarations,
    RecordOutcome,
    ResolveAction,
    RollInitiative,
    RuleCheck,
    SetEngagement,
    SustainAction,
    WithdrawAction,
)
from domain.rulesets.phased.events import (
    ActionCancelled,
    ActionDeclared,
    ActionSustained,
    ActionWithdrawn,
    BattleEnded,
    CheckRuled,
    CombatantAdjusted,
    DeclarationsClosed,
    EffectsChosen,
    EngagementSet,
    Event,
    PhasesBegan,
    PromptClosed,
)
from domain.rulesets.phased.holds import describe, holding, holding_declaration
from domain.rulesets.phased.initiative import roll_initiative
from domain.rulesets.phased.model import FINAL, Action, Combatant, State, index_of, label
from domain.rulesets.phased.outcomes import Outcome
from domain.rulesets.phased.phases import advance, start_phases
from domain.rulesets.phased.resolution import record_outcome, resolve_roll
from domain.rulesets.phased.rules import (
    R_EVENTS,
    R_INITIATIVE,
    R_MULTI,
    R_PHASES,
    R_REFEREE,
    R_SPEED,
    R_STARTING,
    Run,
    weapon_rank,
)

__all__ = ["decide", "decide_folded", "find_action", "no_action"]


def no_action(aid: str) -> UnknownEntity:
    """The one answer for an action that does not exist or is another side's secret."""
    return UnknownEntity(f"no action {aid!r}", action=aid)


def find_action(state: State, aid: str) -> Action:
    a = state.actions.get(aid)
    if a is None:
        raise no_action(aid)
    return a


def _combatant(state: State, cid: str) -> Combatant:
    c = state.combatants.get(cid)
    if c is None:
        raise UnknownEntity(f"no combatant {cid!r}", combatant=cid)
    return c


def _in_starting(state: State) -> None:
    if state.stage != "declare":
        raise RuleViolation("actions are declared in the Starting Phase", rule=R_STARTING)


def _rolled_first(state: State) -> bool:
    """Under `initiative_first`, whether this round's initiative is rolled (the order is
    known: it is reset when a round starts)."""
    return bool(state.order)


def _after_initiative(state: State) -> None:
    """Option `initiative_first` ("At the start of each combat round, each side makes an
    Initiative Roll"): the sides declare once the order is known."""
    if state.options.initiative_first and not _rolled_first(state):
        raise RuleViolation(
            "initiative is rolled first this round (initiative_first): the referee rolls "
            "it (RollInitiative), then the sides declare",
            rule=R_INITIATIVE,
        )


def _waits(what: str, calls: list[Any]) -> RuleViolation:
    """A pending call of a combat event holds what depends on it (seed 004 Combat Events:
    "Disarmed unless they make a successful Save")."""
    return RuleViolation(
        f"{what} waits for {', '.join(describe(p) for p in calls)}: settle it first",
        rule=R_EVENTS,
    )


def _earliest(state: State, c: Combatant, cmd: DeclareAction) -> tuple[int, int, int]:
    """(earliest rank, extra phases, extra rounds) of a declaration (Speed Rank and
    Actions; spells: Starting Phase and Actions Before Base Speed)."""
    if cmd.kind == "attack":
        if cmd.weapon is None:
            raise RuleViolation("an attack names its weapon", rule=R_SPEED)
        w = c.weapons.get(cmd.weapon)
        if w is None:
            raise UnknownEntity(f"{c.id} has no weapon {cmd.weapon!r}", weapon=cmd.weapon)
        it = c.items[w.id]
        if it.dropped or not it.held or it.stuck:
            raise RuleViolation(f"{c.id}'s {w.id} is not in hand", rule=R_EVENTS)
        return weapon_rank(state.options, c, w.speed), 0, 0
    if cmd.kind == "spell":
        if cmd.spell is None:
            raise RuleViolation("a spell action names its spell", rule=R_STARTING)
        s = c.spells.get(cmd.spell)
        if s is None:
            raise UnknownEntity(f"{c.id} has no spell {cmd.spell!r}", spell=cmd.spell)
        # Spell Speed is added to Fast (0); none finishes before Fast unless it says so
        rank = max(-3, min(5, s.speed))
        return (rank if s.before_fast else max(rank, 0)), s.casting_phases, s.casting_rounds
    return c.base_rank, 0, 0


def _occupies(a: Action, round_: int) -> bool:
    if a.status == "cancelled":
        return False
    if a.carried:
        return a.due_round >= round_
    return a.declared_round == round_


def _span(a: Action, round_: int) -> tuple[int, int]:
    if a.carried:
        return (0, a.due if a.due_round == round_ else FINAL)
    return (a.start, a.due)


def _declare(run: Run, cmd: DeclareAction, dice: Dice) -> None:
    st = run.state
    c = _combatant(st, cmd.combatant)
    _in_starting(st)
    _after_initiative(st)
    if c.side in st.closed:
        raise RuleViolation(f"{c.side} has ended its declarations", rule=R_STARTING)
    calls = holding_declaration(st, c.id, cmd.kind, cmd.weapon)
    if calls:
        raise _waits(f"a declaration of {c.id}", calls)
    if c.down:  # hit points are the assumed game's, not the text's
        raise RuleViolation(f"{c.id} cannot act (out)", rule=R_REFEREE)
    if c.has("stunned"):  # Mount or Vehicle Trouble: "Stunned for 1d6 rounds"
        raise RuleViolation(f"{c.id} cannot act (stunned)", rule=R_EVENTS)
    if cmd.target is not None and cmd.target not in st.combatants:
        raise UnknownEntity(f"no combatant {cmd.target!r}", combatant=cmd.target)
    earliest, extra_phases, extra_rounds = _earliest(st, c, cmd)
    rank = earliest if cmd.rank is None else cmd.rank
    if rank < earliest:
        raise RuleViolation(
            f"{c.id} may not act before phase {earliest} (Base Speed {c.base_rank}"
            + (", Weapon Speed" if cmd.kind == "attack" else "")
            + ")",
            rule=R_SPEED,
        )
    budget = cmd.budget or ("move" if cmd.kind == "move" else "action")
    o = st.options
    limit = o.moves_per_round if budget == "move" else o.actions_per_round
    mine = [a for a in st.actions.values() if a.combatant == c.id and _occupies(a, st.round)]
    if sum(1 for a in mine if a.budget == budget) >= limit:
        raise RuleViolation(
            f"{c.id} has no {budget} to spare this round ({limit} a round)", rule=R_SPEED
        )
    start = index_of(rank)
    phases = cmd.phases + extra_phases
    due = start + phases
    # initiative_first: the 1's delay or the 10's advance applies as it is declared (the
    # default flow applies it when initiative is rolled, evolve._initiative)
    shift = st.shifts.get(c.side, 0) if o.initiative_first and extra_rounds == 0 else 0
    if shift:
        floor = 0 if o.ten_lifts_to_starting else 1
        start, due = max(start + shift, floor), max(due + shift, floor)
    if o.multi_phase_exclusive:
        for a in mine:
            lo, hi = _span(a, st.round)
            if (hi > lo or due > start) and lo <= due and start <= hi:
                raise RuleViolation(
                    f"{c.id} is busy with {a.id} from phase {label(lo)} to {label(hi)}",
                    rule=R_MULTI,
                )
    seq = st.side_seq.get(c.side, 0) + 1
    secret = o.declarations == "secret"
    action = Action(
        id=f"{c.side}.{seq}",
        side=c.side,
        combatant=c.id,
        kind=cmd.kind,
        budget=budget,
        declared_round=st.round,
        earliest=index_of(earliest),
        start=start,
        due=due,
        due_round=st.round + extra_rounds,
        phases=phases,
        weapon=cmd.weapon if cmd.kind == "attack" else None,
        spell=cmd.spell if cmd.kind == "spell" else None,
        target=cmd.target,
        note=cmd.note,
        revealed=not secret,
        shift=shift,
    )
    run.emit(ActionDeclared(action=action, hidden_side=c.side if secret else None))


def _withdraw(run: Run, cmd: WithdrawAction, dice: Dice) -> None:
    st = run.state
    a = find_action(st, cmd.action)
    _in_starting(st)
    if a.carried or a.declared_round != st.round or a.status != "declared":
        raise RuleViolation(f"{a.id} was not declared this round", rule=R_STARTING)
    if a.side in st.closed:
        raise RuleViolation(f"{a.side} has ended its declarations", rule=R_STARTING)
    run.emit(ActionWithdrawn(action=a.id, side=a.side, hidden_side=None if a.revealed else a.side))


def _sustain(run: Run, cmd: SustainAction, dice: Dice) -> None:
    st = run.state
    a = find_action(st, cmd.action)
    _in_starting(st)
    if not a.carried or a.decided or a.status != "declared":
        raise RuleViolation(f"{a.id} is no carried-over action to sustain", rule=R_MULTI)
    run.emit(ActionSustained(action=a.id, side=a.side, hidden_side=None if a.revealed else a.side))


def _cancel_event(st: State, a: Action, reason: str) -> ActionCancelled:
    return ActionCancelled(
        action=a.id,
        side=a.side,
        round=st.round,
        phase=label(st.phase),
        reason=reason,
        hidden_side=None if a.revealed else a.side,
    )


def _cancel(run: Run, cmd: CancelAction, dice: Dice) -> None:
    st = run.state
    a = find_action(st, cmd.action)
    if a.status != "declared":
        raise RuleViolation(f"{a.id} is already {a.status}", rule=R_MULTI)
    run.emit(_cancel_event(st, a, cmd.reason or "cancelled"))
    if run.state.stage == "phases":
        advance(run)


def _close(run: Run, side: str, by: str) -> None:
    """Close a side's declarations; carry-overs it did not decide take the default."""
    st = run.state
    sustain = st.options.carry_over_default == "sustain"
    for a in sorted(st.actions.values(), key=lambda a: a.id):
        if a.side == side and a.carried and not a.decided and a.status == "declared":
            if sustain:
                hidden = None if a.revealed else a.side
                run.emit(
                    ActionSustained(action=a.id, side=side, by_default=True, hidden_side=hidden)
                )
            else:
                run.emit(_cancel_event(st, a, "not sustained (carry_over_default)"))
    run.emit(DeclarationsClosed(side=side, by="side" if by == "side" else "referee"))


def _end_declarations(run: Run, cmd: EndDeclarations, dice: Dice) -> None:
    st = run.state
    if cmd.side not in st.board.sides:
        raise UnknownEntity(f"no side {cmd.side!r}", side=cmd.side)
    _in_starting(st)
    _after_initiative(st)
    if cmd.side in st.closed:
        raise RuleViolation(f"{cmd.side} has already ended its declarations", rule=R_STARTING)
    _close(run, cmd.side, "side")
    if len(run.state.closed) != len(st.board.sides):
        return
    if st.options.initiative_first:
        run.emit(PhasesBegan(round=st.round, order=st.order))
        start_phases(run)
    elif st.options.auto_initiative:
        roll_initiative(run, dice)
        start_phases(run)


def _roll_initiative(run: Run, cmd: RollInitiative, dice: Dice) -> None:
    _in_starting(run.state)
    if run.state.options.initiative_first:
        if _rolled_first(run.state):
            raise RuleViolation("initiative is already rolled this round", rule=R_INITIATIVE)
        roll_initiative(run, dice)  # the sides declare next, knowing the order
        return
    for side in run.state.board.sides:
        if side not in run.state.closed:
            _close(run, side, "referee")
    roll_initiative(run, dice)
    start_phases(run)


def _current(state: State, aid: str) -> Action:
    a = find_action(state, aid)
    cur = state.current
    if state.stage != "phases" or cur is None:
        raise RuleViolation(
            "no action is due now: the round is in its Starting Phase", rule=R_PHASES
        )
    if cur.id != a.id:
        raise RuleViolation(
            f"it is {cur.id}'s turn ({cur.side}, {cur.combatant}) in phase {label(state.phase)}",
            rule=R_PHASES,
        )
    calls = holding(state, a)
    if calls:
        raise _waits(f"{a.id} ({a.combatant}'s {a.kind})", calls)
    return a


def _resolve(run: Run, cmd: ResolveAction, dice: Dice) -> None:
    a = _current(run.state, cmd.action)
    resolve_roll(run, a, dice)
    advance(run)


def _record(run: Run, cmd: RecordOutcome, dice: Dice) -> None:
    a = _current(run.state, cmd.action)
    record_outcome(run, a, cmd.outcome, cmd.hit, cmd.damage)
    advance(run)


def _rule_test(run: Run, cmd: RuleCheck, dice: Dice) -> None:
    p = run.state.pending.get(cmd.check)
    if p is None or p.kind != "test":
        raise UnknownEntity(f"no save or check {cmd.check!r} waits for a ruling", check=cmd.check)
    o = Outcome(run.state, dice, p.combatant)
    o.follow(p.then, cmd.result, p.combatant, p.item, p.effects)
    run.emit(
        CheckRuled(
            check=p.id,
            result=cmd.result,
            reason=cmd.reason,
            sub_rolls=tuple(o.sub_rolls),
            tests=tuple(o.tests),
            applied=tuple(o.applied),
            prompts=tuple(o.prompts),
            pending=tuple(o.pending),
        )
    )
    _settled(run)


def _settled(run: Run) -> None:
    """A call settled: the round goes on if it was waiting for it (the round's end, or an
    action whose combatant the result made unable to act)."""
    if run.state.stage == "phases":
        advance(run)


def _choose(run: Run, cmd: ChooseEffects, dice: Dice) -> None:
    p = run.state.pending.get(cmd.choice)
    if p is None or p.kind != "choice":
        raise UnknownEntity(f"no choice {cmd.choice!r} waits", choice=cmd.choice)
    picks = sorted(set(cmd.effects))
    if len(picks) != p.count or any(i >= len(p.effects) for i in picks):
        raise RuleViolation(
            f"choose {p.count} distinct effects of the {len(p.effects)} offered (0-based)",
            rule=R_EVENTS,
        )
    run.emit(EffectsChosen(choice=p.id, applied=tuple(p.effects[i] for i in picks)))
    _settled(run)


def _close_prompt(run: Run, cmd: ClosePrompt, dice: Dice) -> None:
    if cmd.prompt not in run.state.prompts:
        raise UnknownEntity(f"no prompt {cmd.prompt!r}", prompt=cmd.prompt)
    run.emit(PromptClosed(prompt=cmd.prompt, note=cmd.note))


def _adjust(run: Run, cmd: AdjustCombatant, dice: Dice) -> None:
    c = _combatant(run.state, cmd.combatant)
    if (cmd.x is None) != (cmd.y is None):
        raise RuleViolation("give both x and y, or neither", rule=R_REFEREE)
    for i in cmd.recover:
        if i not in c.items:
            raise UnknownEntity(f"{c.id} has no item {i!r}", item=i)
    b = run.state.board
    if cmd.x is not None and b.width is not None and cmd.x >= b.width:
        raise RuleViolation("off the grid", rule=R_REFEREE)
    if cmd.y is not None and b.height is not None and cmd.y >= b.height:
        raise RuleViolation("off the grid", rule=R_REFEREE)
    run.emit(
        CombatantAdjusted(
            combatant=c.id,
            hp=c.hp if cmd.hp is None else cmd.hp,
            x=c.x if cmd.x is None else cmd.x,
            y=c.y if cmd.y is None else cmd.y,
            clear=cmd.clear,
            recover=cmd.recover,
            reason=cmd.reason,
        )
    )


def _engagement(run: Run, cmd: SetEngagement, dice: Dice) -> None:
    _combatant(run.state, cmd.a)
    _combatant(run.state, cmd.b)
    if cmd.a == cmd.b:
        raise RuleViolation("a combatant is not engaged with itself", rule=R_REFEREE)
    run.emit(EngagementSet(a=cmd.a, b=cmd.b, engaged=cmd.engaged))


def _end_battle(run: Run, cmd: EndBattle, dice: Dice) -> None:
    if cmd.winner is not None and cmd.winner not in run.state.board.sides:
        raise UnknownEntity(f"no side {cmd.winner!r}", side=cmd.winner)
    run.emit(BattleEnded(winner=cmd.winner, reason=cmd.reason))


_STEPS: dict[type[Any], Callable[[Run, Any, Dice], None]] = {
    DeclareAction: _declare,
    WithdrawAction: _withdraw,
    SustainAction: _sustain,
    CancelAction: _cancel,
    EndDeclarations: _end_declarations,
    RollInitiative: _roll_initiative,
    ResolveAction: _resolve,
    RecordOutcome: _record,
    RuleCheck: _rule_test,
    ChooseEffects: _choose,
    ClosePrompt: _close_prompt,
    AdjustCombatant: _adjust,
    SetEngagement: _engagement,
    EndBattle: _end_battle,
}


def _run(state: State, command: Command, dice: Dice) -> Run:
    if state.stage == "over":
        raise RuleViolation("the battle is over", rule=R_REFEREE)
    run = Run(state)
    _STEPS[type(command)](run, command, dice)
    return run


def decide(state: State, command: Command, dice: Dice) -> list[Event]:
    """The events `command` produces in `state` (seed 004)."""
    return _run(state, command, dice).events


def decide_folded(state: State, command: Command, dice: Dice) -> tuple[list[Event], State]:
    """`decide`, and the state after its events (each step already folded them)."""
    run = _run(state, command, dice)
    return run.events, run.state
