"""The replay viewer at every size, in a real browser (issue 36, item 5): a 40 x 120
skirmish map fills its panel at fit and zooms and pans (buttons, keyboard, wheel, drag);
every mark and side colour drawn has a legend entry with words, for a battle of each
ruleset; a soldier's mark is not a skirmisher's; large and undead squads are marked; a
squad that hides does not drop its side's line on the other side's chart."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.viewer_kit import (
    HIDER,
    hidden_battle,
    phased_battle,
    skirmish_on_the_field,
    tactical_terrain_battle,
    timeline,
    warfare_battle,
)

# The grid panel on screen, its viewBox, its scale, and every army's box on screen.
_PANEL = """() => {
  const svg = document.getElementById("grid"), r = svg.getBoundingClientRect();
  const board = document.getElementById("board").getBoundingClientRect();
  const vb = svg.getAttribute("viewBox").split(" ").map(Number);
  const units = [...svg.querySelectorAll("g.unit")].map((g) => {
    const b = g.firstElementChild.getBoundingClientRect();
    return {id: g.dataset.id, left: b.left, top: b.top, right: b.right, bottom: b.bottom,
            width: b.width, height: b.height};
  });
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
          height: r.height, board: board.width, window: [innerWidth, innerHeight], vb,
          zoom: svg.dataset.zoom, units};
}"""

# Every shape drawn on the grid and the legend keys it stands for (its data-legend, else its
# class); every legend entry's keys, words and whether it has words; the sides drawn.
_LEGEND = """() => {
  const grid = document.getElementById("grid");
  const shapes = [...grid.querySelectorAll("rect, circle, path, polygon, polyline, line, ellipse")]
    .filter((e) => !["board", "gridlines"].includes(e.getAttribute("class")))
    .map((e) => ({tag: e.tagName, keys: (e.dataset.legend || e.getAttribute("class") || "")
      .split(e.dataset.legend ? " " : "\\u0000").filter(Boolean)}));
  const entries = [...document.querySelectorAll("#legend li.mark-key")].map((li) => ({
    keys: li.dataset.keys.split("|"), known: li.dataset.known, text: li.textContent}));
  const sides = [...document.querySelectorAll("#legend li.side-key")].map((li) => li.dataset.side);
  const drawnSides = [...new Set([...grid.querySelectorAll("[data-side]")]
    .map((e) => e.dataset.side))];
  return {shapes, entries, sides, drawnSides};
}"""


def _px_per_square(panel: dict[str, Any]) -> float:
    return float(panel["width"]) / (panel["vb"][2] / 36)


def test_a_40_by_120_map_fills_the_panel_and_zooms_and_pans(
    open_viewer: Any, http: httpx.Client
) -> None:
    b = skirmish_on_the_field(http)
    head = b.view()["version"]
    viewer = open_viewer(b, "observer")
    viewer.wait_shown(head)
    page = viewer.page
    fit = page.evaluate(_PANEL)
    # fit: the map's 40 squares across the whole panel, as wide as its column (not a column
    # of 200 px), as high as the window allows; every army on screen, inside the panel
    assert fit["zoom"] == "fit" and fit["vb"][2] == 40 * 36, fit["vb"]
    assert fit["width"] >= 0.95 * fit["board"] and fit["width"] >= 600, fit
    assert fit["height"] >= 0.6 * fit["window"][1], fit
    assert _px_per_square(fit) >= 15, fit
    assert len(fit["units"]) == 4
    for u in fit["units"]:
        assert fit["left"] <= u["left"] and u["right"] <= fit["right"] + 0.5, u
        assert fit["top"] <= u["top"] and u["bottom"] <= fit["bottom"] + 0.5, u
        assert min(u["width"], u["height"]) >= 10, u
    viewer.shot("viewer-skirmish-fit.png")

    # the buttons: in, and the marks grow with the zoom; whole map; fit again
    page.click("#zoom-in")
    zoomed = page.evaluate(_PANEL)
    assert _px_per_square(zoomed) > 1.2 * _px_per_square(fit)
    widths = {u["id"]: u["width"] for u in fit["units"]}
    assert all(u["width"] > 1.2 * widths[u["id"]] for u in zoomed["units"])
    page.click("#zoom-whole")
    whole = page.evaluate(_PANEL)
    assert whole["vb"][3] >= 120 * 36 and whole["vb"][2] >= 40 * 36
    page.click("#zoom-fit")
    assert page.evaluate(_PANEL)["vb"] == fit["vb"]

    # the keyboard on the focused grid: + zooms in, arrows pan, - zooms out, 1 and 0
    page.focus("#grid")
    page.keyboard.type("+")
    plus = page.evaluate(_PANEL)
    assert _px_per_square(plus) > _px_per_square(fit)
    page.keyboard.press("ArrowDown")
    down = page.evaluate(_PANEL)
    assert down["vb"][1] > plus["vb"][1] and down["vb"][2:] == plus["vb"][2:]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(_PANEL)["vb"][0] > down["vb"][0]
    page.keyboard.type("-")
    assert _px_per_square(page.evaluate(_PANEL)) < _px_per_square(plus)
    page.keyboard.type("1")
    assert page.evaluate(_PANEL)["zoom"] == "whole"
    page.keyboard.type("0")
    assert page.evaluate(_PANEL)["vb"] == fit["vb"]

    # the wheel zooms about the pointer; a drag pans (the map follows the pointer)
    mid = ((fit["left"] + fit["right"]) / 2, (fit["top"] + fit["bottom"]) / 2)
    page.mouse.move(*mid)
    page.mouse.wheel(0, -300)
    page.wait_for_function(
        f"document.getElementById('grid').dataset.scale > {fit['width'] / fit['vb'][2]}"
    )
    wheeled = page.evaluate(_PANEL)
    assert _px_per_square(wheeled) > 1.5 * _px_per_square(fit)
    page.mouse.down()
    page.mouse.move(mid[0] - 100, mid[1] - 60, steps=4)
    page.mouse.up()
    dragged = page.evaluate(_PANEL)
    scale = dragged["width"] / dragged["vb"][2]
    assert abs((dragged["vb"][0] - wheeled["vb"][0]) * scale - 100) < 2, (dragged, wheeled)
    assert abs((dragged["vb"][1] - wheeled["vb"][1]) * scale - 60) < 2
    # another version of the same map keeps the reader's zoom and place
    viewer.scrub_to(head - 1)
    assert page.evaluate(_PANEL)["vb"] == dragged["vb"]
    viewer.shot("viewer-skirmish-zoomed.png")


def _check_legend(viewer: Any, name: str) -> dict[str, Any]:
    found = viewer.page.evaluate(_LEGEND)
    listed = {k for e in found["entries"] for k in e["keys"]}
    assert found["shapes"], name
    for shape in found["shapes"]:
        assert shape["keys"], (name, shape)  # a mark that stands for nothing the legend says
        assert set(shape["keys"]) <= listed, (name, shape, listed)
    assert all(e["known"] == "true" for e in found["entries"]), (name, found["entries"])
    drawn_keys = {k for s in found["shapes"] for k in s["keys"]}
    assert listed == drawn_keys, name  # and nothing listed that is not drawn
    assert sorted(found["sides"]) == sorted(found["drawnSides"]), name
    viewer.shot(f"viewer-legend-{name}.png")
    return found


def test_every_mark_drawn_has_a_legend_entry_in_every_ruleset(
    open_viewer: Any, http: httpx.Client
) -> None:
    quick, _ = hidden_battle(http)
    viewer = open_viewer(quick, "north")  # its hidden squad, a large one, an undead one
    viewer.wait_shown(quick.view()["version"])
    found = _check_legend(viewer, "quickstart")
    keys = {k for e in found["entries"] for k in e["keys"]}
    kinds = ("soldier", "skirmisher", "paladin", "caster", "medic")
    assert {f"squad-{k}" for k in kinds} | {"hidden", "large", "undead"} <= keys, keys
    # a soldier and a skirmisher differ in shape and letters (both were an "S" in a circle)
    marks = viewer.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      "#grid g.unit[data-kind=squad]")].map((g) => [g.dataset.squadKind,
      [g.querySelector(".squad").tagName,
       g.querySelector(".label").textContent.replace(/[0-9]/g, "")]]))""")
    assert len({tuple(v) for v in marks.values()}) == 5, marks
    assert marks["soldier"] != marks["skirmisher"], marks
    assert (
        marks["soldier"][0] != marks["skirmisher"][0]
        and marks["soldier"][1] != marks["skirmisher"][1]
    )
    large = viewer.page.evaluate("""() => [...document.querySelectorAll(
      "#grid g.unit[data-large]")].map((g) => [g.dataset.id, !!g.querySelector(".large-ring")])""")
    undead = viewer.page.evaluate("""() => [...document.querySelectorAll(
      "#grid g.unit[data-undead]")].map((g) => [g.dataset.id,
        !!g.querySelector(".undead-badge")])""")
    assert large == [["s_sol", True]] and undead == [["s_ski", True]]
    assert viewer.page.locator("#grid .large-ring").count() == 1
    assert viewer.page.locator("#grid .undead-badge").count() == 1

    skirmish = skirmish_on_the_field(http)
    v = open_viewer(skirmish, "observer")
    v.wait_shown(skirmish.view()["version"])
    _check_legend(v, "skirmish")
    tactical, _, _ = tactical_terrain_battle(http)
    v = open_viewer(tactical, "referee")
    v.wait_shown(tactical.view()["version"])
    _check_legend(v, "tactical")
    warfare = warfare_battle(http)
    v = open_viewer(warfare, "referee")
    v.wait_shown(warfare.view()["version"])
    kinds_drawn = {k for e in _check_legend(v, "warfare")["entries"] for k in e["keys"]}
    assert "wunit-melee" in kinds_drawn
    phased = phased_battle(http)
    v = open_viewer(phased, "referee")
    v.wait_shown(phased.view()["version"])
    _check_legend(v, "phased")


