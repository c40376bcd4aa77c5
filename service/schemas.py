"""Request and response bodies of the HTTP API (kept apart from the event Structs)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.prompts import Prompt
from events.exports.format import Provenance
from events.receipts import Receipt

__all__ = [
    "BATCH_MAX_COMMANDS",
    "MAX_RECEIPTS",
    "AncestorOut",
    "AwaitingMessage",
    "BattleCreatedResponse",
    "BattleKeyList",
    "BattleKeyOut",
    "BattleKeys",
    "BattleView",
    "CommandBatchItem",
    "CommandBatchRequest",
    "CommandRequest",
    "CommandResponse",
    "CreateBattleKeyRequest",
    "CreateBattleRequest",
    "CreateIntegrationRequest",
    "CreatedBattleKey",
    "DiceInfo",
    "DiceReveal",
    "DisputeList",
    "DisputeOut",
    "EventActorOut",
    "EventOut",
    "EventPage",
    "ForkBattleRequest",
    "Health",
    "ImportedFromOut",
    "IntegrationCreatedResponse",
    "OriginEventPage",
    "PublicKeyOut",
    "PublicKeys",
    "ReceiptCheck",
    "RulesetDetail",
    "RulesetSummary",
    "SealedEventOut",
    "VerifyFailure",
    "VerifyReport",
    "VerifyRequest",
]

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
# Request bodies refuse unknown fields (a misspelt field must not be ignored), naming it.
ClientDicePolicy = Literal["none", "referee", "any"]


class Health(msgspec.Struct, kw_only=True):
    status: Literal["ok"]
    store: str
    version: str
    position: int  # the global position of the last event in the store
    subscribers: int  # live stream subscribers on this worker


class RulesetSummary(msgspec.Struct, kw_only=True):
    id: str
    version: str
    title: str
    seed: str


class RulesetDetail(RulesetSummary, kw_only=True):
    options: dict[str, Any]  # option name -> default value
    options_schema: dict[str, Any]  # JSON Schema of the options object
    setup_schema: dict[str, Any]  # JSON Schema of the setup object
    commands: dict[str, str]  # command type -> what it does and who may give it
    commands_schema: dict[str, Any]  # JSON Schema of the command union
    battle_commands: dict[str, str]  # commands every ruleset accepts (undo, rulings...)
    battle_commands_schema: dict[str, Any]
    # policy name -> how it plays (POST /battles/{id}/forecast); the default first
    forecast_policies: dict[str, str] = {}
    events: dict[str, str] = {}  # event type -> what it records (its `data.type`)
    events_schema: dict[str, Any] = {}  # JSON Schema of the event union (an event's `data`)
    battle_events: dict[str, str] = {}  # events every battle has (creation, dice, undo...)
    battle_events_schema: dict[str, Any] = {}
    # JSON Schema of the state a battle's view holds (`BattleView.state`), for every actor
    state_schema: dict[str, Any] = {}


class CreateBattleRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    ruleset: Id
    # Checked against the ruleset's own setup and options schemas (GET /rulesets/{ruleset}),
    # which bound every field and refuse unknown ones.
    setup: Annotated[dict[str, Any], msgspec.Meta(max_length=32)]
    options: Annotated[dict[str, Any], msgspec.Meta(max_length=128)] = {}
    title: Annotated[str, msgspec.Meta(max_length=200)] = ""
    # Who may supply dice rolled at the table instead of the server's verifiable dice.
    client_dice: ClientDicePolicy = "referee"
    # When the battle ends, hand every reader the events it could not see, whole (salt
    # included), so a finished battle can be audited in full with any of its keys.
    reveal_hidden_on_end: bool = True
    # While a dispute is open, accept only the referee's commands (RaiseDispute).
    pause_on_dispute: bool = False


class ForkBattleRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # The fork starts as the parent's state right after this version.
    at_version: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
    title: Annotated[str, msgspec.Meta(max_length=200)] | None = None  # default: the parent's
    client_dice: ClientDicePolicy | None = None  # default: the parent's
    reveal_hidden_on_end: bool | None = None  # default: the parent's


class BattleKeys(msgspec.Struct, kw_only=True):
    referee: str
    observer: str
    sides: dict[str, str]


class AncestorOut(msgspec.Struct, kw_only=True):
    """One generation of a fork's ancestry."""

    battle_id: str  # the ancestor battle
    version: int  # the version of it the next generation was forked at
    head_hash: str  # the hash of its event at that version


class ImportedFromOut(msgspec.Struct, kw_only=True):
    """An imported battle's origin: the exported battle and its head at export."""

    battle_id: str
    version: int
    head_hash: str


