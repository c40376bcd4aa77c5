"""The table page's files over HTTP: `/table` under the viewer's strict CSP, its scripts,
the built library under `/table/lib/`, and a ready setup per ruleset that creates a
battle of that ruleset as it is."""

from __future__ import annotations

import httpx
import pytest

from service.desk.table import TABLE_ASSETS_DIR
from service.desk.viewer import CSP

RULESETS = ["phased", "quickstart", "skirmish", "tactical", "warfare"]


def test_the_page_and_its_scripts_are_served_under_the_strict_csp(http: httpx.Client) -> None:
    page = http.get("/table")
    assert page.status_code == 200
    assert page.headers["content-security-policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert '<script type="module" src="/table/assets/main.js">' in page.text
    for name in (
        "main.js",
        "api.js",
        "rules.js",
        "prompts.js",
        "board.js",
        "dice.js",
        "referee.js",
        "fields.js",
        "disputes.js",
        "undone.js",
    ):
        r = http.get(f"/table/assets/{name}")
        assert r.status_code == 200, name
        assert "javascript" in r.headers["content-type"]
        assert "http://" not in r.text and "https://" not in r.text  # nothing from elsewhere


def test_the_built_library_is_served_for_the_page(http: httpx.Client) -> None:
    r = http.get("/table/lib/index.js")
    assert r.status_code == 200, "clients/ts/dist is missing: `make install` builds it"
    assert "withTableDice" in r.text
    # every module the page imports from the library is there
    api = (TABLE_ASSETS_DIR / "api.js").read_text()
    assert 'from "/table/lib/index.js"' in api


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ready_setup_creates_a_battle_of_its_ruleset(http: httpx.Client, ruleset: str) -> None:
    setup = http.get(f"/table/assets/templates/{ruleset}.json")
    assert setup.status_code == 200
    r = http.post(
        "/battles", json={"ruleset": ruleset, "setup": setup.json(), "client_dice": "any"}
    )
    assert r.status_code == 201, r.text
    assert set(r.json()["keys"]["sides"]) and r.json()["keys"]["referee"]
