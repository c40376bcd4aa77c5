"""The referee's desk on the command line: `export` a battle from the store, `verify` an
exported file with nothing else, `replay` it to a version, `import` it into the store as
a new battle (service.desk.importing).

`verify` and `replay` need no server and no database: only the file (and, for `verify`,
the service's public key as the caller knows it, and receipts it kept). `verify` shows a
progress bar on a terminal (rich), none when its output is piped.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

__all__ = [
    "COMMANDS",
    "FAILED",
    "UNUSABLE",
    "UNVOUCHED",
    "VERIFIED",
    "VERIFY_EPILOG",
    "add_parsers",
    "export_command",
    "import_command",
    "replay_command",
    "run",
    "text_or_file",
    "verify_command",
]

COMMANDS = ("export", "verify", "replay", "import")

# `verify`'s exit status (also in its --help and the README).
VERIFIED, FAILED, UNUSABLE, UNVOUCHED = 0, 1, 2, 3
VERIFY_EPILOG = (
    "exit status: 0 VERIFIED (the file holds together and its receipts verify against a "
    "--key given); 1 FAILED (the chain, a die, a stub or a receipt does not hold); 2 the "
    "file or an argument cannot be read; 3 UNVOUCHED (the file holds together, but without "
    "--key its receipts were checked against the keys in the file itself, which whoever "
    "wrote it chose: nothing says this service signed it; or its header says the history was "
    "imported from a file signed by a key the service does not hold)"
)


def text_or_file(value: str) -> str:
    """`value` itself, or the contents of the file it names."""
    path = Path(value)
    try:
        if len(value) < 4096 and path.is_file():
            return path.read_text(encoding="utf-8")
    except OSError:
        pass
    return value


def add_parsers(sub: Any) -> None:
    """The desk's subcommands, on `battle-service`'s subparsers."""
    export = sub.add_parser(
        "export", help="write a battle as JSON Lines from BATTLE_DB (the whole log, with a receipt)"
    )
    export.add_argument("battle_id")
    export.add_argument("-o", "--out", help="the file to write (default: standard output)")
    verify = sub.add_parser(
        "verify",
        help="check an exported battle with no server and no database (exit 1 if it fails, "
        "3 if it holds but no --key vouches for its signer)",
        epilog=VERIFY_EPILOG,
    )
    verify.add_argument("file", help="the export (GET /battles/{id}/export or `export`)")
    verify.add_argument(
        "--key",
        action="append",
        default=[],
        help="the service's public key (GET /keys; repeat for several); without it the "
        "file's own keys are used and a file that holds exits 3, not 0",
    )
    verify.add_argument(
        "--receipt",
        action="append",
        default=[],
        help="a receipt kept from a command answer (its JSON or a file holding it; repeat)",
    )
    verify.add_argument(
        "--parent",
        help="a fork's parent's export: it must verify too (same keys), and hold the hash "
        "the fork was made at (docs/VERIFYING.md, 'Forks and imports')",
    )
    replay = sub.add_parser("replay", help="print the state an exported battle had at a version")
    replay.add_argument("file")
    replay.add_argument("--to", type=int, help="the version (default: the file's last)")
    imported = sub.add_parser(
        "import",
        help="verify an exported battle and store it in BATTLE_DB as a new battle (new id, "
        "new keys: printed once, as POST /battles/import answers them)",
    )
    imported.add_argument("file")
    imported.add_argument(
        "--allow-foreign",
        action="store_true",
        help="take a file signed by a key this service does not hold (its battle then reads "
        "'origin not verified by this service'); refused without it",
    )


def run(args: Any) -> int:
    if args.command == "export":
        return export_command(args.battle_id, args.out)
    if args.command == "verify":
        return verify_command(args.file, args.key, args.receipt, args.parent)
    if args.command == "import":
        return import_command(args.file, args.allow_foreign)
    return replay_command(args.file, args.to)


def export_command(battle_id: str, out: str | None) -> int:
    """Write the whole log of `battle_id` (as the referee sees it) from BATTLE_DB."""
    from service.app.factory import make_store, service_keys  # deferred: start-up time
    from service.battles.service import BattleService  # deferred: start-up time
    from service.desk.export import export_lines  # deferred: start-up time
    from service.errors import ServiceError  # deferred: start-up time
    from service.settings import Settings  # deferred: start-up time

    settings = Settings.from_env()

    async def run(sink: IO[bytes]) -> None:
        store = make_store(settings)
        keys = service_keys(settings, store)
        await store.open()
        try:
            service = BattleService(store, signing=keys, snapshot_every=0)
            async for chunk in await export_lines(service, battle_id, None):
                sink.write(chunk)
        finally:
            await store.close()

    try:
        if out is None:
            asyncio.run(run(sys.stdout.buffer))
        else:
            with open(out, "wb") as f:
                asyncio.run(run(f))
    except ServiceError as e:
        print(f"export failed: {e}", file=sys.stderr)
        return 1
    return 0


def import_command(file: str, allow_foreign: bool = False) -> int:
    """Verify `file` and store it in BATTLE_DB as a new battle; print the answer (its id
    and keys, shown once) as JSON."""
    from service.app.factory import make_store, service_keys  # deferred: start-up time
    from service.battles.service import BattleService  # deferred: start-up time
    from service.desk.importing import import_battle  # deferred: start-up time
    from service.errors import ServiceError  # deferred: start-up time
    from service.settings import Settings  # deferred: start-up time

    try:
        body = Path(file).read_bytes()
    except OSError as e:
        print(f"{file}: {e}", file=sys.stderr)
        return 2
    settings = Settings.from_env()

    async def run() -> Any:
        store = make_store(settings)
        keys = service_keys(settings, store)
        await store.open()
        try:
            service = BattleService(store, signing=keys, snapshot_every=0)
            return await import_battle(service, body, None, None, allow_foreign)
        finally:
            await store.close()

    try:
        answer = asyncio.run(run())
    except ServiceError as e:
        print(f"import refused: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(answer).decode(), indent=2) + "\n")
    return 0


def _lines(path: Path) -> Iterator[bytes]:
    with path.open("rb") as f:
        yield from f


def verify_command(
    file: str, keys: list[str], receipts: list[str], parent: str | None = None
) -> int:
    """Check an exported file offline (a fork against its `parent`'s export, if given);
    print what was checked and the first failure."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    from events.exports.file import verify_export_file  # deferred: start-up time
    from events.exports.format import InvalidExport  # deferred: start-up time
    from events.receipts import (
        InvalidReceipt,
        load_public_key,
        parse_receipt,
    )  # deferred: start-up time

    path = Path(file)
    try:
        public = [load_public_key(text_or_file(k).strip()) for k in keys]
        kept = [parse_receipt(text_or_file(r)) for r in receipts]
    except (ValueError, InvalidReceipt) as e:
        print(f"bad argument: {e}", file=sys.stderr)
        return UNUSABLE
    console = Console(stderr=True)
    try:
        if console.is_terminal:
            # Refreshed by the callback, not by rich's own thread: the scan forks its
            # workers, and a process should not fork while another thread holds a lock.
            with Progress(
                TextColumn("verifying"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                console=console, transient=True, auto_refresh=False,
            ) as bar:  # fmt: skip
                task = bar.add_task("verify", total=path.stat().st_size)

                def advance(done: int) -> None:
                    bar.update(task, completed=done)
                    bar.refresh()

                report = verify_export_file(path, keys=public, kept=kept, progress=advance)
        else:
            report = verify_export_file(path, keys=public, kept=kept)
    except InvalidExport as e:
        print(f"{file}: not a readable export: {e}", file=sys.stderr)
        return FAILED
    except OSError as e:
        print(f"{file}: {e}", file=sys.stderr)
        return UNUSABLE
    note = None
    if parent is not None and report.ok:
        try:
            report, note = _against_parent(report, Path(parent), public)
        except InvalidExport as e:
            print(f"{parent}: not a readable export: {e}", file=sys.stderr)
            return FAILED
        except OSError as e:
            print(f"{parent}: {e}", file=sys.stderr)
            return UNUSABLE
    _print_report(report, note)
    if not report.ok:
        return FAILED
    return VERIFIED if report.vouched else UNVOUCHED


def _against_parent(report: Any, parent: Path, public: list[Any]) -> tuple[Any, str]:
    """The fork's report, failed at version 1 unless the parent's export verifies and holds
    the hash the fork was made at (events.exports.lineage)."""
    from events.exports.file import verify_export_file  # deferred: start-up time
    from events.exports.format import read_export  # deferred: start-up time
    from events.exports.lineage import parent_break  # deferred: start-up time

    checked = verify_export_file(parent, keys=public)
    header, events, _ = read_export(_lines(parent))
    fork = report.forked_from
    held = (
        None if fork is None else next((e.hash for e in events if e.version == fork.version), None)
    )
    last = events[-1].version if events else 0
    why = parent_break(fork, header.battle_id, checked.first_failure, last, held)
    if why is None:
        return report, f"{header.battle_id}: its export verifies and holds the fork's start"
    failed = msgspec.structs.replace(report, ok=False, first_failure=f"version 1: {why}")
    return failed, "FAILED (below)"


def _print_report(report: Any, parent: str | None = None) -> None:
    print(f"battle {report.battle_id}")
    print(
        f"  chain: {'ok' if report.chain_ok else 'BROKEN'} ({report.events_checked} events, "
        f"{report.events_sealed} sealed: checked by their links)"
    )
    print(
        f"  dice: {'ok' if report.dice_ok else 'FAILED'} ({report.dice_checked} server dice "
        f"recomputed, {report.dice_pending} pending an unrevealed seed, {report.client_dice} "
        "from the table)"
    )
    where = (
        "the keys given" if report.keys_from == "caller"
        else "the file's own keys (pass --key from GET /keys to prove who signed)"
    )  # fmt: skip
    for r in report.receipts:
        print(
            f"  receipt ({r.source}, version {r.version}): {'ok' if r.ok else 'FAILED'}: {r.detail}"
        )
    print(f"  receipts checked against {where}")
    if report.origin is not None and report.origin.note is not None:
        print(f"  origin: {report.origin.note} (as the exporting service says)")
    if report.unvouched_history and report.keys_from == "caller":
        print(
            "  origin: imported from a file signed by key "
            f"{', '.join(report.unvouched_history)}, not among the keys given"
        )
    if parent is not None:
        print(f"  parent: {parent}")
    if not report.ok:
        print(f"FAILED: {report.first_failure}")
    elif report.vouched:
        print("VERIFIED")
    elif report.keys_from == "caller":
        print("UNVOUCHED: the receipts verify, but the service that signed them did not "
              "sign the history it was imported from (see origin)")  # fmt: skip
    else:
        # Not "VERIFIED": a forger's file, signed with the forger's key placed in its own
        # header, holds together just as well (issue 31, item 8).
        signers = ", ".join(report.signers) or "none"
        print(
            f"UNVOUCHED: the file holds together, but it is signed by key {signers}, taken "
            "from the file itself: nothing says this service signed it (pass --key from "
            "GET /keys)"
        )


def replay_command(file: str, to: int | None) -> int:
    """Print the referee's view of the state at version `to` (default: the file's head)."""
    from domain.actors import Actor  # deferred: start-up time
    from domain.battle import Timeline  # deferred: start-up time
    from domain.rulesets import get_ruleset  # deferred: start-up time
    from events.envelope import StoredEvent  # deferred: start-up time
    from events.exports.format import InvalidExport, read_export  # deferred: start-up time

    try:
        header, events, _ = read_export(_lines(Path(file)))
    except (InvalidExport, OSError) as e:
        print(f"{file}: {e}", file=sys.stderr)
        return 2
    whole = [e for e in events if type(e) is StoredEvent]
    if len(whole) != len(events):
        print(
            f"{file}: {len(events) - len(whole)} events are sealed in this export: replay "
            "needs an export by the referee (or of a finished battle)",
            file=sys.stderr,
        )
        return 2
    ruleset = get_ruleset(header.ruleset)
    if ruleset is None:
        print(f"ruleset {header.ruleset} is not in this build", file=sys.stderr)
        return 2
    version = header.version if to is None else to
    if not 1 <= version <= len(whole):
        print(f"--to {version} is outside 1..{len(whole)}", file=sys.stderr)
        return 2
    timeline = Timeline(ruleset)
    try:
        timeline.extend(e.data for e in whole[:version])
    except Exception as e:  # a fork's start or a log this build cannot fold: say which
        print(f"cannot replay {file} to version {version}: {e}", file=sys.stderr)
        return 1
    state = timeline.state_at(version)
    view = ruleset.view(state.game, Actor(role="referee"))
    out = {"battle_id": header.battle_id, "version": version, "state": view}
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(out).decode(), indent=2) + "\n")
    return 0
