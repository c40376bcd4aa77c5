"""The typed state over HTTP (issue 34, typed everything): every view a battle answers fits
its ruleset's schema in the served OpenAPI document, and only that one.

Given a battle of each ruleset created over HTTP with table dice and played to its end by
the forecast's shipped policy (the commands and their dice mirrored in process, so the
client knows what to send), when the referee, the observer and every side read it after
each command (getBattle) and the referee reads the state at every version
(getStateAtVersion), then each answer validates against the document's `BattleView` (a
`oneOf`: exactly one ruleset's shape fits), its state against `state_schema` of
GET /rulesets/{id}, and it decodes strictly into the ruleset's view type.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import jsonschema_rs
import msgspec
import pytest

from domain.actors import Actor
from domain.dice import Roll
from domain.errors import DomainError
from domain.rulesets import RULESETS, get_ruleset
from domain.rulesets.forecasts import FORECASTS
from service.openapi.unions import prefix_of
from tests.e2e.battle_client import Battle
from tests.e2e.test_tactical_http import SETUP as TACTICAL
from tests.e2e.test_warfare_http import SETUP as WARFARE
from tests.support.phased_kit import setup_of as phased_setup
from tests.support.quickstart_play import SETUP as QUICKSTART
from tests.support.skirmish_kit import fighters, orcs
from tests.support.view_types_check import sides_of

_REFEREE = Actor(role="referee")
_REF = "#/components/schemas/"
Step = tuple[Actor, dict[str, Any]]


class _RecordedDice:
    """Seeded dice that remember their values: the table dice the request carries."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.values: list[int] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        values = tuple(self.rng.randint(1, sides) for _ in range(count))
        self.values.extend(values)
        return Roll(sides=sides, values=values, purpose=purpose, source="client")


def _skirmish_setup(state: Any) -> Iterator[dict[str, Any]]:
    """The skirmish's setup steps (as tests/support/skirmish_kit.ready gives them), read
    off the state as it goes: leaders, armies, initiative, zones, placement, strategies."""
    yield {
        "type": "AppointLeader",
        "side": "north",
        "leader": {"name": "N", "profession_soldier": 5},
    }
    yield {
        "type": "AppointLeader",
        "side": "south",
        "leader": {"name": "S", "profession_soldier": 2},
    }
    yield {"type": "AdvanceSetup"}
    yield {"type": "RaiseArmy", "side": "north", "army": fighters()}
    yield {"type": "RaiseArmy", "side": "south", "army": orcs(army_size=150)}
    for _ in range(3):
        yield {"type": "AdvanceSetup"}
    yield {"type": "RollInitiative", "side": "north"}
    yield {"type": "RollInitiative", "side": "south"}
    yield {"type": "AdvanceSetup"}
    zones = {"north": 600, "south": 700}
    for f in state().initiative_order:
        yield {"type": "SetZones", "side": f, "zones": {"melee_edge": zones[f]}}
    yield {"type": "AdvanceSetup"}
    places = {"fighters": (1, 58, "south"), "orcs": (1, 70, "north")}
    for f in state().initiative_order:
        army = "fighters" if f == "north" else "orcs"
        x, y, facing = places[army]
        yield {"type": "PlaceArmy", "army": army, "x": x, "y": y, "facing": facing}
    yield {"type": "AdvanceSetup"}
    for f in state().initiative_order:
        yield {"type": "DeclareStrategy", "side": f, "strategy": "standard"}
    yield {"type": "AdvanceSetup"}
    yield {"type": "ChooseTactic", "army": "fighters", "tactic": "cautious_combat"}
    yield {"type": "AdvanceSetup"}
    yield {"type": "AdvanceSetup"}


Prelude = Callable[[Callable[[], Any]], Iterator[dict[str, Any]]]


def _no_setup(state: Callable[[], Any]) -> Iterator[dict[str, Any]]:
    return iter(())


