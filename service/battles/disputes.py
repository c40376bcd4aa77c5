"""Disputes as the service reads them: what a dispute's decision needs of the log, and the
list `GET /battles/{id}/disputes` answers (domain.disputes decides them).

A dispute about an event some reader may not see is addressed to its raiser only (and
the referee, who sees all) until that event is unsealed for every reader, as the events
it is about are (service.battles.sealing): its entry in the list follows its
`DisputeRaised` event.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, Actor, can_see
from domain.battle import Battle, DisputeRaised, DisputeResolved
from domain.battle_commands import Correction
from events.store import EventStore
from service.battles.sealing import unsealed_upto
from service.schemas import CommandBatchItem, DisputeOut

__all__ = ["correction_item", "disputed_hidden", "disputes_for"]

_raised = msgspec.json.Decoder(DisputeRaised)
_resolved = msgspec.json.Decoder(DisputeResolved)


def correction_item(item: Correction) -> CommandBatchItem:
    """A correction command as a batch's command (its JSON and its own dice)."""
    return CommandBatchItem(
        command=msgspec.Raw(msgspec.json.encode(item.command)),
        dice=item.dice,
        client_seed=item.client_seed,
    )


async def _event(store: EventStore, battle_id: str, version: int) -> Any:
    found = await store.read(battle_id, after=version - 1, upto=version)
    return found[0]


async def disputed_hidden(
    store: EventStore, battle_id: str, battle: Battle, versions: list[int]
) -> bool:
    """Whether some disputed version (all of them <= `battle.version`, or the decision
    refuses the dispute) holds an event some reader may not see yet."""
    upto = unsealed_upto(battle.meta)
    for version in sorted(set(versions)):
        if upto < version <= battle.version and (
            (await _event(store, battle_id, version)).audience != ALL
        ):
            return True
    return False


async def disputes_for(
    store: EventStore, battle_id: str, battle: Battle, actor: Actor
) -> list[DisputeOut]:
    """Every dispute `actor` may read, in the order raised: its status, the versions it
    disputes, the claim, the raiser, and once resolved the ruling, its rule and the
    versions of its correction."""
    upto = unsealed_upto(battle.meta)
    out: list[DisputeOut] = []
    for dispute_id, dispute in battle.meta.disputes.items():
        if dispute.raised_at > upto and not can_see(actor, dispute.audience):
            continue
        raised = _raised.decode((await _event(store, battle_id, dispute.raised_at)).data)
        entry = DisputeOut(
            dispute_id=dispute_id,
            status=dispute.status,
            versions=list(dispute.versions),
            claim=raised.claim,
            rule=raised.rule,
            raised_by=raised.raised_by,
            raised_at=dispute.raised_at,
            audience=dispute.audience,
        )
        if dispute.resolved_at is not None:
            resolved = _resolved.decode((await _event(store, battle_id, dispute.resolved_at)).data)
            entry.resolved_at = dispute.resolved_at
            entry.ruling = resolved.ruling
            entry.ruling_rule = resolved.rule
            entry.undo_to = resolved.undo_to
            entry.correcting_versions = resolved.correcting_versions
        out.append(entry)
    return out
