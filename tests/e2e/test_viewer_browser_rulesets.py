"""The replay viewer's grids for warfare (seed 003) and phased (seed 004) in a real browser
(the `browser` and `open_viewer` fixtures): a battle played through HTTP with table dice,
the scrubber moved with the keyboard, and the grid's units, the phase line and the chart
compared with the state the API gives that key at that version."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.viewer_kit import phased_battle, state_at, timeline, warfare_battle

# Every unit drawn on the grid: the data- attributes the renderer put on it, and the square
# its first shape is drawn on (from its geometry: a unit drawn elsewhere than its data-x, y
# says is caught too). A square is 36 units of the SVG's viewBox.
# A warfare unit's facing mark is read the same way: the step from its square's centre
# to the mark's, each coordinate -1, 0 or 1.
_UNITS = """() => [...document.querySelectorAll("#grid g.unit")].map((g) => {
  const mid = (b) => [b.x + b.width / 2, b.y + b.height / 2];
  const [x, y] = mid(g.firstElementChild.getBBox());
  const mark = g.querySelector(".facing-mark");
  const [mx, my] = mark ? mid(mark.getBBox()) : [x, y];
  const step = (d) => (Math.abs(d) < 3 ? 0 : Math.sign(d));
  return {...g.dataset, cell: [Math.floor(x / 36), Math.floor(y / 36)],
          drawnFacing: [step(mx - x), step(my - y)]};
})"""
_COMPASS = {"N": [0, -1], "NE": [1, -1], "E": [1, 0], "SE": [1, 1], "S": [0, 1], "SW": [-1, 1],
            "W": [-1, 0], "NW": [-1, -1]}  # fmt: skip
_ZONES = """() => [...document.querySelectorAll("#grid rect.zone")].map((r) => [r.dataset.side,
  Number(r.getAttribute("x")) / 36, Number(r.getAttribute("y")) / 36, r.getAttribute("fill")])"""


def _strength(state: dict[str, Any]) -> dict[str, int]:
    """Each side's strength as the test counts it from the state: warfare, the health of
    units on the field; phased, the combatants up (no hp, or more than 0)."""
    if state["ruleset"] == "warfare":
        out = dict.fromkeys(state["sides"], 0)
        for u in state["units"]:
            out[u["side"]] += max(0, u["health"]) if u["status"] == "field" else 0
        return out
    out = {s["id"]: 0 for s in state["sides"]}
    for c in state["combatants"]:
        out[c["side"]] += 1 if c["hp"] is None or c["hp"] > 0 else 0
    return out


def _check_chart(b: Battle, who: str, shown: dict[str, Any], version: int) -> None:
    """The strength list and the chart at `version` are the state's, and the timeline's."""
    point = next(p for p in timeline(b, who)["points"] if p["version"] == version)
    assert shown["cursor"] == version and shown["shown"] == version
    assert shown["now"] == point["strength"] == _strength(state_at(b, who, version))
    assert {s: values[version - 1] for s, values in shown["series"].items()} == point["strength"]


def _warfare_field(state: dict[str, Any]) -> set[tuple[str, str, int, int, str, int, str]]:
    """(id, side, x, y, facing, health, champion) of every unit on the field."""
    return {
        (u["id"], u["side"], u["x"], u["y"], u["facing"], u["health"], u["joined_by"] or "")
        for u in state["units"]
        if u["status"] == "field"
    }


def test_warfare_units_facing_health_and_zones(open_viewer: Any, http: httpx.Client) -> None:
    b = warfare_battle(http)
    head = b.view()["version"]
    points = timeline(b, "referee")["points"]
    # the last version before any unit was hurt, one where the first has shattered, the head
    hurt = next(p["version"] for p in points if p["strength"] != points[0]["strength"])
    shattered = next(
        v
        for v in range(hurt, head + 1)
        if any(u["status"] == "shattered" for u in state_at(b, "referee", v)["units"])
    )
    viewer = open_viewer(b, "observer")
    seen: set[str] = set()
    for i, version in enumerate((head, hurt - 1, shattered, head)):
        shown = viewer.scrub_to(version) if i else viewer.wait_shown(head)  # opens at the head
        state = state_at(b, "observer", version)
        units = viewer.page.evaluate(_UNITS)
        drawn = {
            (u["id"], u["side"], int(u["x"]), int(u["y"]), u["facing"], int(u["health"]),
             u.get("champion", ""))
            for u in units
        }  # fmt: skip
        assert all(u["cell"] == [int(u["x"]), int(u["y"])] for u in units), units
        assert all(u["drawnFacing"] == _COMPASS[u["facing"]] for u in units), units
        assert len(units) == len(drawn) == len(_warfare_field(state))
        assert drawn == _warfare_field(state), version
        off = {u["id"] for u in state["units"] if u["status"] != "field"}
        assert not off & {u["id"] for u in units}
        seen |= {u["status"] for u in state["units"]}
        _check_chart(b, "observer", shown, version)
        phase = viewer.page.locator("#phase").inner_text()
        assert f"round {state['round']}" in phase
        turn = f"{state['active']}'s turn" if state["active"] else "between turns"
        assert ("over" if state["over"] else turn) in phase, (phase, state["active"])
    assert {"field", "reserve", "shattered"} <= seen
    assert any(f[6] == "warden" for f in _warfare_field(state_at(b, "observer", hurt - 1)))
    # the reinforcement zones, one square each, in their side's colour (the legend's)
    zones = viewer.page.evaluate(_ZONES)
    state = b.view("observer")["state"]
    want = {(side, x, y) for side, zs in state["zones"].items() for z in zs for x, y in z["tiles"]}
    assert {(s, x, y) for s, x, y, _ in zones} == want and len(zones) == len(want)
    colours = {s: {c for s2, _, _, c in zones if s2 == s} for s in state["sides"]}
    assert all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) == len(state["sides"])
    viewer.shot("viewer-warfare.png")


def test_phased_combatants_and_who_acts_now(open_viewer: Any, http: httpx.Client) -> None:
    b = phased_battle(http)
    head = b.view()["version"]
    versions = [e["version"] for e in b.events("referee") if e["type"] == "CombatantAdjusted"]
    moved, down = versions  # r1 moved; p2 taken down (party's strength 2 -> 1)
    viewer = open_viewer(b, "referee")
    nows = set()
    for i, version in enumerate((head, moved - 1, moved, down, 2)):
        shown = viewer.scrub_to(version) if i else viewer.wait_shown(head)
        state = state_at(b, "referee", version)
        units = viewer.page.evaluate(_UNITS)
        drawn = {(u["id"], u["side"], int(u["x"]), int(u["y"])) for u in units}
        placed = {
            (c["id"], c["side"], c["x"], c["y"]) for c in state["combatants"] if c["x"] is not None
        }
        assert all(u["cell"] == [int(u["x"]), int(u["y"])] for u in units), units
        assert len(units) == len(drawn) == len(placed) == 3
        assert drawn == placed, version
        _check_chart(b, "referee", shown, version)
        phase = viewer.page.locator("#phase").inner_text()
        now = state["now"]
        if now["stage"] == "phases":
            assert f"phase {now['phase']}" in phase
            assert f"{now['combatant']} ({now['side']}) acts now" in phase
            assert [u["id"] for u in units if u.get("acting")] == [now["combatant"]]
        else:
            assert now["stage"] == "declare"
            assert "declaring: " + ", ".join(now["declaring"]) in phase
        nows.add((now["stage"], now.get("combatant")))
    assert ("phases", "b1") in nows and ("declare", None) in nows and len(nows) >= 3
    assert shown["series"]["party"][0] == 2 and shown["series"]["party"][-1] == 1
    # the referee moved r1 next to b1 at `moved`
    before = {c["id"]: (c["x"], c["y"]) for c in state_at(b, "referee", moved - 1)["combatants"]}
    after = {c["id"]: (c["x"], c["y"]) for c in state_at(b, "referee", moved)["combatants"]}
    assert before["r1"] != after["r1"]
    viewer.scrub_to(head)
    viewer.shot("viewer-phased.png")
