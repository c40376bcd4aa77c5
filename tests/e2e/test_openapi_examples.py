"""Every command and event has an example in the OpenAPI document, taken from real decider
output (service/openapi/examples.json, written by `make examples`): each decodes with its
ruleset's decoder and fits the document's schema, so none can go stale unnoticed."""

from __future__ import annotations

import json
import tempfile
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from domain.battle import BattleEvent
from domain.battle_commands import BattleCommand
from domain.rulesets import RULESETS
from service.app.cli import openapi_json
from service.openapi.examples import BATTLE_KEY, harvested_examples
from service.openapi.unions import prefix_of

REF = "#/components/schemas/"
# ruleset key in the examples file -> (union name prefix, command type, event type)
UNIONS: dict[str, tuple[str, Any, Any]] = {
    **{r.id: (prefix_of(r.id), r.command_type, r.event_type) for r in RULESETS.values()},
    BATTLE_KEY: ("Battle", BattleCommand, BattleEvent),
}
KINDS = [(key, kind) for key in UNIONS for kind in ("commands", "events")]


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return dict(json.loads(openapi_json()))


def _union(key: str, kind: str) -> Any:
    return UNIONS[key][1 if kind == "commands" else 2]


def _tags(union: Any) -> set[str]:
    return {str(t.tag) for t in msgspec.inspect.type_info(union).types}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("key", "kind"), KINDS)
def test_every_type_has_an_example_that_decodes(key: str, kind: str) -> None:
    union = _union(key, kind)
    examples = harvested_examples()[key][kind]
    assert set(examples) == _tags(union), "run `make examples`"
    for tag, example in examples.items():
        decoded = msgspec.convert(example, union)  # a stale example fails here
        assert msgspec.to_builtins(decoded)["type"] == tag


@pytest.mark.parametrize(("key", "kind"), KINDS)
def test_each_example_is_in_its_component_and_fits_it(
    doc: dict[str, Any], key: str, kind: str
) -> None:
    schemas = doc["components"]["schemas"]
    union = f"{UNIONS[key][0]}{'Command' if kind == 'commands' else 'Event'}"
    mapping = schemas[union]["discriminator"]["mapping"]
    for tag, example in harvested_examples()[key][kind].items():
        component = mapping[tag].removeprefix(REF)
        assert schemas[component]["examples"] == [example], component
        validator = jsonschema_rs.Draft202012Validator({**doc, "$ref": REF + union})
        validator.validate(example)


@pytest.mark.parametrize(
    "request_body", ["CreateBattleRequest", "CommandRequest", "CommandBatchRequest"]
)
def test_the_request_bodies_have_an_example_that_fits(
    doc: dict[str, Any], request_body: str
) -> None:
    (example,) = doc["components"]["schemas"][request_body]["examples"]
    jsonschema_rs.Draft202012Validator({**doc, "$ref": REF + request_body}).validate(example)


def test_the_create_battle_example_creates_a_battle() -> None:
    from litestar.testing import TestClient

    from service.app.factory import create_app
    from service.openapi.contract import document_of
    from service.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(database=f"{tmp}/b.db", log_level="WARNING"))
        (body,) = document_of(app)["components"]["schemas"]["CreateBattleRequest"]["examples"]
        with TestClient(app) as http:
            created = http.post("/battles", json=body)
            assert created.status_code == 201, created.text
            key = created.json()["keys"]["referee"]
            view = http.get(
                f"/battles/{created.json()['battle_id']}",
                headers={"Authorization": f"Bearer {key}"},
            )
            assert view.json()["title"] == body["title"]


def test_a_wrong_example_would_be_caught(doc: dict[str, Any]) -> None:
    """The checks above have teeth: a field the Struct lacks, or a bound broken, fails."""
    move = dict(harvested_examples()["quickstart"]["commands"]["MoveSquad"])
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({**move, "speed": 3}, RULESETS["quickstart"].command_type)
    validator = jsonschema_rs.Draft202012Validator({**doc, "$ref": REF + "QuickstartCommand"})
    assert not validator.is_valid({**move, "x": -1})
