"""What a phased battle awaits and shows, as each reader is given it: for a state at each
window of a round (declarations, secret or open; initiative first or by the referee; the
action whose turn it is, shifted by a 1 or a 10, rolled or recorded by the referee; a save,
a choice or a narrative prompt left by a combat event; a carry-over to sustain; the round's
end held by a call; the battle over), every prompt (`awaiting`) and the view (`view`) of the
referee, each side and an observer, pinned in a golden file (data/awaiting_golden.json).

When a change of what readers are told is meant, write the file anew
(`PHASED_GOLDEN_WRITE=1 pytest tests/unit/phased/test_awaiting_and_view_golden.py`) and read
its diff."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

GOLDEN = Path(__file__).with_name("data") / "awaiting_golden.json"
TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event
READERS = {
    "referee": Actor(role="referee"),
    "red": Actor(role="side", side="red"),
    "blue": Actor(role="side", side="blue"),
    "party": Actor(role="side", side="party"),
    "observer": Actor(role="observer"),
}


def _end(s: State, *sides: str) -> State:
    for side in sides:
        s = play(s, {"type": "EndDeclarations", "side": side})[1]
    return s


def _casters() -> State:
    """r1 has a spell and a sword; b1 a spell of Lightning Fast, no weapon."""
    quick = [{"id": "blink", "speed": -3, "before_fast": True}]
    spells = [{"id": "gate", "speed": 1, "casting_phases": 1}]
    return make(
        setup_of(
            combatants=[
                cb("r1", "red", spells=spells),
                cb("b1", "blue", spells=quick, weapons=[]),
                cb("p1", "party"),
            ]
        )
    )


def _declared() -> State:
    """r1 attacks b1, b1 moves over two phases, p1 casts: all secret; red has ended."""
    spells = [{"id": "gate", "speed": 1, "casting_phases": 1}]
    s = make(
        setup_of(combatants=[cb("r1", "red"), cb("b1", "blue"), cb("p1", "party", spells=spells)])
    )
    s = declare(declare(s, "r1", target="b1"), "b1", "move", phases=2)
    return _end(declare(s, "p1", "spell", spell="gate"), "red")


def _open_declarations() -> State:
    s = declare(make(declarations="open", auto_initiative=False), "r1", target="b1")
    return _end(s, "red", "blue")


def _last_to_declare() -> State:
    return _end(declare(make(), "r1", target="b1"), "red", "blue")


def _initiative_first() -> State:
    return make(initiative_first=True)


def _initiative_first_rolled() -> State:
    return play(make(initiative_first=True), {"type": "RollInitiative"}, [1, 10, 4])[1]


def _a_one_and_a_ten() -> State:
    maul = {"id": "maul", "speed": 1, "damage": "2d6+1", "damage_type": "bludgeoning"}
    s = make(
        setup_of(combatants=[cb("r1", "red"), cb("b1", "blue", weapons=[maul]), cb("p1", "party")])
    )
    s = declare(declare(s, "r1", target="b1"), "b1", weapon="maul", target="r1")
    return to_phases(s, [1, 10, 4])[1]


def _a_one_late() -> State:
    """blue's 10 has acted; red's attack comes a phase late (its 1)."""
    s = play(_a_one_and_a_ten(), {"type": "ResolveAction", "action": "blue.1"}, [1])[1]
    assert s.current is not None and s.current.id == "red.1"
    return s


def _the_referee_records() -> State:
    s = declare(declare(make(), "r1"), "b1", target="r1")  # r1's attack has no target
    return to_phases(s, [8, 5, 2])[1]


def _resolution_referee() -> State:
    return to_phases(declare(make(resolution="referee"), "r1", target="b1"), [8, 5, 2])[1]


def _slip_save() -> State:
    s = make(setup_of(combatants=[cb("r1", "red", x=2, y=2), cb("b1", "blue"), cb("p1", "party")]))
    return to_phases(declare(s, "r1", target="b1"), [*TIE, 18, 1, 1])[1]


def _slip_choice() -> State:
    return play(_slip_save(), {"type": "RuleCheck", "check": "p1", "result": "success"})[1]


def _glancing_choice() -> State:
    s = make(
        setup_of(combatants=[cb("r1", "red", x=2, y=2), cb("b1", "blue"), cb("p1", "party")]),
        glancing_band=2,
    )
    s = to_phases(declare(s, "r1", target="b1"), [*TIE, 18, 1, 1])[1]
    return play(s, {"type": "RuleCheck", "check": "p1", "result": "glancing"})[1]


def _disarm_pending() -> State:
    s = to_phases(declare(make(), "r1", target="b1"), [9, 3, 2])[1]
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    s = declare(declare(s, "r1", target="b1"), "b1", target="r1")
    return to_phases(s, [*TIE, 19, 1])[1]


def _held_round_end() -> State:
    """p1's save (Knock Down) is the referee's; nothing is due: the round's end waits."""
    pos = setup_of(
        combatants=[
            cb("r1", "red", x=0, y=0),
            cb("b1", "blue", x=1, y=0),
            cb("p1", "party", x=1, y=1),
        ]
    )
    return to_phases(make(pos), [*TIE, 11, 1, 2])[1]


