"""Walking a move of seed 002 ([Move Actions]) square by square: it stops where a step
provokes opportunity attacks ([Stamina Actions] trigger (a), A59: the mover is still in
the square it leaves) and goes on once they are answered; [Broken] costs 1 HEA and 1 STA a
square; a grappler drags its foe ([Grappled], A32); a creature the mover cannot see stops
it short (hidden.py). A Charge strikes at its end: `walk` hands the strike back to its
caller (maneuvers.charge, or resume.py after opportunity attacks), which makes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from domain.rulesets.tactical.events import (
    ActionInterrupted,
    CharacterDamaged,
    CharacterRevealed,
    Moved,
    OpportunityOffered,
)
from domain.rulesets.tactical.hidden import first_unseen, last_free
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import square_hidden
from domain.rulesets.tactical.opportunity import eligible
from domain.rulesets.tactical.pools import after_loss, check_end
from domain.rulesets.tactical.records import OpportunityWindow, ResumeAttack
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_TOTAL_CONCEALMENT,
    Run,
)

__all__ = ["walk"]


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


def _toward_unseen(st: State, then: ResumeAttack | None) -> bool:
    """A Charge at an invisible foe its side perceived, whose square the others may not
    know (0.5.0; RULINGS hidden_opportunity `none`): its way is its side's (its last three
    steps run straight at the foe), and a window on it would name the squares still to
    enter; none opens, as none opens between a perceiver and the foe it perceived."""
    if then is None or not then.charge or st.options.hidden_opportunity != "none":
        return False
    t = st.chars.get(then.target or "")
    return t is not None and square_hidden(t)


def walk(
    run: Run,
    first: Moved,
    path: list[Square],
    skip: tuple[str, ...] = (),
    then: ResumeAttack | None = None,
    costs: Sequence[int] | None = None,
) -> ResumeAttack | None:
    """Emit the move in parts: each stops where a step provokes an opportunity attack.

    `costs` are what entering each square of `path` costs (1 each unless given); each
    part's `cost` is `first.cost` (standing up, on the first part only) plus its squares',
    so the parts of a move that stopped add up to the movement it used, not what it planned.
    At its end a grappler drags its grappled foe ([Grappled]); a Charge's strike (`then`)
    is returned when it is due now (the move is done, the combat goes on, the mover
    stands), for the caller to make (maneuvers.strike); None otherwise.
    """
    steps = list(costs) if costs is not None else [1] * len(path)
    st = run.state
    mover = st.chars[first.character]
    prev = mover.pos
    met = None if first.mode in ("push", "drag") else first_unseen(st, mover, path)
    stop = len(path) if met is None else last_free(st, mover, path, met[0])
    if first.mode not in ("shift", "push", "drag") and not _toward_unseen(st, then):
        for k, sq in enumerate(path[:stop]):
            reactors = eligible(st, mover, prev, sq, skip)
            if reactors:
                run.emit(replace(first, path=tuple(path[:k]), cost=first.cost + sum(steps[:k])))
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
                            rest_costs=tuple(steps[k:]),
                            attack=then,
                        ),
                        reason=f"{mover.id} leaves {list(prev)} for {list(sq)}",
                    )
                )
                return None  # the window records `then`: resume.py goes on from there
            prev = sq
    walked = path[:stop]
    run.emit(replace(first, path=tuple(walked), cost=first.cost + sum(steps[:stop])))
    _broken(run, mover.id, len(walked))
    if walked and first.mode not in ("push", "drag"):
        _drag(run, mover, [mover.pos, *walked])
    if met is not None:
        _met(run, first, path[met[0]], met[1], then)
        check_end(run)
        return None
    check_end(run)
    if then is not None and run.state.phase == "combat" and not run.state.chars[mover.id].down:
        return then
    return None


def _met(run: Run, first: Moved, sq: Square, hid: str, then: ResumeAttack | None) -> None:
    """hidden.py: the mover met a creature it could not see in `sq` and stopped short."""
    mover = run.state.chars[first.character]
    reason = f"{mover.id} runs into {hid}, unseen in {list(sq)}"
    run.emit(
        CharacterRevealed(
            character=hid,
            square=sq,
            by=mover.id,
            reason=reason,
            rule=R_TOTAL_CONCEALMENT,
            hidden_side=first.hidden_side,
            glimpse_ends_with_turn=True,  # §4 (0.3.0)
        )
    )
    run.emit(
        ActionInterrupted(
            character=mover.id,
            action="charge" if then is not None and then.charge else "move",
            square=mover.pos,
            reason=reason,
            rule=R_TOTAL_CONCEALMENT,
            hidden_side=first.hidden_side,
        )
    )


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
