"""`awaiting` answers exactly as recorded: the prompts (JSON) of every sampled state of
the table play-throughs bench/awaiting.py measures, for the referee and for one side,
per ruleset, in tests/unit/data/awaiting_golden/<ruleset>.json.

The recordings were made before awaiting was made cheaper (probing each candidate once,
per-call memoising): a speed-up must not change one prompt. A deliberate change of the
prompts re-records them: `python -m tests.unit.test_awaiting_golden`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bench.awaiting import RULESETS, play_throughs
from domain.actors import Actor

__all__ = ["record"]

DATA = Path(__file__).parent / "data" / "awaiting_golden"
CAP = 16  # states kept per ruleset, evenly spread over its play-throughs


def _sampled(name: str) -> list[Any]:
    states = play_throughs(name)
    step = max(1, len(states) // CAP)
    return states[::step][:CAP]


def _answers(name: str) -> list[Any]:
    rs, _player, side = RULESETS[name]
    actors = (Actor(role="referee"), Actor(role="side", side=side))
    return [
        [msgspec.to_builtins(rs.awaiting(state, actor)) for actor in actors]
        for state in _sampled(name)
    ]


def record() -> None:
    """Write the recordings anew from the current code."""
    DATA.mkdir(parents=True, exist_ok=True)
    for name in RULESETS:
        text = json.dumps(_answers(name), separators=(",", ":"), sort_keys=True)
        (DATA / f"{name}.json").write_text(text + "\n")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_awaiting_answers_as_recorded(name: str) -> None:
    recorded = json.loads((DATA / f"{name}.json").read_text())
    now = json.loads(json.dumps(_answers(name), sort_keys=True))
    assert len(now) == len(recorded)
    for i, (got, want) in enumerate(zip(now, recorded, strict=True)):
        assert got == want, f"{name}: state {i}"


if __name__ == "__main__":
    record()
