"""The links of a created battle's 201, followed through HTTP as a client would follow them."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from service.app.cli import openapi_json
from tests.support.quickstart_play import SETUP

_EXPR = re.compile(r"\{?\$response\.body#(/[^}]*)\}?")


def _operations(doc: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        op["operationId"]: (method.upper(), path)
        for path, item in doc["paths"].items()
        for method, op in item.items()
    }


def _evaluate(template: str, body: dict[str, Any]) -> str:
    def resolve(m: re.Match[str]) -> str:
        value: Any = body
        for part in m.group(1).strip("/").split("/"):
            value = value[part]
        return str(value)

    return _EXPR.sub(resolve, template)


def test_every_link_of_a_new_battle_reaches_it_with_its_referee_key(http: httpx.Client) -> None:
    doc = json.loads(openapi_json())
    ops = _operations(doc)
    created = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
    assert created.status_code == 201, created.text
    body = created.json()
    for source in ("createBattle", "forkBattle"):
        method, path = ops[source]
        links = doc["paths"][path][method.lower()]["responses"]["201"]["links"]
        assert {"getBattle", "postCommand", "listEvents", "verifyBattle", "forkBattle"} <= set(
            links
        ), source
    links = doc["paths"]["/battles"]["post"]["responses"]["201"]["links"]
    for name, link in links.items():
        method, path = ops[link["operationId"]]
        params = {k: _evaluate(v, body) for k, v in link["parameters"].items()}
        url = path.replace("{battle_id}", params["path.battle_id"])
        headers = {"Authorization": params["header.Authorization"]}
        if method == "GET":
            r = http.get(url, headers=headers)
        else:
            payload: dict[str, Any] = {
                "postCommand": {"command": {"type": "RollForPriority"}},
                "forkBattle": {"at_version": 1},
            }[name]
            r = http.post(url, json=payload, headers=headers)
        # The referee key opens every one of them: no 401/403/404 on the linked battle.
        assert r.status_code in (200, 201, 422), (name, r.status_code, r.text)
        if r.status_code == 422:
            assert r.json()["type"].endswith(("rule-violation", "not-permitted")), r.text
