"""Seed 000 "Routing": "if army fails a morale check and their morale modifier is equal to or
below +0, instead of having to make a Loyalty check (or Will save), the army automatically
gains the routed condition" (issue 38, item 4). The other tests use morale -3 and +2; these
stand on the boundary, +0 and +1."""

from __future__ import annotations

from typing import Any

from tests.support.skirmish_kit import orcs, ready, run, to_phase, types

EVERY = {"rout_check": "every_round"}


def _routing(morale_adjustment: int, dice: list[int]) -> list[Any]:
    # the orcs' starting morale is -3 (chaotic, barbarians, tribal): +3 makes it +0
    s = ready(south=[orcs(morale_adjustment=morale_adjustment)], options=EVERY)
    s = to_phase(s, "routing")
    assert s.armies["orcs"].morale == morale_adjustment - 3
    return run(s, "ResolvePhase", dice=dice)[1]


def test_failing_at_morale_plus_zero_routs_at_once() -> None:
    # fighters 13 + 2 pass; orcs 5 + 0 fail against DC 15: no Will save, routed
    # mutation killed: `a.morale <= 0` -> `a.morale < 0` in morale.routing_phase
    ev = _routing(3, [13, 5])
    orc = ev[1]
    assert orc.army == "orcs" and not orc.check.success
    assert orc.will_save is None and orc.routed
    assert types(ev)[:3] == ["MoraleChecked", "MoraleChecked", "ArmyRouted"]


def test_failing_at_morale_plus_one_gets_a_will_save_first() -> None:
    # orcs 5 + 1 fail; morale +1 is above +0: the Will save (20 + 1) keeps them standing
    # mutation killed: `a.morale <= 0` -> `a.morale <= 1` in morale.routing_phase
    ev = _routing(4, [13, 5, 20])
    orc = ev[1]
    assert not orc.check.success and orc.will_save is not None and orc.will_save.success
    assert not orc.routed and "ArmyRouted" not in types(ev)
