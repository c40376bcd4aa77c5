"""What the OpenAPI document says besides its types: descriptions, security, tags, headers.

Integrators read the document (and linters such as `@redocly/cli lint` check it), so
`polish(doc)` completes what Litestar leaves out:

- `security: []` on the public operations (those that declare none), so that a generated
  client and a reader know no key is needed there;
- the licence, and the tags declared with a description;
- a description for every operation (its own, else the one here, else its summary) and
  for every parameter;
- the response headers the service sends: `Retry-After` (429, 503) and the `RateLimit-*`
  headers of the rate limits (service.http.limits), and a schema on every header;
- integer bounds where the server enforces them, in the form clients read (`minimum: 0`,
  not `exclusiveMinimum: -1`; on the integer branch of an optional parameter);
- the WebSocket routes, which Litestar does not document (service.live.streams).
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["WEBSOCKET_OPERATIONS", "polish"]

# The WebSocket routes of service.live.streams: a battle's, and every battle's the key can see.
WEBSOCKET_OPERATIONS = ("streamBattleEventsWebSocket", "streamEventsWebSocket")

_TAGS = {
    "service": "Liveness and the public keys that verify receipts.",
    "rulesets": "The rule systems: options with defaults, setup and command schemas.",
    "battles": "Create battles, give commands, read the state and the log, verify, fork.",
    "streams": "Live events: Server-Sent Events, and a WebSocket.",
    "integrations": "Keys for virtual tabletops and bots that follow their battles.",
    "keys": "Player keys: minted, listed and revoked by a battle's referee.",
}

_OPERATIONS = {
    "getHealth": "Answers 200 while the event store answers, with the last global position "
    "and the live subscribers of this worker; 503 when the store does not answer.",
    "listRulesets": "Every rule system the service plays, by id, with its version.",
    "getRuleset": "One ruleset: its options with their defaults, and the JSON Schemas of its "
    "options, setup and commands, exactly as checked (bounds included); its event types, "
    "each with one line, and their JSON Schema.",
    "getBattle": "The battle's current state as the caller's key may see it (the referee "
    "sees everything; a side what its units see; an observer what all see).",
    "postCommand": "Give one command to the battle (`command.type` picks one of its "
    "ruleset's commands or a command every battle has). Answers the events it appended "
    "(sealed if the caller may not see them), the new version and a signed receipt. "
    "Refused commands append nothing.",
    "revealDice": "Reveal the seed of the current dice epoch (so every die rolled with it "
    "can be recomputed); later dice use a newly committed seed.",
    "listEvents": "The battle's log, paged by version (`after`, `limit`), each event whole or "
    "sealed as the caller may see it; undone events are marked.",
    "getStateAtVersion": "The state right after a version, as the caller may see it.",
    "getKeys": "The Ed25519 public keys that verify receipts: the current key first, then "
    "the retired ones.",
    "createIntegration": "Register an integration (a virtual tabletop, a bot). Its key, "
    "shown once, creates battles it then follows and opens GET /events/stream.",
    "streamBattleEvents": "The battle's events as Server-Sent Events: from the cursor "
    "(`Last-Event-ID` or `?after=`) on, caught up from the store, then live; the id of each "
    "is the battle version. Heartbeat comments every 15 seconds.",
}

_PARAMETERS = {
    ("path", "battle_id"): "The battle's id, as createBattle answered it.",
    ("path", "ruleset"): "The ruleset's id (listRulesets), for example `quickstart`.",
    ("query", "version"): "The version to read the state at (default: the current one).",
}

_RETRY_AFTER = {
    "description": "Seconds to wait before retrying.",
    "schema": {"type": "integer", "minimum": 1},
}
_RATE_LIMIT = {
    "RateLimit-Limit": "Requests the tightest rate limit of this request allows per window.",
    "RateLimit-Remaining": "Requests left in that window.",
    "RateLimit-Reset": "Seconds until the window ends.",
}


def _websocket(operation_id: str, battle: bool) -> dict[str, Any]:
    """The path item of a WebSocket route (service.live.streams), which Litestar leaves out."""
    what = "a battle" if battle else "every battle the key can see"
    cursor = "version" if battle else "global position"
    params: list[dict[str, Any]] = [
        {
            "name": "after",
            "in": "query",
            "required": False,
            "description": f"Start after this {cursor} (0: from the start).",
            "schema": {"type": "integer", "minimum": 0, "maximum": 2**53},
        },
        {
            "name": "Last-Event-ID",
            "in": "header",
            "required": False,
            "description": f"Resume after this {cursor} (wins over `after`).",
            "schema": {"type": "string"},
        },
        {
            "name": "access_key",
            "in": "query",
            "required": False,
            "description": "The access key, for browsers (which cannot set "
            "Authorization on a WebSocket); it then shows in access logs.",
            "schema": {"type": "string", "minLength": 1},
        },
    ]
    if battle:
        params.insert(
            0,
            {
                "name": "battle_id",
                "in": "path",
                "required": True,
                "description": _PARAMETERS[("path", "battle_id")],
                "schema": {"type": "string", "minLength": 1, "maxLength": 128},
            },
        )
    return {
        "get": {
            "operationId": operation_id,
            "tags": ["streams"],
            "summary": f"Live events of {what} over a WebSocket",
            "description": (
                "Open with a WebSocket upgrade (`ws://` or `wss://`). Messages are JSON text: "
                f'`{{"kind": "event", "id": <{cursor}>, "event": <EventOut or SealedEventOut>}}`'
                ' and `{"kind": "heartbeat"}` every 15 seconds. The stream starts after the '
                "cursor, catches up from the store, then goes live with no gap and no "
                'duplicate. A refused stream gets one `{"kind": "problem", ...}` message (the '
                "problem+json body of the HTTP answer) and is closed with code 4000 + the HTTP "
                "status (4400, 4401, 4403, 4404, 4429). A player key's stream ends the same "
                "way (4401, revoked-key or expired-key) when the key is revoked, on any "
                "worker, or expires. When the worker stops, the socket "
                "closes with 1001 (or 1012): reconnect, to any worker, with the last id."
            ),
            "security": [{"BearerKey": []}],
            "parameters": params,
            "responses": {
                "101": {"description": "Switching to the WebSocket protocol; then the messages."},
                "426": {
                    "description": "Asked without a WebSocket upgrade (a plain GET)",
                    "headers": {
                        "Upgrade": {
                            "description": "The protocol to upgrade to: `websocket`.",
                            "schema": {"type": "string", "enum": ["websocket"]},
                        }
                    },
                    "content": {
                        "application/problem+json": {
                            "schema": {"$ref": "#/components/schemas/Problem"}
                        }
                    },
                },
            },
        }
    }


_WEBSOCKETS = {
    "/battles/{battle_id}/events/ws": _websocket(WEBSOCKET_OPERATIONS[0], battle=True),
    "/events/ws": _websocket(WEBSOCKET_OPERATIONS[1], battle=False),
}


def polish(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` completed as the module docstring says; changed in place and returned."""
    doc["info"].setdefault("license", {"name": "MIT", "identifier": "MIT"})
    for path, item in _WEBSOCKETS.items():
        doc["paths"].setdefault(path, item)
    used: set[str] = set()
    for item in doc["paths"].values():
        for op in item.values():
            used.update(op.get("tags", []))
            op.setdefault("security", [])  # none declared: a public route
            fallback = op.get("summary") or op.get("operationId", "")
            op.setdefault("description", _OPERATIONS.get(op.get("operationId", ""), fallback))
            for param in op.get("parameters", []):
                _parameter(param)
            for status, response in op.get("responses", {}).items():
                _headers(status, response)
    for schema in doc.get("components", {}).get("schemas", {}).values():
        for prop in schema.get("properties", {}).values():
            # a field absent unless set (msgspec.UNSET: CommandResponse.awaiting under
            # Prefer: return=minimal) has no default to document
            if isinstance(prop, dict) and prop.get("default", None) is msgspec.UNSET:
                del prop["default"]
                one_of = prop.get("oneOf", [])
                if len(one_of) == 1:  # what is left of `T | UnsetType`: T
                    del prop["oneOf"]
                    prop.update(one_of[0])
    known = [t["name"] for t in doc.get("tags", [])]
    doc["tags"] = [
        *doc.get("tags", []),
        *(
            {"name": t, "description": _TAGS.get(t, f"The {t} operations.")}
            for t in sorted(used)
            if t not in known
        ),
    ]
    return doc


