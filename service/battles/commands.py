"""Running a command request (one command or a batch): find a replayed one, load, hold,
decide, append with the expected version (deciding again when the battle moved on),
remember, answer.

Every command is decided on the cached state and appended with that state's version as
the expected version, so a worker that fell behind finds out from the store and decides
again. A battle held across workers (BATTLE_HOLD_BATTLES) runs its requests in rounds
instead, one hold and one append for all the requests waiting on this worker
(service.battles.group_commit).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence

from events.envelope import StoredEvent
from events.errors import DuplicateCommand, VersionConflict
from events.store import EventStore
from service.battles.answers import Answers
from service.battles.batches import BatchTooLong, batch_request_hash
from service.battles.batches import request_hash as request_hash_of
from service.battles.group_commit import ROUND_COMMANDS, GroupCommit, Job, command_record
from service.battles.keys import Principal
from service.battles.repository import BattleRepository
from service.battles.request_decider import RequestDecider
from service.errors import Busy, Forbidden
from service.schemas import CommandBatchItem, CommandBatchRequest, CommandRequest, CommandResponse

__all__ = ["MAX_ATTEMPTS", "CommandRunner"]

# A command without an expected version is decided again on the newer state after every
# conflict: each conflict means another worker appended, so the battle moves on, and a
# few jittered pauses keep workers from meeting in lockstep. With four workers hammering
# one battle an attempt wins about one time in four: 100 attempts all lose about once
# in 10^12. Past that the answer is 503 (busy, retry), never 409: a 409 only ever means
# that the client's expected version is stale.
MAX_ATTEMPTS = 100


class CommandRunner:
    """Runs the command requests of the battles of one event store."""

    def __init__(
        self,
        store: EventStore,
        repository: BattleRepository,
        decider: RequestDecider,
        answers: Answers,
        *,
        on_appended: Callable[[list[StoredEvent]], None],
        command_attempts: int,
        batch_max: int,
        round_commands: int = ROUND_COMMANDS,
    ) -> None:
        self.store = store
        self.repository = repository
        self.decider = decider
        self.answers = answers
        # Told of every append this process makes (the live fan-out), after it committed.
        self.on_appended = on_appended
        # How often a command is decided again when its battle moved on meanwhile
        # (BATTLE_COMMAND_ATTEMPTS), before a 503 battle-busy.
        self.command_attempts = command_attempts
        self.batch_max = batch_max  # the most commands one batch may hold (BATTLE_BATCH_MAX)
        self.rounds = GroupCommit(
            store,
            repository,
            decider,
            answers,
            on_appended=on_appended,
            command_attempts=command_attempts,
            round_commands=round_commands,  # BATTLE_ROUND_COMMANDS
        )

    async def execute(
        self,
        battle_id: str,
        principal: Principal,
        req: CommandRequest,
        idempotency_key: str | None,
        *,
        with_awaiting: bool = True,
    ) -> CommandResponse:
        """Run one command (BattleService.execute)."""
        if principal.actor.role == "observer":
            raise Forbidden("an observer key may only read", code="read-only-key")
        request_hash = (
            ""
            if idempotency_key is None
            else request_hash_of(req, principal.actor, principal.key_id)
        )
        return await self.run(
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
        """Run a batch of commands, all or none (BattleService.execute_batch)."""
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
        return await self.run(
            battle_id,
            principal,
            req.commands,
            req.expected_version,
            idempotency_key,
            request_hash,
            batch=True,
            with_awaiting=with_awaiting,
        )

    async def run(
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
        replayed = await self.answers.replayed(
            battle_id, actor, idempotency_key, request_hash, with_awaiting
        )
        if replayed is not None:
            return replayed
        # A command decides on the cached state as it is: the append checks it is current.
        loaded = await self.repository.load(battle_id, catch_up=False)
        if self.repository.hold_battles:  # held across workers: in rounds
            job = Job(principal, commands, expected_version, idempotency_key, request_hash, batch)
            return await self.rounds.run(loaded, job, with_awaiting)
        # Not held across workers (that is the rounds' path above): this worker's lock,
        # and optimistic retries against the store's expected version.
        await loaded.lock.acquire()  # not `async with`: one coroutine fewer per command
        try:
            for attempt in range(self.command_attempts):
                battle = await self.repository.at_version(loaded, expected_version)
                pending, events, game_after = await self.decider.decide_all(
                    loaded, battle, principal, commands, idempotency_key, batch
                )
                if not pending:
                    return await self.answers.answer(loaded, battle, actor, [], with_awaiting)
                record = command_record(idempotency_key, request_hash, pending)
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
                    replayed = await self.answers.replayed(
                        battle_id, actor, idempotency_key, request_hash, with_awaiting
                    )
                    assert replayed is not None
                    return replayed
                self.on_appended(stored)
                await self.repository.remember(loaded, battle.version, events, game_after, stored)
                return await self.answers.answer(loaded, battle, actor, stored, with_awaiting)
            raise Busy(
                f"battle {battle_id} moved on {self.command_attempts} times while this command "
                "was decided: nothing was appended; retry",
                code="battle-busy",
                current_version=loaded.battle.version,
            )
        finally:
            loaded.lock.release()


async def _pause(attempt: int) -> None:
    """A jittered pause before deciding again, from the third attempt (`MAX_ATTEMPTS`)."""
    if attempt >= 2:
        await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2**attempt)))
