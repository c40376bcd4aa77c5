"""[Stamina Actions] Opportunity Attack (3 STA, reaction) of seed 002: its three triggers,
the window in which the adjacent enemies answer, and the provoking action going on after.

Triggers, by an adjacent enemy: (a) it moves to a square not adjacent to you (a shift
does not provoke); (b) it uses a ranged attack; (c) it makes a spell attack without the
blast or close burst attribute. A59: the opportunity attack resolves before the trigger
completes: the mover is still in the square it leaves, the attack is not yet rolled.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import Attack, OpportunityAttack
from domain.rulesets.tactical.conditions import can_act, can_react
from domain.rulesets.tactical.events import (
    ActionInterrupted,
    Moved,
    OpportunityClosed,
    OpportunityDeclined,
    OpportunityOffered,
)
from domain.rulesets.tactical.fear import afraid_of
from domain.rulesets.tactical.geometry import adjacent
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import totally_concealed
from domain.rulesets.tactical.records import OpportunityWindow, ResumeAttack
from domain.rulesets.tactical.rules import (
    R_STAMINA_ACTIONS,
    Run,
    char,
    hostile,
    round_cap,
)

__all__ = [
    "decline",
    "eligible",
    "maybe_resume",
    "offer_after_parry",
    "offer_for_attack",
    "opportunity_attack",
]

_COST = 3


def _melee_in_hand(state: State, c: Char) -> str | None:
    items = state.board.items
    for i in (c.main_hand, c.off_hand):
        if i is not None and i in items and items[i].category == "melee":
            return i
    return None


def eligible(
    state: State, provoker: Char, near: Square, away: Square | None, skip: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """Enemies of `provoker` adjacent to `near` that may take an opportunity attack
    (`away`: the square a mover enters; those still adjacent to it are not provoked)."""
    out: list[str] = []
    x, y = near
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            sq = (x + dx, y + dy)
            cid = state.occupied.get(sq)
            if cid is None or cid == provoker.id or cid in skip:
                continue
            c = state.chars[cid]
            if not hostile(state, c, provoker):
                continue
            if state.options.hidden_opportunity == "none" and (
                totally_concealed(state, provoker, c) or totally_concealed(state, c, provoker)
            ):
                continue  # RULINGS hidden_opportunity: no window tells a side what it cannot see
            if away is not None and (away == sq or adjacent(sq, away)):
                continue
            if _melee_in_hand(state, c) is None or can_react(state, c) is not None:
                continue
            if afraid_of(state, c, provoker.id):
                continue  # [Frightened]: it cannot attack what frightens it (A31)
            if c.attacks >= round_cap(c) and state.options.oa_counts_to_cap:
                continue
            if c.STA.cur < _COST and not state.options.allow_overspend:
                continue
            out.append(cid)
    return tuple(out)


def offer_after_parry(run: Run, parrier: str, attacker: str) -> None:
    """[Parry]: "you may make an opportunity attack against the target" (A13: outside the
    one-reaction limit; still 3 STA, a melee weapon in hand, the attack cap)."""
    st = run.state
    c = st.chars[parrier]
    a = st.chars[attacker]
    if st.opportunity is not None or a.down or c.down or not adjacent(c.pos, a.pos):
        return
    if _melee_in_hand(st, c) is None or c.attacks >= round_cap(c):
        return
    if afraid_of(st, c, attacker):
        return  # [Frightened] (A31)
    if c.STA.cur < _COST and not st.options.allow_overspend:
        return
    run.emit(
        OpportunityOffered(
            window=OpportunityWindow(
                provoker=attacker, trigger="parry", reactors=(parrier,), offered=(parrier,)
            ),
            reason=f"{parrier} parried {attacker}'s attack",
        )
    )


def offer_for_attack(run: Run, a: Char, cmd: Attack, kind: str, area: str | None) -> bool:
    """Triggers (b) and (c): open the window before the attack is rolled; True if opened."""
    st = run.state
    if kind == "melee" or (kind == "spell" and area in ("blast", "close_burst")):
        return False
    reactors = eligible(st, a, a.pos, None)
    if not reactors:
        return False
    run.emit(
        OpportunityOffered(
            window=OpportunityWindow(
                provoker=a.id,
                trigger="ranged" if kind == "ranged" else "spell",
                reactors=reactors,
                attack=ResumeAttack(
                    weapon=cmd.weapon,
                    target=cmd.target,
                    square=cmd.square,
                    direction=cmd.direction,
                    pool=cmd.pool,
                    throw=cmd.throw,
                    finisher=cmd.finisher,
                    sections=tuple((q[0], q[1]) for q in cmd.sections),
                ),
            ),
            reason=f"{a.id} makes a {kind} attack next to {', '.join(reactors)}",
        )
    )
    return True


def opportunity_attack(run: Run, cmd: OpportunityAttack, dice: Dice) -> None:
    from domain.rulesets.tactical.attack_record import single
    from domain.rulesets.tactical.weapons import weapon_of

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
    weapon = cmd.weapon or _melee_in_hand(st, c)
    if weapon is None or weapon not in (c.main_hand, c.off_hand):
        raise RuleViolation(f"{c.id} wields no melee weapon", rule=R_STAMINA_ACTIONS)
    wp = weapon_of(st, c, weapon)
    if wp.kind != "melee":
        raise RuleViolation("an opportunity attack is a melee attack", rule=R_STAMINA_ACTIONS)
    t = st.chars[w.provoker]
    also = None
    if cmd.dual:  # A64: dual wielding "also allowed for opportunity attacks": one target
        from domain.rulesets.tactical.dual import pair

        wp, also = pair(st, c)
    attack = Attack(character=c.id, weapon=wp.id, target=t.id)
    parry = w.trigger == "parry"
    single(
        run, attack, dice, c, wp, "opportunity", _COST, t, t.pos, unseen=False,
        after_parry=parry, also=also, dual=cmd.dual,
    )  # fmt: skip
    maybe_resume(run, dice)


def decline(run: Run, cid: str, dice: Dice) -> None:
    w = run.state.opportunity
    if w is None or cid not in w.reactors:
        raise RuleViolation(f"{cid} has nothing to answer", rule=R_STAMINA_ACTIONS)
    run.emit(OpportunityDeclined(character=cid))
    maybe_resume(run, dice)


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


def maybe_resume(run: Run, dice: Dice) -> None:
    """Once every reactor has answered (and no attack waits), the provoking action goes on."""
    st = run.state
    w = st.opportunity
    if w is None or w.reactors or st.pending is not None or st.phase != "combat":
        return
    run.emit(OpportunityClosed(provoker=w.provoker))
    p = run.state.chars[w.provoker]
    if w.trigger == "parry":
        return
    why = _stopped(p, w)
    if why is not None:  # A59: the provoking action ends where it provoked
        charge = w.attack is not None and w.attack.charge
        run.emit(
            ActionInterrupted(
                character=p.id,
                action="charge" if charge else "move" if w.trigger == "move" else "attack",
                square=p.pos,
                reason=why,
                rule=R_STAMINA_ACTIONS,
                hidden_side=p.side if w.trigger == "move" and p.has("invisible") else None,
            )
        )
        return
    if w.trigger == "move":
        first = Moved(
            character=p.id,
            mode=w.mode,  # type: ignore[arg-type]
            path=(),
            cost=0,
            move_action=False,
            hidden_side=p.side if p.has("invisible") else None,  # as its first part
        )
        from domain.rulesets.tactical.walking import walk

        costs = w.rest_costs if len(w.rest_costs) == len(w.rest) else None  # older windows
        walk(run, first, list(w.rest), dice, w.offered, w.attack, costs)
        return
    assert w.attack is not None
    r = w.attack
    from domain.rulesets.tactical.decide import resume_attack

    resume_attack(
        run,
        Attack(
            character=p.id,
            weapon=r.weapon,
            target=r.target,
            square=r.square,
            direction=r.direction,  # type: ignore[arg-type]
            pool=r.pool,
            throw=r.throw,
            finisher=r.finisher,
            sections=tuple((q[0], q[1]) for q in r.sections),
        ),
        dice,
    )