def test_a_squad_that_hides_is_not_a_loss_on_the_other_sides_chart(
    open_viewer: Any, http: httpx.Client
) -> None:
    b, hid_at = hidden_battle(http)
    assert b.command("referee", {"type": "EndStep"}).status_code == 200
    head = b.view()["version"]
    points = timeline(b, "south")["points"]
    assert points[hid_at - 2]["strength"]["north"] == 5 and points[hid_at - 2]["hidden"] == {}
    assert points[hid_at - 1]["strength"]["north"] == 4  # south no longer sees it ...
    assert points[hid_at - 1]["hidden"] == {"north": 1}  # ... and carries it, as last seen
    assert timeline(b, "referee")["points"][hid_at - 1]["hidden"] == {}
    south = open_viewer(b, "south")
    south.wait_shown(head)
    shown = south.read()
    line = shown["series"]["north"]
    assert line[hid_at - 2 :] == [5] * (head - hid_at + 2), line  # no drop at the hiding
    stretches = south.page.evaluate("""() => [...document.querySelectorAll(
      "#chart polyline.hidden-stretch")].map((p) => [p.dataset.side, Number(p.dataset.from),
      Number(p.dataset.to)])""")
    assert stretches == [["north", hid_at, head]]
    note = south.page.locator("#strength-now li[data-side=north]")
    assert note.get_attribute("data-hidden") == "1" and "out of sight" in note.inner_text()
    assert shown["now"]["north"] == 4
    assert HIDER not in south.page.content()  # carried as a number, never named
    south.shot("viewer-south-hidden-chart.png")
