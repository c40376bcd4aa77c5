"""[Ranges] through the decider: an area attack's event lists the squares it covers and who
was in them, one roll against each target's own defence (A57), never the attacker's own
square for a blast, close burst or line; unseen creatures stay referee-only."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation
from domain.rulesets.tactical.access import audience
from domain.rulesets.tactical.events import AreaCovered, AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_areas import DIAGRAMS, FACING, parse


def _power(shape: str, rating: int, **kw: Any) -> dict[str, Any]:
    return {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
            "area": {"shape": shape, "rating": rating, **kw}}  # fmt: skip


def _st(power: dict[str, Any], *others: dict[str, Any]) -> State:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    s = make([p, *others], powers=[power], options={"reaction_window": "never"})
    return started(s, [12, *range(1, 1 + len(others))])


def test_close_burst_1_lists_squares_and_occupants() -> None:
    s = _st(_power("close_burst", 1), ch("g", "b", 6, 6, FOC=1), ch("h", "b", 4, 5, FOC=5),
            ch("far", "b", 9, 9))  # fmt: skip
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    area = events[0]
    assert isinstance(area, AreaCovered)
    assert len(area.squares) == 8 and (5, 5) not in area.squares
    assert set(area.occupants) == {"g", "h"}
    hits = {e.attack.target: e for e in events if isinstance(e, AttackResolved)}
    # one roll (4) against each defence: g FOC 1 -> 3 damage; h FOC 5 -> a miss
    assert hits["g"].damage == 3 and not hits["h"].hit
    assert hits["g"].attack.dice == hits["h"].attack.dice


def test_blast_needs_a_direction_and_covers_the_diagram() -> None:
    s = _st(_power("blast", 1), ch("g", "b", 5, 7), ch("far", "b", 9, 9))
    with pytest.raises(RuleViolation):
        play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    events, _ = play(
        s, {"type": "Attack", "character": "p", "weapon": "area", "direction": "N"}, [4]
    )
    assert set(events[0].squares) == {(x, y) for x in (4, 5, 6) for y in (6, 7)}
    assert events[0].occupants == ("g",)


def test_burst_origin_within_range() -> None:
    s = _st({**_power("burst", 1), "range": 4}, ch("g", "b", 9, 9))
    with pytest.raises(RuleViolation):
        play(s, {"type": "Attack", "character": "p", "weapon": "area", "square": [10, 10]}, [4])
    events, _ = play(
        s, {"type": "Attack", "character": "p", "weapon": "area", "square": [9, 8]}, [4]
    )
    assert len(events[0].squares) == 9 and events[0].occupants == ("g",)


def test_enemies_only_spares_allies() -> None:
    s = _st(_power("close_burst", 1, affects="enemies"), ch("q", "a", 6, 5), ch("g", "b", 4, 4))
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert events[0].occupants == ("g",)


def test_an_unseen_creature_in_the_area_is_referee_only_unless_hit() -> None:
    g = ch("g", "b", 6, 6, FOC=20, conditions=[{"name": "invisible"}])
    s = _st(_power("close_burst", 1), g, ch("far", "b", 9, 9))
    events, _ = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    public = [e for e in events if audience(e) == "all"]
    assert all("g" not in getattr(e, "occupants", ()) for e in public)
    assert not any(isinstance(e, AttackResolved) for e in public)
    assert [e.present for e in events if audience(e) == "referee"] == [("g",)]


@settings(max_examples=40, deadline=None)
@given(
    shape=st.sampled_from(["blast", "close_burst", "line"]),
    rating=st.integers(1, 3),
    direction=st.sampled_from(["N", "NE", "E", "SE", "S", "SW", "W", "NW"]),
)
def test_blast_close_burst_and_line_never_cover_the_attacker(
    shape: str, rating: int, direction: str
) -> None:
    s = _st(_power(shape, rating), ch("far", "b", 11, 11))
    cmd = {"type": "Attack", "character": "p", "weapon": "area", "direction": direction}
    events, _ = play(s, cmd, [1])
    area = events[0]
    assert isinstance(area, AreaCovered) and (5, 5) not in area.squares


def test_each_target_of_an_area_may_react_in_turn() -> None:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    g = ch("g", "b", 6, 5, off_hand="shield")
    h = ch("h", "b", 4, 5)
    s = make([p, g, h], powers=[_power("close_burst", 1)])
    s = started(s, [12, 2, 1])
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "area"}, [5])
    assert type(events[-1]).__name__ == "AttackDeclared" and s.pending is not None
    first = s.pending.target
    events, s = play(s, {"type": "React", "character": first, "reaction": "none"})
    assert s.pending is not None and s.pending.target != first
    second = s.pending.target
    events, s = play(s, {"type": "React", "character": second, "reaction": "dodge"}, [6])
    assert s.pending is None and not s.queue
    assert s.chars[first].STA.cur == 15  # d6 5, FOC 0: 5 STA
    assert s.chars[second].STA.cur == 20 - 6  # the dodge: 6 STA, 5 - 6 - 0 < 0: no damage
    assert s.chars["p"].attacks == 1 and s.chars["p"].STA.cur == 20


def test_a_line_covers_n_squares_in_its_direction() -> None:
    s = _st(_power("line", 3), ch("g", "b", 7, 7), ch("far", "b", 11, 11))
    events, _ = play(
        s, {"type": "Attack", "character": "p", "weapon": "area", "direction": "NE"}, [1]
    )
    assert events[0].squares == ((6, 6), (7, 7), (8, 8)) and events[0].occupants == ("g",)


@pytest.mark.parametrize(
    ("shape", "extra", "penalty"),
    [
        ("close_burst", {}, 0),
        ("blast", {"direction": "E"}, 0),
        ("burst", {"square": [7, 5]}, 0),
        ("line", {"direction": "E"}, -4),
    ],
)
def test_blast_burst_and_close_burst_take_no_minus_4_on_an_unseen_creature(
    shape: str, extra: dict[str, Any], penalty: int
) -> None:
    # [Targeting What You Can't See §3]: "Blast, burst, and close burst attacks do not suffer
    # the -4 penalty"; a line does (A56). g is invisible at (6, 5), next along E.
    g = ch("g", "b", 6, 5, conditions=[{"name": "invisible"}])
    s = _st(_power(shape, 1), g, ch("far", "b", 11, 11))
    events, after = play(s, {"type": "Attack", "character": "p", "weapon": "area", **extra}, [6])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    mods = [(m.kind, m.value) for m in hit.attack.modifiers]
    assert mods == ([("unseen_square", penalty)] if penalty else [])
    assert hit.attack.target == "g" and hit.damage == 6 + penalty
    assert after.chars["g"].STA.cur == 20 - 6 - penalty


@pytest.mark.parametrize("title", list(DIAGRAMS))
def test_every_area_diagram_through_the_decider(title: str) -> None:
    # [Blast], [Burst], [Close Burst], [Line]: given the caster where the diagram puts its 0
    # (a map the diagram's size), when it attacks with that pattern, then the area event
    # lists exactly the diagram's X squares (bursts: round the centre 4 squares away)
    (origin,), covered = parse(DIAGRAMS[title])
    name, _, rest = title.partition(",")
    kind, n = name.rsplit(" ", 1)
    shape = {"Blast": "blast", "Burst": "burst", "Close Burst": "close_burst",
             "Line": "line"}[kind]  # fmt: skip
    power = {**_power(shape, int(n)), "range": 4}
    p = ch("p", "a", *origin, powers=["area"], main_hand=None)
    far = next((x, y) for x in range(12) for y in range(9)
               if (x, y) not in covered and (x, y) != origin)  # fmt: skip
    s = make([p, ch("far", "b", *far)], powers=[power], options={"reaction_window": "never"},
             width=12, height=9)  # fmt: skip
    s = started(s, [12, 1])
    cmd: dict[str, Any] = {"type": "Attack", "character": "p", "weapon": "area"}
    if shape in ("blast", "line"):
        cmd["direction"] = FACING[rest.rsplit(" ", 1)[1]]
    if shape == "burst":
        xs, ys = sorted(x for x, _ in covered), sorted(y for _, y in covered)
        cmd["square"] = [(xs[0] + xs[-1]) // 2, (ys[0] + ys[-1]) // 2]
    events, _ = play(s, cmd, [1])
    area = events[0]
    assert isinstance(area, AreaCovered)
    assert len(area.squares) == len(covered) and set(area.squares) == covered
