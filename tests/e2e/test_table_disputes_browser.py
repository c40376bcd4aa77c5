"""Issue 36's done-when at the table: a dispute raised as a side, settled as the referee
with a correction, each through their own page of `/table` in their own browser context
(the referee and two players, as tests/e2e/test_table_page_browser.py plays them), then
found (the dispute, its ruling and the corrected history) in the narrative, in the replay
viewer (its dispute marks) and in the export, which `battle-service verify` verifies.

A short quickstart battle with the server's dice: south disputes the first priority check
(ticked in its page's log); the referee first upholds it with no correction (the page
shows the problem's detail), then with its correction: an undo to before the check and
the check again (new dice, from the correction's own version); the dispute itself is not
marked undone by that undo. A battle of table dice: the correction's check is rolled at
the table, its dice typed on the referee's page. Screenshots go to
$BATTLE_TEST_ARTIFACTS (default tests/artifacts/)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import LiveServer
from tests.e2e.test_export import _cli, _pem
from tests.e2e.test_table_page_browser import Table
from tests.e2e.viewer_page import ARTIFACTS, Viewer
from tests.support.table_policies import quickstart

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CLAIM = "that priority check was rolled before south sat down"
RULING = "south was not at the table: roll it again"


@pytest.fixture
def table(browser: Any, live_server: LiveServer, http: httpx.Client) -> Iterator[Any]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made: list[Table] = []

    def make(seed: int) -> Table:
        made.append(Table(browser, live_server, http, seed))
        return made[-1]

    yield make
    for t in made:
        assert t.errors == [], t.errors  # no script error, no CSP violation, no other host


def _listed(page: Any, dispute: str, status: str) -> Any:
    item = page.locator(f"#disputes li[data-dispute='{dispute}'][data-status='{status}']")
    item.wait_for(timeout=20_000)
    return item


def _told(t: Table, who: str) -> dict[int, dict[str, Any]]:
    """The narrative as `who` reads it: each event's line by version."""
    r = t.http.get(
        f"/battles/{t.battle_id}/narrative",
        headers={"Authorization": f"Bearer {t.keys[who]}"},
    )
    assert r.status_code == 200, r.text
    return {e["version"]: e for entry in r.json()["entries"] for e in entry["events"]}


