"""Disputes' corrections, checked against their rulings (issue 36; docs/VERIFYING.md,
"Disputes' corrections").

Every event an upheld `ResolveDispute` appends as its correction names the dispute
(`dispute`, in its hash: events.chain), and the `DisputeResolved` appended with them lists
their versions (`correcting_versions`). A verifier checks that the two agree, on the
whole events it was given (a sealed event shows neither):

- every whole event a `DisputeResolved` of dispute X lists names X, and each listed
  version comes before the resolution;
- every whole event naming X is listed by X's `DisputeResolved` when that is whole, and
  is followed by some sealed event (which may be that resolution, hidden from this
  reader with its dispute) when it is not.

Pure: both the log audit (events.verify) and the export audit (events.exports) call it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

__all__ = ["DISPUTE_RESOLVED", "Resolution", "dispute_break", "resolution_of"]

DISPUTE_RESOLVED = "DisputeResolved"


class _Resolved(msgspec.Struct):
    dispute_id: str
    correcting_versions: list[int] = []


_decode_resolved = msgspec.json.Decoder(_Resolved)

# (version of the DisputeResolved, the dispute's id, its correcting_versions)
Resolution = tuple[int, str, list[int]]


def resolution_of(version: int, data: bytes) -> Resolution:
    """What a whole `DisputeResolved` event says of its correction."""
    resolved = _decode_resolved.decode(data)
    return version, resolved.dispute_id, list(resolved.correcting_versions)


def dispute_break(
    linked: Sequence[tuple[int, str]],
    resolutions: Sequence[Resolution],
    sealed: Sequence[int],
) -> tuple[int, str] | None:
    """The lowest version at which the corrections and their rulings disagree, and why
    (None: they agree). `linked`: (version, dispute) of each whole event naming one;
    `resolutions`: each whole `DisputeResolved`; `sealed`: the sealed events' versions."""
    names = dict(linked)
    stubs = set(sealed)
    last_stub = max(stubs, default=0)
    settled: dict[str, Resolution] = {}
    found: list[tuple[int, str]] = []
    for resolution in resolutions:
        at, dispute, correcting = resolution
        settled.setdefault(dispute, resolution)
        for version in correcting:
            named = names.get(version)
            if not 1 <= version < at:
                why = f"lists correcting version {version}, which is not before it"
                found.append((at, f"the DisputeResolved of dispute {dispute} (event {at}) {why}"))
            elif version not in stubs and named != dispute:
                says = "names no dispute" if named is None else f"names dispute {named}"
                why = f"is among the correcting versions of dispute {dispute} (event {at})"
                found.append((version, f"event {version} {why} but {says}"))
    for version, dispute in linked:
        ruled = settled.get(dispute)
        if ruled is not None and version not in ruled[2]:
            why = f"whose DisputeResolved (event {ruled[0]}) does not list it"
            found.append((version, f"event {version} names dispute {dispute}, {why}"))
        elif ruled is None and last_stub < version:
            why = "which no DisputeResolved after it settles"
            found.append((version, f"event {version} names dispute {dispute}, {why}"))
    return min(found, default=None)
