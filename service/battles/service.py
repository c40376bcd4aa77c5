"""The application shell: `BattleService`, what every route calls.

One `BattleService` per process, over one event store. It keeps recently used battles
folded in memory (`Timeline`s, service.battles.repository); every read first catches up
from the store, and every command is decided on the cached state and appended with that
state's version as the expected version, so a worker that fell behind finds out from the
store and decides again.

It wires the parts and hands each call to the one whose job it is: commands to
service.battles.commands (deciding in service.battles.request_decider and
service.battles.deciding, answers in service.battles.answers), reads to
service.battles.reads, `/verify` to service.battles.verifying, dice seeds to
service.battles.dice_secrets and service.battles.dice_reveal, and creating and forking
to service.battles.creating (service.battles.founding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.actors import Actor
from domain.battle import Battle, Timeline
from domain.decider import Ruleset
from domain.prompts import Prompt
from events.envelope import StoredEvent
from events.receipts import Receipt
from events.store import EventStore
from service.battles import clock
from service.battles.answers import Answers
from service.battles.awaiting import AwaitingCache
from service.battles.batches import DEFAULT_BATCH_MAX
from service.battles.cache import DEFAULT_CACHE_MB
from service.battles.commands import MAX_ATTEMPTS, CommandRunner
from service.battles.creating import create_battle, fork_battle
from service.battles.deciding import Decider
from service.battles.dice_reveal import REVEAL_DICE, reveal_answer
from service.battles.dice_secrets import DiceSecrets
from service.battles.group_commit import ROUND_COMMANDS
from service.battles.keys import KeyRing, Principal
from service.battles.reads import BattleReads
from service.battles.record_macs import RecordMacs
from service.battles.repository import BattleRepository, Loaded
from service.battles.request_decider import RequestDecider
from service.battles.sealing import event_out
from service.battles.secrets_at_rest import SecretBox
from service.battles.signing import ServiceKeys
from service.battles.snapshots import DEFAULT_SNAPSHOT_EVERY, SnapshotSeal
from service.battles.verify_cache import VerifyCache
from service.battles.verifying import Verifier
from service.schemas import (
    BattleCreatedResponse,
    BattleView,
    CommandBatchRequest,
    CommandRequest,
    CommandResponse,
    CreateBattleRequest,
    DiceReveal,
    DisputeList,
    EventPage,
    ForkBattleRequest,
    VerifyReport,
)

__all__ = ["BattleService", "event_out"]


class BattleService:
    """Commands and queries of battles over one event store."""

    def __init__(
        self,
        store: EventStore,
        *,
        signing: ServiceKeys,
        cache_mb: float = DEFAULT_CACHE_MB,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        on_appended: Callable[[list[StoredEvent]], None] | None = None,
        verify_cache_seconds: int = 60,
        command_attempts: int = MAX_ATTEMPTS,
        hold_battles: bool = False,
        batch_max: int = DEFAULT_BATCH_MAX,
        round_commands: int = ROUND_COMMANDS,
    ) -> None:
        self.store = store
        self.batch_max = batch_max  # the most commands one batch may hold (BATTLE_BATCH_MAX)
        # How often a command is decided again when its battle moved on meanwhile
        # (BATTLE_COMMAND_ATTEMPTS), before a 503 battle-busy.
        self.command_attempts = command_attempts
        self.audits = VerifyCache(verify_cache_seconds)
        # Told of every append this process makes (the live fan-out), after it committed.
        self._on_appended = on_appended or (lambda events: None)
        self.signing = signing  # signs receipts; the secrets at rest derive from it
        self.secrets = SecretBox(signing)
        self.keys = KeyRing(store, RecordMacs(signing))
        # Loading: the cache, stored snapshots, integrity checks, catch-up, the hold.
        self.repository = BattleRepository(
            store,
            SnapshotSeal(signing),
            cache_mb=cache_mb,
            snapshot_every=snapshot_every,
            hold_battles=hold_battles,
        )
        self.snapshots = self.repository.snapshots  # flushed on shutdown (service.app)
        # What each (battle, version, actor) view awaits, for the live streams and webhooks.
        self.awaiting_cache = AwaitingCache()
        self._cache = self.repository.cache  # the tests and the bench look into it
        self.dice = DiceSecrets(store, self.secrets)
        self.reads = BattleReads(store, self.repository, self.awaiting_cache)
        self.commands = CommandRunner(
            store,
            self.repository,
            RequestDecider(Decider(store, self.dice), self.repository),
            Answers(store, self.repository, signing, self.reads),
            on_appended=self._on_appended,
            command_attempts=command_attempts,
            batch_max=batch_max,
            round_commands=round_commands,
        )
        self.verifier = Verifier(store, signing, self.audits, self.reads)

    # -- loading (service.battles.repository) -------------------------------------------

    async def loaded(self, battle_id: str) -> Loaded:
        """The battle folded in memory, caught up with the store."""
        return await self.repository.load(battle_id)

    async def state_at(self, battle_id: str, version: int, loaded: Loaded | None = None) -> Battle:
        """The state right after `version` (1 <= version <= the battle's current version),
        from memory or, when it is older than what the cache holds, from the store.
        `loaded`: the battle, already loaded and caught up by the caller."""
        return await self.repository.state_at(battle_id, version, loaded)

    # -- founding (service.battles.creating, service.battles.founding) ------------------

    async def create(
        self,
        req: CreateBattleRequest,
        idempotency_key: str | None = None,
        integration_id: str | None = None,
    ) -> BattleCreatedResponse:
        """Create a battle, followed by `integration_id` if given."""
        return await create_battle(self, req, idempotency_key, integration_id)

    async def fork(
        self,
        parent_id: str,
        principal: Principal,
        req: ForkBattleRequest,
        idempotency_key: str | None = None,
    ) -> BattleCreatedResponse:
        """A new battle starting as `parent_id` right after version `req.at_version`."""
        return await fork_battle(self, parent_id, principal, req, idempotency_key)

    async def new_seed(self, battle_id: str) -> tuple[bytes, str]:
        """A new secret dice seed for the battle, stored, and its commitment."""
        return await self.dice.new_seed(battle_id, None)

    async def new_sub_seeds(
        self, battle_id: str, commit: str, sides: Sequence[str]
    ) -> tuple[dict[str, bytes], dict[str, str]]:
        """The sub-seeds of a new battle's first epoch (service.battles.founding)."""
        return await self.dice.new_sub_seeds(battle_id, None, commit, sides)

    @staticmethod
    def now() -> str:
        return clock.now()

    def adopt(
        self,
        battle_id: str,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        timeline: Timeline,
        stored: list[StoredEvent],
        seeds: dict[str, bytes],
    ) -> None:
        """Take a battle just founded by this process: publish its first event, cache it."""
        self._on_appended(stored)
        loaded = self.repository.keep(Loaded(battle_id, ruleset, timeline, stored[-1].hash))
        loaded.seeds.update(seeds)

    # -- commands (service.battles.commands) --------------------------------------------

    async def execute(
        self,
        battle_id: str,
        principal: Principal,
        req: CommandRequest,
        idempotency_key: str | None,
        *,
        with_awaiting: bool = True,
    ) -> CommandResponse:
        """Run a command: find a replayed one, load, decide, append with the expected
        version (deciding again when the battle moved on), remember, answer (with what
        the battle awaits then unless `with_awaiting` is False: Prefer: return=minimal)."""
        return await self.commands.execute(
            battle_id, principal, req, idempotency_key, with_awaiting=with_awaiting
        )

    async def execute_batch(
        self,
        battle_id: str,
        principal: Principal,
        req: CommandBatchRequest,
        idempotency_key: str | None,
        *,
        with_awaiting: bool = True,
    ) -> CommandResponse:
        """Run a batch of commands, all or none (service.battles.batches): each decided on
        the state the ones before it left, every event appended at once."""
        return await self.commands.execute_batch(
            battle_id, principal, req, idempotency_key, with_awaiting=with_awaiting
        )

    async def reveal(
        self, battle_id: str, principal: Principal, idempotency_key: str | None
    ) -> DiceReveal:
        """Reveal the dice seed of the current epoch and commit the next (a `RevealDice`
        command; service.battles.dice_reveal)."""
        response = await self.execute(
            battle_id, principal, CommandRequest(command=REVEAL_DICE), idempotency_key
        )
        return reveal_answer(battle_id, response)

    # -- queries (service.battles.reads, service.battles.verifying) ----------------------

    async def awaiting(
        self, battle_id: str, actor: Actor, version: int, loaded: Loaded | None = None
    ) -> list[Prompt]:
        """What the battle awaits right after `version` in `actor`'s view, computed once
        per view and version (service.battles.awaiting)."""
        return await self.reads.awaiting(battle_id, actor, version, loaded)

    async def view(self, battle_id: str, actor: Actor, version: int | None = None) -> BattleView:
        """The battle as `actor` sees it, now or right after `version`."""
        return await self.reads.view(battle_id, actor, version)

    async def states(self, battle_id: str, start: int, stop: int) -> list[Battle]:
        """The states right after `start`..`stop` (1 <= start <= stop <= the current
        version), each event folded once: from the cached timeline where it holds them,
        else from the store, one snapshot interval at a time going back."""
        return await self.reads.states(battle_id, start, stop)

    async def events(self, battle_id: str, actor: Actor, after: int, limit: int) -> EventPage:
        """Up to `limit` events after version `after`, sealed for `actor`."""
        return await self.reads.events(battle_id, actor, after, limit)

    async def ruleset_of(self, battle_id: str) -> str:
        """The id of the battle's ruleset (it never changes)."""
        return await self.reads.ruleset_of(battle_id)

    async def disputes(self, battle_id: str, actor: Actor) -> DisputeList:
        """The disputes `actor` may read (service.battles.disputes)."""
        return await self.reads.disputes(battle_id, actor)

    async def unsealed_upto(self, battle_id: str) -> int:
        """The last version of the battle every reader is given whole (0: none yet)."""
        return await self.reads.unsealed_upto(battle_id)

    async def verify(
        self, battle_id: str, actor: Actor | None = None, receipts: Sequence[Receipt] = ()
    ) -> VerifyReport:
        """Audit the log as `actor` is given it, and each receipt given
        (service.battles.verifying)."""
        return await self.verifier.verify(battle_id, actor, receipts)
