"""A31 and A46 of the tactical reading together, `path_cost`'s refusal and a wall's loop,
the cases mutation testing found untested (issue 38): a frightened character's "towards"
is measured by the battle's metric; a walk's step must be to an adjacent square; a wall's
loop refused says why."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.areas import wall_problem
from domain.rulesets.tactical.movement import path_cost
from tests.support.tactical_kit import ch, make, play, started


@pytest.mark.parametrize(("metric", "refused"), [("manhattan", True), ("chebyshev", False)])
def test_towards_the_source_of_fear_is_measured_by_the_metric(metric: str, refused: bool) -> None:
    """[Frightened]: "unable to move towards" its source (A31: no step may bring it closer);
    a step north from (2, 3) keeps 3 squares to (5, 5) counting a diagonal as 1 (A46's
    default) but comes one closer by manhattan (4 from 5)."""
    p = ch("p", "a", 2, 3, conditions=[{"name": "frightened", "source": "g"}])
    s = make([p, ch("g", "b", 5, 5)], options={"reaction_window": "never", "metric": metric})
    s = started(s, [12, 1])
    move = {"type": "Move", "character": "p", "to": [2, 4], "path": [[2, 4]]}
    if refused:
        with pytest.raises(RuleViolation, match="p is frightened of g: no step towards it"):
            play(s, move)
    else:
        assert play(s, move)[1].chars["p"].pos == (2, 4)


def test_a_walk_of_two_squares_in_one_step_is_no_walk() -> None:
    with pytest.raises(ValueError, match=r"^\[0, 0\] to \[0, 2\] is not a step to an adjacent"):
        path_cost([(0, 0), (0, 2)])


def test_a_loop_refused_under_wall_no_loops_names_its_closing_section_and_the_option() -> None:
    """[Wall] "The wall must be continuous"; option `wall_no_loops` (RULINGS) refuses a wall
    that closes on itself, saying which section closes it and which option refuses it."""
    ring = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert wall_problem(ring, no_loops=True) == (
        "[Wall] section [0, 1] closes the wall on itself (a loop; option wall_no_loops)"
    )
    assert wall_problem(ring, no_loops=False) is None
