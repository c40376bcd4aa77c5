"""Issue 35, item 3, for the other three rulesets: a warfare, a phased and a skirmish battle
created from the table page's ready setup by the referee, and played by two (three) players
in their own browser contexts through the pages alone: prompt cards' choices and buttons,
squares of reach clicked, table dice typed when the page asks, and a command whose free
values no prompt can list (a skirmish leader, army, zones or placement; a phased outcome's
damage) written in the card's JSON editor. Each player's page is checked never to have held
what its side may not see (another side's secret declarations and tactics: every event
the referee's log gives another audience), and a screenshot per ruleset is saved to
$BATTLE_TEST_ARTIFACTS (default tests/artifacts/).

Warfare and phased are played to their end; a skirmish over HTTP does not end within
3,000 commands (tests/e2e/test_table_play.py), so it is played through its whole setup
(each free value written in a card's editor by the player whose side gives it) and its
first three rounds, every phase of each, both sides declaring actions and blows exchanged."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import LiveServer
from tests.e2e.test_table_page_browser import Table
from tests.e2e.viewer_page import ARTIFACTS
from tests.support.skirmish_kit import NORTH_ZONES, SOUTH_ZONES, crossbows, fighters, orcs
from tests.support.table_policies import phased, skirmish, warfare


@pytest.fixture
def tables(browser: Any, live_server: LiveServer, http: httpx.Client) -> Iterator[Any]:
    """Makes a Table (test_table_page_browser.Table); at teardown, no page of any had a
    script error, a CSP violation or asked another host."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made: list[Table] = []

    def make(seed: int) -> Table:
        made.append(Table(browser, live_server, http, seed))
        return made[-1]

    yield make
    for t in made:
        assert t.errors == [], t.errors


class _Secrets:
    """What each player's page was given, checked step by step: nothing of an event its
    side may not see (another side's secret declaration or tactic) is in any answer the
    page received or on the page, not its salt, not its data (as tests/e2e/leak_check.py
    reads a log); and each view it drew hides what the ruleset hides (`view_hides`).
    Checked while the battle is not over: at its end the service hands every reader the
    hidden events whole (`reveal_hidden_on_end`)."""

    def __init__(self, t: Table, view_hides: Any) -> None:
        self.t = t
        self.view_hides = view_hides  # (side, a view's state, armies it noticed) -> None
        self.after = 0
        self.hidden: dict[str, list[tuple[str, str]]] = {side: [] for side in t.players}
        # the armies whose tactic a side's commander noticed (skirmish `TacticNoticed`, to
        # that side only): its view then shows that tactic (seed 000 "Tactics")
        self.noticed: dict[str, set[str]] = {side: set() for side in t.players}
        self.checked = dict.fromkeys(t.players, 0)

    def check(self) -> None:
        after: int | None = self.after
        while after is not None:
            page = self.t.read("referee", f"/events?after={after}&limit=500")
            for e in page["events"]:
                self.after = e["version"]
                for side, hidden in self.hidden.items():
                    if e["audience"] not in ("all", f"side:{side}"):
                        hidden.append((e["salt"], json.dumps(e["data"])))
                if e["type"] == "TacticNoticed" and e["data"].get("tactic") is not None:
                    self.noticed[e["data"]["by_side"]].add(e["data"]["army"])
            after = page["next_after"]
        for side, hidden in self.hidden.items():
            bodies = self.t.bodies[side]
            new, self.checked[side] = bodies[self.checked[side] :], len(bodies)
            given = [self.t.players[side].page.content()]
            for body in new:
                with contextlib.suppress(json.JSONDecodeError):  # the page's own files
                    read = json.loads(body)
                    given.append(json.dumps(read))
                    if isinstance(read, dict) and "state" in read and "role" in read:
                        self.view_hides(side, read["state"], self.noticed[side])
            text = "\n".join(given)
            for salt, data in hidden:
                assert salt not in text and data not in text, (side, data)

    def counts(self) -> dict[str, int]:
        return {side: len(hidden) for side, hidden in self.hidden.items()}


def _phased_hides(side: str, state: dict[str, Any], _noticed: set[str]) -> None:
    """Another side's action is in a side's view once revealed, never before (seed 003,
    secret declarations)."""
    for a in state["actions"]:
        assert a["side"] == side or a["revealed"], (side, a)


def _skirmish_hides(side: str, state: dict[str, Any], noticed: set[str]) -> None:
    """Another side's tactic reads "secret" until made public or noticed by this side's
    commander (seed 000 "Tactics")."""
    for a in state["armies"]:
        shown = a["side"] == side or a["tactic_public"] or a["id"] in noticed
        assert shown or a["tactic"] == "secret", (side, a)


def _play(t: Table, policy: Any, commands: int, *, secrets: _Secrets | None = None,
          until: Any = None) -> int:  # fmt: skip
    """Step `policy` until the battle is over, `until(view)` holds, or `commands` ran."""
    for n in range(commands):
        view = t.sync()
        if view["over"] or (until is not None and until(view)):
            return n
        if secrets is not None:
            secrets.check()
        t.step(policy, referee_last=False)
    raise AssertionError(f"not done after {commands} commands")


