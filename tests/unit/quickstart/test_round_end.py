"""What the end of a round resets (seed 001, "Combat phases": each round starts again with
its priority phase, and every squad's and hero's actions are its own round's): each squad's
moves, actions, fired engines, boosts and heal, hidden squads revealed, the heroes' spent
minor actions, skills and repositioning, the engines fired; wounds heal unless the option
`wounds_reset_each_round` is off (RULINGS.md)."""

from __future__ import annotations

import msgspec
import pytest

from domain.rulesets.quickstart.model import State
from tests.support.quickstart_testkit import make, run, sq

SPENT = {"moves_used": 2, "standard_used": True, "minor_used": True, "attacked": True,
         "skirmished": True, "engines_fired": 1, "wounds": 1, "hidden": True,
         "boosts": ("heal",), "heal_left": 1}  # fmt: skip


def _last_step(wounds_reset: bool) -> State:
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 9, 9)]
    heroes = [{"id": "h", "side": "north", "squad": "n"}]
    engines = [{"id": "e", "side": "north", "level": 1, "x": 1, "y": 1}]
    s = make(squads, heroes=heroes, engines=engines,
             options={"wounds_reset_each_round": wounds_reset})  # fmt: skip
    s, _ = run(s, "SkipPriorityChecks", [6, 1])
    for _ in range(5):  # north: moves, combats; south: moves, combats; north repositions
        s, _ = run(s, "EndStep")
    assert (s.phase, s.active_side) == ("reposition", "south")
    squads_ = {k: msgspec.structs.replace(q, **SPENT) for k, q in s.squads.items()}
    hero = msgspec.structs.replace(s.heroes["h"], minor_lost=True, skill_used=True,
                                   repositioned=True)  # fmt: skip
    engine = msgspec.structs.replace(s.engines["e"], fired=True)
    return msgspec.structs.replace(s, squads=squads_, heroes={"h": hero}, engines={"e": engine})


@pytest.mark.parametrize("wounds_reset", [True, False])
def test_a_new_round_starts_every_squad_and_hero_afresh(wounds_reset: bool) -> None:
    s, ev = run(_last_step(wounds_reset), "EndStep")
    assert [type(e).__name__ for e in ev] == ["SquadRevealed", "SquadRevealed", "RoundEnded"]
    assert (s.round, s.phase, s.step, s.order, s.turn, s.checks, s.chooser) == (
        2, "priority", "checks", (), 0, {}, None)  # fmt: skip
    for q in s.squads.values():
        assert (q.moves_used, q.standard_used, q.minor_used, q.attacked, q.skirmished,
                q.engines_fired, q.hidden, q.boosts, q.heal_left) == (
            0, False, False, False, False, 0, False, (), 0)  # fmt: skip
        assert q.wounds == (0 if wounds_reset else 1)
    h = s.heroes["h"]
    assert (h.minor_lost, h.skill_used, h.repositioned) == (False, False, False)
    assert s.engines["e"].fired is False