def test_a_side_disputes_and_the_referee_upholds_with_a_correction_at_the_table(
    table: Any, tmp_path: Path
) -> None:
    t = table(seed=5)
    t.create("quickstart", table_dice=False)
    t.sync()
    ref, south, north = t.referee, t.players["south"], t.players["north"]
    assert ref is not None
    for _ in range(3):  # three of the heroes' priority checks, each rolled by the server
        t.step(quickstart, referee_last=True)
        t.sync()
    log = t.read("referee", "/events?after=0&limit=50")["events"]
    first = next(e for e in log if e["type"] == "PriorityChecked")
    roll, check = first["version"], first["data"]
    before = t.sync()

    # south ticks the roll in its page's log, says what is wrong, and raises the dispute
    south.page.locator(f"#log input.pick[data-version='{roll}']").check()
    south.page.fill("#dispute-claim", CLAIM)
    south.page.fill("#dispute-rule", "priority")
    south.page.click("#raise-dispute")
    assert south.settle()["error"] is None
    raised = before["version"] + 1
    for page in (south, north, ref):  # about events all see: every page lists it, open
        item = _listed(page.page, "d1", "open")
        assert CLAIM in item.inner_text() and item.get_attribute("data-versions") == str(roll)
    assert south.page.locator("#disputes .settle").count() == 0  # a side does not settle
    assert north.page.locator("#disputes .settle").count() == 0

    # the referee upholds it with no correction: the service refuses, the page says why
    item = _listed(ref.page, "d1", "open")
    assert item.locator("[data-field='undo_to']").input_value() == str(roll - 1)
    item.locator("select[data-field='outcome']").select_option("upheld")
    item.locator("[data-field='ruling']").fill(RULING)
    item.locator("[data-field='undo_to']").fill("")
    item.locator("button[data-settle='d1']").click()
    error = ref.settle()["error"]
    assert error is not None and "correction" in error, error
    assert t.read("referee")["version"] == raised  # nothing appended
    # then with its correction: back to before the roll, and the roll again
    item = _listed(ref.page, "d1", "open")
    item.locator("[data-field='undo_to']").fill(str(roll - 1))
    again = {"type": "PriorityCheck", "hero": check["hero"], "skill": check["skill"]}
    item.locator("[data-field='corrections']").fill(json.dumps([{"command": again}]))
    item.locator("button[data-settle='d1']").click()
    assert ref.settle()["error"] is None
    view = t.sync()
    for page in (south, north, ref):
        item = _listed(page.page, "d1", "upheld")
        assert RULING in item.inner_text() and "corrected by versions" in item.inner_text()
        # the page's log shows the disputed roll undone
        page.page.locator(f"#log li.undone[data-version='{roll}']").wait_for(timeout=20_000)
    # ... as the service's log marks it, event by event
    undone = [e["version"] for e in t.read("south", "/events?after=0&limit=50")["events"]
              if e.get("undone")]  # fmt: skip
    shown = south.page.eval_on_selector_all(
        "#log li.undone", "(items) => items.map((li) => Number(li.dataset.version))"
    )
    assert sorted(shown) == undone and roll in undone
    (dispute,) = t.read("south", "/disputes")["disputes"]
    assert dispute["status"] == "upheld" and dispute["ruling"] == RULING
    assert dispute["undo_to"] == roll - 1 and dispute["versions"] == [roll]
    fixed = dispute["correcting_versions"]
    resolved = dispute["resolved_at"]
    assert resolved == view["version"] and fixed == list(range(raised + 1, resolved))
    # the dispute is not undone by its own correction's undo: it caused it
    assert raised not in undone and resolved not in undone

    # the narrative: the dispute, its ruling and the corrected history, in place
    told = _told(t, "north")
    assert told[raised]["type"] == "DisputeRaised" and CLAIM in told[raised]["summary"]
    assert told[resolved]["type"] == "DisputeResolved" and RULING in told[resolved]["summary"]
    assert told[fixed[0]]["type"] == "BattleUndone"
    assert told[roll]["undone"] and not told[raised]["undone"] and not told[resolved]["undone"]
    assert [told[v]["type"] for v in fixed[1:]] == ["PriorityChecked"]
    assert f"set back to version {roll - 1}" in told[resolved]["summary"]

    # the viewer, with south's key: both marks, the ruling's selecting its version
    viewer_page = t.new_page("viewer")
    viewer_page.goto(f"{t.server.base_url}/viewer#battle={t.battle_id}&key={t.keys['south']}")
    viewer_page.wait_for_selector("body[data-state=ready]", timeout=30_000)
    viewer = Viewer(viewer_page)
    viewer_page.wait_for_selector("#disputes .dispute-mark[data-dispute='d1']", timeout=20_000)
    marks = viewer_page.locator("#disputes .dispute-mark")
    assert marks.count() == 2
    assert "upheld" in marks.nth(0).inner_text()
    assert marks.nth(0).get_attribute("data-version") == str(raised)
    marks.nth(0).click()
    assert "DisputeRaised" in viewer.wait_shown(raised)["events"]
    shown_raised = viewer_page.locator("#narrative-entry li.event[data-type='DisputeRaised']")
    assert "undone" not in (shown_raised.get_attribute("class") or "")
    marks.nth(1).click()
    assert "DisputeResolved" in viewer.wait_shown(resolved)["events"]
    viewer.shot("table-dispute-viewer.png")

    # the export carries the dispute, its ruling and the correction, and verifies
    r = t.http.get(
        f"/battles/{t.battle_id}/export",
        headers={"Authorization": f"Bearer {t.keys['referee']}"},
    )
    assert r.status_code == 200, r.text
    lines = [json.loads(line) for line in r.content.splitlines()]
    by_version = {x["version"]: x for x in lines if "version" in x and "type" in x}
    assert by_version[raised]["type"] == "DisputeRaised"
    assert by_version[resolved]["type"] == "DisputeResolved"
    assert by_version[fixed[0]]["type"] == "BattleUndone"
    path = tmp_path / "disputed.jsonl"
    path.write_bytes(r.content)
    done = _cli("verify", str(path), "--key", _pem(t.http))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERIFIED" in done.stdout, done.stdout

    # and the battle goes on at the table from the corrected history
    t.step(quickstart, referee_last=True)
    t.sync()
    t.close("dispute")


def _read_at(page: Any, version: int) -> list[str]:
    """The disputes `page` lists once it has read them at `version`."""
    page.wait_for_selector(f"#disputes[data-version='{version}']", timeout=20_000)
    return list(
        page.eval_on_selector_all(
            "#disputes li[data-dispute]",
            "(items) => items.map((li) => `${li.dataset.dispute}:${li.dataset.status}`)",
        )
    )


