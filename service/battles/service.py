"""The application shell: load a battle, fold, decide, append with the expected version, answer.

One `BattleService` per process. It keeps recently used battles folded in memory
(`Timeline`s); every read first catches up from the store, and every command is
decided on the cached state and appended with that state's version as the expected
version, so a worker that fell behind finds out from the store and decides again.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Union, get_args

import msgspec

from domain.actors import ALL, Actor, can_see
from domain.battle import (
    Battle,
    BattleMeta,
    BattleUndone,
    DiceSeedRevealed,
    DiceSubSeedRevealed,
    RulingRecorded,
    Timeline,
)
from domain.battle_commands import (
    BATTLE_COMMAND_TYPES,
    BattleCommand,
    BattleCommandBase,
    RaiseDispute,
    RecordRuling,
    ResolveDispute,
    RevealDice,
    SetClientSeed,
    Undo,
    decide_battle_command,
)
from domain.decider import Ruleset
from domain.dice import ServerDice, SuppliedDice, client_seed_for, commitment
from domain.disputes import check_not_paused, decide_raise, decide_resolution
from domain.errors import DiceError, DomainError, NotPermitted, RuleViolation
from domain.prompts import Prompt
from domain.rulesets import RULESETS
from events.chain import encode_event, seal
from events.dice_streams import check_streams, hidden_audiences, sub_seeds
from events.envelope import CommandRecord, PendingEvent, StoredEvent
from events.errors import DuplicateCommand, IdempotencyMismatch, LogDamaged, VersionConflict
from events.receipts import Receipt
from events.store import EventStore
from events.verify import audit_log
from service.battles.awaiting import AwaitingCache, awaiting_of
from service.battles.batches import (
    DEFAULT_BATCH_MAX,
    BatchTooLong,
    batch_request_hash,
    check_batchable,
    named,
    state_after,
)
from service.battles.batches import request_hash as request_hash_of
from service.battles.cache import DEFAULT_CACHE_MB
from service.battles.disputes import correction_item, disputed_hidden, disputes_for
from service.battles.creating import create_battle, fork_battle
from service.battles.keys import KeyRing, Principal, check_units
from service.battles.provenance import battle_provenance
from service.battles.receipt_checks import check_receipts
from service.battles.record_macs import RecordMacs
from service.battles.repository import BattleRepository, Loaded
from service.battles.sealing import Sealer, draw_salts, event_out, reader_log, unsealed_upto
from service.battles.secrets_at_rest import SecretBox, SecretDamaged
from service.battles.signing import ServiceKeys
from service.battles.snapshots import (
    DEFAULT_SNAPSHOT_EVERY,
    SnapshotSeal,
)
from service.battles.verify_cache import VerifyCache
from service.decoding import UNREADABLE, invalid_body
from service.errors import BadRequest, Busy, Forbidden, NotFound, ServiceError, Unprocessable
from service.schemas import (
    BattleCreatedResponse,
    BattleView,
    CommandBatchItem,
    CommandBatchRequest,
    CommandRequest,
    CommandResponse,
    CreateBattleRequest,
    DiceInfo,
    DiceReveal,
    DisputeList,
    EventOut,
    EventPage,
    ForkBattleRequest,
    VerifyFailure,
    VerifyReport,
)

__all__ = ["BattleService", "event_out"]

# A command without an expected version is decided again on the newer state after every
# conflict: each conflict means another worker appended, so the battle moves on, and a
# few jittered pauses keep workers from meeting in lockstep. With four workers hammering
# one battle an attempt wins about one time in four: 100 attempts all lose about once
# in 10^12. Past that the answer is 503 (busy, retry), never 409: a 409 only ever means
# that the client's expected version is stale.
_MAX_ATTEMPTS = 100


def _tag(event: msgspec.Struct) -> str:
    return str(event.__struct_config__.tag)


_second: tuple[int, str] = (-1, "")


def _now() -> str:
    """The time of recording, to the millisecond (ISO 8601, UTC). The date and time of
    day are formatted once per second: under load many commands share the second."""
    global _second
    sec, ms = divmod(time.time_ns() // 1_000_000, 1000)
    if sec != _second[0]:
        _second = (sec, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)))
    return f"{_second[1]}.{ms:03d}Z"


def _sub_name(commit: str) -> str:
    # The secret of an epoch's sub-seeds, named by the commitment of the epoch's seed.
    return f"sub-seeds:{commit}"


def _seed_name(commit: str) -> str:
    # Named by commitment, not epoch: two workers racing to commit a new seed never
    # overwrite each other's secret, whichever of their events wins the append.
    return f"seed:{commit}"


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
        command_attempts: int = _MAX_ATTEMPTS,
        hold_battles: bool = False,
        batch_max: int = DEFAULT_BATCH_MAX,
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

    # -- loading (service.battles.repository) -------------------------------------------

    async def loaded(self, battle_id: str) -> Loaded:
        """The battle folded in memory, caught up with the store."""
        return await self.repository.load(battle_id)

    async def state_at(self, battle_id: str, version: int, loaded: Loaded | None = None) -> Battle:
        """The state right after `version` (1 <= version <= the battle's current version),
        from memory or, when it is older than what the cache holds, from the store.
        `loaded`: the battle, already loaded and caught up by the caller."""
        return await self.repository.state_at(battle_id, version, loaded)

    async def _seed(self, battle_id: str, loaded: Loaded, commit: str) -> bytes:
        seed = loaded.seeds.get(commit)
        if seed is None:
            name = _seed_name(commit)
            stored = await self.store.load_secret(battle_id, name)
            if stored is None:
                raise RuntimeError(f"the dice seed of battle {battle_id} is missing")
            # Sealed since secrets are encrypted at rest; a seed stored before is in clear.
            seed = (
                self.secrets.open_secret(battle_id, name, stored)
                if self.secrets.is_sealed(stored)
                else stored
            )
            if commitment(seed) != commit:  # bound to the commitment in the chain
                raise SecretDamaged(
                    f"the stored dice seed of battle {battle_id} does not match its "
                    f"commitment {commit}: refused"
                )
            loaded.seeds[commit] = seed
        return seed

    async def _sub_seeds(
        self, battle_id: str, loaded: Loaded, meta: BattleMeta
    ) -> dict[str, bytes]:
        """The sub-seeds of the current epoch's hidden dice (none for an epoch committed
        before they existed), each checked against its commitment in the chain."""
        epoch = meta.dice_epoch
        subs = meta.sub_commitments.get(epoch, {})
        out: dict[str, bytes] = {}
        for audience, commit in subs.items():
            seed = loaded.seeds.get(commit)
            if seed is None:
                name = _sub_name(meta.commitments[epoch])
                stored = await self.store.load_secret(battle_id, name)
                if stored is None:
                    raise RuntimeError(f"the hidden dice secret of battle {battle_id} is missing")
                derived = sub_seeds(self.secrets.open_secret(battle_id, name, stored), subs)
                for a, c in subs.items():
                    if commitment(derived[a]) != c:  # bound to the commitments in the chain
                        raise SecretDamaged(
                            f"the stored hidden dice secret of battle {battle_id} does not "
                            f"match the commitment of {a}'s sub-seed {c}: refused"
                        )
                    loaded.seeds[c] = derived[a]
                seed = derived[audience]
            out[audience] = seed
        return out

    async def _new_sub_seeds(
        self, battle_id: str, loaded: Loaded | None, commit: str, sides: Sequence[str]
    ) -> tuple[dict[str, bytes], dict[str, str]]:
        """A new secret for the hidden dice of the epoch whose seed is committed as
        `commit`, stored beside it; each audience's sub-seed and its commitment."""
        secret = os.urandom(32)
        name = _sub_name(commit)
        await self.store.save_secret(
            battle_id, name, self.secrets.seal_secret(battle_id, name, secret)
        )
        seeds = sub_seeds(secret, hidden_audiences(sides))
        commits = {a: commitment(s) for a, s in seeds.items()}
        if loaded is not None:
            loaded.seeds.update({commits[a]: s for a, s in seeds.items()})
        return seeds, commits

    async def new_sub_seeds(
        self, battle_id: str, commit: str, sides: Sequence[str]
    ) -> tuple[dict[str, bytes], dict[str, str]]:
        """The sub-seeds of a new battle's first epoch (service.battles.founding)."""
        return await self._new_sub_seeds(battle_id, None, commit, sides)

    async def _new_seed(self, battle_id: str, loaded: Loaded | None) -> tuple[bytes, str]:
        seed = os.urandom(32)
        commit = commitment(seed)
        name = _seed_name(commit)
        await self.store.save_secret(
            battle_id, name, self.secrets.seal_secret(battle_id, name, seed)
        )
        if loaded is not None:
            loaded.seeds[commit] = seed
        return seed, commit

    # -- founding (service.battles.founding) ---------------------------------------------------

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
        return await self._new_seed(battle_id, None)

    @staticmethod
    def now() -> str:
        return _now()

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

    # -- commands -----------------------------------------------------------------------

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
        if principal.actor.role == "observer":
            raise Forbidden("an observer key may only read", code="read-only-key")
        request_hash = (
            ""
            if idempotency_key is None
            else request_hash_of(req, principal.actor, principal.key_id)
        )
        return await self._run(
            battle_id,
            principal,
            [req],
            req.expected_version,
            idempotency_key,
            request_hash,
            with_awaiting=with_awaiting,
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
        if principal.actor.role == "observer":
            raise Forbidden("an observer key may only read", code="read-only-key")
        if len(req.commands) > self.batch_max:
            raise BatchTooLong(
                f"the batch holds {len(req.commands)} commands; this service takes at most "
                f"{self.batch_max} in one batch (BATTLE_BATCH_MAX): split it",
                limit=self.batch_max,
            )
        request_hash = (
            ""
            if idempotency_key is None
            else batch_request_hash(req, principal.actor, principal.key_id)
        )
        return await self._run(
            battle_id,
            principal,
            req.commands,
            req.expected_version,
            idempotency_key,
            request_hash,
            batch=True,
            with_awaiting=with_awaiting,
        )

    async def _run(
        self,
        battle_id: str,
        principal: Principal,
        commands: Sequence[CommandRequest | CommandBatchItem],
        expected_version: int | None,
        idempotency_key: str | None,
        request_hash: str,
        *,
        batch: bool = False,
        with_awaiting: bool = True,
    ) -> CommandResponse:
        """Find a replayed request, load, decide its commands, append them at once with
        the expected version (deciding again when the battle moved on), remember, answer."""
        actor = principal.actor
        replayed = await self._replayed(
            battle_id, actor, idempotency_key, request_hash, with_awaiting
        )
        if replayed is not None:
            return replayed
        # A command decides on the cached state as it is: the append checks it is current.
        loaded = await self.repository.load(battle_id, catch_up=False)
        await loaded.lock.acquire()  # not `async with`: one coroutine fewer per command
        hold = None
        try:
            hold = await self.repository.hold(loaded)  # across workers (BATTLE_HOLD_BATTLES)
            for attempt in range(self.command_attempts):
                battle = await self.repository.at_version(loaded, expected_version)
                pending, events, game_after = await self._decide_all(
                    loaded, battle, principal, commands, idempotency_key, batch
                )
                if not pending:
                    return await self._answer(loaded, battle, actor, [], with_awaiting)
                record = _command_record(idempotency_key, request_hash, pending)
                try:
                    stored = await self.store.append(battle_id, battle.version, pending, record)
                except VersionConflict as conflict:
                    await self.repository.moved_on(loaded, battle.version, conflict)
                    if expected_version is not None:
                        raise VersionConflict(
                            battle_id, expected_version, loaded.battle.version
                        ) from None
                    await _pause(attempt)
                    continue
                except DuplicateCommand:  # the same Idempotency-Key, appended meanwhile
                    await self.repository.catch_up(loaded)
                    replayed = await self._replayed(
                        battle_id, actor, idempotency_key, request_hash, with_awaiting
                    )
                    assert replayed is not None
                    return replayed
                if hold is not None:  # appended: the next decision may go on elsewhere
                    await hold.release()
                    hold = None
                self._on_appended(stored)
                await self.repository.remember(loaded, battle.version, events, game_after, stored)
                return await self._answer(loaded, battle, actor, stored, with_awaiting)
            raise Busy(
                f"battle {battle_id} moved on {self.command_attempts} times while this command "
                "was decided: nothing was appended; retry",
                code="battle-busy",
                current_version=loaded.battle.version,
            )
        finally:
            if hold is not None:
                await hold.release()
            loaded.lock.release()

    async def _decide_all(
        self,
        loaded: Loaded,
        battle: Battle,
        principal: Principal,
        commands: Sequence[CommandRequest | CommandBatchItem],
        command_id: str | None,
        batch: bool,
        prev_hash: str | None = None,
        dispute: str | None = None,
    ) -> tuple[list[PendingEvent], list[Any], Any]:
        """The commands decided one after the other, each on the state the ones before it
        left, and chained: (the envelopes to append, the events, the game state after
        them when the last command's decider folded them, else None). In a batch a
        refusal names the command by its index (service.battles.batches). `dispute`: the
        dispute whose correction they are (each of their events names it)."""
        pending: list[PendingEvent] = []
        events: list[Any] = []
        game_after: Any = None
        # `prev_hash`: the hash of `battle`'s event, when it is not the stored head yet
        at, last = battle, len(commands) - 1
        prev_hash = loaded.head_hash if prev_hash is None else prev_hash
        for index, req in enumerate(commands):
            try:
                command = _decode_command(loaded.ruleset, req.command)
                if batch:
                    check_batchable(command)
                if isinstance(command, ResolveDispute):  # alone, never in a batch
                    return await self._resolve(loaded, at, principal, command, command_id)
                decided, game_after = await self._decide(
                    loaded, at, principal.actor, req, batch, principal, command
                )
            except (DomainError, ServiceError) as e:
                if batch:
                    named(e, index)
                raise
            if not decided:
                continue
            sealed = self._sealed(loaded, at, prev_hash, principal, decided, command_id, dispute)
            pending += sealed
            prev_hash = sealed[-1].hash
            decided_events = [ev for ev, _ in decided]
            events += decided_events
            if index < last:  # the state the next command is decided on
                at = state_after(loaded.ruleset, at, decided_events, game_after)
        return pending, events, game_after

    async def _resolve(
        self,
        loaded: Loaded,
        battle: Battle,
        principal: Principal,
        command: ResolveDispute,
        command_id: str | None,
    ) -> tuple[list[PendingEvent], list[Any], Any]:
        """A dispute settled (service.battles.disputes): its correction, an undo then the
        commands replacing what it undid, each chained as a command of its own, then the
        `DisputeResolved` naming the correcting versions, all in one append. A refused
        correction command refuses the whole resolution, its `index` named."""
        head = decide_resolution(battle, command, principal.actor)
        pending: list[PendingEvent] = []
        events: list[Any] = []
        at, prev_hash = battle, loaded.head_hash
        undo_to = command.undo_to
        if undo_to is not None:
            undo = BattleUndone(to_version=undo_to, reason=f"dispute {head.dispute_id}")
            pending += self._sealed(
                loaded, at, prev_hash, principal, [(undo, ALL)], command_id, head.dispute_id
            )
            prev_hash, events = pending[-1].hash, [undo]
            target = await self.state_at(loaded.battle_id, undo_to, loaded)
            at = Battle(version=at.version + 1, meta=at.meta, game=target.game)
        items = [correction_item(item) for item in command.corrections]
        if items:  # decided as a batch is: a refusal names the correction's index
            more, corrected, _ = await self._decide_all(
                loaded, at, principal, items, command_id, True, prev_hash, head.dispute_id
            )
            pending, events = pending + more, events + corrected
            prev_hash = pending[-1].hash if pending else prev_hash
        last = battle.version + len(pending)
        resolved = msgspec.structs.replace(
            head, correcting_versions=list(range(battle.version + 1, last + 1))
        )
        pending += self._sealed(
            loaded,
            msgspec.structs.replace(at, version=last),
            prev_hash,
            principal,
            [(resolved, resolved.audience)],
            command_id,
        )
        return pending, [*events, resolved], None

    def _sealed(
        self,
        loaded: Loaded,
        battle: Battle,
        prev_hash: str,
        principal: Principal,
        decided: list[tuple[Any, str]],
        command_id: str | None,
        dispute: str | None = None,
    ) -> list[PendingEvent]:
        """The decided events as envelopes after `battle`'s version (whose event hashes to
        `prev_hash`): hidden ones salted, each chained to the one before
        (service.battles.sealing, events.chain); naming `dispute` when they are its
        correction (issue 36)."""
        return seal(
            battle_id=loaded.battle_id,
            prev_version=battle.version,
            prev_hash=prev_hash,
            items=[(_tag(ev), encode_event(ev), audience) for ev, audience in decided],
            recorded_at=_now(),
            actor=principal.event_actor,
            command_id=command_id,
            salts=draw_salts([audience for _, audience in decided]),
            # Chain format 2: the command is numbered by its first event (which is
            # also the version its server dice are counted from).
            command_version=battle.version + 1 if battle.meta.created.chain_format >= 2 else None,
            dispute=dispute,
        )

    async def _answer(
        self,
        loaded: Loaded,
        battle: Battle,
        actor: Actor,
        stored: list[StoredEvent],
        with_awaiting: bool = True,
    ) -> CommandResponse:
        """A command's answer: the events it appended, sealed for `actor`, a signed
        receipt of the new head (none appended: `battle`, the state it was decided on),
        and what the battle awaits then in `actor`'s view (unless not `with_awaiting`)."""
        battle_id = loaded.battle_id
        if not stored:
            return CommandResponse(
                battle_id=battle_id,
                version=battle.version,
                events=[],
                receipt=self.signing.receipt(battle_id, battle.version, loaded.head_hash),
                awaiting=awaiting_of(loaded.ruleset, battle.game, actor)
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
            awaiting=await self.awaiting(battle_id, actor, head.version, loaded)
            if with_awaiting
            else msgspec.UNSET,
        )

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
                else await self.state_at(battle_id, version, held)
            )
            return awaiting_of(held.ruleset, battle.game, actor)

        return await self.awaiting_cache.get(battle_id, version, actor, compute)

    async def _replayed(
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
            awaiting=await self.awaiting(battle_id, actor, last)
            if with_awaiting
            else msgspec.UNSET,
        )

    async def _decide(
        self,
        loaded: Loaded,
        battle: Battle,
        actor: Actor,
        req: CommandRequest | CommandBatchItem,
        batch: bool = False,
        principal: Principal | None = None,
        command: Any = None,
    ) -> tuple[list[tuple[Any, str]], Any]:
        """The events the command produces, each with its audience; and the game state
        after them when they are all the ruleset's (None otherwise). `principal`: the
        key's, when it may be a player key limited to some units; `command`: `req`'s,
        when decoded already."""
        battle_id, ruleset = loaded.battle_id, loaded.ruleset
        typed_for = getattr(req, "ruleset", None)  # batch items carry none
        if typed_for is not None and typed_for != ruleset.id:
            # A body typed for another ruleset (service.openapi.event_schemas): refused as
            # a command of another ruleset is, though its command may decode here.
            raise Unprocessable(
                f"this body is typed for the {typed_for!r} ruleset; battle {battle_id} "
                f"plays {ruleset.id!r}",
                code="wrong-ruleset",
            )
        if command is None:
            command = _decode_command(ruleset, req.command)
        if batch:
            check_batchable(command)
        check_not_paused(battle, actor)  # pause_on_dispute: the referee alone, while one is open
        if isinstance(command, BattleCommandBase) and req.dice is not None:
            raise DiceError(f"{_tag(command)} rolls no dice")
        if isinstance(command, RevealDice):
            return await self._reveal_events(battle_id, loaded, battle, actor, "requested"), None
        if isinstance(command, RaiseDispute):
            hidden = await disputed_hidden(self.store, battle_id, battle, command.versions)
            raised = decide_raise(battle, command, actor, hidden)
            return [(raised, raised.audience)], None
        if isinstance(command, Undo | RecordRuling | SetClientSeed):
            return [
                (ev, ev.audience if isinstance(ev, RulingRecorded) else ALL)
                for ev in decide_battle_command(battle, command, actor)
            ], None
        game = battle.game
        if ruleset.is_over(game):
            raise RuleViolation("the battle is over: no more orders")
        policy = battle.meta.created.client_dice
        if req.dice is not None and (
            policy == "none" or (policy == "referee" and not actor.is_referee)
        ):
            raise NotPermitted(
                "this battle does not accept dice from this key "
                f"(client dice: {policy}); leave out 'dice' to use the server's dice"
            )
        # After the dice check: authorize may judge the command on what the actor sees, and
        # the order of the two answers must not tell whether anything is hidden from it.
        ruleset.authorize(game, command, actor)
        if principal is not None and principal.units is not None:
            ordering = ruleset.ordered_units
            check_units(principal, None if ordering is None else ordering(game, command))
        dice: ServerDice | SuppliedDice
        if req.dice is not None:
            dice = SuppliedDice(req.dice)
        else:
            epoch = battle.meta.dice_epoch
            commit = battle.meta.commitments[epoch]
            dice = ServerDice(
                seed=await self._seed(battle_id, loaded, commit),
                epoch=epoch,
                battle_id=battle_id,
                version=battle.version + 1,
                client_seed=client_seed_for(req.client_seed, battle.meta.client_seeds),
                sub_seeds=await self._sub_seeds(battle_id, loaded, battle.meta),
            )
        if ruleset.decide_folded is not None:
            events, after = ruleset.decide_folded(game, command, dice)
        else:
            events = ruleset.decide(game, command, dice)
            after = game
            for ev in events:
                after = ruleset.evolve(after, ev)
        decided: list[tuple[Any, str]] = [(ev, ruleset.audience(ev)) for ev in events]
        if isinstance(dice, SuppliedDice):
            dice.finish()
        else:
            check_streams(dice, decided)
        if events and ruleset.is_over(after):
            decided += await self._reveal_events(battle_id, loaded, battle, actor, "battle-over")
        return decided, after

    async def _reveal_events(
        self, battle_id: str, loaded: Loaded, battle: Battle, actor: Actor, reason: str
    ) -> list[tuple[Any, str]]:
        """The epoch's seed revealed (for all) and the next one committed; before it, each
        audience's sub-seed revealed in an event for that audience only (domain.dice,
        "Hidden dice"), so that a battle's end, which unseals its events up to the
        seed's reveal, unseals them too."""
        if reason == "requested" and actor.role not in ("referee", "side"):
            raise Forbidden("only the referee or a side may reveal the dice seed")
        meta = battle.meta
        epoch = meta.dice_epoch
        out: list[tuple[Any, str]] = []
        for audience, sub_seed in sorted((await self._sub_seeds(battle_id, loaded, meta)).items()):
            revealed = DiceSubSeedRevealed(epoch=epoch, audience=audience, seed=sub_seed.hex())
            out.append((revealed, audience))
        seed = await self._seed(battle_id, loaded, meta.commitments[epoch])
        _, next_commit = await self._new_seed(battle_id, loaded)
        _, next_subs = await self._new_sub_seeds(battle_id, loaded, next_commit, meta.created.sides)
        out.append(
            (
                DiceSeedRevealed(
                    epoch=epoch,
                    seed=seed.hex(),
                    reason=reason,  # type: ignore[arg-type]
                    next_epoch=epoch + 1,
                    next_commitment=next_commit,
                    next_sub_commitments=next_subs,
                ),
                ALL,
            )
        )
        return out

    # -- queries ------------------------------------------------------------------------

    async def view(self, battle_id: str, actor: Actor, version: int | None = None) -> BattleView:
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
            battle = await self.state_at(battle_id, version, loaded)
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
            awaiting=awaiting_of(ruleset, battle.game, actor),
        )

    async def states(self, battle_id: str, start: int, stop: int) -> list[Battle]:
        """The states right after `start`..`stop` (1 <= start <= stop <= the current
        version), each event folded once: from the cached timeline where it holds them,
        else from the store, one snapshot interval at a time going back."""
        return await self.repository.states(await self.repository.load(battle_id), start, stop)

    async def events(self, battle_id: str, actor: Actor, after: int, limit: int) -> EventPage:
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

    async def reveal(
        self, battle_id: str, principal: Principal, idempotency_key: str | None
    ) -> DiceReveal:
        response = await self.execute(
            battle_id,
            principal,
            CommandRequest(command=_REVEAL_DICE),
            idempotency_key,
        )
        reveal = next(
            e for e in response.events if isinstance(e, EventOut) and e.type == "DiceSeedRevealed"
        )
        data = msgspec.json.decode(reveal.data, type=DiceSeedRevealed)
        return DiceReveal(
            battle_id=battle_id,
            version=reveal.version,
            epoch=data.epoch,
            seed=data.seed,
            commitment=commitment(bytes.fromhex(data.seed)),
            next_epoch=data.next_epoch,
            next_commitment=data.next_commitment,
            receipt=response.receipt,
        )

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
                upto = await self.unsealed_upto(battle_id)
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


