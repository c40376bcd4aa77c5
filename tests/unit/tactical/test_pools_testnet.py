"""Death saves, wounds and the end of a combat (pools.py), the cases mutation testing
found untested (issue 38; seed 002 [Health Damage]: "roll a d12 ... death save", A02)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.tactical.events import CombatEnded, DeathSaveRolled
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started


def _dying_next() -> State:
    """a1 acts; b1, dying at HEA -1, acts next; b2 stands."""
    dying = ch("b1", "b", 5, 5, HEA={"cur": -1, "max": 20}, conditions=[{"name": "dying"}])
    return started(make([ch("a1", "a", 2, 2), dying, ch("b2", "b", 7, 7)], width=8, height=8),
                   [12, 6, 1])  # fmt: skip


def test_a_death_save_is_a_d12_recorded_with_its_die() -> None:
    events, _ = play(_dying_next(), {"type": "EndTurn", "character": "a1"}, [1, 12])
    [save] = [e for e in events if isinstance(e, DeathSaveRolled)]
    assert save.die is not None and (save.die.sides, save.die.values) == (12, (12,))
    assert save.die.purpose == "death save of b1"
    assert (save.reason, save.success, save.successes, save.failures) == ("death save", True, 1, 0)


def _knock_out(state: State, cid: str) -> list[object]:
    cmd = {"type": "SetCondition", "character": cid, "condition": "unconscious",
           "reason": "a ruling"}  # fmt: skip
    return play(state, cmd)[0]


def test_when_no_side_has_anyone_standing_the_combat_ends_with_no_winner() -> None:
    """[Sequence §5], A45: the combat ends when at most one side stands; none: no winner."""
    s = started(make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5)], width=8, height=8), [12, 1])
    b1 = replace(s.chars["b1"], conditions=(Condition(name="unconscious"),))
    s = replace(s, chars={**s.chars, "b1": b1})
    [ended] = [e for e in _knock_out(s, "a1") if isinstance(e, CombatEnded)]
    assert (ended.winner, ended.reason) == (None, "no side has anyone standing")


def test_before_initiative_a_side_down_ends_nothing() -> None:
    """A45 ends a combat under way: a ruling before initiative ([Sequence §3]) ends none."""
    s = make([ch("a1", "a", 2, 2), ch("b1", "b", 5, 5)], width=8, height=8)
    assert s.phase == "setup"
    assert not [e for e in _knock_out(s, "b1") if isinstance(e, CombatEnded)]
