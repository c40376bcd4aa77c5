"""`make bench` (python -m bench.verify_export): `battle-service verify` on a long export.

Writes a 1,000,000-event quickstart export (bench.__main__.bench_log: played scripts,
each followed by an Undo; the events as `GET /battles/{id}/export` writes them, a signed
receipt at the end) to a temporary file, then times `verify_export` over it as the CLI
runs it (`verify_export_file`: the file cut into chunks scanned by one process per CPU):
the whole chain rehashed, the dice audited and the receipt checked. Target: under 5 s.
Not a test: it reports.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from bench.__main__ import bench_log
from events.envelope import StoredEvent
from events.exports.file import verify_export_file
from events.exports.format import (
    EXPORT_FORMAT,
    ExportHeader,
    ExportKey,
    ExportReader,
    encode_line,
)
from events.receipts import b64url
from service.battles.sealing import event_out
from service.battles.signing import ServiceKeys, public_key_raw

__all__ = ["main", "write_export"]


def write_export(path: Path, events: int, keys: ServiceKeys) -> None:
    battle_id = "bench-export"
    body = path.with_suffix(".body")
    head_version, head_hash = 0, ""
    with body.open("wb") as f:
        for chunk in bench_log(battle_id, events, distinct=16):
            f.write(
                b"".join(
                    encode_line(event_out(StoredEvent(position=e.version, **_fields(e))))
                    for e in chunk
                )
            )
            head_version, head_hash = chunk[-1].version, chunk[-1].hash
    header = ExportHeader(
        format=EXPORT_FORMAT, battle_id=battle_id, ruleset="quickstart", version=head_version,
        head_hash=head_hash, reader=ExportReader(role="referee"), exported_at="bench",
        public_keys=[
            ExportKey(key_id=k, public_key=b64url(public_key_raw(key)))
            for k, key in keys.public_keys()
        ],
    )  # fmt: skip
    receipt = keys.receipt(battle_id, head_version, head_hash)
    with path.open("wb") as out, body.open("rb") as f:
        out.write(encode_line(header))
        while block := f.read(1 << 20):
            out.write(block)
        out.write(encode_line({"receipt": receipt}))
    body.unlink()


def _fields(e: object) -> dict[str, object]:
    names = (
        "battle_id", "version", "type", "data", "audience", "recorded_at", "actor",
        "command_id", "prev_hash", "hash", "salt",
    )  # fmt: skip
    return {n: getattr(e, n) for n in names}


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the scan's workers)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.verify_export")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    keys = ServiceKeys.generate()
    print(f"== battle-service verify on a {args.events:,}-event export ==")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.jsonl"
        t0 = time.perf_counter()
        write_export(path, args.events, keys)
        print(f"written            : {path.stat().st_size / 1e6:,.0f} MB in "
              f"{time.perf_counter() - t0:.1f} s")  # fmt: skip
        times, cpus = [], []
        for _ in range(args.rounds):
            t0, c0 = time.perf_counter(), _cpu()
            report = verify_export_file(path)
            times.append(time.perf_counter() - t0)
            cpus.append(_cpu() - c0)
            assert report.ok, report.first_failure
        best = min(times)
        print(
            f"verify             : {best:.2f} s best of {args.rounds} "
            f"({args.events / best:,.0f} events/s; target < 5 s; {os.cpu_count()} CPUs), "
            f"{report.events_checked:,} events, {report.client_dice:,} table dice"
        )
        # On a shared machine the wall time says more about the neighbours than about
        # the code: the CPU time of all the processes, and the load, say which.
        print(
            f"verify CPU         : {min(cpus):.2f} s in all processes "
            f"(load average {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
