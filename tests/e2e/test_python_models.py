"""The Python library's generated classes (clients/python, `battle_service_client.schema`,
issue 35): the committed module is what clients/python/tools/gen.py makes of
openapi/openapi.json; every example of the document decodes into its own class (an
event in its ruleset's envelope, its data by its `type`; a command in its ruleset's
command body) and an event of one ruleset is refused in another's envelope; and every
event, view and command answer of real battles of all five rulesets, read through the
library, lands in its own ruleset's classes."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import msgspec
import pytest
from battle_service_client import BattleClient, Event, SealedEvent, UnknownEvent, schema
from battle_service_client.models import decode_event, decode_result

from tests.e2e.conftest import LiveServer
from tests.e2e.test_table_play import CASES
from tests.support.table_play import play_over_http

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "openapi" / "openapi.json"
MODULE = ROOT / "clients" / "python" / "src" / "battle_service_client" / "schema.py"
REF = "#/components/schemas/"
_ENVELOPE = {
    "battle_id": "b1", "version": 2, "position": 2, "audience": "all",
    "recorded_at": "2026-01-01T00:00:00.000Z", "actor": {"role": "referee"},
    "command_id": None, "prev_hash": "0" * 64, "hash": "1" * 64,
}  # fmt: skip


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen", ROOT / "clients" / "python" / "tools" / "gen.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return dict(json.loads(DOC.read_text()))


def test_the_committed_classes_are_the_documents(doc: dict[str, Any]) -> None:
    """Like clients/ts/src/schema.d.ts: regenerate after `make openapi` (it does)."""
    made = _generator().generate(doc)
    assert made == MODULE.read_text(), (
        "clients/python/src/battle_service_client/schema.py is stale: "
        "`python clients/python/tools/gen.py` (make openapi runs it)"
    )


def _members(schemas: dict[str, Any], union: str) -> list[str]:
    found: list[str] = []
    for member in schemas[union].get("oneOf", []):
        name = member["$ref"].removeprefix(REF)
        found.extend(_members(schemas, name) if "oneOf" in schemas[name] else [name])
    return found


def _rulesets(doc: dict[str, Any]) -> dict[str, str]:
    """ruleset -> its name's prefix in the document (`quickstart` -> `Quickstart`)."""
    mapping = doc["components"]["schemas"]["EventOut"]["discriminator"]["mapping"]
    return {r: ref.removeprefix(REF).removesuffix("EventOut") for r, ref in mapping.items()}


def _tag(obj: Any) -> Any:
    return type(obj).__struct_config__.tag


def _roundtrips(obj: Any) -> bool:
    """Encoded (as a command is sent) and decoded again, the same object."""
    return bool(msgspec.convert(msgspec.to_builtins(obj), type(obj)) == obj)


