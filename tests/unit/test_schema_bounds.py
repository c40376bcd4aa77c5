"""Every field a client sends has a bound in its schema (issue 16, "Sizes are unbounded"):
each integer a minimum and a maximum, each string a length, a pattern or a set of values,
each list and map a most number of items, in every ruleset's setup, options and commands
and in every request body. The schemas are what the service enforces on decode and shows in
the OpenAPI document, so a field missing here is a field a hostile client can make huge."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import pytest

import domain.battle_commands as battle_commands
from domain.rulesets import RULESETS
from service import schemas

__all__: list[str] = []


def unbounded(typ: Any, root: str) -> set[str]:
    (schema,), defs = msgspec.json.schema_components([typ])
    out: set[str] = set()

    def walk(s: Any, path: str, seen: frozenset[str]) -> None:
        if not isinstance(s, dict):
            return
        if "$ref" in s:
            name = s["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                walk(defs[name], path, seen | {name})
            return
        t = s.get("type")
        if t == "integer" and not (
            {"minimum", "exclusiveMinimum"} & s.keys()
            and {"maximum", "exclusiveMaximum"} & s.keys()
        ):
            out.add(path)
        if t == "number" and not {"maximum", "exclusiveMaximum"} & s.keys():
            out.add(path)
        if t == "string" and not {"maxLength", "pattern", "enum", "const"} & s.keys():
            out.add(path)
        if t == "array" and "maxItems" not in s and "prefixItems" not in s:
            out.add(path)
        loose_map = isinstance(s.get("additionalProperties"), dict) and "maxProperties" not in s
        if t == "object" and loose_map:
            out.add(path)
        for name, sub in s.get("properties", {}).items():
            walk(sub, f"{path}.{name}", seen)
        for key in ("items", "additionalProperties"):
            walk(s.get(key), f"{path}[]", seen)
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            for sub in s.get(key, []):
                walk(sub, path, seen)

    walk(schema, root, frozenset())
    return out


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_setup_option_and_command_field_of_a_ruleset_is_bounded(ruleset: str) -> None:
    r = RULESETS[ruleset]
    found = set()
    for root, typ in (
        ("setup", r.setup_type),
        ("options", r.options_type),
        ("command", r.command_type),
    ):
        found |= unbounded(typ, root)
    assert found == set()


def test_every_request_body_and_battle_command_is_bounded() -> None:
    bodies = [
        schemas.CreateBattleRequest,
        schemas.ForkBattleRequest,
        schemas.CommandRequest,
        schemas.VerifyRequest,
        schemas.CreateIntegrationRequest,
        battle_commands.BattleCommand,
    ]
    found = set()
    for typ in bodies:
        found |= unbounded(typ, getattr(typ, "__name__", "BattleCommand"))
    assert found == set()


def test_the_walker_finds_each_kind_of_unbounded_field() -> None:
    class Loose(msgspec.Struct):
        n: int
        half: Annotated[int, msgspec.Meta(ge=0)]
        s: str
        items: list[int]
        by: dict[str, int]
        ok: Annotated[str, msgspec.Meta(max_length=3)]

    found = unbounded(Loose, "x")
    assert found == {"x.n", "x.half", "x.s", "x.items", "x.items[]", "x.by", "x.by[]"}
