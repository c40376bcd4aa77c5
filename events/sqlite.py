"""The embedded event store: one SQLite file in WAL mode, one writer, reader threads.

One process owns the file. Appends are committed on the event loop, all the appends
of one loop iteration in one transaction (group commit); a conflict in one refuses it
before it writes, so the others go on. In WAL mode with synchronous=NORMAL (the
default) such a commit does not fsync: an acknowledged event survives the process
dying, not the machine losing power. With `sync="full"` (BATTLE_SQLITE_SYNC=full) each
commit batch fsyncs the WAL before the appends are acknowledged (`bench.sqlite_sync`
measures the cost). Checkpoints, which fsync either way, run on a background thread.
Reads run on a small pool of threads, each with its own connection. Triggers refuse
UPDATE, DELETE and REPLACE on the events table and the records that grant power; they
are installed and checked at start-up by `events.sqlite_guards`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgspec

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
from events.player_keys_sql import (
    PLAYER_KEY_COLUMNS,
    find_player_key_sql,
    list_player_keys_sql,
    player_key_params,
    row_to_player_key,
)
from events.sqlite_guards import check_guards
from events.store import BattleHold
from events.webhooks.sqlite import WEBHOOK_SCHEMA, SQLiteWebhooks, upgrade_webhook_schema

__all__ = ["SQLITE_SYNC_MODES", "SQLiteEventStore"]

T = TypeVar("T")
Job = Callable[[sqlite3.Cursor], Any]  # a write, run on the writer's cursor in a batch

WAL_SIZE_LIMIT = 64 * 1024 * 1024  # bytes of WAL file kept when the WAL starts over

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    position     INTEGER PRIMARY KEY,
    battle_id    TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    type         TEXT    NOT NULL,
    data         BLOB    NOT NULL,
    audience     TEXT    NOT NULL,
    recorded_at  TEXT    NOT NULL,
    actor_role   TEXT    NOT NULL,
    actor_side   TEXT,
    command_id   TEXT,
    prev_hash    TEXT    NOT NULL,
    hash         TEXT    NOT NULL,
    salt         TEXT,
    command_version INTEGER,
    actor_label  TEXT,
    actor_key_id TEXT,
    dispute      TEXT,
    UNIQUE (battle_id, version)
);
CREATE TABLE IF NOT EXISTS commands (
    battle_id     TEXT    NOT NULL,
    command_id    TEXT    NOT NULL,
    request_hash  TEXT    NOT NULL,
    first_version INTEGER NOT NULL,
    last_version  INTEGER NOT NULL,
    PRIMARY KEY (battle_id, command_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS access_keys (
    key_hash  TEXT PRIMARY KEY,
    battle_id TEXT NOT NULL,
    role      TEXT NOT NULL,
    side      TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS secrets (
    battle_id TEXT NOT NULL,
    name      TEXT NOT NULL,
    value     BLOB NOT NULL,
    PRIMARY KEY (battle_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS integrations (
    integration_id TEXT PRIMARY KEY,
    key_hash       TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    battle_id       TEXT    NOT NULL,
    version         INTEGER NOT NULL,
    ruleset_version TEXT    NOT NULL,
    data            BLOB    NOT NULL,
    PRIMARY KEY (battle_id, version)
) WITHOUT ROWID;
-- What a saved snapshot's drop of another ruleset version's seeks (_DROP_OTHER_RULESETS).
CREATE INDEX IF NOT EXISTS snapshots_rulesets ON snapshots (battle_id, ruleset_version);
-- The first event of each battle, by position: what lists battles (read_firsts).
CREATE INDEX IF NOT EXISTS events_firsts ON events (position) WHERE version = 1;
-- Keys minted for players (events.player_keys_sql), and their revocations.
CREATE TABLE IF NOT EXISTS player_keys (
    key_id     TEXT PRIMARY KEY,
    key_hash   TEXT NOT NULL UNIQUE,
    battle_id  TEXT NOT NULL,
    role       TEXT NOT NULL,
    side       TEXT,
    label      TEXT NOT NULL,
    units      TEXT,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    mac        TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS player_keys_battles ON player_keys (battle_id);
CREATE TABLE IF NOT EXISTS key_revocations (
    key_id     TEXT PRIMARY KEY,
    battle_id  TEXT NOT NULL,
    revoked_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS integration_battles (
    integration_id TEXT NOT NULL,
    battle_id      TEXT NOT NULL,
    PRIMARY KEY (integration_id, battle_id)
) WITHOUT ROWID;
"""

