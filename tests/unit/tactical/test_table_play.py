"""Table play in the domain (issue 34, seed 002): battles played to their end choosing
every command from `awaiting` (and `reach` for moves) alone, with table dice asked for in
data (`next_die`, naming the character each die is for)."""

from __future__ import annotations

import random
from functools import partial

from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.reach import reach
from tests.support.table_policies.tactical import choose, pick
from tests.support.tactical_kit import ch, make, play, started
from tests.support.tactical_table import REFEREE, actor_of, give, play_through
from tests.unit.tactical.test_awaiting import battle


def test_battles_play_to_their_end_from_awaiting_and_next_die_alone() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = battle(rng, invisible=seed % 2 == 1)
        steps = 0
        for _state, prompt, body, asked in play_through(state, rng):
            steps += 1
            assert body["type"] in prompt.commands
            # every die asked for names the character it is for
            assert all(nd.subject is not None for nd in asked), asked
        assert steps > 5


def test_the_play_ends_with_the_battle_over() -> None:
    rng = random.Random(11)
    state = battle(rng, invisible=False)
    # the last step again, with the random state it was played from (its dice alike)
    snap = rng.getstate()
    steps = []
    for step in play_through(state, rng):
        steps.append((step, snap))
        snap = rng.getstate()
    (before, prompt, body, _), snap = steps[-1]
    again = random.Random()
    again.setstate(snap)
    assert pick(RULESET.awaiting(before, REFEREE), again) == prompt
    actor = actor_of(prompt)
    assert choose(prompt, partial(reach, before, actor), again) == body
    after, _asked = give(before, body, actor, again)
    assert RULESET.is_over(after) and RULESET.awaiting(after, REFEREE) == []


def test_a_character_felled_in_its_own_turn_may_end_it() -> None:
    """An opportunity attack drops the mover: its turn is no longer stuck (EndTurn)."""
    state = started(
        make([ch("a1", "a", 2, 2, HEA={"cur": 1, "max": 20}), ch("b1", "b", 3, 2),
              ch("b2", "b", 7, 7), ch("a2", "a", 7, 0)], width=8, height=8),
        [12, 1, 2, 3],
    )  # fmt: skip
    state = play(state, {"type": "Move", "character": "a1", "to": [0, 2]})[1]
    state = play(state, {"type": "OpportunityAttack", "character": "b1"}, [6])[1]
    state = play(state, {"type": "React", "character": "a1", "reaction": "none"})[1]
    assert state.chars["a1"].down and state.active == "a1"
    assert [p.commands for p in RULESET.awaiting(state, REFEREE)] == [("EndTurn",)]
    after = give(state, {"type": "EndTurn", "character": "a1"}, REFEREE, random.Random(1))[0]
    assert after.active != "a1"
