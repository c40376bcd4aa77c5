"""The states of the quickstart's table play-throughs (those bench/awaiting.py measures and
the awaiting golden test samples), for tests that must not import bench/."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_play import SETUP
from tests.support.table_policies import quickstart
from tests.support.table_policies.play import play

__all__ = ["table_play_states"]


def table_play_states(seeds: range = range(2)) -> list[Any]:
    """The state before each command of SETUP played to its end by the table policy, a
    play-through per seed (bench.awaiting.play_throughs("quickstart"))."""
    rs = RULESET
    start = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    states: list[Any] = []
    for seed in seeds:
        play(rs, start, quickstart.pick, quickstart.choose, seed, referee_last=True,
             on_command=lambda state, *_: states.append(state))  # fmt: skip
    return states
