"""Events and commands typed per ruleset, so that one discriminator picks one class.

Two rulesets may name an event or a command alike (warfare's and tactical's
`RoundStarted`); a client that tries the rulesets' unions in turn files one under the
other's class. So every whole event carries its battle's `ruleset` (service.schemas.EventOut;
outside the hash: the chain commits to the event, not to its envelope), and in the document:

- `<Ruleset>EventData` / `<Ruleset>CommandData`: one `oneOf` of that ruleset's events (or
  commands) and of those every battle has (`<Ruleset>Event` and `BattleEvent`, each
  discriminated by `type`, their types apart);
- `<Ruleset>EventOut`: the event envelope with `ruleset` fixed (`const`) and `data` that
  union; `EventOut` is the `oneOf` of those, discriminated by `ruleset`. Every page, command
  answer, stream message and webhook that carries an `EventOut` is typed by it;
- `<Ruleset>CommandRequest`: a command body with `ruleset` fixed and `command` that union.
  postCommand's body is one of them or the plain `CommandRequest` (whose `ruleset` may be
  left out: the battle's ruleset decides, as before).

openapi-python-client tries a union's members in turn until one parses (a `const` that
does not match refuses), openapi-typescript narrows on the `const`: both land on one class.
"""

from __future__ import annotations

import copy
from typing import Any

from domain.rulesets import RULESETS
from service.openapi.unions import TypedUnions, prefix_of

__all__ = ["add_ruleset_envelopes", "command_request_name", "event_out_name"]

_REF = "#/components/schemas/"


def event_out_name(ruleset_id: str) -> str:
    """`tactical` -> `TacticalEventOut`: the component of that ruleset's whole events."""
    return f"{prefix_of(ruleset_id)}EventOut"


def command_request_name(ruleset_id: str) -> str:
    """`tactical` -> `TacticalCommandRequest`: a command body typed for that ruleset."""
    return f"{prefix_of(ruleset_id)}CommandRequest"


def _merged(schemas: dict[str, Any], unions: list[str], what: str) -> dict[str, Any]:
    """One `oneOf` of several `type`-discriminated unions, whose tags must not meet: the
    `type` then picks one member of one of them."""
    seen: set[str] = set()
    for name in unions:
        tags = set(schemas[name]["discriminator"]["mapping"])
        if tags & seen:  # a ruleset's type named as a battle-level one: one tag, two classes
            raise ValueError(f"{name} repeats the types {sorted(tags & seen)}")
        seen |= tags
    return {"description": what, "oneOf": [{"$ref": _REF + name} for name in unions]}


def _fixed(schema: dict[str, Any], ruleset_id: str, field: str, ref: str) -> dict[str, Any]:
    """`schema` (an object) with `ruleset` fixed to `ruleset_id` and required, and `field`
    referring to `ref`."""
    typed = copy.deepcopy(schema)
    typed.pop("examples", None)
    props = typed["properties"]
    props["ruleset"] = {"const": ruleset_id, "description": "The battle's ruleset."}
    props[field] = {"$ref": _REF + ref}
    typed["required"] = sorted({*typed.get("required", []), "ruleset", field})
    return typed


def _open_objects(node: Any) -> None:
    """`{"type": "object"}` (msgspec's `dict[str, Any]`, e.g. BattleCreated's `options`)
    says `additionalProperties: true` outright: openapi-typescript types a bare object as
    `Record<string, never>`, which no real value fits."""
    if isinstance(node, dict):
        if node.get("type") == "object" and not {"properties", "additionalProperties"} & set(node):
            node["additionalProperties"] = True
        for value in node.values():
            _open_objects(value)
    elif isinstance(node, list):
        for value in node:
            _open_objects(value)


def add_ruleset_envelopes(doc: dict[str, Any], unions: TypedUnions) -> None:
    """Put the per-ruleset envelopes in `doc` (changed in place), as the docstring says."""
    schemas: dict[str, Any] = doc["components"]["schemas"]
    _open_objects(schemas)
    battle_commands, battle_events = unions.unions[""]
    event_out = schemas["EventOut"]
    request = schemas["CommandRequest"]
    envelopes: dict[str, str] = {}
    requests: list[dict[str, str]] = []
    for ruleset_id in RULESETS:
        commands, events = unions.unions[ruleset_id]
        prefix = prefix_of(ruleset_id)
        title = f"the `{ruleset_id}` ruleset"
        schemas[f"{prefix}EventData"] = _merged(
            schemas,
            [events, battle_events],
            f"The data of an event of a battle of {title}, picked by its `type`.",
        )
        schemas[f"{prefix}CommandData"] = _merged(
            schemas,
            [commands, battle_commands],
            f"A command to a battle of {title}, picked by its `type`.",
        )
        envelope = _fixed(event_out, ruleset_id, "data", f"{prefix}EventData")
        envelope["description"] = f"A whole event of a battle of {title}."
        schemas[event_out_name(ruleset_id)] = envelope
        envelopes[ruleset_id] = _REF + event_out_name(ruleset_id)
        typed = _fixed(request, ruleset_id, "command", f"{prefix}CommandData")
        typed["description"] = f"A command body for a battle of {title}."
        schemas[command_request_name(ruleset_id)] = typed
        requests.append({"$ref": _REF + command_request_name(ruleset_id)})
    schemas["EventOut"] = {
        "description": "A whole event: `ruleset` (its battle's) picks the envelope, and in "
        "it the event's `type` picks the class of `data`.",
        "oneOf": [{"$ref": ref} for ref in envelopes.values()],
        "discriminator": {"propertyName": "ruleset", "mapping": envelopes},
    }
    body = doc["paths"]["/battles/{battle_id}/commands"]["post"]["requestBody"]
    content = body["content"]["application/json"]
    content["schema"] = {
        "description": "A command body: typed for the battle's ruleset (`ruleset` given, "
        "checked), or the plain `CommandRequest` (the battle's ruleset decodes `command`).",
        "anyOf": [*requests, {"$ref": _REF + "CommandRequest"}],
    }
