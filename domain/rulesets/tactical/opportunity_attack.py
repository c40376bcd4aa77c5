"""[Stamina Actions] Opportunity Attack of seed 002, answered: a reactor offered the window
(opportunity.py) attacks the provoker with a melee weapon in hand (3 STA; with both
weapons when dual wielding, A64), or declines (React with none).

Neither goes on with the provoking action: once the last reactor has answered, decide.py
hands over to resume.py, which continues it as the window records.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.attack_record import single
from domain.rulesets.tactical.commands import Attack, OpportunityAttack
from domain.rulesets.tactical.conditions import can_react
from domain.rulesets.tactical.dual import pair
from domain.rulesets.tactical.events import OpportunityDeclined
from domain.rulesets.tactical.opportunity import OA_COST, melee_in_hand
from domain.rulesets.tactical.rules import R_STAMINA_ACTIONS, Run, char, need_sta
from domain.rulesets.tactical.weapons import weapon_of

__all__ = ["decline", "opportunity_attack"]


def opportunity_attack(run: Run, cmd: OpportunityAttack, dice: Dice) -> None:
    """A reactor of the open window attacks its provoker (before the trigger completes, A59)."""
    st = run.state
    w = st.opportunity
    if w is None or st.pending is not None:
        raise RuleViolation("no opportunity attack is offered now", rule=R_STAMINA_ACTIONS)
    if cmd.character not in w.reactors:
        raise RuleViolation(
            f"{cmd.character} may not make an opportunity attack against {w.provoker} now",
            rule=R_STAMINA_ACTIONS,
        )
    c = char(st, cmd.character)
    # the window judged an invisible reactor as its foes may (conditions.as_foes_judge):
    # whether it can pay and act is checked here, where only its side reads the refusal
    if c.has("invisible"):
        why = can_react(st, c) if w.trigger != "parry" else None  # A13: outside the limit
        if why is not None:
            raise RuleViolation(why, rule=R_STAMINA_ACTIONS)
        need_sta(st, c, OA_COST, "an opportunity attack")
    weapon = cmd.weapon or melee_in_hand(st, c)
    if weapon is None or weapon not in (c.main_hand, c.off_hand):
        raise RuleViolation(f"{c.id} wields no melee weapon", rule=R_STAMINA_ACTIONS)
    wp = weapon_of(st, c, weapon)
    if wp.kind != "melee":
        raise RuleViolation("an opportunity attack is a melee attack", rule=R_STAMINA_ACTIONS)
    t = st.chars[w.provoker]
    also = None
    if cmd.dual:  # A64: dual wielding "also allowed for opportunity attacks": one target
        wp, also = pair(st, c)
    attack = Attack(character=c.id, weapon=wp.id, target=t.id)
    parry = w.trigger == "parry"
    single(
        run, attack, dice, c, wp, "opportunity", OA_COST, t, t.pos, unseen=False,
        after_parry=parry, also=also, dual=cmd.dual,
    )  # fmt: skip


def decline(run: Run, cid: str) -> None:
    """A reactor of the open window lets its opportunity attack go (React with none)."""
    w = run.state.opportunity
    if w is None or cid not in w.reactors:
        raise RuleViolation(f"{cid} has nothing to answer", rule=R_STAMINA_ACTIONS)
    run.emit(OpportunityDeclined(character=cid))
