"""Founding a battle once: its first events, keys, dice seed and answer, for a creation,
a fork (service.battles.creating) or an import (service.desk.importing), each described
as a `Founding`.

All three answer the new battle's id and keys, all honour an Idempotency-Key (the battle
id is derived from it, so a retry on any worker finds the battle and the first answer,
kept beside the dice seed, encrypted under a key derived from that Idempotency-Key: the
database alone does not open it), and all link the battle to the calling integration,
if any, before its first event is appended. The key rows and the link carry the
service's MAC (service.battles.record_macs); the answer carries a receipt of version 1.

An import is founded from an export's log: its `BattleCreated` is the original's under
the new id (with `imported_from`), the original's later events follow it, chained anew,
and a `DiceEpochStarted` commits the new battle's own seed; the receipt answered is of
that last event.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import msgspec

from domain.actors import ALL
from domain.battle import (
    Ancestor,
    Battle,
    BattleCreated,
    DiceEpochStarted,
    ImportedFrom,
    Timeline,
)
from domain.decider import Ruleset
from events.chain import CHAIN_FORMAT, encode_event, seal
from events.envelope import AccessKey, EventActor, PendingEvent, StoredEvent
from events.errors import IdempotencyMismatch, VersionConflict
from events.store import EventStore
from service.battles.keys import KeyRing, hash_key, mint_key
from service.battles.sealing import draw_salts
from service.battles.secrets_at_rest import SecretBox
from service.battles.signing import ServiceKeys
from service.schemas import (
    AncestorOut,
    BattleCreatedResponse,
    BattleKeys,
    ImportedFromOut,
)

__all__ = [
    "Founding",
    "FoundingHost",
    "ancestry_out",
    "found_once",
    "imported_commands",
]


class _LoadedBattle(Protocol):
    @property
    def ruleset(self) -> Ruleset[Any, Any, Any, Any, Any]: ...

    @property
    def timeline(self) -> Timeline: ...


class FoundingHost(Protocol):
    """What founding needs of the battle service (service.battles.service.BattleService).

    A Protocol rather than an import, so that service.battles.service (which calls founding,
    through service.battles.creating) and this module do not import each other.
    """

    @property
    def store(self) -> EventStore: ...

    @property
    def keys(self) -> KeyRing: ...

    @property
    def secrets(self) -> SecretBox: ...

    @property
    def signing(self) -> ServiceKeys: ...

    async def loaded(self, battle_id: str) -> _LoadedBattle: ...

    async def state_at(self, battle_id: str, version: int) -> Battle: ...

    async def new_seed(self, battle_id: str) -> tuple[bytes, str]: ...

    async def new_sub_seeds(
        self, battle_id: str, commit: str, sides: Sequence[str]
    ) -> tuple[dict[str, bytes], dict[str, str]]: ...

    def now(self) -> str: ...

    def adopt(
        self,
        battle_id: str,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        timeline: Timeline,
        stored: list[StoredEvent],
        seeds: dict[str, bytes],
    ) -> None: ...


_CREATE_NAMESPACE = uuid.UUID("6f1c7a52-3d0e-4b8e-9a51-0c2f4d9e7b13")


class _CreatedRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What a creation with an Idempotency-Key keeps, to answer a retry the same way."""

    request_hash: str
    response: BattleCreatedResponse


def _created_name(commit: str) -> str:
    return f"created:{commit}"


class Founding(msgspec.Struct, kw_only=True):
    """A battle about to be founded: its first event but for the id and the seed."""

    ruleset: Ruleset[Any, Any, Any, Any, Any]
    title: str
    options: dict[str, Any]
    setup: dict[str, Any]
    sides: list[str]
    client_dice: Any
    reveal_hidden_on_end: bool = True
    pause_on_dispute: bool = False
    forked_from: str | None = None
    forked_at: int | None = None
    forked_head_hash: str | None = None  # the hash of the parent's event `forked_at`
    ancestry: tuple[Ancestor, ...] = ()  # every generation, the parent first
    fork_base: Any = None  # the parent's game at `forked_at`
    # An import (service.desk.importing): the original's first dice epoch and commitment (its
    # revealed seeds must match them), where it came from, and its events after the
    # first, chained anew after the new `BattleCreated`; then a `DiceEpochStarted` of
    # `next_epoch` commits this battle's own seed.
    dice_epoch: int = 1
    dice_commitment: str | None = None
    dice_sub_commitments: dict[str, str] = {}  # an import: the original's first epoch's
    imported_from: ImportedFrom | None = None
    imported: list[StoredEvent] = []
    next_epoch: int = 0


def ancestry_out(ancestry: tuple[Ancestor, ...]) -> list[AncestorOut]:
    return [
        AncestorOut(battle_id=a.battle_id, version=a.version, head_hash=a.head_hash)
        for a in ancestry
    ]