def test_a_dispute_about_a_hidden_event_is_the_raisers_and_the_referees_at_the_table(
    table: Any,
) -> None:
    """A ruling told to north alone; north disputes it from its page: south's page (which
    reads with south's key) lists nothing, nor can it tick what it may not see, until the
    battle ends and unseals it. The referee's page dismisses it."""
    t = table(seed=7)
    t.create("quickstart", table_dice=False)
    t.sync()
    ref, south, north = t.referee, t.players["south"], t.players["north"]
    assert ref is not None
    secret = {"type": "RecordRuling", "ruling": "the fog hides the ford", "reason": "weather"}
    ref.free_command(json.dumps({**secret, "audience": "side:north"}))
    assert ref.settle()["error"] is None
    told = t.sync()["version"]
    south.page.locator(f"#log li.sealed[data-version='{told}']").wait_for(timeout=20_000)
    assert south.page.locator(f"#log input.pick[data-version='{told}']").count() == 0
    north.page.locator(f"#log input.pick[data-version='{told}']").check()
    north.page.fill("#dispute-claim", "there is no fog in summer")
    north.page.click("#raise-dispute")
    assert north.settle()["error"] is None
    raised = t.sync()["version"]
    assert _read_at(north.page, raised) == ["d1:open"] == _read_at(ref.page, raised)
    assert _read_at(south.page, raised) == []
    assert "fog" not in south.page.locator("#disputing").inner_text()
    # the referee dismisses it: still north's and the referee's only
    item = _listed(ref.page, "d1", "open")
    item.locator("[data-field='ruling']").fill("fog it is")
    item.locator("[data-field='rule']").fill("weather")
    item.locator("button[data-settle='d1']").click()
    assert ref.settle()["error"] is None
    settled = t.sync()["version"]
    assert _read_at(north.page, settled) == ["d1:dismissed"] == _read_at(ref.page, settled)
    assert _read_at(south.page, settled) == []
    # the battle's end unseals the ruling, and the dispute with it
    ref.free_command(json.dumps({"type": "EndBattle", "reason": "the table is done"}))
    assert ref.settle()["error"] is None
    over = t.sync()["version"]
    assert _read_at(south.page, over) == ["d1:dismissed"]
    t.close("dispute-hidden")


def _rolls(node: Any) -> list[dict[str, Any]]:
    """Every die an event's data records, in order."""
    if isinstance(node, dict):
        own = [node] if node.get("kind") == "roll" else []
        return own + [r for v in node.values() for r in _rolls(v)]
    if isinstance(node, list):
        return [r for v in node for r in _rolls(v)]
    return []


def test_an_upheld_correction_at_a_table_dice_battle_is_rolled_at_the_table(
    table: Any, tmp_path: Path
) -> None:
    """A quickstart battle whose players roll table dice: south disputes the first priority
    check; the referee upholds it on its page with the check again as the correction, and
    the page asks for that check's dice as for any command (the service names each one,
    `next_die` and the correction's `index`). The correcting event records those very
    dice, from the table; the dispute is not undone by its own correction; the export
    verifies."""
    t = table(seed=9)
    t.create("quickstart", table_dice=True)
    t.sync()
    ref, south = t.referee, t.players["south"]
    assert ref is not None
    for _ in range(3):  # three of the heroes' priority checks, each rolled at the table
        t.step(quickstart, referee_last=True)
        t.sync()
    log = t.read("referee", "/events?after=0&limit=50")["events"]
    first = next(e for e in log if e["type"] == "PriorityChecked")
    roll, check = first["version"], first["data"]
    assert _rolls(check) and all(d["source"] == "client" for d in _rolls(check)), check
    south.page.locator(f"#log input.pick[data-version='{roll}']").check()
    south.page.fill("#dispute-claim", CLAIM)
    south.page.click("#raise-dispute")
    assert south.settle()["error"] is None
    raised = t.sync()["version"]

    item = _listed(ref.page, "d1", "open")
    item.locator("select[data-field='outcome']").select_option("upheld")
    item.locator("[data-field='ruling']").fill(RULING)
    item.locator("[data-field='rule']").fill("priority")
    again = {"type": "PriorityCheck", "hero": check["hero"], "skill": check["skill"]}
    item.locator("[data-field='corrections']").fill(json.dumps([{"command": again}]))
    ref.faces.clear()
    item.locator("button[data-settle='d1']").click()
    assert ref.settle()["error"] is None
    assert ref.faces, "the referee's page asked for no die"
    view = t.sync()
    (dispute,) = t.read("referee", "/disputes")["disputes"]
    assert dispute["status"] == "upheld" and dispute["undo_to"] == roll - 1
    fixed = dispute["correcting_versions"]
    by_version = {e["version"]: e for e in t.read("referee", "/events?after=0&limit=80")["events"]}
    redone = by_version[fixed[1]]
    assert redone["type"] == "PriorityChecked" and redone["dispute"] == "d1"
    dice = _rolls(redone["data"])
    assert [v for d in dice for v in d["values"]] == ref.faces, (dice, ref.faces)
    assert all(d["source"] == "client" for d in dice)  # from the table, not the server
    # the disputed check is undone; the dispute, which caused the undo, is not
    assert by_version[roll]["undone"] and not by_version[raised]["undone"]
    ref.page.locator(f"#log li.undone[data-version='{roll}']").wait_for(timeout=20_000)
    assert ref.page.locator(f"#log li[data-version='{raised}']:not(.undone)").count() == 1
    assert view["version"] == dispute["resolved_at"]

    r = t.http.get(f"/battles/{t.battle_id}/export",
                   headers={"Authorization": f"Bearer {t.keys['referee']}"})  # fmt: skip
    assert r.status_code == 200, r.text
    path = tmp_path / "table-dice-dispute.jsonl"
    path.write_bytes(r.content)
    done = _cli("verify", str(path), "--key", _pem(t.http))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERIFIED" in done.stdout, done.stdout
    t.close("dispute-table-dice")
