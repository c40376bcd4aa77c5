"""The webhook worker on every store, delivering to a real receiver process: what each
endpoint is sent (its cursor, battle and type filters, the events as the integration's
key reads them), that a tampered endpoint row is never delivered to, and that two
workers on one database send each delivery once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest
from standardwebhooks.webhooks import Webhook

from domain.actors import Actor
from events.envelope import Integration
from events.store import EventStore
from service.battles.keys import Principal, hash_key
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.live.webhooks.endpoints import ROTATION_GRACE, WebhookEndpoints
from service.live.webhooks.retry import RetrySchedule
from service.live.webhooks.worker import WebhookWorker
from service.schemas import CommandRequest, CreateBattleRequest
from tests.integration.conftest import Backend
from tests.support.quickstart_play import SETUP
from tests.support.webhook_receiver import Receiver

KEYS = ServiceKeys.generate()


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    r = Receiver(tmp_path / "received.jsonl", "200")
    try:
        yield r
    finally:
        r.stop()


class Kit:
    """A service, its endpoints and a worker on one store, with one integration."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.service = BattleService(store, signing=KEYS)
        self.endpoints = WebhookEndpoints(
            store, self.service.keys, self.service.keys.macs, self.service.secrets
        )
        self.worker = WebhookWorker(
            self.service, self.endpoints, RetrySchedule(), timeout=5, poll_seconds=1
        )

    async def integration(self, name: str = "vtt") -> str:
        vtt = Integration(integration_id=name, key_hash=hash_key(f"bk_{name}"), name=name)
        mac = self.service.keys.macs.integration(vtt)
        await self.store.save_integration(msgspec.structs.replace(vtt, mac=mac))
        return name

    async def battle(self, integration_id: str) -> str:
        req = CreateBattleRequest(ruleset="quickstart", setup=SETUP)
        return (await self.service.create(req, integration_id=integration_id)).battle_id

    async def ruling(self, battle_id: str, audience: str = "all") -> None:
        command = {"type": "RecordRuling", "ruling": "r", "reason": "x", "audience": audience}
        referee = Principal(battle_id, Actor(role="referee"))
        await self.service.execute(
            battle_id,
            referee,
            CommandRequest(command=msgspec.Raw(msgspec.json.encode(command))),
            None,
        )


def _payloads(receiver: Receiver, secret: str, endpoint: str = "/hook") -> list[dict[str, Any]]:
    return [
        Webhook(secret).verify(q["body"], q["headers"])
        for q in receiver.requests()
        if q["path"] == endpoint
    ]


async def test_each_endpoint_gets_what_it_asked_for_from_its_registration_on(
    store: EventStore, receiver: Receiver
) -> None:
    kit = Kit(store)
    vtt = await kit.integration()
    before = await kit.battle(vtt)
    everything, secret_all = await kit.endpoints.create(vtt, f"{receiver.url}/all", [], None, 1.0)
    one = await kit.battle(vtt)
    rulings, secret_rulings = await kit.endpoints.create(
        vtt, f"{receiver.url}/rulings", ["RulingRecorded"], one, 2.0
    )
    other = await kit.battle(await kit.integration("bot"))  # not this integration's
    await kit.ruling(before)
    await kit.ruling(one, audience="referee")  # hidden: the integration opens it as referee
    await kit.ruling(other)
    # not a ruling: a sub-seed of each audience (referee, north, south), then the seed
    await kit.service.reveal(one, Principal(one, Actor(role="referee")), None)
    try:
        assert await kit.worker.run_once() == 8
    finally:
        await kit.worker.stop()

    got = _payloads(receiver, secret_all, "/hook/all")
    events = [(p["data"]["battle_id"], p["data"]["event"]["type"]) for p in got]
    # battles go side by side; each battle's events in order
    assert [e[1] for e in events if e[0] == one] == [
        "BattleCreated",
        "RulingRecorded",
        *["DiceSubSeedRevealed"] * 3,  # the integration reads every audience's, as referee
        "DiceSeedRevealed",
    ]
    assert [e for e in events if e[0] != one] == [(before, "RulingRecorded")]
    hidden = next(
        p for p in got if p["data"]["battle_id"] == one and p["data"]["event"]["version"] == 2
    )["data"]["event"]
    assert hidden["audience"] == "referee" and hidden["salt"] and "sealed" not in hidden
    log = await kit.service.events(one, Actor(role="referee"), 0, 10)
    assert msgspec.json.decode(msgspec.json.encode(log.events[1])) == hidden  # as the log reads it

    got = _payloads(receiver, secret_rulings, "/hook/rulings")
    assert [(p["data"]["battle_id"], p["data"]["event"]["version"]) for p in got] == [(one, 2)]
    deliveries = await store.list_webhook_deliveries(everything.endpoint_id)
    assert [d.status for d in deliveries] == ["delivered"] * 7
    assert rulings.battle_id == one


