"""A command as sent (raw JSON) decoded into one of its battle's ruleset's commands or a
battle command, and a refusal that says which: a command of another ruleset is
schema-valid and refused by the battle (422); a malformed one is a 400."""

from __future__ import annotations

from typing import Any, Union, get_args

import msgspec

from domain.battle_commands import BATTLE_COMMAND_TYPES, BattleCommand
from domain.decider import Ruleset
from domain.rulesets import RULESETS
from service.decoding import UNREADABLE, invalid_body
from service.errors import BadRequest, Unprocessable

__all__ = ["decode_command"]

_COMMAND_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}


def decode_command(ruleset: Ruleset[Any, Any, Any, Any, Any], command: msgspec.Raw) -> Any:
    """Decode one command (JSON as sent) of `ruleset` or of the battle, with a decoder
    built once: `msgspec.convert` to a Union rebuilds its type info on every call."""
    decoder = _COMMAND_DECODERS.get(ruleset.id)
    if decoder is None:
        own = get_args(ruleset.command_type) or (ruleset.command_type,)
        decoder = msgspec.json.Decoder(Union[(*own, *get_args(BattleCommand))])
        _COMMAND_DECODERS[ruleset.id] = decoder
    try:
        return decoder.decode(command)
    except UNREADABLE as e:  # a string that is not UTF-8 (a Raw keeps its bytes unread)
        raise invalid_body(e, "the command") from None
    except msgspec.DecodeError as e:
        message = str(e)
        known = (
            f"{ruleset.id} accepts {sorted(ruleset.command_docs)} "
            f"and {sorted(BATTLE_COMMAND_TYPES)}"
        )
        if message.startswith("Invalid value") and message.endswith("at `$.type`"):
            # The OpenAPI document lists every ruleset's commands: one of another ruleset
            # is schema-valid, and this battle refuses it (422), as it refuses an order.
            tag = message.split("'")[1] if message.count("'") >= 2 else ""
            other = [r.id for r in RULESETS.values() if tag in r.command_docs]
            if other:
                raise Unprocessable(
                    f"{tag} is a command of {', '.join(other)}; {known}",
                    code="command-of-another-ruleset",
                ) from e
            raise BadRequest(
                f"unknown command type: {message}; {known}", code="unknown-command"
            ) from e
        if "missing required field `type`" in message:
            raise BadRequest(f"the command needs a 'type'; {known}", code="invalid-command") from e
        # A tag several rulesets share (Attack) with the fields of another ruleset's command:
        # schema-valid too, so refused by the battle (422), not as a malformed body.
        other = [r.id for r in RULESETS.values() if r is not ruleset and _decodes(r, command)]
        if other:
            raise Unprocessable(
                f"this is a command of {', '.join(other)}, not of {ruleset.id} ({message}); "
                f"{known}",
                code="command-of-another-ruleset",
            ) from e
        raise BadRequest(f"invalid command: {message}", code="invalid-command") from e


def _decodes(ruleset: Ruleset[Any, Any, Any, Any, Any], command: bytes) -> bool:
    """Whether `command` is a valid command of `ruleset` (only asked of a refused one)."""
    try:
        ruleset.command_decoder.decode(command)
    except msgspec.DecodeError:
        return False
    return True
