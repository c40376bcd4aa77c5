"""Seed 000 "Routing": "if army fails a morale check and their morale modifier is equal to or
below +0, instead of having to make a Loyalty check (or Will save), the army automatically
gains the routed condition" (issue 38, item 4). The other tests use morale -3 and +2; these
stand on the boundary, +0 and +1."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.rulesets.skirmish.model import State
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


def _set(s: State, army: str, **fields: object) -> State:
    a = msgspec.structs.replace(s.armies[army], **fields)
    return msgspec.structs.replace(s, armies={**s.armies, army: a})


def _at_hp(hp: int) -> list[Any]:
    # RULINGS `rout_check` below_half: "standard mass combat checks armies at half HP or
    # below". The orcs: 500 soldiers x 11 HP = 5,500 Total Army HP, half of it 2,750.
    s = to_phase(ready(), "routing")
    assert s.armies["orcs"].original_total_hp == 5500
    numbers = msgspec.structs.replace(s.armies["orcs"].numbers, total_army_hp=hp)
    return run(_set(s, "orcs", numbers=numbers), "ResolvePhase", dice=[20] if hp <= 2750 else [])[1]


def test_an_army_at_exactly_half_its_hp_checks_and_one_hp_more_does_not() -> None:
    # mutation killed: `2 * a.total_hp > a.original_total_hp` -> `>=` in routing_phase
    assert types(_at_hp(2750)) == ["MoraleChecked", "PhaseBegan"]
    assert types(_at_hp(2751)) == ["PhaseBegan"]


def test_a_defeated_army_makes_no_morale_check() -> None:
    # placed but defeated: out of the fight, so no check (only the fighters roll)
    # mutation killed: `not a.placed or not a.fighting` -> `and` in routing_phase
    s = _set(to_phase(ready(options=EVERY), "routing"), "orcs", defeated=True)
    _, ev = run(s, "ResolvePhase", dice=[13])
    assert [e.army for e in ev if type(e).__name__ == "MoraleChecked"] == ["fighters"]


def test_one_disarmed_soldier_takes_up_arms_again_after_the_checks() -> None:
    # disarm_recovery end_of_round: the routing phase's own events stay, then ArmsRecovered
    # mutations killed: `events += [...]` -> `events = [...]`, `a.disarmed > 0` -> `> 1`
    options = {**EVERY, "disarm_recovery": "end_of_round", "auto_end": False}
    s = _set(to_phase(ready(options=options), "routing"), "orcs", disarmed=1)
    _, ev = run(s, "ResolvePhase", dice=[13, 20])
    assert types(ev) == ["MoraleChecked", "MoraleChecked", "ArmsRecovered", "PhaseBegan"]
    assert (ev[2].army, ev[2].soldiers) == ("orcs", 1)
