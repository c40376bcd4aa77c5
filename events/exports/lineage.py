"""A fork checked against its parent's export (docs/VERIFYING.md, "Forks and imports").

A fork's first event (`BattleCreated`, hashed) names its parent (`forked_from`), the
version it was forked at (`forked_at`) and the parent's hash there (`forked_head_hash`).
Holding the parent's export, a verifier checks that it verifies itself and that its
event at that version has that hash: the fork started from that history. A failure is
the fork's, at version 1 (the event that makes the claim). Pure: the caller verifies
both files (events.exports) and hands over what this needs of them.
"""

from __future__ import annotations

import msgspec

__all__ = ["ForkPoint", "fork_point", "parent_break"]

_decode = msgspec.json.Decoder()


class ForkPoint(msgspec.Struct, frozen=True, kw_only=True):
    """Where a fork's history comes from, as its first event records it."""

    battle_id: str
    version: int
    head_hash: str


def fork_point(facts: list[tuple[int, str, bytes]]) -> ForkPoint | None:
    """The fork point its `BattleCreated` (version 1, among the dice facts an export's scan
    keeps) names; None for a battle that is not a fork."""
    for version, type_, data in facts:
        if version != 1 or type_ != "BattleCreated":
            continue
        created = _decode.decode(data)
        if not isinstance(created, dict):  # a hand-made file: the report says it is malformed
            return None
        parent, at, head = (
            created.get(k) for k in ("forked_from", "forked_at", "forked_head_hash")
        )
        if isinstance(parent, str) and isinstance(at, int) and isinstance(head, str):
            return ForkPoint(battle_id=parent, version=at, head_hash=head)
        return None
    return None


def parent_break(
    fork: ForkPoint | None,
    parent_battle: str,
    parent_failure: str | None,
    parent_last: int,
    parent_hash: str | None,
) -> str | None:
    """Why the parent's export does not vouch for the fork's start (None: it does).
    `parent_failure`: the parent export's own first failure (None: it verifies);
    `parent_last`: its last version; `parent_hash`: its event's hash at the fork's
    version (None: it holds no such event)."""
    if fork is None:
        return "the battle is not a fork (its BattleCreated names no forked_from)"
    if parent_battle != fork.battle_id:
        return (
            f"the fork names parent {fork.battle_id}, but the parent's export is of battle "
            f"{parent_battle}"
        )
    if parent_failure is not None:
        return f"the parent's export does not verify: {parent_failure}"
    if parent_hash is None or fork.version > parent_last:
        return (
            f"the fork was made at the parent's version {fork.version}, but the parent's "
            f"export ends at version {parent_last}"
        )
    if parent_hash != fork.head_hash:
        return (
            f"the fork was made at the parent's version {fork.version} with head hash "
            f"{fork.head_hash[:16]}…, but the parent's event {fork.version} has hash "
            f"{parent_hash[:16]}…"
        )
    return None
