"""`make bench` (python -m bench.forecast): forecast playouts of a quickstart battle.

From a mid-battle state (the seed's quickstart setup of tests.support.quickstart_play,
played on by the default policy until the first round's moves are under way), runs
playouts to the end for 10 s in this one process, as one forecast pool process runs them
(`service.desk.forecast.worker.run_slice`: fresh dice, the default policy, one random source
per run), and prints playouts per second beside the target: at least 1,000 full playouts
in 10 s on one core. Not a test: it reports.
"""

from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

import msgspec

from domain.forecast import RandomDice
from domain.rulesets import get_ruleset
from domain.rulesets.forecasts import FORECASTS
from service.desk.forecast.worker import run_slice
from tests.support.quickstart_play import SETUP

__all__ = ["main", "mid_battle"]

TARGET = 1000  # full playouts in 10 s on one core


def mid_battle(commands: int = 30, seed: int = 1) -> Any:
    """The quickstart SETUP after `commands` commands of the default policy."""
    rs = get_ruleset("quickstart")
    assert rs is not None and rs.decide_folded is not None
    state = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    policy = FORECASTS["quickstart"].policies["advance"]
    rng = Random(seed)
    dice = RandomDice(rng)
    for _ in range(commands):
        _, command = next(iter(policy(state, rng)))
        _, state = rs.decide_folded(state, command, dice)
        assert not rs.is_over(state), "the bench's mid-battle state must not be over"
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    state = mid_battle()
    run_slice("quickstart", "advance", state, 0, 0, 20, float("inf"))  # warm up
    start = time.perf_counter()
    done = run_slice("quickstart", "advance", state, 7, 0, 10**9, time.monotonic() + args.seconds)
    elapsed = time.perf_counter() - start
    runs = len(done)
    commands = sum(p.commands for _, p in done) / max(runs, 1)
    rate = runs / elapsed
    print("forecast playouts, quickstart, mid-battle (one core, default policy)")
    print(f"  playouts:            {runs:8d} in {elapsed:.1f} s ({commands:.0f} commands each)")
    print(f"  playouts per second: {rate:8.1f}")
    print(
        f"  in 10 s:             {rate * 10:8.0f}  (target: at least {TARGET}) "
        + ("met" if rate * 10 >= TARGET else "NOT MET")
    )


if __name__ == "__main__":
    main()
