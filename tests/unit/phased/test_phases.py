"""Seed 004, Combat Phases and Taking Multiple Phases: S, -3 ... 5, F in order, sides in
initiative order within each phase, the current action ("whose action is next?"), the
resolution by the configured roll or the referee, actions carried into the next round
(sustained or cancelled), spells longer than a round."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.phased.events import (
    ActionCancelled,
    ActionCarriedOver,
    ActionResolved,
    ActionSustained,
    BattleEnded,
    PhaseStarted,
)
from domain.rulesets.phased.model import index_of
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases, types


def _all_attack() -> object:
    s = declare(make(), "r1", target="b1")
    s = declare(s, "b1", target="p1")
    return declare(s, "p1", target="r1")


def test_phases_in_order_sides_in_initiative_order_within_each() -> None:
    # party (Dex 18) attacks at Fast, red and blue at Average (sword speed 1)
    events, s = to_phases(_all_attack(), [8, 5, 2])  # type: ignore[arg-type]
    (ph,) = [e for e in events if isinstance(e, PhaseStarted)]
    assert (ph.phase, ph.order, [a.id for a in ph.due]) == (
        "0",
        ("red", "blue", "party"),
        ["party.1"],
    )
    assert s.current is not None and s.current.id == "party.1"
    events, s = play(s, {"type": "ResolveAction", "action": "party.1"}, [1])
    (ph,) = [e for e in events if isinstance(e, PhaseStarted)]
    assert ph.phase == "1" and [a.id for a in ph.due] == ["red.1", "blue.1"]
    # blue may not act before red in that phase
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])
    assert "red.1" in err.value.reason and err.value.rule == "004 Combat Phases"
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    events, s = play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])
    assert types(events)[-3:] == ["PhaseStarted", "RoundEnded", "RoundStarted"]
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == ["F"]
    assert s.round == 2 and s.stage == "declare"


def test_empty_phases_are_announced_when_the_option_says_so() -> None:
    s = declare(make(announce_empty_phases=True), "r1", target="b1")
    events, s = to_phases(s, [8, 5, 2])
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == ["-3", "-2", "-1", "0", "1"]
    events, s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == ["2", "3", "4", "5", "F"]


def test_configured_roll_d20_plus_to_hit_against_ac_then_weapon_damage() -> None:
    s = declare(make(), "r1", target="b1")
    _, s = to_phases(s, [8, 5, 2])
    # 10 + 2 = 12 against AC 12: a hit (at least the AC); 1d8: 5
    events, s = play(s, {"type": "ResolveAction", "action": "red.1"}, [10, 5])
    r = events[0]
    assert isinstance(r, ActionResolved) and r.by == "roll" and r.phase == "1"
    assert r.attack is not None
    assert (r.attack.total, r.attack.ac, r.attack.hit, r.attack.damage) == (12, 12, True, 5)
    assert r.attack.damage_roll is not None and r.attack.damage_roll.values == (5,)
    assert s.combatants["b1"].hp == 15 and s.combatants["r1"].last_attack_round == 1
    # option: the total must beat the AC
    s = declare(make(hit_on="above"), "r1", target="b1")
    _, s = to_phases(s, [8, 5, 2])
    events, _ = play(s, {"type": "ResolveAction", "action": "red.1"}, [10])
    assert events[0].hit is False and events[0].damage == 0


def test_other_actions_resolve_as_completed_and_the_referee_records_outcomes() -> None:
    s = declare(declare(make(), "r1", "move"), "b1", target="r1")
    _, s = to_phases(s, [8, 5, 2])
    events, s = play(s, {"type": "ResolveAction", "action": "red.1"})
    assert events[0].by == "completed"
    events, s = play(
        s,
        {
            "type": "RecordOutcome",
            "action": "blue.1",
            "outcome": "grazed",
            "hit": True,
            "damage": 4,
        },
    )
    r = events[0]
    assert (r.by, r.outcome, r.target, r.damage, r.target_hp) == ("referee", "grazed", "r1", 4, 16)
    assert s.combatants["r1"].hp == 16
    # resolution "referee": an attack waits for the referee's outcome
    s = declare(make(resolution="referee"), "r1", target="b1")
    _, s = to_phases(s, [8, 5, 2])
    with pytest.raises(RuleViolation):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [10])
    s = declare(make(), "r1")  # no target: only the referee can say what happened
    _, s = to_phases(s, [8, 5, 2])
    with pytest.raises(RuleViolation):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [10])


def test_resolving_is_refused_in_the_starting_phase() -> None:
    s = declare(make(), "r1", target="b1")
    with pytest.raises(RuleViolation):
        play(s, {"type": "ResolveAction", "action": "red.1"}, [10])


def test_an_action_past_the_final_phase_moves_to_the_next_rounds_fast_phase() -> None:
    # a human runs from Fast (0) for 8 phases: past the Final Phase
    s = declare(make(), "r1", "move", phases=8)
    events, s = to_phases(s, [8, 5, 2])
    (carry,) = [e for e in events if isinstance(e, ActionCarriedOver)]
    assert (carry.action, carry.to_round, carry.phase) == ("red.1", 2, "0")
    a = s.actions["red.1"]
    assert a.carried and not a.decided and a.due_round == 2
    # round 2: red sustains it (the same action), it resolves at Fast
    events, s = play(s, {"type": "SustainAction", "action": "red.1"})
    assert isinstance(events[0], ActionSustained)
    with pytest.raises(RuleViolation):  # the round's move is taken by the sustained run
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move", "rank": 5})
    events, s = to_phases(s, [8, 5, 2])
    ph = next(e for e in events if isinstance(e, PhaseStarted))
    assert ph.phase == "0" and [a.id for a in ph.due] == ["red.1"]


def test_a_carry_over_goes_to_a_faster_base_speed_but_a_spell_to_fast() -> None:
    spells = [{"id": "storm", "speed": 5, "casting_phases": 3}]
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", base_speed=-2, spells=spells),
                cb("b1", "blue", base_speed=-2),
                cb("p1", "party"),
            ]
        )
    )
    s = declare(s, "r1", "spell", spell="storm")  # 5 + 3: past F
    s = declare(s, "b1", "move", rank=4, phases=4)
    events, s = to_phases(s, [8, 5, 2])
    carried = {e.action: e.phase for e in events if isinstance(e, ActionCarriedOver)}
    assert carried == {"red.1": "0", "blue.1": "-2"}


def test_a_carry_over_not_sustained_is_cancelled_and_frees_the_round() -> None:
    s = declare(make(), "r1", "move", phases=8)
    _, s = to_phases(s, [8, 5, 2])
    events, s = play(s, {"type": "CancelAction", "action": "red.1", "reason": "stops"})
    assert isinstance(events[0], ActionCancelled) and s.actions["red.1"].status == "cancelled"
    declare(s, "r1", "move")
    # undecided at the end of declarations: the default (sustain), or the option (cancel)
    s = declare(make(), "r1", "move", phases=8)
    _, s = to_phases(s, [8, 5, 2])
    events, _ = play(s, {"type": "EndDeclarations", "side": "red"})
    assert isinstance(events[0], ActionSustained) and events[0].by_default
    s = declare(make(carry_over_default="cancel"), "r1", "move", phases=8)
    _, s = to_phases(s, [8, 5, 2])
    events, _ = play(s, {"type": "EndDeclarations", "side": "red"})
    assert isinstance(events[0], ActionCancelled)


def test_a_spell_longer_than_a_round_keeps_the_caster_casting() -> None:
    spells = [{"id": "gate", "speed": 1, "casting_rounds": 1}]
    s = make(
        setup_of(combatants=[cb("r1", "red", spells=spells), cb("b1", "blue"), cb("p1", "party")])
    )
    s = declare(s, "r1", "spell", spell="gate")
    assert s.actions["red.1"].due_round == 2
    events, s = to_phases(s, [8, 5, 2])
    (carry,) = [e for e in events if isinstance(e, ActionCarriedOver)]
    assert carry.to_round == 2 and carry.phase == "1"
    with pytest.raises(RuleViolation):  # still casting: no other action this round
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "other", "rank": 2})
    s = play(s, {"type": "SustainAction", "action": "red.1"})[1]
    with pytest.raises(RuleViolation):
        play(s, {"type": "SustainAction", "action": "red.1"})
    events, s = to_phases(s, [8, 5, 2])
    assert s.current is not None and s.current.id == "red.1"
    events, s = play(s, {"type": "ResolveAction", "action": "red.1"})
    assert events[0].by == "completed" and events[0].round == 2


def test_a_one_pushes_a_final_phase_action_into_the_next_round() -> None:
    s = declare(make(), "r1", "move", rank=5, phases=1)  # due at F
    events, s = to_phases(s, [1, 5, 2])
    assert [e.action for e in events if isinstance(e, ActionCarriedOver)] == ["red.1"]


def test_a_combatant_out_of_the_fight_loses_its_due_action_and_the_battle_can_end() -> None:
    s = declare(declare(make(), "r1", target="b1"), "b1", target="r1")
    s = play(s, {"type": "AdjustCombatant", "combatant": "b1", "hp": 0, "reason": "fell"})[1]
    events, s = to_phases(s, [8, 5, 2])
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    assert s.actions["blue.1"].status == "cancelled"
    # party falls to red's hit next round: red alone stands
    s = play(s, {"type": "AdjustCombatant", "combatant": "p1", "hp": 3})[1]
    s = declare(s, "r1", target="p1")
    _, s = to_phases(s, [8, 5, 2])
    events, s = play(s, {"type": "ResolveAction", "action": "red.2"}, [15, 8])
    assert isinstance(events[-1], BattleEnded) and events[-1].winner == "red"
    assert s.stage == "over"
    with pytest.raises(RuleViolation):
        play(s, {"type": "EndDeclarations", "side": "red"})


def test_the_referee_ends_the_battle() -> None:
    events, s = play(make(), {"type": "EndBattle", "winner": "party", "reason": "fled"})
    assert isinstance(events[0], BattleEnded) and s.winner == "party"


def test_a_cancelled_current_action_passes_the_turn_on() -> None:
    s = declare(declare(make(), "r1", target="b1"), "b1", target="r1")
    _, s = to_phases(s, [8, 5, 2])
    _events, s = play(s, {"type": "CancelAction", "action": "red.1"})
    assert s.current is not None and s.current.id == "blue.1"
    with pytest.raises(RuleViolation):
        play(s, {"type": "CancelAction", "action": "red.1"})
    assert s.actions["red.1"].due == index_of(1)


def test_carry_overs_act_first_within_their_side_not_before_a_higher_side() -> None:
    s = make(
        setup_of(
            combatants=[cb("r1", "red"), cb("b1", "blue"), cb("b2", "blue"), cb("p1", "party")]
        )
    )
    s = declare(s, "b1", "move", phases=8)  # carried into round 2 at Fast
    _, s = to_phases(s, [8, 5, 2])
    s = declare(declare(s, "r1", "move"), "b2", "move")
    events, s = to_phases(s, [8, 5, 2])
    ph = next(e for e in events if isinstance(e, PhaseStarted))
    assert [a.id for a in ph.due] == ["red.1", "blue.1", "blue.2"]


def test_a_new_multi_phase_action_may_not_overlap_a_declared_one() -> None:
    s = declare(make(actions_per_round=2), "r1", target="b1")  # at Average (1)
    with pytest.raises(RuleViolation):
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "other", "phases": 3})
