"""Seed 004, Combat Events, Lucky Opening: "Characters Save at -2 penalty against this
character for one round". A save is made against a combatant when that combatant is its
source: Knock Down's nearest figure saves against the fallen combatant (`knock_down_source`).
The penalty adds to Lucky Break's +4 and lasts as `one_round_effects` says."""

from __future__ import annotations

from typing import Any

from domain.rulesets.phased.events import CheckRecord, CheckRuled, CombatEventDrawn
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, make, play, setup_of, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2
TIE3 = [5, 5, 5, 3, 7, 2]  # all three sides tie on 5, re-roll 3, 7 and 2
LUCKY_OPENING, LUCKY_BREAK, KNOCK_DOWN = 13, 12, 9
R1, B1, P1 = 1, 2, 3  # the d3 over the combatants up, in setup order

# r1 and b1 side by side (engaged); p1 far away; b1 saves vs. Paralyzation on 12
PLACED: dict[str, dict[str, Any]] = {
    "r1": {"x": 0, "y": 0},
    "b1": {"x": 1, "y": 0, "saves": {"paralyzation": 12}},
    "p1": {"x": 9, "y": 9},
}


def _setup(**by_id: dict[str, Any]) -> dict[str, Any]:
    return setup_of(
        combatants=[
            cb(c, side, **by_id.get(c, {}))
            for c, side in (("r1", "red"), ("b1", "blue"), ("p1", "party"))
        ]
    )


def _events(s: State, dice: list[int]) -> tuple[list[CombatEventDrawn], State]:
    events, s = to_phases(s, dice)
    return [e for e in events if isinstance(e, CombatEventDrawn)], s


def _knock_down_save(lucky: int, save_die: int, **options: Any) -> tuple[CheckRecord, State]:
    """Given Lucky Opening on `lucky`, when r1 is knocked down (d2 1 of r1 and b1, engaged),
    then b1, the nearest figure, saves with `save_die`."""
    s = make(_setup(**PLACED), events_per_reroll="side", **options)
    drawn, s = _events(s, [*TIE, LUCKY_OPENING, lucky, KNOCK_DOWN, 1, save_die])
    assert [e.row for e in drawn] == ["Lucky Opening", "Knock Down"]
    (t,) = drawn[1].tests
    return t, s


def test_a_save_against_the_lucky_combatant_is_at_minus_two() -> None:
    # given Lucky Opening on r1; when r1 falls and b1 saves against it with 13
    t, s = _knock_down_save(R1, 13)
    # then 13 - 2 = 11 misses b1's 12: b1 falls down next to r1
    assert (t.combatant, t.source, t.modifier, t.total, t.result) == ("b1", "r1", -2, 11, "fail")
    assert s.combatants["b1"].has("prone")


def test_the_lucky_combatants_own_save_is_not_penalised() -> None:
    # given Lucky Opening on b1; when r1 falls and b1 saves against r1 with 12
    t, s = _knock_down_save(B1, 12)
    # then no modifier: the penalty is on saves against b1, not b1's own
    assert (t.source, t.modifier, t.total, t.result) == ("r1", 0, 12, "success")
    assert not s.combatants["b1"].has("prone")


def test_a_save_against_another_combatant_is_not_penalised() -> None:
    # given Lucky Opening on p1, far away; when r1 falls and b1 saves against r1 with 12
    t, _ = _knock_down_save(P1, 12)
    # then no modifier
    assert (t.source, t.modifier, t.total, t.result) == ("r1", 0, 12, "success")


def test_option_the_knock_down_save_is_against_nobody() -> None:
    # given knock_down_source none and Lucky Opening on r1; when r1 falls, b1 saves with 12
    t, _ = _knock_down_save(R1, 12, knock_down_source="none")
    # then the save is against no combatant: no penalty
    assert (t.source, t.modifier, t.result) == (None, 0, "success")


