"""One command decided on a battle's state: the events it produces, each with its
audience, and the game state after them.

Battle commands (undo, rulings, client seeds, disputes, the dice reveal) are decided by
the domain's battle deciders; a ruleset's orders are checked (not over, the battle's
client dice policy, the actor's and the player key's units) and decided with the dice:
the server's, derived from the committed seed, or the table's as supplied.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, Actor
from domain.battle import Battle, RulingRecorded
from domain.battle_commands import (
    BattleCommandBase,
    RaiseDispute,
    RecordRuling,
    RevealDice,
    SetClientSeed,
    Undo,
    decide_battle_command,
)
from domain.dice import ServerDice, SuppliedDice, client_seed_for
from domain.disputes import check_not_paused, decide_raise
from domain.errors import DiceError, NotPermitted, RuleViolation
from events.dice_streams import check_streams
from events.store import EventStore
from service.battles.batches import check_batchable
from service.battles.command_decoding import decode_command
from service.battles.dice_reveal import reveal_events
from service.battles.dice_secrets import DiceSecrets
from service.battles.disputes import disputed_hidden
from service.battles.keys import Principal, check_units
from service.battles.repository import Loaded
from service.errors import Unprocessable
from service.schemas import CommandBatchItem, CommandRequest

__all__ = ["Decider", "type_tag"]


def type_tag(event: msgspec.Struct) -> str:
    """The type an event or a command is tagged with in JSON."""
    return str(event.__struct_config__.tag)


class Decider:
    """Decides one command at a time, with the dice seeds of `dice`."""

    def __init__(self, store: EventStore, dice: DiceSecrets) -> None:
        self.store = store
        self.dice = dice

    async def decide(
        self,
        loaded: Loaded,
        battle: Battle,
        actor: Actor,
        req: CommandRequest | CommandBatchItem,
        batch: bool = False,
        principal: Principal | None = None,
        command: Any = None,
    ) -> tuple[list[tuple[Any, str]], Any]:
        """The events the command produces, each with its audience; and the game state
        after them when they are all the ruleset's (None otherwise). `principal`: the
        key's, when it may be a player key limited to some units; `command`: `req`'s,
        when decoded already."""
        battle_id, ruleset = loaded.battle_id, loaded.ruleset
        typed_for = getattr(req, "ruleset", None)  # batch items carry none
        if typed_for is not None and typed_for != ruleset.id:
            # A body typed for another ruleset (service.openapi.event_schemas): refused as
            # a command of another ruleset is, though its command may decode here.
            raise Unprocessable(
                f"this body is typed for the {typed_for!r} ruleset; battle {battle_id} "
                f"plays {ruleset.id!r}",
                code="wrong-ruleset",
            )
        if command is None:
            command = decode_command(ruleset, req.command)
        if batch:
            check_batchable(command)
        check_not_paused(battle, actor)  # pause_on_dispute: the referee alone, while one is open
        if isinstance(command, BattleCommandBase) and req.dice is not None:
            raise DiceError(f"{type_tag(command)} rolls no dice")
        if isinstance(command, RevealDice):
            return await reveal_events(
                self.dice, battle_id, loaded, battle, actor, "requested"
            ), None
        if isinstance(command, RaiseDispute):
            hidden = await disputed_hidden(self.store, battle_id, battle, command.versions)
            raised = decide_raise(battle, command, actor, hidden)
            return [(raised, raised.audience)], None
        if isinstance(command, Undo | RecordRuling | SetClientSeed):
            return [
                (ev, ev.audience if isinstance(ev, RulingRecorded) else ALL)
                for ev in decide_battle_command(battle, command, actor)
            ], None
        game = battle.game
        if ruleset.is_over(game):
            raise RuleViolation("the battle is over: no more orders")
        policy = battle.meta.created.client_dice
        if req.dice is not None and (
            policy == "none" or (policy == "referee" and not actor.is_referee)
        ):
            raise NotPermitted(
                "this battle does not accept dice from this key "
                f"(client dice: {policy}); leave out 'dice' to use the server's dice"
            )
        # After the dice check: authorize may judge the command on what the actor sees, and
        # the order of the two answers must not tell whether anything is hidden from it.
        ruleset.authorize(game, command, actor)
        if principal is not None and principal.units is not None:
            ordering = ruleset.ordered_units
            check_units(principal, None if ordering is None else ordering(game, command))
        dice: ServerDice | SuppliedDice
        server: ServerDice | None = None
        if req.dice is None or not actor.is_referee:
            epoch = battle.meta.dice_epoch
            commit = battle.meta.commitments[epoch]
            server = ServerDice(
                seed=await self.dice.seed(battle_id, loaded, commit),
                epoch=epoch,
                battle_id=battle_id,
                version=battle.version + 1,
                client_seed=client_seed_for(req.client_seed, battle.meta.client_seeds),
                sub_seeds=await self.dice.sub_seeds(battle_id, loaded, battle.meta),
            )
        if req.dice is not None:
            # a die for an event this side may not read is the server's, from that
            # audience's stream: the table is not asked for it, nor chooses it (review 2,
            # F2: a down invisible foe's drain recovery at the end of this side's turn)
            dice = SuppliedDice(req.dice, reader=actor, hidden=server)
        else:
            assert server is not None
            dice = server
        if ruleset.decide_folded is not None:
            events, after = ruleset.decide_folded(game, command, dice)
        else:
            events = ruleset.decide(game, command, dice)
            after = game
            for ev in events:
                after = ruleset.evolve(after, ev)
        decided: list[tuple[Any, str]] = [(ev, ruleset.audience(ev)) for ev in events]
        if isinstance(dice, SuppliedDice):
            dice.finish()
        if server is not None:
            check_streams(server, decided)
        if events and ruleset.is_over(after):
            decided += await reveal_events(
                self.dice, battle_id, loaded, battle, actor, "battle-over"
            )
        return decided, after
