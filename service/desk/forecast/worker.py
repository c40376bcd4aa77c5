"""What a forecast pool process runs: a slice of the runs, each with its own random source.

Run `i` of a forecast draws everything (dice and the policy's choices) from
`Random(f"{seed}:{i}")`, so the answer does not depend on how the runs are split among
processes, only on the seed. A slice stops at the deadline (`time.monotonic()`, the same
clock in every process of the machine), or when the pool raises its forecast's flag (the
client went away: `ForecastPool`): the run under way is dropped, not counted.
"""

from __future__ import annotations

import mmap
import time
from random import Random
from typing import Any

from domain.forecast import Playout, playout
from domain.rulesets import get_ruleset
from domain.rulesets.forecasts import FORECASTS

__all__ = ["MAX_COMMANDS", "attach", "run_slice", "warm_up"]

MAX_COMMANDS = 5000  # per run: a policy that never ends the battle is cut here (undecided)

# The pool's flags, one byte per forecast slot (non-zero: stop), mapped read-only from the
# file the pool names when it starts this process; None outside a pool (tests, a bench).
_flags: mmap.mmap | None = None


def attach(path: str) -> None:
    """The pool's process initializer: map its flags file."""
    global _flags
    with open(path, "rb") as f:
        _flags = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def run_slice(
    ruleset_id: str,
    policy_name: str,
    state: Any,
    seed: int,
    first: int,
    count: int,
    deadline: float,
    max_commands: int = MAX_COMMANDS,
    slot: int | None = None,
) -> list[tuple[int, Playout]]:
    """Runs `first` .. `first + count - 1`, as many as finish before `deadline` (or before
    the pool raises flag `slot`)."""
    ruleset = get_ruleset(ruleset_id)
    rules = FORECASTS[ruleset_id]
    assert ruleset is not None
    policy = rules.policies[policy_name]
    monotonic = time.monotonic

    flags, index = _flags, slot

    def stop() -> bool:
        if flags is not None and index is not None and flags[index]:
            return True
        return monotonic() >= deadline

    done: list[tuple[int, Playout]] = []
    for i in range(first, first + count):
        if stop():
            break
        result = playout(
            ruleset, rules, state, policy, Random(f"{seed}:{i}"),
            max_commands=max_commands, stop=stop,
        )  # fmt: skip
        if result is None:
            break
        done.append((i, result))
    return done


def warm_up() -> None:
    """Nothing: submitted once per process so that its start is not paid by a forecast."""
