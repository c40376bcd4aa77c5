"""The shapes the battle service answers, as msgspec Structs: views, command answers,
events, prompts (`awaiting`), `next_die`, reach and player keys.

They mirror the service's HTTP contract (issue 34). A battle's `state` and an event's
`data` differ per ruleset and stay plain JSON here (`dict[str, Any]`); unknown fields
are ignored, so a newer service does not break an older client.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = [
    "AwaitingChange",
    "BattleView",
    "CommandResult",
    "Created",
    "CreationKeys",
    "DiceNeed",
    "Event",
    "EventActor",
    "Excluded",
    "KeyInfo",
    "MintedKey",
    "NextDie",
    "Prompt",
    "Reach",
    "ReachSquare",
    "SealedEvent",
    "decode_event",
    "decode_result",
]


class NextDie(msgspec.Struct, frozen=True, kw_only=True):
    """The die (or `count` dice alike) a command given with table dice needs next."""

    sides: int
    count: int = 1
    purpose: str = ""
    subject: str | None = None


class DiceNeed(msgspec.Struct, frozen=True, kw_only=True):
    """A roll an answer to a prompt will need, known in advance (`when`: its condition)."""

    sides: int
    count: int = 1
    purpose: str = ""
    subject: str | None = None
    when: str | None = None


class Prompt(msgspec.Struct, frozen=True, kw_only=True):
    """One thing the battle waits for: who may answer (`role`, `side`, `subject`), the
    command types that answer it, the `choices` of a field where they are few, the dice."""

    id: str
    role: str
    commands: tuple[str, ...]
    reason: str = ""
    side: str | None = None
    subject: str | None = None
    choices: dict[str, list[str]] = {}
    dice: tuple[DiceNeed, ...] = ()
    optional: bool = False
    pass_with: str | None = None
    rule: str | None = None


class EventActor(msgspec.Struct, frozen=True, kw_only=True):
    role: str
    side: str | None = None
    label: str | None = None  # the player key's label, when a player key gave the order
    key_id: str | None = None


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """An event the caller may see. `data` is the ruleset's event (its `type` inside)."""

    battle_id: str
    version: int
    type: str
    data: dict[str, Any]
    audience: str = "all"
    actor: EventActor | None = None
    position: int | None = None
    ruleset: str | None = None
    recorded_at: str | None = None
    command_id: str | None = None
    prev_hash: str = ""
    hash: str = ""
    undone: bool = False


class SealedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event the caller may not see: its place in the chain, nothing more."""

    version: int
    audience: str
    prev_hash: str = ""
    hash: str = ""
    sealed: Literal[True] = True


def decode_event(raw: Any) -> Event | SealedEvent:
    """One event of a page, an answer or a stream (decoded JSON), whole or sealed."""
    if isinstance(raw, dict) and raw.get("sealed"):
        return msgspec.convert(raw, SealedEvent)
    return msgspec.convert(raw, Event)


class BattleView(msgspec.Struct, frozen=True, kw_only=True):
    """A battle as the caller's key may see it, with what it waits for (`awaiting`)."""

    battle_id: str
    ruleset: str
    version: int
    state: dict[str, Any]
    over: bool = False
    title: str = ""
    role: str = ""
    side: str | None = None
    awaiting: list[Prompt] = []
    etag: str | None = None  # from the answer's ETag header, for If-Match


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a command or a batch: the events appended, the new version, its
    receipt and what the battle awaits next in the caller's view."""

    battle_id: str
    version: int
    events: list[Event | SealedEvent]
    receipt: dict[str, Any]
    replayed: bool = False
    awaiting: list[Prompt] = []


class CreationKeys(msgspec.Struct, frozen=True, kw_only=True):
    """The keys a battle is created with: the referee's, the observer's, one per side."""

    referee: str
    observer: str
    sides: dict[str, str]


def decode_result(raw: dict[str, Any]) -> CommandResult:
    """A command's or a batch's answer (decoded JSON), its events whole or sealed."""
    # msgspec decodes a union of two Structs only by a tag; these are told by `sealed`.
    head = msgspec.convert(raw, _ResultHead)
    return CommandResult(
        battle_id=head.battle_id,
        version=head.version,
        events=[decode_event(e) for e in raw["events"]],
        receipt=head.receipt,
        replayed=head.replayed,
        awaiting=head.awaiting,
    )


class _ResultHead(msgspec.Struct, frozen=True, kw_only=True):
    battle_id: str
    version: int
    receipt: dict[str, Any]
    replayed: bool = False
    awaiting: list[Prompt] = []


class Created(msgspec.Struct, frozen=True, kw_only=True):
    """A new battle and its keys, shown once."""

    battle_id: str
    keys: CreationKeys


class KeyInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A player key as listed (never its secret)."""

    key_id: str
    role: str
    label: str
    side: str | None = None
    units: list[str] | None = None
    expires_at: str | None = None
    created_at: str | None = None
    revoked_at: str | None = None


class MintedKey(msgspec.Struct, frozen=True, kw_only=True):
    """A freshly minted player key: `key` is the secret, shown this once."""

    key_id: str
    key: str
    role: str
    label: str
    side: str | None = None
    units: list[str] | None = None
    expires_at: str | None = None
    created_at: str | None = None


class ReachSquare(msgspec.Struct, frozen=True, kw_only=True):
    x: int
    y: int
    cost: int
    facing: str | None = None


class Excluded(msgspec.Struct, frozen=True, kw_only=True):
    x: int
    y: int
    reason: str


class Reach(msgspec.Struct, frozen=True, kw_only=True):
    """The squares `unit` can reach with its next move (`command` moves it)."""

    unit: str
    command: str
    movement: int
    unit_of_movement: str = "squares"
    squares: list[ReachSquare] = []
    excluded: list[Excluded] = []
    reason: str | None = None


class AwaitingChange(msgspec.Struct, frozen=True, kw_only=True):
    """A stream's news that what the battle awaits (in the subscriber's view) changed."""

    battle_id: str
    version: int
    awaiting: list[Prompt]
