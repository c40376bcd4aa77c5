"""A player key revoked on one worker is refused by the other at once (issue 34 item 5):
two real server processes sharing PostgreSQL and Redis, the key used on both (so that
any cache of it would be warm), revoked on one, then answered 401 by both, reads and
commands alike, from the moment the DELETE answered; and its live streams open on the
other worker end too."""

from __future__ import annotations

import httpx

from tests.e2e.battle_client import Battle
from tests.e2e.conftest import ServerProcess

# The two workers on one PostgreSQL schema and one Redis, sharing a signing key.
from tests.e2e.test_two_workers import workers  # noqa: F401
from tests.support.key_streams import SseTail, WsTail, mint_key
from tests.support.quickstart_play import SETUP


def test_a_key_revoked_on_one_worker_is_refused_by_both(
    workers: tuple[ServerProcess, ServerProcess],  # noqa: F811
) -> None:
    a, b = workers
    with (
        httpx.Client(base_url=a.base_url, timeout=30) as on_a,
        httpx.Client(base_url=b.base_url, timeout=30) as on_b,
    ):
        r = on_a.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
        assert r.status_code == 201, r.text
        battle = Battle(on_a, r.json())
        minted = on_a.post(
            f"/battles/{battle.id}/keys",
            json={"role": "side", "side": "north", "label": "Mallory"},
            headers=battle.auth("referee"),
        ).json()
        player = {"Authorization": f"Bearer {minted['key']}"}
        url = f"/battles/{battle.id}"
        for _ in range(3):  # warm whatever either worker keeps of the key
            for client in (on_a, on_b):
                assert client.get(url, headers=player).status_code == 200

        gone = on_b.delete(f"{url}/keys/{minted['key_id']}", headers=battle.auth("referee"))
        assert gone.status_code == 204, gone.text

        ruling = {"command": {"type": "RecordRuling", "ruling": "x", "reason": "y"}}
        for client in (on_a, on_b):
            r = client.get(url, headers=player)
            assert r.status_code == 401, r.text
            assert r.json()["type"].endswith(":revoked-key")
            challenge = r.headers["www-authenticate"]
            assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge
            r = client.post(f"{url}/commands", json=ruling, headers=player)
            assert r.status_code == 401, r.text
        # the creation keys are untouched
        assert on_a.get(url, headers=battle.auth("north")).status_code == 200


def test_a_key_revoked_on_one_worker_loses_its_streams_on_the_other(
    workers: tuple[ServerProcess, ServerProcess],  # noqa: F811
) -> None:
    """Its SSE stream and its WebSocket, both open on worker a, end when worker b takes
    the DELETE (the revocation reaches a through Redis, long before a's periodic check)."""
    a, b = workers
    with (
        httpx.Client(base_url=a.base_url, timeout=30) as on_a,
        httpx.Client(base_url=b.base_url, timeout=30) as on_b,
    ):
        r = on_a.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
        assert r.status_code == 201, r.text
        battle = Battle(on_a, r.json())
        referee = battle.auth("referee")
        minted = mint_key(on_a, battle.id, referee, role="side", side="north", label="Mallory")
        kept = mint_key(on_a, battle.id, referee, role="side", side="north", label="Kept")
        sse = SseTail(on_a, f"/battles/{battle.id}/events/stream", minted["key"])
        ws = WsTail(a.base_url.replace("http", "ws") + "/events/ws", minted["key"])
        other = SseTail(on_a, f"/battles/{battle.id}/events/stream", kept["key"])
        try:
            logged = battle.events("north")
            sse.take(len(logged))
            ws.take(len(logged))
            other.take(len(logged))
            gone = on_b.delete(f"/battles/{battle.id}/keys/{minted['key_id']}", headers=referee)
            assert gone.status_code == 204, gone.text
            sse_rest, ws_rest = sse.rest(), ws.rest()
            ruling = {"command": {"type": "RecordRuling", "ruling": "later", "reason": "y"}}
            assert on_b.post(f"/battles/{battle.id}/commands", json=ruling, headers=referee)
            [live] = other.take(1)  # another player's key of the side streams on
        finally:
            sse.close()
            ws.close()
            other.close()
    assert [e.event for e in sse_rest] == ["problem"], sse_rest
    assert sse_rest[0].data["type"].endswith(":revoked-key")
    assert [m["kind"] for m in ws_rest] == ["problem"], ws_rest
    assert ws_rest[0]["type"].endswith(":revoked-key")
    assert ws.close_code == 4401
    assert live.data["data"]["ruling"] == "later"
