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
from service.live.webhooks import outbox
from service.live.webhooks.endpoints import ROTATION_GRACE, WebhookEndpoints
from service.live.webhooks.retry import RetrySchedule
from service.live.webhooks.worker import WebhookWorker
from service.schemas import CommandRequest, CreateBattleRequest
from tests.integration.conftest import Backend
from tests.support.quickstart_play import SETUP, next_command
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

    async def command(self, battle_id: str, command: dict[str, Any], side: str = "") -> None:
        actor = Actor(role="side", side=side) if side else Actor(role="referee")
        await self.service.execute(
            battle_id,
            Principal(battle_id, actor),
            CommandRequest(command=msgspec.Raw(msgspec.json.encode(command))),
            None,
        )

    async def awaits(self, battle_id: str, version: int) -> Any:
        prompts = await self.service.awaiting(battle_id, Actor(role="referee"), version)
        return msgspec.json.decode(msgspec.json.encode(prompts))

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
        assert await kit.worker.run_once() == 9
    finally:
        await kit.worker.stop()

    got = _payloads(receiver, secret_all, "/hook/all")
    # what `one` awaits once created (its only command that changed it), after its event
    of_one = [p for p in got if p["data"]["battle_id"] == one]
    told = [(i, p["data"]) for i, p in enumerate(of_one) if p["type"] == "battle.awaiting"]
    assert [(d["battle_id"], d["version"]) for _, d in told] == [(one, 1)]
    assert of_one[told[0][0] - 1]["data"]["event"]["type"] == "BattleCreated"
    assert {p["data"]["battle_id"] for p in got if p["type"] == "battle.awaiting"} == {one}
    got = [p for p in got if p["type"] == "battle.event"]
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
    assert [d.status for d in deliveries] == ["delivered"] * 8
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
        assert await kit.worker.run_once() == 2  # its first event, and what it awaits then
        await kit.battle(vtt)
        await backend.raw_mutate(
            "UPDATE webhook_endpoints SET url = ? WHERE endpoint_id = ?",
            (f"{receiver.url}/attacker", endpoint.endpoint_id),
        )
        assert await kit.worker.run_once() == 0
    finally:
        await kit.worker.stop()
    assert [q["path"] for q in receiver.requests()] == ["/hook/mine"] * 2


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
        assert sum(made) == 30  # 4 events and what the battle awaits once created, 6 times
        got = _payloads(receiver, secret)
        ids = [q["headers"]["webhook-id"] for q in receiver.requests()]
        assert len(ids) == len(set(ids)) == 30
        for b in battles:
            sent = [p for p in got if p["data"]["battle_id"] == b]
            versions = [p["data"].get("event", p["data"])["version"] for p in sent]
            assert versions == [1, 1, 2, 3, 4]
            assert [p["type"] for p in sent[:2]] == ["battle.event", "battle.awaiting"]
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
        assert await kit.worker.run_once() == 2  # its first event, and what it awaits then
    finally:
        await kit.worker.stop()
    event, told = await store.list_webhook_deliveries(endpoint.endpoint_id)
    assert event.delivered_at is not None and told.delivered_at is not None
    delivered = max(event.delivered_at, told.delivered_at)
    week = 7 * 86_400
    assert await kit.worker.prune(delivered + week - 1) == 0
    assert len(await store.list_webhook_deliveries(endpoint.endpoint_id)) == 2
    assert await kit.worker.prune(delivered + week + 1) == 2
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
        assert await kit.worker.run_once() == 2  # its first event, and what it awaits then
    finally:
        await kit.worker.stop()
    sent = receiver.requests()[0]
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
        assert await later.worker.run_once() == 2
    finally:
        await later.worker.stop()
    last = receiver.requests()[-1]
    stamp = datetime.fromtimestamp(int(last["headers"]["webhook-timestamp"]), tz=UTC)
    msg_id = last["headers"]["webhook-id"]
    assert last["headers"]["webhook-signature"] == Webhook(new).sign(msg_id, stamp, last["body"])


async def _play(kit: Kit, battle_id: str, commands: int) -> None:
    """Commands of the quickstart's policy, with rulings between them (which change
    nothing the battle awaits)."""
    for _ in range(commands):
        view = await kit.service.view(battle_id, Actor(role="referee"))
        who, command = next_command(msgspec.to_builtins(view.state))
        await kit.command(battle_id, command, "" if who == "referee" else who)
        await kit.ruling(battle_id)


