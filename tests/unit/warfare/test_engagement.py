"""[Facing] and [Engagement] of seed 003: facing a single tile (eight directions, or four),
the one free facing change before the action, engaging (free, needs facing), breaking
away (a free attack from every engaged unit), disengaging (the action), and the rule
for more than two engaged units."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.events import AttackResolved, Disengaged, UnitMoved
from domain.rulesets.warfare.geometry import faces
from tests.support.warfare_kit import make, play, started, types, unit


def test_eight_facings_each_cover_one_sector() -> None:
    assert faces((5, 5), "N", (5, 4)) and faces((5, 5), "N", (6, 2))  # 1 across, 3 up
    assert not faces((5, 5), "N", (6, 4))  # that tile is NE's
    assert faces((5, 5), "NE", (6, 4)) and faces((5, 5), "NE", (7, 3))
    assert not faces((5, 5), "N", (5, 6)) and not faces((5, 5), "N", (5, 5))


def test_four_facings_cover_a_quarter_with_its_edges() -> None:
    assert faces((5, 5), "N", (6, 4), 4) and faces((5, 5), "E", (6, 4), 4)
    assert not faces((5, 5), "N", (7, 4), 4) and faces((5, 5), "E", (7, 4), 4)


def _line(options: dict | None = None, **a1: object):
    s = make([unit("a1", "a", 5, 6, **a1), unit("b1", "b", 5, 5), unit("b2", "b", 6, 6)],
             options=options)  # fmt: skip
    return started(s)


def test_engaging_needs_facing_and_reach() -> None:
    s = _line()
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Engage", "unit": "a1", "target": "b2"})  # b2 is to the east
    # [Engagement] "(free action, requires facing)": [Facing] speaks of attacking only
    assert refused.value.rule == "003 Unit Actions / Engagement"
    events, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    assert types(events) == ["Engaged"]
    assert s.units["a1"].engaged == ("b1",) and s.units["b1"].engaged == ("a1",)


def test_a_melee_attack_needs_an_engagement_unless_the_option_says_adjacency() -> None:
    with pytest.raises(RuleViolation) as refused:
        play(_line(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Engagement"
    events, _ = play(_line({"melee_needs_engagement": False}),
                     {"type": "Attack", "unit": "a1", "target": "b1"}, [10])  # fmt: skip
    assert isinstance(events[0], AttackResolved) and events[0].melee


def test_one_free_facing_change_a_round_before_the_action() -> None:
    s = _line()
    events, s = play(s, {"type": "Face", "unit": "a1", "facing": "E"})
    assert s.units["a1"].facing == "E" and events[0].before == "N"  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Face", "unit": "a1", "facing": "N"})
    assert refused.value.rule == "003 Unit Actions / Facing"
    s = _line({"melee_needs_engagement": False})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    with pytest.raises(RuleViolation):
        play(s, {"type": "Face", "unit": "a1", "facing": "E"})


def test_four_facings_refuse_a_diagonal() -> None:
    with pytest.raises(RuleViolation):
        play(_line({"facing_directions": 4}), {"type": "Face", "unit": "a1", "facing": "NE"})


def test_moving_keeps_the_facing_unless_the_option_turns_the_unit() -> None:
    _, s = play(_line(), {"type": "Move", "unit": "a1", "to": [3, 8]})
    assert s.units["a1"].facing == "N" and s.units["a1"].tile == (3, 8)
    _, s = play(_line({"move_turns_unit": True}), {"type": "Move", "unit": "a1", "to": [3, 8]})
    assert s.units["a1"].facing == "SW"


def test_breaking_away_draws_a_free_attack_from_every_engaged_unit() -> None:
    s = _line()
    _, s = play(s, {"type": "Face", "unit": "a1", "facing": "E"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b2"})
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [3, 9]}, [10])
    # "as they break away": the free attack lands while still engaged, then they end
    assert types(events) == ["AttackResolved", "EngagementsBroken", "UnitMoved"]
    free = events[0]
    assert isinstance(free, AttackResolved) and free.kind == "free" and free.attacker == "b2"
    assert s.units["a1"].engaged == () and s.units["b2"].engaged == ()


def _surrounded(n: int):
    """a1 at (5, 5) engaged with n units of b around it (each engages it on b's turn)."""
    spots = [(5, 4), (6, 5), (4, 5), (5, 6)][:n]
    facing = {(5, 4): "S", (6, 5): "W", (4, 5): "E", (5, 6): "N"}
    units = [unit("a1", "a", 5, 5)] + [
        unit(f"b{i}", "b", x, y, facing=facing[(x, y)]) for i, (x, y) in enumerate(spots, 1)
    ]
    s = started(make(units), first="b")
    for i in range(1, n + 1):
        _, s = play(s, {"type": "Engage", "unit": f"b{i}", "target": "a1"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    assert s.active == "a" and len(s.units["a1"].engaged) == n
    return s


def test_disengaging_takes_the_action_and_draws_no_free_attack_from_two() -> None:
    s = _surrounded(2)
    events, s = play(s, {"type": "Disengage", "unit": "a1"})
    assert types(events) == ["Disengaged"] and s.units["a1"].acted
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 8]})
    assert types(events) == ["UnitMoved"]
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert refused.value.rule == "003 Unit Actions / Actions"


