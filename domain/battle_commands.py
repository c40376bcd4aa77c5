"""Commands every battle accepts whatever its ruleset: undo, rulings, dice, client seeds.

They are decided here, purely, into the battle-level events of `domain.battle`.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.actors import ALL, REFEREE, Actor, side_audience
from domain.battle import Battle, BattleUndone, ClientSeedSet, RulingRecorded
from domain.errors import NotPermitted, RuleViolation

__all__ = [
    "BATTLE_COMMAND_DOCS",
    "BATTLE_COMMAND_TYPES",
    "BattleCommand",
    "BattleCommandBase",
    "RecordRuling",
    "RevealDice",
    "SetClientSeed",
    "Undo",
    "decide_battle_command",
]

Text = Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]


class BattleCommandBase(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the battle-level commands (unknown fields refused, every field bounded)."""


class Undo(BattleCommandBase, frozen=True, tag="Undo"):
    """Set the game back to its state as of `to_version`; the log keeps everything."""

    to_version: Annotated[int, msgspec.Meta(ge=1, le=2**53)]
    reason: Text


class RecordRuling(BattleCommandBase, frozen=True, tag="RecordRuling"):
    """Record a referee's ruling and its reason, for all, the referee only, or one side."""

    ruling: Text
    reason: Text
    audience: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] = ALL


class RevealDice(BattleCommandBase, frozen=True, tag="RevealDice"):
    """Reveal the current dice seed (a new seed is committed for later rolls)."""


class SetClientSeed(BattleCommandBase, frozen=True, tag="SetClientSeed"):
    """A side sets its client seed: it enters every server die rolled from now on."""

    seed: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]


BattleCommand = Undo | RecordRuling | RevealDice | SetClientSeed
BATTLE_COMMAND_TYPES = frozenset({"Undo", "RecordRuling", "RevealDice", "SetClientSeed"})
BATTLE_COMMAND_DOCS = {
    "Undo": "referee: set the game back to its state as of to_version (the log keeps all)",
    "RecordRuling": "referee: record a ruling and its reason (audience: all, referee, side:<id>)",
    "RevealDice": "referee or a side: reveal the current dice seed; later dice use a new seed",
    "SetClientSeed": "a side: set its client seed {seed} (1-128 characters), mixed into every "
    "server die rolled after it, whoever's command rolls it",
}


def decide_battle_command(
    battle: Battle, command: Undo | RecordRuling | SetClientSeed, actor: Actor
) -> list[BattleUndone | RulingRecorded | ClientSeedSet]:
    """Decide an Undo, a RecordRuling or a SetClientSeed (RevealDice needs the seed: the
    service decides it)."""
    if isinstance(command, SetClientSeed):
        # Provably fair dice: the side's own seed, which the server could not know when
        # it committed to its seed, enters the dice (RULINGS.md, "Client seeds").
        if actor.role != "side" or actor.side is None:
            raise NotPermitted("only a side sets its client seed (with its own key)")
        return [ClientSeedSet(side=actor.side, seed=command.seed)]
    if not actor.is_referee:
        raise NotPermitted(f"only the referee may {command.__class__.__name__}")
    if isinstance(command, Undo):
        if command.to_version >= battle.version:
            raise RuleViolation(
                f"cannot undo to version {command.to_version}: the battle is at "
                f"version {battle.version}",
                to_version=command.to_version,
                current_version=battle.version,
            )
        return [BattleUndone(to_version=command.to_version, reason=command.reason)]
    sides = battle.meta.created.sides
    allowed = {ALL, REFEREE, *(side_audience(s) for s in sides)}
    if command.audience not in allowed:
        raise RuleViolation(
            f"audience must be one of {sorted(allowed)}, not {command.audience!r}",
            audience=command.audience,
        )
    return [RulingRecorded(ruling=command.ruling, reason=command.reason, audience=command.audience)]
