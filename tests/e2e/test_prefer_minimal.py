"""`Prefer: return=minimal` (RFC 7240) on the command routes: the answer leaves out
`awaiting` (costly to compute: bench/awaiting.py) and says so with `Preference-Applied`;
without it, or with another preference, the answer is the default one, `awaiting` in."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from service.app.cli import openapi_json
from tests.e2e.battle_client import Battle, create_battle

RULING = {"type": "RecordRuling", "ruling": "r", "reason": "t", "audience": "all"}


def _post(b: Battle, path: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    return b.http.post(
        f"/battles/{b.id}{path}", json=body, headers={**b.auth("referee"), **headers}
    )


@pytest.mark.parametrize(
    "prefer",
    ["return=minimal", "Return=minimal", 'return="minimal"', "respond-async, return=minimal; x=1"],
)
def test_return_minimal_leaves_awaiting_out_of_both_command_routes(
    http: httpx.Client, prefer: str
) -> None:
    b = create_battle(http)
    one = _post(b, "/commands", {"command": RULING}, Prefer=prefer)
    assert one.status_code == 200, one.text
    assert "awaiting" not in one.json() and one.json()["version"] == 2
    assert one.headers["preference-applied"] == "return=minimal"
    batch = _post(b, "/commands/batch", {"commands": [{"command": RULING}] * 2}, Prefer=prefer)
    assert batch.status_code == 201, batch.text
    assert "awaiting" not in batch.json() and batch.json()["version"] == 4
    assert batch.headers["preference-applied"] == "return=minimal"
    assert len(batch.json()["events"]) == 2 and batch.json()["receipt"]


@pytest.mark.parametrize("prefer", [None, "return=representation", "handling=lenient"])
def test_the_default_answer_carries_awaiting(http: httpx.Client, prefer: str | None) -> None:
    b = create_battle(http)
    headers = {} if prefer is None else {"Prefer": prefer}
    awaiting = b.view()["awaiting"]
    assert awaiting  # the quickstart waits for its priority phase
    for path, body in (
        ("/commands", {"command": RULING}),
        ("/commands/batch", {"commands": [{"command": RULING}]}),
    ):
        r = _post(b, path, body, **headers)
        assert r.status_code in (200, 201), r.text
        assert r.json()["awaiting"] == awaiting
        assert "preference-applied" not in r.headers


def test_a_replayed_command_honours_the_preference_of_the_retry(http: httpx.Client) -> None:
    b = create_battle(http)
    key = {"Idempotency-Key": "k1"}
    first = _post(b, "/commands", {"command": RULING}, **key)
    again = _post(b, "/commands", {"command": RULING}, Prefer="return=minimal", **key)
    assert again.status_code == 200 and again.json()["replayed"]
    assert "awaiting" not in again.json() and "awaiting" in first.json()
    assert again.json()["events"] == first.json()["events"]


def test_the_document_names_the_header_and_the_optional_field() -> None:
    doc = json.loads(openapi_json())
    for path in ("/battles/{battle_id}/commands", "/battles/{battle_id}/commands/batch"):
        operation = doc["paths"][path]["post"]
        assert "Prefer" in [p["name"] for p in operation["parameters"]], path
        ok = operation["responses"]["201" if path.endswith("batch") else "200"]
        assert "Preference-Applied" in ok["headers"], path
    assert "awaiting" not in doc["components"]["schemas"]["CommandResponse"].get("required", [])
