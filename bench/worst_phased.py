"""The worst phased (seed 004) command a hostile setup can cause, timed for
`bench/worst_command.py` (decide with the server's HMAC dice, then the fold).

At the setup's bounds (`domain/rulesets/phased/limits.py`: 8 sides, 200 combatants, each
with three armour pieces, a mount, 16 weapons and 32 items, packed within threat range of
each other, threat and touch range 5): `RollInitiative` with every side tied draws a
combat event per side re-rolling (`events_per_reroll: side`), each looking over every
combatant; the worst of many seeds is kept.

    python -m bench.worst_phased
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from domain.dice import ServerDice
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.limits import MAX_COMBATANTS, MAX_SIDES
from domain.rulesets.phased.options import Options
from domain.rulesets.phased.setup import Setup

__all__ = ["largest_phased_setup", "main", "phased_figures"]

SEEDS = 40


def largest_phased_setup() -> dict[str, Any]:
    sides = [{"id": f"s{i}"} for i in range(MAX_SIDES)]
    combatants = [
        {
            "id": f"c{i}",
            "side": f"s{i % MAX_SIDES}",
            "x": i % 15,
            "y": i // 15,
            "hp": 10,
            "armour": ["helmet", "shield", "armour"],
            "mount": {"kind": "mount"},
            "weapons": [{"id": f"w{k}"} for k in range(16)],
            "items": [{"id": f"i{k}"} for k in range(32)],
        }
        for i in range(MAX_COMBATANTS)
    ]
    return {"sides": sides, "combatants": combatants, "width": 100, "height": 100}


def phased_figures() -> list[tuple[str, float, int]]:
    options = Options(events_per_reroll="side", threat_range=5, touch_range=5)
    state = RULESET.initial_state(msgspec.convert(largest_phased_setup(), Setup), options)
    command = RULESET.command_decoder.decode(b'{"type":"RollInitiative"}')
    worst, events = 0.0, 0
    for version in range(1, SEEDS + 1):
        dice = ServerDice(seed=b"\x07" * 32, epoch=1, battle_id="bench", version=version)
        start = time.perf_counter()
        out = RULESET.decide(state, command, dice)
        folded = state
        for e in out:
            folded = RULESET.evolve(folded, e)
        ms = (time.perf_counter() - start) * 1000
        if ms > worst:
            worst, events = ms, len(out)
    return [(f"RollInitiative, worst of {SEEDS} seeds (ties, combat events)", worst, events)]


def main() -> None:
    for label, ms, events in phased_figures():
        print(f"  {label:<58} {ms:8.2f} ms  ({events} events)")


if __name__ == "__main__":
    main()
