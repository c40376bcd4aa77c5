"""The step order the search for a path as short as the distance tries first
(grid._toward): for each heading, the steps that bring the goal closer first. It changes
only how soon the search finds its path, not its answer (tests/unit/quickstart/
test_path_cost_straight.py), so it shows only here; the table is built once, at import,
where a mutation run's mutant is not yet in force."""

from __future__ import annotations

from domain.rulesets.quickstart import grid

HEADINGS = {(sx, sy) for sx in (-1, 0, 1) for sy in (-1, 0, 1)}


def test_each_heading_lists_every_step_those_heading_that_way_first() -> None:
    for eight, steps in ((True, grid._EIGHT), (False, grid._FOUR)):
        table = grid._toward(eight)
        assert set(table) == HEADINGS
        for (sx, sy), order in table.items():
            assert sorted(order) == sorted(steps)
            toward = [dx * sx + dy * sy for dx, dy in order]
            assert toward == sorted(toward, reverse=True), ((sx, sy), order)
        assert grid._TOWARD[eight] == table


def test_the_step_straight_at_the_goal_is_tried_first_then_the_others_in_their_order() -> None:
    eight = grid._toward(True)
    assert eight[(1, 1)][0] == (1, 1) and eight[(-1, 0)][0] == (-1, 0)
    assert eight[(-1, 1)][:3] == ((-1, 1), (-1, 0), (0, 1))
    # a tie keeps the steps' own order (a stable sort)
    assert eight[(0, 0)] == grid._EIGHT
    assert grid._toward(False)[(1, -1)] == ((1, 0), (0, -1), (-1, 0), (0, 1))
