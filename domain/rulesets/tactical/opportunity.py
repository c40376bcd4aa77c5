"""[Stamina Actions] Opportunity Attack (3 STA, reaction) of seed 002: its three triggers,
the window in which the adjacent enemies answer, and the provoking action going on after.

Triggers, by an adjacent enemy: (a) it moves to a square not adjacent to you (a shift
does not provoke); (b) it uses a ranged attack; (c) it makes a spell attack without the
blast or close burst attribute. A59: the opportunity attack resolves before the trigger
completes: the mover is still in the square it leaves, the attack is not yet rolled.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import Attack, OpportunityAttack
from domain.rulesets.tactical.conditions import can_react
from domain.rulesets.tactical.events import (
    CharacterDamaged,
    Moved,
    OpportunityClosed,
    OpportunityDeclined,
    OpportunityOffered,
)
from domain.rulesets.tactical.geometry import adjacent
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.pools import after_loss, check_end
from domain.rulesets.tactical.records import OpportunityWindow, ResumeAttack
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
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
    "walk",
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
            if away is not None and (away == sq or adjacent(sq, away)):
                continue
            if _melee_in_hand(state, c) is None or can_react(state, c) is not None:
                continue
            if c.attacks >= round_cap(c) and state.options.oa_counts_to_cap:
                continue
            if c.STA.cur < _COST and not state.options.allow_overspend:
                continue
            out.append(cid)
    return tuple(out)


def _broken(run: Run, cid: str, squares: int) -> None:
    """[Broken]: 1 HEA and 1 STA a square moved; this damage cannot be reduced."""
    c = run.state.chars[cid]
    if not squares or not c.has("broken"):
        return
    run.emit(
        CharacterDamaged(
            character=cid,
            pool="HEA",
            amount=squares,
            sta_amount=squares,
            reason=f"broken: {squares} squares moved",
            rule=R_CONDITIONS,
        )
    )
    after_loss(run, cid, "HEA", c.HEA.cur, "broken")
    after_loss(run, cid, "STA", c.STA.cur, "broken")


def walk(
    run: Run,
    first: Moved,
    path: list[Square],
    dice: Dice,
    skip: tuple[str, ...] = (),
    then: ResumeAttack | None = None,
) -> None:
    """Emit the move in parts: each stops where a step provokes an opportunity attack.

    At its end a grappler drags its grappled foe ([Grappled]) and a Charge strikes (`then`).
    """
    st = run.state
    mover = st.chars[first.character]
    prev = mover.pos
    if first.mode not in ("shift", "push", "drag"):
        for k, sq in enumerate(path):
            reactors = eligible(st, mover, prev, sq, skip)
            if reactors:
                run.emit(replace(first, path=tuple(path[:k])))
                _broken(run, mover.id, k)
                run.emit(
                    OpportunityOffered(
                        window=OpportunityWindow(
                            provoker=mover.id,
                            trigger="move",
                            reactors=reactors,
                            offered=(*skip, *reactors),
                            mode=first.mode,
                            rest=tuple(path[k:]),
                            attack=then,
                        ),
                        reason=f"{mover.id} leaves {list(prev)} for {list(sq)}",
                    )
                )
                return
            prev = sq
    run.emit(replace(first, path=tuple(path)))
    _broken(run, mover.id, len(path))
    if path and first.mode not in ("push", "drag"):
        _drag(run, mover, [mover.pos, *path])
    check_end(run)
    if then is not None and run.state.phase == "combat" and not run.state.chars[mover.id].down:
        from domain.rulesets.tactical.maneuvers import strike

        strike(run, mover.id, then, dice)


def _drag(run: Run, mover: Char, squares: list[Square]) -> None:
    """[Grappled]: the grappler drags its grappled foe into the square it left last (A32)."""
    for c in run.state.chars.values():
        g = c.condition("grappled")
        if g is not None and g.source == mover.id and not c.dead:
            run.emit(
                Moved(
                    character=c.id,
                    mode="drag",
                    path=(squares[-2],),
                    cost=0,
                    move_action=False,
                )
            )
            return


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
    attack = Attack(character=c.id, weapon=weapon, target=t.id)
    parry = w.trigger == "parry"
    single(
        run, attack, dice, c, wp, "opportunity", _COST, t, t.pos, unseen=False, after_parry=parry
    )
    maybe_resume(run, dice)


def decline(run: Run, cid: str, dice: Dice) -> None:
    w = run.state.opportunity
    if w is None or cid not in w.reactors:
        raise RuleViolation(f"{cid} has nothing to answer", rule=R_STAMINA_ACTIONS)
    run.emit(OpportunityDeclined(character=cid))
    maybe_resume(run, dice)


def maybe_resume(run: Run, dice: Dice) -> None:
    """Once every reactor has answered (and no attack waits), the provoking action goes on."""
    st = run.state
    w = st.opportunity
    if w is None or w.reactors or st.pending is not None or st.phase != "combat":
        return
    run.emit(OpportunityClosed(provoker=w.provoker))
    p = run.state.chars[w.provoker]
    if p.down or p.has("immobilized") or p.has("grappled"):
        return  # the provoker fell (or was held): its action ends here
    if w.trigger == "parry":
        return
    if w.trigger == "move":
        first = Moved(character=p.id, mode=w.mode, path=(), cost=0, move_action=False)  # type: ignore[arg-type]
        walk(run, first, list(w.rest), dice, w.offered, w.attack)
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
        ),
        dice,
    )
