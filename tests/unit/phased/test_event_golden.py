"""What seed 004's events say, whole, for a battle played through every row of the Combat
Events table and the rest of a round (initiative and its ties, phases, the roll, carry-overs,
the referee's rulings): every text a player or the referee reads (prompts, reasons, what a
die was rolled for, what a selection chose among) and every number, pinned in a golden file
(data/event_golden.json), compared event by event.

A change of what the events say is a change users see: when it is meant, write the golden
file anew (`PHASED_GOLDEN_WRITE=1 pytest tests/unit/phased/test_event_golden.py`) and read
its diff."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

GOLDEN = Path(__file__).with_name("data") / "event_golden.json"
TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event
Events = list[Any]


def _three(**by_id: dict[str, Any]) -> dict[str, Any]:
    return setup_of(
        combatants=[
            cb(c, side, **by_id.get(c, {}))
            for c, side in (("r1", "red"), ("b1", "blue"), ("p1", "party"))
        ]
    )


def _tie(s: State, rest: list[int]) -> tuple[Events, State]:
    """Every side ends its declarations; the tie draws one combat event with `rest`."""
    return to_phases(s, [*TIE, *rest])


def _attacked(s: State) -> State:
    """Round 2's Starting Phase, r1 having attacked (and missed) with its first weapon."""
    weapon = next(iter(s.combatants["r1"].weapons))
    s = declare(s, "r1", weapon=weapon, target="b1")
    s = to_phases(s, [9, 3, 2])[1]
    return play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]


POS = {"r1": {"x": 0, "y": 0}, "b1": {"x": 1, "y": 0}, "p1": {"x": 1, "y": 1}}


def _armour() -> Events:
    return _tie(make(_three(r1={"armour": ["helmet", "armour"]})), [1, 4, 6])[0]


def _rows_that_cannot_occur() -> Events:
    # armour (1), close quarters (6), knock down (9), mount (14), weapon trouble (19): none
    # can occur here; then Reinforcements (16) for party (d3 3)
    return _tie(make(), [1, 6, 9, 14, 19, 16, 3])[0]


def _nothing_held() -> Events:
    bare = {"weapons": []}
    s = make(_three(r1=bare, b1=bare, p1=bare))
    out = _tie(s, [7, 8, 17, 2])[0]  # no item, none held; Retreat for blue (d3 2)
    carried = {"weapons": [], "items": [{"id": "map", "held": False}]}
    s = make(_three(r1=carried, b1=bare, p1=bare))
    return out + _tie(s, [8, 7])[0]  # r1's map is carried, not held: damaged, not dropped


def _battlefield() -> Events:
    s = make(setup_of(features=[{"id": "bridge"}, {"id": "tree"}]))
    return _tie(s, [3, 2])[0] + _tie(make(), [4])[0]


def _shifts() -> Events:
    grid = {"width": 10, "height": 10}
    placed = {"r1": {"x": 0, "y": 0}, "b1": {"x": 5, "y": 5}, "p1": {"x": 9, "y": 9}}
    every = make({**_three(**placed), **grid})
    each = make({**_three(**placed), **grid}, shift_each="each", random_direction="d4")
    return (
        _tie(every, [5, 3, 3])[0]
        + _tie(each, [5, 1, 2, 2, 3, 6, 4])[0]
        + _tie(make(), [5, 2, 1])[0]
        + _tie(make({**_three(r1={"x": 2, "y": 8}), **grid}), [5, 3, 5])[0]  # 3 S: the edge
        # no grid: nothing past the far edges, no square below 0 (4 squares NW)
        + _tie(make(_three(r1={"x": 1, "y": 1}, b1={"x": 9, "y": 5})), [5, 4, 8])[0]
    )


def _close_quarters() -> Events:
    s = make(_three(r1={"x": 0, "y": 0}, b1={"x": 1, "y": 0}, p1={"x": 2, "y": 0}))
    events, s = _tie(s, [6, 2, 1])  # b1 (d3 2) grapples r1 (d2 1)
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1] if s.current else s
    return events + _tie(s, [6, 2])[0]  # b1 holds r1 already: only p1 is free for it


def _items() -> Events:
    s = make(_three(r1={"items": [{"id": "rope"}, {"id": "map", "held": False}]}))
    return _tie(s, [7, 1, 3])[0] + _tie(s, [8, 1, 2])[0]


