"""[Stamina Actions] Opportunity Attack (3 STA, reaction) of seed 002: its three triggers
and the window they open, in which the adjacent enemies answer. The window is data (the
state's `opportunity`, an OpportunityWindow): answering it is opportunity_attack.py,
the provoking action going on once it closes is resume.py.

Triggers, by an adjacent enemy: (a) it moves to a square not adjacent to you (a shift
does not provoke); (b) it uses a ranged attack; (c) it makes a spell attack without the
blast or close burst attribute. A59: the opportunity attack resolves before the trigger
completes: the mover is still in the square it leaves, the attack is not yet rolled.
"""

from __future__ import annotations

from domain.rulesets.tactical.commands import Attack
from domain.rulesets.tactical.conditions import as_foes_judge, can_react
from domain.rulesets.tactical.events import OpportunityOffered
from domain.rulesets.tactical.fear import afraid_of
from domain.rulesets.tactical.geometry import adjacent
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import square_hidden, totally_concealed
from domain.rulesets.tactical.records import OpportunityWindow, ResumeAttack
from domain.rulesets.tactical.rules import Run, hostile, round_cap

__all__ = [
    "OA_COST",
    "eligible",
    "melee_in_hand",
    "offer_after_parry",
    "offer_for_attack",
    "out_of_sight",
]

OA_COST = 3  # [Stamina Actions] Opportunity Attack (3 STA)


def melee_in_hand(state: State, c: Char) -> str | None:
    """The melee weapon `c` holds, if any: an opportunity attack is made with one."""
    items = state.board.items
    for i in (c.main_hand, c.off_hand):
        if i is not None and i in items and items[i].category == "melee":
            return i
    return None


def out_of_sight(state: State, a: Char, b: Char) -> bool:
    """RULINGS hidden_opportunity `none`: no window between `a` and `b` when either cannot
    see the other, nor when either stands where some reader may not know (an invisible
    creature a side perceived, [Targeting What You Can't See §1], is still unseen by the
    others): the window is public (its offer names both, the mover stops where it
    provokes, the view's `opportunity`) and would tell the others its square."""
    if state.options.hidden_opportunity != "none":
        return False
    if square_hidden(a) or square_hidden(b):
        return True
    return totally_concealed(state, a, b) or totally_concealed(state, b, a)


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
            # the window is public: not by an invisible reactor's STA or drain
            c = as_foes_judge(state.chars[cid])
            if not hostile(state, c, provoker):
                continue
            if out_of_sight(state, provoker, c):
                continue  # RULINGS hidden_opportunity: no window tells a side what it cannot see
            if away is not None and (away == sq or adjacent(sq, away)):
                continue
            if melee_in_hand(state, c) is None or can_react(state, c) is not None:
                continue
            if afraid_of(state, c, provoker.id):
                continue  # [Frightened]: it cannot attack what frightens it (A31)
            if c.attacks >= round_cap(c) and state.options.oa_counts_to_cap:
                continue
            if c.STA.cur < OA_COST and not state.options.allow_overspend:
                continue
            out.append(cid)
    return tuple(out)


def offer_after_parry(run: Run, parrier: str, attacker: str) -> None:
    """[Parry]: "you may make an opportunity attack against the target" (A13: outside the
    one-reaction limit; still 3 STA, a melee weapon in hand, the attack cap)."""
    st = run.state
    c = as_foes_judge(st.chars[parrier])  # as eligible: not by an invisible parrier's STA
    a = st.chars[attacker]
    if st.opportunity is not None or a.down or c.down or not adjacent(c.pos, a.pos):
        return
    if melee_in_hand(st, c) is None or c.attacks >= round_cap(c):
        return
    if afraid_of(st, c, attacker):
        return  # [Frightened] (A31)
    if c.STA.cur < OA_COST and not st.options.allow_overspend:
        return
    if out_of_sight(st, a, c):
        # RULINGS hidden_opportunity, as for the other triggers (eligible): the window
        # would name an unseen attacker whose square the parrier's side cannot know, and
        # whether its attack is taken would depend on that square (issue 34)
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
