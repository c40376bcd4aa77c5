"""`@redocly/cli lint` with its recommended rules finds no error in openapi/openapi.json
(clients/ts/redocly.yaml; the checked-in document is the app's, tests/e2e/test_openapi.py)."""

from __future__ import annotations

import json

from tests.support.node_tools import ROOT, node_tool, run


def test_redocly_recommended_rules_find_no_error() -> None:
    redocly = node_tool("redocly")
    result = run(redocly, "lint", ROOT / "openapi" / "openapi.json", "--format=json")
    report = json.loads(result.stdout)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert report["totals"]["errors"] == 0, json.dumps(errors, indent=1)[:4000]
    assert result.returncode == 0, result.stderr[-2000:]
