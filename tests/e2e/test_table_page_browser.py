"""Issue 35, item 3: the reference table page at `/table`, in three browser contexts (the
referee and two players, as three people on their own machines). The referee creates a
battle from the page's ready setup and hands out one link per side; each player opens
theirs and the battle is played to its end through the pages alone: prompt cards'
choices and buttons, squares of reach clicked for a move, table dice typed when the page
asks. A tactical battle (table dice, an invisible character whose square the other side's
page never holds, a ruling and an undo) and a quickstart battle (server dice; a link
revoked and replaced mid-battle; the small ready setup, squads moved toward the foe).
Warfare, phased and skirmish: tests/e2e/test_table_page_rulesets.py. Screenshots go to
$BATTLE_TEST_ARTIFACTS (default tests/artifacts/); docs/table.png is one of them."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import httpx
import msgspec
import pytest

from domain.prompts import Prompt, Reach
from tests.e2e.conftest import LiveServer
from tests.e2e.table_page import TablePage, fragment_of
from tests.e2e.viewer_page import ARTIFACTS
from tests.support.table_policies import quickstart, tactical

_prompts = msgspec.json.Decoder(list[Prompt])
_reach = msgspec.json.Decoder(Reach)
_MOVES = frozenset({"Move", "MoveSquad", "MoveArmy"})  # answered by a square of the reach
HIDDEN = "a2"  # the tactical character made invisible: side b never learns its square


class Table:
    """The three contexts' pages and what the test reads beside them (over HTTP, with each
    page's own key, to choose what to click)."""

    def __init__(self, browser: Any, server: LiveServer, http: httpx.Client, seed: int) -> None:
        self.browser, self.server, self.http = browser, server, http
        self.rng = random.Random(seed)
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.bodies: dict[str, list[str]] = {}  # side -> every answer its page received
        self.referee: TablePage | None = None
        self.players: dict[str, TablePage] = {}
        self.keys: dict[str, str] = {}
        self.awaiting: dict[str, list[Prompt]] = {}  # who -> its key's prompts at the head
        self.battle_id = ""

    def new_page(self, name: str) -> Any:
        context = self.browser.new_context(viewport={"width": 1280, "height": 900})
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{name}: {e}"))
        # A problem answer (a 422 asking for a die, a 401 for a revoked key) is logged by
        # the browser as a failed load: expected; a script error or a CSP violation is not.
        page.on(
            "console",
            lambda m: (
                self.errors.append(f"{name}: {m.text}")
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )

        def only_the_service(route: Any) -> None:
            if urlparse(route.request.url).hostname != "127.0.0.1":
                self.errors.append(f"{name} asked {route.request.url}")
                route.abort()
            else:
                route.continue_()

        page.route("**/*", only_the_service)
        if name != "referee":
            seen = self.bodies.setdefault(name, [])

            def keep(response: Any) -> None:
                if "/battles/" in response.url and "/stream" not in response.url:
                    # a body the page dropped (a redirect) has nothing to check
                    with contextlib.suppress(Exception):
                        seen.append(response.text())

            page.on("response", keep)
        return page

    def create(self, ruleset: str, *, table_dice: bool) -> None:
        page = self.new_page("referee")
        page.goto(f"{self.server.base_url}/table")
        page.select_option("#ruleset", ruleset)
        page.click("#load-template")
        page.wait_for_function("() => document.getElementById('setup').value.length > 10")
        page.fill("#title", f"A {ruleset} table")
        if table_dice:
            page.check("#table-dice")
        page.click("#create-battle")
        page.wait_for_selector("#links input.link >> nth=1", timeout=20_000)
        self.referee = TablePage(page, self.rng)
        own = fragment_of(page.url)
        self.battle_id, self.keys["referee"] = own["battle"], own["key"]
        for link in page.locator("#links li").all():
            self.open_player(
                link.get_attribute("data-side"), link.locator("input.link").first.input_value()
            )

    def open_player(self, side: str, link: str) -> None:
        page = self.players[side].page if side in self.players else self.new_page(side)
        page.goto(link)
        page.reload()  # a fragment change alone loads nothing
        page.wait_for_selector("body[data-version]", timeout=20_000)
        self.players[side] = TablePage(page, self.rng)
        self.keys[side] = fragment_of(link)["key"]

    def read(self, who: str, path: str = "") -> Any:
        r = self.http.get(
            f"/battles/{self.battle_id}{path}",
            headers={"Authorization": f"Bearer {self.keys[who]}"},
        )
        assert r.status_code == 200, r.text
        return r.json()

    def pages(self) -> dict[str, TablePage]:
        assert self.referee is not None
        return {"referee": self.referee, **self.players}

    def sync(self) -> dict[str, Any]:
        """Every page shows the head, and shows as cards just what its key awaits."""
        view = self.read("referee")
        for who, page in self.pages().items():
            page.wait_version(view["version"])
            mine = self.read(who)["awaiting"]
            assert [c["id"] for c in page.cards()] == [p["id"] for p in mine], who
            self.awaiting[who] = _prompts.decode(json.dumps(mine))
        return dict(view)

    def step(self, policy: Any, referee_last: bool) -> None:
        """One command, chosen by the policy from what each page awaits (as the last
        `sync` read it), clicked."""
        shown: list[Prompt] = []
        for side in self.players:
            mine = self.awaiting[side]
            shown += [p for p in mine if p.role == "side" and p.side in (side, None)]
        if not (referee_last and shown):
            shown += [p for p in self.awaiting["referee"] if p.role == "referee"]
        prompt = policy.pick(shown, self.rng)
        assert prompt is not None, shown
        who = "referee" if prompt.role == "referee" else prompt.side or next(iter(self.players))

        def reach(unit: str) -> Reach:
            return _reach.decode(json.dumps(self.read(who, f"/reach/{unit}")))

        command = policy.choose(prompt, reach, self.rng)
        square = None  # a move's square is clicked on the grid; a charge's `to` is a choice
        if command["type"] in _MOVES:
            square = command.get("to") or ([command["x"], command["y"]] if "x" in command else None)
        page = self.pages()[who]
        page.answer(prompt, command, tuple(square) if square else None)
        st = page.settle()
        assert st["error"] is None, (command, st["error"])

    def screenshots(self, name: str) -> None:
        for who, page in self.pages().items():
            page.page.screenshot(path=str(ARTIFACTS / f"table-{name}-{who}.png"), full_page=True)

    def close(self, name: str) -> None:
        self.screenshots(name)
        for context in self.contexts:
            context.close()


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


def _no_square_of(hidden: str, bodies: list[str]) -> None:
    """No answer the page received places `hidden` on a square."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("id") == hidden or node.get("character") == hidden:
                assert node.get("x") is None and node.get("to") is None, node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for body in bodies:
        try:
            walk(json.loads(body))
        except json.JSONDecodeError:
            continue  # the page's own files


def test_a_tactical_battle_is_played_to_its_end_in_three_browsers(table: Any) -> None:
    t = table(seed=3)
    t.create("tactical", table_dice=True)
    t.sync()
    ref = t.referee
    # The referee makes a2 invisible (any command, as JSON): side b may not know its square.
    ref.free_command(
        json.dumps(
            {
                "type": "SetCondition",
                "character": HIDDEN,
                "condition": "invisible",
                "reason": "a potion of invisibility",
            }
        )
    )
    assert ref.settle()["error"] is None
    t.sync()
    t.bodies["b"].clear()  # what b's page read before: a2 was in plain sight then
    ruled = undone = was_glimpsed = False
    for n in range(600):
        view = t.sync()
        if view["over"]:
            break
        hidden = next(c for c in view["state"]["characters"] if c["id"] == HIDDEN)
        # glimpsed (§4, tactical 0.5.0: a hit on its square), it is only concealed and seen
        # where it moves: b may read its square then, and what b read until it ends
        glimpsed = 0 < hidden["glimpsed_until"] >= hidden["turns_taken"]
        if glimpsed or was_glimpsed:
            t.bodies["b"].clear()
        was_glimpsed = glimpsed
        if "invisible" in json.dumps(hidden) and not glimpsed:  # (the referee sees all)
            on_b = t.players["b"].page.locator(f"#grid g.unit[data-id='{HIDDEN}']").count()
            assert on_b == 0 and f"{HIDDEN} (a) at" not in t.players["b"].page.content()
            _no_square_of(HIDDEN, t.bodies["b"])
        if n == 12:  # mid-battle, as each person sees it (docs/table.png is a's)
            t.screenshots("tactical-play")
        if n == 4 and not ruled:
            ref.page.fill("#ruling", "a2 may stand in the brambles")
            ref.page.fill("#ruling-reason", "the map is unclear there")
            ref.page.click("#record-ruling")
            assert ref.settle()["error"] is None
            ruled = True
            continue
        if n == 8 and not undone:
            before = view["version"]
            t.step(tactical, referee_last=False)
            t.sync()
            ref.page.fill("#undo-to", str(before))
            ref.page.click("#undo")
            assert ref.settle()["error"] is None
            undone = True
            continue
        t.step(tactical, referee_last=False)
    else:
        raise AssertionError("not over after 600 commands")
    assert ruled and undone
    assert sum(p.dice_typed for p in t.pages().values()) > 0
    log = json.dumps(t.read("referee", "/events?after=0&limit=500"))
    assert "RulingRecorded" in log and "player of a" in log and "player of b" in log
    t.close("tactical")


class _Closing:
    """The quickstart's table policy, its squads moving to the square of their reach nearest
    a foe the mover's side sees on its grid, as players who mean to fight do: the policy's
    random squares keep the squads apart for hundreds of commands (most of them ending
    steps) before the battle ends by the rules; this way it ends in tens."""

    def __init__(self, t: Table) -> None:
        self.t = t

    def pick(self, prompts: list[Prompt], rng: random.Random) -> Prompt | None:
        return quickstart.pick(prompts, rng)

    def choose(self, prompt: Prompt, reach: Any, rng: random.Random) -> dict[str, Any]:
        body = quickstart.choose(prompt, reach, rng)
        if body["type"] != "MoveSquad" or prompt.side is None:
            return body
        foes = [
            (q["x"], q["y"])
            for q in self.t.read(prompt.side)["state"]["squads"]
            if q["side"] != prompt.side and q.get("x") is not None
        ]
        if foes:
            best = min(
                reach(prompt.subject).squares,
                key=lambda s: min(abs(s.x - x) + abs(s.y - y) for x, y in foes),
            )
            body.update(x=best.x, y=best.y)
        return body


def test_a_quickstart_battle_is_played_to_its_end_in_three_browsers(table: Any) -> None:
    t = table(seed=1)
    t.create("quickstart", table_dice=False)
    t.sync()
    ref = t.referee
    revoked = False
    policy = _Closing(t)
    for n in range(3000):
        view = t.sync()
        if view["over"]:
            break
        if n == 2 and not revoked:
            # The referee revokes south's link and makes a new one; the old page is refused.
            side = "south"
            old = t.players[side]
            ref.page.locator(f"#links li[data-side='{side}'] button[data-revoke]").first.click()
            ref.settle()
            ref.page.locator(f"#links li[data-side='{side}'] button[data-mint]").click()
            ref.settle()
            link = ref.page.locator(f"#links li[data-side='{side}'] input.link").last.input_value()
            old.page.reload()
            old.page.wait_for_selector("#error:not([hidden])", timeout=20_000)
            assert old.page.locator("#error").text_content()  # the problem's detail, not blank
            t.open_player(side, link)
            revoked = True
            continue
        t.step(policy, referee_last=True)
    else:
        raise AssertionError("not over after 3000 commands")
    assert revoked
    state = t.read("referee")["state"]  # ended by the rules: one side's squads all gone
    assert state["winner"] in ("north", "south") and "squads left" in state["end_reason"], state
    t.close("quickstart")