def _knock_down() -> Events:
    saves = {"b1": {**POS["b1"], "saves": {"paralyzation": 12}}}
    s = make(_three(**{**POS, **saves}))
    out = _tie(s, [9, 1, 1, 11])[0]
    events, s = _tie(make(_three(**POS)), [11, 1, 2])  # p1 (d2 2): no value, the referee's
    out += events
    out += play(s, {"type": "RuleCheck", "check": "p1", "result": "fail", "reason": "slow"})[0]
    # without positions the referee finds the nearest figure; under Lucky Opening at -2
    engaged = setup_of(engaged=[["r1", "b1"]])
    events, s = _tie(make(engaged, events_per_reroll="side"), [13, 1, 9, 1])
    return out + events


def _lucky() -> Events:
    s = declare(make(), "r1", target="b1")
    events, s = _tie(s, [12, 2])
    events += play(s, {"type": "ResolveAction", "action": "red.1"}, [14, 3])[0]
    return events + _tie(make(one_round_effects="end_next_round"), [13, 1])[0]


def _mount() -> Events:
    rider = {"mount": {"kind": "mount"}, "checks": {"advanced_riding": 15, "riding": 15}}
    rider["saves"] = {"paralyzation": 14}
    driver = {"mount": {"kind": "vehicle"}}
    out = _tie(make(_three(r1=rider)), [14, 2, 4, 5])[0]  # off course 4 rounds, south
    out += _tie(make(_three(r1=rider)), [15, 3, 10, 3])[0]  # bucks: check and save fail
    out += _tie(make(_three(r1=rider)), [14, 6, 2, 2, 2])[0]  # stumbles: stunned 2 rounds
    events, s = _tie(make(_three(r1=driver)), [15, 6])  # the referee rules the driving check
    out += events
    events, s = play(s, {"type": "RuleCheck", "check": "p1", "result": "fail"})
    out += events  # overturned: a prompt (p2) and the save, the referee's too (p3)
    return out + play(s, {"type": "ClosePrompt", "prompt": "p2", "note": "noted"})[0]


def _slip() -> Events:
    pos = {"r1": {"x": 5, "y": 5, "saves": {"paralyzation": 10}}}
    s = make({**_three(**pos), "width": 10, "height": 10}, glancing_band=2)
    out = _tie(s, [18, 1, 1, 3])[0]  # the save fails: all three
    events, s = _tie(s, [18, 1, 1, 8])  # glancing: two of them, the side's choice
    out += events
    out += play(s, {"type": "ChooseEffects", "choice": "p2", "effects": [2, 0]})[0]
    out += _tie(make(), [18, 3, 2])[0]  # no position: the move is the referee's
    carried = _three(r1={"items": [{"id": "map", "held": False}]})
    return out + _tie(make(carried), [18, 1, 1])[0]  # r1 may drop its sword, not its map


def _weapon_trouble() -> Events:
    s = _attacked(make(_three(r1={"saves": {}})))
    out = _tie(s, [19, 6])[0] + _tie(s, [20, 1])[0] + _tie(s, [19, 3])[0]
    club = {"id": "club", "speed": 1, "damage": "1d6", "damage_type": "bludgeoning"}
    club["saves"] = {"crushing_blow": 10}
    s = _attacked(make(_three(r1={"weapons": [club]})))
    return out + _tie(s, [19, 6, 4, 4])[0]


def _initiative() -> Events:
    out = to_phases(make(), [10, 1, 1, 4, 4, 8, 2, 16, 1, 3])[0]  # blue, party tie twice
    out += to_phases(make(events_per_reroll="side"), [6, 6, 2, 3, 4, 16, 1, 16, 2])[0]
    out += to_phases(make(extreme_ties="no_event"), [10, 10, 3, 4, 5])[0]
    first = play(make(initiative_first=True), {"type": "RollInitiative"}, [4, 8, 2])
    return out + first[0]


def _a_round() -> Events:
    spells = [{"id": "gate", "speed": 1, "casting_rounds": 1}]
    s = make(
        setup_of(
            combatants=[
                cb("r1", "red", hp=4),
                cb("b1", "blue", spells=spells),
                cb("p1", "party", dex=18),
            ]
        ),
        announce_empty_phases=True,
    )
    s = declare(s, "r1", "move", phases=8)
    s = declare(s, "b1", "spell", spell="gate")
    s = declare(s, "p1", target="r1")
    out, s = to_phases(s, [8, 5, 2])
    events, s = play(s, {"type": "ResolveAction", "action": "party.1"}, [19, 6])  # r1 falls
    out += events
    return out + play(make(), {"type": "EndBattle", "winner": "red", "reason": "a truce"})[0]


