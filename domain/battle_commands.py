"""Commands every battle accepts whatever its ruleset: undo, rulings, dice, client seeds.

They are decided here, purely, into the battle-level events of `domain.battle`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.actors import ALL, REFEREE, Actor, side_audience
from domain.battle import Battle, BattleUndone, ClientSeedSet, RulingRecorded
from domain.errors import NotPermitted, RuleViolation

__all__ = [
    "BATTLE_COMMAND_DOCS",
    "BATTLE_COMMAND_TYPES",
    "BattleCommand",
    "BattleCommandBase",
    "Correction",
    "RaiseDispute",
    "RecordRuling",
    "ResolveDispute",
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


Version = Annotated[int, msgspec.Meta(ge=1, le=2**53)]
RuleRef = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class RaiseDispute(BattleCommandBase, frozen=True, tag="RaiseDispute"):
    """A side or the referee contests a ruling: the versions it disputes, the claim in
    words and, optionally, the rule it invokes (domain.disputes)."""

    versions: Annotated[list[Version], msgspec.Meta(min_length=1, max_length=64)]
    claim: Text
    rule: RuleRef | None = None


class Correction(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One command of an upheld dispute's correction, with its own dice (as a batch's)."""

    command: Annotated[dict[str, Any], msgspec.Meta(max_length=64)]
    dice: (
        Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=1000)]], msgspec.Meta(max_length=1000)]
        | None
    ) = None
    client_seed: Annotated[str, msgspec.Meta(max_length=128)] = ""


class ResolveDispute(BattleCommandBase, frozen=True, tag="ResolveDispute"):
    """The referee settles a dispute: `upheld` or `dismissed`, the ruling in words and the
    rule it rests on; when upheld, the correction, appended with it: an undo to
    `undo_to` (before the first disputed version), then `corrections`, the commands that
    replace what it undid (or the ruleset's adjustment commands alone)."""

    dispute: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    outcome: Literal["upheld", "dismissed"]
    ruling: Text
    rule: RuleRef
    undo_to: Version | None = None
    corrections: Annotated[list[Correction], msgspec.Meta(max_length=64)] = []


BattleCommand = Undo | RecordRuling | RevealDice | SetClientSeed | RaiseDispute | ResolveDispute
BATTLE_COMMAND_TYPES = frozenset(
    {"Undo", "RecordRuling", "RevealDice", "SetClientSeed", "RaiseDispute", "ResolveDispute"}
)
BATTLE_COMMAND_DOCS = {
    "Undo": "referee: set the game back to its state as of to_version (the log keeps all)",
    "RecordRuling": "referee: record a ruling and its reason (audience: all, referee, side:<id>)",
    "RevealDice": "referee or a side: reveal the current dice seed; later dice use a new seed",
    "SetClientSeed": "a side: set its client seed {seed} (1-128 characters), mixed into every "
    "server die rolled after it, whoever's command rolls it",
    "RaiseDispute": "referee or a side: dispute {versions} with a {claim} (and the {rule} it "
    "invokes); answers DisputeRaised with its dispute_id",
    "ResolveDispute": "referee: settle {dispute} as upheld or dismissed with a {ruling} and "
    "its {rule}; upheld: undo_to and/or corrections (commands with their dice) in the "
    "same append",
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
