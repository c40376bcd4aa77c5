"""Audit of a whole battle log: the hash chain, then every server die recomputed.

Dice are found by shape: any JSON object with `"kind": "roll"` in any event's data
(see `domain.dice.Roll`). Each value of a server roll is one die, recomputed at the roll
counter (version, index + i) from the seed of its epoch once that seed is revealed
(`DiceSeedRevealed`), after checking the seed against the commitment published for that
epoch (`BattleCreated`, then each reveal's `next_commitment`). Dice of an epoch not yet
revealed are counted as pending. The report counts dice (values), not rolls.

A reader who may not see some events audits the log it was given: those events come
sealed (`SealedEvent`), their links are checked and their dice are not (they are not
given). `decode_read` turns what the HTTP API answers (a JSON array of events, some of
them `{"sealed": true, ...}`) into what `audit_log` takes, keeping each event's data
byte for byte as it was hashed, so any client can run this audit on its own copy.

Every server die must also have used the client seeds the sides set before it
(`ClientSeedSet`): its recorded `client_seed` is checked to be `client_seed_for` of
them, revealed or not, so a server that ignored a side's seed is caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.chain import find_chain_break
from events.command_audit import misplaced_die
from events.dice_audit import (
    DICE_FACT_TYPES,
    DiceAudit,
    DiceFailure,
    may_hold_rolls,
    rolls_in_data,
)
from events.dispute_audit import DISPUTE_RESOLVED, dispute_break, resolution_of
from events.envelope import EventActor, SealedEvent, StoredEvent

__all__ = ["LogAudit", "ReadEvent", "audit_log", "decode_read", "read_event"]

_decode = msgspec.json.Decoder()


class ReadEvent(msgspec.Struct, kw_only=True):
    """One event of a read as the API answers it, whole or sealed."""

    version: int
    audience: str
    prev_hash: str
    hash: str
    sealed: bool = False
    battle_id: str = ""
    position: int = 0
    type: str = ""
    data: msgspec.Raw = msgspec.Raw(b"null")
    recorded_at: str = ""
    actor: EventActor = EventActor(role="")
    command_id: str | None = None
    salt: str | None = None
    command_version: int | None = None  # chain format 2 (events.chain), whole events
    dispute: str | None = None  # a dispute's correction (events.chain), whole events
    body: str | None = None  # chain format 2, sealed events


_decode_read = msgspec.json.Decoder(list[ReadEvent])


def decode_read(events_json: bytes) -> list[StoredEvent | SealedEvent]:
    """The events of a JSON array as the API answers them (an `EventPage`'s `events`)."""
    return [read_event(e) for e in _decode_read.decode(events_json)]


def read_event(e: ReadEvent) -> StoredEvent | SealedEvent:
    """One event as a read gave it, in the form `audit_log` takes."""
    if e.sealed:
        return SealedEvent(
            version=e.version, audience=e.audience, prev_hash=e.prev_hash, hash=e.hash,
            body=e.body,
        )  # fmt: skip
    return StoredEvent(
        battle_id=e.battle_id,
        version=e.version,
        position=e.position,
        type=e.type,
        data=bytes(e.data),
        audience=e.audience,
        recorded_at=e.recorded_at,
        actor=e.actor,
        command_id=e.command_id,
        prev_hash=e.prev_hash,
        hash=e.hash,
        salt=e.salt,
        command_version=e.command_version,
        dispute=e.dispute,
    )


class LogAudit(msgspec.Struct, frozen=True, kw_only=True):
    events_checked: int
    chain_ok: bool
    dice_ok: bool
    dice_checked: int
    dice_pending: int
    client_dice: int
    failed_version: int | None = None
    reason: str | None = None
    events_sealed: int = 0  # checked by their links only (see `SealedEvent`)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.dice_ok


def audit_log(events: Sequence[StoredEvent | SealedEvent]) -> LogAudit:
    """Check the chain and every die of one battle's complete log (in version order);
    sealed events by their links only."""
    brk = find_chain_break(events)
    if brk is not None:
        return _failure(events, brk.version, brk.reason, chain_ok=False)
    whole = [ev for ev in events if type(ev) is StoredEvent]
    sealed = len(events) - len(whole)
    dice = DiceAudit()
    if whole:
        dice.battle_id(whole[0].battle_id)
    server: list[tuple[int, list[dict[str, Any]]]] = []
    try:
        for ev in whole:
            if ev.type in DICE_FACT_TYPES:
                dice.fact(ev.version, ev.type, _decode.decode(ev.data))
        for ev in whole:
            if ev.type in DICE_FACT_TYPES or may_hold_rolls(ev.data):
                rolls = rolls_in_data(ev.data)
                dice.rolls(ev.version, rolls, ev.audience)
                server.append((ev.version, [r for r in rolls if r.get("source") == "server"]))
    except DiceFailure as e:
        return _dice_failure(events, e.version, e.reason)
    # Chain format 2: every server die counted from the first event of its command.
    commands = {ev.version: ev.command_version for ev in whole}
    stubs = [ev.version for ev in events if type(ev) is SealedEvent]
    misplaced = misplaced_die(server, commands, stubs)
    if misplaced is not None:
        return _dice_failure(events, *misplaced)
    # A dispute's correction and its ruling agree (events.dispute_audit).
    corrections = dispute_break(
        [(ev.version, ev.dispute) for ev in whole if ev.dispute is not None],
        [resolution_of(ev.version, ev.data) for ev in whole if ev.type == DISPUTE_RESOLVED],
        stubs,
    )
    if corrections is not None:
        return _failure(events, *corrections, chain_ok=False)
    return LogAudit(
        events_checked=len(events),
        chain_ok=True,
        dice_ok=True,
        dice_checked=dice.checked,
        dice_pending=dice.pending,
        client_dice=dice.client,
        events_sealed=sealed,
    )


def _dice_failure(
    events: Sequence[StoredEvent | SealedEvent], version: int, reason: str
) -> LogAudit:
    return _failure(events, version, reason, chain_ok=True)


def _failure(
    events: Sequence[StoredEvent | SealedEvent], version: int, reason: str, *, chain_ok: bool
) -> LogAudit:
    """A log that fails at `version`: its chain (`chain_ok` False: the links or a
    dispute's correction) or, the chain holding, its dice."""
    return LogAudit(
        events_checked=len(events),
        chain_ok=chain_ok,
        dice_ok=False,
        dice_checked=0,
        dice_pending=0,
        client_dice=0,
        failed_version=version,
        reason=reason,
    )
