"""The PostgreSQL event store: psycopg 3, an async connection pool, the same contract as SQLite.

Appends go in batches, one call of `battle_try_append_unstamped` (see
events/migrations/postgres/0017): for each append it checks the command id and the
expected version and inserts the events at placeholder positions, so appends of
different battles (and processes) commit side by side; the store also commits the
appends of concurrent requests together (one WAL flush per batch, not per append).
Once committed, a stamp gives them their global positions, gap-free and visible in
order, so that a reader polling "after position P" never skips a late commit
(events.postgres_stamp says how, and why that is exact). Triggers refuse UPDATE (but
the stamp's), DELETE and TRUNCATE of events. Reads use the binary protocol (`bytea`
comes back as bytes, no hex decoding).

The store runs as an application role (`battle_app` by default) that may only read and
add to the log: migrations are applied first on a connection of their own, as the role
that logged in (the schema's owner, or nothing is left to apply), then every pooled
connection does `SET ROLE`, and the guards are checked (`events.postgres_guards`)
before the store serves.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec
import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

from events.envelope import (
    MAX_VERSION,
    AccessKey,
    CommandRecord,
    EventActor,
    Integration,
    PendingEvent,
    PlayerKey,
    StoredEvent,
)
from events.errors import (
    DuplicateCommand,
    IdempotencyMismatch,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from events.firsts_sql import firsts_query
from events.migrate import apply_migrations, pending_migrations
from events.player_keys_sql import (
    PLAYER_KEY_COLUMNS,
    find_player_key_sql,
    list_player_keys_sql,
    player_key_params,
    row_to_player_key,
)
from events.postgres_guards import check_guards
from events.postgres_stamp import Stamper
from events.store import BattleHold
from events.webhooks.postgres import PostgresWebhooks

__all__ = ["APP_ROLE", "POSITION_MODES", "PostgresEventStore"]

APP_ROLE = "battle_app"  # the role migration 0007 creates and grants

_COLUMNS = (
    "position, battle_id, version, type, data, audience, recorded_at, "
    "actor_role, actor_side, command_id, prev_hash, hash, salt, command_version, "
    "actor_label, actor_key_id, dispute"
)

_APPEND_MANY = (
    "SELECT i, code, first_position, message, detail FROM battle_try_append_unstamped("
    "%s::integer[], %s::text[], %s::integer[], %s::text[], %s::text[], %s::integer[], "
    "%s::integer[], %s::integer[], %s::text[], %b::bytea[], %s::text[], %s::text[], "
    "%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], %s::text[], "
    "%s::integer[], %s::text[], %s::text[], %s::text[]) ORDER BY i"
)
# How appends get their global positions (both exact: gap-free, visible in order):
# "stamped" (0017: appends commit at placeholders, a stamp gives positions after) or
# "counter" (0004-0015: each append batch holds the counter row until it commits).
POSITION_MODES = {
    "stamped": _APPEND_MANY,
    "counter": _APPEND_MANY.replace("battle_try_append_unstamped", "battle_try_append_many"),
}
_BATCH = 256  # appends committed together at most
_HOLDS = 16  # connections holding battles' locks in one process, at most (see hold_battle)

# (code, first position, message, detail) as battle_try_append_unstamped answers, per append
_Outcome = tuple[str, int | None, str | None, str | None]
# What fails a batch statement because of one of its rows, not because of the database
_ROW_ERRORS = (psycopg.DataError, psycopg.IntegrityError, psycopg.ProgrammingError)
# (battle id, expected version, events, command record): one queued append
_Append = tuple[str, int, Sequence[PendingEvent], CommandRecord | None]


def _flatten(batch: list[_Append]) -> tuple[list[Any], ...]:
    """The parameters of battle_try_append_unstamped (0017): per-append columns, then the events of
    all appends one after another."""
    events = [ev for _, _, evs, _ in batch for ev in evs]
    commands = [c for _, _, _, c in batch]
    return (
        [len(evs) for _, _, evs, _ in batch],
        [b for b, _, _, _ in batch],
        [x for _, x, _, _ in batch],
        [None if c is None else c.command_id for c in commands],
        [None if c is None else c.request_hash for c in commands],
        [None if c is None else c.first_version for c in commands],
        [None if c is None else c.last_version for c in commands],
        [ev.version for ev in events],
        [ev.type for ev in events],
        [ev.data for ev in events],
        [ev.audience for ev in events],
        [ev.recorded_at for ev in events],
        [ev.actor.role for ev in events],
        [ev.actor.side for ev in events],
        [ev.command_id for ev in events],
        [ev.prev_hash for ev in events],
        [ev.hash for ev in events],
        [ev.salt for ev in events],
        [ev.command_version for ev in events],
        [_unset(ev.actor.label) for ev in events],
        [_unset(ev.actor.key_id) for ev in events],
        [ev.dispute for ev in events],
    )


def _unset(value: str | msgspec.UnsetType) -> str | None:
    return None if value is msgspec.UNSET else value


def _lock_key(battle_id: str) -> int:
    """The advisory lock key of a battle: 64 bits of a hash of its id, signed (bigint)."""
    digest = hashlib.sha256(b"battle-service:battle:" + battle_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _row_to_event(row: tuple[Any, ...]) -> StoredEvent:
    key_id = row[15]
    return StoredEvent(
        position=row[0],
        battle_id=row[1],
        version=row[2],
        type=row[3],
        data=row[4],
        audience=row[5],
        recorded_at=row[6],
        actor=EventActor(role=row[7], side=row[8])
        if key_id is None
        else EventActor(role=row[7], side=row[8], label=row[14], key_id=key_id),
        command_id=row[9],
        prev_hash=row[10],
        hash=row[11],
        salt=row[12],
        command_version=row[13],
        dispute=row[16],
    )


def _translate(
    e: psycopg.Error,
    battle_id: str | None = None,
    command_id: str | None = None,
    expected: int = 0,
) -> StoreError:
    """One place where driver errors become store errors (the BS codes: see battle_append)."""
    state = e.sqlstate or ""
    message = e.diag.message_primary or str(e)
    if state == "BS001":
        return IdempotencyMismatch(message, battle_id=battle_id, command_id=command_id)
    if state == "BS002" and battle_id is not None and command_id is not None:
        return DuplicateCommand(battle_id, command_id)
    if state == "BS003" and battle_id is not None:
        return VersionConflict(battle_id, expected, int(e.diag.message_detail or 0))
    if isinstance(e, psycopg.OperationalError | psycopg.InterfaceError):
        return StoreUnavailable(f"PostgreSQL is unavailable: {message}")
    return StoreError(f"PostgreSQL refused the operation: {message}", sqlstate=state)


def _refusal(
    outcome: _Outcome, battle_id: str, command_id: str | None, expected: int
) -> StoreError:
    """The store error for an append that battle_try_append_unstamped refused (0017; as 0004)."""
    code, _, message, detail = outcome
    text = message or code
    if code == "BS001":
        return IdempotencyMismatch(text, battle_id=battle_id, command_id=command_id)
    if code == "BS002" and command_id is not None:
        return DuplicateCommand(battle_id, command_id)
    if code == "BS003":
        return VersionConflict(battle_id, expected, int(detail or 0))
    return StoreError(f"PostgreSQL refused the append: {text}", sqlstate=code)


def _stored(events: Sequence[PendingEvent], first_position: int) -> list[StoredEvent]:
    """The events of an append, stored from `first_position` on (a stamp gives an
    append's events consecutive positions: see migration 0017)."""
    return [ev.stored_at(first_position + i) for i, ev in enumerate(events)]


def _batch_error(e: Exception) -> StoreError:
    if isinstance(e, StoreError):
        return e
    error = _translate(e) if isinstance(e, psycopg.Error) else StoreError(f"append failed: {e}")
    error.__cause__ = e
    return error


# The snapshots of another ruleset version, in two range seeks of snapshots_rulesets (0011):
# `ruleset_version <> %s` reads every snapshot the battle has (one per 128 versions).
_DROP_OTHER_RULESETS = (
    "DELETE FROM snapshots WHERE battle_id = %s AND ruleset_version < %s",
    "DELETE FROM snapshots WHERE battle_id = %s AND ruleset_version > %s",
)


class PostgresEventStore(PostgresWebhooks):
    """The EventStore on PostgreSQL. `conninfo` is a libpq URL or key=value string.

    Appends are group-committed: the appends that arrive while a batch is committing
    form the next batch, one statement (`battle_try_append_unstamped`) and one
    transaction for all of them, each in its own subtransaction: one WAL flush and one
    round trip per batch, not per append. Each append then waits for a stamp
    (events.postgres_stamp) to answer its positions; a stamp covers all that wait.

    With `positions="counter"` appends take the counter row instead, as before 0017,
    and their statement answers their positions (no stamp). The two may run side by
    side, on one database, and stay exact (the stamp takes the row too): the service
    chooses with BATTLE_PG_POSITIONS (RULINGS.md says which is the default, and why).
    """

    def __init__(
        self,
        conninfo: str,
        *,
        pool_size: int = 8,
        migrate: bool = True,
        role: str | None = APP_ROLE,
        positions: str = "stamped",
    ) -> None:
        if positions not in POSITION_MODES:
            raise ValueError(f"positions must be stamped or counter, not {positions!r}")
        self.conninfo = conninfo
        self.positions = positions
        self.append_sql = POSITION_MODES[positions]
        self._pool_size = pool_size
        self._migrate = migrate
        # SET ROLE on every connection (None: run as the role that logged in)
        self._role = role
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._queue: list[tuple[_Append, asyncio.Future[_Outcome]]] = []
        self._flusher: asyncio.Task[None] | None = None
        # The connections that hold battles' advisory locks (hold_battle): a pool of
        # their own, so that a held battle never waits for a connection it holds itself.
        self._holds: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._stamper = Stamper(self._need_pool)

    async def open(self) -> None:
        await self._prepare()
        pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            self.conninfo,
            min_size=min(2, self._pool_size),
            max_size=self._pool_size,
            kwargs={"autocommit": True},
            configure=self._set_role if self._role else None,
            open=False,
            name="battle-events",
        )
        holds: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
            self.conninfo,
            min_size=1,
            max_size=_HOLDS,
            kwargs={"autocommit": True},
            configure=self._set_role if self._role else None,
            open=False,
            name="battle-holds",
        )
        try:
            await pool.open(wait=True, timeout=15)
            await holds.open(wait=True, timeout=15)
        except (psycopg.Error, TimeoutError) as e:
            await pool.close()
            await holds.close()
            raise StoreUnavailable(f"cannot open PostgreSQL store: {e}") from e
        self._pool = pool
        self._holds = holds
        try:  # events a process left unstamped (it died between its commit and its stamp)
            await self._stamper.stamp_all()
        except StoreUnavailable:
            await self.close()
            raise

    async def _set_role(self, conn: psycopg.AsyncConnection[Any]) -> None:
        assert self._role is not None
        await conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(self._role)))

    async def _prepare(self) -> None:
        """Migrate (as the role that logged in), take the application role, check the
        guards: on one connection of its own, before the pool opens."""
        try:
            conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        except psycopg.Error as e:
            raise StoreUnavailable(f"cannot open PostgreSQL store: {e}") from e
        try:
            async with conn:
                if self._migrate and await pending_migrations(conn):
                    try:
                        await apply_migrations(conn)
                    except psycopg.errors.InsufficientPrivilege as e:
                        raise StoreUnavailable(
                            f"the schema needs migrations that {conn.info.user} may not "
                            f"apply ({e.diag.message_primary}): run `battle-service migrate` "
                            "as the schema's owner"
                        ) from e
                if self._role:
                    try:
                        await self._set_role(conn)
                    except psycopg.Error as e:
                        raise StoreUnavailable(
                            f"cannot SET ROLE {self._role} as {conn.info.user} "
                            f"({e.diag.message_primary}): GRANT {self._role} TO "
                            f"{conn.info.user}, or log in as {self._role} (docs/OPERATING.md, "
                            "PostgreSQL roles)"
                        ) from e
                await check_guards(conn)
        except psycopg.Error as e:
            raise StoreUnavailable(f"cannot open PostgreSQL store: {e}") from e

    async def close(self) -> None:
        if self._holds is not None:
            await self._holds.close()
            self._holds = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    def _need_pool(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        if self._pool is None:
            raise StoreUnavailable("the store is not open")
        return self._pool

    def _store_error(self, e: psycopg.Error) -> StoreError:
        return _translate(e)

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        try:
            async with self._need_pool().connection() as conn:
                cur = await conn.execute(sql, params, binary=True)
                return await cur.fetchall()
        except psycopg.Error as e:
            raise _translate(e) from e

    async def _execute(self, sql: str, params: Sequence[Any], battle_id: str | None = None) -> None:
        try:
            async with self._need_pool().connection() as conn:
                await conn.execute(sql, params)
        except psycopg.Error as e:
            raise _translate(e, battle_id) from e

    # -- the protocol -------------------------------------------------------------------

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        """A transaction-level advisory lock on the battle (a hash of its id), held by a
        connection of the holds' pool until released; with the battle's events after
        `after` once granted (same round trip), so that a stale cache is caught up before
        deciding, at no cost of its own.

        Transaction-level, so that it can never outlive its use: a connection given back
        inside its transaction (the release cancelled) is rolled back by the pool, one
        broken is closed, and either way PostgreSQL lets go of the lock. Waiters are
        served in turn (PostgreSQL queues them), so no worker starves."""
        holds = self._holds
        if holds is None:
            raise StoreUnavailable("the store is not open")
        try:
            conn = await holds.getconn()
        except Exception as e:  # the pool's timeout, or PostgreSQL unreachable
            raise StoreUnavailable(f"cannot lock battle {battle_id}: {e}") from e
        try:
            async with conn.pipeline():  # one round trip for the three (and the events)
                await conn.execute("BEGIN")
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key(battle_id),))
                cur = await conn.execute(
                    f"SELECT {_COLUMNS} FROM events WHERE battle_id = %s AND version > %s "
                    "ORDER BY version",
                    (battle_id, after),
                    binary=True,
                )
            rows = await cur.fetchall()
        except BaseException as e:
            # Cancelled while it waits (the request gone): the pool closes a connection
            # given back in the middle of a statement, which ends the wait on the server.
            await holds.putconn(conn)
            if isinstance(e, psycopg.Error):
                raise StoreUnavailable(f"cannot lock battle {battle_id}: {e}") from e
            raise

        async def release() -> None:
            try:
                await conn.execute(b"COMMIT")
            except psycopg.Error:
                pass  # the pool rolls it back or closes it: the lock goes either way
            finally:
                await holds.putconn(conn)

        async def append_and_release(
            appends: Sequence[_Append],
        ) -> list[list[StoredEvent] | Exception]:
            # The appends in the hold's own transaction, and its COMMIT, in one round trip:
            # the lock goes with the commit that makes them durable, not a round trip later.
            try:
                try:
                    async with conn.pipeline():
                        cur = await conn.execute(self.append_sql, _flatten(list(appends)))
                        await conn.execute(b"COMMIT")
                    outcomes = [(str(r[1]), r[2], r[3], r[4]) for r in await cur.fetchall()]
                finally:  # rolled back by the pool if it failed (or closed): the lock goes
                    await holds.putconn(conn)
            except _ROW_ERRORS:
                # A row the checks did not foresee: rolled back, the lock gone with it. As
                # the batches do, each append again on its own, so that only it fails.
                return await self._append_each(appends)
            except Exception as e:  # the connection lost (or the database)
                return [_batch_error(e)] * len(appends)
            return await self._answers(appends, outcomes)

        try:
            held = await self._events(rows)
        except BaseException:
            await holds.putconn(conn)  # rolled back by the pool: the lock goes
            raise
        return BattleHold(
            events=held,
            release=release,
            append_and_release=append_and_release,
        )

    async def _answers(
        self, appends: Sequence[_Append], outcomes: Sequence[_Outcome]
    ) -> list[list[StoredEvent] | Exception]:
        """Each committed append's events at their positions (stamped, all in one stamp),
        or why it was refused."""
        made = [
            (battle_id, events[0].version)
            for (battle_id, _, events, _), o in zip(appends, outcomes, strict=True)
            if o[0] == "ok" and events and o[1] is None
        ]
        firsts: list[int] = []
        failed: StoreUnavailable | None = None
        try:
            firsts = await self._stamper.positions(made)
        except StoreUnavailable as e:  # appended, positions unknown: as a lost COMMIT's answer
            failed = e
        stamped = iter(firsts)
        out: list[list[StoredEvent] | Exception] = []
        for (battle_id, expected, events, command), outcome in zip(appends, outcomes, strict=True):
            if outcome[0] != "ok":
                command_id = None if command is None else command.command_id
                out.append(_refusal(outcome, battle_id, command_id, expected))
            elif outcome[1] is not None or not events:
                out.append(_stored(events, outcome[1] or 0))
            elif failed is not None:
                out.append(failed)
            else:
                out.append(_stored(events, next(stamped)))
        return out

    async def _append_each(self, appends: Sequence[_Append]) -> list[list[StoredEvent] | Exception]:
        """`append` of each, in order, until one fails: its error in its place, and the
        rest not appended. Each is chained to the one before it (its version, its
        prev_hash) and the hold is gone: one appended after a failure could land on
        what another worker appended meanwhile, its chain broken."""
        out: list[list[StoredEvent] | Exception] = []
        for battle_id, expected, events, command in appends:
            if out and isinstance(out[-1], Exception):
                out.append(
                    StoreError(
                        f"not appended at v{expected + 1}: one before it failed",
                        battle_id=battle_id,
                    )
                )
                continue
            try:
                out.append(await self.append(battle_id, expected, events, command))
            except Exception as e:
                out.append(e)
        return out

    async def append(
        self,
        battle_id: str,
        expected_version: int,
        events: Sequence[PendingEvent],
        command: CommandRecord | None = None,
    ) -> list[StoredEvent]:
        for ev in events:
            if ev.battle_id != battle_id:
                raise StoreError(
                    f"event v{ev.version} of the batch belongs to {ev.battle_id}, not {battle_id}",
                    battle_id=battle_id,
                )
        params = (battle_id, expected_version, events, command)
        command_id = None if command is None else command.command_id
        self._need_pool()
        future: asyncio.Future[_Outcome] = asyncio.get_running_loop().create_future()
        self._queue.append((params, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        outcome = await future
        if outcome[0] != "ok":
            raise _refusal(outcome, battle_id, command_id, expected_version)
        first = outcome[1]
        if first is None and events:
            # Committed at placeholders: answered once stamped (events.postgres_stamp)
            (first,) = await self._stamper.positions([(battle_id, events[0].version)])
        return _stored(events, first or 0)

    async def _events(self, rows: Sequence[tuple[Any, ...]]) -> list[StoredEvent]:
        """A battle's rows as events. One still at its placeholder (committed by another
        process a moment ago, its stamp yet to come) is stamped first: never handed out."""
        unstamped = [(r[1], r[2]) for r in rows if r[0] < 0]
        if unstamped:
            stamped = dict(zip(unstamped, await self._stamper.positions(unstamped), strict=True))
            rows = [(stamped[(r[1], r[2])], *r[1:]) if r[0] < 0 else r for r in rows]
        return [_row_to_event(r) for r in rows]

    async def _flush(self) -> None:
        """Commit the queued appends in batches until the queue is empty."""
        while self._queue:
            batch, self._queue = self._queue[:_BATCH], self._queue[_BATCH:]
            try:
                async with self._need_pool().connection() as conn:
                    cur = await conn.execute(self.append_sql, _flatten([a for a, _ in batch]))
                    outcomes = [(str(r[1]), r[2], r[3], r[4]) for r in await cur.fetchall()]
            except _ROW_ERRORS:
                # One append the checks did not foresee (a bad row) failed the statement:
                # the others must not fail with it. One at a time, each on its own.
                for append, future in batch:
                    await self._append_alone(append, future)
                continue
            except Exception as e:  # fails this batch's appends, never the flusher
                for _, future in batch:
                    if not future.done():
                        future.set_exception(_batch_error(e))
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if not future.done():
                    future.set_result(outcome)

    async def _append_alone(self, append: _Append, future: asyncio.Future[_Outcome]) -> None:
        """One append as a batch of its own: if its row is bad, only it fails."""
        try:
            async with self._need_pool().connection() as conn:
                row = await (await conn.execute(self.append_sql, _flatten([append]))).fetchone()
        except Exception as e:
            if not future.done():
                future.set_exception(_batch_error(e))
            return
        if not future.done():
            future.set_result(
                (str(row[1]), row[2], row[3], row[4]) if row else ("XX000", None, "", "")
            )

    async def read(
        self, battle_id: str, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[StoredEvent]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE battle_id = %s AND version > %s"
        args: list[Any] = [battle_id, after]
        if upto is not None:
            sql += " AND version <= %s"
            args.append(upto)
        sql += " ORDER BY version"
        if limit is not None:
            sql += " LIMIT %s"
            args.append(limit)
        return await self._events(await self._fetch(sql, args))

    async def read_log(self, battle_id: str, after: int = 0, upto: int | None = None) -> bytes:
        # One bytea built by the server: a row per event would cost more to fetch and
        # convert than the decode and fold of the event.
        rows = await self._fetch(
            "SELECT '['::bytea || coalesce(string_agg(data, ','::bytea ORDER BY version),"
            " ''::bytea) || ']'::bytea FROM events "
            "WHERE battle_id = %s AND version > %s AND version <= %s",
            (battle_id, after, MAX_VERSION if upto is None else upto),
        )
        return bytes(rows[0][0])

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        # Never below 0: placeholders (events not stamped yet) are negative (0017)
        sql = f"SELECT {_COLUMNS} FROM events WHERE position > %s ORDER BY position LIMIT %s"
        rows = await self._fetch(sql, (max(after_position, 0), limit))
        return [_row_to_event(r) for r in rows]

    async def last_position(self) -> int:
        rows = await self._fetch("SELECT position FROM event_position", ())
        return int(rows[0][0]) if rows else 0

    async def head(self, battle_id: str) -> StoredEvent | None:
        sql = f"SELECT {_COLUMNS} FROM events WHERE battle_id = %s ORDER BY version DESC LIMIT 1"
        rows = await self._fetch(sql, (battle_id,))
        return (await self._events(rows))[0] if rows else None

    async def find_command(self, battle_id: str, command_id: str) -> CommandRecord | None:
        rows = await self._fetch(
            "SELECT request_hash, first_version, last_version FROM commands "
            "WHERE battle_id = %s AND command_id = %s",
            (battle_id, command_id),
        )
        if not rows:
            return None
        request_hash, first, last = rows[0]
        return CommandRecord(
            battle_id=battle_id,
            command_id=command_id,
            request_hash=request_hash,
            first_version=first,
            last_version=last,
        )

    async def save_keys(self, keys: Sequence[AccessKey]) -> None:
        try:
            async with (
                self._need_pool().connection() as conn,
                conn.transaction(),
                conn.cursor() as cur,
            ):
                await cur.executemany(
                    "INSERT INTO access_keys (key_hash, battle_id, role, side, mac) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    [(k.key_hash, k.battle_id, k.role, k.side, k.mac) for k in keys],
                )
        except psycopg.Error as e:
            raise _translate(e) from e

    async def find_key(self, key_hash: str) -> AccessKey | None:
        rows = await self._fetch(
            "SELECT battle_id, role, side, mac FROM access_keys WHERE key_hash = %s", (key_hash,)
        )
        if not rows:
            return None
        battle_id, role, side, mac = rows[0]
        return AccessKey(key_hash=key_hash, battle_id=battle_id, role=role, side=side, mac=mac)

    async def save_player_key(self, key: PlayerKey) -> None:
        marks = ", ".join(["%s"] * 10)
        await self._execute(
            f"INSERT INTO player_keys ({PLAYER_KEY_COLUMNS}) VALUES ({marks})",
            player_key_params(key),
        )

    async def find_player_key(self, key_hash: str) -> PlayerKey | None:
        rows = await self._fetch(find_player_key_sql("%s"), (key_hash,))
        return row_to_player_key(rows[0]) if rows else None

    async def list_player_keys(self, battle_id: str) -> list[PlayerKey]:
        rows = await self._fetch(list_player_keys_sql("%s"), (battle_id,))
        return [row_to_player_key(r) for r in rows]

    async def revoke_player_key(self, battle_id: str, key_id: str, at: str) -> bool:
        rows = await self._fetch(
            "WITH k AS (SELECT key_id FROM player_keys WHERE key_id = %s AND battle_id = %s), "
            "r AS (INSERT INTO key_revocations (key_id, battle_id, revoked_at) "
            "SELECT key_id, %s, %s FROM k ON CONFLICT (key_id) DO NOTHING RETURNING 1) "
            "SELECT count(*) FROM k",
            (key_id, battle_id, battle_id, at),
        )
        return bool(rows and rows[0][0])

    async def save_secret(self, battle_id: str, name: str, value: bytes) -> None:
        await self._execute(
            "INSERT INTO secrets (battle_id, name, value) VALUES (%s, %s, %b) "
            "ON CONFLICT (battle_id, name) DO UPDATE SET value = EXCLUDED.value",
            (battle_id, name, value),
            battle_id,
        )

    async def load_secret(self, battle_id: str, name: str) -> bytes | None:
        rows = await self._fetch(
            "SELECT value FROM secrets WHERE battle_id = %s AND name = %s", (battle_id, name)
        )
        return bytes(rows[0][0]) if rows else None

    async def save_snapshot(
        self, battle_id: str, version: int, ruleset_version: str, data: bytes
    ) -> None:
        try:
            async with self._need_pool().connection() as conn, conn.transaction():
                for drop in _DROP_OTHER_RULESETS:
                    await conn.execute(drop, (battle_id, ruleset_version))
                await conn.execute(
                    "INSERT INTO snapshots (battle_id, version, ruleset_version, data) "
                    "VALUES (%s, %s, %s, %b) ON CONFLICT (battle_id, version) DO UPDATE "
                    "SET ruleset_version = EXCLUDED.ruleset_version, data = EXCLUDED.data",
                    (battle_id, version, ruleset_version, data),
                )
        except psycopg.Error as e:
            raise _translate(e) from e

    async def latest_snapshot(
        self, battle_id: str, ruleset_version: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        rows = await self._fetch(
            "SELECT version, data FROM snapshots WHERE battle_id = %s AND ruleset_version = %s "
            "AND version <= %s ORDER BY version DESC LIMIT 1",
            (battle_id, ruleset_version, MAX_VERSION if at_most is None else at_most),
        )
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None

    async def save_integration(self, integration: Integration) -> None:
        i = integration
        await self._execute(
            "INSERT INTO integrations (integration_id, key_hash, name, mac) "
            "VALUES (%s, %s, %s, %s)",
            (i.integration_id, i.key_hash, i.name, i.mac),
        )

    async def find_integration(self, key_hash: str) -> Integration | None:
        rows = await self._fetch(
            "SELECT integration_id, name, mac FROM integrations WHERE key_hash = %s", (key_hash,)
        )
        if not rows:
            return None
        integration_id, name, mac = rows[0]
        return Integration(integration_id=integration_id, key_hash=key_hash, name=name, mac=mac)

    async def link_battle(self, integration_id: str, battle_id: str, mac: str = "") -> None:
        await self._execute(
            "INSERT INTO integration_battles (integration_id, battle_id, mac) "
            "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
            (integration_id, battle_id, mac),
        )

    async def find_link(self, integration_id: str, battle_id: str) -> str | None:
        rows = await self._fetch(
            "SELECT mac FROM integration_battles WHERE integration_id = %s AND battle_id = %s",
            (integration_id, battle_id),
        )
        return str(rows[0][0]) if rows else None

    async def read_firsts(
        self,
        after_position: int = 0,
        limit: int = 100,
        *,
        integration_id: str | None = None,
        battle_id: str | None = None,
    ) -> list[StoredEvent]:
        sql, args = firsts_query(
            _COLUMNS, "%s", max(after_position, 0), limit, integration_id, battle_id
        )
        return [_row_to_event(r) for r in await self._fetch(sql, args)]

    async def read_linked(
        self, integration_id: str, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        sql = (
            f"SELECT {_COLUMNS} FROM events WHERE position > %s AND battle_id IN "
            "(SELECT battle_id FROM integration_battles WHERE integration_id = %s) "
            "ORDER BY position LIMIT %s"
        )
        rows = await self._fetch(sql, (max(after_position, 0), integration_id, limit))
        return [_row_to_event(r) for r in rows]
