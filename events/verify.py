"""Audit of a whole battle log: the hash chain, then every server die recomputed.

Dice are found by shape: any JSON object with `"kind": "roll"` in any event's data
(see `domain.dice.Roll`). Each value of a server roll is one die, recomputed at the roll
counter (version, index + i) from the seed of its epoch once that seed is revealed
(`DiceSeedRevealed`), after checking the seed against the commitment published for that
epoch (`BattleCreated`, then each reveal's `next_commitment`). Dice of an epoch not yet
revealed are counted as pending. The report counts dice (values), not rolls.

A reader who may not see some events audits the log it was given: those events come
sealed (`SealedEvent`), their links are checked and their dice are not (they are not
given). `decode_read` turns what the HTTP API answers (a JSON array of events, some of
them `{"sealed": true, ...}`) into what `audit_log` takes, keeping each event's data
byte for byte as it was hashed, so any client can run this audit on its own copy.

Every server die must also have used the client seeds the sides set before it
(`ClientSeedSet`): its recorded `client_seed` is checked to be `client_seed_for` of
them, revealed or not, so a server that ignored a side's seed is caught.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from domain.dice import client_seed_for, commitment, derive_value
from events.chain import find_chain_break
from events.envelope import EventActor, SealedEvent, StoredEvent

__all__ = ["LogAudit", "ReadEvent", "audit_log", "decode_read", "read_event"]

_decode = msgspec.json.Decoder()


class ReadEvent(msgspec.Struct, kw_only=True):
    """One event of a read as the API answers it, whole or sealed."""

    version: int
    audience: str
    prev_hash: str
    hash: str
    sealed: bool = False
    battle_id: str = ""
    position: int = 0
    type: str = ""
    data: msgspec.Raw = msgspec.Raw(b"null")
    recorded_at: str = ""
    actor: EventActor = EventActor(role="")
    command_id: str | None = None
    salt: str | None = None


_decode_read = msgspec.json.Decoder(list[ReadEvent])


def decode_read(events_json: bytes) -> list[StoredEvent | SealedEvent]:
    """The events of a JSON array as the API answers them (an `EventPage`'s `events`)."""
    return [read_event(e) for e in _decode_read.decode(events_json)]


def read_event(e: ReadEvent) -> StoredEvent | SealedEvent:
    """One event as a read gave it, in the form `audit_log` takes."""
    if e.sealed:
        return SealedEvent(
            version=e.version, audience=e.audience, prev_hash=e.prev_hash, hash=e.hash
        )
    return StoredEvent(
        battle_id=e.battle_id,
        version=e.version,
        position=e.position,
        type=e.type,
        data=bytes(e.data),
        audience=e.audience,
        recorded_at=e.recorded_at,
        actor=e.actor,
        command_id=e.command_id,
        prev_hash=e.prev_hash,
        hash=e.hash,
        salt=e.salt,
    )


class LogAudit(msgspec.Struct, frozen=True, kw_only=True):
    events_checked: int
    chain_ok: bool
    dice_ok: bool
    dice_checked: int
    dice_pending: int
    client_dice: int
    failed_version: int | None = None
    reason: str | None = None
    events_sealed: int = 0  # checked by their links only (see `SealedEvent`)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.dice_ok


_READ = frozenset({"BattleCreated", "DiceSeedRevealed", "ClientSeedSet"})


def _may_matter(ev: StoredEvent) -> bool:
    """Whether the audit must decode the event: the dice epochs' and the sides' seeds
    come from three types, and a die can only be in data whose text holds `roll` or a
    `\\u` escape (the only other way JSON can spell it). Most events hold neither, and
    decoding and walking them was most of an audit's time."""
    return ev.type in _READ or b"roll" in ev.data or b"\\u" in ev.data


def _rolls_in(obj: Any) -> Iterator[dict[str, Any]]:
    """Every roll in `obj`, depth first in document order (a roll before what it holds).
    A loop over a stack: recursive generators cost most of a long audit's time."""
    stack = [obj]
    pop, push = stack.pop, stack.extend
    while stack:
        x = pop()
        t = type(x)
        if t is dict:
            if x.get("kind") == "roll":
                yield x
            children = [v for v in x.values() if type(v) is dict or type(v) is list]
        elif t is list:
            children = [v for v in x if type(v) is dict or type(v) is list]
        else:
            continue
        children.reverse()
        push(children)


def audit_log(events: Sequence[StoredEvent | SealedEvent]) -> LogAudit:
    """Check the chain and every die of one battle's complete log (in version order);
    sealed events by their links only."""
    brk = find_chain_break(events)
    if brk is not None:
        return LogAudit(
            events_checked=len(events),
            chain_ok=False,
            dice_ok=False,
            dice_checked=0,
            dice_pending=0,
            client_dice=0,
            failed_version=brk.version,
            reason=brk.reason,
        )
    whole = [ev for ev in events if type(ev) is StoredEvent]
    sealed = len(events) - len(whole)
    decoded = [(ev, _decode.decode(ev.data)) for ev in whole if _may_matter(ev)]
    commitments: dict[int, str] = {}
    seeds: dict[int, bytes] = {}
    for ev, data in decoded:
        if ev.type == "BattleCreated":
            commitments[data["dice_epoch"]] = data["dice_commitment"]
        elif ev.type == "DiceSeedRevealed":
            epoch, seed_hex = data["epoch"], data["seed"]
            try:
                seed = bytes.fromhex(seed_hex)
            except (TypeError, ValueError):
                return _dice_failure(
                    events, ev.version, f"revealed seed of epoch {epoch} is not hex"
                )
            if commitments.get(epoch) != commitment(seed):
                return _dice_failure(
                    events,
                    ev.version,
                    f"the seed revealed for epoch {epoch} does not match its commitment "
                    f"{commitments.get(epoch)}",
                )
            seeds[epoch] = seed
            if data.get("next_epoch") is not None:
                commitments[data["next_epoch"]] = data["next_commitment"]
    side_seeds = _SideSeeds(decoded)
    checked = pending = client = 0
    seen: dict[tuple[int, int], tuple[Any, ...]] = {}
    battle_id = whole[0].battle_id if whole else ""
    for ev, data in decoded:
        for roll in _rolls_in(data):
            values = roll.get("values")
            if not isinstance(values, list):
                if roll.get("source") != "server":
                    continue
                return _dice_failure(events, ev.version, "a server die is malformed")
            if roll.get("source") != "server":
                client += len(values)
                continue
            epoch, version, index = roll.get("epoch"), roll.get("version"), roll.get("index")
            if epoch not in commitments or version is None or index is None:
                return _dice_failure(events, ev.version, "a server die names no committed epoch")
            if not isinstance(version, int) or not isinstance(index, int):
                return _dice_failure(events, ev.version, "a server die is malformed")
            used = roll.get("client_seed", "")
            if not side_seeds.used_by(version, used):
                return _dice_failure(
                    events,
                    ev.version,
                    f"roll {version}/{index} ({roll.get('purpose')}) did not use the client "
                    f"seeds the sides had set: {side_seeds.expected_sides(version)}",
                )
            revealed = seeds.get(epoch)
            for i, value in enumerate(values):
                counter = (version, index + i)
                die = (epoch, roll.get("sides"), value, used, roll.get("purpose"), ev.version)
                earlier = seen.get(counter)
                # A later event may quote a die whole (a tactical attack resolved after the
                # target's reaction repeats the attack roll): the same die, counted once.
                # Anything else on a used counter, or within one event, is a reuse.
                if earlier is not None and earlier[:5] == die[:5] and earlier[5] < ev.version:
                    continue
                if earlier is not None or version > ev.version:
                    return _dice_failure(
                        events,
                        ev.version,
                        f"server die ({version}, {index + i}) reuses a roll counter",
                    )
                seen[counter] = die
                if revealed is None:
                    pending += 1
                    continue
                try:
                    expected = derive_value(
                        revealed,
                        battle_id,
                        version,
                        index + i,
                        roll.get("client_seed", ""),
                        roll["sides"],
                    )
                except (KeyError, TypeError, ValueError):
                    return _dice_failure(events, ev.version, "a server die is malformed")
                if expected != value:
                    return _dice_failure(
                        events,
                        ev.version,
                        f"die {index + i} of roll {version} ({roll.get('purpose')}) shows "
                        f"{value}, but the revealed seed gives {expected}",
                    )
                checked += 1
    return LogAudit(
        events_checked=len(events),
        chain_ok=True,
        dice_ok=True,
        dice_checked=checked,
        dice_pending=pending,
        client_dice=client,
        events_sealed=sealed,
    )


class _SideSeeds:
    """The client seeds the sides had set before each version (`ClientSeedSet`)."""

    def __init__(self, decoded: Sequence[tuple[StoredEvent, Any]]) -> None:
        self._versions: list[int] = []  # versions of the ClientSeedSet events, ascending
        self._seeds: list[dict[str, str]] = []  # the seeds in force right after each
        current: dict[str, str] = {}
        for ev, data in decoded:
            if ev.type == "ClientSeedSet":
                current = {**current, str(data.get("side")): str(data.get("seed"))}
                self._versions.append(ev.version)
                self._seeds.append(current)

    def expected_sides(self, version: int) -> dict[str, str]:
        """The sides' seeds in force for a command whose first event is `version`."""
        at = bisect_left(self._versions, version)  # the seeds set strictly before it
        return self._seeds[at - 1] if at else {}

    def used_by(self, version: int, client_seed: object) -> bool:
        """Whether `client_seed`, as a roll recorded it, combines the sides' seeds then."""
        if not isinstance(client_seed, str):
            return False
        sides = self.expected_sides(version)
        if not sides:
            return True  # the command's own seed, whatever it was
        try:
            combined = _decode.decode(client_seed)
        except msgspec.DecodeError:
            return False
        command = combined.get("command") if isinstance(combined, dict) else None
        return isinstance(command, str) and client_seed_for(command, sides) == client_seed


def _dice_failure(
    events: Sequence[StoredEvent | SealedEvent], version: int, reason: str
) -> LogAudit:
    return LogAudit(
        events_checked=len(events),
        chain_ok=True,
        dice_ok=False,
        dice_checked=0,
        dice_pending=0,
        client_dice=0,
        failed_version=version,
        reason=reason,
    )
