"""What a forecast pool process runs: a slice of the runs, each with its own random source.

Run `i` of a forecast draws everything (dice and the policy's choices) from
`Random(f"{seed}:{i}")`, so the answer does not depend on how the runs are split among
processes, only on the seed. A slice stops at the deadline (`time.monotonic()`, the same
clock in every process of the machine): the run under way is dropped, not counted.
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

from domain.forecast import Playout, playout
from domain.rulesets import get_ruleset
from domain.rulesets.forecasts import FORECASTS

__all__ = ["MAX_COMMANDS", "run_slice", "warm_up"]

MAX_COMMANDS = 5000  # per run: a policy that never ends the battle is cut here (undecided)


def run_slice(
    ruleset_id: str,
    policy_name: str,
    state: Any,
    seed: int,
    first: int,
    count: int,
    deadline: float,
    max_commands: int = MAX_COMMANDS,
) -> list[tuple[int, Playout]]:
    """Runs `first` .. `first + count - 1`, as many as finish before `deadline`."""
    ruleset = get_ruleset(ruleset_id)
    rules = FORECASTS[ruleset_id]
    assert ruleset is not None
    policy = rules.policies[policy_name]
    monotonic = time.monotonic

    def stop() -> bool:
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
