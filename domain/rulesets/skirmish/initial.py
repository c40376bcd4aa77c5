"""initial_state and is_over for seed 000: validate a setup and build the first state."""

from __future__ import annotations

from domain.errors import InvalidSetup
from domain.rulesets.skirmish.model import Board, Force, Setup, State
from domain.rulesets.skirmish.options import STRATEGIES, Options
from domain.rulesets.skirmish.rules import R_SETUP

__all__ = ["initial_state", "is_over"]


def initial_state(setup: Setup, options: Options) -> State:
    """Setup step "leaders"; raises InvalidSetup for an inconsistent setup."""
    ids = [s.id for s in setup.sides]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise InvalidSetup("a skirmish needs at least two distinct forces", rule=R_SETUP)
    if {s.home for s in setup.sides} != {"north", "south"}:
        raise InvalidSetup("the forces must approach from the north and the south", rule=R_SETUP)
    if not (0 < setup.width <= 1000 and 0 < setup.height <= 1000):
        raise InvalidSetup("the map must be 1..1000 squares wide and high", rule=R_SETUP)
    if options.square_feet < 1:
        raise InvalidSetup("a square needs a size", rule=R_SETUP)
    if options.default_strategy not in STRATEGIES:
        raise InvalidSetup(f"unknown default strategy {options.default_strategy!r}", rule=R_SETUP)
    if options.default_formation not in options.formations:
        raise InvalidSetup(f"unknown formation {options.default_formation!r}", rule=R_SETUP)
    missing = [s for s in STRATEGIES if s not in options.strategies]
    if missing:
        raise InvalidSetup(f"the strategy table lacks {missing}", rule=R_SETUP)
    return State(
        board=Board(options=options, width=setup.width, height=setup.height),
        forces={s.id: Force(id=s.id, home=s.home) for s in setup.sides},
    )


def is_over(state: State) -> bool:
    return state.phase == "over"
