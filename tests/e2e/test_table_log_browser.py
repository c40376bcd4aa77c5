"""The table page's "Recent events" and its header show the same version once the page
says it is drawn (`body[data-version]`), in the browser: a screenshot taken as soon as a
live change's version was up showed the log one version behind, its read still under
way. Here the page's reads of the log are slowed (the real service answers them, late),
so that a page marking its version before the log is drawn is caught every time."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.table_page import TablePage
from tests.e2e.test_table_page_browser import Table
from tests.support.quickstart_play import SETUP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# Every read of the log (GET .../events) waits before it goes out: a slow network.
SLOW_LOG = """
const sent = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input.url;
  if (String(url).includes("/events?")) await new Promise((done) => setTimeout(done, 700));
  return sent(input, init);
};
"""


def _top(page: TablePage) -> dict[str, Any]:
    return page.page.evaluate(
        """() => ({header: document.getElementById("who").textContent,
                   drawn: Number(document.body.dataset.version),
                   log: Number(document.querySelector("#log li")?.dataset.version || 0)})"""
    )


def test_the_recent_events_are_drawn_with_the_version_the_page_shows(
    browser: Any, live_server: LiveServer, http: httpx.Client
) -> None:
    r = http.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    t = Table(browser, live_server, http, seed=3)
    t.battle_id = b.id
    page = t.new_page("referee")
    page.add_init_script(SLOW_LOG)
    page.goto(f"{live_server.base_url}/table#battle={b.id}&key={b.keys['referee']}")
    page.wait_for_selector("body[data-version]", timeout=20_000)
    ref = t.referee = TablePage(page, t.rng)
    assert _top(ref)["log"] == _top(ref)["drawn"] == 1
    for n in range(3):  # live changes, made elsewhere: the page reads them from its stream
        ruled = b.command("referee", {"type": "RecordRuling", "ruling": f"r{n}", "reason": "x"})
        assert ruled.status_code == 200, ruled.text
        version = ruled.json()["version"]
        ref.wait_version(version)
        shown = _top(ref)
        assert shown["log"] == shown["drawn"] == version, shown
        assert f"version {version}" in shown["header"]
    t.screenshots("log-in-step")
    for context in t.contexts:
        context.close()
    assert t.errors == [], t.errors
