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
    assert s.units["a9"].tile == (-1, -1)  # a reserve has no tile (the model's -1, -1)
    assert s.units["a1"].joined_by == "hero" and s.champions["hero"].leads == ("a2",)
    assert s.board.zones["a"][0][0] == "za" and s.active is None and s.round == 0


UNITS, ZONES, CHAMPIONS = (
    "003 Unit Actions (setup)",
    "003 Battlefield Features / Reinforcement Zones (setup)",
    "003 Battlefield Champions",
)


def _sides_a(*zones: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": "a", "zones": list(zones)}, SIDES[1]]


# (change, reason, rule, context): the refusal names what is wrong, the section it breaks
# and the ids at fault (the problem+json answer's detail, rule and context).
REFUSED = [
    ({"units": [*BASE, unit("a2", "a", 1, 1, kind="ranged")]},
     "ranged unit 'a2' needs a range increment", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", 1, 1, range_increment=2)]},
     "melee unit 'a2' has no range increment", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", 5, 6)]}, "'a2' and 'a1' share a tile", UNITS,
     {"id": "a2"}),
    ({"units": [*BASE, unit("a1", "a", 1, 1)]}, "duplicate id 'a1'", UNITS, {"id": "a1"}),
    ({"units": [*BASE, unit("a2", "z", 1, 1)]}, "unit 'a2' belongs to unknown side 'z'",
     UNITS, {"id": "a2", "side": "z"}),
    ({"units": [*BASE, unit("a2", "a", 1, 1, reserve=True)]},
     "'a2': a unit on the field has x and y, a reserve has neither", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", None, None)]},
     "'a2': a unit on the field has x and y, a reserve has neither", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", 1, 1, health=5, health_now=6)]},
     "'a2' starts above its maximum health", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", 12, 1)]}, "'a2' is off the map", UNITS, {"id": "a2"}),
    ({"units": [*BASE, unit("a2", "a", 1, 12)]}, "'a2' is off the map", UNITS, {"id": "a2"}),
    ({"units": [BASE[0], unit("b1", "b", None, None, reserve=True)]},
     "side 'b' has no unit on the battlefield", UNITS, {"side": "b"}),
    ({"sides": [SIDES[0], SIDES[0], SIDES[1]]}, "side ids must be distinct", UNITS,
     {"sides": ["a", "a", "b"]}),
    ({"sides": _sides_a({"id": "za", "tiles": [[0, 11]]}, {"id": "za", "tiles": [[1, 11]]})},
     "zone 'za' twice in 'a'", ZONES, {"zone": "za"}),
    ({"sides": _sides_a({"id": "zq", "tiles": [[12, 11]]})},
     "zone 'zq' has a tile off the map", ZONES, {"zone": "zq"}),
    ({"sides": _sides_a({"id": "zq", "tiles": [[11, 12]]})},
     "zone 'zq' has a tile off the map", ZONES, {"zone": "zq"}),
    ({"champions": [{"id": "h", "side": "a", "leads": ["b1"]}]},
     "champion 'h' names 'b1', not a unit of 'a'", CHAMPIONS, {"id": "h"}),
    ({"champions": [{"id": "h", "side": "a", "joined": "b1"}]},
     "champion 'h' names 'b1', not a unit of 'a'", CHAMPIONS, {"id": "h"}),
    ({"champions": [{"id": "h", "side": "z"}]}, "champion 'h' belongs to unknown side 'z'",
     UNITS, {"id": "h", "side": "z"}),
    ({"champions": [{"id": "a1", "side": "a"}]}, "duplicate id 'a1'", UNITS, {"id": "a1"}),
    ({"champions": [{"id": "h", "side": "a", "joined": "a1"},
                    {"id": "g", "side": "a", "joined": "a1"}]},
     "'g' cannot join 'a1'", CHAMPIONS, {}),
    ({"units": [*BASE, unit("a9", "a", None, None, reserve=True)],
      "champions": [{"id": "h", "side": "a", "joined": "a9"}]},
     "'h' cannot join 'a9'", CHAMPIONS, {}),
    ({"equipment": [{"id": "e", "side": "a", "x": 3, "y": 3, "in_zone": True}]},
     "equipment 'e' must stand in a reinforcement zone of 'a'", ZONES, {"id": "e"}),
    ({"equipment": [{"id": "e", "side": "a", "x": 12, "y": 3}]},
     "equipment 'e' is off the map", ZONES, {"id": "e"}),
    ({"equipment": [{"id": "e", "side": "a", "x": 3, "y": 12}]},
     "equipment 'e' is off the map", ZONES, {"id": "e"}),
    ({"equipment": [{"id": "e", "side": "z", "x": 3, "y": 3}]},
     "equipment 'e' belongs to unknown side 'z'", UNITS, {"id": "e", "side": "z"}),
    ({"units": [*BASE, unit("a2", "a", 1, 1, facing="NE")],
      "options": {"facing_directions": 4}}, "'a2' faces NE: this battle has four facings",
     UNITS, {"id": "a2"}),
]  # fmt: skip


@pytest.mark.parametrize(("change", "reason", "rule", "context"), REFUSED)
def test_an_inconsistent_setup_is_refused_naming_the_fault_and_its_section(
    change: dict[str, Any], reason: str, rule: str, context: dict[str, Any]
) -> None:
    change = dict(change)
    units = change.pop("units", BASE)
    with pytest.raises(InvalidSetup) as refused:
        make(units, **change)
    got = refused.value
    assert (got.reason, got.rule, got.context) == (reason, rule, context)


def test_a_setup_on_the_last_row_and_column_is_on_the_map() -> None:
    s = make(
        [*BASE, unit("a2", "a", 11, 11)],
        sides=_sides_a({"id": "za", "tiles": [[11, 11]]}),
        equipment=[{"id": "e", "side": "a", "x": 11, "y": 11, "in_zone": True}],
    )
    assert s.units["a2"].tile == (11, 11) and s.occupied[(11, 11)] == "a2"


def test_every_army_has_a_reinforcement_zone() -> None:
    no_zone = [SIDES[0], {"id": "b", "zones": []}]
    with pytest.raises(msgspec.ValidationError):
        make(BASE, sides=no_zone)


def test_equipment_that_need_not_stand_in_a_zone_may_stand_anywhere_on_the_map() -> None:
    # [Reinforcement Zones] "some Battlefield Equipment must" stand in a zone: not all of it
    s = make(BASE, equipment=[{"id": "cart", "side": "b", "x": 3, "y": 3}])
    assert [(e.id, e.x, e.y, e.in_zone) for e in s.board.equipment] == [("cart", 3, 3, False)]


def test_the_names_a_setup_gives_its_units_and_champions_are_kept() -> None:
    s = make(
        [unit("a1", "a", 5, 6, name="Iron Guard"), unit("b1", "b", 5, 5)],
        champions=[{"id": "hero", "side": "a", "name": "Aldra", "leads": ["a1"]}],
    )
    assert (s.units["a1"].name, s.units["b1"].name) == ("Iron Guard", "")
    assert s.champions["hero"].name == "Aldra"
