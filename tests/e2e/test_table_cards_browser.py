"""The table page's cards where one select per choice cannot give the command (tactical,
seed 002), in the browser: the referee's surprise ruling (`DeclareSurprise`: any of the
characters listed, ticked, and the ruling's reason, typed; [Sequence §1]) and a wall's
sections (`Attack` with a wall power: the origin picked from those listed, more squares
added, typed or clicked on the board's grid, a wrong one removed; [Ranges] Wall), each
given by clicks and typing alone on `/table` with table dice, then read back from the
battle's log. What was ticked, typed and picked survives the redraw a live change makes
(the grid's squares stay laid out to pick)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import LiveServer
from tests.e2e.table_page import TablePage
from tests.e2e.test_table_page_browser import Table
from tests.e2e.viewer_kit import TERRAIN_SETUP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REASON = "gnar was asleep at his post"


def _open(t: Table, who: str, key: str) -> TablePage:
    page = t.new_page(who)
    page.goto(f"{t.server.base_url}/table#battle={t.battle_id}&key={key}&dice=table")
    page.wait_for_selector("body[data-version]", timeout=20_000)
    return TablePage(page, t.rng)


def _last(b: Battle, type_: str) -> dict[str, Any]:
    return next(e for e in reversed(b.events()) if e["type"] == type_)


def test_the_surprise_ruling_and_a_walls_sections_are_given_on_their_cards(
    browser: Any, live_server: LiveServer, http: httpx.Client
) -> None:
    body = {"ruleset": "tactical", "setup": TERRAIN_SETUP, "client_dice": "any"}
    r = http.post("/battles", json=body)
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    t = Table(browser, live_server, http, seed=11)
    t.battle_id = b.id
    ref = t.referee = _open(t, "referee", b.keys["referee"])
    north = t.players["north"] = _open(t, "north", b.keys["sides"]["north"])

    # the referee's surprise card: a box per character, none ticked, and the reason
    card = ref.page.locator("#awaiting .prompt[data-prompt='surprise']")
    boxes = card.locator("input[data-several='surprised']")
    assert boxes.evaluate_all("(bs) => bs.map((b) => [b.value, b.checked])") == [
        ["aria", False],
        ["gnar", False],
    ]
    card.locator("input[data-several='surprised'][value='gnar']").check()
    card.locator("input[data-text='reason']").fill(REASON)
    # a live change redraws the cards: what was ticked and typed is still there
    ruled = b.command("referee", {"type": "RecordRuling", "ruling": "dusk", "reason": "r"})
    assert ruled.status_code == 200, ruled.text
    ref.wait_version(ruled.json()["version"])
    card = ref.page.locator("#awaiting .prompt[data-prompt='surprise']")
    assert card.locator("input[data-several='surprised'][value='gnar']").is_checked()
    assert not card.locator("input[data-several='surprised'][value='aria']").is_checked()
    assert card.locator("input[data-text='reason']").input_value() == REASON
    t.screenshots("cards-surprise")
    card.locator("button[data-command='DeclareSurprise']").click()
    assert ref.settle()["error"] is None
    surprise = _last(b, "SurpriseDeclared")["data"]
    assert surprise["surprised"] == ["gnar"] and surprise["reason"] == REASON
    # the ruling may be given again until initiative: its card starts afresh
    card = ref.page.locator("#awaiting .prompt[data-prompt='surprise']")
    assert card.locator("input[data-several='surprised']:checked").count() == 0
    assert card.locator("input[data-text='reason']").input_value() == ""

    # aria acts first (table dice for the initiative, over HTTP); her wall power's card
    r = b.command("referee", {"type": "RollInitiative"}, dice=[10, 1])
    assert r.status_code == 200, r.text
    assert b.view()["state"]["active"] == "aria"
    north.wait_version(r.json()["version"])
    card = north.page.locator("#awaiting .prompt[data-prompt='wall:aria:stone']")
    card.locator("select[data-field='sections']").select_option("2,6")
    # the next square clicked on the board's grid: it shows there as picked
    grid = north.page.locator("#grid")
    assert grid.locator("rect.pickable").count() == 0
    card.locator("button[data-pick-squares='sections']").click()
    grid.locator("rect.pickable[data-x='3'][data-y='6']").click()
    assert "picked" in (
        grid.locator("rect.pickable[data-x='3'][data-y='6']").get_attribute("class") or ""
    )
    # a live change draws the grid afresh: the squares are still there to pick
    ruled = b.command("referee", {"type": "RecordRuling", "ruling": "mud", "reason": "r"})
    assert ruled.status_code == 200, ruled.text
    north.wait_version(ruled.json()["version"])
    width, height = (b.view()["state"][k] for k in ("width", "height"))
    assert grid.locator("rect.pickable").count() == width * height
    assert grid.locator("rect.pickable.picked").evaluate_all(
        "(rs) => rs.map((r) => [Number(r.dataset.x), Number(r.dataset.y)])"
    ) == [[2, 6], [3, 6]]  # the origin picked in its list, then the square clicked
    add = card.locator("input[data-add-square='sections']")
    add.fill("9, 9")  # a slip: added, then removed
    add.press("Enter")
    add.fill("three,six")  # not a square: the page says so and adds nothing
    card.locator("button[data-add='sections']").click()
    error = north.page.locator("#error")
    assert error.is_visible() and "x,y" in error.inner_text()
    card.locator("li[data-square='9,9'] button[data-remove-square]").click()
    grid.locator("rect.pickable[data-x='4'][data-y='6']").click()
    listed = card.locator("ol[data-squares='sections'] li")
    assert listed.evaluate_all("(li) => li.map((x) => x.dataset.square)") == ["3,6", "4,6"]
    t.screenshots("cards-wall-picked")
    card.locator("button[data-pick-squares='sections']").click()  # done: the grid as it was
    assert grid.locator("rect.pickable").count() == 0
    card.locator("button[data-command='Attack']").click()
    north.rng = random.Random(4)
    assert north.settle()["error"] is None
    wall = _last(b, "WallRaised")["data"]
    assert wall["attacker"] == "aria" and wall["power"] == "stone"
    assert wall["squares"] == [[2, 6], [3, 6], [4, 6]] and wall["discarded"] == []
    built = next(s for s in b.view()["state"]["structures"] if s["id"] == wall["structure"])
    assert built["squares"] == wall["squares"]  # the wall stands in the state
    t.screenshots("cards")
    for context in t.contexts:
        context.close()
    assert t.errors == [], t.errors
