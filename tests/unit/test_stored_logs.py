"""Battles stored by an older ruleset version replay to the state that version folded them
to (issue 32: warfare 0.1.0 -> 0.2.0, quickstart 1.0.0 -> 1.1.0): every event of the logs
in data/stored_logs_issue32.json, written by the older code (tests/support/stored_logs.py,
run on the checkout before the change), decodes with today's event types and folds, event
by event, to the state the older code had after it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.rulesets import get_ruleset
from tests.support.stored_logs import digest, plain

LOGS = json.loads((Path(__file__).parent / "data" / "stored_logs_issue32.json").read_text())


@pytest.mark.parametrize("log", LOGS, ids=lambda log: f"{log['ruleset']}-{log['seed']}")
def test_a_log_of_an_older_version_folds_to_the_state_it_had(log: dict[str, Any]) -> None:
    rs = get_ruleset(log["ruleset"])
    assert rs is not None and log["version"] != rs.version  # stored by the older version
    state = rs.initial_state(
        msgspec.convert(log["setup"], rs.setup_type),
        msgspec.convert(log["options"], rs.options_type),
    )
    assert len(log["events"]) == len(log["digests"]) > 30
    for i, (raw, then) in enumerate(zip(log["events"], log["digests"], strict=True)):
        event = rs.event_decoder.decode(msgspec.json.encode(raw))
        state = rs.evolve(state, event)
        assert digest(state) == then, f"event {i + 1} ({raw['type']}) folds otherwise"
    assert plain(state) == log["state"]
    assert rs.is_over(state)