BATTLES: dict[str, tuple[dict[str, Any], Prelude]] = {
    "quickstart": (QUICKSTART, _no_setup),
    "tactical": (TACTICAL, _no_setup),
    "warfare": (WARFARE, _no_setup),
    "phased": (phased_setup(), _no_setup),
    "skirmish": (
        {"sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
         "width": 40, "height": 120},
        _skirmish_setup,
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def document(live_server: Any) -> dict[str, Any]:
    with httpx.Client(base_url=live_server.base_url, timeout=300) as http:
        doc: dict[str, Any] = http.get("/schema/openapi.json").json()
    return doc


def _validator(doc: dict[str, Any], name: str) -> Any:
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    return jsonschema_rs.Draft202012Validator(schema)


def test_battle_view_is_one_shape_per_ruleset_picked_by_its_ruleset(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    view = schemas["BattleView"]
    mapping = view["discriminator"]["mapping"]
    assert view["discriminator"]["propertyName"] == "ruleset"
    assert sorted(mapping) == sorted(RULESETS) == sorted(BATTLES)
    assert [o["$ref"] for o in view["oneOf"]] == list(mapping.values())
    for ruleset_id, ref in mapping.items():
        shape = schemas[ref.removeprefix(_REF)]
        assert shape["properties"]["ruleset"]["enum"] == [ruleset_id]
        state = schemas[shape["properties"]["state"]["$ref"].removeprefix(_REF)]
        assert state["properties"]["ruleset"] == {"enum": [ruleset_id]}
        assert state["title"] == prefix_of(ruleset_id) + "State"


@pytest.mark.parametrize("ruleset_id", sorted(BATTLES))
def test_every_answer_fits_its_rulesets_schema_and_no_other(
    http: httpx.Client, document: dict[str, Any], ruleset_id: str
) -> None:
    rs = get_ruleset(ruleset_id)
    assert rs is not None
    setup, prelude = BATTLES[ruleset_id]
    detail = http.get(f"/rulesets/{ruleset_id}").json()
    want = msgspec.json.decode(msgspec.json.encode(msgspec.json.schema(rs.view_type)))
    assert detail["state_schema"] == want
    state_check = jsonschema_rs.Draft202012Validator(detail["state_schema"])
    battle_view = _validator(document, "BattleView")
    own = prefix_of(ruleset_id) + "BattleView"
    own_view = _validator(document, own)
    others = [
        _validator(document, name)
        for name in document["components"]["schemas"]
        if name.endswith("BattleView") and name not in ("BattleView", own)
    ]
    assert len(others) == 4

    r = http.post("/battles", json={"ruleset": ruleset_id, "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    state = rs.initial_state(msgspec.convert(setup, rs.setup_type), rs.options_type())
    rng = random.Random(7)

    def check(body: dict[str, Any]) -> None:
        battle_view.validate(body)
        own_view.validate(body)
        assert not any(o.is_valid(body) for o in others)
        state_check.validate(body["state"])
        msgspec.convert(body["state"], rs.view_type, strict=True)

    def give(actor: Actor, command: Any) -> bool:
        nonlocal state
        dice = _RecordedDice(rng)
        try:
            rs.authorize(state, command, actor)
            events = rs.decide(state, command, dice)
        except DomainError:
            return False
        for e in events:
            state = rs.evolve(state, e)
        body = msgspec.to_builtins(command)
        answer = b.command("referee", body, dice=dice.values)
        assert answer.status_code in (200, 201), answer.text
        for who in ["referee", "observer", *sides_of(b.view()["state"])]:
            check(b.view(who))
        return True

    for body in prelude(lambda: state):
        assert give(_REFEREE, msgspec.convert(body, rs.command_type)), body
    policy = FORECASTS[ruleset_id].policies[FORECASTS[ruleset_id].default_policy]
    for _ in range(2000):
        if rs.is_over(state):
            break
        assert any(give(actor, command) for actor, command in policy(state, rng))
    assert rs.is_over(state) and b.view()["over"]
    head = b.view()["version"]
    for version in range(1, head + 1):
        r = http.get(
            f"/battles/{b.id}/state", params={"version": version}, headers=b.auth("referee")
        )
        assert r.status_code == 200, r.text
        check(r.json())