class BattleCreatedResponse(msgspec.Struct, kw_only=True):
    battle_id: str
    ruleset: str
    ruleset_version: str
    version: int
    dice_commitment: str
    keys: BattleKeys
    replayed: bool = False  # true when this answers a retried Idempotency-Key
    integration_id: str | None = None  # the integration that follows it, if created with one
    forked_from: str | None = None  # a fork: the parent battle
    forked_at: int | None = None  # a fork: the parent's version it starts from
    forked_head_hash: str | None = None  # a fork: the hash of the parent's event forked_at
    # a fork: every generation, the parent first (a fork of a fork: then the grandparent...)
    ancestry: list[AncestorOut] = []
    # an import (POST /battles/import): the battle it was exported from, and its head then
    imported_from: ImportedFromOut | None = None
    receipt: Receipt  # the service's signature of the battle's head (version 1 unless imported)


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # The command object; its "type" picks one of the ruleset's (or the battle's) commands.
    # One command, decoded with the battle's ruleset: GET /rulesets/{ruleset} lists the
    # command types and their JSON Schema. Kept as the JSON sent (a JSON object, checked
    # when the ruleset decodes it): decoded once, by the battle's ruleset.
    command: msgspec.Raw
    # The battle's ruleset, if the client says it (a body typed per ruleset: the OpenAPI
    # document's `<Ruleset>CommandRequest`); another one is refused (422 wrong-ruleset).
    ruleset: Id | None = None
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=2**53)] | None = None
    # Dice rolled at the table, in the order the command uses them (instead of server dice).
    dice: (
        Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=1000)]], msgspec.Meta(max_length=1000)]
        | None
    ) = None
    # Mixed into every server die of this command (so the caller can show it had a say).
    client_seed: Annotated[str, msgspec.Meta(max_length=128)] = ""


# The most commands a batch's schema admits; the service's own limit, BATTLE_BATCH_MAX
# (default 64, service.battles.batches), is at most this.
BATCH_MAX_COMMANDS = 1000


class CommandBatchItem(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # One command of a batch: as `CommandRequest`, without an expected version (the batch
    # has one). Its dice are its own: table dice in the order this command uses them.
    command: msgspec.Raw
    dice: (
        Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=1000)]], msgspec.Meta(max_length=1000)]
        | None
    ) = None
    client_seed: Annotated[str, msgspec.Meta(max_length=128)] = ""


class CommandBatchRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # The commands, applied in order, all or none (POST /battles/{id}/commands/batch).
    commands: Annotated[
        list[CommandBatchItem], msgspec.Meta(min_length=1, max_length=BATCH_MAX_COMMANDS)
    ]
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=2**53)] | None = None


class EventActorOut(msgspec.Struct, kw_only=True):
    role: str
    side: str | None = None
    # A player key's (POST /battles/{id}/keys): its label and id; absent for the keys of
    # a battle's creation (never null: the chain hashes the actor as it is encoded).
    label: str | msgspec.UnsetType = msgspec.UNSET
    key_id: str | msgspec.UnsetType = msgspec.UNSET


class DisputeOut(msgspec.Struct, kw_only=True):
    """A dispute (GET /battles/{id}/disputes): `status` open, upheld or dismissed; the
    versions it disputes, the claim and the rule it invokes, who raised it and at which
    version; once resolved, the version of its `DisputeResolved`, the ruling, the rule it
    rests on and the versions of its correction (an undo to `undo_to`, then the events
    of the commands that replace what it undid)."""

    dispute_id: str
    status: Literal["open", "upheld", "dismissed"]
    versions: list[int]
    claim: str
    rule: str | None = None
    raised_by: str
    raised_at: int
    audience: str
    resolved_at: int | None = None
    ruling: str | None = None
    ruling_rule: str | None = None
    undo_to: int | None = None
    correcting_versions: list[int] = []


class DisputeList(msgspec.Struct, kw_only=True):
    battle_id: str
    disputes: list[DisputeOut]


class EventOut(msgspec.Struct, kw_only=True):
    battle_id: str
    # The battle's ruleset: which ruleset's event `data` is (two rulesets may name an event
    # alike). Not hashed: the chain commits to the event, not to this envelope.
    ruleset: str
    version: int
    position: int
    type: str
    data: msgspec.Raw
    audience: str
    recorded_at: str
    actor: EventActorOut
    command_id: str | None
    prev_hash: str
    hash: str
    undone: bool = False
    # The secret salt the event's hash commits to (hex), for an event some reader may not
    # see; null for an event everyone sees (and for events written before salts).
    salt: str | None = None
    # The version of the first event of the command that appended it: the battle's
    # command sequence, in the hash (chain format 2); null in a battle chained before it.
    command_version: int | None = None
    # The dispute whose upheld resolution appended it as part of its correction (the
    # undo, the commands replacing what it undid), in the hash (issue 36). Absent (not
    # null) from every other event, so that every export written before it is unchanged.
    dispute: str | msgspec.UnsetType = msgspec.UNSET