async def test_a_tampered_endpoint_row_is_never_delivered_to(
    backend: Backend, store: EventStore, receiver: Receiver
) -> None:
    assert backend.raw_mutate is not None
    kit = Kit(store)
    vtt = await kit.integration()
    endpoint, _ = await kit.endpoints.create(vtt, f"{receiver.url}/mine", [], None, 1.0)
    await kit.battle(vtt)
    try:
        assert await kit.worker.run_once() == 1
        await kit.battle(vtt)
        await backend.raw_mutate(
            "UPDATE webhook_endpoints SET url = ? WHERE endpoint_id = ?",
            (f"{receiver.url}/attacker", endpoint.endpoint_id),
        )
        assert await kit.worker.run_once() == 0
    finally:
        await kit.worker.stop()
    assert [q["path"] for q in receiver.requests()] == ["/hook/mine"]


async def test_two_workers_send_each_delivery_once(backend: Backend, receiver: Receiver) -> None:
    stores = [await backend.connect(), await backend.connect()]
    try:
        kits = [Kit(s) for s in stores]
        vtt = await kits[0].integration()
        _, secret = await kits[0].endpoints.create(vtt, receiver.url, [], None, 1.0)
        battles = [await kits[0].battle(vtt) for _ in range(6)]
        for _ in range(3):
            for b in battles:
                await kits[0].ruling(b)
        try:
            made = await asyncio.gather(*(k.worker.run_once() for k in kits))
            made += await asyncio.gather(*(k.worker.run_once() for k in kits))
        finally:
            for kit in kits:
                await kit.worker.stop()
        assert sum(made) == 24
        got = _payloads(receiver, secret)
        ids = [q["headers"]["webhook-id"] for q in receiver.requests()]
        assert len(ids) == len(set(ids)) == 24
        for b in battles:
            versions = [p["data"]["event"]["version"] for p in got if p["data"]["battle_id"] == b]
            assert versions == [1, 2, 3, 4]
    finally:
        for s in stores:
            await s.close()


async def test_deliveries_are_forgotten_after_the_retention_period(
    store: EventStore, receiver: Receiver
) -> None:
    kit = Kit(store)
    vtt = await kit.integration()
    endpoint, _ = await kit.endpoints.create(vtt, receiver.url, [], None, 1.0)
    await kit.battle(vtt)
    try:
        assert await kit.worker.run_once() == 1
    finally:
        await kit.worker.stop()
    (delivered,) = await store.list_webhook_deliveries(endpoint.endpoint_id)
    assert delivered.delivered_at is not None
    week = 7 * 86_400
    assert await kit.worker.prune(delivered.delivered_at + week - 1) == 0
    assert len(await store.list_webhook_deliveries(endpoint.endpoint_id)) == 1
    assert await kit.worker.prune(delivered.delivered_at + week + 1) == 1
    assert await store.list_webhook_deliveries(endpoint.endpoint_id) == []


async def test_a_rotated_secret_still_signs_for_a_day_beside_the_new_one(
    store: EventStore, receiver: Receiver
) -> None:
    kit = Kit(store)
    vtt = await kit.integration()
    endpoint, old = await kit.endpoints.create(vtt, receiver.url, [], None, 1.0)
    rotated_at = time.time()
    new = await kit.endpoints.rotate(endpoint, rotated_at)
    assert new != old and new.startswith("whsec_")
    await kit.battle(vtt)
    try:
        assert await kit.worker.run_once() == 1
    finally:
        await kit.worker.stop()
    (sent,) = receiver.requests()
    assert len(sent["headers"]["webhook-signature"].split(" ")) == 2
    for secret in (old, new):  # a receiver holding either one accepts it
        Webhook(secret).verify(sent["body"], sent["headers"])

    # a day later only the new one signs
    later = Kit(store)
    later.worker = WebhookWorker(
        later.service,
        later.endpoints,
        RetrySchedule(),
        timeout=5,
        poll_seconds=1,
        clock=lambda: rotated_at + ROTATION_GRACE + 1,
    )
    await later.battle(vtt)
    try:
        assert await later.worker.run_once() == 1
    finally:
        await later.worker.stop()
    last = receiver.requests()[-1]
    stamp = datetime.fromtimestamp(int(last["headers"]["webhook-timestamp"]), tz=UTC)
    msg_id = last["headers"]["webhook-id"]
    assert last["headers"]["webhook-signature"] == Webhook(new).sign(msg_id, stamp, last["body"])
