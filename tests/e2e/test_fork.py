"""Forking over HTTP: a new battle that starts as another one right after a version."""

from __future__ import annotations

from typing import Any

import httpx

from tests.e2e.battle_client import Battle, create_battle, play


def _fork(b: Battle, at: int, who: str = "referee", **extra: Any) -> httpx.Response:
    headers = b.auth(who)
    if "idempotency_key" in extra:
        headers["Idempotency-Key"] = extra.pop("idempotency_key")
    return b.http.post(f"/battles/{b.id}/fork", json={"at_version": at, **extra}, headers=headers)


def _state_at(b: Battle, version: int, who: str = "referee") -> Any:
    r = b.http.get(f"/battles/{b.id}/state", params={"version": version}, headers=b.auth(who))
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_a_fork_starts_as_the_parent_at_that_version_and_goes_its_own_way(
    http: httpx.Client,
) -> None:
    parent = create_battle(http, title="the ford")
    play(parent, stop_after=12)
    head = parent.view()["version"]
    at = head // 2
    r = _fork(parent, at)
    assert r.status_code == 201, r.text
    fork = Battle(http, r.json())
    assert fork.created["forked_from"] == parent.id and fork.created["forked_at"] == at
    assert fork.id != parent.id and fork.keys["referee"] != parent.keys["referee"]

    # Version 1 of the fork is the parent right after `at`, for every role.
    for who in ("referee", "north", "south", "observer"):
        assert fork.view(who)["state"] == _state_at(parent, at, who)
    assert fork.view()["title"] == "the ford"
    (first,) = fork.events()
    assert first["type"] == "BattleCreated" and first["version"] == 1
    assert first["data"]["forked_from"] == parent.id and first["data"]["forked_at"] == at

    # It plays on by itself; the parent does not move, and both logs verify.
    play(fork, stop_after=6)
    assert fork.view()["version"] > 1
    assert parent.view()["version"] == head
    assert _state_at(fork, 1) == _state_at(parent, at)
    for b in (parent, fork):
        report = http.get(f"/battles/{b.id}/verify", headers=b.auth("observer")).json()
        assert report["ok"] is True, report

    # A fork of a fork starts from the fork's state.
    r = _fork(fork, 3, title="again")
    assert r.status_code == 201, r.text
    grandchild = Battle(http, r.json())
    assert grandchild.view()["state"] == _state_at(fork, 3)
    assert grandchild.view()["title"] == "again"


def test_only_the_referee_forks_and_only_at_a_version_that_exists(http: httpx.Client) -> None:
    b = create_battle(http)
    play(b, stop_after=2)
    for who in ("north", "observer"):
        r = _fork(b, 1, who)
        assert r.status_code == 403, r.text
        assert r.json()["type"] == "urn:battle-service:problem:referee-only"
    head = b.view()["version"]
    r = _fork(b, head + 1)
    assert r.status_code == 422 and r.json()["type"].endswith(":version-out-of-range"), r.text
    assert r.json()["current_version"] == head
    r = _fork(b, 0)
    assert r.status_code == 400, r.text
    r = http.post(f"/battles/{b.id}/fork", json={"at_version": 1})
    assert r.status_code == 401, r.text
    assert b.view()["version"] == head  # nothing appended anywhere


def test_a_retried_fork_answers_the_same_battle(http: httpx.Client) -> None:
    b = create_battle(http)
    first = _fork(b, 1, idempotency_key="fork-key-0001")
    again = _fork(b, 1, idempotency_key="fork-key-0001")
    assert first.status_code == again.status_code == 201
    assert again.json()["battle_id"] == first.json()["battle_id"]
    assert again.json()["replayed"] is True and again.json()["keys"] == first.json()["keys"]
    other = _fork(b, 1, idempotency_key="fork-key-0001", title="different")
    assert other.status_code == 422, other.text
