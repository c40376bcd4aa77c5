"""What the OpenAPI document says besides types (service.openapi.polish): a description
for every operation and parameter, `security: []` on public routes, declared tags and
response headers, the bounds the server enforces, the WebSocket route."""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.app.cli import openapi_json
from service.openapi.polish import WEBSOCKET_OPERATIONS

PUBLIC = {"getHealth", "listRulesets", "getRuleset", "getKeys", "createIntegration"}


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return dict(json.loads(openapi_json()))


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(p, m, op) for p, item in doc["paths"].items() for m, op in item.items()]


def test_every_operation_and_parameter_is_described(doc: dict[str, Any]) -> None:
    for path, method, op in _operations(doc):
        assert op.get("description", "").strip(), f"{method} {path}"
        for param in op.get("parameters", []):
            assert param.get("description", "").strip(), f"{method} {path} {param['name']}"
    described = {op["operationId"]: op["description"] for _, _, op in _operations(doc)}
    assert described["getBattle"] != "The current state, as the caller may see it"


def test_public_routes_say_no_key_is_needed(doc: dict[str, Any]) -> None:
    security = {op["operationId"]: op.get("security") for _, _, op in _operations(doc)}
    for operation in PUBLIC:
        assert security[operation] == [], operation
    assert security["getBattle"] == [{"BearerKey": []}]
    assert {} in security["createBattle"]  # a key is optional there (an integration's)


def test_tags_are_declared_with_descriptions(doc: dict[str, Any]) -> None:
    declared = {t["name"]: t["description"] for t in doc["tags"]}
    used = {t for _, _, op in _operations(doc) for t in op.get("tags", [])}
    assert used <= set(declared)
    assert all(declared.values())


def test_limits_and_retries_declare_their_headers(doc: dict[str, Any]) -> None:
    for path, method, op in _operations(doc):
        responses = op["responses"]
        if "429" in responses:
            assert "Retry-After" in responses["429"]["headers"], f"{method} {path}"
        if "503" in responses:
            assert "Retry-After" in responses["503"]["headers"], f"{method} {path}"
    ok = doc["paths"]["/battles/{battle_id}"]["get"]["responses"]["200"]["headers"]
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(ok)
    for path, method, op in _operations(doc):
        for status, response in op["responses"].items():
            for name, header in response.get("headers", {}).items():
                assert "schema" in header, f"{method} {path} {status} {name}"


def _param(doc: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    op = doc["paths"][path]["get"]
    return dict(next(p for p in op["parameters"] if p["name"] == name))


def _integer_branch(schema: dict[str, Any]) -> dict[str, Any]:
    branches = schema.get("oneOf") or schema.get("anyOf") or [schema]
    return dict(next(b for b in branches if b.get("type") == "integer"))


@pytest.mark.parametrize(
    ("path", "name", "minimum"),
    [
        ("/battles/{battle_id}/events", "after", 0),
        ("/battles/{battle_id}/events", "limit", 1),
        ("/battles/{battle_id}/events/stream", "after", 0),
        ("/events/stream", "after", 0),
        ("/battles/{battle_id}/state", "version", 1),
        ("/battles/{battle_id}/events/ws", "after", 0),
    ],
)
def test_integer_parameters_carry_the_minimum_the_server_enforces(
    doc: dict[str, Any], path: str, name: str, minimum: int
) -> None:
    schema = _integer_branch(_param(doc, path, name)["schema"])
    assert schema["minimum"] == minimum
    assert "exclusiveMinimum" not in schema


def test_table_dice_are_at_least_one(doc: dict[str, Any]) -> None:
    dice = doc["components"]["schemas"]["CommandRequest"]["properties"]["dice"]
    assert _integer_branch(dice.get("oneOf", [dice])[0]["items"])["minimum"] == 1


def test_request_fields_with_defaults_are_not_required(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    for name in ("CreateBattleRequest", "CommandRequest", "ForkBattleRequest", "VerifyRequest"):
        schema = schemas[name]
        for field, prop in schema["properties"].items():
            if "default" in prop:
                assert field not in schema.get("required", []), f"{name}.{field}"


@pytest.mark.parametrize(
    ("path", "operation_id"),
    [
        ("/battles/{battle_id}/events/ws", WEBSOCKET_OPERATIONS[0]),
        ("/events/ws", WEBSOCKET_OPERATIONS[1]),
    ],
)
def test_the_websocket_routes_are_described(
    doc: dict[str, Any], path: str, operation_id: str
) -> None:
    op = doc["paths"][path]["get"]
    assert op["operationId"] == operation_id
    assert "101" in op["responses"]
    assert '"kind": "event"' in op["description"] and "4000" in op["description"]
    names = {p["name"] for p in op["parameters"]}
    assert names == {"after", "Last-Event-ID", "access_key"} | (
        {"battle_id"} if "{" in path else set()
    )


def test_the_licence_is_declared(doc: dict[str, Any]) -> None:
    assert doc["info"]["license"] == {"name": "MIT", "identifier": "MIT"}