async def test_what_a_battle_awaits_is_delivered_after_each_command_that_changed_it(
    store: EventStore, receiver: Receiver
) -> None:
    kit = Kit(store)
    vtt = await kit.integration()
    _, secret_all = await kit.endpoints.create(vtt, f"{receiver.url}/all", [], None, 1.0)
    _, secret_awaits = await kit.endpoints.create(
        vtt, f"{receiver.url}/awaits", ["battle.awaiting"], None, 1.0
    )
    _, secret_rulings = await kit.endpoints.create(
        vtt, f"{receiver.url}/rulings", ["RulingRecorded"], None, 1.0
    )
    battle = await kit.battle(vtt)
    await _play(kit, battle, 6)
    try:
        await kit.worker.run_once()
    finally:
        await kit.worker.stop()

    got = _payloads(receiver, secret_all, "/hook/all")
    log = (await kit.service.events(battle, Actor(role="referee"), 0, 1000)).events
    assert [p["data"]["event"]["version"] for p in got if p["type"] == "battle.event"] == [
        e.version for e in log
    ]
    # each battle.awaiting follows the last event of a command (the next event, if any, is
    # another command's), and says what the battle awaits then, which the command changed
    told: Any = []
    awaited = []
    for i, p in enumerate(got):
        if p["type"] != "battle.awaiting":
            continue
        data = p["data"]
        before = got[i - 1]["data"]["event"]
        assert before["version"] == data["version"] and data["battle_id"] == battle
        after = next((e for e in log if e.version == data["version"] + 1), None)
        assert after is None or after.command_version == after.version
        assert data["awaiting"] == await kit.awaits(battle, data["version"]) != told
        assert p["timestamp"] == before["recorded_at"]
        told = data["awaiting"]
        awaited.append(data["version"])
    assert len(awaited) >= 3  # the creation, then commands that moved the battle on
    # and none after a command that changed nothing (every ruling)
    rulings = {e.version for e in log if e.type == "RulingRecorded"}
    assert not rulings & set(awaited)
    # at every command's end what the battle awaits is the last one told
    for e in log:
        nxt = next((f for f in log if f.version == e.version + 1), None)
        if nxt is None or nxt.command_version == nxt.version:
            last = max(v for v in [0, *awaited] if v <= e.version)
            assert await kit.awaits(battle, e.version) == (
                await kit.awaits(battle, last) if last else []
            )

    only = _payloads(receiver, secret_awaits, "/hook/awaits")
    assert [(p["type"], p["data"]["version"]) for p in only] == [
        ("battle.awaiting", v) for v in awaited
    ]
    assert {p["type"] for p in _payloads(receiver, secret_rulings, "/hook/rulings")} == {
        "battle.event"
    }


async def test_a_command_cut_by_a_page_is_told_once_it_ends(
    store: EventStore, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page of one event: a command of several events ends in a later page, and what
    the battle awaits is delivered after its last event, never in its middle."""
    monkeypatch.setattr(outbox, "_PAGE", 1)
    kit = Kit(store)
    vtt = await kit.integration()
    endpoint, secret = await kit.endpoints.create(vtt, receiver.url, [], None, 1.0)
    battle = await kit.battle(vtt)
    await _play(kit, battle, 4)
    log = (await kit.service.events(battle, Actor(role="referee"), 0, 1000)).events
    firsts = [e.version for e in log if e.command_version == e.version]
    assert len(firsts) < len(log)  # some command appended several events
    try:
        for _ in range(3 * len(log)):  # each round reads at most 10 pages of one event
            await kit.worker.run_once()
    finally:
        await kit.worker.stop()
    got = _payloads(receiver, secret)
    ends = {v - 1 for v in firsts[1:]} | {log[-1].version}
    awaited = [p["data"]["version"] for p in got if p["type"] == "battle.awaiting"]
    assert awaited and set(awaited) <= ends
    assert len(awaited) == len(set(awaited))  # each once
    rows = await store.list_webhook_deliveries(endpoint.endpoint_id, limit=100)
    assert [d.kind for d in rows if d.event_type == "battle.awaiting"] == [1] * len(awaited)
