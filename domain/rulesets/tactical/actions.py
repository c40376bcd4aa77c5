"""The other actions of seed 002: Save, Rest, Help ([Standard Actions]), free actions and
their 6 STA repeat, draw/stow ([Stamina Actions]), perceiving an unseen foe, Stunned's
choice and ending a turn.
"""

from __future__ import annotations

from domain.actors import side_audience
from domain.dice import Dice, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import (
    EndTurn,
    FreeAction,
    Help,
    Perceive,
    Rest,
    Save,
    Stunned,
)
from domain.rulesets.tactical.conditions import SAVE_STAT, UNSAVEABLE, can_act
from domain.rulesets.tactical.events import (
    ConditionEnded,
    FreeActionTaken,
    HelpGiven,
    Perceived,
    Rested,
    SaveRolled,
    StandardActionLost,
)
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.model import Char
from domain.rulesets.tactical.pools import after_loss, check
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_STAMINA_ACTIONS,
    R_STANDARD,
    R_TYPES,
    Run,
    char,
    ensure_active,
    need_sta,
)
from domain.rulesets.tactical.sequence import end_turn

__all__ = ["end", "free_action", "help_ally", "perceive", "rest", "save", "stunned"]


def _standard(run: Run, c: Char, what: str) -> None:
    ensure_active(run.state, c)
    if c.standard_used:
        raise RuleViolation(f"{c.id} has used its standard action this turn", rule=R_STANDARD)


def save(run: Run, cmd: Save, dice: Dice) -> None:
    """[Save]: one save against one condition; never against a wound's (A05) or A67's."""
    st = run.state
    c = char(st, cmd.character)
    _standard(run, c, "save")
    cond = c.condition(cmd.condition)
    if cond is None:
        raise RuleViolation(f"{c.id} is not {cmd.condition}", rule=R_STANDARD)
    why = can_act(c)
    if why is not None and not (cmd.condition == "exposed" and c.has("exposed")):
        raise RuleViolation(why, rule=R_CONDITIONS)
    if c.has("exposed") and cmd.condition != "exposed":
        raise RuleViolation("exposed: the only save is against exposed (A16)", rule=R_CONDITIONS)
    if cond.from_wound:
        raise RuleViolation("a save cannot heal conditions from wounds", rule=R_STANDARD)
    if cond.unsaveable or cmd.condition in UNSAVEABLE or cmd.condition not in SAVE_STAT:
        raise RuleViolation(f"no save is given against {cmd.condition} now", rule=R_CONDITIONS)
    if cond.no_save_before > c.turns_taken:
        raise RuleViolation("no save for this exposure on this turn (Shield)", rule=R_CONDITIONS)
    stat = SAVE_STAT[cmd.condition]
    # a save against a side-only condition (an invisible shielder's Exposed, A17) is its
    # side's, die and all: in public it would tell that it had it (RULINGS "Invisible
    # stamina"; review 2, F5)
    hidden = c.side if cond.hidden and c.has("invisible") else None
    own = dice if hidden is None else dice_for(dice, side_audience(hidden))
    die, bonus, total, ok = check(run, own, c, stat, f"{stat} save of {c.id} ({cmd.condition})")
    run.emit(
        SaveRolled(
            character=c.id,
            condition=cmd.condition,
            stat=stat,
            die=die,
            bonus=bonus,
            total=total,
            dc=st.dc,
            success=ok,
            hidden_side=hidden,
        )
    )
    if ok:
        run.emit(
            ConditionEnded(
                character=c.id,
                condition=cmd.condition,
                reason=f"{stat} save {total} >= {st.dc}",
                rule=R_CONDITIONS,
                hidden_side=hidden,
            )
        )


def rest(run: Run, cmd: Rest, dice: Dice) -> None:
    """[Rest]: +d6 to this turn's regeneration rolls."""
    c = char(run.state, cmd.character)
    _standard(run, c, "rest")
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_STANDARD)
    run.emit(Rested(character=c.id))


def help_ally(run: Run, cmd: Help, dice: Dice) -> None:
    """[Help]: an ally within close burst 1 may reroll one die on its next turn."""
    st = run.state
    c = char(st, cmd.character)
    _standard(run, c, "help")
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_STANDARD)
    ally = char(st, cmd.ally)
    if ally.id == c.id or ally.side != c.side:
        raise RuleViolation("help an ally", rule=R_STANDARD)
    if distance(c.pos, ally.pos, "chebyshev") > 1:
        raise RuleViolation(f"{ally.id} is not within close burst 1", rule=R_STANDARD)
    unseen = c.has("invisible") or ally.has("invisible")
    run.emit(HelpGiven(character=c.id, ally=ally.id, hidden_side=c.side if unseen else None))


def _free_cost(run: Run, c: Char, action: str) -> int:
    """[Stamina Actions] Free (6 STA): the same free action again in a round."""
    if action not in c.free_used:
        return 0
    if c.has("dazed"):
        raise RuleViolation(f"{c.id} is dazed: no stamina actions", rule=R_CONDITIONS)
    need_sta(run.state, c, 6, f"repeating {action}")
    return 6


