"""Where a battle's history comes from, as this service vouches for it (issue 31, item 7).

A battle created here (or forked from one) is `created`. An imported battle's history
was signed by the service that exported it: its `BattleCreated.imported_from` names the
receipt's key, and the keys of earlier imports' receipts (`signers`). The origin is
`verified` when this service holds every one of those keys (current or retired:
`ServiceKeys.key_ids`), `not-verified` otherwise, naming the keys it does not hold. An
import is refused unless its origin is verified or the caller asked for a foreign one
(service.desk.importing); every read that vouches for a battle (`/verify`, the narrative,
the viewer's badge, the export's header, `GET /battles`) then carries the note. A fork
takes the origin of its ancestry: its game starts from its parent's state.

Computed when read, from the recorded key ids, not stored: a key id is the fingerprint
of the public key that verified the receipt at import, so "this service holds it" means
"this service signed it"; a key the operator drops later no longer vouches.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from domain.battle import BattleCreated, ImportedFrom
from events.envelope import StoredEvent
from events.errors import LogDamaged
from events.exports.format import Provenance
from events.store import EventStore
from service.battles.integrity import decode_created
from service.battles.signing import ServiceKeys

__all__ = [
    "CREATED",
    "NOT_VERIFIED",
    "ProvenanceHost",
    "battle_provenance",
    "history_signers",
    "provenance_of",
    "unvouched",
]

NOT_VERIFIED = "origin not verified by this service"


class ProvenanceHost(Protocol):
    """What the origin needs of the battle service (service.battles.service.BattleService,
    or the part of it that verifies, service.battles.verifying.Verifier): a Protocol, not
    an import, so that the service and this module do not import each other."""

    @property
    def store(self) -> EventStore: ...

    @property
    def signing(self) -> ServiceKeys: ...


CREATED = Provenance(origin="created")


def history_signers(imported: ImportedFrom) -> tuple[str, ...]:
    """Every key that signed the history an import came through, the oldest first."""
    return (*imported.signers, imported.receipt_key_id)


def unvouched(signers: Iterable[str], held: Collection[str]) -> list[str]:
    """The signers this service does not hold, each once, in order."""
    return list(dict.fromkeys(k for k in signers if k not in held))


def provenance_of(created: Sequence[BattleCreated], held: Collection[str]) -> Provenance:
    """The origin of a battle whose `BattleCreated` (and its ancestors', for a fork) are
    `created`, for a service holding the key ids `held`."""
    imports = [c.imported_from for c in created if c.imported_from is not None]
    if not imports:
        return CREATED
    foreign = unvouched((k for i in imports for k in history_signers(i)), held)
    if not foreign:
        return Provenance(origin="verified")
    return Provenance(
        origin="not-verified",
        key_ids=foreign,
        note=f"{NOT_VERIFIED}: its history was signed by key {', '.join(foreign)}, "
        "which this service does not hold",
    )


async def _created(service: ProvenanceHost, battle_id: str) -> BattleCreated | None:
    """The battle's `BattleCreated`, read from its first event alone (no fold: a battle
    whose later log is damaged still has an origin to report). None: no such battle."""
    first = await service.store.read(battle_id, after=0, limit=1)
    return decode_created(battle_id, first[0]) if first else None


async def battle_provenance(
    service: ProvenanceHost, battle_id: str, first: StoredEvent | None = None
) -> Provenance:
    """The origin of `battle_id` (see the module docstring); `first`: its first event,
    when the caller has already read it (a page of `GET /battles`), so it is not read
    again."""
    try:
        created = (
            decode_created(battle_id, first)
            if first is not None
            else await _created(service, battle_id)
        )
    except LogDamaged as e:  # /verify names the damage; the origin cannot be read
        return Provenance(origin="not-verified", note=f"{NOT_VERIFIED}: {e.reason}")
    if created is None:
        return CREATED
    chain = [created]
    for ancestor in created.lineage():
        parent = await _created(service, ancestor.battle_id)
        if parent is not None:
            chain.append(parent)
    return provenance_of(chain, service.signing.key_ids)
