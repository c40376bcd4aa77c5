"""The walk through a round (seed 004, Combat Phases; Taking Multiple Phases): after
initiative, phase after phase from Lightning Fast (-3) to the Final Phase, the sides in
initiative order within each, each side's actions in the order it declared them (carried
over ones first); then the round's end, its carry-overs, and the next round's Starting
Phase.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.phased.events import (
    ActionCancelled,
    ActionCarriedOver,
    BattleEnded,
    PhaseStarted,
    RoundEnded,
    RoundStarted,
)
from domain.rulesets.phased.model import FINAL, Action, Applied, State, label
from domain.rulesets.phased.rules import Run, carry_target

__all__ = ["advance", "check_end", "due_in", "start_phases", "unable"]


def _order_key(state: State, a: Action) -> tuple[int, int, int, int]:
    side = state.order.index(a.side) if a.side in state.order else len(state.order)
    seq = int(a.id.rsplit(".", 1)[-1]) if a.id.rsplit(".", 1)[-1].isdigit() else 0
    return (side, 0 if a.carried else 1, a.declared_round, seq)


def due_in(state: State, index: int) -> list[Action]:
    """The actions due in phase `index` this round, in the order they act."""
    due = [
        a
        for a in state.actions.values()
        if a.status == "declared" and a.due_round == state.round and a.due == index
    ]
    return sorted(due, key=lambda a: _order_key(state, a))


def _starting(state: State, index: int) -> list[Action]:
    return sorted(
        (
            a
            for a in state.actions.values()
            if a.status == "declared"
            and a.declared_round == state.round
            and a.start == index
            and (a.due > index or a.due_round > state.round)
            and not a.carried
        ),
        key=lambda a: _order_key(state, a),
    )


def _shown(actions: list[Action]) -> tuple[Action, ...]:
    """The actions as a phase start shows them: revealed from now on."""
    return tuple(replace(a, revealed=True) for a in actions)


def unable(state: State, a: Action) -> str | None:
    """Why the combatant cannot act now (option unable_cancels), or None."""
    c = state.combatants.get(a.combatant)
    if c is None or not state.options.unable_cancels:
        return None
    if c.down:
        return f"{c.id} is out of the fight"
    if c.has("stunned"):
        return f"{c.id} is stunned"
    return None


def _skip_unable(run: Run) -> None:
    """Cancel the current action while its combatant cannot act (stunned, out)."""
    while True:
        st = run.state
        a = st.current
        if a is None:
            return
        why = unable(st, a)
        if why is None:
            return
        run.emit(
            ActionCancelled(
                action=a.id, side=a.side, round=st.round, phase=label(st.phase), reason=why
            )
        )


def _end_round(run: Run) -> None:
    st = run.state
    for a in sorted(st.actions.values(), key=lambda a: a.id):
        if a.status != "declared":
            continue
        if a.due_round == st.round and a.due > FINAL:
            to = carry_target(a, st.combatants.get(a.combatant))
        elif a.due_round > st.round:
            to = a.due  # a spell longer than a round: the caster is still casting
        else:
            continue
        run.emit(
            ActionCarriedOver(
                action=a.id,
                side=a.side,
                to_round=max(a.due_round, st.round + 1),
                due=to,
                phase=label(to),
                hidden_side=None if a.revealed else a.side,
            )
        )
    ended = tuple(
        Applied(combatant=c.id, effect=e.name, source=e.source, until_round=e.until_round)
        for c in st.combatants.values()
        for e in c.effects
        if e.until_round is not None and e.until_round <= st.round
    )
    run.emit(RoundEnded(round=st.round, ended=ended))
    check_end(run)
    if run.state.stage != "over":
        run.emit(RoundStarted(round=st.round + 1))


def check_end(run: Run) -> None:
    """auto_end: the battle ends when combatants with hit points are out on every side but
    one (combatants without hit points are never out)."""
    st = run.state
    if not st.options.auto_end:
        return
    standing = {c.side for c in st.combatants.values() if not c.down}
    if len(standing) == 1:
        (side,) = standing
        run.emit(BattleEnded(winner=side, reason=f"only {side} has combatants standing"))
    elif not standing:
        run.emit(BattleEnded(winner=None, reason="no combatant is standing"))


def advance(run: Run) -> None:
    """Move on while the current phase has nobody left to act: the next phase with actions
    due (the Final Phase always), then the round's end."""
    while run.state.stage == "phases":
        _skip_unable(run)
        st = run.state
        if st.queue:
            return
        if st.phase >= FINAL:
            if st.pending:  # holds.py: the round ends once its combat events are settled
                return
            _end_round(run)
            return
        nxt = st.phase + 1
        while nxt < FINAL and not (due_in(st, nxt) or _starting(st, nxt)):
            if st.options.announce_empty_phases:
                break
            nxt += 1
        run.emit(
            PhaseStarted(
                round=st.round,
                phase=label(nxt),
                index=nxt,
                order=st.order,
                due=_shown(due_in(st, nxt)),
                starting=_shown(_starting(st, nxt)),
            )
        )


def start_phases(run: Run) -> None:
    """Right after initiative, the Starting Phase's actions (seed 004, Starting Phase and
    Actions Before Base Speed; option ten_lifts_to_starting): those a 10 lifted into it act
    first, and those a 10 lifted to begin in it (a move over several phases) are shown as
    they begin, as every phase shows its own (RULINGS.md, phased: what a phase reveals)."""
    st = run.state
    lifted, begun = due_in(st, 0), _starting(st, 0)
    if lifted or begun:
        run.emit(
            PhaseStarted(
                round=st.round,
                phase=label(0),
                index=0,
                order=st.order,
                due=_shown(lifted),
                starting=_shown(begun),
            )
        )
    advance(run)