# Columns added since the first schema: (table, column, definition). A file made by an
# older version gets them when it is opened (SQLite has no ADD COLUMN IF NOT EXISTS).
_ADDED_COLUMNS = (
    ("events", "salt", "TEXT"),  # events of such a file have none, and hash without one
    ("events", "command_version", "INTEGER"),  # none: chain format 1 (events.chain)
    ("access_keys", "mac", "TEXT NOT NULL DEFAULT ''"),
    ("integrations", "mac", "TEXT NOT NULL DEFAULT ''"),
    ("integration_battles", "mac", "TEXT NOT NULL DEFAULT ''"),
    ("events", "actor_label", "TEXT"),  # a player key's (PlayerKey) label and id
    ("events", "actor_key_id", "TEXT"),
    ("events", "dispute", "TEXT"),  # a dispute's correction names it (issue 36)
)


def _upgrade_schema(conn: sqlite3.Connection) -> None:
    for table, column, definition in _ADDED_COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
            if table == "access_keys":
                # Made by a version that kept creation answers (keys included) in clear:
                # they go, as PostgreSQL's migration 0006 drops them. Sealed ones start "bs1".
                conn.execute(
                    "DELETE FROM secrets WHERE name LIKE 'created:%' "
                    "AND substr(value, 1, 3) <> CAST('bs1' AS BLOB)"
                )


_COLUMNS = (
    "position, battle_id, version, type, data, audience, recorded_at, "
    "actor_role, actor_side, command_id, prev_hash, hash, salt, command_version, "
    "actor_label, actor_key_id, dispute"
)


