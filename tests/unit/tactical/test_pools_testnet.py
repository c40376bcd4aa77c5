"""Death saves, wounds and the end of a combat (pools.py), the cases mutation testing
found untested (issue 38; seed 002 [Health Damage]: "roll a d12 ... death save", A02)."""

from __future__ import annotations

from domain.rulesets.tactical.events import DeathSaveRolled
from domain.rulesets.tactical.model import State
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
