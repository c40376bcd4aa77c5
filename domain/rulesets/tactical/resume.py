"""The provoking action going on once its opportunity window closes (seed 002, [Stamina
Actions] Opportunity Attack; A59: it resolves before the trigger completes).

The attack flow of the tactical ruleset, each step a command and each wait a record in
the state:
  attack (attacks.py) -> reaction window (`pending`, an AttackRecord: React)
  -> opportunity window (`opportunity`, an OpportunityWindow: OpportunityAttack, or
  React with none) -> resume (here).
After every command that answers a window, decide.py calls `resume`, the one place that
goes on with what the window recorded: the rest of a move (and a Charge's strike at its
end), or the ranged or spell attack that provoked. Nothing below imports this module.
"""

from __future__ import annotations

from domain.dice import Dice, Roll, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.attacks import attack_command
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.conditions import can_act
from domain.rulesets.tactical.events import ActionInterrupted, Moved, OpportunityClosed
from domain.rulesets.tactical.maneuvers import strike
from domain.rulesets.tactical.model import Char
from domain.rulesets.tactical.modifiers import square_hidden
from domain.rulesets.tactical.records import OpportunityWindow, ResumeAttack
from domain.rulesets.tactical.rules import R_STAMINA_ACTIONS, Run
from domain.rulesets.tactical.walking import walk

__all__ = ["resume"]


def resume(run: Run, dice: Dice) -> None:
    """Once every reactor has answered (and no attack waits), the provoking action goes on."""
    st = run.state
    w = st.opportunity
    if w is None or w.reactors or st.pending is not None or st.phase != "combat":
        return
    run.emit(OpportunityClosed(provoker=w.provoker))
    p = run.state.chars[w.provoker]
    if w.trigger == "parry":
        return  # [Parry]'s opportunity attack interrupts nothing
    why = _stopped(p, w)
    if why is not None:
        _interrupted(run, p, w, why)
        return
    # what the window's answers did may leave the action undoable (a provoker whose STA
    # an opportunity attack took can no longer pay for its spell): refused, it would
    # refuse every answer to the window, and the battle would wait on nothing. Checked
    # before any die is drawn (every check is), it ends where it provoked instead (A59;
    # RULINGS, resumed actions)
    n, before = len(run.events), run.state
    counted = _Counted(dice)
    try:
        if w.trigger == "move":
            _walk_on(run, p, w, counted)
        else:
            assert w.attack is not None
            _attack_on(run, p, w.attack, counted)
    except RuleViolation as e:
        if counted.drawn:
            raise
        del run.events[n:]
        run.state = before
        why = f"{p.id} can no longer go on: what {e.rule or 'the rules'} require is not met"
        _interrupted(run, p, w, why)


class _Counted:
    """Dice that count the rolls drawn through them, of every audience's stream: a hidden
    roll (`for_audience`) is drawn from the wrapped dice's stream of its audience and
    counted here too (without it, it would be taken from the public stream)."""

    def __init__(self, inner: Dice, counter: _Counted | None = None) -> None:
        self.inner = inner
        self.drawn = 0
        self._counter = self if counter is None else counter

    def for_audience(self, audience: str) -> Dice:
        return _Counted(dice_for(self.inner, audience), self._counter)

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self._counter.drawn += 1
        return self.inner.roll_many(count, sides, purpose, subject)


def _stopped(p: Char, w: OpportunityWindow) -> str | None:
    """Why the provoker cannot go on with its action after the opportunity attacks: it
    fell, is held, can no longer act ([Exposed]), or was knocked prone mid-move ([Prone]:
    "The only move action you can make is crawl")."""
    if p.dead or p.down:
        return f"{p.id} fell to the opportunity attack"
    for name in ("immobilized", "grappled"):
        if p.has(name):
            return f"{p.id} is {name}"
    why = can_act(p)
    if why is not None:
        return why
    if w.trigger == "move" and w.mode != "crawl" and p.has("prone"):
        return f"{p.id} was knocked prone: the only move action left is crawl"
    return None


def _interrupted(run: Run, p: Char, w: OpportunityWindow, why: str) -> None:
    """A59: the provoking action ends where it provoked. An invisible provoker's end is
    its side's, whatever its trigger: its reason may name what only its side knows (its
    drained Exposed, the STA its action needs; RULINGS "Invisible stamina"), and a move's
    square besides (review 2, F3). The others read that it went no further by what does
    not come."""
    charge = w.attack is not None and w.attack.charge
    run.emit(
        ActionInterrupted(
            character=p.id,
            action="charge" if charge else "move" if w.trigger == "move" else "attack",
            square=p.pos,
            reason=why,
            rule=R_STAMINA_ACTIONS,
            hidden_side=p.side if p.has("invisible") else None,
        )
    )


def _walk_on(run: Run, p: Char, w: OpportunityWindow, dice: Dice) -> None:
    """Trigger (a): the rest of the move, and a Charge's strike at its end."""
    first = Moved(
        character=p.id,
        mode=w.mode,  # type: ignore[arg-type]
        path=(),
        cost=0,
        move_action=False,
        hidden_side=p.side if square_hidden(p) else None,  # as its first part
    )
    costs = w.rest_costs if len(w.rest_costs) == len(w.rest) else None  # older windows
    due = walk(run, first, list(w.rest), w.offered, w.attack, costs)
    if due is not None:
        strike(run, p.id, due, dice)


def _attack_on(run: Run, p: Char, r: ResumeAttack, dice: Dice) -> None:
    """Triggers (b) and (c): the ranged or spell attack that provoked, now rolled."""
    cmd = Attack(
        character=p.id,
        weapon=r.weapon,
        target=r.target,
        square=r.square,
        direction=r.direction,  # type: ignore[arg-type]
        pool=r.pool,
        throw=r.throw,
        finisher=r.finisher,
        sections=tuple((q[0], q[1]) for q in r.sections),
    )
    attack_command(run, cmd, dice, resumed=True)
