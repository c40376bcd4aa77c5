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
    # The schema bounds each field (`limits`); what spans fields is checked here, by name.
    if options.default_strategy not in STRATEGIES:
        raise InvalidSetup(
            f"options.default_strategy: unknown strategy {options.default_strategy!r}",
            rule=R_SETUP,
            field="options.default_strategy",
        )
    if options.default_formation not in options.formations:
        raise InvalidSetup(
            f"options.default_formation: {options.default_formation!r} is not in "
            "options.formations",
            rule=R_SETUP,
            field="options.default_formation",
        )
    missing = [s for s in STRATEGIES if s not in options.strategies]
    if missing:
        raise InvalidSetup(
            f"options.strategies lacks {', '.join(missing)}",
            rule=R_SETUP,
            field="options.strategies",
        )
    for name in ("one_round_tactics", "opposed_tactics"):
        unknown = [t for t in getattr(options, name) if t not in options.tactics]
        if unknown:
            raise InvalidSetup(
                f"options.{name} names tactics not in options.tactics: {unknown}",
                rule=R_SETUP,
                field=f"options.{name}",
            )
    return State(
        board=Board(options=options, width=setup.width, height=setup.height),
        forces={s.id: Force(id=s.id, home=s.home) for s in setup.sides},
    )


def is_over(state: State) -> bool:
    return state.phase == "over"
