"""Alterations to Standard Combat / Combat Maneuvers (seed 000) and the lost "Conditions &
Effects": maneuvers put a condition on the soldiers they affect (`maneuver_conditions`),
applied as partial benefits or penalties ("Modifying the Success Percentage") for the rest of
the round and the next; disarmed soldiers may take up arms again (`disarm_recovery`); bull
rush, drag and reposition move the army "a maximum of 10'", less when the way is blocked."""

from __future__ import annotations

import msgspec

from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.rules import R_MANEUVERS
from tests.support.skirmish_kit import fighters, orcs, ready, run, to_phase, types
from tests.unit.skirmish.test_movement import engage


def _maneuver(name: str) -> dict[str, object]:
    return {"name": name, "kind": "maneuver", "maneuver": name, "attack_bonus": 5}


def _melee(north: list[dict[str, object]] | None = None, **options: object) -> State:
    attacks = [*orcs()["attacks"], *(_maneuver(m) for m in ("trip", "disarm", "bull_rush"))]
    return to_phase(
        engage(ready(north=north, south=[orcs(attacks=attacks)], options=options)), "melee"
    )


def _partial_steps(event: object) -> list[str]:
    steps = event.result.steps  # type: ignore[attr-defined]
    return [st.formula for st in steps if "partial" in st.name]


def test_trip_leaves_the_affected_soldiers_prone_for_this_round_and_the_next() -> None:
    s = _melee()
    s, _ = run(s, "DeclareAction", army="orcs", profile="trip", target="fighters")
    # 25 against CMD 15: all 500 die rolls succeed; / concentration 125/12 = 48 soldiers,
    # every fighter in reach ("Terminology": Affected Soldiers)
    s, ev = run(s, "ResolvePhase", dice=[20])
    m = ev[1]
    assert (m.maneuver, m.affected, m.condition, m.rule) == ("trip", 48, "prone", R_MANEUVERS)
    assert s.armies["fighters"].conditions == {"prone": 48}
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    assert s.round == 3 and s.armies["fighters"].conditions == {"prone": 48}
    s = to_phase(s, "melee")
    s, _ = run(s, "DeclareAction", army="fighters", profile="halberd", target="orcs")
    s, _ = run(s, "DeclareAction", army="orcs", profile="greataxe", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[10, 10])
    halberd, axe = (e for e in ev if type(e).__name__ == "ActionResolved")
    # prone fighters attack at -4 (48 of 100); the orcs attack prone fighters at +4
    # (AC -4) for the share of their soldiers the prone fighters represent (48% of 500)
    assert _partial_steps(halberd) == ["-4 x 5% x 48/100 affected = -9.60%, rounded toward zero"]
    assert _partial_steps(axe) == ["+4 x 5% x 240/500 affected = 9.60%, rounded toward zero"]
    # 10 + 3 against AC 14: 45% - 9%; 10 + 4 against AC 14: 50% + 9%
    assert halberd.result.success.success_percentage.num == 36
    assert axe.result.success.success_percentage.num == 59
    s = to_phase(s, "routing")
    s, _ = run(s, "ResolvePhase")
    assert s.round == 4 and s.armies["fighters"].conditions == {}


def test_without_a_condition_table_maneuvers_leave_no_condition() -> None:
    s = _melee(maneuver_conditions={})
    s, _ = run(s, "DeclareAction", army="orcs", profile="trip", target="fighters")
    s, ev = run(s, "ResolvePhase", dice=[20])
    assert ev[1].condition is None and s.armies["fighters"].conditions == {}


def test_disarmed_soldiers_take_up_arms_at_the_end_of_the_round_by_option() -> None:
    s = _melee(disarm_recovery="end_of_round")
    s, _ = run(
        s,
        "DeclareAction",
        army="orcs",
        profile="disarm",
        target="fighters",
        chosen_targets=30,
        reachable_targets=30,
    )
    # 2 + 5 against 15: 10% of 500 die rolls, 50; / concentration 500/30: 3 soldiers
    s, ev = run(s, "ResolvePhase", dice=[2])
    disarmed = ev[1].disarmed
    assert disarmed == 3 and s.armies["fighters"].disarmed == 3
    s = to_phase(s, "routing")
    s, ev = run(s, "ResolvePhase")
    assert types(ev) == ["ArmsRecovered", "PhaseBegan"]
    assert (ev[0].army, ev[0].soldiers) == ("fighters", 3)
    assert s.armies["fighters"].disarmed == 0


def test_a_blocked_push_moves_the_army_as_far_as_it_can() -> None:
    s = _melee(north=[fighters(), fighters("f2")], maneuver_move_feet=20)
    f2 = msgspec.structs.replace(s.armies["f2"], x=1, y=61)  # rows 61-62, behind the fighters
    s = msgspec.structs.replace(s, armies={**s.armies, "f2": f2})
    s, _ = run(
        s, "DeclareAction", army="orcs", profile="bull_rush", target="fighters", move_target=True
    )
    s, ev = run(s, "ResolvePhase", dice=[20])
    assert ev[1].moved_to == (1, 63)  # 20' would end on f2 (rows 62-63): 10'
    assert s.armies["fighters"].y == 63
