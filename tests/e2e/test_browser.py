"""A real browser (Debian's chromium, driven by Playwright) against the served app.

A page from another origin (a static server on another loopback port) creates a battle,
posts a command, follows the battle over Server-Sent Events and a WebSocket: what a VTT
module does, with the browser's own CORS and preflight rules in force. And the Swagger
docs page renders, with every request to another host blocked.

Needs /usr/bin/chromium (the `browser` fixture, tests/e2e/conftest.py).
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.e2e.conftest import LiveServer
from tests.support.quickstart_play import SETUP

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>a VTT module</title></head><body>
<script>
const api = %(api)s;
const out = {sse: [], ws: [], errors: []};
function waitFor(list, n) {
  return new Promise((resolve, reject) => {
    const t = setInterval(() => { if (list.length >= n) { clearInterval(t); resolve(); } }, 20);
    setTimeout(() => { clearInterval(t); reject(new Error("timed out")); }, 20000);
  });
}
async function run() {
  let r = await fetch(api + "/battles", {
    method: "POST",
    headers: {"content-type": "application/json", "Idempotency-Key": "browser-" + Math.random()},
    body: JSON.stringify({ruleset: "quickstart", setup: %(setup)s}),
  });
  out.create_status = r.status;
  out.location = r.headers.get("Location");
  const created = await r.json();
  const id = created.battle_id, key = created.keys.referee;
  out.battle_id = id;

  const es = new EventSource(`${api}/battles/${id}/events/stream?access_key=${key}`);
  // Subscribed by type: the frames carry `event: <type>` (onmessage sees none of them).
  for (const type of ["BattleCreated", "RulingRecorded"]) {
    es.addEventListener(type, (e) => {
      out.sse.push({type, id: e.lastEventId, data: JSON.parse(e.data)});
    });
  }
  es.onerror = () => out.errors.push("EventSource error");
  const wsUrl = `${api.replace("http", "ws")}/battles/${id}/events/ws?access_key=${key}`;
  const ws = new WebSocket(wsUrl);
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.kind === "event") out.ws.push(msg);
  };
  await waitFor(out.sse, 1);
  await waitFor(out.ws, 1);

  r = await fetch(`${api}/battles/${id}/commands`, {
    method: "POST",
    headers: {"content-type": "application/json", "Authorization": "Bearer " + key,
              "Idempotency-Key": "cmd-" + Math.random()},
    body: JSON.stringify({command: {type: "RecordRuling", ruling: "from the browser",
                                    reason: "test", audience: "all"}}),
  });
  out.command_status = r.status;
  out.command = await r.json();
  await waitFor(out.sse, 2);
  await waitFor(out.ws, 2);
  es.close();
  ws.close();

  r = await fetch(`${api}/battles/${id}`, {headers: {"Authorization": "Bearer " + key}});
  out.etag = r.headers.get("ETag");
}
run().catch((e) => out.errors.push(String(e))).finally(() => { window.__done = out; });
</script></body></html>
"""


@pytest.fixture
def other_origin(live_server: LiveServer) -> Iterator[str]:
    """A static server on another loopback port: the page's origin is not the API's."""
    page = PAGE % {"api": json.dumps(live_server.base_url), "setup": json.dumps(SETUP)}
    body = page.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_on_another_origin_creates_commands_and_follows_a_battle(
    browser: Any, other_origin: str, live_server: LiveServer
) -> None:
    assert urlparse(other_origin).port != urlparse(live_server.base_url).port
    page = browser.new_page()
    try:
        page.goto(other_origin)
        page.wait_for_function("window.__done !== undefined", timeout=60_000)
        out = page.evaluate("window.__done")
    finally:
        page.close()
    assert out["errors"] == []
    assert out["create_status"] == 201
    assert out["command_status"] == 200
    assert out["command"]["version"] == 2
    # Headers a page's script may read only because CORS exposes them.
    assert out["location"] == f"/battles/{out['battle_id']}"
    assert out["etag"] == '"2"'
    for got in (out["sse"], out["ws"]):
        assert [m["id"] for m in got[:2]] in (["1", "2"], [1, 2])
    assert [m["type"] for m in out["sse"][:2]] == ["BattleCreated", "RulingRecorded"]
    assert out["sse"][1]["data"]["data"]["ruling"] == "from the browser"
    assert [m["data"]["type"] for m in out["sse"][:2]] == ["BattleCreated", "RulingRecorded"]
    assert [m["event"]["type"] for m in out["ws"][:2]] == ["BattleCreated", "RulingRecorded"]


def test_the_swagger_page_renders_with_no_other_host_reachable(
    browser: Any, live_server: LiveServer
) -> None:
    from PIL import Image

    page = browser.new_page(viewport={"width": 1000, "height": 800})
    elsewhere: list[str] = []

    def only_the_service(route: Any) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    try:
        page.route("**/*", only_the_service)
        page.goto(f"{live_server.base_url}/schema/swagger")
        page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
        page.wait_for_selector(".opblock", timeout=30_000)  # the operations are listed
        shot = page.screenshot()
    finally:
        page.close()
    assert elsewhere == []
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20) or []
    white = sum(n for n, c in colors if min(c) > 245)
    total = image.width * image.height
    assert len(colors) > 50, "the page is (nearly) one colour"
    assert total - white > total // 20, "the page is (nearly) blank"