def test_a_warfare_battle_is_played_to_its_end_in_three_browsers(tables: Any) -> None:
    t = tables(seed=3)
    t.create("warfare", table_dice=True)
    t.sync()
    # the grid is drawn with every unit on it, for each side
    for side, page in t.players.items():
        assert page.page.locator("#grid g.unit").count() == 6, side
    _play(t, warfare, 800)  # warfare hides nothing (seed 003): no secret to check
    assert t.read("referee")["over"]
    dice = {who: p.dice_typed for who, p in t.pages().items()}
    assert dice["a"] > 0 and dice["b"] > 0, dice  # each player rolled at the table
    log = json.dumps(t.read("referee", "/events?after=0&limit=500"))
    assert "player of a" in log and "player of b" in log
    t.close("warfare")


def test_a_phased_battle_is_played_to_its_end_in_four_browsers(tables: Any) -> None:
    t = tables(seed=4)
    t.create("phased", table_dice=True)
    t.sync()
    assert set(t.players) == {"red", "blue", "party"}
    secrets = _Secrets(t, _phased_hides)
    _play(t, phased, 800, secrets=secrets)
    assert all(n > 0 for n in secrets.counts().values()), secrets.counts()  # secret declarations
    assert sum(p.dice_typed for p in t.players.values()) > 0
    t.close("phased")


_ARMIES = {"north": [fighters(), crossbows("bows")], "south": [orcs(army_size=200)]}
_LEADERS = {
    "north": {"name": "Lord N", "profession_soldier": 5},
    "south": {"name": "Chief S", "profession_soldier": 2},
}


def _setup_step(t: Table, command: str, body: Any) -> None:
    """Each side answers its prompts for `command` (in the order the battle prompts them)
    from the card's JSON editor with `body(side, prompt)`; then the referee advances."""
    for _ in range(20):
        t.sync()
        due = [
            (side, p)
            for side in t.players
            for p in t.awaiting[side]
            if p.role == "side" and p.side == side and command in p.commands and not p.optional
        ]
        if not due:
            break
        side, prompt = due[0]
        page = t.players[side]
        page.write(prompt.id, body(side, prompt))
        assert page.settle()["error"] is None
    else:
        raise AssertionError(f"{command} still prompted")
    _advance(t)


def _advance(t: Table) -> None:
    ref = t.referee
    assert ref is not None
    t.sync()
    card = next(p for p in t.awaiting["referee"] if "AdvanceSetup" in p.commands)
    ref.answer(card, {"type": "AdvanceSetup"}, None)
    assert ref.settle()["error"] is None


def _raise(t: Table) -> None:
    for side, armies in _ARMIES.items():
        for army in armies:
            t.sync()
            prompt = next(
                p for p in t.awaiting[side] if p.side == side and "RaiseArmy" in p.commands
            )
            page = t.players[side]
            page.write(prompt.id, {"type": "RaiseArmy", "side": side, "army": army})
            assert page.settle()["error"] is None
    _advance(t)


def test_a_skirmish_is_played_through_three_rounds_in_three_browsers(tables: Any) -> None:
    t = tables(seed=5)
    t.create("skirmish", table_dice=True)
    leader = _LEADERS.get
    _setup_step(t, "AppointLeader", lambda s, p: {"type": "AppointLeader", "side": s,
                                                  "leader": leader(s)})  # fmt: skip
    _raise(t)
    for _ in ("boons", "surprise"):
        _advance(t)
    _setup_step(t, "RollInitiative", lambda s, p: {"type": "RollInitiative", "side": s})
    zones = {"north": NORTH_ZONES, "south": SOUTH_ZONES}
    _setup_step(t, "SetZones", lambda s, p: {"type": "SetZones", "side": s, "zones": zones[s]})
    at = {"north": (58, "south"), "south": (70, "north")}
    order = {a["id"]: i for armies in _ARMIES.values() for i, a in enumerate(armies)}

    def place(side: str, p: Any) -> dict[str, Any]:
        y, facing = at[side]
        x = 1 + 5 * order[p.subject]
        return {"type": "PlaceArmy", "army": p.subject, "x": x, "y": y, "facing": facing}

    _setup_step(t, "PlaceArmy", place)
    for side, page in t.players.items():  # the armies on the grid, each side's own
        assert page.page.locator("#grid g.unit").count() >= len(_ARMIES[side]), side
    _setup_step(t, "DeclareStrategy", lambda s, p: {"type": "DeclareStrategy", "side": s,
                                                    "strategy": "standard"})  # fmt: skip
    # From the tactics step on, the policy plays from the cards (secret tactics chosen by
    # their side alone), through rounds 1 to 3.
    begun = t.sync()["version"]
    secrets = _Secrets(t, _skirmish_hides)
    played = _play(
        t, skirmish, 600, secrets=secrets, until=lambda v: v["state"].get("round", 0) >= 4
    )
    assert played > 10
    log = t.read("referee", f"/events?after={begun}&limit=500")["events"]
    acted = {e["actor"].get("side") for e in log}
    assert {"north", "south"} <= acted, acted  # each player gave orders in the rounds
    assert any(e["type"] == "ActionDeclared" for e in log)  # an attack declared
    assert any(e["type"] == "PhaseDamageApplied" for e in log)  # and blows landed
    secrets.check()
    assert all(n > 0 for n in secrets.counts().values()), secrets.counts()  # secret tactics
    assert all(p.dice_typed > 0 for p in t.players.values())
    t.close("skirmish")
