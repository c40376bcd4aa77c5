"""A real browser (Debian's headless chromium, driven by Playwright) as an integrator's
page: from another origin it creates a battle, posts a command, follows the battle over
SSE and a WebSocket; and the self-hosted docs page renders.

Without /usr/bin/chromium (`make test` installs it as root) the tests skip saying why,
except with CI=true, where they must run.
"""

from __future__ import annotations

import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LiveServer
from tests.support.quickstart_play import SETUP

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists() and os.environ.get("CI") != "true":
    pytest.skip(
        "no /usr/bin/chromium (run `make test` as root to install it)", allow_module_level=True
    )

# The integrator's page: everything below runs in the browser, on the page's own origin.
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>vtt</title></head><body>
<script>
async function run(base, setup) {
  const out = {};
  let r = await fetch(base + "/battles", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({ruleset: "quickstart", setup})});
  out.create_status = r.status;
  out.location = r.headers.get("Location");
  const battle = await r.json();
  const id = battle.battle_id, key = battle.keys.referee;
  out.battle_id = id;
  r = await fetch(base + "/battles/" + id + "/commands", {method: "POST",
    headers: {"content-type": "application/json", "Authorization": "Bearer " + key,
              "Idempotency-Key": "browser-1"},
    body: JSON.stringify({command: {type: "RecordRuling", ruling: "from a page",
                                    reason: "browser", audience: "all"}})});
  out.command_status = r.status;
  out.etag = r.headers.get("ETag");
  const q = "?access_key=" + encodeURIComponent(key);
  out.sse = await new Promise((resolve, reject) => {
    const got = [];
    const es = new EventSource(base + "/battles/" + id + "/events/stream" + q);
    es.onmessage = (m) => {
      got.push({id: m.lastEventId, event: JSON.parse(m.data)});
      if (got.some((g) => g.event.type === "RulingRecorded")) { es.close(); resolve(got); }
    };
    es.onerror = () => { if (es.readyState === 2) reject(new Error("SSE closed")); };
  });
  out.ws = await new Promise((resolve, reject) => {
    const got = [];
    const ws = new WebSocket(base.replace("http", "ws") + "/battles/" + id + "/events/ws" + q);
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      got.push(msg);
      if (msg.kind === "problem") { ws.close(); resolve(got); }
      if (msg.kind === "event" && msg.event.type === "RulingRecorded") { ws.close(); resolve(got); }
    };
    ws.onerror = () => reject(new Error("WebSocket error"));
  });
  return out;
}
</script></body></html>"""


class _PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def page_origin() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def test_a_page_on_another_origin_plays_and_follows_a_battle(
    browser: Any, page_origin: str, live_server: LiveServer
) -> None:
    assert page_origin != live_server.base_url
    page = browser.new_page()
    try:
        page.goto(page_origin + "/")
        out = page.evaluate(
            "([base, setup]) => run(base, setup)", [live_server.base_url, SETUP]
        )
    finally:
        page.close()
    assert out["create_status"] == 201
    assert out["location"] == f"/battles/{out['battle_id']}"
    assert out["command_status"] == 200
    assert out["etag"]  # exposed to the page
    sse_types = [g["event"]["type"] for g in out["sse"]]
    assert sse_types[-1] == "RulingRecorded"
    assert [int(g["id"]) for g in out["sse"]] == list(range(1, len(sse_types) + 1))
    ws_events = [m for m in out["ws"] if m["kind"] == "event"]
    assert [m["event"]["type"] for m in ws_events] == sse_types


def test_the_docs_page_renders_offline(browser: Any, live_server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    outside: list[str] = []
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(live_server.base_url)
            else (outside.append(route.request.url), route.abort())
        ),
    )
    try:
        page.goto(live_server.base_url + "/schema/swagger")
        page.wait_for_selector("text=Battle service", timeout=30_000)
        page.wait_for_selector(".opblock", timeout=30_000)  # the operations are listed
        png = page.screenshot()
    finally:
        page.close()
    assert outside == []
    from PIL import Image  # noqa: PLC0415

    import io

    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 10  # not blank