_COMMAND_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}
_REVEAL_DICE = msgspec.Raw(b'{"type":"RevealDice"}')


def _command_record(
    command_id: str | None, request_hash: str, pending: list[PendingEvent]
) -> CommandRecord | None:
    """What an Idempotency-Key's command keeps, appended with its events (None: no key)."""
    if command_id is None:
        return None
    return CommandRecord(
        battle_id=pending[0].battle_id,
        command_id=command_id,
        request_hash=request_hash,
        first_version=pending[0].version,
        last_version=pending[-1].version,
    )


async def _pause(attempt: int) -> None:
    """A jittered pause before deciding again, from the third attempt (`_MAX_ATTEMPTS`)."""
    if attempt >= 2:
        await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2**attempt)))


def _decode_command(ruleset: Ruleset[Any, Any, Any, Any, Any], command: msgspec.Raw) -> Any:
    """Decode one command (JSON as sent) of `ruleset` or of the battle, with a decoder
    built once: `msgspec.convert` to a Union rebuilds its type info on every call."""
    decoder = _COMMAND_DECODERS.get(ruleset.id)
    if decoder is None:
        own = get_args(ruleset.command_type) or (ruleset.command_type,)
        decoder = msgspec.json.Decoder(Union[(*own, *get_args(BattleCommand))])
        _COMMAND_DECODERS[ruleset.id] = decoder
    try:
        return decoder.decode(command)
    except UNREADABLE as e:  # a string that is not UTF-8 (a Raw keeps its bytes unread)
        raise invalid_body(e, "the command") from None
    except msgspec.DecodeError as e:
        message = str(e)
        known = (
            f"{ruleset.id} accepts {sorted(ruleset.command_docs)} "
            f"and {sorted(BATTLE_COMMAND_TYPES)}"
        )
        if message.startswith("Invalid value") and message.endswith("at `$.type`"):
            # The OpenAPI document lists every ruleset's commands: one of another ruleset
            # is schema-valid, and this battle refuses it (422), as it refuses an order.
            tag = message.split("'")[1] if message.count("'") >= 2 else ""
            other = [r.id for r in RULESETS.values() if tag in r.command_docs]
            if other:
                raise Unprocessable(
                    f"{tag} is a command of {', '.join(other)}; {known}",
                    code="command-of-another-ruleset",
                ) from e
            raise BadRequest(
                f"unknown command type: {message}; {known}", code="unknown-command"
            ) from e
        if "missing required field `type`" in message:
            raise BadRequest(f"the command needs a 'type'; {known}", code="invalid-command") from e
        # A tag several rulesets share (Attack) with the fields of another ruleset's command:
        # schema-valid too, so refused by the battle (422), not as a malformed body.
        other = [r.id for r in RULESETS.values() if r is not ruleset and _decodes(r, command)]
        if other:
            raise Unprocessable(
                f"this is a command of {', '.join(other)}, not of {ruleset.id} ({message}); "
                f"{known}",
                code="command-of-another-ruleset",
            ) from e
        raise BadRequest(f"invalid command: {message}", code="invalid-command") from e


def _decodes(ruleset: Ruleset[Any, Any, Any, Any, Any], command: bytes) -> bool:
    """Whether `command` is a valid command of `ruleset` (only asked of a refused one)."""
    try:
        ruleset.command_decoder.decode(command)
    except msgspec.DecodeError:
        return False
    return True
