"""The viewer's audit badge (service/desk/viewer_assets/panels.js `renderAudit`), run in Node
with a minimal document: an import whose origin this service does not vouch for is not
badged "log verified" but "origin not verified by this service", with the key id
(issue 31, item 7)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from service.desk.viewer import VIEWER_ASSETS_DIR

# A document that builds nodes and reads their text back: what `dom.js` calls.
_SCRIPT = """
class Node {
  constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; this.text = ""; }
  setAttribute(k, v) { this.attrs[k] = v; }
  append(...c) { this.children.push(...c); }
  set textContent(v) { this.text = v; }
  get firstChild() { return this.children[0]; }
  remove() {}
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
}
globalThis.document = {
  createElement: (t) => new Node(t),
  createElementNS: (_, t) => new Node(t),
  createTextNode: (t) => { const n = new Node("#text"); n.text = t; return n; },
};
const {renderAudit} = await import(process.argv[1]);
const root = new Node("div");
root.children = [];
renderAudit(root, JSON.parse(process.argv[2]));
const badges = [];
const walk = (n) => { if ((n.attrs.class || "").startsWith("badge")) badges.push(n.textContent);
                      n.children.forEach(walk); };
walk(root);
console.log(JSON.stringify({badges, text: root.textContent}));
"""

_REPORT = {
    "battle_id": "b", "ok": True, "events_checked": 9, "chain_ok": True, "dice_ok": True,
    "dice_checked": 3, "dice_pending": 0, "client_dice": 0, "first_failure": None,
    "events_sealed": 0,
}  # fmt: skip


def _render(report: dict[str, Any]) -> dict[str, Any]:
    if shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is missing")
        pytest.skip("node is missing")
    panels = Path(VIEWER_ASSETS_DIR / "panels.js").resolve().as_uri()
    run = subprocess.run(
        ["node", "--input-type=module", "-e", _SCRIPT, panels, json.dumps(report)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout))


def test_a_foreign_origin_is_badged_not_verified_with_its_key() -> None:
    origin = {"origin": "not-verified", "key_ids": ["ab12"], "note": "origin not verified…"}
    out = _render({**_REPORT, "origin": origin})
    assert "log verified" not in out["badges"]
    assert "origin not verified by this service" in out["badges"]
    assert "signed by key ab12" in out["text"]


def test_a_verified_or_created_origin_keeps_the_verified_badge() -> None:
    for origin in ({"origin": "verified"}, {"origin": "created"}, None):
        out = _render({**_REPORT, "origin": origin})
        assert out["badges"] == ["log verified"], out
