"""A warfare (seed 003) battle over real HTTP: three units a side (one of them ranged), a
champion, table dice for every d20 (client_dice "any"), a key per side; rounds started by
the referee, each side facing, moving, engaging and attacking with its own units, a
retaliation, morale checks and shattering, to the end of the battle; then the log."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from domain.rulesets.warfare.geometry import direction_of
from tests.e2e.battle_client import Battle, rolls
from tests.e2e.conftest import LiveServer


def _unit(uid: str, side: str, x: int, y: int, **kw: Any) -> dict[str, Any]:
    out = {
        "id": uid,
        "side": side,
        "x": x,
        "y": y,
        "attack": 5,
        "defense": 15,
        "damage": 10,
        "health": 30,
        "speed": 6,
        "morale": 2,
        "facing": "S" if side == "north" else "N",
    }
    out.update(kw)
    return out  # fmt: skip


SETUP = {
    "width": 12,
    "height": 12,
    "sides": [
        {"id": "north", "zones": [{"id": "keep", "tiles": [[x, 0] for x in range(12)]}]},
        {"id": "south", "zones": [{"id": "camp", "tiles": [[x, 11] for x in range(12)]}]},
    ],
    "units": [
        _unit("n1", "north", 3, 4),
        _unit("n2", "north", 5, 4),
        _unit("n3", "north", 7, 4, kind="ranged", range_increment=2, damage=8),
        _unit("s1", "south", 3, 5),
        _unit("s2", "south", 5, 5),
        _unit("s3", "south", 7, 5),
    ],
    "champions": [{"id": "warden", "side": "north", "leads": ["n1", "n2"]}],
    "equipment": [{"id": "banner", "side": "north", "x": 1, "y": 0, "in_zone": True}],
}


def _send(b: Battle, who: str, command: dict[str, Any], die: int = 15) -> dict[str, Any]:
    """Give `command` with as many table dice of value `die` as it needs (a command short
    of dice is refused with 422 and nothing appended, so the client adds one and retries).
    15 + 5 meets defense 15: a hit; a morale check 15 + 2 fails DC 20."""
    n = 0
    while True:
        r = b.command(who, command, dice=[die] * n)
        if r.status_code == 200:
            return dict(r.json())
        body = r.json()
        assert r.status_code == 422 and body["type"].endswith("dice-error"), r.text
        assert n < 20, r.text
        n += 1


def _dist(a: dict[str, Any], b: dict[str, Any]) -> int:
    return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))


def _turn(b: Battle, side: str) -> None:
    """Every unit of `side` on the field closes with the nearest foe, turns to it,
    engages it (melee) and attacks."""
    state = b.view("referee")["state"]
    for c in state["champions"]:
        if c["side"] == side and not c["acted"]:
            _send(b, side, {"type": "PassChampion", "champion": c["id"]})
    for uid in [u["id"] for u in state["units"] if u["side"] == side]:
        state = b.view("referee")["state"]
        if state["over"]:
            return
        units = {u["id"]: u for u in state["units"]}
        me = units[uid]
        foes = [u for u in units.values() if u["side"] != side and u["status"] == "field"]
        if me["status"] != "field" or not foes:
            continue
        foe = min(foes, key=lambda f: (_dist(me, f), f["id"]))
        if _dist(me, foe) > 1 and me["kind"] == "melee":
            taken = {(u["x"], u["y"]) for u in units.values() if u["status"] == "field"}
            free = [(foe["x"] + dx, foe["y"] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                    if 0 <= foe["x"] + dx < 12 and 0 <= foe["y"] + dy < 12
                    and (foe["x"] + dx, foe["y"] + dy) not in taken]  # fmt: skip
            if not free:
                continue
            to = min(free, key=lambda t: (max(abs(t[0] - me["x"]), abs(t[1] - me["y"])), t))
            _send(b, side, {"type": "Move", "unit": uid, "to": list(to)})
            me = {u["id"]: u for u in b.view("referee")["state"]["units"]}[uid]
            if me["status"] != "field":
                continue
        facing = direction_of(foe["x"] - me["x"], foe["y"] - me["y"])
        if facing != me["facing"]:
            _send(b, side, {"type": "Face", "unit": uid, "facing": facing})
        if me["kind"] == "melee" and foe["id"] not in me["engaged"]:
            if _dist(me, foe) > 1:
                continue
            _send(b, side, {"type": "Engage", "unit": uid, "target": foe["id"]})
        _send(b, side, {"type": "Attack", "unit": uid, "target": foe["id"]})


@pytest.fixture(scope="module")
def fought(live_server: LiveServer) -> dict[str, Any]:
    http = httpx.Client(base_url=live_server.base_url, timeout=30)
    r = http.post(
        "/battles",
        json={"ruleset": "warfare", "setup": SETUP, "client_dice": "any", "title": "e2e"},
    )
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    out: dict[str, Any] = {"battle": b, "refusals": {}}
    refusals = out["refusals"]
    refusals["other_side"] = b.command("south", {"type": "PassChampion", "champion": "warden"})
    refusals["start_by_side"] = b.command("north", {"type": "StartRound"}, dice=[20, 1])
    rounds = 0
    while not b.view("observer")["state"]["over"] and rounds < 10:
        rounds += 1
        # the table rolls the roll-off: north 20, south 1 (a tie would be re-rolled)
        started = b.command("referee", {"type": "StartRound"}, dice=[20, 1] if rounds % 2
                            else [3, 3, 4, 9])  # fmt: skip
        assert started.status_code == 200, started.text
        order = b.view("referee")["state"]["order"]
        for side in order:
            if rounds == 1 and side == "north":
                refusals["not_facing"] = b.command(
                    "north", {"type": "Engage", "unit": "n3", "target": "s1"}
                )
            if rounds == 1 and side == "south":
                # [Resting] "A unit not engaged in combat can take an action to rest"
                units = b.view("referee")["state"]["units"]
                held = next(u["id"] for u in units if u["side"] == "south"
                            and u["status"] == "field" and u["engaged"])  # fmt: skip
                refusals["rest_engaged"] = b.command("south", {"type": "Rest", "unit": held})
            _turn(b, side)
            if b.view("observer")["state"]["over"]:
                break
            if rounds == 1 and side == "north":
                # s1 faces n1, which attacked it in melee: one retaliation, not two
                out["retaliation"] = _send(b, "south", {"type": "Retaliate", "unit": "s1",
                                                        "target": "n1"})  # fmt: skip
                refusals["second_retaliation"] = b.command(
                    "south", {"type": "Retaliate", "unit": "s1", "target": "n1"}, dice=[15]
                )
            _send(b, side, {"type": "EndTurn", "side": side})
    out["rounds"] = rounds
    out["final"] = b.view("observer")
    out["events"] = b.events("referee")
    return out


def test_the_battle_reaches_its_end(fought: dict[str, Any]) -> None:
    final = fought["final"]["state"]
    assert final["over"] and final["winner"] in ("north", "south")
    loser = "south" if final["winner"] == "north" else "north"
    assert not [u for u in final["units"] if u["side"] == loser and u["status"] == "field"]
    dice = ("DiceSeedRevealed", "DiceSubSeedRevealed")
    game = [e["type"] for e in fought["events"] if e["type"] not in dice]
    assert game[-1] == "BattleEnded" and game.count("BattleEnded") == 1


def test_the_roll_off_orders_the_sides_and_ties_are_rolled_again(fought: dict[str, Any]) -> None:
    starts = [e["data"] for e in fought["events"] if e["type"] == "RoundStarted"]
    assert starts[0]["order"] == ["north", "south"]
    assert starts[1]["order"] == ["south", "north"]  # 3 and 3 tie, then 4 against 9
    assert [[d["values"][0] for d in r["dice"]] for r in starts[1]["rolls"]] == [[3, 4], [3, 9]]


def test_every_die_came_from_the_table(fought: dict[str, Any]) -> None:
    all_rolls = [r for e in fought["events"] for r in rolls(e["data"])]
    assert all_rolls and all(r["source"] == "client" for r in all_rolls)


def test_attacks_record_their_inputs(fought: dict[str, Any]) -> None:
    attacks = [e["data"] for e in fought["events"] if e["type"] == "AttackResolved"]
    assert {a["kind"] for a in attacks} >= {"attack", "retaliation", "shatter"}
    for a in attacks:
        if a["kind"] == "shatter":
            assert a["die"] is None and a["band"] == "hit"
            continue
        assert a["total"] == a["natural"] + sum(m["value"] for m in a["modifiers"])
        assert a["margin"] == a["total"] - a["defense"]
        assert a["rule"] == "003 Unit Actions / Attacks"
        assert a["health_after"] == max(0, a["health_before"] - a["damage"])
    ranged = [a for a in attacks if a["attacker"] == "n3"]
    assert ranged and all(not a["melee"] and a["increments"] >= 1 for a in ranged)


def test_morale_checks_and_shattering(fought: dict[str, Any]) -> None:
    checks = [e["data"] for e in fought["events"] if e["type"] == "MoraleChecked"]
    assert checks and all(c["dc"] == 20 and c["total"] == 17 and not c["passed"]
                          for c in checks)  # fmt: skip
    assert any(e["type"] == "UnitShattered" for e in fought["events"])


def test_refusals(fought: dict[str, Any]) -> None:
    r = fought["refusals"]
    assert r["other_side"].status_code == 403, r["other_side"].text
    assert r["start_by_side"].status_code == 403, r["start_by_side"].text
    assert r["not_facing"].status_code == 422
    # an Engage: [Engagement] "(free action, requires facing)"
    assert r["not_facing"].json()["rule"] == "003 Unit Actions / Engagement"
    rest = r["rest_engaged"]
    assert rest.status_code == 422 and rest.json()["rule"] == "003 Unit Actions / Resting"
    second = r["second_retaliation"]
    assert second.status_code == 422 and second.json()["rule"] == (
        "003 Unit Actions / Retaliatory Attacks"
    )


def test_the_ruleset_is_described(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        r = http.get("/rulesets/warfare")
        assert r.status_code == 200, r.text
        assert r.json()["options"]["side_order"] == "roll_off"
        bad = http.post(
            "/battles", json={"ruleset": "warfare", "setup": {**SETUP, "sides": SETUP["sides"][:1]}}
        )
        assert bad.status_code in (400, 422), bad.text


def _small_battle(http: httpx.Client) -> Battle:
    """n1 and n2 (north, facing S) next to s1 and s2 (south, facing N); n3 alone; north's
    turn in round 1 (table dice)."""
    setup = {
        **SETUP,
        "units": [
            _unit("n1", "north", 3, 4),
            _unit("n2", "north", 5, 4, attack=-15),  # 5 vs 15 on a 20: misses by 10
            _unit("n3", "north", 9, 2),
            _unit("s1", "south", 3, 5),
            _unit("s2", "south", 5, 5),
        ],
        "champions": [],
        "equipment": [],
    }
    r = http.post("/battles", json={"ruleset": "warfare", "setup": setup, "client_dice": "any"})
    assert r.status_code == 201, r.text
    b = Battle(http, r.json())
    started = b.command("referee", {"type": "StartRound"}, dice=[20, 1])
    assert started.status_code == 200, started.text
    return b


def _attacks(r: httpx.Response) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    return [e["data"] for e in r.json()["events"] if e["type"] == "AttackResolved"]


def test_a_retaliation_is_answered_by_one_retaliation(live_server: LiveServer) -> None:
    # issue 32, [Retaliatory Attacks] "against any unit they are facing that attacks them in
    # melee": s1's retaliation is a melee attack on n1, which faces it
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = _small_battle(http)
        assert b.command("north", {"type": "Engage", "unit": "n1", "target": "s1"}).is_success
        _attacks(b.command("north", {"type": "Attack", "unit": "n1", "target": "s1"}, dice=[10]))
        back = {"type": "Retaliate", "unit": "s1", "target": "n1"}
        _attacks(b.command("south", back, dice=[10]))
        answer = {"type": "Retaliate", "unit": "n1", "target": "s1"}
        # s1 at 10 of 30 checks its morale: 20 + 2 passes
        (a,) = _attacks(b.command("north", answer, dice=[10, 20]))
        assert (a["attacker"], a["kind"], a["opens_retaliation"]) == ("n1", "retaliation", True)
        for who, cmd in (("south", back), ("north", answer)):
            again = b.command(who, cmd, dice=[10])
            assert again.status_code == 422, again.text
            assert again.json()["rule"] == "003 Unit Actions / Retaliatory Attacks"
            assert "one retaliatory attack this round" in again.json()["detail"]


def test_a_natural_20_names_its_band_and_empty_moves_and_pursuits_are_refused(
    live_server: LiveServer,
) -> None:
    # issue 32: a natural 20 that misses by 10 deals double damage (W07): the event names
    # the band the damage came from; a Move to the unit's own tile and a Pursue of a unit
    # that never shattered are refused with their reason, nothing appended
    with httpx.Client(base_url=live_server.base_url, timeout=30) as http:
        b = _small_battle(http)
        assert b.command("north", {"type": "Engage", "unit": "n2", "target": "s2"}).is_success
        # s2: 30 -> 10, diminished: its morale check 20 + 2 passes
        attack = {"type": "Attack", "unit": "n2", "target": "s2"}
        (a,) = _attacks(b.command("north", attack, dice=[20, 20]))
        assert (a["band"], a["damage_band"], a["natural_20"], a["damage"]) == (
            "miss", "natural-20", True, 20
        )  # fmt: skip
        version = b.view()["version"]
        stay = b.command("north", {"type": "Move", "unit": "n3", "to": [9, 2]})
        assert stay.status_code == 422, stay.text
        assert stay.json()["rule"] == "003 Unit Actions / Actions"
        assert "a move must leave its tile" in stay.json()["detail"]
        chase = b.command("north", {"type": "Pursue", "unit": "n2", "shattered": "s2"})
        assert chase.status_code == 422, chase.text
        assert chase.json()["rule"] == "003 Unit Actions / Pursuit"
        assert "s2 never shattered" in chase.json()["detail"]
        assert b.view()["version"] == version
        moved = b.command("north", {"type": "Move", "unit": "n3", "to": [9, 3]})
        assert moved.status_code == 200, moved.text  # the refused move did not use it
