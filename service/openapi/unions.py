"""Every ruleset's commands and events as tagged unions in the OpenAPI document.

A command is decoded by the battle's ruleset, and an event's `data` is one of its
ruleset's (or the battle's own) event Structs; Litestar documents neither as a union that
generated clients can type. This module builds, from the msgspec Structs themselves
(`msgspec.json.schema_components`, so the document cannot drift from the decoders), one
component per Struct and, per ruleset, a `<Ruleset>Command` and a `<Ruleset>Event`: a
`oneOf` with a `discriminator` on `type`, as `openapi-typescript` and
`openapi-python-client` turn into typed unions.

Struct names collide across rulesets (quickstart's and tactical's `Attack`), so every
component of a ruleset is named with its id in PascalCase before it (`QuickstartAttack`,
`TacticalAttack`). The commands and events every battle has (undo, rulings, dice) keep
their own names under `BattleCommand` and `BattleEvent`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.battle import BattleEvent
from domain.battle_commands import BattleCommand
from domain.rulesets import RULESETS

__all__ = ["BATTLE_PREFIX", "TypedUnions", "close_tuples", "prefix_of", "typed_unions"]

BATTLE_PREFIX = ""  # the battle-level Structs' names are unique: no prefix
_REF = "#/components/schemas/"


def prefix_of(ruleset_id: str) -> str:
    """`quickstart` -> `Quickstart`: the start of every component name of that ruleset."""
    return "".join(part.capitalize() for part in ruleset_id.replace("-", "_").split("_"))


class TypedUnions(msgspec.Struct, frozen=True, kw_only=True):
    """What the document gains: its components, and the schemas of a command and of an
    event's data (any ruleset's: the battle's ruleset picks one)."""

    components: dict[str, Any]
    command: dict[str, Any]
    event_data: dict[str, Any]
    # ruleset id ("" for the battle-level ones) -> (commands union, events union) names
    unions: dict[str, tuple[str, str]]


def _tagged(union: dict[str, Any], what: str) -> dict[str, Any]:
    """msgspec's `anyOf` + discriminator of a tagged union, as a `oneOf`: exactly one
    member fits an object, by its `type`."""
    return {
        "description": what,
        "oneOf": union["anyOf"],
        "discriminator": union["discriminator"],
    }


def _ruleset_components(
    prefix: str, command_type: Any, event_type: Any, title: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    (commands, events), defs = msgspec.json.schema_components(
        [command_type, event_type], ref_template=_REF + prefix + "{name}"
    )
    components = {prefix + name: _closed_tuples(schema) for name, schema in defs.items()}
    return (
        components,
        _tagged(commands, f"A command of {title}, picked by its `type`."),
        _tagged(events, f"The data of an event of {title}, picked by its `type`."),
    )


def _closed_tuples(node: Any) -> Any:
    """msgspec closes a tuple's schema with `items: false` after its `prefixItems`; say it
    with `maxItems` instead (the same arrays), which every client generator reads
    (openapi-python-client refuses a boolean schema there)."""
    if isinstance(node, dict):
        if "prefixItems" in node and node.get("items") is False:
            del node["items"]
            node["maxItems"] = min(node.get("maxItems", 2**31), len(node["prefixItems"]))
        for value in node.values():
            _closed_tuples(value)
    elif isinstance(node, list):
        for value in node:
            _closed_tuples(value)
    return node


def close_tuples(schemas: dict[str, Any]) -> None:
    """Every closed tuple of `schemas` said with `maxItems` (see `_closed_tuples`): for
    components made from msgspec Structs elsewhere (service.openapi.state_schemas)."""
    _closed_tuples(schemas)


def typed_unions() -> TypedUnions:
    """The components and unions of every ruleset and of the battle-level Structs."""
    components: dict[str, Any] = {}
    unions: dict[str, tuple[str, str]] = {}
    parts = [
        (prefix_of(r.id), r.id, r.command_type, r.event_type, f"the `{r.id}` ruleset")
        for r in RULESETS.values()
    ]
    parts.append((BATTLE_PREFIX, "", BattleCommand, BattleEvent, "every battle"))
    for prefix, key, command_type, event_type, title in parts:
        defs, commands, events = _ruleset_components(prefix, command_type, event_type, title)
        names = (f"{prefix or 'Battle'}Command", f"{prefix or 'Battle'}Event")
        clash = (set(defs) | set(names)) & set(components)
        if clash:  # a new ruleset's name ran into another's: name it differently
            raise ValueError(f"OpenAPI component names used twice: {sorted(clash)}")
        components.update(defs)
        components[names[0]] = commands
        components[names[1]] = events
        unions[key] = names
    return TypedUnions(
        components=components,
        command=_any_of(
            [c for c, _ in unions.values()],
            "One command: any of the battle's ruleset's commands (its `type` picks which; "
            "`GET /rulesets/{ruleset}` lists them) or a command every battle accepts.",
        ),
        event_data=_any_of(
            [e for _, e in unions.values()],
            "The event itself (`type` first): one of the battle's ruleset's events, or an "
            "event every battle has.",
        ),
        unions=unions,
    )


def _any_of(names: list[str], description: str) -> dict[str, Any]:
    # anyOf, not oneOf: a command may fit two rulesets' unions (both have `Attack`); the
    # battle's ruleset decides which it is.
    return {"description": description, "anyOf": [{"$ref": _REF + n} for n in names]}
