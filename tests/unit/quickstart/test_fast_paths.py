"""The cheap first tries of the grid searches and combat reach (seed 001) agree with the
plain definitions: the walk along the plainest shortest path, flood_to's target set,
and the inline reach test of attack."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.rulesets.quickstart.combat import reaches
from domain.rulesets.quickstart.grid import Pos, adjacent, distance, flood_to, path_cost
from domain.rulesets.quickstart.initial import initial_state
from domain.rulesets.quickstart.model import Setup, SquadKind, SquadSetup
from domain.rulesets.quickstart.options import Options
from tests.unit.quickstart.test_grid import _reference_flood, _reference_path_cost


@st.composite
def _sparse(draw: st.DrawFn) -> tuple[int, int, bool, set[Pos], Pos, Pos]:
    """Open boards with a few obstacles: the plainest path is mostly free."""
    width, height = draw(st.integers(1, 14)), draw(st.integers(1, 14))
    square = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    blocked = draw(st.sets(square, max_size=6))
    return width, height, draw(st.booleans()), blocked, draw(square), draw(square)


@settings(max_examples=500)
@given(_sparse(), st.integers(0, 16))
def test_path_cost_on_open_boards_is_the_breadth_first_distance(
    board: tuple[int, int, bool, set[Pos], Pos, Pos], limit: int
) -> None:
    width, height, eight, blocked, start, goal = board
    args = (start, goal, blocked, width, height, eight, limit)
    assert path_cost(*args) == _reference_path_cost(*args)


def test_a_blocked_plain_path_leaves_the_search_to_find_another() -> None:
    # straight along x first is blocked at (1, 0); another path of the distance exists
    assert path_cost((0, 0), (3, 1), {(1, 0)}, 5, 5, True, 3) == 3
    assert path_cost((0, 0), (2, 1), {(1, 0)}, 5, 5, False, 3) == 3  # staircase via y
    assert path_cost((0, 0), (2, 0), {(1, 0)}, 5, 5, False, 6) == 4  # round the block


@settings(max_examples=300)
@given(_sparse(), st.sets(st.tuples(st.integers(-1, 14), st.integers(-1, 14)), max_size=4))
def test_flood_to_a_set_is_flood_with_its_membership(
    board: tuple[int, int, bool, set[Pos], Pos, Pos], targets: set[Pos]
) -> None:
    width, height, eight, blocked, start, _ = board
    blocked |= set(list(targets)[:2])  # squads are targets and obstacles at once
    found = flood_to(start, blocked, width, height, eight, targets)
    assert found == _reference_flood(start, blocked, width, height, eight, targets.__contains__)


_KINDS: list[SquadKind] = ["soldier", "paladin", "skirmisher", "caster", "medic"]


@settings(max_examples=300)
@given(
    st.tuples(st.integers(0, 11), st.integers(0, 11)),
    st.tuples(st.integers(0, 11), st.integers(0, 11)),
    st.sampled_from(_KINDS),
    st.booleans(),
    st.integers(0, 6),
)
def test_reaches_is_base_contact_or_caster_range(
    a: Pos, t: Pos, kind: SquadKind, eight: bool, caster_range: int
) -> None:
    if a == t:
        return
    setup = Setup(
        sides=("north", "south"),
        squads=(
            SquadSetup(id="a", side="north", kind=kind, level=1, x=a[0], y=a[1]),
            SquadSetup(id="t", side="south", kind="soldier", level=1, x=t[0], y=t[1]),
        ),
    )
    adjacency = "eight" if eight else "orthogonal"
    state = initial_state(setup, Options(adjacency=adjacency, caster_range=caster_range))
    plain = adjacent(a, t, eight) or (kind == "caster" and distance(a, t, eight) <= caster_range)
    assert reaches(state, state.squads["a"], state.squads["t"]) == plain
