"""Disputes' corrections, checked against their rulings (issue 36; docs/VERIFYING.md,
"Disputes' corrections").

Every event an upheld `ResolveDispute` appends as its correction names the dispute
(`dispute`, in its hash: events.chain), and the `DisputeResolved` appended right after
them lists their versions (`correcting_versions`) and says that they name it (`linked`;
absent on a ruling written before corrections named their dispute, and in a battle of
chain format 1, whose hash cannot cover the name). A verifier checks that the two agree,
on the whole events it was given (a sealed event shows neither):

- every `DisputeResolved` says which dispute it settles and which versions correct it
  (a malformed one fails at its own version);
- each version a `DisputeResolved` of dispute X lists comes before the resolution, and,
  when it is `linked`, every whole event it lists names X;
- every whole event naming X is listed by X's `DisputeResolved` when that is whole, and
  when it is not, the event right after the last whole event naming X is sealed (the
  service appends the resolution right after its correction: that sealed event is the
  resolution, hidden from this reader with its dispute, or a hidden event of the
  correction).

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
    linked: bool = False


_decode_resolved = msgspec.json.Decoder(_Resolved)
_MALFORMED = (
    "whose data does not say which dispute it settles (dispute_id, a string) and which "
    "versions correct it (correcting_versions, a list of integers; linked, true or false)"
)

# (version of the DisputeResolved, the dispute's id, its correcting_versions, whether
# they name it); the id is None when the event's data does not say (malformed)
Resolution = tuple[int, str | None, list[int], bool]


def resolution_of(version: int, data: bytes) -> Resolution:
    """What a whole `DisputeResolved` event says of its correction (a malformed one: no
    dispute, which `dispute_break` refuses at its version rather than raising)."""
    try:
        resolved = _decode_resolved.decode(data)
    except msgspec.DecodeError:  # ValidationError included: a verifier answers, not raises
        return version, None, [], False
    return version, resolved.dispute_id, list(resolved.correcting_versions), resolved.linked


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
    last_named: dict[str, int] = {}
    for version, named_by in linked:
        last_named[named_by] = max(version, last_named.get(named_by, 0))
    settled: dict[str, Resolution] = {}
    found: list[tuple[int, str]] = []
    for resolution in resolutions:
        at, ruled_on, correcting, linking = resolution
        if ruled_on is None:
            found.append((at, f"event {at} is a DisputeResolved {_MALFORMED}"))
            continue
        dispute = ruled_on
        settled.setdefault(dispute, resolution)
        for version in correcting:
            named = names.get(version)
            if not 1 <= version < at:
                why = f"lists correcting version {version}, which is not before it"
                found.append((at, f"the DisputeResolved of dispute {dispute} (event {at}) {why}"))
            elif linking and version not in stubs and named != dispute:
                says = "names no dispute" if named is None else f"names dispute {named}"
                why = f"is among the correcting versions of dispute {dispute} (event {at})"
                found.append((version, f"event {version} {why} but {says}"))
    for version, dispute in linked:
        ruled = settled.get(dispute)
        if ruled is not None and version not in ruled[2]:
            why = f"whose DisputeResolved (event {ruled[0]}) does not list it"
            found.append((version, f"event {version} names dispute {dispute}, {why}"))
        elif ruled is None and last_named[dispute] + 1 not in stubs:
            why = "which no DisputeResolved after it settles"
            found.append((version, f"event {version} names dispute {dispute}, {why}"))
    return min(found, default=None)
