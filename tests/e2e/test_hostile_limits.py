"""Options, setups and commands out of bounds, or with unknown fields, over real HTTP: a 400
naming the field, nothing created or appended; the bounds shown in the schemas."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest

from bench.worst_command import largest_quickstart_setup
from bench.worst_tactical import largest_tactical_setup
from domain.rulesets.quickstart.limits import MAX_GRID, MAX_LEVEL, MAX_SQUADS
from domain.rulesets.skirmish.limits import MAX_ARMIES
from service.http.json_body import COMMAND_BODY_MAX, CREATE_BODY_MAX, SMALL_BODY_MAX
from tests.e2e.battle_client import Battle, create_battle
from tests.support.quickstart_play import SETUP
from tests.support.skirmish_kit import fighters

SKIRMISH_SETUP = {
    "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
    "width": 40,
    "height": 120,
}


def _problem(r: httpx.Response, code: str, names: str) -> dict[str, Any]:
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = dict(r.json())
    assert body["type"] == f"urn:battle-service:problem:{code}", body
    assert names in body["detail"], body
    return body


def _create(http: httpx.Client, **body: Any) -> httpx.Response:
    return http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP, **body})


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"priority_roll_sides": 0}, "priority_roll_sides"),  # every roll-off was a 500
        ({"hit_on": 7}, "hit_on"),
        ({"caster_range": 10**9}, "caster_range"),
        ({"medic_save_sides": 1}, "medic_save_sides"),
        ({"speeds": {"soldier": -1}}, "speeds"),
        ({"speeds": {"dragon": 3}}, "speeds"),
        ({"skill_effects": {"stealth": "teleport"}}, "skill_effects"),
        ({"hit_onn": 5}, "`hit_onn`"),  # a typo must not run the battle on defaults
    ],
)
def test_quickstart_options_out_of_bounds_or_unknown_are_a_400(
    http: httpx.Client, options: dict[str, Any], names: str
) -> None:
    _problem(_create(http, options=options), "invalid-options", names)


def _setup_with(change: Any) -> dict[str, Any]:
    setup = copy.deepcopy(SETUP)
    change(setup)
    return setup


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (lambda s: s["squads"][0].update(level=10**12), "$.squads[0].level"),
        (lambda s: s["squads"][0].update(level=MAX_LEVEL + 1), "$.squads[0].level"),
        (lambda s: s["squads"][0].update(lvl=3), "`lvl`"),
        (lambda s: s.update(colour="red"), "`colour`"),
        (lambda s: s.update(width=MAX_GRID + 1), "$.width"),
        (lambda s: s["heroes"][0].update(surges=10**6), "surges"),
        (lambda s: s["squads"][0].update(id="x" * 65), "$.squads[0].id"),
        (
            lambda s: s.update(
                squads=[
                    {"id": f"q{i}", "side": "north", "kind": "soldier", "level": 1, "x": 0, "y": 0}
                    for i in range(MAX_SQUADS + 1)
                ]
            ),
            "$.squads",
        ),
    ],
)
def test_quickstart_setups_out_of_bounds_or_unknown_are_a_400(
    http: httpx.Client, change: Any, names: str
) -> None:
    _problem(_create(http, setup=_setup_with(change)), "invalid-setup", names)


def test_an_unknown_field_of_a_creation_body_is_a_400_naming_it(http: httpx.Client) -> None:
    _problem(_create(http, colour="red"), "invalid-request", "`colour`")


@pytest.fixture
def battle(http: httpx.Client) -> Battle:
    return create_battle(http)


@pytest.mark.parametrize(
    ("body", "code", "names"),
    [
        ({"command": {"type": "EndStep", "sqaud": "x"}}, "invalid-command", "`sqaud`"),
        ({"command": {"type": "RollForPriority", "sides": 0}}, "invalid-command", "`sides`"),
        (
            {"command": {"type": "MoveSquad", "squad": "n_sol", "x": 1, "y": 10**9}},
            "invalid-command",
            "$.y",
        ),
        (
            {"command": {"type": "AdjustSquad", "squad": "n_sol", "level": 10**6}},
            "invalid-command",
            "$.level",
        ),
        (
            {"command": {"type": "Undo", "to_version": 1, "reason": "r", "force": True}},
            "invalid-command",
            "`force`",
        ),
        ({"command": {"type": "EndStep"}, "expected_versoin": 1}, "invalid-request", "`expected"),
    ],
)
def test_a_command_out_of_bounds_or_with_an_unknown_field_is_a_400_and_appends_nothing(
    battle: Battle, body: dict[str, Any], code: str, names: str
) -> None:
    version = battle.view()["version"]
    r = battle.http.post(
        f"/battles/{battle.id}/commands", json=body, headers=battle.auth("referee")
    )
    _problem(r, code, names)
    assert battle.view()["version"] == version


def test_unknown_fields_of_fork_and_integration_bodies_are_a_400(battle: Battle) -> None:
    r = battle.http.post(
        f"/battles/{battle.id}/fork",
        json={"at_version": 1, "titel": "x"},
        headers=battle.auth("referee"),
    )
    _problem(r, "invalid-request", "`titel`")
    _problem(
        battle.http.post("/integrations", json={"name": "a", "x": 1}), "invalid-request", "`x`"
    )


def _skirmish(http: httpx.Client, **body: Any) -> httpx.Response:
    return http.post("/battles", json={"ruleset": "skirmish", "setup": SKIRMISH_SETUP, **body})


@pytest.mark.parametrize(
    ("body", "code", "names"),
    [
        ({"options": {"square_feet": 0}}, "invalid-options", "square_feet"),
        ({"options": {"morale_dcs": {"rout": 15, "routt": 1}}}, "invalid-options", "`routt`"),
        ({"options": {"resolution": {"density": {"medium": 0}}}}, "invalid-options", "medium"),
        ({"setup": {**SKIRMISH_SETUP, "width": 10**6}}, "invalid-setup", "$.width"),
        ({"setup": {**SKIRMISH_SETUP, "depth": 3}}, "invalid-setup", "`depth`"),
    ],
)
def test_skirmish_options_and_setups_out_of_bounds_or_unknown_are_a_400(
    http: httpx.Client, body: dict[str, Any], code: str, names: str
) -> None:
    _problem(_skirmish(http, **body), code, names)


def test_a_skirmish_option_naming_an_unknown_tactic_is_refused_naming_it(
    http: httpx.Client,
) -> None:
    r = _skirmish(http, options={"one_round_tactics": ["no_such_tactic"]})
    assert r.status_code == 422, r.text
    assert r.json()["field"] == "options.one_round_tactics"


@pytest.mark.parametrize(
    ("army", "names"),
    [
        (fighters(army_size=10**12), "army_size"),
        (fighters(soldier_hp=10**9), "soldier_hp"),
        ({**fighters(), "armysize": 3}, "`armysize`"),
        (fighters(attacks=[{"name": "a", "kind": "melee", "crit_range": 0}]), "crit_range"),
    ],
)
def test_a_skirmish_army_out_of_bounds_or_unknown_is_a_400(
    http: httpx.Client, army: dict[str, Any], names: str
) -> None:
    r = _skirmish(http)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    version = b.view()["version"]
    r = b.command("referee", {"type": "RaiseArmy", "side": "north", "army": army})
    _problem(r, "invalid-command", names)
    assert b.view()["version"] == version


def test_the_bounds_show_in_the_schemas(http: httpx.Client) -> None:
    doc = http.get("/schema/openapi.json").json()["components"]["schemas"]
    for name in ("CreateBattleRequest", "CommandRequest", "ForkBattleRequest"):
        assert doc[name]["additionalProperties"] is False, name
    # A battle's setup and options are documented as the rulesets' own, bounds included.
    setup_refs = [m["$ref"] for m in doc["CreateBattleRequest"]["properties"]["setup"]["anyOf"]]
    quickstart_setup = doc[next(r for r in setup_refs if "Quickstart" in r).rsplit("/", 1)[1]]
    assert quickstart_setup["additionalProperties"] is False
    assert quickstart_setup["properties"]["squads"]["maxItems"] == MAX_SQUADS
    # a list of ids documented as strings (Litestar wrote `oneOf: [string, {}]`)
    assert quickstart_setup["properties"]["sides"]["items"]["type"] == "string"
    assert doc["SquadSetup"]["properties"]["level"]["maximum"] == MAX_LEVEL
    unions = [m["$ref"] for m in doc["CommandRequest"]["properties"]["command"]["anyOf"]]
    assert "#/components/schemas/QuickstartCommand" in unions
    commands = [m["$ref"] for m in doc["QuickstartCommand"]["oneOf"]]
    assert "#/components/schemas/QuickstartMoveSquad" in commands
    assert doc["QuickstartMoveSquad"]["additionalProperties"] is False
    assert doc["QuickstartMoveSquad"]["properties"]["x"]["maximum"] == MAX_GRID - 1
    detail = http.get("/rulesets/quickstart").json()
    options = detail["options_schema"]
    opts = options["$defs"][options["$ref"].rsplit("/", 1)[1]]
    assert opts["additionalProperties"] is False
    assert opts["properties"]["hit_on"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 6,
        "default": 6,
    }
    assert opts["properties"]["priority_roll_sides"]["minimum"] == 2
    skirmish = http.get("/rulesets/skirmish").json()["commands_schema"]["$defs"]
    assert skirmish["CheckSurprise"]["properties"]["armies"]["maxItems"] == MAX_ARMIES


@pytest.mark.parametrize(
    ("ruleset", "largest"),
    [("quickstart", largest_quickstart_setup), ("tactical", largest_tactical_setup)],
)
def test_the_largest_setup_the_limits_allow_is_accepted(
    http: httpx.Client, ruleset: str, largest: Any
) -> None:
    """What bench/worst_command.py times is a battle a client can create."""
    setup = largest()
    body = json.dumps({"ruleset": ruleset, "setup": setup}).encode()
    assert len(body) < CREATE_BODY_MAX
    r = http.post("/battles", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("path", "limit"),
    [("/battles", CREATE_BODY_MAX), ("/integrations", SMALL_BODY_MAX)],
)
def test_a_body_over_its_routes_limit_is_a_413(http: httpx.Client, path: str, limit: int) -> None:
    body = json.dumps({"ruleset": "quickstart", "setup": SETUP, "title": "t" * limit}).encode()
    r = http.post(path, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["type"] == "urn:battle-service:problem:request-too-large"


def test_command_and_fork_bodies_have_their_own_limits(battle: Battle) -> None:
    version = battle.view()["version"]
    for path, limit in ((f"/battles/{battle.id}/commands", COMMAND_BODY_MAX),
                        (f"/battles/{battle.id}/fork", SMALL_BODY_MAX)):  # fmt: skip
        over = json.dumps({"command": {"type": "EndStep"}, "client_seed": "s" * limit}).encode()
        r = battle.http.post(
            path,
            content=over,
            headers={**battle.auth("referee"), "Content-Type": "application/json"},
        )
        assert r.status_code == 413, r.text
    assert battle.view()["version"] == version