def _nobody_up() -> Events:
    # auto_end off, everyone out: Lucky Break (12) and Slip (18) cannot occur
    s = make(auto_end=False)
    for c in ("r1", "b1", "p1"):
        s = play(s, {"type": "AdjustCombatant", "combatant": c, "hp": 0})[1]
    return play(s, {"type": "RollInitiative"}, [*TIE, 12, 18, 3])[0]


def _retreat_in_melee() -> Events:
    out = _tie(make(_three(**POS)), [17, 1])[0]  # red (d3 1): r1 is threatened
    two = setup_of(
        combatants=[
            cb("r1", "red", x=0, y=0),
            cb("r2", "red", x=2, y=0),
            cb("b1", "blue", x=1, y=0),
            cb("p1", "party"),
        ]
    )
    return out + _tie(make(two), [17, 1])[0]  # r1 and r2 both threatened by b1


def _cancellations() -> Events:
    s = declare(declare(make(), "r1", target="b1"), "b1", target="r1")
    s = play(s, {"type": "AdjustCombatant", "combatant": "b1", "hp": 0, "reason": "fell"})[1]
    s = to_phases(s, [8, 5, 2])[1]
    out = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[0]  # blue.1: b1 is out
    s = declare(make(), "r1", target="b1")
    out += play(s, {"type": "CancelAction", "action": "red.1"})[0]
    out += play(s, {"type": "CancelAction", "action": "red.1", "reason": "changed mind"})[0]
    for default in ("cancel", "sustain"):  # a run of 8 phases carries over, undecided
        s = declare(make(carry_over_default=default), "r1", "move", phases=8)
        s = to_phases(s, [8, 5, 2])[1]
        out += play(s, {"type": "EndDeclarations", "side": "red"})[0]
    return out


def _battle_ends() -> Events:
    s = declare(make(), "r1", target="b1")
    s = play(s, {"type": "AdjustCombatant", "combatant": "p1", "hp": 0})[1]
    s = play(s, {"type": "AdjustCombatant", "combatant": "b1", "hp": 5})[1]
    s = to_phases(s, [8, 5, 2])[1]
    out = play(s, {"type": "ResolveAction", "action": "red.1"}, [15, 6])[0]  # b1 falls
    # unable_cancels off: r1, out, still attacks; every combatant is out when it hits
    s = declare(make(unable_cancels=False), "r1", target="b1")
    for c in ("r1", "b1", "p1"):
        s = play(s, {"type": "AdjustCombatant", "combatant": c, "hp": 0})[1]
    s = to_phases(s, [8, 5, 2])[1]
    return (
        out
        + play(s, {"type": "RecordOutcome", "action": "red.1", "outcome": "hit", "damage": 2})[0]
    )


SCENARIOS: dict[str, Callable[[], Events]] = {
    "nobody up": _nobody_up,
    "retreat in melee": _retreat_in_melee,
    "cancellations": _cancellations,
    "battle ends": _battle_ends,
    "armour trouble": _armour,
    "rows that cannot occur": _rows_that_cannot_occur,
    "nothing held": _nothing_held,
    "battlefield damaged": _battlefield,
    "battlefield shifts": _shifts,
    "close quarters": _close_quarters,
    "items": _items,
    "knock down": _knock_down,
    "lucky": _lucky,
    "mount or vehicle trouble": _mount,
    "slip": _slip,
    "weapon trouble": _weapon_trouble,
    "initiative": _initiative,
    "a round": _a_round,
}


def _plain(events: Events) -> list[Any]:
    return [json.loads(msgspec.json.encode(e)) for e in events]


def _golden() -> dict[str, Any]:
    if os.environ.get("PHASED_GOLDEN_WRITE"):
        written = {name: _plain(build()) for name, build in SCENARIOS.items()}
        GOLDEN.write_text(json.dumps(written, indent=1, ensure_ascii=False) + "\n")
    return dict(json.loads(GOLDEN.read_text()))


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_events_say_what_the_golden_file_says(scenario: str) -> None:
    expected = _golden()[scenario]
    got = _plain(SCENARIOS[scenario]())
    for i, (g, e) in enumerate(zip(got, expected, strict=False)):
        assert g == e, f"{scenario}: event {i}"
    assert len(got) == len(expected)