def _row_to_event(row: tuple[Any, ...]) -> StoredEvent:
    key_id = row[15]
    return StoredEvent(
        position=row[0],
        battle_id=row[1],
        version=row[2],
        type=row[3],
        data=bytes(row[4]),
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


# BATTLE_SQLITE_SYNC: the PRAGMA synchronous each names (NORMAL reads back 1, FULL 2).
SQLITE_SYNC_MODES = {"normal": "NORMAL", "full": "FULL"}


def _connect(path: str, sync: str = "normal") -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={SQLITE_SYNC_MODES[sync]}")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


# The sqlite3 module binds exact int, float, str and bytearray values directly; any
# other value (bytes, None) goes through its adapter registry, whose failed lookup of
# `__adapt__` on the protocol type formats an AttributeError each time (together about
# an eighth of the INSERT's instructions, counted with callgrind). So the data goes as a
# bytearray (stored as the same BLOB) and NULL columns are written into the statement.
_INSERT_EVENT = {
    (has_side, has_command, has_seq): "INSERT INTO events (battle_id, version, type, data, "
    "audience, recorded_at, actor_role, actor_side, command_id, prev_hash, hash, "
    "command_version) VALUES "
    f"(?, ?, ?, ?, ?, ?, ?, {'?' if has_side else 'NULL'}, "
    f"{'?' if has_command else 'NULL'}, ?, ?, {'?' if has_seq else 'NULL'})"
    for has_side in (False, True)
    for has_command in (False, True)
    for has_seq in (False, True)
}
_INSERT_SALTED = (
    "INSERT INTO events (battle_id, version, type, data, audience, recorded_at, actor_role, "
    "actor_side, command_id, prev_hash, hash, salt, command_version, actor_label, "
    "actor_key_id, dispute) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _insert_event(ev: PendingEvent) -> tuple[str, tuple[Any, ...]]:
    """The INSERT of one event and its parameters, none of them bytes or None."""
    side, command_id, data = ev.actor.side, ev.command_id, ev.data
    blob = bytearray(data) if type(data) is bytes else data  # anything else: SQLite refuses
    head = (ev.battle_id, ev.version, ev.type, blob, ev.audience, ev.recorded_at)
    actor = ev.actor
    if ev.salt is not None or actor.key_id is not msgspec.UNSET or ev.dispute is not None:
        # Rare (hidden events, player keys, corrections): the general statement, NULLs and all.
        label = None if actor.label is msgspec.UNSET else actor.label
        key_id = None if actor.key_id is msgspec.UNSET else actor.key_id
        return _INSERT_SALTED, (
            *head, actor.role, side, command_id, ev.prev_hash, ev.hash, ev.salt,
            ev.command_version, label, key_id, ev.dispute,
        )  # fmt: skip
    seq = ev.command_version
    has_seq = seq is not None
    tail = (ev.prev_hash, ev.hash, seq) if has_seq else (ev.prev_hash, ev.hash)
    if side is None:
        if command_id is None:
            return _INSERT_EVENT[False, False, has_seq], (*head, ev.actor.role, *tail)
        return _INSERT_EVENT[False, True, has_seq], (*head, ev.actor.role, command_id, *tail)
    if command_id is None:
        return _INSERT_EVENT[True, False, has_seq], (*head, ev.actor.role, side, *tail)
    return _INSERT_EVENT[True, True, has_seq], (*head, ev.actor.role, side, command_id, *tail)


def _append_job(
    cur: sqlite3.Cursor,
    heads: dict[str, int],
    battle_id: str,
    expected_version: int,
    events: Sequence[PendingEvent],
    command: CommandRecord | None,
) -> list[StoredEvent]:
    current = heads.get(battle_id)
    if current is None:
        row = cur.execute(
            "SELECT max(version) FROM events WHERE battle_id = ?", (battle_id,)
        ).fetchone()
        current = row[0] or 0
    if command is not None:
        found = cur.execute(
            "SELECT request_hash FROM commands WHERE battle_id = ? AND command_id = ?",
            (battle_id, command.command_id),
        ).fetchone()
        if found is not None:
            if found[0] != command.request_hash:
                raise IdempotencyMismatch(
                    f"Idempotency-Key {command.command_id} was already used for another request",
                    battle_id=battle_id,
                    command_id=command.command_id,
                )
            raise DuplicateCommand(battle_id, command.command_id)
    if current != expected_version:
        raise VersionConflict(battle_id, expected_version, current)
    for offset, ev in enumerate(events, start=1):
        if ev.battle_id != battle_id or ev.version != expected_version + offset:
            raise StoreError(
                f"event {offset} of the batch is {ev.battle_id} v{ev.version}, "
                f"not {battle_id} v{expected_version + offset}: the log would have a gap",
                battle_id=battle_id,
            )
    stored: list[StoredEvent] = []
    for ev in events:
        cur.execute(*_insert_event(ev))
        stored.append(ev.stored_at(cur.lastrowid or 0))
    if command is not None:
        cur.execute(
            "INSERT INTO commands (battle_id, command_id, request_hash, first_version, "
            "last_version) VALUES (?, ?, ?, ?, ?)",
            (
                battle_id,
                command.command_id,
                command.request_hash,
                command.first_version,
                command.last_version,
            ),
        )
    heads[battle_id] = events[-1].version if events else current  # last: nothing raises after
    return stored


# The snapshots of another ruleset version, in two range seeks of `snapshots_rulesets`:
# `ruleset_version <> ?` (or an OR of the two) scans every snapshot of the battle, one per
# 128 versions, on the event loop: 3.3 ms at 2,000 of them, 39 ms at 20,000, measured.
_DROP_OTHER_RULESETS = (
    "DELETE FROM snapshots WHERE battle_id = ? AND ruleset_version < ?",
    "DELETE FROM snapshots WHERE battle_id = ? AND ruleset_version > ?",
)


class _Writer:
    """The one writer, on the event loop: the appends of one loop iteration commit together.

    A commit in WAL mode with synchronous=NORMAL does not fsync, so a batch costs tens
    of microseconds: less than handing it to a thread and back. Only checkpoints fsync;
    they run on `_Checkpointer`'s thread, never on the loop. With synchronous=FULL
    (`sync="full"`) the commit fsyncs the WAL too, on the loop: the appends of the
    iterations meanwhile wait and then commit together, one fsync for all of them.
    While `hold` is set (the checkpointer is starting the WAL over) batches wait;
    `resume` lets them go.
    """

    def __init__(self, path: str, sync: str = "normal") -> None:
        self.conn = _connect(path, sync)
        try:
            self.conn.executescript(SCHEMA)
            self.conn.executescript(WEBHOOK_SCHEMA)
            upgrade_webhook_schema(self.conn)
            _upgrade_schema(self.conn)
            check_guards(self.conn, path)  # the triggers: before anything is appended
        except BaseException:
            self.conn.close()
            raise
        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        # When the WAL starts over, a file left larger than this by a burst is cut back.
        self.conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        # Every job runs on this one cursor: `Connection.execute` would make a new cursor
        # for each statement (about 7k instructions per command, measured with callgrind).
        self.cur = self.conn.cursor()
        self.heads = _Heads()
        self.hold = threading.Event()
        self._pending: list[tuple[Job, asyncio.Future[Any]]] = []
        self._scheduled = False

    def submit(self, fn: Job, fut: asyncio.Future[Any]) -> None:
        self._pending.append((fn, fut))
        if not self._scheduled and not self.hold.is_set():
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def resume(self) -> None:
        """Flush what waited while the checkpointer held the writer (called on the loop)."""
        if self._pending and not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self.hold.is_set():
            return  # the checkpointer calls resume() when it lets go
        batch, self._pending = self._pending, []
        outcomes = _run_batch(self.cur, self.heads, batch)
        for (_fn, fut), (ok, value) in zip(batch, outcomes, strict=True):
            if ok:
                _resolve(fut, value)
            else:
                _fail(fut, value)

    def close(self) -> None:
        self.conn.close()


class _Refused(Exception):
    """A job raised something other than a refusal: the batch is run again, carefully."""


class _Heads(dict[str, int]):
    """The version each battle is at after this connection's appends to it, so that the
    next append need not ask. Valid while no other connection commits: `PRAGMA
    data_version` tells, read inside each batch's write transaction (no one else can
    commit then). A rolled-back batch forgets them all, and so does a full cache."""

    data_version = -1
    limit = 100_000  # battles remembered at most: a miss costs one indexed query

    def check(self, cur: sqlite3.Cursor) -> None:
        version = cur.execute("PRAGMA data_version").fetchone()[0]
        if version != self.data_version or len(self) > self.limit:
            self.clear()
            self.data_version = version


def _run_batch(cur: sqlite3.Cursor, heads: _Heads, batch: list[Any]) -> list[tuple[bool, Any]]:
    """Run the jobs in one transaction. A job refused with a `StoreError` (a conflict, a
    duplicate, a gap) refuses before it writes anything, so the others go on; anything
    else may have written half a job, so the batch is undone and run again with one
    savepoint per job (`_run_batch_in_savepoints`)."""
    outcomes: list[tuple[bool, Any]] = []
    try:
        cur.execute("BEGIN IMMEDIATE")
        heads.check(cur)
        for fn, _fut in batch:
            try:
                outcomes.append((True, fn(cur)))
            except StoreError as e:
                outcomes.append((False, e))
            except Exception as e:
                raise _Refused from e
        cur.execute("COMMIT")
    except _Refused:
        cur.execute("ROLLBACK")
        heads.clear()
        return _run_batch_in_savepoints(cur, heads, batch)
    except sqlite3.Error as e:
        outcomes = _abandon(cur, heads, e, len(batch))
    return outcomes


def _abandon(
    cur: sqlite3.Cursor, heads: _Heads, error: sqlite3.Error, jobs: int
) -> list[tuple[bool, Any]]:
    """SQLite itself failed: undo the transaction, forget the heads, fail every job."""
    if cur.connection.in_transaction:
        cur.execute("ROLLBACK")
    heads.clear()
    return [(False, error)] * jobs


def _run_batch_in_savepoints(
    cur: sqlite3.Cursor, heads: _Heads, batch: list[Any]
) -> list[tuple[bool, Any]]:
    """Run each job in its own savepoint of one transaction: a failure undoes only its job
    (a job sets its battle's head only once nothing of it can fail)."""
    outcomes: list[tuple[bool, Any]] = []
    try:
        cur.execute("BEGIN IMMEDIATE")
        heads.check(cur)
        for fn, _fut in batch:
            cur.execute("SAVEPOINT job")
            try:
                result = fn(cur)
            except Exception as e:  # any failure fails this job only, never the writer
                cur.execute("ROLLBACK TO job")
                cur.execute("RELEASE job")
                outcomes.append((False, e))
            else:
                cur.execute("RELEASE job")
                outcomes.append((True, result))
        cur.execute("COMMIT")
    except sqlite3.Error as e:
        outcomes = _abandon(cur, heads, e, len(batch))
    return outcomes


class _Checkpointer(threading.Thread):
    """Moves the WAL into the database file off the event loop (the only step that fsyncs),
    and keeps the WAL from growing for ever under a steady stream of appends.

    A PASSIVE checkpoint copies the frames committed before it started while appends go
    on, so under steady load it never catches up, and SQLite only starts the WAL over
    once every frame is copied: the file would grow without bound (about 30 MB a second
    under the benchmark's load), and appending to it is slower than overwriting it. So
    when the WAL holds more than `restart_frames` after a PASSIVE pass, the writer is
    held for a moment (its appends wait on the loop, nothing is refused) while a RESTART
    checkpoint copies the few frames written meanwhile; the next commit then writes from
    the start.
    """

    def __init__(
        self,
        path: str,
        writer: _Writer,
        loop: asyncio.AbstractEventLoop,
        every: float = 0.5,
        restart_frames: int = 4000,
    ) -> None:
        super().__init__(name="sqlite-checkpoint", daemon=True)
        self._path = path
        self._writer = writer
        self._loop = loop
        self._every = every
        self._restart_frames = restart_frames
        self.stop = threading.Event()
        self.restarts = 0  # WAL restarts under load (for tests and curiosity)
        self._restart_at = restart_frames

    def run(self) -> None:
        conn = _connect(self._path)
        # A RESTART waits for readers still on old frames (a long read of the log): give
        # up after 100 ms, let the held appends go, and try again on the next pass.
        conn.execute("PRAGMA busy_timeout=100")
        try:
            while not self.stop.wait(self._every):
                with contextlib.suppress(sqlite3.Error):  # busy: try again next time
                    self.restart_if_long(conn, self.passive(conn))
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()

    # The two steps of a pass are methods of their own so that a test can take them one at
    # a time, in the order steady appends put them in, without depending on this thread's
    # clock (tests/integration/test_sqlite_batches.py).

    @staticmethod
    def passive(conn: sqlite3.Connection) -> int:
        """Copy the frames committed so far into the database file (appends go on); how
        many frames the WAL holds."""
        _busy, frames, _copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(frames)

    def restart_if_long(self, conn: sqlite3.Connection, frames: int) -> None:
        """Start the WAL over when it holds more than `restart_frames` after a pass."""
        if frames > self._restart_at:
            # Readers in the way (busy): try again once the WAL is twice as long.
            self._restart_at = self._restart_frames if self._restart(conn) else 2 * frames

    def _restart(self, conn: sqlite3.Connection) -> bool:
        """Hold the writer while the WAL is checkpointed whole and started over; whether
        it was (not when a reader kept old frames in use past the busy timeout)."""
        writer = self._writer
        writer.hold.set()
        try:
            busy, _frames, _copied = conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            self.restarts += not busy
            return not busy
        finally:
            writer.hold.clear()
            with contextlib.suppress(RuntimeError):  # the loop closed: nothing waits
                self._loop.call_soon_threadsafe(writer.resume)


async def _released() -> None:
    """The release of a battle SQLite never held (SQLiteEventStore.hold_battle)."""


_NOT_HELD = BattleHold(events=None, release=_released)


def _resolve(fut: asyncio.Future[Any], value: Any) -> None:
    if not fut.done():
        fut.set_result(value)


def _fail(fut: asyncio.Future[Any], error: BaseException) -> None:
    if fut.done():
        return
    if isinstance(error, sqlite3.Error):
        wrapped = StoreUnavailable(f"SQLite failed: {error}")
        wrapped.__cause__ = error
        error = wrapped
    fut.set_exception(error)


class SQLiteEventStore(SQLiteWebhooks):
    """The EventStore on one SQLite file. `path=":memory:"` is not supported (threads)."""

    def __init__(
        self,
        path: str | Path,
        readers: int = 2,
        checkpoints: dict[str, Any] | None = None,
        sync: str = "normal",
    ) -> None:
        if sync not in SQLITE_SYNC_MODES:
            raise ValueError(f"sync must be one of {sorted(SQLITE_SYNC_MODES)}, not {sync!r}")
        self.path = str(path)
        self.sync = sync
        self._readers = readers
        self._checkpoints = checkpoints or {}  # _Checkpointer's `every`, `restart_frames`
        self._writer: _Writer | None = None
        self._checkpointer: _Checkpointer | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    async def open(self) -> None:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._writer = _Writer(self.path, self.sync)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open {self.path}: {e}") from e
        self._checkpointer = _Checkpointer(
            self.path, self._writer, asyncio.get_running_loop(), **self._checkpoints
        )
        self._checkpointer.start()
        self._pool = ThreadPoolExecutor(self._readers, thread_name_prefix="sqlite-reader")

    async def close(self) -> None:
        # The checkpointer first: it may be holding the writer, and resumes it when done.
        if self._checkpointer is not None:
            self._checkpointer.stop.set()
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.join)
            self._checkpointer = None
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        with self._lock:
            for conn in self._conns:
                conn.close()
            self._conns.clear()

    # -- plumbing -----------------------------------------------------------------------

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = _connect(self.path)
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        if self._pool is None:
            raise StoreUnavailable("the store is not open")

        def job() -> T:
            try:
                return fn(self._reader())
            except sqlite3.Error as e:
                raise StoreUnavailable(f"SQLite failed: {e}") from e

        return await asyncio.get_running_loop().run_in_executor(self._pool, job)

    def _write(self, fn: Callable[[sqlite3.Cursor], T]) -> asyncio.Future[T]:
        """Queue a write for the next batch; the future it resolves or fails (await it)."""
        if self._writer is None:
            raise StoreUnavailable("the store is not open")
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._writer.submit(fn, fut)
        return fut

    # -- the protocol -------------------------------------------------------------------

    async def hold_battle(self, battle_id: str, after: int = 0) -> BattleHold:
        """Nothing to wait for: one process writes the file (its commands to a battle
        are already decided one at a time, service.battles.commands)."""
        return _NOT_HELD

    def append(
        self,
        battle_id: str,
        expected_version: int,
        events: Sequence[PendingEvent],
        command: CommandRecord | None = None,
    ) -> asyncio.Future[list[StoredEvent]]:
        # The writer's future itself, not a coroutine awaiting it: two frames fewer to
        # suspend and resume on every command.
        if self._writer is None:
            raise StoreUnavailable("the store is not open")
        heads = self._writer.heads
        return self._write(
            lambda cur: _append_job(cur, heads, battle_id, expected_version, events, command)
        )

    async def read(
        self, battle_id: str, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[StoredEvent]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE battle_id = ? AND version > ?"
        args: list[Any] = [battle_id, after]
        if upto is not None:
            sql += " AND version <= ?"
            args.append(upto)
        sql += " ORDER BY version"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [_row_to_event(r) for r in rows]

    async def read_log(self, battle_id: str, after: int = 0, upto: int | None = None) -> bytes:
        # group_concat takes the rows in the order the subquery yields them: SQLite never
        # flattens an ORDER BY subquery into an aggregate (query flattener rule 16), so the
        # subquery runs as a co-routine in version order. The contract suite checks it.
        sql = (
            "SELECT CAST('[' || coalesce(group_concat(data, ','), '') || ']' AS BLOB) FROM "
            "(SELECT data FROM events WHERE battle_id = ? AND version > ? AND version <= ? "
            "ORDER BY version)"
        )
        args = (battle_id, after, MAX_VERSION if upto is None else upto)
        row = await self._read(lambda c: c.execute(sql, args).fetchone())
        return bytes(row[0])

    async def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?"
        rows = await self._read(lambda c: c.execute(sql, (after_position, limit)).fetchall())
        return [_row_to_event(r) for r in rows]

    async def last_position(self) -> int:
        row = await self._read(lambda c: c.execute("SELECT max(position) FROM events").fetchone())
        return int(row[0] or 0)

    async def head(self, battle_id: str) -> StoredEvent | None:
        sql = f"SELECT {_COLUMNS} FROM events WHERE battle_id = ? ORDER BY version DESC LIMIT 1"
        row = await self._read(lambda c: c.execute(sql, (battle_id,)).fetchone())
        return None if row is None else _row_to_event(row)

    async def find_command(self, battle_id: str, command_id: str) -> CommandRecord | None:
        sql = (
            "SELECT request_hash, first_version, last_version FROM commands "
            "WHERE battle_id = ? AND command_id = ?"
        )
        row = await self._read(lambda c: c.execute(sql, (battle_id, command_id)).fetchone())
        if row is None:
            return None
        return CommandRecord(
            battle_id=battle_id,
            command_id=command_id,
            request_hash=row[0],
            first_version=row[1],
            last_version=row[2],
        )

    async def save_keys(self, keys: Sequence[AccessKey]) -> None:
        def job(cur: sqlite3.Cursor) -> None:
            cur.executemany(
                "INSERT INTO access_keys (key_hash, battle_id, role, side, mac) "
                "VALUES (?, ?, ?, ?, ?)",
                [(k.key_hash, k.battle_id, k.role, k.side, k.mac) for k in keys],
            )

        await self._write(job)

    async def find_key(self, key_hash: str) -> AccessKey | None:
        sql = "SELECT battle_id, role, side, mac FROM access_keys WHERE key_hash = ?"
        row = await self._read(lambda c: c.execute(sql, (key_hash,)).fetchone())
        if row is None:
            return None
        return AccessKey(key_hash=key_hash, battle_id=row[0], role=row[1], side=row[2], mac=row[3])

    async def save_player_key(self, key: PlayerKey) -> None:
        sql = f"INSERT INTO player_keys ({PLAYER_KEY_COLUMNS}) VALUES ({', '.join('?' * 10)})"
        await self._write(lambda cur: cur.execute(sql, player_key_params(key)))

    async def find_player_key(self, key_hash: str) -> PlayerKey | None:
        sql = find_player_key_sql("?")
        row = await self._read(lambda c: c.execute(sql, (key_hash,)).fetchone())
        return None if row is None else row_to_player_key(row)

    async def list_player_keys(self, battle_id: str) -> list[PlayerKey]:
        sql = list_player_keys_sql("?")
        rows = await self._read(lambda c: c.execute(sql, (battle_id,)).fetchall())
        return [row_to_player_key(r) for r in rows]

    async def revoke_player_key(self, battle_id: str, key_id: str, at: str) -> bool:
        def job(cur: sqlite3.Cursor) -> bool:
            found = cur.execute(
                "SELECT r.key_id FROM player_keys k LEFT JOIN key_revocations r "
                "ON r.key_id = k.key_id WHERE k.key_id = ? AND k.battle_id = ?",
                (key_id, battle_id),
            ).fetchone()
            if found is None:
                return False
            if found[0] is None:  # revoked once: the first time stands (the guards refuse more)
                cur.execute(
                    "INSERT INTO key_revocations (key_id, battle_id, revoked_at) VALUES (?, ?, ?)",
                    (key_id, battle_id, at),
                )
            return True

        return bool(await self._write(job))

    async def save_secret(self, battle_id: str, name: str, value: bytes) -> None:
        await self._write(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO secrets (battle_id, name, value) VALUES (?, ?, ?)",
                (battle_id, name, value),
            )
        )

    async def load_secret(self, battle_id: str, name: str) -> bytes | None:
        sql = "SELECT value FROM secrets WHERE battle_id = ? AND name = ?"
        row = await self._read(lambda c: c.execute(sql, (battle_id, name)).fetchone())
        return None if row is None else bytes(row[0])

    async def save_snapshot(
        self, battle_id: str, version: int, ruleset_version: str, data: bytes
    ) -> None:
        def job(cur: sqlite3.Cursor) -> None:
            for drop in _DROP_OTHER_RULESETS:
                cur.execute(drop, (battle_id, ruleset_version))
            cur.execute(
                "INSERT OR REPLACE INTO snapshots (battle_id, version, ruleset_version, data) "
                "VALUES (?, ?, ?, ?)",
                (battle_id, version, ruleset_version, data),
            )

        await self._write(job)

    async def latest_snapshot(
        self, battle_id: str, ruleset_version: str, at_most: int | None = None
    ) -> tuple[int, bytes] | None:
        sql = (
            "SELECT version, data FROM snapshots WHERE battle_id = ? AND ruleset_version = ? "
            "AND version <= ? ORDER BY version DESC LIMIT 1"
        )
        args = (battle_id, ruleset_version, MAX_VERSION if at_most is None else at_most)
        row = await self._read(lambda c: c.execute(sql, args).fetchone())
        return None if row is None else (int(row[0]), bytes(row[1]))

    async def save_integration(self, integration: Integration) -> None:
        i = integration
        await self._write(
            lambda c: c.execute(
                "INSERT INTO integrations (integration_id, key_hash, name, mac) "
                "VALUES (?, ?, ?, ?)",
                (i.integration_id, i.key_hash, i.name, i.mac),
            )
        )

    async def find_integration(self, key_hash: str) -> Integration | None:
        sql = "SELECT integration_id, name, mac FROM integrations WHERE key_hash = ?"
        row = await self._read(lambda c: c.execute(sql, (key_hash,)).fetchone())
        if row is None:
            return None
        return Integration(integration_id=row[0], key_hash=key_hash, name=row[1], mac=row[2])

    async def link_battle(self, integration_id: str, battle_id: str, mac: str = "") -> None:
        await self._write(
            lambda c: c.execute(
                "INSERT OR IGNORE INTO integration_battles (integration_id, battle_id, mac) "
                "VALUES (?, ?, ?)",
                (integration_id, battle_id, mac),
            )
        )

    async def find_link(self, integration_id: str, battle_id: str) -> str | None:
        sql = "SELECT mac FROM integration_battles WHERE integration_id = ? AND battle_id = ?"
        row = await self._read(lambda c: c.execute(sql, (integration_id, battle_id)).fetchone())
        return None if row is None else str(row[0])

    async def read_firsts(
        self,
        after_position: int = 0,
        limit: int = 100,
        *,
        integration_id: str | None = None,
        battle_id: str | None = None,
    ) -> list[StoredEvent]:
        sql, args = firsts_query(_COLUMNS, "?", after_position, limit, integration_id, battle_id)
        rows = await self._read(lambda c: c.execute(sql, args).fetchall())
        return [_row_to_event(r) for r in rows]

    async def read_linked(
        self, integration_id: str, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        sql = (
            f"SELECT {_COLUMNS} FROM events WHERE position > ? AND battle_id IN "
            "(SELECT battle_id FROM integration_battles WHERE integration_id = ?) "
            "ORDER BY position LIMIT ?"
        )
        rows = await self._read(
            lambda c: c.execute(sql, (after_position, integration_id, limit)).fetchall()
        )
        return [_row_to_event(r) for r in rows]
