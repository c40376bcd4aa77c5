"""[Dual Wielding] of seed 002: two weapons of one type (A64), no ability scores; two rolls
against two targets as one attack action (each target then gets its reaction window in
turn), or both rolls combined against one target.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.attack_record import single
from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.modifiers import totally_concealed
from domain.rulesets.tactical.records import AttackRecord
from domain.rulesets.tactical.resolution import attack_side, resolve_in_turn
from domain.rulesets.tactical.rules import R_DUAL, R_UNSEEN, Run, char
from domain.rulesets.tactical.weapons import Weapon, weapon_of

__all__ = ["dual", "pair"]


def pair(st: State, a: Char) -> tuple[Weapon, Weapon]:
    """The two weapons `a` dual wields: the same `weapon_type`, one in each hand (A64)."""
    items = st.board.items
    main, off = items.get(a.main_hand or ""), items.get(a.off_hand or "")
    if main is None or off is None or not main.weapon_type or main.weapon_type != off.weapon_type:
        raise RuleViolation(
            "dual wielding needs two weapons of the same type, one in each hand", rule=R_DUAL
        )
    return weapon_of(st, a, main.id), weapon_of(st, a, off.id)


def dual(run: Run, cmd: Attack, dice: Dice, a: Char, action: str, sta: int) -> None:
    """[Dual Wielding]: two weapons of one type (A64), no ability scores; two rolls against
    two targets as one attack action, or both rolls combined against one target."""
    st = run.state
    w1, w2 = pair(st, a)
    if cmd.target is None:
        raise RuleViolation("name the target", rule=R_DUAL)
    t = char(st, cmd.target)
    if cmd.second_target is None:
        single(run, cmd, dice, a, w1, action, sta, t, t.pos, unseen=False, also=w2, dual=True)
        return
    t2 = char(st, cmd.second_target)
    if t2.id == t.id:
        raise RuleViolation("two rolls go against two different targets", rule=R_DUAL)
    for who in (t, t2):
        if totally_concealed(st, a, who):
            raise RuleViolation(f"{who.id} has total concealment", rule=R_UNSEEN)
    # Two targets: both rolled at once as one attack action; then each target in turn gets
    # its reaction window like any attack's ([Stamina Actions] dodge/parry/shield, A10).
    # One of them an invisible foe a's side perceived: the whole action is that side's
    # (its records wait in one queue, their dice drawn from one stream; RULINGS)
    hidden = attack_side(a, (t, t2))
    records: list[AttackRecord] = []
    for w, who, cost in ((w1, t, sta), (w2, t2, 0)):
        single(run, cmd, dice, a, w, action, cost, who, who.pos, unseen=False, dual=True,
               collect=records, hidden=hidden)  # fmt: skip
    resolve_in_turn(run, records, dice, first_counts=True, hidden=hidden)