async def found_once(
    service: FoundingHost,
    scope: str,
    request_hash: str,
    idempotency_key: str | None,
    integration_id: str | None,
    prepare: Callable[[], Awaitable[Founding]],
) -> BattleCreatedResponse:
    """Found the battle `prepare` describes, once per Idempotency-Key (within `scope` and
    the integration): a retry is answered as the first request was."""
    battle_id = str(uuid.uuid4())
    if idempotency_key is not None:
        # Whoever repeats the key gets the battle's keys: it must be unguessable. One
        # integration's keys are not another's, nor a fork's a creation's.
        name = idempotency_key
        if scope or integration_id:
            name = f"{scope}{integration_id or ''}\n{idempotency_key}"
        battle_id = str(uuid.uuid5(_CREATE_NAMESPACE, name))
        previous = await _created(service, battle_id, idempotency_key, request_hash)
        if previous is not None:
            return previous
    founding = await prepare()
    if integration_id is not None:
        # Before the first event: a stream that sees the battle's events finds the link.
        mac = service.keys.macs.link(integration_id, battle_id)
        await service.store.link_battle(integration_id, battle_id, mac)
        service.keys.remember_link(integration_id, battle_id)
    try:
        return await _found(
            service, founding, battle_id, request_hash if idempotency_key else None,
            idempotency_key, integration_id,
        )  # fmt: skip
    except VersionConflict:  # a concurrent retry of the same key won the race
        assert idempotency_key is not None
        previous = await _created(service, battle_id, idempotency_key, request_hash)
        assert previous is not None
        return previous


async def _created(
    service: FoundingHost, battle_id: str, idempotency_key: str, request_hash: str
) -> BattleCreatedResponse | None:
    """The answer first given for this creation key, or None if it created nothing."""
    first = await service.store.read(battle_id, limit=1)
    if not first:
        return None
    created = msgspec.json.decode(first[0].data, type=BattleCreated)
    commit = created.dice_commitment
    if created.imported_from is not None:  # its own seed: committed after the original's log
        at = created.imported_from.version + 1
        epoch = await service.store.read(battle_id, after=at - 1, upto=at)
        commit = msgspec.json.decode(epoch[0].data, type=DiceEpochStarted).commitment
    saved = await service.store.load_secret(battle_id, _created_name(commit))
    if saved is None:  # deleted on upgrade: older versions kept it, keys in clear
        raise IdempotencyMismatch(
            f"Idempotency-Key {idempotency_key} created battle {battle_id}, whose answer is "
            "no longer kept (it was stored in clear by an older version)",
            command_id=idempotency_key,
        )
    opened = service.secrets.open_answer(battle_id, idempotency_key, saved)
    record = msgspec.json.decode(opened, type=_CreatedRecord)
    if record.request_hash != request_hash:
        raise IdempotencyMismatch(
            f"Idempotency-Key {idempotency_key} was already used to create another battle",
            command_id=idempotency_key,
        )
    return msgspec.structs.replace(record.response, replayed=True)


