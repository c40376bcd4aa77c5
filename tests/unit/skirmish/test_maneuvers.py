"""Alterations to Standard Combat / Combat Maneuvers (seed 000): bull rush, drag and
reposition move armies only at -5 (10'), over 25% affected forces open formation; disarm
reduces the acting soldiers; sunder breaks one kind of equipment; no steal."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from tests.support.skirmish_kit import orcs, ready, run, to_phase, types
from tests.unit.skirmish.test_movement import engage


def _maneuver(name: str) -> dict[str, object]:
    return {"name": name, "kind": "maneuver", "maneuver": name, "attack_bonus": 5}


MANEUVERS = [_maneuver(m) for m in ("bull_rush", "drag", "reposition", "disarm", "sunder", "steal")]


def _melee():  # type: ignore[no-untyped-def]
    attacks = [*orcs()["attacks"], *MANEUVERS]
    return to_phase(engage(ready(south=[orcs(attacks=attacks)])), "melee")


def test_bull_rush_at_minus_5_moves_the_army_and_forces_open_formation() -> None:
    s = _melee()
    s, _ = run(
        s, "DeclareAction", army="orcs", profile="bull_rush", target="fighters", move_target=True
    )
    s, ev = run(s, "ResolvePhase", dice=[20])
    assert types(ev)[:4] == ["ActionResolved", "ManeuverResolved", "ArmyMoved", "FormationChanged"]
    r, m = ev[0], ev[1]
    assert ("move the army", -5) in [(t.label, t.value) for t in r.check.terms]
    assert r.check.dc == 15  # the fighters' CMD
    # 375 successful die rolls / concentration 125/12 = 36 soldiers (of 48 targets)
    assert m.affected == 36 and m.moved_to == (1, 63) and m.forced_open
    f = s.armies["fighters"]
    assert (f.x, f.y, f.formation) == (1, 63, "open")


def test_without_the_penalty_no_move_but_still_open_formation() -> None:
    s = _melee()
    s, _ = run(s, "DeclareAction", army="orcs", profile="drag", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[15])
    m = ev[1]
    assert m.moved_to is None and m.forced_open
    assert s.armies["fighters"].y == 64


def test_few_affected_keep_the_formation() -> None:
    s = _melee()
    s, _ = run(
        s,
        "DeclareAction",
        army="orcs",
        profile="reposition",
        target="fighters",
        move_target=True,
        move_direction="west",
        chosen_targets=1,
        reachable_targets=1,
    )
    s, ev = run(s, "ResolvePhase", dice=[1])
    assert ev[1].affected <= 25 and not ev[1].forced_open


def test_disarm_reduces_the_acting_soldiers() -> None:
    s = _melee()
    s, _ = run(
        s,
        "DeclareAction",
        army="orcs",
        profile="disarm",
        target="fighters",
        chosen_targets=30,
        reachable_targets=30,
    )
    s, ev = run(s, "ResolvePhase", dice=[2])  # 2 + 5 vs 15: 10% of 500 die rolls
    affected = ev[1].affected
    assert 0 < affected == ev[1].disarmed == s.armies["fighters"].disarmed
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="fighters", profile="halberd", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert ev[0].result.targets.actions == 100 - affected


def test_sunder_names_the_equipment_and_steal_is_not_allowed() -> None:
    s = _melee()
    with pytest.raises(RuleViolation, match="equipment"):
        run(s, "DeclareAction", army="orcs", profile="sunder", target="fighters")
    with pytest.raises(RuleViolation, match="Steal"):
        run(s, "DeclareAction", army="orcs", profile="steal", target="fighters")
    with pytest.raises(RuleViolation, match="only bull rush"):
        run(s, "DeclareAction", army="orcs", profile="disarm", target="fighters", move_target=True)
    s, _ = run(
        s, "DeclareAction", army="orcs", profile="sunder", target="fighters", equipment="shield"
    )
    s, ev = run(s, "ResolvePhase", dice=[10])
    assert ev[1].sundered == "shield" and s.armies["fighters"].broken == {"shield": ev[1].affected}


def test_broken_equipment_becomes_a_partial_modifier() -> None:
    s = _melee()
    s, _ = run(
        s, "DeclareAction", army="orcs", profile="sunder", target="fighters", equipment="weapon"
    )
    s, ev = run(s, "ResolvePhase", dice=[8])
    broken = ev[1].affected
    assert 0 < broken == s.armies["fighters"].broken["weapon"]
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="fighters", profile="halberd", target="orcs")
    s, ev = run(s, "ResolvePhase", dice=[10])
    partial = [st for st in ev[0].result.steps if "partial" in st.name]
    assert partial and f"{broken}" in partial[0].formula
