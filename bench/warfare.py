"""`python -m bench.warfare`: what a warfare (seed 003) round of 200 units a side costs.

In process, at the decider (`decide_folded`, the call the service makes): 400 units in
facing pairs on a 100 x 100 map, one whole round: the roll-off, every unit of the first
side engaging and attacking its pair, every unit of the second attacking back, both turns
ended. Printed in microseconds per command beside the quickstart's commands replayed the
same way (the issue's budget: "the same per-command budget as quickstart commands"). Not
a test: it reports, it does not fail on a slow machine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from bench.scripts import _SeededDice
from bench.tactical import quickstart_us
from domain.rulesets.warfare import RULESET as WARFARE
from domain.rulesets.warfare.model import State

__all__ = ["main", "round_us"]

ROUNDS = 5
PAIRS = 200


def _unit(uid: str, side: str, x: int, y: int) -> dict[str, Any]:
    return {
        "id": uid, "side": side, "x": x, "y": y, "attack": 5, "defense": 15, "damage": 10,
        "health": 100_000, "speed": 4, "morale": 2, "facing": "N" if side == "a" else "S",
    }  # fmt: skip


def _state() -> State:
    units = []
    for i in range(PAIRS):
        x, y = 2 * (i % 40), 10 + 3 * (i // 40)
        units.append(_unit(f"b{i}", "b", x, y))
        units.append(_unit(f"a{i}", "a", x, y + 1))
    setup = {
        "width": 100,
        "height": 100,
        "sides": [
            {"id": "a", "zones": [{"id": "za", "tiles": [[x, 99] for x in range(100)]}]},
            {"id": "b", "zones": [{"id": "zb", "tiles": [[x, 0] for x in range(100)]}]},
        ],
        "units": units,
    }
    return WARFARE.initial_state(
        msgspec.convert(setup, WARFARE.setup_type), WARFARE.options_type(side_order="setup")
    )


def _commands() -> list[Any]:
    plain: list[dict[str, Any]] = [{"type": "StartRound"}]
    for i in range(PAIRS):
        plain.append({"type": "Engage", "unit": f"a{i}", "target": f"b{i}"})
        plain.append({"type": "Attack", "unit": f"a{i}", "target": f"b{i}"})
    plain.append({"type": "EndTurn", "side": "a"})
    plain += [{"type": "Attack", "unit": f"b{i}", "target": f"a{i}"} for i in range(PAIRS)]
    plain.append({"type": "EndTurn", "side": "b"})
    return [msgspec.convert(c, WARFARE.command_type) for c in plain]


def round_us() -> tuple[float, float, int]:
    """(us per command, us per attack, commands): each command's best of ROUNDS plays of
    the round (a round takes tens of milliseconds, long enough for a shared machine to
    preempt it; the quickstart's figure is the best of short runs)."""
    base = _state()
    commands = _commands()
    decide = WARFARE.decide_folded
    assert decide is not None
    best = [float("inf")] * len(commands)
    for r in range(ROUNDS):
        rng = random.Random(r)
        state = base
        for i, cmd in enumerate(commands):
            start = time.perf_counter()
            _, state = decide(state, cmd, _SeededDice(rng))
            best[i] = min(best[i], time.perf_counter() - start)
        assert state.round == 1 and state.active is None
    attacks = [b for b, c in zip(best, commands, strict=True) if type(c).__name__ == "Attack"]
    return sum(best) / len(best) * 1e6, sum(attacks) / len(attacks) * 1e6, len(commands)


def main() -> None:
    per_command, per_attack, commands = round_us()
    qs, qs_commands = quickstart_us()
    print("warfare (seed 003), in process at the decider (decide_folded)")
    print(
        f"  a round of {PAIRS} units a side, every unit attacking ({commands} commands): "
        f"{per_command:8.1f} us/command, {per_attack:8.1f} us/attack"
    )
    print(f"  quickstart, one played battle ({qs_commands} commands): {qs:8.1f} us/command "
          "(the budget: warfare's per-command figure at or below it)")  # fmt: skip


if __name__ == "__main__":
    main()
