"""Hidden events: their salts, and how each read hands them out, whole or sealed.

Every event a reader may not see (audience other than "all") is committed with a secret
random salt (128 bits from `secrets`, drawn here, in the service: the domain never draws
anything) that enters its hash (see `events.chain`), is stored with it and is handed out
only with the event itself. Without it, a visible event's prev_hash would give away the
hidden event before it to anyone who tries the few values its data can take.

Every read (the log, the command answer, the live streams) hands an event the caller may
not see *sealed*: its version, hash, prev_hash and audience, and `"sealed": true`, nothing
else, so that every reader can check the links of the chain it was given
(`events.verify.audit_log`). When a battle has ended (its "battle-over" seed reveal) and
was created with `reveal_hidden_on_end`, the events up to that end are handed to every
reader whole, salt included: a finished battle can be audited in full with any key.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import msgspec

from domain.actors import ALL, Actor, can_see
from domain.battle import BattleMeta
from events.chain import stub_body
from events.envelope import SealedEvent, StoredEvent
from service.schemas import EventActorOut, EventOut, SealedEventOut

__all__ = [
    "SALT_BYTES",
    "Sealer",
    "draw_salts",
    "event_out",
    "reader_log",
    "sealed_out",
    "unsealed_upto",
]

SALT_BYTES = 16  # 128 bits: no search of the salt is within reach


def draw_salts(audiences: Sequence[str]) -> list[str | None] | None:
    """A fresh secret salt (hex) for each event some reader may not see, None for the
    others; None in place of the list when every event is for everyone (most commands)."""
    if all(a == ALL for a in audiences):
        return None
    return [None if a == ALL else secrets.token_hex(SALT_BYTES) for a in audiences]


def unsealed_upto(meta: BattleMeta) -> int:
    """The last version every reader is given whole: the battle's end, if it ended and
    reveals its hidden events then; 0 otherwise."""
    if meta.created.reveal_hidden_on_end and meta.ended_at is not None:
        return meta.ended_at
    return 0


def event_out(ev: StoredEvent, ruleset: str, undone: bool = False) -> EventOut:
    """The whole event, as a reader who may see it is given it; `ruleset` is its battle's
    (not in the hash: it tells a generated client which ruleset's event `data` is)."""
    return EventOut(
        battle_id=ev.battle_id,
        ruleset=ruleset,
        version=ev.version,
        position=ev.position,
        type=ev.type,
        data=msgspec.Raw(ev.data),
        audience=ev.audience,
        recorded_at=ev.recorded_at,
        actor=EventActorOut(
            role=ev.actor.role, side=ev.actor.side, label=ev.actor.label, key_id=ev.actor.key_id
        ),
        command_id=ev.command_id,
        prev_hash=ev.prev_hash,
        hash=ev.hash,
        undone=undone,
        salt=ev.salt,
        command_version=ev.command_version,
        dispute=msgspec.UNSET if ev.dispute is None else ev.dispute,
    )


def sealed_out(ev: StoredEvent) -> SealedEventOut:
    """The event as a reader who may not see it is given it."""
    return SealedEventOut(
        version=ev.version, audience=ev.audience, prev_hash=ev.prev_hash, hash=ev.hash,
        sealed=True, body=stub_body(ev),
    )  # fmt: skip


class Sealer:
    """What one reader is given of each event of one battle: `upto` is the battle's
    `unsealed_upto` when the read was made, `ruleset` its ruleset's id."""

    __slots__ = ("actor", "ruleset", "upto")

    def __init__(self, actor: Actor, upto: int, ruleset: str) -> None:
        self.actor = actor
        self.upto = upto
        self.ruleset = ruleset

    def sees(self, ev: StoredEvent) -> bool:
        return can_see(self.actor, ev.audience) or ev.version <= self.upto

    def out(self, ev: StoredEvent, undone: bool = False) -> EventOut | SealedEventOut:
        if can_see(self.actor, ev.audience) or ev.version <= self.upto:
            return event_out(ev, self.ruleset, undone)
        return sealed_out(ev)


def reader_log(events: Sequence[StoredEvent], sealer: Sealer) -> list[StoredEvent | SealedEvent]:
    """The log as `sealer`'s reader is given it, in the form `audit_log` checks."""
    return [
        ev
        if sealer.sees(ev)
        else SealedEvent(
            version=ev.version,
            audience=ev.audience,
            prev_hash=ev.prev_hash,
            hash=ev.hash,
            body=stub_body(ev),
        )
        for ev in events
    ]
