"""The checked-in OpenAPI document is the one the app generates (run `make openapi` to refresh)."""

from __future__ import annotations

import json
from pathlib import Path

from service.app.cli import openapi_json

ROOT = Path(__file__).resolve().parents[2]


def test_checked_in_openapi_is_current() -> None:
    checked_in = (ROOT / "openapi" / "openapi.json").read_text()
    assert checked_in == openapi_json(), "openapi/openapi.json is stale: run `make openapi`"


def test_every_operation_has_a_stable_id() -> None:
    doc = json.loads(openapi_json())
    ids = [op["operationId"] for path in doc["paths"].values() for op in path.values()]
    assert len(ids) == len(set(ids))
    assert {
        "getHealth",
        "listRulesets",
        "getRuleset",
        "createBattle",
        "getBattle",
        "postCommand",
        "listEvents",
        "getStateAtVersion",
        "verifyBattle",
        "revealDice",
    } <= set(ids)
