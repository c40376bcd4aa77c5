"""The reads of a battle: its view (now or at a version), the states at versions, a page
of its events, what it awaits in a reader's view, its disputes, its ruleset and how far
it is unsealed. Each loads the battle caught up with the store
(service.battles.repository) and seals what the reader may not see
(service.battles.sealing)."""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.battle import Battle
from domain.decider import Ruleset
from domain.prompts import Prompt
from events.store import EventStore
from service.battles.awaiting import AwaitingCache, awaiting_of
from service.battles.disputes import disputes_for
from service.battles.repository import BattleRepository, Loaded
from service.battles.sealing import Sealer, unsealed_upto
from service.errors import Unprocessable
from service.schemas import BattleView, DiceInfo, DisputeList, EventPage

__all__ = ["BattleReads"]


class BattleReads:
    """Queries of the battles of one event store, loaded through `repository`."""

    def __init__(
        self, store: EventStore, repository: BattleRepository, awaiting_cache: AwaitingCache
    ) -> None:
        self.store = store
        self.repository = repository
        self.awaiting_cache = awaiting_cache

    async def awaiting(
        self, battle_id: str, actor: Actor, version: int, loaded: Loaded | None = None
    ) -> list[Prompt]:
        """What the battle awaits right after `version` in `actor`'s view, computed once
        per view and version (service.battles.awaiting)."""

        async def compute() -> list[Prompt]:
            held = loaded or await self.repository.load(battle_id)
            # The head is folded already; an older version is refolded from a mark.
            current = held.battle
            battle = (
                current
                if current.version == version
                else await self.repository.state_at(battle_id, version, held)
            )
            return awaiting_of(held.ruleset, battle.game, actor)

        return await self.awaiting_cache.get(battle_id, version, actor, compute)

    async def view(self, battle_id: str, actor: Actor, version: int | None = None) -> BattleView:
        """The battle as `actor` sees it, now or right after `version`."""
        loaded = await self.repository.load(battle_id)
        current = loaded.battle.version
        if version is None:
            battle = loaded.battle
        elif not 1 <= version <= current:
            raise Unprocessable(
                f"version {version} is outside 1..{current}",
                code="version-out-of-range",
                current_version=current,
            )
        else:
            battle = await self.repository.state_at(battle_id, version, loaded)
        meta = battle.meta
        ruleset = loaded.ruleset
        return BattleView(
            battle_id=battle_id,
            title=meta.created.title,
            ruleset=meta.created.ruleset,
            ruleset_version=meta.created.ruleset_version,
            options=meta.created.options,
            version=battle.version,
            over=ruleset.is_over(battle.game),
            role=actor.role,
            side=actor.side,
            dice=DiceInfo(
                epoch=meta.dice_epoch,
                commitment=meta.commitments[meta.dice_epoch],
                revealed={str(k): v for k, v in meta.revealed.items()},
                commitments={str(k): v for k, v in meta.commitments.items()},
            ),
            state=ruleset.view(battle.game, actor),
            awaiting=await self.awaiting_at(battle_id, actor, battle, ruleset),
        )

    async def awaiting_at(
        self,
        battle_id: str,
        actor: Actor,
        battle: Battle,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
    ) -> list[Prompt]:
        """`awaiting` for `battle`, a state the caller holds already: the view a command's
        answer computed for this version serves the next read of it, and the other way
        round (service.battles.awaiting)."""

        async def compute() -> list[Prompt]:
            return awaiting_of(ruleset, battle.game, actor)

        return await self.awaiting_cache.get(battle_id, battle.version, actor, compute)

    async def states(self, battle_id: str, start: int, stop: int) -> list[Battle]:
        """The states right after `start`..`stop` (service.battles.repository)."""
        return await self.repository.states(await self.repository.load(battle_id), start, stop)

    async def events(self, battle_id: str, actor: Actor, after: int, limit: int) -> EventPage:
        """Up to `limit` events after version `after`, sealed for `actor`, the undone ones
        marked."""
        loaded = await self.repository.load(battle_id)
        head = loaded.battle.version
        stored = await self.store.read(battle_id, after=after, limit=limit)
        undone = loaded.timeline.undone() if loaded.timeline.has_undo else set()
        last = stored[-1].version if stored else after
        meta = loaded.battle.meta
        sealer = Sealer(actor, unsealed_upto(meta), meta.created.ruleset)
        return EventPage(
            battle_id=battle_id,
            version=head,
            events=[sealer.out(e, e.version in undone) for e in stored],
            next_after=last if stored and last < head else None,
        )

    async def ruleset_of(self, battle_id: str) -> str:
        """The id of the battle's ruleset (it never changes)."""
        return (await self.repository.load(battle_id)).battle.meta.created.ruleset

    async def disputes(self, battle_id: str, actor: Actor) -> DisputeList:
        """The disputes `actor` may read (service.battles.disputes)."""
        loaded = await self.repository.load(battle_id)
        found = await disputes_for(self.store, battle_id, loaded.battle, actor)
        return DisputeList(battle_id=battle_id, disputes=found)

    async def unsealed_upto(self, battle_id: str) -> int:
        """The last version of the battle every reader is given whole (0: none yet)."""
        return unsealed_upto((await self.repository.load(battle_id)).battle.meta)