class SealedEventOut(msgspec.Struct, kw_only=True):
    """An event the caller may not see: where it stands in the hash chain, nothing more.
    Its prev_hash is the hash of the event before it and its hash the prev_hash of the
    next; its own hash commits to a secret salt, so it cannot be recomputed (or guessed)."""

    version: int
    audience: str
    prev_hash: str
    hash: str
    sealed: Literal[True]  # required: whole events never carry it (one oneOf branch fits)
    # Chain format 2: the hash of what it hides (salted): its hash is
    # sha256(canonical {audience, body, prev_hash, version}), so its audience is checked.
    # Null in a battle chained before it (format 1).
    body: str | None = None


class CommandResponse(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int  # the battle's version after the command
    # The events it appended: whole if the caller may see them, else sealed.
    events: list[EventOut | SealedEventOut]
    replayed: bool = False  # true when this answers a retried Idempotency-Key
    # The service's signature of the battle's head at `version`: keep it to prove later
    # that the log held this head (GET /battles/{id}/verify?receipt=...).
    receipt: Receipt
    # What the battle waits for right after the command, in the caller's view (as
    # GET /battles/{id} answers it then): empty when the battle is over. Absent when the
    # request said `Prefer: return=minimal` (service.http.prefer): it costs more to
    # compute than the command itself.
    awaiting: list[Prompt] | msgspec.UnsetType = msgspec.UNSET


class EventPage(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int  # the battle's current version
    events: list[EventOut | SealedEventOut]  # sealed: the events the caller may not see
    next_after: int | None  # pass as ?after= for the next page; null at the end


class OriginEventPage(EventPage, kw_only=True):
    """A fork's origin: an ancestor's log (its parent's unless `generation` says otherwise) up
    to the version forked, read with the fork's key. `forked_from`, `forked_at` and
    `forked_head_hash` describe that ancestor: the battle, the version of it the next
    generation was forked at, and what its event there must hash to."""

    forked_from: str
    forked_at: int
    forked_head_hash: str | None  # what the parent's event forked_at must hash to
    generation: int = 1  # whose log this is: 1 the parent, 2 the parent's parent, ...
    ancestry: list[AncestorOut] = []  # the fork's every generation, the parent first


class DiceInfo(msgspec.Struct, kw_only=True):
    epoch: int
    commitment: str
    revealed: dict[str, str]  # epoch -> seed (hex) of every revealed epoch
    commitments: dict[str, str]  # epoch -> sha256(seed)


class BattleView(msgspec.Struct, kw_only=True):
    battle_id: str
    title: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any]
    version: int
    over: bool
    role: str
    side: str | None
    dice: DiceInfo
    state: Any
    # What the battle waits for at this version, in the caller's view (domain.prompts):
    # who may answer, with which commands, the choices and the dice known before the
    # answer. Empty when the battle is over.
    awaiting: list[Prompt] = []


class AwaitingMessage(msgspec.Struct, kw_only=True):
    """A live stream's `awaiting` message (SSE `event: awaiting`, WebSocket `{"kind":
    "awaiting", ...}`, webhook `battle.awaiting`): what the battle awaits right after
    `version`, in the subscriber's view, sent when it changed."""

    battle_id: str
    version: int
    awaiting: list[Prompt]


class DiceReveal(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int
    epoch: int
    seed: str
    commitment: str
    next_epoch: int | None
    next_commitment: str | None
    receipt: Receipt  # the signed head of the battle right after the reveal


class VerifyFailure(msgspec.Struct, kw_only=True):
    version: int
    reason: str
    receipt: int | None = None  # a failed receipt: its index in the receipts given


class ReceiptCheck(msgspec.Struct, kw_only=True):
    """One receipt given to /verify, checked against the log."""

    receipt: int  # its index in the receipts given (0 = the first)
    version: int
    head_hash: str
    key_id: str
    # ok: signed by this service, and the log holds that head at that version;
    # truncated: the log ends before that version; rewritten: the event at that version
    # hashes to something else; bad-signature / unknown-key: not a receipt of this service
    status: Literal["ok", "truncated", "rewritten", "bad-signature", "unknown-key"]
    detail: str


class VerifyReport(msgspec.Struct, kw_only=True):
    battle_id: str
    ok: bool
    events_checked: int
    chain_ok: bool
    dice_ok: bool
    dice_checked: int  # server dice recomputed from revealed seeds
    dice_pending: int  # server dice of an epoch whose seed is not revealed yet
    client_dice: int  # dice supplied by the table (recorded, nothing to recompute)
    first_failure: VerifyFailure | None
    # Events the caller may not see: checked by their links only, their dice not counted.
    events_sealed: int = 0
    receipts_ok: bool = True  # every receipt given is this service's and the log holds it
    receipts: list[ReceiptCheck] = []
    # The dice audit was made earlier at this same head (service.battles.verify_cache); the chain
    # and the receipts are always checked afresh.
    cached: bool = False
    # Where the history comes from (service.battles.provenance): `ok` says the log holds
    # together; an import signed by a key this service does not hold is `not-verified`.
    origin: Provenance | None = None


MAX_RECEIPTS = 100


class VerifyRequest(msgspec.Struct, kw_only=True):
    # Receipts kept from earlier answers (each as it came: an object with battle_id,
    # version, head_hash, key_id, signature).
    receipts: Annotated[list[Receipt], msgspec.Meta(max_length=MAX_RECEIPTS)] = []


class PublicKeyOut(msgspec.Struct, kw_only=True):
    key_id: str  # the fingerprint receipts name: sha256(raw public key)[:16], hex
    algorithm: Literal["Ed25519"]
    public_key: str  # the 32 raw bytes, base64url without padding
    public_key_pem: str  # the same, SubjectPublicKeyInfo PEM
    current: bool  # signs new receipts (the others are retired: they still verify)


class PublicKeys(msgspec.Struct, kw_only=True):
    keys: list[PublicKeyOut]
    # What a receipt's signature covers (see README, "Receipts and keys").
    signed_bytes: str = (
        'canonical JSON {"battle_id":…,"head_hash":…,"type":"battle-service/receipt/v1",'
        '"version":…} (sorted keys, compact, UTF-8)'
    )


class CreateIntegrationRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # Shown to people (in logs, to an operator); not unique.
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class BattleSummary(msgspec.Struct, kw_only=True):
    battle_id: str
    title: str
    ruleset: str
    created_at: str  # when its first event was recorded (ISO 8601, UTC)
    version: int  # its current version
    over: bool
    forked_from: str | None = None
    # Where its history comes from, as this service vouches for it (service.battles.provenance).
    origin: Provenance | None = None


class BattleList(msgspec.Struct, kw_only=True):
    battles: list[BattleSummary]
    # The cursor of the next page (send it as `after`), and that page's URL; both null
    # when there is no more. A page may hold fewer than `limit` battles and still have a
    # next one: a filtered scan stops after a bounded number of battles.
    next_after: int | None = None
    next: str | None = None


class IntegrationView(msgspec.Struct, kw_only=True):
    integration_id: str
    name: str


class IntegrationCreatedResponse(msgspec.Struct, kw_only=True):
    integration_id: str
    name: str
    # Shown once: only its SHA-256 is stored. Send it as `Authorization: Bearer <key>` to
    # POST /battles to create battles it follows, and to GET /events/stream.
    key: str


# -- player keys (POST /battles/{id}/keys) ----------------------------------------------


class CreateBattleKeyRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A key for one player, minted by the battle's referee (or its integration)."""

    role: Literal["side", "observer"]
    # The player's name or a VTT user id: recorded in the events of the key's commands.
    label: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    side: Id | None = None  # required for a side key, refused for an observer key
    # The units or characters the key may order (ids of the battle); absent: all its side's.
    # (Plain strings: an id the battle does not have, "" included, is a 422 naming it.)
    units: Annotated[list[str], msgspec.Meta(min_length=1, max_length=500)] | None = None
    expires_at: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None


class BattleKeyOut(msgspec.Struct, kw_only=True):
    """A player key as listed: never its secret nor its hash."""

    key_id: str
    role: str
    side: str | None
    label: str
    units: list[str] | None
    expires_at: str | None
    created_at: str
    revoked_at: str | None = None


class CreatedBattleKey(msgspec.Struct, kw_only=True):
    """A player key just minted: `key` is shown this once (only its SHA-256 is kept)."""

    key_id: str
    key: str
    role: str
    side: str | None
    label: str
    units: list[str] | None
    expires_at: str | None
    created_at: str


class BattleKeyList(msgspec.Struct, kw_only=True):
    keys: list[BattleKeyOut]
