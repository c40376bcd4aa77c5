"""The commands of one request (one command, a batch, or a dispute's resolution) decided
in turn, each on the state the ones before it left, and sealed into envelopes chained to
the battle's head, ready for one append.

The envelopes are stamped with the time of recording (service.battles.clock) and, hidden
ones, salted (service.battles.sealing, events.chain).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.actors import ALL
from domain.battle import Battle, BattleUndone
from domain.battle_commands import ResolveDispute
from domain.disputes import decide_resolution
from domain.errors import DiceError, DomainError
from events.chain import encode_event, seal
from events.envelope import PendingEvent
from service.battles import clock
from service.battles.batches import check_batchable, named, state_after
from service.battles.command_decoding import decode_command
from service.battles.deciding import Decider, type_tag
from service.battles.disputes import correction_item
from service.battles.keys import Principal
from service.battles.repository import BattleRepository, Loaded
from service.battles.sealing import draw_salts
from service.errors import ServiceError
from service.schemas import CommandBatchItem, CommandRequest

__all__ = ["RequestDecider"]


class RequestDecider:
    """Decides a request's commands with `decider`; a dispute's undo reads the state it
    goes back to through `repository`."""

    def __init__(self, decider: Decider, repository: BattleRepository) -> None:
        self.decider = decider
        self.repository = repository

    async def decide_all(
        self,
        loaded: Loaded,
        battle: Battle,
        principal: Principal,
        commands: Sequence[CommandRequest | CommandBatchItem],
        command_id: str | None,
        batch: bool,
        prev_hash: str | None = None,
        dispute: str | None = None,
    ) -> tuple[list[PendingEvent], list[Any], Any]:
        """The commands decided one after the other, each on the state the ones before it
        left, and chained: (the envelopes to append, the events, the game state after
        them when the last command's decider folded them, else None). In a batch a
        refusal names the command by its index (service.battles.batches). `dispute`: the
        dispute whose correction they are (each of their events names it)."""
        pending: list[PendingEvent] = []
        events: list[Any] = []
        game_after: Any = None
        # `prev_hash`: the hash of `battle`'s event, when it is not the stored head yet
        at, last = battle, len(commands) - 1
        prev_hash = loaded.head_hash if prev_hash is None else prev_hash
        for index, req in enumerate(commands):
            try:
                command = decode_command(loaded.ruleset, req.command)
                if batch:
                    check_batchable(command)
                if isinstance(command, ResolveDispute):  # alone, never in a batch
                    if req.dice is not None:  # as every battle command (service.battles.deciding)
                        raise DiceError(
                            "ResolveDispute rolls no dice: give each correction its own"
                        )
                    return await self.resolve(loaded, at, principal, command, command_id)
                decided, game_after = await self.decider.decide(
                    loaded, at, principal.actor, req, batch, principal, command
                )
            except (DomainError, ServiceError) as e:
                if batch:
                    named(e, index)
                raise
            if not decided:
                continue
            sealed = self.sealed(loaded, at, prev_hash, principal, decided, command_id, dispute)
            pending += sealed
            prev_hash = sealed[-1].hash
            decided_events = [ev for ev, _ in decided]
            events += decided_events
            if index < last:  # the state the next command is decided on
                at = state_after(loaded.ruleset, at, decided_events, game_after)
        return pending, events, game_after

    async def resolve(
        self,
        loaded: Loaded,
        battle: Battle,
        principal: Principal,
        command: ResolveDispute,
        command_id: str | None,
    ) -> tuple[list[PendingEvent], list[Any], Any]:
        """A dispute settled (service.battles.disputes): its correction, an undo then the
        commands replacing what it undid, each chained as a command of its own, then the
        `DisputeResolved` naming the correcting versions, all in one append. A refused
        correction command refuses the whole resolution, its `index` named."""
        head = decide_resolution(battle, command, principal.actor)
        pending: list[PendingEvent] = []
        events: list[Any] = []
        at, prev_hash = battle, loaded.head_hash
        undo_to = command.undo_to
        if undo_to is not None:
            undo = BattleUndone(to_version=undo_to, reason=f"dispute {head.dispute_id}")
            pending += self.sealed(
                loaded, at, prev_hash, principal, [(undo, ALL)], command_id, head.dispute_id
            )
            prev_hash, events = pending[-1].hash, [undo]
            target = await self.repository.state_at(loaded.battle_id, undo_to, loaded)
            at = Battle(version=at.version + 1, meta=at.meta, game=target.game)
        items = [correction_item(item) for item in command.corrections]
        if items:  # decided as a batch is: a refusal names the correction's index
            more, corrected, _ = await self.decide_all(
                loaded, at, principal, items, command_id, True, prev_hash, head.dispute_id
            )
            pending, events = pending + more, events + corrected
            prev_hash = pending[-1].hash if pending else prev_hash
        last = battle.version + len(pending)
        # `linked` says what is true of the events just sealed: they name the dispute
        # unless the battle is of chain format 1 (events.chain.seal drops the name there).
        resolved = msgspec.structs.replace(
            head,
            correcting_versions=list(range(battle.version + 1, last + 1)),
            linked=any(p.dispute is not None for p in pending),
        )
        pending += self.sealed(
            loaded,
            msgspec.structs.replace(at, version=last),
            prev_hash,
            principal,
            [(resolved, resolved.audience)],
            command_id,
        )
        return pending, [*events, resolved], None

    @staticmethod
    def sealed(
        loaded: Loaded,
        battle: Battle,
        prev_hash: str,
        principal: Principal,
        decided: list[tuple[Any, str]],
        command_id: str | None,
        dispute: str | None = None,
    ) -> list[PendingEvent]:
        """The decided events as envelopes after `battle`'s version (whose event hashes to
        `prev_hash`): hidden ones salted, each chained to the one before
        (service.battles.sealing, events.chain); naming `dispute` when they are its
        correction (issue 36)."""
        return seal(
            battle_id=loaded.battle_id,
            prev_version=battle.version,
            prev_hash=prev_hash,
            items=[(type_tag(ev), encode_event(ev), audience) for ev, audience in decided],
            recorded_at=clock.now(),
            actor=principal.event_actor,
            command_id=command_id,
            salts=draw_salts([audience for _, audience in decided]),
            # Chain format 2: the command is numbered by its first event (which is
            # also the version its server dice are counted from).
            command_version=battle.version + 1 if battle.meta.created.chain_format >= 2 else None,
            dispute=dispute,
        )
