"""The replay viewer's grids for warfare (seed 003) and phased (seed 004) in a real browser
(the `browser` and `open_viewer` fixtures): a battle played through HTTP with table dice,
the scrubber moved with the keyboard, and the grid's units, the phase line and the chart
compared with the state the API gives that key at that version. The maps too: tactical
(seed 002) terrain, structures and a power's wall, skirmish (seed 000) zones."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.viewer_kit import (
    phased_battle,
    skirmish_on_the_field,
    state_at,
    tactical_terrain_battle,
    timeline,
    warfare_battle,
)

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


# The centre of an SVG element's box, as the square it falls in (36 viewBox units a square).
_CELL = (
    "(e) => { const b = e.getBBox(); return [Math.floor((b.x + b.width / 2) / 36), "
    "Math.floor((b.y + b.height / 2) / 36)]; }"
)
# Every terrain square drawn: its data- attributes, the square its fill is drawn on, the
# fill's class and computed colour, and its concealment and cover marks (class, square).
_TERRAIN = f"""() => {{ const cell = {_CELL};
  return [...document.querySelectorAll("#grid g.terrain")].map((g) => {{
    const fill = g.firstElementChild, veil = g.querySelector(".concealment"),
      mark = g.querySelector(".cover-mark");
    return {{...g.dataset, cell: cell(fill), fill: fill.getAttribute("class"),
      colour: getComputedStyle(fill).fill,
      veil: veil ? [veil.getAttribute("class"), ...cell(veil)] : null,
      mark: mark ? [mark.getAttribute("class"), ...cell(mark)] : null}};
  }}); }}"""
_STRUCTURES = f"""() => {{ const cell = {_CELL};
  return [...document.querySelectorAll("#grid rect.structure")].map((r) => ({{...r.dataset,
    cell: cell(r), class: r.getAttribute("class")}})); }}"""
_LEGEND = (
    """() => [...document.querySelectorAll("#legend li.mark-key")].map((li) => li.textContent)"""
)


def _kind(t: dict[str, Any]) -> str:
    """What a terrain square is drawn as: blocking movement and sight (a wall), movement
    only (an obstacle), sight only (a screen), neither (open, with cover or concealment)."""
    move, sight = t.get("blocks_move", False), t.get("blocks_sight", False)
    return "wall" if move and sight else "obstacle" if move else "screen" if sight else "open"


def _terrain_of(b: Battle, who: str) -> set[tuple[int, int, str, str, str]]:
    """The map's squares as the battle's first event gives them to `who` (its setup)."""
    r = b.http.get(f"/battles/{b.id}/events", params={"after": 0, "limit": 1}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    squares = r.json()["events"][0]["data"]["setup"]["squares"]
    listed = {
        (t["x"], t["y"], _kind(t), t.get("cover", "none"), t.get("concealment", "none"))
        for t in squares
    }
    return {t for t in listed if t[2:] != ("open", "none", "none")}  # plain floor: not drawn


def _structures_of(state: dict[str, Any]) -> set[tuple[str, int, int, bool, bool]]:
    """(id, x, y, a power's wall, destroyed) of every structure square."""
    return {
        (t["id"], x, y, t["wall"], t["sth"] <= 0)
        for t in state["structures"]
        for x, y in t["squares"]
    }


def test_tactical_terrain_walls_and_structures(open_viewer: Any, http: httpx.Client) -> None:
    b, raised, broken = tactical_terrain_battle(http)
    head = b.view()["version"]
    viewer = open_viewer(b, "south")  # the map is the setup's, which every side reads
    colours: dict[str, set[str]] = {}
    structures: dict[int, set[tuple[str, int, int, bool, bool]]] = {}
    for i, version in enumerate((head, raised - 1, raised, broken - 1)):
        viewer.scrub_to(version) if i else viewer.wait_shown(head)
        state = state_at(b, "south", version)
        terrain = viewer.page.evaluate(_TERRAIN)
        drawn = {(int(t["x"]), int(t["y"]), t["kind"], t["cover"], t["concealment"])
                 for t in terrain}  # fmt: skip
        assert drawn == _terrain_of(b, "south") and len(terrain) == len(drawn) == 8, version
        for t in terrain:
            square = [int(t["x"]), int(t["y"])]
            assert t["cell"] == square and t["fill"] == f"terrain-fill {t['kind']}", t
            colours.setdefault(t["kind"], set()).add(t["colour"])
            veil = None if t["concealment"] == "none" else [f"concealment {t['concealment']}"]
            assert t["veil"] == (veil and veil + square), t
            mark = None if t["cover"] == "none" else [f"cover-mark {t['cover']}"]
            assert t["mark"] == (mark and mark + square), t
        shown = viewer.page.evaluate(_STRUCTURES)
        structures[version] = {
            (r["id"], int(r["x"]), int(r["y"]), r.get("wall") == "true",
             r.get("destroyed") == "true")
            for r in shown
        }  # fmt: skip
        assert structures[version] == _structures_of(state) and len(shown) == len(
            structures[version]
        )
        for r in shown:
            assert r["cell"] == [int(r["x"]), int(r["y"])], r
            want = "area structure" + (" wall" if "wall" in r else "")
            assert r["class"] == want + (" destroyed" if "destroyed" in r else ""), r
    # each kind of square has its own colour, and open floor none
    assert all(len(c) == 1 for c in colours.values()) and set(colours) == {
        "wall", "obstacle", "screen", "open"}  # fmt: skip
    assert len({next(iter(c)) for c in colours.values()}) == 4 and colours["open"] == {"none"}
    assert not {"rgb(0, 0, 0)"} & set().union(*colours.values())  # SVG's default: unstyled
    # the wall is raised at `raised`, three sections; the door destroyed at `broken`
    wall = {("wall2", x, 6, True, False) for x in (2, 3, 4)}
    assert not wall & structures[raised - 1] and wall <= structures[raised]
    assert ("door", 3, 2, False, False) in structures[broken - 1]
    assert ("door", 3, 2, False, True) in structures[head]
    legend = viewer.page.evaluate(_LEGEND)
    assert "dark square: wall (blocks movement and sight)" in legend
    assert "corner mark: cover (filled: superior)" in legend
    viewer.shot("viewer-tactical-terrain.png")


_BANDS = f"""() => {{ const cell = {_CELL};
  return [...document.querySelectorAll("#grid rect.zone-band")].map((r) => ({{...r.dataset,
    top: Number(r.getAttribute("y")) / 36, rows: Number(r.getAttribute("height")) / 36,
    across: Number(r.getAttribute("width")) / 36,
    colour: r.getAttribute("fill")}}));
  }}"""
_EDGES = """() => [...document.querySelectorAll("#grid path.melee-edge")].map((p) => ({...p.dataset,
  top: p.getBBox().y / 36, across: p.getBBox().width / 36, colour: p.getAttribute("stroke")}))"""


def _bands_of(state: dict[str, Any]) -> set[tuple[str, str, int, int]]:
    """(side, zone, first row, last row + 1) of every zone on the map."""
    return {
        (f["id"], zone, *band)
        for f in state["forces"]
        if f["zones"]
        for zone, band in f["zones"]["rows"].items()
        if zone != "melee_edge" and band
    }


def test_skirmish_zones(open_viewer: Any, http: httpx.Client) -> None:
    # command zones 200' behind the ranged zones (the option allows it): on the map
    nearer = {"command_distance": 200}
    b = skirmish_on_the_field(http, zones={"north": nearer, "south": nearer},
                              options={"command_zone_min_distance": 100})  # fmt: skip
    head = b.view()["version"]
    first = min(e["version"] for e in b.events("observer") if e.get("type") == "ZonesSet")
    viewer = open_viewer(b, "observer")
    seen = []
    for i, version in enumerate((head, first - 1, first)):
        viewer.scrub_to(version) if i else viewer.wait_shown(head)
        state = state_at(b, "observer", version)
        bands, edges = viewer.page.evaluate(_BANDS), viewer.page.evaluate(_EDGES)
        drawn = {(r["side"], r["zone"], int(r["from"]), int(r["to"])) for r in bands}
        assert drawn == _bands_of(state) and len(bands) == len(drawn), version
        assert all(r["top"] == int(r["from"]) and r["rows"] == int(r["to"]) - int(r["from"])
                   and r["across"] == state["width"] for r in bands), bands  # fmt: skip
        want = {(f["id"], f["zones"]["rows"]["melee_edge"]) for f in state["forces"] if f["zones"]}
        assert {(p["side"], int(p["row"])) for p in edges} == want and len(edges) == len(want)
        assert all(p["top"] == int(p["row"]) and p["across"] == state["width"] for p in edges)
        colours = {}
        for r in [*bands, *edges]:
            colours.setdefault(r["side"], set()).add(r["colour"])
        assert all(len(c) == 1 for c in colours.values()), colours
        assert len({next(iter(c)) for c in colours.values()}) == len(colours)
        seen.append(drawn)
    # before any zone is set nothing is drawn; at the head both sides' three zones
    assert seen[1] == set() and len(seen[2]) == 3
    assert {(side, zone) for side, zone, _, _ in seen[0]} == {
        (side, zone) for side in ("north", "south") for zone in ("ranged", "camp", "command")
    }
    assert ("north", "command", 28, 30) in seen[0] and ("south", "command", 100, 102) in seen[0]
    legend = viewer.page.evaluate(_LEGEND)
    assert "line: a side's edge of the melee zone" in legend
    viewer.scrub_to(head)
    viewer.shot("viewer-skirmish-zones.png")