def test_engaged_with_more_than_two_all_but_the_two_chosen_attack_even_on_disengaging() -> None:
    s = _surrounded(4)
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Disengage", "unit": "a1"})
    assert refused.value.rule == "003 Unit Actions / Engagement"
    events, s = play(s, {"type": "Disengage", "unit": "a1", "spared": ["b1", "b4"]}, [2, 2])
    d = events[-1]  # after the free attacks, which land while a1 is still engaged
    assert isinstance(d, Disengaged) and d.attackers == ("b2", "b3")
    attackers = [e.attacker for e in events if isinstance(e, AttackResolved)]
    assert attackers == ["b2", "b3"]
    assert all(e.kind == "free" for e in events if isinstance(e, AttackResolved))


def test_moving_away_from_more_than_two_draws_a_free_attack_from_all() -> None:
    s = _surrounded(3)
    events, _ = play(s, {"type": "Move", "unit": "a1", "to": [4, 6]}, [2, 2, 2])
    assert [e.attacker for e in events if isinstance(e, AttackResolved)] == ["b1", "b2", "b3"]
    assert isinstance(events[-1], UnitMoved)


def test_a_move_is_within_speed_and_around_units() -> None:
    s = _line()
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [5, 11]})  # 5 tiles, speed 4
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [5, 4], "path": [[5, 5], [5, 4]]})
    events, s = play(s, {"type": "Move", "unit": "a1", "to": [5, 3]})  # around b1
    assert len(events[0].path) == 3  # type: ignore[union-attr]
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [5, 2]})  # one move a round


def test_w03_with_four_facings_a_diagonal_last_step_faces_north_or_south() -> None:
    options = {"move_turns_unit": True, "facing_directions": 4}
    for to, path, facing in (
        ([6, 5], None, "N"),  # a north-east step
        ([4, 7], None, "S"),  # a south-west step
        ([7, 6], [[6, 5], [7, 6]], "S"),  # the last step decides: south-east
        ([7, 6], [[6, 6], [7, 6]], "E"),
    ):
        s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 0, 0)], options=options))
        _, s = play(s, {"type": "Move", "unit": "a1", "to": to, "path": path})
        assert s.units["a1"].facing == facing, (to, path)


def test_w02_four_facings_are_90_degrees_wide_their_edges_included() -> None:
    """W02 (four directions): of the eight tiles around it, a unit faces the one its facing
    points at and the two diagonals at the quarter's edges; never its own tile."""
    at = (5, 5)
    around = [(x, y) for x in (4, 5, 6) for y in (4, 5, 6) if (x, y) != at]
    quarter = {
        "N": {(5, 4), (4, 4), (6, 4)},
        "S": {(5, 6), (4, 6), (6, 6)},
        "E": {(6, 5), (6, 4), (6, 6)},
        "W": {(4, 5), (4, 4), (4, 6)},
    }
    for facing, tiles in quarter.items():
        assert {t for t in around if faces(at, facing, t, 4)} == tiles, facing
        assert not faces(at, facing, at, 4)


def test_w06_only_the_engaged_units_facing_it_take_a_free_attack_as_it_breaks_away() -> None:
    for needs_facing, attackers in ((True, ["b1"]), (False, ["b1", "b2"])):
        s = make(
            [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 4, 5, facing="N")],
            options={"facing_directions": 4, "free_attack_needs_facing": needs_facing},
        )
        s = started(s)
        for target in ("b1", "b2"):
            _, s = play(s, {"type": "Engage", "unit": "a1", "target": target})
        events, _ = play(s, {"type": "Move", "unit": "a1", "to": [5, 7]}, [1] * len(attackers))
        free = [e.attacker for e in events if isinstance(e, AttackResolved)]
        assert free == attackers and types(events)[-1] == "UnitMoved"


def test_w06_a_unit_not_facing_it_engaged_first_does_not_spare_it_the_next_ones_attack() -> None:
    """W06 (free attacks need facing): b2, engaged first, does not face a1 and takes no free
    attack; b1, engaged after it and facing a1, still does as a1 breaks away."""
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 4, 5, facing="N")],
        options={"facing_directions": 4, "free_attack_needs_facing": True},
    )
    s = started(s)
    for target in ("b2", "b1"):
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": target})
    events, _ = play(s, {"type": "Move", "unit": "a1", "to": [5, 7]}, [1])
    assert [e.attacker for e in events if isinstance(e, AttackResolved)] == ["b1"]
