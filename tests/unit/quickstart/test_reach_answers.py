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
