"""The replay viewer in a real browser (Debian's chromium through playwright, the `browser`
fixture): a recorded battle is opened with a key in the URL fragment, the scrubber moved
with the keyboard, and the grid and the chart compared with the state the API gives that
key at that version; new versions arrive live, without a reload; a side's key never gets
the other side's hidden squad into the page. No request leaves for another host.

The page and the `open_viewer` fixture are in tests/e2e/viewer_page.py (and conftest.py).
Screenshots are kept in $BATTLE_TEST_ARTIFACTS (default tests/artifacts/, ignored by git);
`make viewer-picture` copies the referee's one to docs/viewer.png for docs/DESK.md.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle, create_battle, play, rolls
from tests.e2e.viewer_kit import (
    HIDER,
    hidden_battle,
    skirmish_on_the_field,
    squad_counts,
    state_at,
    tactical_battle,
    timeline,
)


def _grid_of(state: dict[str, Any]) -> set[tuple[str, str, str, int, int]]:
    """The units the grid must show for a quickstart state (squads, engines, barriers,
    trapped heroes: the others ride with a squad or sit in the watchtower)."""
    out = {("squad", q["id"], q["side"], q["x"], q["y"]) for q in state["squads"]}
    out |= {
        ("hero", h["id"], h["side"], h["x"], h["y"])
        for h in state["heroes"]
        if h["status"] == "trapped"
    }
    out |= {("engine", g["id"], g["side"], g["x"], g["y"]) for g in state["engines"]}
    out |= {("barrier", b["id"], b["side"], b["x"], b["y"]) for b in state["barriers"]}
    return out


def _grid_shown(shown: dict[str, Any]) -> set[tuple[str, str, str, int, int]]:
    return {(u["kind"], u["id"], u["side"], u["x"], u["y"]) for u in shown["units"]}


def _check_version(b: Battle, who: str, shown: dict[str, Any], version: int) -> None:
    state = state_at(b, who, version)
    assert shown["shown"] == version and shown["cursor"] == version
    assert _grid_shown(shown) == _grid_of(state)
    strength = squad_counts(state)
    assert shown["now"] == strength
    # the line carries what went out of sight at its last seen strength (hidden is not dead)
    hidden = timeline(b, who)["points"][version - 1]["hidden"]
    known = {side: n + hidden.get(side, 0) for side, n in strength.items()}
    assert {side: values[version - 1] for side, values in shown["series"].items()} == known
    types = {e["type"] for e in b.events(who) if e["version"] == version and e.get("type")}
    assert types <= set(shown["events"]) and shown["events"], (types, shown["events"])


def test_a_recorded_battle_is_scrubbed_and_followed_live(
    open_viewer: Any, http: httpx.Client
) -> None:
    b = create_battle(http, title="Battle of the Ford")
    # The autopilot's orders (server dice) until a squad has fallen, and a few more.
    for _ in range(40):
        if play(b, stop_after=5) < 5:
            break  # over
        points = timeline(b, "referee")["points"]
        if points[-1]["strength"] != points[0]["strength"] and len(points) > 60:
            break
    r = http.post(f"/battles/{b.id}/dice/reveal", headers=b.auth("referee"))
    assert r.status_code == 200, r.text  # the dice so far can be recomputed: "verified"
    head = b.view()["version"]
    audit = http.get(f"/battles/{b.id}/verify", headers=b.auth("referee")).json()
    assert audit["ok"] and audit["dice_checked"] > 0
    points = timeline(b, "referee")["points"]
    # a version where the strength has already changed, and the last one before that
    changed = next(p["version"] for p in points if p["strength"] != points[0]["strength"])

    viewer = open_viewer(b, "referee")
    shown = viewer.wait_shown(head)  # it opens at the head
    assert shown["max"] == head == shown["head"]
    _check_version(b, "referee", shown, head)
    assert shown["series"] == {s: [p["strength"][s] for p in points] for s in ("north", "south")}
    for version in (changed - 1, changed, 3):
        _check_version(b, "referee", viewer.scrub_to(version), version)
    viewer.page.wait_for_selector("#audit-report .verdict[data-ok=true]", timeout=20_000)
    verified = viewer.page.locator("#audit-report [data-count=verified]").get_attribute("data-n")
    assert verified == str(audit["dice_checked"])
    # The picture: the last roll before the first squad fell, its dice verified.
    rolled = max(e["version"] for e in b.events() if e["version"] <= changed and rolls(e["data"]))
    viewer.scrub_to(rolled)
    viewer.page.wait_for_selector("#narrative-entry li.die[data-status=verified]")
    viewer.shot("viewer-referee.png")
    viewer.scrub_to(head)

    # Live: the next entries arrive over the stream, the page follows to the new head.
    for i in range(3):
        ruling = {
            "type": "RecordRuling",
            "ruling": f"noted {i}",
            "reason": "live",
            "audience": "all",
        }
        assert b.command("referee", ruling).status_code == 200
    new_head = b.view()["version"]
    assert new_head > head
    shown = viewer.wait_shown(new_head)
    assert shown["max"] == new_head
    assert all(len(v) == new_head for v in shown["series"].values())
    _check_version(b, "referee", shown, new_head)


def test_a_side_never_gets_the_other_sides_hidden_squad_into_the_page(
    open_viewer: Any, http: httpx.Client
) -> None:
    b, hid_at = hidden_battle(http)
    for _ in range(2):  # the battle goes on past the secret check
        assert b.command("referee", {"type": "EndStep"}).status_code == 200
    head = b.view()["version"]

    south = open_viewer(b, "south")
    shown = south.wait_shown(head)
    _check_version(b, "south", shown, head)
    assert HIDER not in south.page.content()
    assert shown["now"]["north"] == 4
    before = south.scrub_to(hid_at - 1)  # before it hid, south saw it like any squad
    assert HIDER in {u["id"] for u in before["units"]}
    after = south.scrub_to(hid_at + 1)
    _check_version(b, "south", after, hid_at + 1)
    assert HIDER not in south.page.content()
    south.shot("viewer-south-hidden.png")

    north = open_viewer(b, "north")  # its own side sees it, marked hidden
    shown = north.wait_shown(head)
    _check_version(b, "north", shown, head)
    assert [u["hidden"] for u in shown["units"] if u["id"] == HIDER] == [True]


def _units_of(ruleset: str, state: dict[str, Any]) -> set[tuple[str, str, int, int, str]]:
    """What the grid must show for a skirmish or tactical state, as (id, side, x, y, facing)."""
    if ruleset == "skirmish":
        return {
            (a["id"], a["side"], a["x"], a["y"], a["facing"])
            for a in state["armies"]
            if a["placed"] and not a["destroyed"]
        }
    return {(c["id"], c["side"], c["x"], c["y"], "") for c in state["characters"] if "x" in c}


def _strength_of(ruleset: str, state: dict[str, Any]) -> dict[str, int]:
    if ruleset == "skirmish":
        out = {f["id"]: 0 for f in state["forces"]}
        for a in state["armies"]:
            out[a["side"]] += 0 if a["destroyed"] else a["army_size"]
        return out
    out = {s["id"]: 0 for s in state["sides"]}
    for c in state["characters"]:
        out[c["side"]] += 0 if c["dead"] else max(0, c["HEA"]["cur"])
    return out


@pytest.mark.parametrize("ruleset", ["skirmish", "tactical"])
def test_the_other_rulesets_grids_and_strength(
    open_viewer: Any, http: httpx.Client, ruleset: str
) -> None:
    b = skirmish_on_the_field(http) if ruleset == "skirmish" else tactical_battle(http)
    head = b.view()["version"]
    viewer = open_viewer(b, "referee")
    for version in (head, max(1, head - 3)):
        shown = viewer.scrub_to(version) if version != head else viewer.wait_shown(head)
        state = state_at(b, "referee", version)
        units = viewer.page.evaluate(
            """() => [...document.querySelectorAll("#grid g.unit")].map((g) => [g.dataset.id,
                 g.dataset.side, Number(g.dataset.x), Number(g.dataset.y),
                 g.dataset.facing || ""])"""
        )
        assert {tuple(u) for u in units} == _units_of(ruleset, state)
        assert shown["now"] == _strength_of(ruleset, state)
        assert shown["cursor"] == version
    assert _units_of(ruleset, b.view()["state"])  # there was something to draw
    viewer.shot(f"viewer-{ruleset}.png")
