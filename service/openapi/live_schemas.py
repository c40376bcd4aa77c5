"""The live messages in the OpenAPI document: SSE frames, WebSocket messages, webhooks.

Litestar documents neither a stream's frames nor a WebSocket (service.openapi.polish adds
its path) nor the webhook deliveries (service.live.webhooks). `add_live_messages(doc)` puts
in, as components, what service.live.streams and service.live.webhooks.outbox send:

- `SseMessage`: one frame of the SSE streams, by its `event:` name: an event's type with
  an `EventOut`, `sealed` with a `SealedEventOut`, `awaiting` with an `AwaitingMessage`,
  `problem` with the problem+json that ended the stream (its player key revoked or expired);
  the streams' `text/event-stream` answers refer to it;
- `WebSocketMessage`: the WebSocket's JSON messages, discriminated by `kind` (`event`,
  `heartbeat`, `awaiting`, `problem`); the WebSocket operations refer to it;
- `WebhookEventPayload`, `WebhookAwaitingPayload`: a delivery's body, by its `type`
  (`battle.event`, `battle.awaiting`), and OpenAPI 3.1's `webhooks` section with each
  delivery's headers (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
  `webhook-signature`).

An `awaiting` message carries what the subscriber's view waits for (domain.prompts.Prompt).
Run after `polish` (it adds the WebSocket paths); every component's title is its name.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.prompts import Prompt
from service.openapi.polish import WEBSOCKET_OPERATIONS

__all__ = ["LIVE_COMPONENTS", "add_live_messages"]

_REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF + name}


def _object(description: str, required: list[str], **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
    }


_ID = {"type": "integer", "minimum": 0, "description": "The cursor: resume after it."}
_ANY_EVENT = {"oneOf": [_ref("EventOut"), _ref("SealedEventOut")]}
_PROBLEM: dict[str, Any] = {
    "type": {"type": "string"},
    "title": {"type": "string"},
    "status": {"type": "integer"},
    "detail": {"type": "string"},
}
_AWAITING = _object(
    "What the subscriber's view of a battle waits for now, sent when it changes "
    "(an empty list: nothing, or the battle is over).",
    ["battle_id", "version", "awaiting"],
    battle_id={"type": "string"},
    version={"type": "integer", "minimum": 0},
    awaiting={"type": "array", "items": _ref("Prompt")},
)

LIVE_COMPONENTS: dict[str, dict[str, Any]] = {
    "AwaitingMessage": _AWAITING,
    "SseEventMessage": _object(
        "An SSE frame of a whole event: `event:` is the event's type, `data:` the event.",
        ["event", "id", "data"],
        event={"type": "string", "description": "The event's type (`data.type`)."},
        id=_ID,
        data=_ref("EventOut"),
    ),
    "SseSealedMessage": _object(
        "An SSE frame of an event the subscriber may not see (`event: sealed`).",
        ["event", "id", "data"],
        event={"const": "sealed"},
        id=_ID,
        data=_ref("SealedEventOut"),
    ),
    "SseAwaitingMessage": _object(
        "An SSE frame saying what the subscriber's view now waits for (`event: awaiting`); "
        "it has no id (it is not in the log).",
        ["event", "data"],
        event={"const": "awaiting"},
        data=_ref("AwaitingMessage"),
    ),
    "SseProblemMessage": _object(
        "The last SSE frame of a stream whose player key was revoked or expired "
        "(`event: problem`, a 401 revoked-key or expired-key); the stream then ends. It has "
        "no id: do not reconnect with that key.",
        ["event", "data"],
        event={"const": "problem"},
        data={
            **_object("A problem+json body.", ["type", "title", "status", "detail"], **_PROBLEM),
            "additionalProperties": True,
        },
    ),
    "SseMessage": {
        "description": "One frame of an SSE stream, by its `event:` name, with its `data:` "
        "(JSON). Comments (`: keep-alive`) carry nothing.",
        "oneOf": [
            _ref("SseSealedMessage"),
            _ref("SseAwaitingMessage"),
            _ref("SseProblemMessage"),
            _ref("SseEventMessage"),
        ],
    },
    "WebSocketEventMessage": _object(
        "An event, whole or sealed, with its cursor.",
        ["kind", "id", "event"],
        kind={"const": "event"},
        id=_ID,
        event=_ANY_EVENT,
    ),
    "WebSocketHeartbeatMessage": _object(
        "Sent every 15 seconds of quiet.", ["kind"], kind={"const": "heartbeat"}
    ),
    "WebSocketAwaitingMessage": _object(
        "What the subscriber's view now waits for, as the SSE `awaiting` frame says.",
        ["kind", "battle_id", "version", "awaiting"],
        kind={"const": "awaiting"},
        **_AWAITING["properties"],
    ),
    "WebSocketProblemMessage": {
        **_object(
            "The stream was refused, or ended because its player key was revoked or expired "
            "(401 revoked-key, expired-key): the problem+json body of the HTTP answer, then "
            "the socket closes with 4000 + `status`.",
            ["kind", "type", "title", "status", "detail"],
            kind={"const": "problem"},
            **_PROBLEM,
        ),
        "additionalProperties": True,  # the problem's own fields (limit, current_version...)
    },
    "WebSocketMessage": {
        "description": "One JSON text message of a WebSocket stream, picked by its `kind`.",
        "oneOf": [
            _ref("WebSocketEventMessage"),
            _ref("WebSocketHeartbeatMessage"),
            _ref("WebSocketAwaitingMessage"),
            _ref("WebSocketProblemMessage"),
        ],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {
                "event": _REF + "WebSocketEventMessage",
                "heartbeat": _REF + "WebSocketHeartbeatMessage",
                "awaiting": _REF + "WebSocketAwaitingMessage",
                "problem": _REF + "WebSocketProblemMessage",
            },
        },
    },
    "WebhookEventData": _object(
        "A `battle.event` delivery's data: the event as the integration's key reads it.",
        ["battle_id", "position", "event"],
        battle_id={"type": "string"},
        position={"type": "integer", "minimum": 1},
        event=_ANY_EVENT,
    ),
    "WebhookEventPayload": _object(
        "A delivery of one event of a battle the integration follows.",
        ["type", "timestamp", "data"],
        type={"const": "battle.event"},
        timestamp={"type": "string", "description": "The event's recorded_at."},
        data=_ref("WebhookEventData"),
    ),
    "WebhookAwaitingPayload": _object(
        "A delivery saying what a battle now waits for, in the referee's view.",
        ["type", "timestamp", "data"],
        type={"const": "battle.awaiting"},
        timestamp={"type": "string"},
        data=_ref("AwaitingMessage"),
    ),
}

_SSE_OPERATIONS = ("streamBattleEvents", "streamEvents")
_WEBHOOK_HEADERS = {
    "webhook-id": "The delivery's id: the same on every attempt (deduplicate by it).",
    "webhook-timestamp": "This attempt's time, in seconds since the epoch.",
    "webhook-signature": "`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` with the "
    "endpoint's secret, one per secret, space-separated (two while a secret is rotated).",
}
_WEBHOOKS = {
    "battle.event": ("WebhookEventPayload", "An event of a battle the integration follows."),
    "battle.awaiting": ("WebhookAwaitingPayload", "What a battle now waits for changed."),
}


def _webhook(kind: str, payload: str, summary: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "description": f"{summary} POSTed to every enabled endpoint whose filters it "
            "passes, signed as Standard Webhooks says; any 2xx answer delivers it, anything "
            "else is retried.",
            # stable and explicit: battle.event -> battleEventWebhook
            "operationId": "".join(
                w if i == 0 else w.capitalize() for i, w in enumerate(kind.split("."))
            )
            + "Webhook",
            "tags": ["integrations"],
            "parameters": [
                {
                    "name": name,
                    "in": "header",
                    "required": True,
                    "description": text,
                    "schema": {"type": "string"},
                }
                for name, text in _WEBHOOK_HEADERS.items()
            ],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(payload)}},
            },
            "responses": {"200": {"description": "Any 2xx answer: delivered."}},
            "security": [],
        }
    }


def _prompt_components() -> dict[str, Any]:
    (_,), defs = msgspec.json.schema_components([Prompt], ref_template=_REF + "{name}")
    return dict(defs)


def add_live_messages(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with the live messages put in, as the module docstring says; changed in place."""
    schemas: dict[str, Any] = doc["components"]["schemas"]
    for name, schema in {**_prompt_components(), **LIVE_COMPONENTS}.items():
        if name in LIVE_COMPONENTS and name in schemas:
            raise ValueError(f"OpenAPI component {name!r} is taken")
        schemas.setdefault(name, {**schema, "title": name})
    for item in doc["paths"].values():
        for op in item.values():
            if op.get("operationId") in _SSE_OPERATIONS:
                stream = op["responses"]["200"]["content"]["text/event-stream"]
                stream["schema"] = _ref("SseMessage")
            elif op.get("operationId") in WEBSOCKET_OPERATIONS:
                content = {"application/json": {"schema": _ref("WebSocketMessage")}}
                op["responses"]["101"]["content"] = content
    doc["webhooks"] = {
        kind: _webhook(kind, payload, summary) for kind, (payload, summary) in _WEBHOOKS.items()
    }
    return doc
