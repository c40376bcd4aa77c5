"""Group commit per battle, for a battle held across workers (BATTLE_HOLD_BATTLES).

While this worker holds a battle, every command request queued for it here is decided in
turn, each on the state the ones before it left (its events chained to theirs), and
their appends go to the store at once, in order: one statement and one commit for all
of them (events.postgres, `battle_try_append_unstamped`). The hold is taken once per round,
not once per command: a hot battle's commands no longer pay a lock round trip and a WAL
flush each (issue 38, item 6).

Each request still gets its own answer and receipt, and no outcome is given before the
events it reports, and those of every request decided before it in the round, are
durable: a round is a serial execution, and if one of its appends is refused (an
Idempotency-Key appended meanwhile), the requests decided after it never happened and
are decided again in the next round. A refused request is refused alone and appends
nothing; the next one is decided on the state before it. Only a definite refusal
(`_REFUSALS`) says that. When an append fails with another error, the store has not
said what became of it (the connection lost around the commit, which may have gone
through). Where no other process appends (the hold read nothing: SQLite, one writer,
whose appends are committed or rolled back before they answer), the stored log says it:
read after the round's appends have all answered, it holds the request's events (it is
answered as appended, and published) or nothing after the state it was decided on (it
gets the error, nothing of it appended, and those decided after it are decided again in
the next round, on what is stored). Elsewhere (PostgreSQL: the commit may still land
after any read) that error is every later request's outcome too, none is decided again
(it could be appended twice), and the client resolves it as with any such error (its
Idempotency-Key's retry is answered from the store). A request whose events are durable
is answered and published even if the cache fails to fold them (the cache is dropped:
the next request loads afresh).

A request whose commands rewrite history or read the stored log at a version (Undo,
ResolveDispute, RaiseDispute, RevealDice) is decided first in a round and ends it: the
state after it, or what it reads, must be the stored one.

Fairness: a round takes at most `round_commands` commands (BATTLE_ROUND_COMMANDS, default
`ROUND_COMMANDS`), then lets go of the hold;
PostgreSQL grants the advisory lock to the worker that waited for it, whose round comes
next, so the two alternate and neither starves.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from domain.battle import Battle
from domain.battle_commands import RaiseDispute, ResolveDispute, RevealDice, Undo
from events.envelope import CommandRecord, PendingEvent, StoredEvent
from events.errors import DuplicateCommand, IdempotencyMismatch, VersionConflict
from events.store import BattleHold, EventStore
from service.battles.answers import Answers
from service.battles.batches import state_after
from service.battles.command_decoding import decode_command
from service.battles.keys import Principal
from service.battles.repository import BattleRepository, Loaded
from service.battles.request_decider import RequestDecider
from service.errors import Busy
from service.schemas import CommandBatchItem, CommandRequest, CommandResponse

__all__ = ["ROUND_COMMANDS", "GroupCommit", "Job", "command_record"]

# Commands decided in one round at most by default (BATTLE_ROUND_COMMANDS; a round takes
# whole requests, at least one): the other worker waits for the hold meanwhile. 64, a full
# batch: a round of plain commands is a few milliseconds of deciding, well under one of
# the target's 100.
ROUND_COMMANDS = 64

# Commands that must be decided on the stored state and end their round (module doc).
_ALONE = (Undo, ResolveDispute, RaiseDispute, RevealDice)

# The store's errors that say an append was refused, nothing of it appended (and so
# nothing chained after it): any other leaves its outcome unknown (module doc).
_REFUSALS = (DuplicateCommand, IdempotencyMismatch, VersionConflict)


class Job:
    """One command request waiting for its round; its future gets its outcome."""

    __slots__ = (
        "attempts",
        "batch",
        "command_id",
        "commands",
        "expected_version",
        "future",
        "principal",
        "request_hash",
    )

    def __init__(
        self,
        principal: Principal,
        commands: Sequence[CommandRequest | CommandBatchItem],
        expected_version: int | None,
        command_id: str | None,
        request_hash: str,
        batch: bool,
    ) -> None:
        self.principal = principal
        self.commands = commands
        self.expected_version = expected_version
        self.command_id = command_id
        self.request_hash = request_hash
        self.batch = batch
        self.attempts = 0  # appends that met a version conflict (BATTLE_COMMAND_ATTEMPTS)
        self.future: asyncio.Future[_Outcome] = asyncio.get_running_loop().create_future()


class _Planned:
    """A request decided in a round: its envelopes, appended after the round's others;
    `after`, the state they leave (None: not worked out, for one decided alone)."""

    __slots__ = ("after", "at", "events", "game_after", "pending")

    def __init__(
        self, at: Battle, pending: list[PendingEvent], events: list[Any], game_after: Any
    ) -> None:
        self.at, self.pending, self.events, self.game_after = at, pending, events, game_after
        self.after: Battle | None = None


class _Answer:
    """An outcome to answer: `stored` appended on `at`, leaving `after` when known (none
    appended: nothing to append, and `head_hash` is the hash of `at`'s last event)."""

    __slots__ = ("after", "at", "head_hash", "stored")

    def __init__(
        self, at: Battle, stored: list[StoredEvent], head_hash: str, after: Battle | None = None
    ) -> None:
        self.at, self.stored, self.head_hash, self.after = at, stored, head_hash, after


class _Replay:
    """The request's Idempotency-Key was appended meanwhile: its first answer again."""


_Outcome = _Answer | _Replay
# what each request of a round came to, before the appends: decided, refused, or nothing
_Decided = _Planned | _Answer | BaseException


def command_record(
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


class GroupCommit:
    """Runs the held battles' command requests in rounds (module doc)."""

    def __init__(
        self,
        store: EventStore,
        repository: BattleRepository,
        decider: RequestDecider,
        answers: Answers,
        *,
        on_appended: Callable[[list[StoredEvent]], None],
        command_attempts: int,
        round_commands: int = ROUND_COMMANDS,
    ) -> None:
        if round_commands < 1:
            raise ValueError(f"a round takes at least one command, not {round_commands}")
        self.store = store
        self.repository = repository
        self.decider = decider
        self.answers = answers
        self.on_appended = on_appended
        self.command_attempts = command_attempts
        self.round_commands = round_commands  # commands a round takes at most (module doc)
        self._rounds: set[asyncio.Task[None]] = set()  # running, kept from the collector

    async def run(self, loaded: Loaded, job: Job, with_awaiting: bool) -> CommandResponse:
        """Queue `job` for the battle's next round (starting the rounds if none run) and
        answer its outcome."""
        loaded.waiting.append(job)
        if not loaded.in_rounds:
            loaded.in_rounds = True
            started = [False]  # set by the task's first step
            task = asyncio.create_task(self._run_rounds(loaded, started))
            self._rounds.add(task)
            task.add_done_callback(self._rounds.discard)
            task.add_done_callback(functools.partial(_never_started, loaded, started))
        outcome = await job.future
        actor = job.principal.actor
        if isinstance(outcome, _Replay):
            await self.repository.catch_up(loaded)
            replayed = await self.answers.replayed(
                loaded.battle_id, actor, job.command_id, job.request_hash, with_awaiting
            )
            assert replayed is not None
            return replayed
        return await self.answers.answer(
            loaded,
            outcome.at,
            actor,
            outcome.stored,
            with_awaiting,
            head_hash=outcome.head_hash,
            after=outcome.after,
        )

    async def _run_rounds(self, loaded: Loaded, started: list[bool]) -> None:
        """Rounds until no request waits (in a task of its own: a request that goes away
        cancels its wait, never the round that holds the others)."""
        started[0] = True
        waiting = loaded.waiting
        jobs: list[Job] = []
        try:
            while waiting:
                try:
                    hold = await self.repository.hold(loaded)  # caught up with the store
                except Exception as e:  # the store: every request of the round
                    for job in _take(waiting, self.round_commands):
                        _give(job, e)
                    continue
                # Taken once the battle is held: the requests that came while the hold
                # was awaited (the other worker's round) join this round.
                jobs = _take(waiting, self.round_commands)
                try:
                    await self._round(loaded, hold, jobs)
                except Exception as e:  # the store: every request of the round
                    for job in jobs:
                        _give(job, e)
        except BaseException:  # cancelled (shutdown): no request waits for ever
            for job in [*jobs, *waiting]:
                job.future.cancel()
            waiting.clear()
            raise
        finally:
            loaded.in_rounds = False

    async def _round(self, loaded: Loaded, hold: BattleHold | None, jobs: list[Job]) -> None:
        """Decide `jobs` in turn on the battle held, append what they decided at once, let
        go; then give each its outcome (or queue it again: module doc)."""
        # Where no other process appends, the log read once the appends answered is what
        # became of them (module doc).
        settles = hold is not None and hold.events is None
        try:
            decided = await self._decide(loaded, jobs)
            appends = [
                (
                    loaded.battle_id,
                    d.at.version,
                    d.pending,
                    command_record(j.command_id, j.request_hash, d.pending),
                )
                for j, d in zip(jobs, decided, strict=False)
                if isinstance(d, _Planned)
            ]
            commit = None if hold is None else hold.append_and_release
            if commit is not None and appends:
                hold = None  # let go by the commit, whatever happens
                results: list[Any] = await commit(appends)
            else:  # in order, in one batch of the store's (events.postgres, events.sqlite)
                results = await asyncio.gather(
                    *(self._append(*a) for a in appends), return_exceptions=True
                )
        except BaseException:
            if hold is not None:
                await hold.release()
            raise
        try:
            again = await self._outcomes(loaded, jobs, decided, results, settles)
        finally:
            if hold is not None:
                await hold.release()
        loaded.waiting.extendleft(reversed(again))  # first in the next round, in order

    async def _outcomes(
        self,
        loaded: Loaded,
        jobs: list[Job],
        decided: list[_Decided],
        results: list[Any],
        settles: bool,
    ) -> list[Job]:
        """Each request's outcome, in order, its append's result (`results`) folded; the
        requests to decide again (after an append the store refused or did not make, and
        those left for a round they come first in). `settles`: an append that failed with
        an error saying nothing is settled by reading the log (module doc)."""
        outcomes = iter(results)
        again: list[Job] = []
        broken = False  # an append before was refused: the rest never happened
        unknown: BaseException | None = None  # an append before may or may not have been
        for job, d in zip(jobs, decided, strict=False):
            if unknown is not None:  # decided on a state that may or may not be stored
                _give(job, unknown)
                continue
            if broken:
                again.append(job)
                continue
            if not isinstance(d, _Planned):
                _give(job, d)
                continue
            stored = next(outcomes)
            if isinstance(stored, BaseException) and not isinstance(stored, _REFUSALS):
                found = await self._settled(loaded, d) if settles else None
                if found is None:  # the log does not say
                    unknown = stored
                    _give(job, stored)
                    continue
                if not found:  # not appended: it failed alone, the rest never happened
                    broken = True
                    _give(job, stored)
                    continue
                stored = found  # appended, though its answer said otherwise
            if isinstance(stored, BaseException):
                broken = True
                outcome = await self._refused(loaded, job, d, stored)
                if outcome is None:
                    again.append(job)
                else:
                    _give(job, outcome)
                continue
            self.on_appended(stored)
            try:
                await self.repository.remember(loaded, d.at.version, d.events, d.game_after, stored)
            except Exception:  # durable all the same: answered; the cache can't be trusted
                self.repository.forget(loaded)
            _give(job, _Answer(d.at, stored, stored[-1].hash, d.after))
        return again + jobs[len(decided) :]  # (_ALONE)

    async def _settled(self, loaded: Loaded, d: _Planned) -> list[StoredEvent] | None:
        """What the log holds after the version `d` was decided on, the round's appends
        answered: `d`'s events (appended), [] (nothing: not appended), or None (anything
        else, or the read failed: the log does not say)."""
        try:
            rows = await self.store.read(loaded.battle_id, d.at.version, len(d.pending))
        except Exception:
            return None
        # The hash chains each event to all before it: equal hashes are `d`'s events.
        if not rows or [r.hash for r in rows] == [p.hash for p in d.pending]:
            return rows
        return None

    async def _decide(self, loaded: Loaded, jobs: list[Job]) -> list[_Decided]:
        """The round's requests decided in turn, each on the state the ones before it
        left; stops before a request that must come first in a round, or after it."""
        at, prev_hash = loaded.battle, loaded.head_hash
        decided: list[_Decided] = []
        for n, job in enumerate(jobs):
            alone = _alone(loaded, job)
            if alone and n:
                break
            try:
                if n == 0:  # as a command alone: caught up when it expects another version
                    at = await self.repository.at_version(loaded, job.expected_version)
                    prev_hash = loaded.head_hash
                elif job.expected_version is not None and job.expected_version != at.version:
                    raise VersionConflict(loaded.battle_id, job.expected_version, at.version)
                pending, events, game_after = await self.decider.decide_all(
                    loaded, at, job.principal, job.commands, job.command_id, job.batch, prev_hash
                )
            except Exception as e:  # refused alone: the next is decided on the same state
                decided.append(e)
                continue
            if not pending:
                decided.append(_Answer(at, [], prev_hash))
                continue
            planned = _Planned(at, pending, events, game_after)
            decided.append(planned)
            if alone:
                break
            prev_hash = pending[-1].hash
            # the state the next is decided on, and this one's answer awaits from (not an
            # older version the cache would have to fold again)
            at = planned.after = state_after(loaded.ruleset, at, events, game_after)
        return decided

    async def _append(
        self,
        battle_id: str,
        expected: int,
        pending: Sequence[PendingEvent],
        record: CommandRecord | None,
    ) -> list[StoredEvent]:
        return await self.store.append(battle_id, expected, pending, record)

    async def _refused(
        self, loaded: Loaded, job: Job, d: _Planned, error: BaseException
    ) -> _Replay | BaseException | None:
        """The store refused `job`'s append: its outcome, or None to decide it again."""
        if isinstance(error, DuplicateCommand):  # the same Idempotency-Key, appended meanwhile
            return _Replay()
        if not isinstance(error, VersionConflict):
            return error
        # Another worker appended though the battle was held (or is not held: SQLite).
        try:
            await self.repository.moved_on(loaded, d.at.version, error)
        except Exception as e:  # the log lost what was folded
            return e
        job.attempts += 1
        if job.expected_version is not None:
            return VersionConflict(loaded.battle_id, job.expected_version, loaded.battle.version)
        if job.attempts >= self.command_attempts:
            return Busy(
                f"battle {loaded.battle_id} moved on {job.attempts} times while this command "
                "was decided: nothing was appended; retry",
                code="battle-busy",
                current_version=loaded.battle.version,
            )
        return None


def _take(waiting: deque[Job], most: int) -> list[Job]:
    """The requests of a round: those waiting, whole, up to `most` commands (at least one
    request); none whose request went away (nothing to decide)."""
    jobs: list[Job] = []
    commands = 0
    while waiting and (not jobs or commands + len(waiting[0].commands) <= most):
        job = waiting.popleft()
        if not job.future.done():
            jobs.append(job)
            commands += len(job.commands)
    return jobs


def _alone(loaded: Loaded, job: Job) -> bool:
    """Whether the request holds a command that must be decided on the stored state."""
    for req in job.commands:
        try:
            command = decode_command(loaded.ruleset, req.command)
        except Exception:  # refused when it is decided
            continue
        if isinstance(command, _ALONE):
            return True
    return False


def _never_started(loaded: Loaded, started: list[bool], task: asyncio.Task[None]) -> None:
    """A rounds task cancelled before its first step (at shutdown) runs no `finally`:
    its battle must not look as if rounds ran, nor its requests wait for ever."""
    if started[0]:
        return
    loaded.in_rounds = False
    for job in loaded.waiting:
        job.future.cancel()
    loaded.waiting.clear()


def _give(job: Job, outcome: _Answer | _Replay | BaseException) -> None:
    if job.future.done():  # its request went away
        return
    if isinstance(outcome, BaseException):
        job.future.set_exception(outcome)
    else:
        job.future.set_result(outcome)
