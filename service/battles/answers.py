"""A command's answer: the events it appended, sealed for the caller, a signed receipt of
the new head and what the battle awaits then; and the first answer again, for a
command whose Idempotency-Key was seen before (a replay)."""

from __future__ import annotations

import msgspec

from domain.actors import Actor, can_see
from domain.battle import Battle
from events.envelope import CommandRecord, StoredEvent
from events.errors import IdempotencyMismatch
from events.store import EventStore
from service.battles.reads import BattleReads
from service.battles.repository import BattleRepository, Loaded
from service.battles.sealing import Sealer, unsealed_upto
from service.battles.signing import ServiceKeys
from service.schemas import CommandResponse

__all__ = ["Answers"]


class Answers:
    """The answers of commands, signed with `signing`; what a battle awaits from `reads`."""

    def __init__(
        self,
        store: EventStore,
        repository: BattleRepository,
        signing: ServiceKeys,
        reads: BattleReads,
    ) -> None:
        self.store = store
        self.repository = repository
        self.signing = signing
        self.reads = reads

    async def answer(
        self,
        loaded: Loaded,
        battle: Battle,
        actor: Actor,
        stored: list[StoredEvent],
        with_awaiting: bool = True,
        head_hash: str | None = None,
        after: Battle | None = None,
    ) -> CommandResponse:
        """A command's answer: the events it appended, sealed for `actor`, a signed
        receipt of the new head (none appended: `battle`, the state it was decided on,
        whose last event hashes to `head_hash`, by default the cached battle's head), and
        what the battle awaits then in `actor`'s view (unless not `with_awaiting`): in
        `after`, the state the events left, when the caller has it."""
        battle_id = loaded.battle_id
        if not stored:
            return CommandResponse(
                battle_id=battle_id,
                version=battle.version,
                events=[],
                receipt=self.signing.receipt(
                    battle_id, battle.version, loaded.head_hash if head_hash is None else head_hash
                ),
                awaiting=await self.reads.awaiting_at(battle_id, actor, battle, loaded.ruleset)
                if with_awaiting
                else msgspec.UNSET,
            )
        meta = loaded.battle.meta
        sealer = Sealer(actor, unsealed_upto(meta), meta.created.ruleset)
        head = stored[-1]
        return CommandResponse(
            battle_id=battle_id,
            version=head.version,
            events=[sealer.out(e) for e in stored],
            receipt=self.signing.receipt(battle_id, head.version, head.hash),
            awaiting=msgspec.UNSET
            if not with_awaiting
            else await self.reads.awaiting(battle_id, actor, head.version, loaded)
            if after is None
            else await self.reads.awaiting_at(battle_id, actor, after, loaded.ruleset),
        )

    async def replayed(
        self,
        battle_id: str,
        actor: Actor,
        command_id: str | None,
        request_hash: str,
        with_awaiting: bool = True,
    ) -> CommandResponse | None:
        """The first answer again, when the command's Idempotency-Key was seen before."""
        if command_id is None:
            return None
        previous = await self.store.find_command(battle_id, command_id)
        return (
            None
            if previous is None
            else await self._replay(battle_id, actor, previous, request_hash, with_awaiting)
        )

    async def _replay(
        self,
        battle_id: str,
        actor: Actor,
        previous: CommandRecord,
        request_hash: str,
        with_awaiting: bool = True,
    ) -> CommandResponse:
        if previous.request_hash != request_hash:
            raise IdempotencyMismatch(
                f"Idempotency-Key {previous.command_id} was already used for another request "
                "to this battle",
                battle_id=battle_id,
                command_id=previous.command_id,
            )
        last = previous.last_version
        stored = await self.store.read(battle_id, after=previous.first_version - 1, upto=last)
        head = (
            stored[-1] if stored else (await self.store.read(battle_id, after=last - 1, limit=1))[0]
        )
        meta = (await self.repository.load(battle_id)).battle.meta
        upto = 0 if all(can_see(actor, e.audience) for e in stored) else unsealed_upto(meta)
        sealer = Sealer(actor, upto, meta.created.ruleset)
        return CommandResponse(
            battle_id=battle_id,
            version=last,
            events=[sealer.out(e) for e in stored],
            replayed=True,
            receipt=self.signing.receipt(battle_id, last, head.hash),
            awaiting=await self.reads.awaiting(battle_id, actor, last)
            if with_awaiting
            else msgspec.UNSET,
        )
