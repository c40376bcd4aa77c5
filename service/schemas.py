"""Request and response bodies of the HTTP API (kept apart from the event Structs)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

__all__ = [
    "BattleCreatedResponse",
    "BattleKeys",
    "BattleView",
    "CommandRequest",
    "CommandResponse",
    "CreateBattleRequest",
    "CreateIntegrationRequest",
    "DiceInfo",
    "DiceReveal",
    "EventActorOut",
    "EventOut",
    "EventPage",
    "ForkBattleRequest",
    "Health",
    "IntegrationCreatedResponse",
    "RulesetDetail",
    "RulesetSummary",
    "VerifyFailure",
    "VerifyReport",
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


class CreateBattleRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    ruleset: Id
    # Checked against the ruleset's own setup and options schemas (GET /rulesets/{ruleset}),
    # which bound every field and refuse unknown ones.
    setup: Annotated[dict[str, Any], msgspec.Meta(max_length=32)]
    options: Annotated[dict[str, Any], msgspec.Meta(max_length=128)] = {}
    title: Annotated[str, msgspec.Meta(max_length=200)] = ""
    # Who may supply dice rolled at the table instead of the server's verifiable dice.
    client_dice: ClientDicePolicy = "referee"


class ForkBattleRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # The fork starts as the parent's state right after this version.
    at_version: Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
    title: Annotated[str, msgspec.Meta(max_length=200)] | None = None  # default: the parent's
    client_dice: ClientDicePolicy | None = None  # default: the parent's


class BattleKeys(msgspec.Struct, kw_only=True):
    referee: str
    observer: str
    sides: dict[str, str]


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


class CommandRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # The command object; its "type" picks one of the ruleset's (or the battle's) commands.
    # One command, decoded with the battle's ruleset: GET /rulesets/{ruleset} lists the
    # command types and their JSON Schema. Kept as the JSON sent (a JSON object, checked
    # when the ruleset decodes it): decoded once, by the battle's ruleset.
    command: msgspec.Raw
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=2**53)] | None = None
    # Dice rolled at the table, in the order the command uses them (instead of server dice).
    dice: (
        Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=1000)]], msgspec.Meta(max_length=1000)]
        | None
    ) = None
    # Mixed into every server die of this command (so the caller can show it had a say).
    client_seed: Annotated[str, msgspec.Meta(max_length=128)] = ""


class EventActorOut(msgspec.Struct, kw_only=True):
    role: str
    side: str | None = None


class EventOut(msgspec.Struct, kw_only=True):
    battle_id: str
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


class CommandResponse(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int  # the battle's version after the command
    events: list[EventOut]  # the events it appended that the caller may see
    replayed: bool = False  # true when this answers a retried Idempotency-Key


class EventPage(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int  # the battle's current version
    events: list[EventOut]
    next_after: int | None  # pass as ?after= for the next page; null at the end


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


class DiceReveal(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int
    epoch: int
    seed: str
    commitment: str
    next_epoch: int | None
    next_commitment: str | None


class VerifyFailure(msgspec.Struct, kw_only=True):
    version: int
    reason: str


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


class CreateIntegrationRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # Shown to people (in logs, to an operator); not unique.
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class IntegrationCreatedResponse(msgspec.Struct, kw_only=True):
    integration_id: str
    name: str
    # Shown once: only its SHA-256 is stored. Send it as `Authorization: Bearer <key>` to
    # POST /battles to create battles it follows, and to GET /events/stream.
    key: str
