"""What `reach` answers (seed 001, "001 Combat phases / 2. Action Phase"; RULINGS.md,
"Reach"): a squad the asker cannot see is unknown, named in the refusal; a squad that may
not move now is answered with no movement and decide's reason, under its own id."""

from __future__ import annotations

import pytest

from domain.errors import UnknownEntity
from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_testkit import REF, make, run, sq, to_action


def test_an_unknown_squad_is_refused_by_name() -> None:
    s = to_action(
        make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 9, 9)])
    )
    with pytest.raises(UnknownEntity) as refused:
        RULESET.reach(s, REF, "zz")
    assert refused.value.reason == "no squad 'zz' (or it was destroyed)"
    assert refused.value.context == {"squad": "zz"}


def test_a_squad_that_may_not_move_is_answered_under_its_id_with_the_reason() -> None:
    s = to_action(
        make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 9, 9)])
    )
    s, _ = run(s, "EndStep")  # the combats step: no moves
    got = RULESET.reach(s, REF, "n")
    assert (got.unit, got.command, got.movement, got.squares) == ("n", "MoveSquad", 0, [])
    assert got.reason == "squads move before combats are resolved"


@pytest.mark.parametrize(
    ("at", "others"),
    [
        ((8, 8), [(0, 8), (8, 0), (1, 1)]),  # beyond its speed to the left and above
        ((2, 2), [(9, 2), (2, 9), (9, 9)]),  # ... to the right and below
    ],
)
def test_only_the_squares_within_the_speed_are_listed_or_excluded(
    at: tuple[int, int], others: list[tuple[int, int]]
) -> None:
    # n, a soldier (speed 6), and squads of its side 7 squares away: beyond its reach
    squads = [
        sq("n", "north", "soldier", 2, *at),
        *(sq(f"o{i}", "north", "soldier", 1, x, y) for i, (x, y) in enumerate(others)),
        sq("s", "south", "soldier", 2, 11, 11),
    ]
    got = RULESET.reach(to_action(make(squads)), REF, "n")
    assert (got.unit, got.command, got.movement) == ("n", "MoveSquad", 6)
    # each square of the 12 x 12 field within 6 of n (but its own) is listed or excluded,
    # and no other
    x, y = at
    box = {(a, b) for a in range(12) for b in range(12) if max(abs(a - x), abs(b - y)) <= 6}
    told = [(q.x, q.y) for q in got.squares] + [(e.x, e.y) for e in got.excluded]
    assert sorted(told) == sorted(box - {at})
