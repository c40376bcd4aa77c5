"""The setup of seed 003: unit statistics as data, champions with the units they lead or
join, at least one reinforcement zone per army, reserves off the field, equipment that
must stand in a zone; an inconsistent setup is refused naming what is wrong."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import InvalidSetup
from tests.support.warfare_kit import SIDES, make, unit

BASE = [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]


def test_a_setup_builds_the_units_champions_and_zones() -> None:
    s = make(
        [*BASE, unit("a2", "a", 1, 1, kind="artillery", range_increment=3, health=20,
                     health_now=9), unit("a9", "a", None, None, reserve=True)],
        champions=[{"id": "hero", "side": "a", "leads": ["a2"], "joined": "a1"}],
    )  # fmt: skip
    a2 = s.units["a2"]
    assert (a2.kind, a2.range_increment, a2.health, a2.max_health) == ("artillery", 3, 9, 20)
    assert s.units["a9"].status == "reserve" and s.units["a9"].tile not in s.occupied
    assert s.units["a1"].joined_by == "hero" and s.champions["hero"].leads == ("a2",)
    assert s.board.zones["a"][0][0] == "za" and s.active is None and s.round == 0


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"units": [*BASE, unit("a2", "a", 1, 1, kind="ranged")]}, "range increment"),
        ({"units": [*BASE, unit("a2", "a", 1, 1, range_increment=2)]}, "no range increment"),
        ({"units": [*BASE, unit("a2", "a", 5, 6)]}, "share a tile"),
        ({"units": [*BASE, unit("a1", "a", 1, 1)]}, "duplicate id"),
        ({"units": [*BASE, unit("a2", "z", 1, 1)]}, "unknown side"),
        ({"units": [*BASE, unit("a2", "a", 1, 1, reserve=True)]}, "reserve has neither"),
        ({"units": [*BASE, unit("a2", "a", None, None)]}, "reserve has neither"),
        ({"units": [*BASE, unit("a2", "a", 1, 1, health=5, health_now=6)]}, "above its maximum"),
        ({"units": [BASE[0], unit("b1", "b", None, None, reserve=True)]}, "no unit on the"),
        ({"champions": [{"id": "h", "side": "a", "leads": ["b1"]}]}, "not a unit of"),
        ({"champions": [{"id": "h", "side": "a", "joined": "a1"},
                        {"id": "g", "side": "a", "joined": "a1"}]}, "cannot join"),
        ({"equipment": [{"id": "e", "side": "a", "x": 3, "y": 3, "in_zone": True}]},
         "reinforcement zone"),
        ({"units": [*BASE, unit("a2", "a", 1, 1, facing="NE")],
          "options": {"facing_directions": 4}}, "four facings"),
    ],
)  # fmt: skip
def test_an_inconsistent_setup_is_refused(change: dict[str, Any], why: str) -> None:
    change = dict(change)
    units = change.pop("units", BASE)
    with pytest.raises(InvalidSetup) as refused:
        make(units, **change)
    assert why in refused.value.reason


def test_every_army_has_a_reinforcement_zone() -> None:
    no_zone = [SIDES[0], {"id": "b", "zones": []}]
    with pytest.raises(msgspec.ValidationError):
        make(BASE, sides=no_zone)
