"""Seed 004, Taking Multiple Phases: what the fold of a carry-over keeps. An action a 1
pushed past the Final Phase starts the new round with no shift of its own (the new round's
roll shifts it afresh); and the carry-over event says whether the action is public: the fold
follows the event (a secret action carried over stays secret, one the event makes public is
revealed). And an effect an event applies to a combatant the battle lacks is passed over,
the others still applied."""

from __future__ import annotations

from domain.rulesets.phased import RULESET
from domain.rulesets.phased.events import ActionCarriedOver, EffectsChosen
from domain.rulesets.phased.model import Applied
from tests.support.phased_kit import declare, make, to_phases


def test_a_carried_action_drops_the_shift_of_the_round_it_left() -> None:
    s = declare(make(), "r1", "move", rank=5, phases=1)  # due in the Final Phase
    events, s = to_phases(s, [1, 5, 2])  # red's 1 pushes it a phase later: past the Final
    assert [e.action for e in events if isinstance(e, ActionCarriedOver)] == ["red.1"]
    a = s.actions["red.1"]
    assert (a.carried, a.due_round, a.start, a.shift) == (True, 2, 0, 0)


def _carry(hidden_side: str | None) -> ActionCarriedOver:
    return ActionCarriedOver(
        action="red.1", side="red", to_round=2, due=4, phase="0", hidden_side=hidden_side
    )


def test_the_fold_of_a_carry_over_follows_the_events_word_on_secrecy() -> None:
    s = declare(make(), "r1", "move", phases=8)  # secret: only red has seen it
    assert s.actions["red.1"].revealed is False
    assert RULESET.evolve(s, _carry(None)).actions["red.1"].revealed is True
    assert RULESET.evolve(s, _carry("red")).actions["red.1"].revealed is False


def test_an_effect_on_a_combatant_the_battle_lacks_is_passed_over() -> None:
    s = make()
    chosen = EffectsChosen(
        choice="p9",
        applied=(
            Applied(combatant="zz", effect="prone"),
            Applied(combatant="b1", effect="prone"),
        ),
    )
    after = RULESET.evolve(s, chosen)
    assert after.combatants["b1"].has("prone") and set(after.combatants) == {"r1", "b1", "p1"}
