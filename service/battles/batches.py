"""Batches of commands (POST /battles/{id}/commands/batch): what sets them apart from one.

`BattleService.execute_batch` runs a batch as it runs one command (service.battles.commands):
loaded once, each command decided on the state the ones before it left (authorized for
the caller, with its own dice: table dice as given, server dice counted from the version
of its own first event), then ONE append of every event with the expected version, so
all or none is stored. Each command keeps its own `command_version` in the chain (format
2, events.chain), so the log reads as if the commands had been sent one by one, and
every server die is recomputed by the documented derivation (events.command_audit).

This module holds the pieces that only a batch needs: its limit (`BATTLE_BATCH_MAX`), the
canonical form an Idempotency-Key's batch is compared by, the refusal that names the
command, and the state between two commands.
"""

from __future__ import annotations

import hashlib
from typing import Any, get_args

import msgspec

from domain.actors import Actor
from domain.battle import Battle, BattleEvent, BattleUndone, Timeline
from domain.battle_commands import ResolveDispute, Undo
from domain.decider import Ruleset
from domain.errors import DomainError, RuleViolation
from events.chain import canonical
from service.decoding import read_json
from service.errors import ServiceError
from service.schemas import CommandBatchRequest, CommandRequest

__all__ = [
    "DEFAULT_BATCH_MAX",
    "BatchTooLong",
    "batch_request_hash",
    "check_batchable",
    "named",
    "request_hash",
    "state_after",
]

DEFAULT_BATCH_MAX = 64  # BATTLE_BATCH_MAX: the most commands one batch may hold

_decode_json = msgspec.json.Decoder().decode
_BATTLE_LEVEL: frozenset[type] = frozenset(get_args(BattleEvent))


class BatchTooLong(ServiceError):
    """A batch of more commands than this service takes: refused before any of them is
    looked at. 422, not 413: the request is valid against the OpenAPI document (whose
    bound is the largest BATTLE_BATCH_MAX allowed), and what the service itself refuses
    of such a request is a 422 (docs/SECURITY.md), as a rate of its own would be."""

    code = "batch-too-long"
    status = 422
    title = "The batch holds more commands than this service accepts"


def _canonical_command(command: msgspec.Raw) -> msgspec.Raw:
    return msgspec.Raw(canonical(_decode_json(command)))


def _hash(request: Any, actor: Actor, key_id: str | None) -> str:
    scope: dict[str, Any] = {"request": request, "role": actor.role, "side": actor.side}
    if key_id is not None:  # a player key's: absent otherwise, so stored hashes still match
        scope["key_id"] = key_id
    return hashlib.sha256(canonical(scope)).hexdigest()


def request_hash(req: CommandRequest, actor: Actor, key_id: str | None = None) -> str:
    """What an Idempotency-Key's request is compared by: the request as canonical JSON, so
    that the same command sent again with its keys in another order still matches.

    Scoped by who sent it: the role and side, and a player key's id (`key_id`), so that
    two players of one side who reuse an Idempotency-Key never get each other's answer
    (the second is refused as a key used for another request, as two sides are)."""

    def canonical_request(command: msgspec.Raw) -> str:
        request = msgspec.structs.asdict(req) | {"command": _canonical_command(command)}
        if request.get("ruleset") is None:  # left out: the hash of a request sent before it was
            request.pop("ruleset", None)
        return _hash(request, actor, key_id)

    # Decoding or encoding may meet a string that is not UTF-8, or too deep a nesting: a 400.
    return read_json(canonical_request, req.command, "the command")


def batch_request_hash(req: CommandBatchRequest, actor: Actor, key_id: str | None = None) -> str:
    """`request_hash` of a batch: each of its commands canonical. A batch never matches a
    single command (the shapes differ), so one key cannot stand for both."""

    def canonical_batch(commands: list[Any]) -> str:
        items = [
            msgspec.structs.replace(item, command=_canonical_command(item.command))
            for item in commands
        ]
        return _hash(msgspec.structs.replace(req, commands=items), actor, key_id)

    return read_json(canonical_batch, req.commands, "a command of the batch")


def named(error: DomainError | ServiceError, index: int) -> DomainError | ServiceError:
    """`error`, refusing the batch's command at `index` (0-based): its own problem type and
    detail, and `index` beside them (the problem+json's context)."""
    error.context["index"] = index
    return error


def check_batchable(command: Any) -> None:
    """Refuse a command a batch cannot hold: an Undo sets the game back to a version
    before the batch, which the state between two commands of it does not keep (and an
    undo within the request that made what it undoes is no undo a table needs)."""
    if isinstance(command, ResolveDispute):
        raise RuleViolation(
            "a ResolveDispute is not allowed in a batch (nor in a correction): send it alone; "
            "its corrections are its own batch",
            command="ResolveDispute",
        )
    if isinstance(command, Undo):
        raise RuleViolation(
            "an Undo is not allowed in a batch: send it alone (POST /battles/{id}/commands)",
            command="Undo",
        )


def state_after(
    ruleset: Ruleset[Any, Any, Any, Any, Any], battle: Battle, events: list[Any], game: Any
) -> Battle:
    """The state right after a command of a batch appended `events` to `battle`: `game` is
    the ruleset state after them where the decider folded them (None otherwise). Only the
    battle-level events (a client seed set, a seed revealed) need the full fold."""
    version = battle.version + len(events)
    if game is not None and not any(type(ev) in _BATTLE_LEVEL for ev in events):
        return Battle(version=version, meta=battle.meta, game=game)
    assert not any(isinstance(ev, BattleUndone) for ev in events)  # check_batchable
    timeline = Timeline.starting_at(ruleset, battle, ())
    timeline.extend_decoded(events)
    after = timeline.current
    assert after is not None and after.version == version
    return after