def _parameter(param: dict[str, Any]) -> None:
    key = (param["in"], param["name"])
    if key in _PARAMETERS:
        param.setdefault("description", _PARAMETERS[key])
    param.setdefault("description", f"The `{param['name']}` {param['in']} parameter.")
    schema = param.get("schema", {})
    _bounds(schema)


def _bounds(schema: dict[str, Any]) -> None:
    """Integer bounds where clients read them: `exclusiveMinimum: n` as `minimum: n + 1`,
    and the bounds beside an optional integer's `oneOf` moved onto its integer branch."""
    branches = schema.get("oneOf") or schema.get("anyOf")
    if branches:
        ints = [b for b in branches if b.get("type") == "integer"]
        for bound in ("minimum", "maximum", "exclusiveMinimum"):
            if bound in schema and ints:
                value = schema.pop(bound)
                for b in ints:
                    b.setdefault(bound, value)
        for b in branches:
            _bounds(b)
    if schema.get("type") == "integer":
        low = schema.pop("exclusiveMinimum", None)
        if low is not None:
            schema["minimum"] = int(low) + 1
        for bound in ("minimum", "maximum"):
            if isinstance(schema.get(bound), float) and schema[bound].is_integer():
                schema[bound] = int(schema[bound])


def _headers(status: str, response: dict[str, Any]) -> None:
    if "$ref" in response:
        return
    headers = response.setdefault("headers", {})
    if status in ("429", "503"):
        headers.setdefault("Retry-After", _RETRY_AFTER)
    if status.startswith("2"):
        for name, description in _RATE_LIMIT.items():
            headers.setdefault(
                name, {"description": description, "schema": {"type": "integer", "minimum": 0}}
            )
    for header in headers.values():
        # Litestar leaves a documented header (Location, ETag) without a schema, which
        # OpenAPI 3.1 requires (redocly's `struct`, openapi-typescript refuse it).
        if isinstance(header, dict) and "schema" not in header and "content" not in header:
            header["schema"] = {"type": "string"}
    if not headers:
        del response["headers"]
