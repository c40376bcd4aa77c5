"""The commands and events in the OpenAPI document are typed: per ruleset a `oneOf` with a
discriminator on `type` (service.openapi.unions), and what a real battle answers fits it."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema_rs
import msgspec
import pytest

from domain.battle import BattleEvent
from domain.battle_commands import BattleCommand
from domain.rulesets import RULESETS
from service.openapi.unions import prefix_of
from tests.e2e.battle_client import Battle, create_battle, play

REF = "#/components/schemas/"


@pytest.fixture(scope="module")
def doc(live_server: Any) -> dict[str, Any]:
    # the first request builds the document: more than httpx's 5 s on a busy machine
    return dict(httpx.get(f"{live_server.base_url}/schema/openapi.json", timeout=120).json())


def _tags(union: Any) -> set[str]:
    return {str(t.tag) for t in msgspec.inspect.type_info(union).types}  # type: ignore[attr-defined]


def _validator(doc: dict[str, Any], component: str) -> Any:
    # The whole document is the root resource, so its `#/components/...` refs resolve.
    return jsonschema_rs.Draft202012Validator({**doc, "$ref": REF + component})


UNIONS = [
    *((prefix_of(r.id), r.command_type, r.event_type) for r in RULESETS.values()),
    ("Battle", BattleCommand, BattleEvent),
]


@pytest.mark.parametrize(("prefix", "commands", "events"), UNIONS)
def test_every_command_and_event_is_in_a_discriminated_one_of(
    doc: dict[str, Any], prefix: str, commands: Any, events: Any
) -> None:
    schemas = doc["components"]["schemas"]
    for name, union in ((f"{prefix}Command", commands), (f"{prefix}Event", events)):
        schema = schemas[name]
        assert schema["discriminator"]["propertyName"] == "type"
        mapping = schema["discriminator"]["mapping"]
        assert set(mapping) == _tags(union), name
        assert sorted(m["$ref"] for m in schema["oneOf"]) == sorted(mapping.values())
        for tag, ref in mapping.items():
            member = schemas[ref.removeprefix(REF)]
            assert member["properties"]["type"] == {"enum": [tag]}, ref
            assert "type" in member["required"]


def test_command_and_event_data_are_any_of_the_unions(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    unions = [f"{p}Command" for p, _, _ in UNIONS], [f"{p}Event" for p, _, _ in UNIONS]
    command = schemas["CommandRequest"]["properties"]["command"]["anyOf"]
    assert [m["$ref"] for m in command] == [REF + n for n in unions[0]]


def test_an_event_is_typed_by_its_battles_ruleset(doc: dict[str, Any]) -> None:
    """`EventOut` is one envelope per ruleset, picked by `ruleset`; in it `data` is one of
    that ruleset's events or a battle-level one (service.openapi.event_schemas)."""
    schemas = doc["components"]["schemas"]
    event_out = schemas["EventOut"]
    assert event_out["discriminator"]["propertyName"] == "ruleset"
    mapping = event_out["discriminator"]["mapping"]
    assert set(mapping) == set(RULESETS)
    assert [m["$ref"] for m in event_out["oneOf"]] == list(mapping.values())
    for ruleset, ref in mapping.items():
        envelope = schemas[ref.removeprefix(REF)]
        assert envelope["properties"]["ruleset"]["const"] == ruleset
        assert {"ruleset", "data", "type", "hash"} <= set(envelope["required"])
        data = schemas[envelope["properties"]["data"]["$ref"].removeprefix(REF)]
        assert [m["$ref"] for m in data["oneOf"]] == [
            f"{REF}{prefix_of(ruleset)}Event",
            f"{REF}BattleEvent",
        ]
        request = schemas[f"{prefix_of(ruleset)}CommandRequest"]
        assert request["properties"]["ruleset"]["const"] == ruleset
        commands = schemas[request["properties"]["command"]["$ref"].removeprefix(REF)]
        assert [m["$ref"] for m in commands["oneOf"]] == [
            f"{REF}{prefix_of(ruleset)}Command",
            f"{REF}BattleCommand",
        ]


def test_names_that_collide_across_rulesets_are_made_unique(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    quickstart, tactical = schemas["QuickstartAttack"], schemas["TacticalAttack"]
    assert quickstart != tactical
    assert "squads" in quickstart["properties"] and "character" in tactical["properties"]
    assert "Attack" not in schemas


def test_a_played_battle_fits_the_document(doc: dict[str, Any], http: httpx.Client) -> None:
    battle: Battle = create_battle(http)
    play(battle, stop_after=40)
    side = next(iter(battle.keys["sides"]))
    for who, command in (
        (side, {"type": "SetClientSeed", "seed": "table-7"}),
        ("referee", {"type": "RecordRuling", "ruling": "the ford is shallow", "reason": "map"}),
        ("referee", {"type": "RevealDice"}),
        ("referee", {"type": "Undo", "to_version": 3, "reason": "a misread order"}),
    ):
        assert _validator(doc, "CommandRequest").is_valid({"command": command})
        r = battle.command(who, command)
        assert r.status_code == 200, r.text
        _validator(doc, "CommandResponse").validate(r.json())
    page = http.get(
        f"/battles/{battle.id}/events", params={"limit": 1000}, headers=battle.auth("referee")
    ).json()
    _validator(doc, "EventPage").validate(page)
    types = {e["type"] for e in page["events"]}
    assert {"BattleCreated", "ClientSeedSet", "RulingRecorded", "BattleUndone"} <= types
    assert len(types) > 8  # the quickstart's own events too

    # The check has teeth: an event whose data is not its type's is refused.
    event = next(e for e in page["events"] if e["type"] == "RulingRecorded")
    wrong = {**event, "data": {**event["data"], "type": "BattleUndone"}}
    assert not _validator(doc, "EventOut").is_valid(wrong)
    assert not _validator(doc, "CommandRequest").is_valid({"command": {"type": "Fly"}})


def test_every_component_is_titled_by_its_unique_name(doc: dict[str, Any]) -> None:
    """Generators name classes by title (openapi-python-client): three rulesets have an
    `Options` and a `Roll`, so each title is the component's own name."""
    schemas = doc["components"]["schemas"]
    assert all(schema["title"] == name for name, schema in schemas.items())
    setups = doc["components"]["schemas"]["CreateBattleRequest"]["properties"]["setup"]["anyOf"]
    assert [m["$ref"].removeprefix(REF) for m in setups] == [
        f"{prefix_of(r)}Setup" for r in RULESETS
    ]
    assert {"QuickstartOptions", "SkirmishOptions", "TacticalOptions"} <= set(schemas)
