"""Issue 34, done when: each of the five rulesets played to its end over HTTP by a table
that reads only `awaiting` (and `reach`, and `next_die` for table dice) to decide what to
send and with which key, each side with a player key the referee minted, one of them
revoked mid-battle (its key refused from then on, a new one minted), and the log saying
which player gave each order."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from tests.support.phased_kit import cb, setup_of
from tests.support.quickstart_play import SETUP as QUICKSTART_SETUP
from tests.support.skirmish_kit import NORTH_ZONES, SOUTH_ZONES, crossbows, fighters, orcs
from tests.support.table_play import Send, TablePlay, play_over_http
from tests.support.table_policies import phased, quickstart, skirmish, tactical, warfare
from tests.support.tactical_kit import BOW, SHIELD, SWORD, WAND, ch
from tests.support.warfare_kit import SIDES as WARFARE_SIDES
from tests.support.warfare_kit import unit


def _tactical_setup(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    a1, a2, b1, b2 = rng.sample([(x, y) for x in range(7) for y in range(7)], k=4)
    return {
        "width": 7,
        "height": 7,
        "sides": [{"id": "a"}, {"id": "b"}],
        "characters": [
            ch("a1", "a", *a1, off_hand="shield"),
            ch("a2", "a", *a2, main_hand="bow"),
            ch("b1", "b", *b1),
            ch("b2", "b", *b2, main_hand="wand", stats={"DEX": rng.randint(0, 3)}),
        ],
        "items": [SWORD, BOW, WAND, SHIELD],
    }


def _warfare_setup() -> dict[str, Any]:
    units = [
        unit("a1", "a", 4, 7, health=30),
        unit("a2", "a", 6, 7, health=20),
        unit("a3", "a", 5, 9, kind="ranged", range_increment=2, damage=6, health=15),
        unit("b1", "b", 4, 4, health=30),
        unit("b2", "b", 6, 4, health=20, attack=7),
        unit("b3", "b", 5, 2, kind="artillery", range_increment=1, damage=8, health=15),
    ]
    return {"width": 12, "height": 12, "sides": WARFARE_SIDES, "units": units}


def _phased_setup() -> dict[str, Any]:
    two = {"weapons": [
        {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"},
        {"id": "dagger", "speed": -1, "damage": "1d4", "damage_type": "piercing"},
    ]}  # fmt: skip
    return setup_of(
        combatants=[
            cb("r1", "red", x=1, y=1, **two),
            cb("r2", "red", x=2, y=1, hp=12),
            cb("b1", "blue", x=1, y=2, **two),
            cb("p1", "party", x=2, y=2, dex=18),
        ],
        width=6,
        height=6,
    )


_SKIRMISH_SETUP = {
    "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
    "width": 40,
    "height": 120,
}


def _skirmish_prelude(send: Send, view: dict[str, Any]) -> None:
    """The setup steps before the tactics step take free values a prompt cannot list
    (leaders, armies, zones, placement): scripted here as tests/support/skirmish_kit.ready
    gives them, each by the player of its side where a side gives it (initiative with the
    table's d20s, as ready rolls it, so that the run is the same every time)."""
    north, south = [fighters(), crossbows("bows")], [orcs(army_size=200)]
    send("north", {"type": "AppointLeader", "side": "north",
                   "leader": {"name": "Lord N", "profession_soldier": 5}})  # fmt: skip
    send("south", {"type": "AppointLeader", "side": "south",
                   "leader": {"name": "Chief S", "profession_soldier": 2}})  # fmt: skip
    send("referee", {"type": "AdvanceSetup"})
    for side, armies in (("north", north), ("south", south)):
        for a in armies:
            send(side, {"type": "RaiseArmy", "side": side, "army": a})
    for _ in range(3):  # boons, surprise, initiative
        send("referee", {"type": "AdvanceSetup"})
    order: list[str] = []
    for side in ("north", "south"):
        send(side, {"type": "RollInitiative", "side": side}, dice=[10])
    answer = send("referee", {"type": "AdvanceSetup"})
    order = _initiative_order(answer)
    zones = {"north": NORTH_ZONES, "south": SOUTH_ZONES}
    for side in order:
        send(side, {"type": "SetZones", "side": side, "zones": zones[side]})
    send("referee", {"type": "AdvanceSetup"})
    for side in order:
        armies = north if side == "north" else south
        for i, a in enumerate(armies):
            y, facing = (58, "south") if side == "north" else (70, "north")
            send(side, {"type": "PlaceArmy", "army": a["id"], "x": 1 + 5 * i, "y": y,
                        "facing": facing})  # fmt: skip
    send("referee", {"type": "AdvanceSetup"})
    for side in order:
        send(side, {"type": "DeclareStrategy", "side": side, "strategy": "standard"})
    send("referee", {"type": "AdvanceSetup"})


def _initiative_order(answer: dict[str, Any]) -> list[str]:
    for e in answer["events"]:
        order = e.get("data", {}).get("order")
        if isinstance(order, list):
            return [str(s) for s in order]
    return ["north", "south"]


def _check_log(http: httpx.Client, played: TablePlay, referee: str) -> None:
    """Every order a player gave carries that player's label; the revoked key's label
    never appears after its revocation."""
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = http.get(
            f"/battles/{played.battle_id}/events",
            params={"after": after, "limit": 500},
            headers={"Authorization": f"Bearer {referee}"},
        ).json()
        events += page["events"]
        after = page["next_after"]
    labels = {e["actor"].get("label") for e in events if e["actor"]["role"] == "side"}
    assert set(played.labels.values()) <= labels | {None}
    assert played.revoked_side is not None and played.refused_after_revoke > 0
    old = f"player of {played.revoked_side}"
    assert played.revoked_at_version is not None
    assert all(
        e["version"] <= played.revoked_at_version for e in events if e["actor"].get("label") == old
    )
    assert any(e["actor"].get("label") == f"new player of {played.revoked_side}" for e in events)


CASES: dict[str, dict[str, Any]] = {
    "quickstart": {"setup": QUICKSTART_SETUP, "policy": quickstart, "referee_last": True},
    "tactical": {"setup": _tactical_setup(3), "policy": tactical},
    "warfare": {"setup": _warfare_setup(), "policy": warfare},
    "phased": {"setup": _phased_setup(), "policy": phased},
    "skirmish": {
        "setup": _SKIRMISH_SETUP,
        "policy": skirmish,
        "prelude": _skirmish_prelude,
        # the armies met, fought, checked morale and the skirmish ended on its own
        "shows": {"ActionResolved", "MoraleChecked", "SkirmishEnded"},
    },
}


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_table_plays_the_battle_to_its_end_from_awaiting_alone(
    http: httpx.Client, ruleset: str
) -> None:
    case = dict(CASES[ruleset])
    table_dice = case.pop("table_dice", True)
    shows = case.pop("shows", set())
    played = play_over_http(
        http, ruleset=ruleset, seed=1, table_dice=table_dice, revoke_at=6, **case
    )
    assert played.commands > 6
    if table_dice:
        assert played.dice_asked > 0  # every die came from the table, asked for in data
    referee = played.referee_key
    _check_log(http, played, referee)
    seen = {e.get("type") for answer in played.answers for e in answer["events"]}  # sealed: none
    assert shows <= seen, shows - seen
