"""`/verify`: a battle's log audited as a reader is given it (the events it may not see
by their links only, and only the dice it may see), the receipts given checked against
it (service.battles.receipt_checks), the dice audit reused while the head is unchanged
(service.battles.verify_cache), and where the battle's history comes from
(service.battles.provenance)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from domain.actors import Actor
from events.errors import LogDamaged
from events.receipts import Receipt
from events.store import EventStore
from events.verify import audit_log
from service.battles.provenance import battle_provenance
from service.battles.reads import BattleReads
from service.battles.receipt_checks import check_receipts
from service.battles.sealing import Sealer, reader_log
from service.battles.signing import ServiceKeys
from service.battles.verify_cache import VerifyCache
from service.errors import NotFound
from service.schemas import VerifyFailure, VerifyReport

__all__ = ["Verifier"]


class Verifier:
    """Audits the battles of one event store; its receipts are checked with `signing`."""

    def __init__(
        self, store: EventStore, signing: ServiceKeys, audits: VerifyCache, reads: BattleReads
    ) -> None:
        self.store = store
        self.signing = signing
        self.audits = audits
        self.reads = reads

    async def verify(
        self, battle_id: str, actor: Actor | None = None, receipts: Sequence[Receipt] = ()
    ) -> VerifyReport:
        """Audit the log as `actor` is given it (None or a referee: the whole log): the
        events it may not see by their links only, and only the dice it may see; and each
        receipt given (see service.battles.receipt_checks)."""
        stored = await self.store.read(battle_id)
        if not stored:
            raise NotFound(f"there is no battle {battle_id}", code="battle-not-found")
        referee = actor is None or actor.is_referee
        upto = 0  # if the log does not fold: audit it with every hidden event sealed
        if not referee:
            with contextlib.suppress(LogDamaged):
                upto = await self.reads.unsealed_upto(battle_id)
        view = ("referee", None, 0) if actor is None or referee else (actor.role, actor.side, upto)
        given = (
            stored
            if referee or actor is None
            else reader_log(stored, Sealer(actor, upto, ruleset=""))
        )  # asks `sees` only
        # Every call walks the whole chain; only the dice audit is reused
        # (service.battles.verify_cache).
        audit = self.audits.get(battle_id, view, given)
        cached = audit is not None
        if audit is None:
            audit = audit_log(given)
            self.audits.put(battle_id, view, given, audit)
        checks = check_receipts(battle_id, stored, receipts, self.signing)
        failed = [c for c in checks if c.status != "ok"]
        failure = None
        if audit.failed_version is not None:
            failure = VerifyFailure(version=audit.failed_version, reason=audit.reason or "")
        elif failed:
            failure = VerifyFailure(
                version=failed[0].version, reason=failed[0].detail, receipt=failed[0].receipt
            )
        return VerifyReport(
            battle_id=battle_id,
            ok=audit.ok and not failed,
            receipts_ok=not failed,
            receipts=checks,
            events_checked=audit.events_checked,
            chain_ok=audit.chain_ok,
            dice_ok=audit.dice_ok,
            dice_checked=audit.dice_checked,
            dice_pending=audit.dice_pending,
            client_dice=audit.client_dice,
            first_failure=failure,
            events_sealed=audit.events_sealed,
            cached=cached,
            origin=await battle_provenance(self, battle_id),
        )
