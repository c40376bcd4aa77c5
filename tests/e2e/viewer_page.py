"""The replay viewer's page as the browser tests read it: the grid's units, the chart's
series, the strength list, the narrative's events and the audit verdict, from the DOM; the
scrubber moved with the keyboard; screenshots kept in $BATTLE_TEST_ARTIFACTS (default
tests/artifacts/, ignored by git). The `open_viewer` fixture (tests/e2e/conftest.py) opens
one on a battle with a key."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["ARTIFACTS", "Viewer"]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BATTLE_TEST_ARTIFACTS") or ROOT / "tests" / "artifacts")

# What the page shows, read back from its DOM.
_READ = """() => {
  const viewer = document.getElementById("viewer");
  const units = [...document.querySelectorAll("#grid g.unit")].map((g) => ({
    id: g.dataset.id, side: g.dataset.side, kind: g.dataset.kind,
    x: Number(g.dataset.x), y: Number(g.dataset.y), hidden: g.dataset.hidden === "true"}));
  const series = {};
  for (const p of document.querySelectorAll("#chart polyline.series"))
    series[p.dataset.side] = p.dataset.values.split(",").map(Number);
  const now = {};
  for (const li of document.querySelectorAll("#strength-now li"))
    now[li.dataset.side] = Number(li.dataset.value);
  const cursor = document.querySelector("#chart line.cursor");
  return {
    shown: Number(viewer.dataset.shownVersion), head: Number(viewer.dataset.head),
    max: Number(document.getElementById("scrubber").max), units, series, now,
    cursor: cursor ? Number(cursor.dataset.version) : null,
    events: [...document.querySelectorAll("#narrative-entry li.event")].map((e) => e.dataset.type),
    audit: document.querySelector("#audit-report .verdict")?.dataset.ok ?? null,
  };
}"""


class Viewer:
    """One page of the viewer, opened on a battle with one key."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def read(self) -> dict[str, Any]:
        return dict(self.page.evaluate(_READ))

    def wait_shown(self, version: int) -> dict[str, Any]:
        self.page.wait_for_selector(f"#viewer[data-shown-version='{version}']", timeout=20_000)
        return self.read()

    def scrub_to(self, version: int) -> dict[str, Any]:
        """Move the scrubber as a person would: focus it, Home, then right arrow presses."""
        slider = self.page.locator("#scrubber")
        slider.focus()
        slider.press("Home")
        for _ in range(version - 1):
            slider.press("ArrowRight")
        return self.wait_shown(version)

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path), full_page=True)
        return path