async def _found(
    service: FoundingHost,
    f: Founding,
    battle_id: str,
    request_hash: str | None,
    idempotency_key: str | None,
    integration_id: str | None,
) -> BattleCreatedResponse:
    seed, commit = await service.new_seed(battle_id)
    # The sub-seeds of hidden dice (domain.dice, "Hidden dice"): one per audience.
    sub_seeds, subs = await service.new_sub_seeds(battle_id, commit, f.sides)
    seeds = {commit: seed, **{subs[a]: s for a, s in sub_seeds.items()}}
    created = BattleCreated(
        battle_id=battle_id,
        title=f.title,
        ruleset=f.ruleset.id,
        ruleset_version=f.ruleset.version,
        options=f.options,
        setup=f.setup,
        sides=f.sides,
        client_dice=f.client_dice,
        dice_epoch=f.dice_epoch,
        dice_commitment=f.dice_commitment or commit,
        dice_sub_commitments=subs if f.dice_commitment is None else f.dice_sub_commitments,
        forked_from=f.forked_from,
        forked_at=f.forked_at,
        forked_head_hash=f.forked_head_hash,
        reveal_hidden_on_end=f.reveal_hidden_on_end,
        pause_on_dispute=f.pause_on_dispute,
        ancestry=f.ancestry,
        imported_from=f.imported_from,
        chain_format=CHAIN_FORMAT,
    )
    keys = BattleKeys(
        referee=mint_key(), observer=mint_key(), sides={s: mint_key() for s in f.sides}
    )
    unsigned = [
        AccessKey(key_hash=hash_key(keys.referee), battle_id=battle_id, role="referee"),
        AccessKey(key_hash=hash_key(keys.observer), battle_id=battle_id, role="observer"),
        *(
            AccessKey(key_hash=hash_key(k), battle_id=battle_id, role="side", side=s)
            for s, k in keys.sides.items()
        ),
    ]
    macs = service.keys.macs
    records = [msgspec.structs.replace(r, mac=macs.access_key(r)) for r in unsigned]
    pending = seal(
        battle_id=battle_id,
        prev_version=0,
        prev_hash="0" * 64,
        items=[("BattleCreated", encode_event(created), ALL)],
        recorded_at=service.now(),
        actor=EventActor(role="creator"),
        command_id=None,
        command_version=_first_of_command(1),
    )
    if f.imported_from is not None:
        pending += _rechain(pending[0], f.imported, f.next_epoch, commit, subs, service.now())
    head = pending[-1]
    response = BattleCreatedResponse(
        battle_id=battle_id,
        ruleset=f.ruleset.id,
        ruleset_version=f.ruleset.version,
        version=head.version,
        dice_commitment=commit,
        keys=keys,
        integration_id=integration_id,
        forked_from=f.forked_from,
        forked_at=f.forked_at,
        forked_head_hash=f.forked_head_hash,
        ancestry=ancestry_out(f.ancestry),
        imported_from=_imported_out(f.imported_from),
        receipt=service.signing.receipt(battle_id, head.version, head.hash),
    )
    if request_hash is not None and idempotency_key is not None:
        # Kept beside the seed, named by this attempt's commitment: if a concurrent
        # retry's BattleCreated wins the append, that retry's answer is found again.
        # Encrypted: only the Idempotency-Key that made it opens it.
        record = msgspec.json.encode(_CreatedRecord(request_hash=request_hash, response=response))
        await service.store.save_secret(
            battle_id,
            _created_name(commit),
            service.secrets.seal_answer(battle_id, idempotency_key, record),
        )
    await service.store.save_keys(records)
    stored = await service.store.append(battle_id, 0, pending)
    service.keys.remember(records)
    timeline = Timeline(f.ruleset, fork_base=f.fork_base)
    timeline.extend_decoded([created])
    timeline.extend(p.data for p in pending[1:])
    service.adopt(battle_id, f.ruleset, timeline, stored, seeds)
    return response


def _imported_out(origin: ImportedFrom | None) -> ImportedFromOut | None:
    if origin is None:
        return None
    return ImportedFromOut(
        battle_id=origin.battle_id, version=origin.version, head_hash=origin.head_hash
    )


def _first_of_command(version: int) -> int | None:
    """An event's `command_version` in a battle created now: None if this build writes
    chain format 1 (tests make battles as an older version did by setting it)."""
    return version if CHAIN_FORMAT >= 2 else None


def imported_commands(events: Sequence[StoredEvent]) -> list[int]:
    """The command each imported event belongs to (its first version; the imported log
    keeps the original's versions): the original's own record (chain format 2), or, for
    a battle chained before it, the run of events that share an Idempotency-Key, or else
    a recording time and an actor (what told commands apart before they were recorded)."""
    out: list[int] = []
    for i, ev in enumerate(events):
        if ev.command_version is not None:
            out.append(ev.command_version)
            continue
        before = events[i - 1] if i else None
        same = before is not None and (
            (ev.command_id, ev.recorded_at, ev.actor)
            == (before.command_id, before.recorded_at, before.actor)
        )
        out.append(out[-1] if same else ev.version)
    return out


def _rechain(
    created: PendingEvent,
    events: list[StoredEvent],
    epoch: int,
    commit: str,
    subs: dict[str, str],
    now: str,
) -> list[PendingEvent]:
    """An import's events after its `BattleCreated`: the original's (type, data, audience,
    time, actor, command as they were; a fresh salt for each hidden one), chained under
    the new id, then the `DiceEpochStarted` that commits this battle's own seed."""
    out: list[PendingEvent] = []
    prev_version, prev_hash = created.version, created.hash
    for ev, command in zip(events, imported_commands(events), strict=True):
        out += seal(
            battle_id=created.battle_id, prev_version=prev_version, prev_hash=prev_hash,
            items=[(ev.type, ev.data, ev.audience)], recorded_at=ev.recorded_at,
            actor=ev.actor, command_id=ev.command_id, salts=draw_salts([ev.audience]),
            command_version=_first_of_command(command),
            # A name only format 2 hashes: a format-1 line's is no part of what it proved.
            dispute=ev.dispute if ev.command_version is not None else None,
        )  # fmt: skip
        prev_version, prev_hash = out[-1].version, out[-1].hash
    started = DiceEpochStarted(epoch=epoch, commitment=commit, sub_commitments=subs)
    out += seal(
        battle_id=created.battle_id, prev_version=prev_version, prev_hash=prev_hash,
        items=[("DiceEpochStarted", encode_event(started), ALL)], recorded_at=now,
        actor=EventActor(role="creator"), command_id=None,
        command_version=_first_of_command(prev_version + 1),
    )  # fmt: skip
    return out
