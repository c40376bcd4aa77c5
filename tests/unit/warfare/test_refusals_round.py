"""What the round, the champions, the referee and conceding refuse in seed 003, each with
the exact reason, the seed-text section it cites and the ids at fault: the problem+json
answer's `detail`, `rule` and context (a refusal appends nothing).

[Actions] a side's units act on its turn, in a round the referee started; [Battlefield
Champions] one action per round, before the units they lead; (referee ruling) conditions
the text names; (project ruling) conceding and a battle that is over."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.warfare.events import SideConceded, SideDefeated
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import SIDES, make, play, refused, started, types, unit

ACTIONS, CHAMPIONS = "003 Unit Actions / Actions", "003 Battlefield Champions"
PROJECT, REFEREE = "003 (project ruling)", "003 (referee ruling)"
SHATTERED = "003 Unit Actions / Shattered Units"
THREE = [*SIDES, {"id": "c", "zones": [{"id": "zc", "tiles": [[0, 5]]}]}]


def _two() -> State:
    return make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5),
                 unit("a9", "a", None, None, reserve=True)])  # fmt: skip


def _led() -> State:
    return started(
        make(
            [unit("a1", "a", 5, 9), unit("a2", "a", 7, 9), unit("b1", "b", 5, 2),
             unit("a9", "a", None, None, reserve=True)],
            champions=[{"id": "hero", "side": "a", "leads": ["a1"]},
                       {"id": "g", "side": "a", "joined": "a2"}],
        )
    )  # fmt: skip


def _over() -> State:
    _, s = play(started(_two()), {"type": "Concede", "side": "b"})
    assert s.over
    return s


def _shattered() -> State:
    s = started(_two())
    units = dict(s.units)
    units["a1"] = msgspec.structs.replace(units["a1"], status="shattered")
    return msgspec.structs.replace(s, units=units)


def _winded() -> State:
    s = started(_two())
    _, s = play(s, {"type": "ApplyCondition", "unit": "a1", "condition": "winded",
                    "reason": "ran"})  # fmt: skip
    return s


def _three_b_out() -> State:
    s = make([unit("a1", "a", 5, 9), unit("b1", "b", 5, 2),
              unit("c1", "c", 0, 5, facing="E")], sides=THREE)  # fmt: skip
    _, s = play(s, {"type": "StartRound"}, [20, 1, 2])
    _, s = play(s, {"type": "Concede", "side": "b"})
    assert not s.over
    return s


MOVE_A1 = {"type": "Move", "unit": "a1", "to": [5, 7]}

# (state, command, error, reason, rule, context)
CASES = [
    (_two, MOVE_A1, RuleViolation,
     "no round under way: the referee starts one (StartRound)", ACTIONS, {}),
    (lambda: started(_two()), {"type": "Move", "unit": "b1", "to": [5, 4]}, RuleViolation,
     "it is not b's turn (active: a)", ACTIONS, {"active": "a"}),
    (lambda: started(_two()), {"type": "Move", "unit": "zz", "to": [5, 4]}, UnknownEntity,
     "no unit 'zz'", None, {"unit": "zz"}),
    (lambda: started(_two()), {"type": "PassChampion", "champion": "zz"}, UnknownEntity,
     "no champion 'zz'", None, {"champion": "zz"}),
    (lambda: started(_two()), {"type": "StartRound"}, RuleViolation,
     "round 1 is under way (a acts)", ACTIONS, {}),
    (lambda: started(_two()), {"type": "Move", "unit": "a9", "to": [5, 7]}, RuleViolation,
     "a9 is not on the battlefield (reserve)", ACTIONS, {}),
    (_shattered, MOVE_A1, RuleViolation,
     "a1 has shattered and left the battlefield", SHATTERED, {}),
    (_over, MOVE_A1, RuleViolation, "the battle is over", ACTIONS, {}),
    (_over, {"type": "StartRound"}, RuleViolation, "the battle is over", ACTIONS, {}),
    (_over, {"type": "Concede", "side": "a"}, RuleViolation, "the battle is over", ACTIONS,
     {}),
    (_over, {"type": "ApplyCondition", "unit": "a1", "condition": "winded", "reason": "r"},
     RuleViolation, "the battle is over", ACTIONS, {}),
    (_over, {"type": "RemoveCondition", "unit": "a1", "condition": "winded", "reason": "r"},
     RuleViolation, "the battle is over", ACTIONS, {}),
    (_over, {"type": "ForceMoraleCheck", "unit": "a1", "reason": "r"},
     RuleViolation, "the battle is over", ACTIONS, {}),
    (_led, MOVE_A1 | {"to": [5, 8]}, RuleViolation,
     "hero acts before its units: its action first (PassChampion, JoinUnit or the "
     "referee's ResolveChampionAction)", CHAMPIONS, {"champion": "hero"}),
    (_led, {"type": "Move", "unit": "a2", "to": [7, 8]}, RuleViolation,
     "g acts before its units: its action first (PassChampion, JoinUnit or the "
     "referee's ResolveChampionAction)", CHAMPIONS, {"champion": "g"}),
    (_led, {"type": "JoinUnit", "champion": "hero"}, RuleViolation,
     "hero has joined no unit", CHAMPIONS, {}),
    (_led, {"type": "JoinUnit", "champion": "hero", "unit": "b1"}, RuleViolation,
     "b1 is not a's unit", CHAMPIONS, {}),
    (_led, {"type": "JoinUnit", "champion": "hero", "unit": "a9"}, RuleViolation,
     "a9 is not on the battlefield", CHAMPIONS, {}),
    (_led, {"type": "JoinUnit", "champion": "hero", "unit": "a2"}, RuleViolation,
     "g has joined a2 already", CHAMPIONS, {}),
    (_winded, {"type": "ApplyCondition", "unit": "a1", "condition": "winded", "reason": "r"},
     RuleViolation, "a1 is winded already", REFEREE, {}),
    (_winded, {"type": "RemoveCondition", "unit": "a1", "condition": "wavering",
               "reason": "r"}, RuleViolation, "a1 is not wavering", REFEREE, {}),
    (_winded, {"type": "ApplyCondition", "unit": "a9", "condition": "winded", "reason": "r"},
     RuleViolation, "a9 is not on the battlefield (reserve)", ACTIONS, {}),
    (_three_b_out, {"type": "Concede", "side": "b"}, RuleViolation,
     "b is out of the battle already", PROJECT, {}),
    (_three_b_out, {"type": "Concede", "side": "z"}, UnknownEntity, "no side 'z'", None,
     {"side": "z"}),
]  # fmt: skip


@pytest.mark.parametrize(("state", "command", "error", "reason", "rule", "context"), CASES)
def test_a_refusal_names_the_fault_and_the_section_it_breaks(
    state: Any, command: dict[str, Any], error: type, reason: str, rule: str | None,
    context: dict[str, Any],
) -> None:  # fmt: skip
    got = refused(state(), command)
    assert type(got) is error
    assert (got.reason, got.rule, got.context) == (reason, rule, context)


def test_a_champion_acts_once_a_round() -> None:
    s = _led()
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    got = refused(s, {"type": "PassChampion", "champion": "hero"})
    assert (got.reason, got.rule) == ("hero has taken its one action this round", CHAMPIONS)


def test_a_concession_records_its_reason_or_says_conceded() -> None:
    """(project ruling) a side may concede: it is defeated, with the reason it gave."""
    for given, recorded in (("the king fled", "the king fled"), ("", "conceded")):
        events, _ = play(_three_b_out(), {"type": "Concede", "side": "a", "reason": given})
        assert types(events) == ["SideConceded", "SideDefeated", "BattleEnded"]
        assert events[0] == SideConceded(side="a", reason=recorded)
        assert events[1] == SideDefeated(side="a", reason="conceded", rule=PROJECT)
