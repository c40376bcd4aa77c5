"""Seed 004's speed rules at their edges: spells at the first and last speed ranks; under
`initiative_first` the roll's shift applied as an action is declared (a 10 lifts an action
at Lightning Fast into the Starting Phase only under `ten_lifts_to_starting`; a spell of
more rounds is not shifted by this round's roll; the phases it begins start from the
Starting Phase, so Lightning Fast comes next); and a carried-over action occupies its
combatant from the Starting Phase (Taking Multiple Phases)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.phased.model import State, index_of
from tests.support.phased_kit import cb, declare, make, play, setup_of

SPELLS = [
    {"id": "slow", "speed": 5},
    {"id": "blink", "speed": -3, "before_fast": True},
    {"id": "gate", "speed": 1, "casting_rounds": 1},
]


def _setup(**r1: Any) -> dict[str, Any]:
    return setup_of(combatants=[cb("r1", "red", **r1), cb("b1", "blue"), cb("p1", "party")])


def test_spells_at_glacially_slow_and_lightning_fast() -> None:
    s = make(_setup(spells=SPELLS))
    slow = declare(s, "r1", "spell", spell="slow").actions["red.1"]
    assert (slow.earliest, slow.start, slow.due) == (index_of(5),) * 3
    blink = declare(s, "r1", "spell", spell="blink").actions["red.1"]
    assert (blink.earliest, blink.start, blink.due) == (index_of(-3),) * 3


def _rolled(red: int, **options: Any) -> State:
    """initiative_first: the roll comes first; red rolls `red` (blue 5, party 2)."""
    s = make(_setup(base_speed=-3, spells=SPELLS), initiative_first=True, **options)
    return play(s, {"type": "RollInitiative"}, [red, 5, 2])[1]


def test_a_ten_lifts_lightning_fast_into_the_starting_phase_only_when_the_option_says() -> None:
    lifted = declare(_rolled(10, ten_lifts_to_starting=True), "r1", "move").actions["red.1"]
    assert (lifted.start, lifted.due, lifted.shift) == (0, 0, -1)
    kept = declare(_rolled(10), "r1", "move").actions["red.1"]
    assert (kept.start, kept.due, kept.shift) == (index_of(-3), index_of(-3), -1)


def test_this_rounds_roll_does_not_shift_a_spell_due_in_a_later_round() -> None:
    gate = declare(_rolled(1), "r1", "spell", spell="gate").actions["red.1"]
    assert (gate.start, gate.due, gate.due_round, gate.shift) == (index_of(1),) * 2 + (2, 0)
    move = declare(_rolled(1), "r1", "move").actions["red.1"]
    assert (move.start, move.shift) == (index_of(-2), 1)


def test_a_carried_over_action_occupies_its_combatant_from_the_starting_phase() -> None:
    s = make(
        _setup(base_speed=-3, spells=SPELLS),
        initiative_first=True,
        ten_lifts_to_starting=True,
        combat_events=False,
    )
    s = play(s, {"type": "RollInitiative"}, [4, 8, 2])[1]
    s = declare(s, "r1", "spell", spell="gate")  # cast through round 1, due in round 2
    for side in ("red", "blue", "party"):
        s = play(s, {"type": "EndDeclarations", "side": side})[1]
    assert s.round == 2 and s.actions["red.1"].carried
    s = play(s, {"type": "RollInitiative"}, [10, 5, 2])[1]  # red's 10: due in phase 0
    assert (s.actions["red.1"].start, s.actions["red.1"].due) == (0, index_of(0))
    with pytest.raises(RuleViolation) as err:  # lifted into the Starting Phase: taken
        play(s, {"type": "DeclareAction", "combatant": "r1", "kind": "move"})
    assert err.value.reason == "r1 is busy with red.1 from phase S to 0"


def test_under_initiative_first_the_phases_begin_with_lightning_fast() -> None:
    """Seed 004, Combat Phases: after the Starting Phase comes Lightning Fast (-3), the
    first phase an action can be due in. Under `initiative_first` the phases begin when the
    last side ends its declarations (PhasesBegan), from the Starting Phase: a move at Base
    Speed -3 is due at once, in Lightning Fast."""
    s = make(_setup(base_speed=-3), initiative_first=True, combat_events=False)
    s = play(s, {"type": "RollInitiative"}, [4, 8, 2])[1]
    s = declare(s, "r1", "move")
    assert s.actions["red.1"].due == index_of(-3)
    for side in ("red", "blue"):
        s = play(s, {"type": "EndDeclarations", "side": side})[1]
    events, s = play(s, {"type": "EndDeclarations", "side": "party"})
    started = [e for e in events if type(e).__name__ == "PhaseStarted"]
    assert [(e.phase, e.index, [a.id for a in e.due]) for e in started] == [
        ("-3", index_of(-3), ["red.1"])
    ]
    assert (s.phase, s.queue) == (index_of(-3), ("red.1",))
