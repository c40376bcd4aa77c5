"""The replay viewer over plain HTTP: the page and its assets (all local, strict CSP), and
GET /battles/{id}/timeline, each side's strength per version, checked against the state
at every version as the same key reads it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle, play
from tests.e2e.conftest import LiveServer
from tests.e2e.viewer_kit import HIDER, hidden_battle, squad_counts, state_at, timeline

_ASSET = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I)
_IMPORT = re.compile(r"""^import\b[^"']*["']\./([\w.-]+\.js)["']""", re.M)
_SVG_NS = "http://www.w3.org/2000/svg"


def test_the_page_loads_only_local_assets_under_a_strict_csp(http: httpx.Client) -> None:
    r = http.get("/viewer")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    for directive in ("default-src 'none'", "script-src 'self'", "style-src 'self'",
                      "connect-src 'self'", "frame-ancestors 'none'"):  # fmt: skip
        assert directive in csp, directive
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "<script>" not in r.text and " style=" not in r.text  # nothing inline
    assets = [a for a in _ASSET.findall(r.text) if not a.startswith("data:")]
    assert "/viewer/assets/main.js" in assets
    # Every module main.js imports, and theirs, is served from here.
    todo, seen = [a.rsplit("/", 1)[1] for a in assets], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        got = http.get(f"/viewer/assets/{name}")
        assert got.status_code == 200, name
        kind = "css" if name.endswith(".css") else "javascript"
        assert kind in got.headers["content-type"], name
        assert not re.search(r"https?://", got.text.replace(_SVG_NS, "")), f"{name} names a host"
        todo += _IMPORT.findall(got.text)
    assert {"main.js", "api.js", "grid.js", "chart.js", "panels.js", "dom.js"} <= seen
    assert http.get("/viewer/assets/nothing.js").status_code == 404


@pytest.fixture(scope="module")
def played(live_server: LiveServer) -> Iterator[Battle]:
    """A quickstart battle 45 autopilot commands in (some squads destroyed)."""
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = create_battle(http)
        play(b, stop_after=45)
        yield b


@pytest.mark.parametrize("who", ["referee", "north", "observer"])
def test_the_timeline_gives_each_version_the_strength_of_its_state(
    played: Battle, who: str
) -> None:
    t = timeline(played, who)
    head = played.view()["version"]
    assert (t["ruleset"], t["measure"], t["version"]) == ("quickstart", "squads on the field", head)
    assert t["sides"] == ["north", "south"] and t["next_from"] is None
    assert [p["version"] for p in t["points"]] == list(range(1, head + 1))
    for p in t["points"]:
        assert p["strength"] == squad_counts(state_at(played, who, p["version"])), p
    # the battle went on long enough for the chart to move
    assert len({tuple(p["strength"].values()) for p in t["points"]}) > 1


def test_the_timeline_pages(played: Battle) -> None:
    whole = timeline(played, "referee")["points"]
    head = len(whole)
    page = timeline(played, "referee", limit=10, **{"from": 5})
    assert page["points"] == whole[4:14] and page["next_from"] == 15
    last = timeline(played, "referee", limit=10, **{"from": head - 2})
    assert last["points"] == whole[-3:] and last["next_from"] is None
    beyond = timeline(played, "referee", **{"from": head + 1})
    assert beyond["points"] == [] and beyond["next_from"] is None
    assert beyond["sides"] == ["north", "south"]


def test_a_side_is_not_told_of_a_squad_hidden_from_it(http: httpx.Client) -> None:
    b, version = hidden_battle(http)
    for who, north in (("referee", 5), ("north", 5), ("south", 4), ("observer", 4)):
        point = timeline(b, who)["points"][version - 1]
        assert point["version"] == version
        assert point["strength"] == {"north": north, "south": 5}, who
        assert point["strength"] == squad_counts(state_at(b, who, version))
        assert (HIDER in {q["id"] for q in state_at(b, who, version)["squads"]}) == (north == 5)
        # hidden is not dead: who lost sight of it carries it at its last seen strength,
        # on a page that starts at that version too
        carried = {} if north == 5 else {"north": 1}
        assert point["hidden"] == carried, who
        assert timeline(b, who, **{"from": version})["points"][0]["hidden"] == carried, who
        assert timeline(b, who)["points"][version - 2]["hidden"] == {}, who


def test_bad_timeline_requests_are_refused_with_problems(http: httpx.Client) -> None:
    b = create_battle(http)
    other = create_battle(http)
    url = f"/battles/{b.id}/timeline"
    assert http.get(url).status_code == 401
    assert http.get(url, headers=other.auth("referee")).status_code == 403
    for bad in ({"from": 0}, {"limit": 0}, {"limit": 1001}, {"from": "x"}):
        r = http.get(url, params=bad, headers=b.auth("referee"))
        assert r.status_code == 400, (bad, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
    assert http.get("/battles/nope/timeline", headers=b.auth("referee")).status_code in (403, 404)