def _narrative() -> State:
    return to_phases(declare(make(), "r1", target="b1"), [*TIE, 3])[1]


def _weapon_dropped() -> State:
    return to_phases(declare(make(), "r1", target="b1"), [*TIE, 8, 1])[1]


def _carry_over() -> State:
    s = declare(make(carry_over_default="cancel"), "r1", "move", phases=8)
    return to_phases(s, [8, 5, 2])[1]


def _carry_sustained() -> State:
    return play(_carry_over(), {"type": "SustainAction", "action": "red.1"})[1]


def _over() -> State:
    return play(make(), {"type": "EndBattle", "winner": "blue", "reason": "rout"})[1]


SCENARIOS: dict[str, Callable[[], State]] = {
    "start": make,
    "casters": _casters,
    "declared": _declared,
    "open declarations": _open_declarations,
    "last to declare": _last_to_declare,
    "initiative first": _initiative_first,
    "initiative first rolled": _initiative_first_rolled,
    "a one and a ten": _a_one_and_a_ten,
    "a one late": _a_one_late,
    "the referee records": _the_referee_records,
    "resolution referee": _resolution_referee,
    "slip save": _slip_save,
    "slip choice": _slip_choice,
    "glancing choice": _glancing_choice,
    "disarm pending": _disarm_pending,
    "held round end": _held_round_end,
    "narrative": _narrative,
    "weapon dropped": _weapon_dropped,
    "carry over": _carry_over,
    "carry sustained": _carry_sustained,
    "over": _over,
}


def _view(state: State, reader: str) -> dict[str, Any]:
    out = dict(json.loads(msgspec.json.encode(RULESET.view(state, READERS[reader]))))
    # the options are the setup's, copied whole; every reader is shown the same combatants
    # (the referee's view pins them): neither is what a view filters
    out["options"] = None
    if reader != "referee":
        assert out["combatants"] == json.loads(
            msgspec.json.encode([msgspec.to_builtins(c) for c in state.combatants.values()])
        )
        out["combatants"] = None
    return out


def _told(state: State) -> dict[str, Any]:
    return {
        name: {
            "awaiting": json.loads(msgspec.json.encode(RULESET.awaiting(state, actor))),
            "view": _view(state, name),
        }
        for name, actor in READERS.items()
    }


def _golden() -> dict[str, Any]:
    if os.environ.get("PHASED_GOLDEN_WRITE"):
        written = {name: _told(build()) for name, build in SCENARIOS.items()}
        GOLDEN.write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")
    return dict(json.loads(GOLDEN.read_text()))


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_reader_is_told_what_the_golden_file_says(scenario: str) -> None:
    expected = _golden()[scenario]
    got = _told(SCENARIOS[scenario]())
    for reader in READERS:
        assert got[reader]["awaiting"] == expected[reader]["awaiting"], f"{scenario}: {reader}"
        assert got[reader]["view"] == expected[reader]["view"], f"{scenario}: {reader}"
