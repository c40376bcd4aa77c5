"""The referee's rulings of seed 002, each an event with its reason: the DC (A01), healing
and medicine (A66), conditions such as a wound's effects (A05), superior cover,
concealment and helplessness, and the end of combat ([Sequence §5]).
"""

from __future__ import annotations

from typing import get_args

from domain.actors import REFEREE
from domain.dice import Dice, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import (
    CallCheck,
    EndCombat,
    Join,
    Restore,
    RuleVisibility,
    SetCondition,
    SetDC,
)
from domain.rulesets.tactical.events import (
    CharacterJoined,
    CheckCalled,
    CombatEnded,
    ConditionEnded,
    DCSet,
    Restored,
    VisibilityRuled,
)
from domain.rulesets.tactical.model import Condition
from domain.rulesets.tactical.pools import after_loss, after_restore, check_end, gain_condition
from domain.rulesets.tactical.rules import R_REFEREE, R_SEQUENCE, Run, char
from domain.rulesets.tactical.setup import ConditionName

__all__ = ["end_combat", "join", "restore", "rule_visibility", "set_condition", "set_dc"]

_NAMES = frozenset(get_args(ConditionName))


def set_dc(run: Run, cmd: SetDC, dice: Dice) -> None:
    run.emit(DCSet(dc=cmd.dc, reason=cmd.reason))


def call_check(run: Run, cmd: CallCheck, dice: Dice) -> None:
    """[Sequence §1] (M03) "may call for any check": d12 + the stat >= the DC (A01), the
    command's or the current one; a character who is dead makes none."""
    c = char(run.state, cmd.character)
    if c.dead:
        raise RuleViolation(f"{c.id} is dead", rule=R_REFEREE)
    dc = cmd.dc if cmd.dc is not None else run.state.dc
    # A secret check is the referee's alone: its die comes from the referee's sub-seed,
    # which a side revealing the dice never learns (domain.dice, "Hidden dice").
    dice = dice_for(dice, REFEREE) if cmd.secret else dice
    die = dice.roll(run.state.options.check_die, f"{c.id}'s {cmd.stat} check", subject=c.id)
    bonus = getattr(c.stats, cmd.stat)
    run.emit(
        CheckCalled(
            character=c.id,
            stat=cmd.stat,
            die=die,
            bonus=bonus,
            total=die.value + bonus,
            dc=dc,
            success=die.value + bonus >= dc,
            reason=cmd.reason,
            rule=R_SEQUENCE,
            secret=cmd.secret,
        )
    )


def restore(run: Run, cmd: Restore, dice: Dice) -> None:
    """Healing or medicine from an ally: the pool rises (never above its maximum)."""
    c = char(run.state, cmd.character)
    if c.dead:
        raise RuleViolation(f"{c.id} is dead", rule=R_REFEREE)
    run.emit(
        Restored(
            character=c.id,
            pool=cmd.pool,
            amount=cmd.amount,
            reason=cmd.reason,
            medicine=cmd.medicine,
        )
    )
    after_restore(run, c.id, cmd.pool)
    if cmd.medicine and cmd.pool == "HEA":
        for name in ("dying", "unconscious"):
            if run.state.chars[c.id].has(name):
                run.emit(
                    ConditionEnded(
                        character=c.id, condition=name, reason=cmd.reason, rule=R_REFEREE
                    )
                )


def set_condition(run: Run, cmd: SetCondition, dice: Dice) -> None:
    c = char(run.state, cmd.character)
    if cmd.condition not in _NAMES:
        raise RuleViolation(f"no condition {cmd.condition!r}", rule="002 Conditions")
    if cmd.remove:
        if not c.has(cmd.condition):
            raise RuleViolation(f"{c.id} is not {cmd.condition}", rule=R_REFEREE)
        run.emit(
            ConditionEnded(
                character=c.id, condition=cmd.condition, reason=cmd.reason, rule=R_REFEREE
            )
        )
        return
    if cmd.source is not None and not (
        cmd.condition == "frightened" and cmd.source in run.state.structures
    ):  # [Frightened]: "the creature/object frightening you": a character or a structure
        char(run.state, cmd.source)
    before = {p: getattr(c, p).cur for p in ("STA", "WIL")}
    gain_condition(
        run,
        c.id,
        Condition(
            name=cmd.condition,  # type: ignore[arg-type]
            rating=cmd.rating,
            source=cmd.source,
            from_wound=cmd.from_wound,
        ),
        cmd.reason,
        R_REFEREE,
    )
    for p, b in before.items():  # Exhausted may lower a pool (A69) below 1
        if getattr(run.state.chars[c.id], p).cur < b:
            after_loss(run, c.id, p, b, cmd.condition)
    check_end(run)


def rule_visibility(run: Run, cmd: RuleVisibility, dice: Dice) -> None:
    c = char(run.state, cmd.character)
    run.emit(
        VisibilityRuled(
            character=c.id,
            superior_cover=cmd.superior_cover,
            concealed=cmd.concealed,
            helpless=cmd.helpless,
            reason=cmd.reason,
        )
    )


def join(run: Run, cmd: Join, dice: Dice) -> None:
    """A44: the referee inserts a late joiner into the initiative order."""
    st = run.state
    cs = cmd.character
    if st.phase != "combat":
        raise RuleViolation("late joiners join a combat under way", rule=R_SEQUENCE)
    if cs.id in st.chars or cs.id in st.structures:
        raise RuleViolation(f"{cs.id!r} is taken", rule=R_SEQUENCE)
    side = st.board.sides.get(cs.side)
    if side is None:
        raise RuleViolation(f"no side {cs.side!r}", rule=R_SEQUENCE)
    sq = (cs.x, cs.y)
    free = sq not in st.occupied and sq not in st.built and sq not in st.board.blocks_move
    if not (0 <= cs.x < st.board.width and 0 <= cs.y < st.board.height) or not free:
        raise RuleViolation(f"{list(sq)} is not a free square", rule=R_SEQUENCE)
    items, powers = st.board.items, st.board.powers
    for it in (cs.main_hand, cs.off_hand, *cs.stowed):
        if it is not None and it not in items:
            raise RuleViolation(f"unknown item {it!r}", rule=R_SEQUENCE)
    for pw in cs.powers:
        if pw not in powers:
            raise RuleViolation(f"unknown power {pw!r}", rule=R_SEQUENCE)
    for p in (cs.HEA, cs.STA, cs.WIL):
        if p.cur > p.max:
            raise RuleViolation("a pool above its maximum", rule=R_SEQUENCE)
    slot = 0
    if cmd.after is not None:
        if cmd.after not in st.order:
            raise RuleViolation(f"{cmd.after!r} is not in the order", rule=R_SEQUENCE)
        slot = st.order.index(cmd.after) + 1
    run.emit(CharacterJoined(character=cs, controller=cs.controller or side.controller, slot=slot))


def end_combat(run: Run, cmd: EndCombat, dice: Dice) -> None:
    if cmd.winner is not None and cmd.winner not in run.state.board.sides:
        raise RuleViolation(f"no side {cmd.winner!r}", rule=R_SEQUENCE)
    run.emit(CombatEnded(winner=cmd.winner, reason=cmd.reason))
