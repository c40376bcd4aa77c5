"""The shapes the battle service answers, as msgspec Structs: views, command answers,
events, prompts (`awaiting`), `next_die`, reach and player keys.

They mirror the service's HTTP contract (issue 34). A battle's `state` and an event
(its envelope and `data`) differ per ruleset: they are decoded into the classes
generated from the OpenAPI document (`battle_service_client.schema`, issue 35), picked
by the ruleset and the event's `type`. The answer as received stays in `raw`.
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec

from battle_service_client import schema
from battle_service_client.schema import EventActorOut, EventOut, SealedEventOut, State

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
    "UnknownEvent",
    "decode_event",
    "decode_result",
    "decode_view",
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


# Who gave the order an event records: `role`, and `side`, `label` (the player key's
# label) and `key_id` when a player key gave it.
EventActor = EventActorOut


# An event the caller may see: its ruleset's envelope (`QuickstartEventOut`, ...), whose
# `data` is that ruleset's event class, picked by its `type`. A type alias of the
# generated union (isinstance works with it).
Event = EventOut
# An event the caller may not see: its place in the chain, nothing more.
SealedEvent = SealedEventOut


class UnknownEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A whole event of a type (or ruleset) this library's document does not know: a
    newer service's. Its place in the chain is typed, its `data` left as JSON, so that a
    client built today keeps reading the streams of a service upgraded tomorrow."""

    version: int
    type: str
    ruleset: str = ""
    battle_id: str = ""
    position: int = 0
    hash: str = ""
    prev_hash: str = ""
    recorded_at: str = ""
    audience: str = "all"
    command_id: str | None = None
    command_version: int | None = None
    dispute: str | None = None  # the dispute an upheld ruling's correction answers
    undone: bool = False
    actor: dict[str, Any] = {}
    data: dict[str, Any] = {}


def _known_types() -> frozenset[tuple[str, str]]:
    """The (ruleset, event type) pairs the generated classes hold."""
    known: set[tuple[str, str]] = set()
    for envelope in typing.get_args(schema.EventOut):
        ruleset = envelope.__struct_config__.tag
        data = typing.get_type_hints(envelope, vars(schema))["data"]
        for member in typing.get_args(data):
            for cls in typing.get_args(member) or (member,):
                known.add((ruleset, cls.__struct_config__.tag))
    return frozenset(known)


_KNOWN = _known_types()


def decode_event(raw: Any) -> Event | SealedEvent | UnknownEvent:
    """One event of a page, an answer or a stream (decoded JSON), whole or sealed; an
    event of a type the document does not know is an `UnknownEvent` (never an error)."""
    # msgspec tells a union's Structs apart by one tag; a sealed event has no `ruleset`.
    if isinstance(raw, dict) and raw.get("sealed"):
        return msgspec.convert(raw, SealedEventOut)
    if isinstance(raw, dict) and (raw.get("ruleset"), raw.get("type")) not in _KNOWN:
        return msgspec.convert(raw, UnknownEvent)
    event: Event = msgspec.convert(raw, EventOut)  # a union: convert answers Any for it
    return event


class BattleView(msgspec.Struct, frozen=True, kw_only=True):
    """A battle as the caller's key may see it, with what it waits for (`awaiting`)."""

    battle_id: str
    ruleset: str
    version: int
    state: State  # the ruleset's state class (`QuickstartState`, ...), as the key sees it
    over: bool = False
    title: str = ""
    role: str = ""
    side: str | None = None
    awaiting: list[Prompt] = []
    etag: str | None = None  # from the answer's ETag header, for If-Match
    raw: dict[str, Any] = {}  # the answer as received (JSON)


def decode_view(raw: dict[str, Any], etag: str | None = None) -> BattleView:
    """A battle's view (decoded JSON): its `state` in its ruleset's class."""
    view = msgspec.convert({**raw, "etag": etag}, BattleView)
    return msgspec.structs.replace(view, raw=raw)


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a command or a batch: the events appended, the new version, its
    receipt and what the battle awaits next in the caller's view."""

    battle_id: str
    version: int
    events: list[Event | SealedEvent | UnknownEvent]
    receipt: dict[str, Any]
    replayed: bool = False
    awaiting: list[Prompt] = []
    raw: dict[str, Any] = {}  # the answer as received (JSON)


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
        raw=raw,
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