def test_every_example_decodes_into_its_own_class(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    prefixes = _rulesets(doc)
    events = {r: _members(schemas, f"{p}EventData") for r, p in prefixes.items()}
    commands = {r: _members(schemas, f"{p}CommandData") for r, p in prefixes.items()}
    checked, wrong = 0, []
    for name, s in schemas.items():
        for i, example in enumerate(s.get("examples", [])):
            what = f"{name} example {i}"
            found = False
            for ruleset, prefix in prefixes.items():
                if name in events[ruleset]:
                    found, checked = True, checked + 1
                    raw = {**_ENVELOPE, "ruleset": ruleset, "type": example["type"]}
                    event = decode_event({**raw, "data": example})
                    got = f"{type(event).__name__}.{type(getattr(event, 'data', None)).__name__}"
                    if got != f"{prefix}EventOut.{name}" or not _roundtrips(event):
                        wrong.append(f"{what} in a {ruleset} envelope: {got}")
                if name in commands[ruleset]:
                    found, checked = True, checked + 1
                    body = {"ruleset": ruleset, "command": example}
                    request = msgspec.convert(body, getattr(schema, f"{prefix}CommandRequest"))
                    got = type(request.command).__name__
                    if got != name or not _roundtrips(request.command):
                        wrong.append(f"{what} sent to a {ruleset} battle: {got}")
            if not found and name in schema.__all__ and "properties" in s:
                checked += 1
                got = type(msgspec.convert(example, getattr(schema, name))).__name__
                if got != name:
                    wrong.append(f"{what}: {got}")
    assert wrong == []
    assert checked > sum(len(s.get("examples", [])) for s in schemas.values()) > 200


def test_an_event_is_refused_in_another_rulesets_envelope(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    prefixes = _rulesets(doc)
    rulesets = list(prefixes)
    refused = 0
    for r, prefix in prefixes.items():
        other = rulesets[(rulesets.index(r) + 1) % len(rulesets)]
        theirs = {schemas[m]["properties"]["type"]["enum"][0]
                  for m in _members(schemas, f"{prefixes[other]}EventData")}  # fmt: skip
        for name in _members(schemas, f"{prefix}EventData"):
            for example in schemas[name].get("examples", []):
                if example["type"] in theirs:
                    continue
                raw = {**_ENVELOPE, "ruleset": other, "type": example["type"], "data": example}
                with pytest.raises(msgspec.ValidationError):
                    msgspec.convert(raw, schema.EventOut)
                # the library reads it as a newer service's event, never as another class
                assert type(decode_event(raw)) is UnknownEvent
                refused += 1
    assert refused > 50


def test_an_event_type_of_a_newer_service_is_read_not_refused() -> None:
    """A service upgraded after the library was built adds event types: a stream, a page
    or a command answer holding one must still be read (its data as JSON), so that an
    old client keeps working; a known type still lands in its class."""
    newer = {**_ENVELOPE, "ruleset": "tactical", "type": "PortalOpened",
             "data": {"type": "PortalOpened", "where": [3, 4]}}  # fmt: skip
    event = decode_event(newer)
    assert type(event) is UnknownEvent
    assert (event.type, event.version, event.data["where"]) == ("PortalOpened", 2, [3, 4])
    result = decode_result({"battle_id": "b", "version": 2, "receipt": {}, "events": [newer]})
    assert type(result.events[0]) is UnknownEvent
    known = {**newer, "type": "RoundStarted", "data": {"type": "RoundStarted", "round": 2}}
    assert type(decode_event(known)).__name__ == "TacticalEventOut"


class _Recording(httpx.Client):
    """A client that keeps each battle's creation answer (its keys)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url=base_url, timeout=60)
        self.created: list[dict[str, Any]] = []

    def post(self, url: Any, *args: Any, **kwargs: Any) -> httpx.Response:
        answer = super().post(url, *args, **kwargs)
        if str(url) == "/battles" and answer.status_code == 201:
            self.created.append(answer.json())
        return answer


# Commands per battle: enough for each ruleset's common events (a battle not over by then
# is read as far as it went).
COMMANDS = 200


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_real_battles_read_through_the_library_land_in_their_rulesets_classes(
    live_server: LiveServer, doc: dict[str, Any], ruleset: str
) -> None:
    prefix = _rulesets(doc)[ruleset]
    schemas = doc["components"]["schemas"]
    own = set(_members(schemas, f"{prefix}EventData"))
    case = {k: v for k, v in CASES[ruleset].items() if k != "shows"}  # the play test's check
    with _Recording(live_server.base_url) as http:
        try:
            played = play_over_http(
                http, ruleset=ruleset, seed=2, table_dice=False, revoke_at=None,
                max_commands=COMMANDS, **case,
            )  # fmt: skip
            answers = played.answers
        except AssertionError as e:
            assert f"not over after {COMMANDS} commands" in str(e)
            answers = []
        (created,) = http.created
    for answer in answers:
        result = decode_result(answer)
        assert all(isinstance(e, Event | SealedEvent) for e in result.events)
    keys = {"referee": created["keys"]["referee"], **created["keys"]["sides"]}
    types: set[str] = set()
    with BattleClient(live_server.base_url) as client:
        for who, key in keys.items():
            battle = client.battle(created["battle_id"], key)
            view = battle.view()
            assert type(view.state).__name__ == f"{prefix}State", who
            assert view.state == msgspec.convert(view.raw["state"], type(view.state))
            for event in battle.events():
                if isinstance(event, SealedEvent):
                    assert who != "referee"
                    continue
                assert type(event).__name__ == f"{prefix}EventOut"
                assert type(event.data).__name__ in own and _tag(event.data) == event.type
                types.add(event.type)
    assert len(types) >= 5, types  # the battle-level ones and the ruleset's own
