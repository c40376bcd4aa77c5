"""[Pursuit] "a unit can choose to pursue another unit that shatters while engaged with
them": two units shattered in one turn, each by a unit engaged with it, off the diagonal
(x != y). One pursuit moves its pursuer into exactly that unit's tile and ends only the
chances to pursue that unit (or the pursuer's others): the other pursuit stays open."""

from __future__ import annotations

from tests.support.warfare_kit import make, play, started, types, unit


def test_one_pursuit_enters_its_tile_and_leaves_the_other_shattered_units_pursuit_open() -> None:
    s = make(
        [unit("a1", "a", 6, 6), unit("a2", "a", 2, 4),
         unit("b1", "b", 6, 5, health_now=30), unit("b2", "b", 2, 3, health_now=30),
         unit("b9", "b", 0, 0)]
    )  # fmt: skip
    s = started(s)
    for mine, foe in (("a1", "b1"), ("a2", "b2")):
        _, s = play(s, {"type": "Engage", "unit": mine, "target": foe})
        # 10 + 5 hits defense 15: 30 -> 20 (diminished), and the morale check's 1 fails
        events, s = play(s, {"type": "Attack", "unit": mine, "target": foe}, [10, 1])
        assert "UnitShattered" in types(events)
    assert {(p.unit, p.shattered) for p in s.pursuits} == {("a1", "b1"), ("a2", "b2")}
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert s.units["a1"].tile == (6, 5) and s.occupied[(6, 5)] == "a1"
    assert [(p.unit, p.shattered) for p in s.pursuits] == [("a2", "b2")]
    _, s = play(s, {"type": "Pursue", "unit": "a2", "shattered": "b2"})
    assert s.units["a2"].tile == (2, 3) and s.occupied[(2, 3)] == "a2"
    assert s.pursuits == ()