def test_lucky_break_and_lucky_opening_combine_to_plus_two() -> None:
    # given three events: Lucky Break on b1, Lucky Opening on r1, then Knock Down of r1
    s = make(_setup(**PLACED), events_per_reroll="side")
    dice = [*TIE3, LUCKY_BREAK, B1, LUCKY_OPENING, R1, KNOCK_DOWN, 1, 9]
    # when b1 saves against r1 with 9
    drawn, s = _events(s, dice)
    assert [e.row for e in drawn] == ["Lucky Break", "Lucky Opening", "Knock Down"]
    (t,) = drawn[2].tests
    # then +4 - 2: 9 + 2 = 11 misses 12 (Lucky Break alone would make it with 13)
    assert (t.source, t.modifier, t.total, t.result) == ("r1", 2, 11, "fail")
    assert s.combatants["b1"].has("prone")


def _next_round_save(**options: Any) -> CheckRecord:
    """Given Lucky Opening on r1 in round 1 (nothing declared: the round ends), when r1 falls
    in round 2, then b1's save with 13."""
    s = make(_setup(**PLACED), **options)
    _, s = _events(s, [*TIE, LUCKY_OPENING, R1])
    assert s.round == 2
    drawn, _ = _events(s, [*TIE, KNOCK_DOWN, 1, 13])
    (t,) = drawn[0].tests
    return t


def test_the_penalty_lasts_as_one_round_effects_says() -> None:
    # end_this_round: Lucky Opening ended with round 1, round 2's save is unmodified
    t = _next_round_save()
    assert (t.modifier, t.total, t.result) == (0, 13, "success")
    # end_next_round: it lasts through round 2
    t = _next_round_save(one_round_effects="end_next_round")
    assert (t.modifier, t.total, t.result) == (-2, 11, "fail")


def test_a_save_left_to_the_referee_carries_the_penalty() -> None:
    # given Lucky Opening on r1 and no save value for b1; when r1 falls
    placed = {**PLACED, "b1": {"x": 1, "y": 0}}
    s = make(_setup(**placed), events_per_reroll="side")
    drawn, s = _events(s, [*TIE, LUCKY_OPENING, R1, KNOCK_DOWN, 1])
    # then the pending save names its source and its -2 for the referee
    (p,) = drawn[1].pending
    assert (p.combatant, p.source, p.modifier) == ("b1", "r1", -2)
    assert s.pending[p.id].modifier == -2 and drawn[1].tests[0].modifier == -2
    # and the referee's result stands as given
    events, s = play(s, {"type": "RuleCheck", "check": p.id, "result": "fail"})
    assert isinstance(events[0], CheckRuled) and s.combatants["b1"].has("prone")


def test_without_positions_the_referees_prompt_names_the_penalty() -> None:
    # given r1 and b1 engaged by the referee, no squares, Lucky Opening on r1
    s = make(events_per_reroll="side")
    s = play(s, {"type": "SetEngagement", "a": "r1", "b": "b1"})[1]
    # when r1 falls (d2 1), then the prompt for the nearest figure's save says -2
    drawn, _ = _events(s, [*TIE, LUCKY_OPENING, R1, KNOCK_DOWN, 1])
    assert "Paralyzation, at -2 (Lucky Opening of r1) or falls" in drawn[1].prompts[0].text
    # when b1 falls instead (d2 2), its prompt has no penalty
    drawn, _ = _events(s, [*TIE, LUCKY_OPENING, R1, KNOCK_DOWN, 2])
    assert "Paralyzation or falls" in drawn[1].prompts[0].text
    # and with knock_down_source none, none either
    s = make(events_per_reroll="side", knock_down_source="none")
    s = play(s, {"type": "SetEngagement", "a": "r1", "b": "b1"})[1]
    drawn, _ = _events(s, [*TIE, LUCKY_OPENING, R1, KNOCK_DOWN, 1])
    assert "Paralyzation or falls" in drawn[1].prompts[0].text
