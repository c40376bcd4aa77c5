"""[Wall] of seed 002: a wall power places its sections (the shape checked by areas.py:
orthogonal, continuous, no section next to three others, A61), each in an unoccupied
square; sections with no valid placement left are discarded. The wall is a structure
that blocks movement and sight, with the power's STH. A section discarded on a creature
the caster could not see reveals it (RULINGS, hidden creatures).
"""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.rulesets.tactical.areas import place_wall, wall_problem
from domain.rulesets.tactical.events import CharacterRevealed, WallRaised
from domain.rulesets.tactical.hidden import unseen_squares
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.rules import Run
from domain.rulesets.tactical.squares import SquareTest

__all__ = ["R_WALL", "check_wall", "raise_wall"]

R_WALL = "002 Ranges / Wall"


def check_wall(
    power: str, sections: int, requested: list[Square], *, no_loops: bool = False
) -> None:
    """The requested shape ([Wall], A61): refused before anything happens (and before the
    opportunity attacks it provokes), whoever stands where. `no_loops`: option
    `wall_no_loops`, a wall that closes on itself is refused."""
    if not requested:
        raise RuleViolation("name the wall's sections, the origin first", rule=R_WALL)
    if len(requested) > sections:
        raise RuleViolation(f"{power} places {sections} sections", rule=R_WALL)
    problem = wall_problem(requested, no_loops=no_loops)
    if problem is not None:
        raise RuleViolation(problem, rule=R_WALL)


def raise_wall(
    run: Run,
    a: Char,
    power: str,
    sections: int,
    requested: list[Square],
    action: str,
    sta: int,
    wil: int,
    sth: int,
) -> None:
    st: State = run.state
    check_wall(power, sections, requested, no_loops=st.options.wall_no_loops)
    w, h = st.board.width, st.board.height

    def free(sq: Square) -> bool:
        return (
            0 <= sq[0] < w
            and 0 <= sq[1] < h
            and sq not in st.occupied
            and sq not in st.built
            and sq not in st.board.blocks_move
        )

    placed, discarded = place_wall(requested, SquareTest(free))
    run.emit(
        WallRaised(
            attacker=a.id,
            power=power,
            structure=f"wall{len(st.structures) + 1}",
            squares=tuple(placed),
            discarded=tuple(discarded),
            sth=max(sth, 1),
            action=action,
            sta_spent=sta,
            wil_spent=wil,
        )
    )
    # a section discarded on a creature the caster could not see: the wall met it there,
    # and it is revealed (as a mover meeting it is, hidden.py); nothing else tells
    unseen = unseen_squares(st, a)
    for sq in discarded:
        if sq in unseen:
            hid = st.occupied[sq]
            run.emit(
                CharacterRevealed(
                    character=hid,
                    square=sq,
                    by=a.id,
                    reason=f"{a.id}'s wall meets {hid}, unseen in {list(sq)}",
                    rule=R_WALL,
                    glimpse_ends_with_turn=True,  # §4 (0.3.0)
                )
            )
