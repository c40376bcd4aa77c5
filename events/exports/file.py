"""`battle-service verify` of a file: cut at line boundaries, scanned by several processes.

Each event's hash covers only the event (its own `prev_hash` included), so the chunks of
a file are scanned apart (events.exports.scan) and linked afterwards
(`events.exports.format.combine_scans`), which also checks the dice in order. A chunk is
at most `_CHUNK` bytes of lines: memory stays bounded, and the progress bar moves as
chunks finish.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.exports.format import ExportReport, combine_scans, read_header, wanted_versions
from events.exports.scan import ChunkScan, scan_lines
from events.receipts import Receipt

__all__ = ["verify_export_file"]


_CHUNK = 16 * 1024 * 1024  # bytes of lines per scan: bounded memory, a steady progress bar


def _scan_range(path: str, start: int, end: int, wanted: frozenset[int]) -> ChunkScan:
    """Scan the lines in bytes [start, end) of the file (both at line starts)."""
    with open(path, "rb") as f:
        f.seek(start)
        block = f.read(end - start)
    lines = block.split(b"\n")
    if block.endswith(b"\n"):
        lines.pop()  # the split's empty tail is not a line
    return scan_lines(lines, wanted, escapes=b"\\u" in block)


def verify_export_file(
    path: str | os.PathLike[str],
    *,
    keys: Sequence[Ed25519PublicKey] = (),
    kept: Sequence[Receipt] = (),
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> ExportReport:
    """`verify_export` of a file, cut at line boundaries into chunks scanned by `workers`
    processes (default: one per CPU; 1: in this process). The chain is linked across the
    chunks' ends afterwards, and the dice checked in order. `progress` is told how many
    bytes were checked, as chunks finish."""
    path = os.fspath(path)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        header, at = read_header(iter(f.readline, b""))
        ranges = []
        start = f.tell()
        while start < size:
            f.seek(min(start + _CHUNK, size))
            f.readline()  # to the end of the line the cut fell in
            end = max(f.tell(), start + 1) if start + _CHUNK < size else size
            ranges.append((start, end))
            start = end
    wanted = wanted_versions(header, kept)
    workers = workers or os.cpu_count() or 1

    def done(scans: Iterable[ChunkScan]) -> Iterator[ChunkScan]:
        for (_, end), scan in zip(ranges, scans, strict=True):
            if progress is not None:
                progress(end)
            yield scan

    if workers == 1 or len(ranges) < 2:
        alone = (_scan_range(path, s, e, wanted) for s, e in ranges)
        return combine_scans(header, at, done(alone), keys=keys, kept=kept)
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(ranges)), mp_context=context) as pool:
        scans = pool.map(_scan_range, *zip(*[(path, s, e, wanted) for s, e in ranges], strict=True))
        return combine_scans(header, at, done(scans), keys=keys, kept=kept)
