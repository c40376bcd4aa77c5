"""A fork of a fork records its whole ancestry (every generation's battle, the version
forked and the hash there) and its keys read every ancestor's log up to that version,
sealed for their role and side as the ancestor's own keys see it (issue 16, item 4)."""

from __future__ import annotations

from typing import Any

import httpx

from events.verify import audit_log, decode_read
from tests.e2e.battle_client import Battle
from tests.e2e.leak_check import sealed_of
from tests.e2e.sealed_kit import stealth_battle


def _ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def _fork(b: Battle, at: int) -> Battle:
    r = b.http.post(f"/battles/{b.id}/fork", json={"at_version": at}, headers=b.auth("referee"))
    return Battle(b.http, _ok(r, 201))


def test_a_fork_of_a_fork_records_and_reads_its_whole_ancestry(http: httpx.Client) -> None:
    root = stealth_battle(http)  # versions 1-3
    _ok(root.command("referee", {"type": "UseSkill", "hero": "h", "skill": "stealth"}, dice=[10]))
    _ok(root.command("north", {"type": "EndStep"}))  # 5
    child = _fork(root, 5)  # its version 1: the fork's BattleCreated
    _ok(child.command("referee", {"type": "RecordRuling", "ruling": "c", "reason": "r"}))  # 2
    _ok(child.command("referee", {"type": "RecordRuling", "ruling": "x", "reason": "r"}))  # 3
    grandchild = _fork(child, 2)
    head_root, head_child = root.events()[4]["hash"], child.events()[1]["hash"]
    ancestry = [
        {"battle_id": child.id, "version": 2, "head_hash": head_child},
        {"battle_id": root.id, "version": 5, "head_hash": head_root},
    ]
    assert grandchild.created["ancestry"] == ancestry  # the creation answer
    assert child.created["ancestry"] == ancestry[1:]
    created = grandchild.events("observer")[0]["data"]  # and its first event, in the chain
    assert created["ancestry"] == ancestry and created["forked_from"] == child.id

    def origin(who: str, **params: Any) -> httpx.Response:
        url = f"/battles/{grandchild.id}/origin/events"
        return http.get(url, params=params, headers=grandchild.auth(who))

    for who in ("referee", "north", "south", "observer"):
        parent = _ok(origin(who))
        assert parent["generation"] == 1 and parent["ancestry"] == ancestry
        assert parent["battle_id"] == child.id and parent["forked_head_hash"] == head_child
        assert parent["events"] == child.events(who)[:2]
        older = _ok(origin(who, generation=2))
        assert older["generation"] == 2 and older["battle_id"] == root.id
        assert older["forked_from"] == root.id and older["forked_at"] == 5
        assert older["events"] == root.events(who)[:5]  # sealed as the root's keys see it
        assert older["events"][-1]["hash"] == older["forked_head_hash"] == head_root
        body = origin(who, generation=2).content
        events = body[body.index(b'"events":') + 9 : body.rindex(b',"next_after"')]
        assert audit_log(decode_read(events)).ok
    hidden = root.events("referee")[3]
    assert hidden["audience"] != "all"
    assert _ok(origin("observer", generation=2))["events"][3] == sealed_of(hidden)
    r = origin("referee", generation=3)
    assert r.status_code == 404 and r.json()["type"].endswith(":no-such-generation")
    # the ancestors' keys do not open the grandchild's origin
    r = http.get(
        f"/battles/{grandchild.id}/origin/events",
        params={"generation": 2},
        headers=root.auth("referee"),
    )
    assert r.status_code == 403
    # once the grandchild ends (and reveals), every generation is whole to its keys
    end = {"type": "EndBattle", "winner": "south", "reason": "t"}
    _ok(grandchild.command("referee", end))
    assert _ok(origin("observer", generation=2))["events"] == root.events("referee")[:5]
