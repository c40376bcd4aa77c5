"""Halves through the decider (seed 000, "Determining Successful Die Rolls" and "Determining
Critical Die Rolls": "rounded normally", i.e. half away from zero, never half to even).

Crossbowmen against orcs at exactly 50% (d20 12 + 2 against AC 14): with 5 die rolls the
successful ones are 2.5 -> 3; with 10 die rolls the critical ones (threat 19-20: 10% of 50%
= 5%) are 0.5 -> 1. Python's `round` would give 2 and 0: both are even halves on purpose.
"""

from __future__ import annotations

from typing import Any

from tests.support.skirmish_kit import crossbows, orcs, ready, run, to_phase, types


def _volley(crossbowmen: int, chosen_targets: int) -> list[Any]:
    s = to_phase(ready(north=[crossbows(army_size=crossbowmen)], south=[orcs()]), "ranged")
    s, _ = run(
        s,
        "DeclareAction",
        army="crossbows",
        profile="heavy crossbow",
        target="orcs",
        chosen_targets=chosen_targets,
    )
    _s, events = run(s, "ResolvePhase", dice=[12])  # 12 + 2 = 14 against AC 14: 50%
    assert types(events)[:2] == ["ActionResolved", "PhaseDamageApplied"]
    return events


def test_five_die_rolls_at_fifty_percent_give_three_successes() -> None:
    events = _volley(crossbowmen=10, chosen_targets=5)  # a heavy crossbow takes 2 rounds
    r = events[0].result
    assert r.targets.die_rolls == 5
    assert r.success.success_percentage.value == 50
    assert (r.success.successful, r.success.critical, r.success.unsuccessful) == (3, 0, 2)
    assert events[1].result.damage == 3 * 5  # 1d10 averages 5.5 -> 5 per success


def test_a_critical_split_of_one_half_rounds_up_to_one() -> None:
    events = _volley(crossbowmen=20, chosen_targets=10)
    r = events[0].result
    assert r.targets.die_rolls == 10
    assert r.success.critical_percentage is not None
    assert r.success.critical_percentage.value == 5  # 50% x 10% threat
    assert (r.success.successful, r.success.critical, r.success.unsuccessful) == (4, 1, 5)
    assert events[1].result.damage == 4 * 5 + 1 * 11  # a critical doubles: 2 x 5.5 -> 11
