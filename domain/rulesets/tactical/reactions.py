"""[Stamina Actions] Dodge, Parry and Shield of seed 002: the reaction of the target of a
pending attack ("before damage is rolled", A10), one a round, and what follows it (the
area's next target, a parry's opportunity attack). React with none also declines an
opportunity attack. The provoking action going on after is resume.py's (decide.py calls it).
"""

from __future__ import annotations

from domain.actors import side_audience
from domain.dice import Dice, dice_for
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import React
from domain.rulesets.tactical.conditions import can_react
from domain.rulesets.tactical.opportunity import offer_after_parry
from domain.rulesets.tactical.opportunity_attack import decline
from domain.rulesets.tactical.records import ReactionTaken
from domain.rulesets.tactical.resolution import finish, resolve_in_turn
from domain.rulesets.tactical.rules import R_STAMINA_ACTIONS, Run, char, need_sta

__all__ = ["react"]


def _next_in_queue(run: Run, dice: Dice, hidden: str | None) -> None:
    """An area's remaining targets (a dual wield's second), once the one asked has reacted;
    `hidden`: the side the action is told to (its AttackDeclared's)."""
    queue = run.state.queue
    if queue and run.state.pending is None:
        resolve_in_turn(run, list(queue), dice, hidden=hidden)


def react(run: Run, cmd: React, dice: Dice) -> None:
    """[Stamina Actions] Dodge, Parry, Shield (reactions, one a round), or none."""
    st = run.state
    p = st.pending
    if p is None and st.opportunity is not None and cmd.reaction == "none":
        decline(run, cmd.character)
        return
    if p is None:
        raise RuleViolation("no attack waits for a reaction", rule=R_STAMINA_ACTIONS)
    if cmd.character != p.target:
        raise RuleViolation(f"the attack waits for {p.target}'s reaction", rule=R_STAMINA_ACTIONS)
    t = char(st, cmd.character)
    counts, hidden = st.pending_counts, st.pending_hidden
    if cmd.reaction == "none":
        none = (ReactionTaken(character=t.id, kind="none", sta=0),)
        finish(run, p, none, dice, counts=counts, hidden=hidden)
        _next_in_queue(run, dice, hidden)
        return
    why = can_react(st, t)
    if why is not None:
        raise RuleViolation(why, rule=R_STAMINA_ACTIONS)
    items = st.board.items
    held = [items[i] for i in (t.main_hand, t.off_hand) if i is not None and i in items]
    if cmd.reaction == "dodge":
        need_sta(st, t, 6, "dodge")
        # its die is in the attack's AttackResolved: from the stream of that event's side
        own = dice if hidden is None else dice_for(dice, side_audience(hidden))
        die = own.roll(6, f"dodge of {t.id}", subject=t.id)
        value = die.value + t.stats.DEX
        r = ReactionTaken(
            character=t.id,
            kind="dodge",
            sta=6,
            die=die,
            value=value,
            effect=f"d6 + DEX = {value} off the attack roll",
        )
    elif cmd.reaction == "parry":
        if not any(i.parry for i in held):
            raise RuleViolation(f"{t.id} holds no parry weapon", rule=R_STAMINA_ACTIONS)
        if p.weapon_kind != "melee":
            raise RuleViolation("parry answers a melee attack", rule=R_STAMINA_ACTIONS)
        if cmd.sta < 1 or cmd.sta > t.STA.cur:
            raise RuleViolation(
                f"parry spends 1 to {t.STA.cur} STA (A20), not {cmd.sta}", rule=R_STAMINA_ACTIONS
            )
        against = p.total if st.options.parry_vs == "attack_total" else p.damage
        ok = cmd.sta > against
        r = ReactionTaken(
            character=t.id,
            kind="parry",
            sta=cmd.sta,
            value=cmd.sta,
            effect="parried" if ok else f"failed: {cmd.sta} is not greater than {against}",
        )
    else:
        if not any(i.shield for i in held):
            raise RuleViolation(f"{t.id} holds no shield", rule=R_STAMINA_ACTIONS)
        cost = p.damage  # the attack's damage (an exposed target cannot react)
        r = ReactionTaken(
            character=t.id,
            kind="shield",
            sta=cost,
            value=cost,
            effect="shielded",
        )
    finish(run, p, (r,), dice, counts=counts, hidden=hidden)
    _next_in_queue(run, dice, hidden)
    if r.kind == "parry" and r.effect == "parried" and st.options.parry_oa_free:
        offer_after_parry(run, t.id, p.attacker)
