"""Seed 004, Initiative: each side's 1d10 every round, highest first in every phase; a 1
goes last and delays all its actions one phase, a 10 goes first and moves them up one
(spells included); tied sides re-roll at once and each forced re-roll draws a combat event."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.phased.events import CombatEventDrawn, InitiativeRolled, PhaseStarted
from domain.rulesets.phased.model import index_of
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases, types


def _ini(events: list[object]) -> InitiativeRolled:
    (e,) = [e for e in events if isinstance(e, InitiativeRolled)]
    return e


def test_highest_goes_first_the_texts_example() -> None:
    # the DM rolls 3 and 6 for the companies, the players 4: one company, the players, the other
    events, _s = to_phases(make(), [3, 6, 4])
    ini = _ini(events)
    assert [r.die.value for r in ini.rolls] == [3, 6, 4]
    assert ini.order == ("blue", "party", "red") and ini.ties == () and ini.rerolls == ()
    assert ini.shifts == {}
    assert not any(isinstance(e, CombatEventDrawn) for e in events)


def test_a_one_goes_last_and_delays_every_action_a_phase_spells_included() -> None:
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", spells=[{"id": "bolt", "speed": 1}]),
                cb("b1", "blue"),
                cb("p1", "party"),
            ]
        )
    )
    s = declare(s, "r1", "spell", spell="bolt")
    s = declare(s, "b1", target="r1")
    events, s = to_phases(s, [1, 4, 2])
    ini = _ini(events)
    assert ini.order == ("blue", "party", "red") and ini.shifts == {"red": 1}
    assert s.actions["red.1"].due == index_of(2) and s.actions["red.1"].shift == 1
    assert s.actions["blue.1"].due == index_of(1)


def test_a_ten_goes_first_and_moves_every_action_up_a_phase() -> None:
    s = declare(declare(make(), "r1", target="b1"), "b1", target="r1")
    events, s = to_phases(s, [2, 10, 9])
    ini = _ini(events)
    assert ini.order == ("blue", "party", "red") and ini.shifts == {"blue": -1}
    # blue's attack moves from Average (1) to Fast (0): before red's, at Average
    first = next(e for e in events if isinstance(e, PhaseStarted))
    assert first.phase == "0" and [a.id for a in first.due] == ["blue.1"]


def test_a_ten_does_not_lift_an_action_above_lightning_fast_by_default() -> None:
    fast = {"id": "dart", "speed": -3, "damage": "1d3", "damage_type": "piercing"}
    setup = setup_of(
        combatants=[
            cb("r1", "red", base_speed=-3, weapons=[fast]),
            cb("b1", "blue"),
            cb("p1", "party"),
        ]
    )
    s = declare(make(setup), "r1", weapon="dart", target="b1")
    events, s = to_phases(s, [10, 4, 2])
    assert s.actions["red.1"].due == index_of(-3)
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == ["-3"]
    # option: the 10 lifts it into the Starting Phase, right after initiative
    s = declare(make(setup, ten_lifts_to_starting=True), "r1", weapon="dart", target="b1")
    events, s = to_phases(s, [10, 4, 2])
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == ["S"]
    assert s.current is not None and s.current.id == "red.1"


def test_tied_sides_reroll_and_one_combat_event_per_reroll_of_a_group() -> None:
    # red and blue tie on 6: they re-roll (8, 2); one combat event (12: Lucky Break, d3 -> b1)
    events, _s = to_phases(make(), [6, 6, 3, 8, 2, 12, 2])
    ini = _ini(events)
    assert ini.ties == (("red", "blue"),)
    (rr,) = ini.rerolls
    assert rr.group == ("red", "blue") and rr.tied_on == (6,) and rr.combat_events == 1
    assert [(d.side, d.die.value) for d in rr.dice] == [("red", 8), ("blue", 2)]
    # the re-roll orders the tied sides among themselves only: both stay above party's 3
    assert ini.order == ("red", "blue", "party")
    (ev,) = [e for e in events if isinstance(e, CombatEventDrawn)]
    assert ev.row == "Lucky Break" and ev.cause.startswith("initiative tie")


def test_a_tied_reroll_that_ties_again_rerolls_again_each_with_an_event() -> None:
    dice = [5, 5, 5, 7, 7, 2, 3, 9, 12, 1, 12, 2]
    events, _s = to_phases(make(), dice)
    ini = _ini(events)
    assert [r.group for r in ini.rerolls] == [("red", "blue", "party"), ("red", "blue")]
    assert ini.order == ("blue", "red", "party")
    assert types(events).count("CombatEventDrawn") == 2


def test_option_one_combat_event_per_side_rerolling() -> None:
    events, _ = to_phases(make(events_per_reroll="side"), [6, 6, 3, 8, 2, 12, 1, 12, 3])
    assert _ini(events).rerolls[0].combat_events == 2
    assert types(events).count("CombatEventDrawn") == 2


def test_ties_on_one_or_ten_reroll_with_an_event_and_keep_their_shift() -> None:
    s = declare(declare(make(), "r1", target="b1"), "b1", target="r1")
    events, s = to_phases(s, [10, 10, 4, 3, 9, 12, 1])
    ini = _ini(events)
    assert ini.order == ("blue", "red", "party")
    assert ini.shifts == {"red": -1, "blue": -1}
    assert types(events).count("CombatEventDrawn") == 1
    # option: such a re-roll only orders the group, no combat event
    s = declare(declare(make(extreme_ties="no_event"), "r1", target="b1"), "b1", target="r1")
    events, s = to_phases(s, [1, 1, 4, 3, 9])
    ini = _ini(events)
    assert ini.rerolls[0].combat_events == 0 and ini.order == ("party", "blue", "red")
    assert ini.shifts == {"red": 1, "blue": 1}


def test_combat_events_can_be_switched_off() -> None:
    events, _ = to_phases(make(combat_events=False), [6, 6, 3, 8, 2])
    assert "CombatEventDrawn" not in types(events)


def test_initiative_is_rolled_again_every_round() -> None:
    _, s = to_phases(make(), [3, 6, 4])
    assert s.round == 2 and s.order == ()
    events, s = to_phases(s, [9, 1, 5])
    assert _ini(events).round == 2 and _ini(events).order == ("red", "party", "blue")


def test_the_referee_rolls_initiative_closing_open_declarations() -> None:
    s = make(auto_initiative=False)
    s = play(s, {"type": "EndDeclarations", "side": "red"})[1]
    s = play(s, {"type": "EndDeclarations", "side": "blue"})[1]
    events, s = play(s, {"type": "EndDeclarations", "side": "party"})
    assert s.stage == "declare" and types(events) == ["DeclarationsClosed"]
    events, s = play(s, {"type": "RollInitiative"}, [2, 3, 4])
    assert types(events)[0] == "InitiativeRolled"
    s = make()
    events, s = play(s, {"type": "RollInitiative"}, [2, 3, 4])
    s = declare(s, "r1", "move", rank=5)
    s = play(s, {"type": "RollInitiative"}, [2, 3, 4])[1]
    assert s.stage == "phases"
    assert [e.by for e in events if type(e).__name__ == "DeclarationsClosed"] == ["referee"] * 3
    with pytest.raises(RuleViolation):
        play(s, {"type": "RollInitiative"}, [2, 3, 4])  # not in the Starting Phase now


def test_a_second_tie_on_a_ten_is_no_extreme_tie() -> None:
    # red and blue tie on 5, re-roll 10 and 10: tied again, not on a first 1 or 10, so under
    # "no_event" both re-rolls force a combat event
    events, _ = to_phases(make(extreme_ties="no_event"), [5, 5, 3, 10, 10, 4, 2, 12, 1, 12, 1])
    ini = _ini(events)
    assert [r.combat_events for r in ini.rerolls] == [1, 1]
    assert types(events).count("CombatEventDrawn") == 2 and ini.shifts == {}
    # tied on 10, then again on 4: both re-rolls only order the two 10s
    events, _ = to_phases(make(extreme_ties="no_event"), [10, 10, 3, 4, 4, 6, 2])
    ini = _ini(events)
    assert [r.tied_on for r in ini.rerolls] == [(10,), (10, 4)]
    assert [r.combat_events for r in ini.rerolls] == [0, 0] and ini.order == (
        "red",
        "blue",
        "party",
    )