def free_action(run: Run, cmd: FreeAction, dice: Dice) -> None:
    """[Types] Free; draw/stow (A29: the first free, the second 3 STA, at most 2 a round)."""
    st = run.state
    c = char(st, cmd.character)
    ensure_active(st, c)
    if c.down:
        raise RuleViolation(f"{c.id} cannot act", rule=R_TYPES)
    sta = 0
    if cmd.action in ("draw", "stow"):
        if c.draws >= 2:
            raise RuleViolation("at most two draw/stow actions a round", rule=R_STAMINA_ACTIONS)
        if c.draws == 1:
            if c.has("dazed") or c.has("exposed"):
                raise RuleViolation(f"{c.id} cannot take stamina actions", rule=R_CONDITIONS)
            sta = 3
            need_sta(st, c, 3, "a second draw/stow")
        _check_item(run, c, cmd)
    else:
        sta = _free_cost(run, c, cmd.action)
        if cmd.action == "drop" and cmd.item not in (c.main_hand, c.off_hand):
            raise RuleViolation(f"{c.id} does not hold {cmd.item}", rule=R_TYPES)
    held = [k for k in st.chars.values() if (g := k.condition("grappled")) and g.source == c.id]
    if cmd.action == "release" and not held:
        raise RuleViolation(f"{c.id} holds no one", rule=R_TYPES)
    run.emit(
        FreeActionTaken(
            character=c.id,
            action=cmd.action,
            detail=cmd.detail,
            sta_spent=sta,
            item=cmd.item,
            hand="main" if cmd.pair is not None else cmd.hand,
            pair=cmd.pair,
        )
    )
    if sta:
        after_loss(run, c.id, "STA", c.STA.cur, cmd.action)
    if cmd.action == "release":  # A32: the grappler lets go (a free action)
        for k in held:
            run.emit(
                ConditionEnded(
                    character=k.id,
                    condition="grappled",
                    reason=f"{c.id} let go",
                    rule=R_CONDITIONS,
                )
            )


def _check_item(run: Run, c: Char, cmd: FreeAction) -> None:
    if cmd.item is None:
        raise RuleViolation(f"{cmd.action}: name the item", rule=R_TYPES)
    if cmd.action == "draw":
        if cmd.item not in c.stowed:
            raise RuleViolation(f"{c.id} has no {cmd.item} stowed", rule=R_TYPES)
        hand = c.off_hand if cmd.hand == "off" else c.main_hand
        if hand is not None:
            raise RuleViolation("that hand is full: stow or drop first", rule=R_TYPES)
    elif cmd.item not in (c.main_hand, c.off_hand):
        raise RuleViolation(f"{c.id} does not hold {cmd.item}", rule=R_TYPES)
    if cmd.pair is not None:  # [Draw/Stow]: two dual-wielded melee weapons are one action
        items = run.state.board.items
        a, b = items.get(cmd.item), items.get(cmd.pair)
        same = a is not None and b is not None and a.weapon_type and a.weapon_type == b.weapon_type
        if not same or a is None or a.category != "melee" or cmd.pair == cmd.item:
            raise RuleViolation("only two melee weapons of one type go together", rule=R_TYPES)
        if cmd.action == "draw":
            if cmd.pair not in c.stowed or c.main_hand is not None or c.off_hand is not None:
                raise RuleViolation("both hands must be free, both weapons stowed", rule=R_TYPES)
        elif {cmd.item, cmd.pair} != {c.main_hand, c.off_hand}:
            raise RuleViolation(f"{c.id} does not hold both", rule=R_TYPES)


def perceive(run: Run, cmd: Perceive, dice: Dice) -> None:
    """[Targeting What You Can't See §1] (R_UNSEEN): a free d6 > max(DEX, INT) locates it."""
    st = run.state
    c = char(st, cmd.character)
    ensure_active(st, c)
    if c.down:
        raise RuleViolation(f"{c.id} cannot act", rule=R_TYPES)
    t = char(st, cmd.target)
    sta = _free_cost(run, c, "perceive")
    die = dice.roll(6, f"perception of {c.id} against {t.id}", subject=c.id)
    against = max(t.stats.DEX, t.stats.INT)
    run.emit(
        Perceived(
            character=c.id,
            target=t.id,
            die=die,
            against=against,
            success=die.value > against,
            sta_spent=sta,
        )
    )


def stunned(run: Run, cmd: Stunned, dice: Dice) -> None:
    """[Stunned]: lose the free move or the standard action this turn (A30: its choice)."""
    st = run.state
    c = char(st, cmd.character)
    ensure_active(st, c, acting=False)
    if not c.has("stunned"):
        raise RuleViolation(f"{c.id} is not stunned", rule=R_CONDITIONS)
    if c.stunned_lost is not None:
        raise RuleViolation("already chosen this turn", rule=R_CONDITIONS)
    if (cmd.lose == "standard" and c.standard_used) or (cmd.lose == "move" and c.moves):
        raise RuleViolation("that action is already used; lose the other", rule=R_CONDITIONS)
    run.emit(StandardActionLost(character=c.id, lost=cmd.lose))


def end(run: Run, cmd: EndTurn, dice: Dice) -> None:
    st = run.state
    c = char(st, cmd.character)
    # a character that fell during its own turn (an opportunity attack on its move) ends
    # it like one that starts its turn unconscious ([Sequence §5]); nothing else may
    ensure_active(st, c, acting=False, ending=True)
    if c.down:
        end_turn(run, dice, c, "unconscious: the turn ends by itself")
        return
    end_turn(run, dice, run.state.chars[c.id])
