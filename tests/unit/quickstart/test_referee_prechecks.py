"""The referee's calls the quickstart's `awaiting` lists without running decide (issue 37):
an `AdjustSquad` that changes nothing, asked of `decide.adjustable`, and `EndBattle`,
listed in every state awaiting answers (every state but the end).

Given every state of the table play-throughs and of seeded plays to their end (with the
end itself), when the referee gives an AdjustSquad leaving every field out for each squad,
then authorize and decide accept it exactly when `adjustable` says so; and EndBattle (no
winner, or each side) exactly when the battle is not over.
"""

from __future__ import annotations

from domain.probing import accepts
from domain.rulesets.quickstart import RULESET as RS
from domain.rulesets.quickstart.commands import AdjustSquad, EndBattle
from domain.rulesets.quickstart.decide import adjustable
from domain.rulesets.quickstart.model import State
from tests.support.quickstart_play import play_to_end
from tests.support.quickstart_states import table_play_states
from tests.support.quickstart_testkit import REF


def _accepted(state: State, command: object) -> bool:
    return accepts(
        lambda dice: (RS.authorize(state, command, REF), RS.decide(state, command, dice))
    )


def test_adjustable_and_the_end_are_what_decide_accepts_from_the_referee() -> None:
    ends = [play_to_end(seed=seed)[0] for seed in range(3)]
    seen: set[tuple[str, bool]] = set()
    for state in [*table_play_states(), *ends]:
        for sid in state.squads:
            ok = _accepted(state, AdjustSquad(squad=sid))
            assert ok == adjustable(state), (sid, state.phase, state.combat)
            seen.add(("adjust", ok))
        going = state.phase != "over"
        for winner in (None, *state.sides):
            assert _accepted(state, EndBattle(winner=winner)) == going, (winner, state.phase)
        seen.add(("end", going))
    # both answers were met: in combat and out of it, before the end and at it
    assert seen == {("adjust", True), ("adjust", False), ("end", True), ("end", False)}
